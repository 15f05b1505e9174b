"""A node's per-game locks and its watchers' wake-ups (engine.web.app.Api.hub).

Every access to one game holds its ``asyncio.Lock`` (:meth:`Hub.lock`).  A watcher (a stream,
a long poll) takes :meth:`Hub.changed` before it reads and waits on it after; an append wakes
it (:meth:`Hub.notify`): the answer to this node's own command, or the store's notification of
another node's append (PostgreSQL, engine.web.app.Api.start).  A wake-up by this node's own
append carries the game's version after it (:class:`Change`), so that a watcher woken again
for records it has already served need not read the game (:func:`holds_news`, Api.woken).
"""

from __future__ import annotations

import asyncio


def holds_news(held: int, seen: int, woken_by: int | None) -> bool:
    """Whether a game held at version ``held`` answers a watcher that has seen ``seen`` and
    was woken by this node's append up to ``woken_by`` (None: by anything else; 0: a long
    poll's first look, which waits if nothing is new): it holds records past ``seen``, or the
    append that woke the watcher (already served)."""
    return held > seen or (woken_by is not None and held >= woken_by)


class Change(asyncio.Event):
    """A game's change notification (:meth:`Hub.changed`); once set, ``version`` is the
    version that this node's own append made the game (None: another node's append, or a
    change this node did not count)."""

    version: int | None = None


class Hub:
    """Per-game locks and change notifications (within this process)."""

    def __init__(self):
        self._locks: dict[str, asyncio.Lock] = {}
        self._changed: dict[str, Change] = {}

    def lock(self, game: str) -> asyncio.Lock:
        """The lock every access to ``game`` holds (one per game)."""
        lock = self._locks.get(game)
        if lock is None:
            lock = self._locks[game] = asyncio.Lock()
        return lock

    def changed(self, game: str) -> Change:
        """An event set at the next append to ``game`` by this process."""
        event = self._changed.get(game)
        if event is None:
            event = self._changed[game] = Change()
        return event

    def notify(self, game: str | None, version: int | None = None) -> None:
        """Wake the waiters of ``game`` (of every game for None); ``version``: the game's
        version after this node's own append that wakes them (Change.version)."""
        if game is None:
            events, self._changed = list(self._changed.values()), {}
        else:
            event = self._changed.pop(game, None)
            events = [] if event is None else [event]
        for event in events:
            event.version = version
            event.set()
