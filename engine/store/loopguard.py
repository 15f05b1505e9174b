"""Keeping a store's round trips off the event loop (issue 21.2).

``devil serve`` on PostgreSQL reads a game's new records with the store's asynchronous read
(``read_async``) and appends with ``append_async``, on the event loop, and runs everything
else of a request there too: the folds, decide, the view.  A rarer path may still need a
blocking read of the store (a game not held yet, the secret on a game's first draw, a seat's
value): it must not block the loop.  The service runs such work inside :func:`on_loop`, and a
store that makes round trips calls :func:`check` before each blocking one:

* before the path has made any durable step (:func:`stepped`), :func:`check` raises
  :class:`NeedsThread`: nothing has been written, so the service starts the same work again
  in a worker thread, where blocking is fine;
* after one, the call goes ahead (the loop waits for it) and is counted in :data:`BLOCKED`
  (the command paths make their reads as steps of their own: tests check the count stays 0).

Outside :func:`on_loop`, or in another thread (a worker thread copies the loop's context),
:func:`check` does nothing.  :func:`fresh` tells the game cache which games were read within
the current section (engine.service.cache: no second read for the same request).
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from typing import Iterator

import attrs


class NeedsThread(BaseException):
    """A blocking store call was asked for on the event loop before anything was written:
    run the work again in a worker thread.  A BaseException, so that no ``except Exception``
    of the rules or the service takes it for a refusal."""


@attrs.define
class Guard:
    """One section on the loop: its thread, the games read in it, whether it wrote."""

    thread: int
    fresh: set = attrs.field(factory=set)
    stepped: bool = False


_GUARD: contextvars.ContextVar[Guard | None] = contextvars.ContextVar("devil_loop_guard",
                                                                      default=None)
#: blocking store calls made on the loop after a durable step (for tests; should stay 0)
BLOCKED = 0
#: how many times :class:`NeedsThread` was raised (work moved to a worker thread; for tests)
NEEDED = 0


@contextlib.contextmanager
def on_loop() -> Iterator[Guard]:
    """A section of work on the event loop (this thread) that must make no blocking store
    call; yields its :class:`Guard`."""
    guard = Guard(threading.get_ident())
    token = _GUARD.set(guard)
    try:
        yield guard
    finally:
        _GUARD.reset(token)


def _current() -> Guard | None:
    guard = _GUARD.get()
    if guard is None or guard.thread != threading.get_ident():
        return None
    return guard


def active() -> bool:
    """Whether this thread is in an :func:`on_loop` section."""
    return _current() is not None


def check() -> None:
    """Called by a store before a blocking round trip: raises NeedsThread inside an
    :func:`on_loop` section that has not written yet; counts the call in :data:`BLOCKED` in
    one that has; nothing elsewhere."""
    global BLOCKED, NEEDED
    guard = _current()
    if guard is None:
        return
    if not guard.stepped:
        NEEDED += 1
        raise NeedsThread()
    BLOCKED += 1


def stepped(now: bool = True) -> bool:
    """Mark the current section as having made a durable step (an append, a write: from
    here it cannot be started again), or, ``now=False``, as not having made one after all (an
    append refused before anything was written); returns the mark it had."""
    guard = _current()
    if guard is None:
        return False
    before, guard.stepped = guard.stepped, now
    return before


def read(game: str) -> None:
    """Note that ``game``'s new records were read (and folded) in the current section."""
    guard = _current()
    if guard is not None:
        guard.fresh.add(game)


def fresh(game: str) -> bool:
    """Whether ``game`` was read in the current section on this thread (the cache need not
    read it again for this request)."""
    guard = _current()
    return guard is not None and game in guard.fresh
