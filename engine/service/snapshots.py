"""Snapshots of the service's folds: a shortcut for a cold load, never trusted.

Every :data:`SNAPSHOT_EVERY` events the service saves every fold of a game (referee, each seat,
the public) with the sequence number and link it was folded to (engine.fold's snapshot bytes,
behind the store protocol: ``store.save_snapshot``).  A cold load
(:class:`engine.service.cache.GameCache`) starts from the snapshot only if the log has that
link at that position and the snapshot names this game and its header's link; anything else
is ignored, the log folded from the start, and the snapshot written again.
"""

from __future__ import annotations

from ..fold import read_snapshot, snapshot_bytes, snapshot_folds

#: a snapshot is written once this many events were folded since the last one
SNAPSHOT_EVERY = 500


def due(loaded) -> bool:
    """Whether :data:`SNAPSHOT_EVERY` events were folded since ``loaded``'s last snapshot."""
    return loaded.head.seq - loaded.snapshot_seq >= SNAPSHOT_EVERY


def write(store, loaded, folds: dict) -> None:
    """Save ``folds`` ({viewer: Fold}, all at ``loaded``'s head) as ``loaded``'s snapshot."""
    data = snapshot_bytes(loaded.game, loaded.header.kind, loaded.header.link, loaded.head.seq,
                          loaded.head.link, folds)
    try:
        store.save_snapshot(loaded.game, data)
    except OSError:  # pragma: no cover - a snapshot is only a shortcut
        return
    loaded.snapshot_seq = loaded.head.seq


def read(data: bytes, game: str):
    """``(seq, link, header_link, plain folds)`` of a snapshot of ``game``, or None."""
    return read_snapshot(data, game)


def folds(rules, seq: int, plain: dict) -> dict:
    """``{viewer: Fold}`` from a snapshot's plain folds."""
    return snapshot_folds(rules, seq, plain)
