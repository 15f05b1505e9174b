"""The PostgreSQL store's transparency log (engine.tlog; migration 3): the store methods
``tlog_size``, ``tlog_entries`` and ``tlog_hashes`` of engine.store.protocol.

Leaves are written by a trigger in each write's own transaction (table ``tlog_pending``);
reading the log first integrates them: under a transaction-scoped advisory lock, every
committed pending leaf is moved to the end of ``tlog`` (dense indices, in the order written;
one game's writes are serialized by its row, so its leaves keep its order).  Each instance
keeps the leaves it read and reads only those after them.
"""

from __future__ import annotations

import threading
from typing import Any

from ...tlog.merkle import leaf_hash

_INTEGRATE_LOCK = 0x746C6F67  # "tlog"
_INTEGRATE = ("WITH moved AS (DELETE FROM tlog_pending RETURNING id, entry), "
              "base AS (SELECT count(*) AS n FROM tlog) "
              "INSERT INTO tlog (idx, entry) SELECT base.n + row_number() OVER (ORDER BY moved.id)"
              " - 1, moved.entry FROM moved, base")


class PostgresTlog:
    """The transparency-log methods of :class:`engine.store.postgres.PostgresStore`."""

    _pool: Any  # the store's Connections

    def _tlog_state(self) -> tuple[threading.Lock, list[bytes], list[bytes]]:
        state = self.__dict__.get("_tlog")
        if state is None:
            state = self.__dict__.setdefault("_tlog", (threading.Lock(), [], []))
        return state

    def _tlog_read(self) -> tuple[list[bytes], list[bytes]]:
        lock, entries, hashes = self._tlog_state()
        with lock, self._pool.connection() as conn:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_INTEGRATE_LOCK,))
                conn.execute(_INTEGRATE)
            rows = conn.execute("SELECT entry FROM tlog WHERE idx >= %s ORDER BY idx",
                                (len(entries),)).fetchall()
            new = [bytes(row[0]) for row in rows]
            entries.extend(new)
            hashes.extend(leaf_hash(e) for e in new)
            return list(entries), list(hashes)

    def tlog_size(self) -> int:
        """How many leaves the store's transparency log has (one per write)."""
        return len(self._tlog_read()[0])

    def tlog_entries(self, start: int = 0, end: int | None = None) -> list[bytes]:
        """The leaf entries ``start`` to ``end`` (engine.tlog.leaves), oldest first."""
        return self._tlog_read()[0][start:end]

    def tlog_hashes(self, end: int | None = None) -> list[bytes]:
        """The RFC 6962 leaf hashes of the first ``end`` leaves (default all)."""
        return self._tlog_read()[1][:end]
