"""Bots playing whole recorded games fast: in memory, written to the store once at the end.

A game played command by command through a file store pays one ``fsync`` per command; a
simulation needs only the finished record.  :func:`play_game` plays in a
:class:`~engine.store.MemoryStore` (the same encoder, so the same bytes) and hands the whole log
to the real store with ``import_log`` when the game ends, with its secret.  ``durable=True``
plays on the real store command by command instead.

A game stopped by the turn cap is marked as such: the store keeps a private ``"stopped"``
document beside it (``{"why": "turn cap", "max_rounds": N, "rounds": R, "commands": C}``),
which ``devil games`` shows; its log ends as it stood (in progress).
"""

from __future__ import annotations

from typing import Any, Callable

from .bots import play_out
from .service import GameService
from .store import EventStore, MemoryStore

#: the private document that marks a game stopped before its end
STOPPED = "stopped"


def play_game(store: EventStore, kind: str, options: dict, bots: dict[int, Any], *,
              seed: int | None = None, max_rounds: int = 500, durable: bool = False,
              on_events: Callable | None = None) -> dict:
    """Create a game of ``kind`` with ``options`` and let ``bots`` (seat -> bot) play it out.

    Returns :func:`engine.bots.play_out`'s result (``over``, ``capped``, ``commands``,
    ``rounds``, ``state``: the referee's final state) plus ``game`` (its id in ``store``).
    Raises UsageError for bad options or bots.
    """
    service = GameService(store) if durable else GameService(MemoryStore(), sign=False)
    game = service.create(kind, options, seed=seed).game
    result = play_out(service, game, bots, max_rounds=max_rounds, on_events=on_events)
    if not durable:
        store.import_log(service.store.log_bytes(game), service.store.secret(game))
        if result["over"]:  # sealed by the store it lands in (engine.receipts)
            from .receipts import seal_stream

            seal_stream(store, game)
    if result["capped"]:
        store.put_private(game, STOPPED, {"why": "turn cap", "max_rounds": max_rounds,
                                          "rounds": result["rounds"],
                                          "commands": result["commands"]})
    return {**result, "game": game}


def stopped(store: EventStore, game: str) -> dict | None:
    """The mark of a game stopped before its end (see the module doc), or None."""
    try:
        return store.private(game, STOPPED)
    except (OSError, ValueError):
        return None
