"""Snapshots of the service's folds: a shortcut for a cold load, never trusted.

Every :data:`SNAPSHOT_EVERY` events the service saves every fold of a game (referee, each seat,
the public) with the sequence number and link it was folded to (engine.fold's snapshot bytes,
behind the store protocol: ``store.save_snapshot``).  A cold load
(:class:`engine.service.cache.GameCache`) starts from the snapshot only if the log has that
link at that position and the snapshot names this game and its header's link; anything else
is ignored, the log folded from the start, and the snapshot written again.

A snapshot is sealed with a key of the store's own (the store-wide private document
``"snapshots"``, made once): ``DSN1``, an HMAC-SHA256 of the game id and the snapshot bytes, then
the bytes.  A snapshot this store's service did not write (damaged, crafted, copied from another
store) fails the seal and is never unpickled; one whose folds cannot be built or advanced is
dropped the same way, and the log folded from the start.
"""

from __future__ import annotations

import hashlib
import hmac

from ..fold import read_snapshot, snapshot_bytes, snapshot_folds

#: what a sealed snapshot starts with
MAGIC = b"DSN1"
_MAC = 32

#: a snapshot is written once this many events were folded since the last one
SNAPSHOT_EVERY = 500


def due(loaded) -> bool:
    """Whether :data:`SNAPSHOT_EVERY` events were folded since ``loaded``'s last snapshot."""
    return loaded.head.seq - loaded.snapshot_seq >= SNAPSHOT_EVERY


def _key(store) -> bytes:
    """The store's snapshot key (32 random bytes, made once and kept private)."""
    kept = store.store_private("snapshots")
    if not (isinstance(kept, dict) and isinstance(kept.get("key"), str)):
        import secrets

        kept = store.put_store_private("snapshots", {"key": secrets.token_hex(32)})
    return bytes.fromhex(kept["key"])


def _mac(key: bytes, game: str, data: bytes) -> bytes:
    return hmac.new(key, game.encode() + b"\0" + data, hashlib.sha256).digest()


def seal(store, game: str, data: bytes) -> bytes:
    """``data`` (snapshot bytes of ``game``) sealed with the store's snapshot key."""
    return MAGIC + _mac(_key(store), game, data) + data


def unseal(store, game: str, sealed: bytes) -> bytes | None:
    """The snapshot bytes inside ``sealed``, or None unless this store sealed them for
    ``game``."""
    if not sealed.startswith(MAGIC) or len(sealed) < len(MAGIC) + _MAC:
        return None
    mac, data = sealed[len(MAGIC):len(MAGIC) + _MAC], sealed[len(MAGIC) + _MAC:]
    try:
        key = _key(store)
    except (OSError, ValueError, TypeError):
        return None
    return data if hmac.compare_digest(mac, _mac(key, game, data)) else None


def write(store, loaded, folds: dict) -> None:
    """Save ``folds`` ({viewer: Fold}, all at ``loaded``'s head) as ``loaded``'s snapshot."""
    data = snapshot_bytes(loaded.game, loaded.header.kind, loaded.header.link, loaded.head.seq,
                          loaded.head.link, folds)
    try:
        store.save_snapshot(loaded.game, seal(store, loaded.game, data))
    except OSError:  # pragma: no cover - a snapshot is only a shortcut
        return
    loaded.snapshot_seq = loaded.head.seq


def read(store, sealed: bytes, game: str):
    """``(seq, link, header_link, plain folds)`` of a snapshot of ``game`` this store sealed,
    or None."""
    data = unseal(store, game, sealed)
    return None if data is None else read_snapshot(data, game)


def folds(rules, seq: int, plain: dict) -> dict:
    """``{viewer: Fold}`` from a snapshot's plain folds."""
    return snapshot_folds(rules, seq, plain)
