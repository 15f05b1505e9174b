"""An in-memory store: the same streams, bytes and guarantees as the file store, kept in this
process only.

Used where nothing needs to outlive the process until the end: ``devil simulate`` plays whole
games here and writes each finished log to the real store once (``import_log`` of
:meth:`MemoryStore.log_bytes`, byte for byte what a game played command by command writes),
and tests.  Implements :class:`engine.store.protocol.EventStore`.
"""

from __future__ import annotations

import re
import threading
import time

import attrs

from ..errors import UnknownGame, UsageError
from ..log import Header, Record, encode_command, encode_header, encode_records, now_ms, scan
from ..tlog.leaves import entry as leaf_entry
from .protocol import Batch, Head, check_append, new_id, resolve_id
from .tlog import MemoryLeaves, TlogMethods

_GAME_ID = re.compile(r"^[a-z]+-[a-z0-9]{4,32}$")


@attrs.define
class _Stream:
    header: Header
    data: bytearray
    records: list[Record]
    commands: dict[str, tuple[int, int]]
    private: dict[str, dict]
    snapshot: bytes | None = None

    @property
    def head(self) -> Head:
        return Head(self.records[-1].seq, self.records[-1].link) if self.records \
            else Head(0, self.header.link)

    def extend(self, records: list[Record], data: bytes) -> None:
        index = len(self.records)
        self.records.extend(records)
        for offset, record in enumerate(records):
            if record.cmd is not None:
                first, count = self.commands.get(record.cmd, (index + offset, 0))
                self.commands[record.cmd] = (first, count + 1)
        self.data += data


_PRIVATE = re.compile(r"^[a-z]{1,16}$")


