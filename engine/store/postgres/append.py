"""The appends of :class:`engine.store.postgres.PostgresStore` (a mixin, as tlog.py is):
:meth:`~PostgresAppends.append` in a thread and :meth:`~PostgresAppends.append_async` on the
event loop, the same one statement, checks and errors (see the package's docstring).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from psycopg import errors as pg_errors

from ...errors import ConcurrencyConflict, StoreUnavailable, UnknownGame, UsageError
from ...log import Record, encode_command, now_ms
from ..protocol import DuplicateCommand, Head, check_append

#: a game id as the store keeps it
_GAME_ID = re.compile(r"^[a-z]+-[a-z0-9]{4,32}$")


class PostgresAppends:
    """The appending methods of :class:`engine.store.postgres.PostgresStore`."""

    _pool: Any  # the store's Connections
    _apool: Any  # its AsyncConnections
    _hints: dict[str, tuple[int, Head]]  # game -> (created, head) last seen
    _where: str  # the database, without its password
    _bump: Any  # the store's: wake this process's waiters of a game
    channel: str
    origin: str  # this store's own mark in its notifications (its own appends told locally)

    def _check(self, game: str) -> None:
        if not isinstance(game, str) or not _GAME_ID.match(game):
            raise UsageError(f"{game!r} is not a game id (ids look like KIND-k3f9qz)")

    def _unknown(self, game: str) -> UnknownGame:
        return UnknownGame(f"no game {game!r} in {self._where} (see `devil games`)")

    #: the append, one statement committed on its own: the head moves only from where the
    #: records chain from (version, link, the header's time; a concurrent append waits on the
    #: row's lock, then finds it moved: no row), the records go in only with it, the keys
    #: (game, seq) and (game, cmd, left) refuse the whole statement, pg_notify at commit (the
    #: payload: the game id, a space, the appending store's origin)
    _APPEND = ("WITH moved AS (UPDATE games SET head_seq = %(last)s, head_link = %(head)s "
               "WHERE id = %(game)s AND head_seq = %(expected)s AND head_link = %(base)s "
               "AND created = %(created)s RETURNING id), "
               "added AS (INSERT INTO records (game, seq, actor, cmd, ts, \"left\", link, bytes) "
               "SELECT moved.id, %(first)s + n - 1, %(actor)s, %(cmd)s, %(ts)s, %(count)s - n, "
               "r.link, r.bytes FROM moved, unnest(%(links)s::bytea[], %(chunks)s::bytea[]) "
               "WITH ORDINALITY AS r (link, bytes, n)) "
               "SELECT pg_notify(%(channel)s, %(note)s) FROM moved")

    def append(self, game: str, expected: int, actor: int, cmd: str | None, events: list[dict],
               ts: int | None = None) -> list[Record]:
        """Append one command's events in one statement if the stream is at version
        ``expected``.  Raises ConcurrencyConflict naming both versions, DuplicateCommand
        (``cmd`` is in the stream), UnknownGame.  The row is read first only when this store
        has not seen the link at ``expected`` (by a read or an append), and after a refusal."""
        self._check(game)
        if not events:
            return self._check_only(game, expected, cmd)
        for _ in range(3):
            hint = self._hints.get(game)
            if hint is None or hint[1].seq != expected:
                hint = self._hint(game)
                check_append(game, hint[1].seq, expected, None, False)
            created, head = hint
            stamp = max(0, now_ms() - created) if ts is None else ts
            written = encode_command(head.link, expected + 1, actor, cmd, stamp, events)
            records = [record for record, _ in written]
            if self._insert(game, expected, head.link, created, cmd, stamp, written):
                self._hints[game] = (created, Head(records[-1].seq, records[-1].link))
                self._bump(game, records[-1].seq)
                return records
            # the head is not where the hint said (another writer): read it, say so or retry
            created, head = self._hint(game)
            check_append(game, head.seq, expected, None, False)
        raise ConcurrencyConflict(f"{game} kept moving while appending at version {expected}; "
                                  "read it again")

    async def append_async(self, game: str, expected: int, actor: int, cmd: str | None,
                           events: list[dict], ts: int | None = None) -> list[Record]:
        """:meth:`append` on the running event loop (psycopg's asynchronous connections): the
        same statement, checks and errors."""
        self._check(game)
        if not events:  # a check without a write: rare, the blocking way in a worker thread
            return await asyncio.to_thread(self._check_only, game, expected, cmd)
        for _ in range(3):
            hint = self._hints.get(game)
            if hint is None or hint[1].seq != expected:
                hint = await self._hint_async(game)
                check_append(game, hint[1].seq, expected, None, False)
            created, head = hint
            stamp = max(0, now_ms() - created) if ts is None else ts
            written = encode_command(head.link, expected + 1, actor, cmd, stamp, events)
            records = [record for record, _ in written]
            params = self._append_params(game, expected, head.link, created, cmd, stamp, written)
            sent = False
            try:
                async with self._apool.connection() as conn:
                    sent = True  # from here a broken connection leaves a doubt
                    cursor = await conn.execute(self._APPEND, params)
                    moved = await cursor.fetchone() is not None
            except (StoreUnavailable, pg_errors.UniqueViolation) as exc:
                raise self._refusal(exc, sent, game, expected, cmd) from None
            if moved:
                self._hints[game] = (created, Head(records[-1].seq, records[-1].link))
                self._bump(game, records[-1].seq)
                return records
            created, head = await self._hint_async(game)
            check_append(game, head.seq, expected, None, False)
        raise ConcurrencyConflict(f"{game} kept moving while appending at version {expected}; "
                                  "read it again")

    async def _hint_async(self, game: str) -> tuple[int, Head]:
        """:meth:`_hint` on the running event loop."""
        async with self._apool.connection() as conn:
            cursor = await conn.execute(self._HINT, (game,))
            row = await cursor.fetchone()
        if row is None:
            raise self._unknown(game)
        hint = self._hints[game] = (row[0], Head(row[1], row[2]))
        return hint

    def _append_params(self, game: str, expected: int, base: bytes, created: int,
                       cmd: str | None, ts: int, written: list) -> dict:
        """The parameters of :data:`_APPEND` for the records ``written`` (encode_command)."""
        records = [record for record, _ in written]
        return {"game": game, "expected": expected, "base": base, "created": created,
                "first": expected + 1, "actor": records[0].actor, "cmd": cmd, "ts": ts,
                "count": len(written), "links": [record.link for record in records],
                "chunks": [chunk for _, chunk in written], "last": records[-1].seq,
                "head": records[-1].link, "channel": self.channel,
                "note": f"{game} {self.origin}"}

    def _refusal(self, exc: Exception, sent: bool, game: str, expected: int, cmd: str | None
                 ) -> Exception:
        """What a failed :data:`_APPEND` raises: StoreUnavailable (with the doubt once it was
        sent), DuplicateCommand for a used command id, else ConcurrencyConflict."""
        if isinstance(exc, StoreUnavailable):
            if not sent:
                return exc
            # it may have been recorded: wake this store's waiters (its notification's echo
            # is not told again), who read and see
            self._bump(game)
            return StoreUnavailable(
                exc.message.rpartition(";")[0] + f"; the command {cmd!r} may or may not have "
                f"been recorded in {game}: resend it with the same command id")
        assert isinstance(exc, pg_errors.UniqueViolation)
        if exc.diag.constraint_name == "records_command":
            return DuplicateCommand(f"command id {cmd!r} is already in {game}")
        return ConcurrencyConflict(f"{game} moved on while appending at version {expected}; "
                                   "read it again")

    def _insert(self, game: str, expected: int, base: bytes, created: int, cmd: str | None,
                ts: int, written: list) -> bool:
        """Run :data:`_APPEND`: whether the head moved from ``expected`` and ``base``.
        DuplicateCommand, ConcurrencyConflict, StoreUnavailable (a doubt once it was sent)."""
        params = self._append_params(game, expected, base, created, cmd, ts, written)
        sent = False
        try:
            with self._pool.connection() as conn:
                sent = True  # from here a broken connection leaves a doubt
                return conn.execute(self._APPEND, params).fetchone() is not None
        except (StoreUnavailable, pg_errors.UniqueViolation) as exc:
            raise self._refusal(exc, sent, game, expected, cmd) from None

    #: the game's row as an append chains from it
    _HINT = "SELECT created, head_seq, head_link FROM games WHERE id = %s"

    def _hint(self, game: str) -> tuple[int, Head]:
        """The game's ``(created, head)`` read from its row (and kept as the hint)."""
        with self._pool.connection() as conn:
            row = conn.execute(self._HINT, (game,)).fetchone()
        if row is None:
            raise self._unknown(game)
        hint = self._hints[game] = (row[0], Head(row[1], row[2]))
        return hint

    def _check_only(self, game: str, expected: int, cmd: str | None) -> list[Record]:
        """An append of no events: the checks alone (version, command id), nothing written."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT head_seq, %(cmd)s::text IS NOT NULL AND EXISTS "
                "(SELECT 1 FROM records WHERE game = %(game)s AND cmd = %(cmd)s) "
                "FROM games WHERE id = %(game)s", {"game": game, "cmd": cmd}).fetchone()
        if row is None:
            raise self._unknown(game)
        check_append(game, row[0], expected, cmd, row[1])
        return []