class MemoryStore(TlogMethods):
    """Streams in a dict (an :class:`~engine.store.protocol.EventStore`); thread-safe."""

    #: reads are in memory: an event loop may make them (EventStore's ``local``)
    local = True

    def __init__(self):
        self._streams: dict[str, _Stream] = {}
        self._order: list[str] = []
        self._lock = threading.Condition()
        self._store_private: dict[str, dict] = {}
        self._leaves = MemoryLeaves()

    def _get(self, game: str) -> _Stream:
        self._check(game)
        stream = self._streams.get(game)
        if stream is None:
            raise UnknownGame(f"no game {game!r} in memory")
        return stream

    @staticmethod
    def _check(game: str) -> None:
        if not isinstance(game, str) or not _GAME_ID.match(game):
            raise UsageError(f"{game!r} is not a game id (ids look like KIND-k3f9qz)")

    def location(self, game: str | None = None) -> str:
        return "memory" if game is None else f"memory:{game}"

    def create(self, kind: str, game: str, actor: int, events: list[dict],
               secret: dict | None = None, created: int | None = None,
               private: dict[str, dict] | None = None) -> list[Record]:
        self._check(game)
        created = now_ms() if created is None else created
        header = encode_header(kind, game, created)
        first, _ = encode_records(scan(header).header.link, 1, actor, None, 0, events)
        self._install(header + first, secret, private)
        return list(self._streams[game].records)

    def import_log(self, data: bytes, secret: dict | None = None) -> str:
        result = scan(bytes(data))
        if result.torn:
            raise UsageError(f"the log ends in {result.torn} bytes of an unfinished write; "
                             "a log to import must be complete")
        if not result.records:
            raise UsageError("the log has a header but no events")
        self._check(result.header.game)
        return self._install(bytes(data), secret, scanned=result)

    def _install(self, data: bytes, secret: dict | None,
                 private: dict[str, dict] | None = None, scanned=None) -> str:
        result = scan(data) if scanned is None else scanned  # import_log has read it already
        game = result.header.game
        with self._lock:
            if game in self._streams:
                raise UsageError(f"a game {game} exists already in memory")
            documents = {name: dict(doc) for name, doc in (private or {}).items()}
            if secret is not None:
                documents["secret"] = dict(secret)
            stream = _Stream(result.header, bytearray(), [], {}, documents)
            stream.extend(result.records, data)
            self._streams[game] = stream
            self._order.append(game)
            last = result.records[-1]
            self._leaves.add([leaf_entry(game, last.seq, last.link)])
        return game

    def append(self, game: str, expected: int, actor: int, cmd: str | None, events: list[dict],
               ts: int | None = None) -> list[Record]:
        with self._lock:
            stream = self._get(game)
            head = stream.head
            check_append(game, head.seq, expected, cmd, cmd in stream.commands)
            if not events:
                return []
            if ts is None:
                ts = max(0, now_ms() - stream.header.created)
            written = encode_command(head.link, head.seq + 1, actor, cmd, ts, events)
            records = [record for record, _ in written]
            stream.extend(records, b"".join(chunk for _, chunk in written))
            self._leaves.add([leaf_entry(game, records[-1].seq, records[-1].link)])
            self._lock.notify_all()
            return records

    def append_many(self, requests: list[tuple]) -> list:
        """Several appends in turn (as the file store's group commit): each one's records or
        its error."""
        results: list = []
        for request in requests:
            try:
                results.append(self.append(*request))
            except Exception as exc:  # this request's answer, not the others'
                results.append(exc)
        return results

    def read(self, game: str, after: int = 0) -> Batch:
        with self._lock:
            stream = self._get(game)
            head = stream.head
            if after > head.seq or after < 0:
                return Batch(stream.header, [], None, head)
            base = Head(after, stream.records[after - 1].link if after else stream.header.link)
            return Batch(stream.header, stream.records[after:], base, head)

    def head(self, game: str) -> Head:
        with self._lock:
            return self._get(game).head

    def header(self, game: str) -> Header:
        with self._lock:
            return self._get(game).header

    def command(self, game: str, cmd: str) -> list[Record] | None:
        with self._lock:
            stream = self._get(game)
            found = stream.commands.get(cmd)
            return None if found is None else stream.records[found[0]:found[0] + found[1]]

    def wait(self, game: str, after: int, timeout: float) -> Head:
        deadline = time.monotonic() + max(0.0, timeout)
        with self._lock:
            while True:
                head = self._get(game).head
                left = deadline - time.monotonic()
                if head.seq > after or left <= 0:
                    return head
                self._lock.wait(left)

    def games(self) -> list[str]:
        with self._lock:
            return list(self._order)

    def exists(self, game: str) -> bool:
        with self._lock:
            return game in self._streams

    def new_game_id(self, kind: str) -> str:
        """A fresh id for a new game of ``kind`` (engine.store.protocol.new_id)."""
        return new_id(kind, self.exists)

    def resolve(self, text: str) -> str:
        return resolve_id(text, self.games(), "memory")

    def secret(self, game: str) -> dict | None:
        return self.private(game, "secret")

    def private(self, game: str, name: str) -> dict | None:
        with self._lock:
            document = self._get(game).private.get(name)
            return None if document is None else dict(document)

    def put_private(self, game: str, name: str, document: dict, *, replace: bool = False) -> None:
        with self._lock:
            stream = self._get(game)
            if not replace and name in stream.private:
                raise UsageError(f"{game} already has {name}")
            stream.private[name] = dict(document)

    @staticmethod
    def _check_name(name: str) -> None:
        if not isinstance(name, str) or not _PRIVATE.match(name):
            raise UsageError(f"{name!r} is not a private document name")

    def store_private(self, name: str) -> dict | None:
        self._check_name(name)
        with self._lock:
            document = self._store_private.get(name)
            return None if document is None else dict(document)

    def put_store_private(self, name: str, document: dict) -> dict:
        self._check_name(name)
        with self._lock:
            return dict(self._store_private.setdefault(name, dict(document)))

    def log_bytes(self, game: str) -> bytes:
        with self._lock:
            return bytes(self._get(game).data)

    def damage(self, game: str) -> list[dict]:
        """Nothing is ever torn in memory: always empty."""
        self.head(game)
        return []

    def acknowledge_aside(self, game: str, file: str, by: str) -> dict:
        self.head(game)
        raise UsageError(f"{file!r} is not set aside from {game} (set aside: none)")

    def warnings(self) -> list[str]:
        return []

    def snapshot(self, game: str) -> bytes | None:
        with self._lock:
            return self._get(game).snapshot

    def save_snapshot(self, game: str, data: bytes) -> None:
        with self._lock:
            self._get(game).snapshot = bytes(data)
