"""The .devlog file: an append-only, hash-chained sequence of msgpack records.

Byte-level layout (docs/log-format.md is the full description):

* The file is a plain concatenation of msgpack objects; nothing else.
* The first object is the **header**, a map, whose last entry is ``"link"``::

      {"magic": "devil-log", "version": 1, "kind": KIND, "game": "KIND-3k9f2m",
       "created": <ms since the Unix epoch, UTC>, "engine": "0.1.0", "link": <bin 8>}

  ``engine`` (the engine version that wrote the log, :data:`engine.__version__`) is optional:
  logs written before it was recorded have no such key and read and verify as before.

* Every following object is an **event record**, an array of 7::

      [seq, actor, cmd, ts, event, left, link]

  ``seq`` 1, 2, 3, ...; ``actor`` the seat index that submitted the command (-1: the referee);
  ``cmd`` the command id (str) or nil; ``ts`` ms since the header's ``created`` (informational;
  folding ignores it); ``event`` the tagged event map; ``left`` how many more records the same
  command wrote after this one (0 on its last record: a command is atomic); ``link``.
* ``link`` is always encoded as ``bin 8`` (``c4 08`` + 8 bytes) and is the last thing in its
  object, so the object's bytes minus the final 10 are what it covers::

      link = blake2b(previous_link + object_bytes[:-10], digest_size=8)

  with ``previous_link`` = 8 zero bytes for the header.  Each link covers the previous one, so
  the links form a hash chain: an edited, removed or reordered record breaks the chain at that
  record, and the last record is protected by its own link.

Recovery: an incomplete object at the end of the file (a crash in the middle of an append), a
tail of NUL bytes, or trailing complete records of a command whose last record is missing
(``left`` > 0) were never acknowledged: :func:`scan` reports them as a torn tail and
:class:`LogWriter` cuts them when it opens the file.  Everything else is damage, reported as
:class:`engine.errors.LogDamaged` with the sequence number of the first bad record.
"""

from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import os
import time
from typing import Any, Iterator

import attrs
import msgpack

from . import __version__ as ENGINE_VERSION
from .errors import LogDamaged, UsageError

MAGIC = "devil-log"
VERSION = 1
LINK_SIZE = 8
_LINK_TAIL = b"\xc4\x08"  # msgpack bin 8 marker + length
ZERO_LINK = bytes(LINK_SIZE)
#: the actor recorded for the referee (and for the game's own setup events)
REFEREE_ACTOR = -1
#: the latest header time accepted (ms since the epoch: 9000-01-01), and the longest a record's
#: ``ts`` may be after it (1000 years): beyond them a time is not a time but damage
MAX_CREATED = 221845392000000
MAX_TS = 31_556_952_000_000


def link_of(previous: bytes, covered: bytes) -> bytes:
    """The chain link of an object whose bytes (minus the trailing link) are ``covered``."""
    return hashlib.blake2b(previous + covered, digest_size=LINK_SIZE).digest()


#: the longest engine version a header may name (a short version string, e.g. "0.1.0")
MAX_ENGINE = 64


@attrs.frozen(slots=True)
class Header:
    """The header record: format ``version``, game ``kind`` and ``game`` id, ``created`` (ms,
    UTC), and ``engine``: the engine version that wrote the log (a str of at most
    :data:`MAX_ENGINE` printable characters), None when the header has none (a log written
    before the version was recorded).  A store that rebuilds the header from its own index
    rather than from the bytes (PostgresStore's ``read``/``header``) leaves ``engine`` None:
    the bytes (``log_bytes``) hold it, and every reader of a log (engine.replay) scans them."""

    version: int
    kind: str
    game: str
    created: int
    link: bytes
    engine: str | None = None


@attrs.frozen(slots=True)
class Record:
    """One event record as stored.  ``event`` is the raw tagged map (decode with the kind's
    registry)."""

    seq: int
    actor: int
    cmd: str | None
    ts: int
    event: dict
    left: int
    link: bytes


@attrs.frozen
class Scan:
    """What :func:`scan` found.

    ``records``: every good record, in order.  ``good_end``: the byte offset just past the last
    record of the last complete command (where an append continues).  ``torn``: how many bytes
    after ``good_end`` are an unacknowledged torn tail (0 for a clean file).
    """

    header: Header
    records: list[Record]
    good_end: int
    torn: int

    @property
    def last_seq(self) -> int:
        return self.records[-1].seq if self.records else 0

    @property
    def last_link(self) -> bytes:
        return self.records[-1].link if self.records else self.header.link


def encode_header(kind: str, game: str, created: int,
                  engine: str | None = ENGINE_VERSION) -> bytes:
    """The bytes of a header record; ``engine`` is the engine version it names (default: this
    engine's, :data:`engine.__version__`; None writes a header without it, as before the
    version was recorded)."""
    fields: dict[str, Any] = {"magic": MAGIC, "version": VERSION, "kind": kind, "game": game,
                              "created": created}
    if engine is not None:
        fields["engine"] = engine
    fields["link"] = b""
    body = msgpack.packb(fields, use_bin_type=True)
    # re-pack with the real link: same map, the link's bytes differ only at the end
    covered = body[: -len(msgpack.packb(b"", use_bin_type=True))]
    link = link_of(ZERO_LINK, covered)
    return covered + _LINK_TAIL + link


def encode_records(previous_link: bytes, first_seq: int, actor: int, cmd: str | None, ts: int,
                   events: list[dict]) -> tuple[bytes, list[bytes]]:
    """The bytes of the records one command writes, and their links.

    ``events`` are tagged maps; ``ts`` is ms since the header's ``created``.
    """
    written = encode_command(previous_link, first_seq, actor, cmd, ts, events)
    return b"".join(chunk for _, chunk in written), [record.link for record, _ in written]


def encode_command(previous_link: bytes, first_seq: int, actor: int, cmd: str | None, ts: int,
                   events: list[dict]) -> list[tuple[Record, bytes]]:
    """The records one command writes (seq from ``first_seq``, ``left`` counting down to 0),
    each with its own bytes: what every store appends, so every store holds the same bytes."""
    out = []
    left = len(events)
    pack = msgpack.Packer(use_bin_type=True).pack
    for offset, event in enumerate(events):
        left -= 1
        seq = first_seq + offset
        covered = (b"\x97" + pack(seq) + pack(actor) + pack(cmd) + pack(ts) + pack(event)
                   + pack(left))
        previous_link = link_of(previous_link, covered)
        out.append((Record(seq, actor, cmd, ts, event, left, previous_link),
                    covered + _LINK_TAIL + previous_link))
    return out


def _header_from(obj: Any, data: bytes, end: int) -> Header:
    if not isinstance(obj, dict) or obj.get("magic") != MAGIC:
        raise LogDamaged(0, "not a devil log (the header's magic is missing)")
    version = obj.get("version")
    if version != VERSION:
        raise LogDamaged(0, f"format version {version!r} is not supported "
                            f"(this tool reads {VERSION})")
    link = obj.get("link")
    if (not isinstance(link, bytes) or len(link) != LINK_SIZE
            or data[end - 10:end - 8] != _LINK_TAIL or list(obj)[-1] != "link"):
        raise LogDamaged(0, "the header's link is missing or malformed")
    if link_of(ZERO_LINK, data[:end - 10]) != link:
        raise LogDamaged(0, "the header's link does not match its contents (edited header)")
    kind, game, created = obj.get("kind"), obj.get("game"), obj.get("created")
    if not isinstance(kind, str) or not isinstance(game, str) or type(created) is not int:
        raise LogDamaged(0, "the header lacks kind, game or created")
    if not 0 <= created <= MAX_CREATED:
        raise LogDamaged(0, f"the header's time {created} is not a time (ms since 1970, before "
                            "the year 9000)")
    if not kind.isalpha() or not kind.islower() or not game.startswith(kind + "-"):
        raise LogDamaged(0, f"the header's game id {game!r} does not belong to its kind {kind!r}")
    engine = obj.get("engine")
    if "engine" in obj and (type(engine) is not str or not 0 < len(engine) <= MAX_ENGINE
                            or not engine.isprintable()):
        raise LogDamaged(0, f"the header's engine version {engine!r} is not a version (1 to "
                            f"{MAX_ENGINE} printable characters)")
    return Header(version, kind, game, created, link, engine)


def _next_record_follows(data: bytes, start: int, seq: int) -> bool:
    """Whether a well-formed record with a sequence number above ``seq`` starts after ``start``.

    Used to tell a torn tail (a prefix of one command's write) from damage in the middle of a
    file that happens to look incomplete (a flipped length byte).
    """
    pos = data.find(b"\x97", start + 1)
    while pos != -1:
        unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
        unpacker.feed(data[pos:pos + (1 << 16)])
        try:
            obj = unpacker.unpack()
        except Exception:
            obj = None
        if (isinstance(obj, list) and len(obj) == 7 and isinstance(obj[0], int) and obj[0] > seq
                and isinstance(obj[6], bytes) and len(obj[6]) == LINK_SIZE):
            return True
        pos = data.find(b"\x97", pos + 1)
    return False


def scan(data: bytes, path: str | None = None) -> Scan:
    """Parse and check a whole .devlog held in ``data``.

    Returns a :class:`Scan`; raises :class:`LogDamaged` (with ``path`` in the message) at the
    first bad record.  Checks: the header's magic, version and link; for every record its shape,
    its ``seq`` (one more than the last), its link, and that a command's records run
    ``left`` = k, k-1, ..., 0.
    """
    try:
        try:
            return _scan(data)
        except LogDamaged as first:
            # A crash can leave part of a record followed by NUL bytes (the file system
            # zero-fills the rest of the block).  Without the NULs, if what remains is a clean
            # log with a torn tail, it is that; otherwise the first error stands.
            stripped = data.rstrip(b"\0")
            if len(stripped) == len(data):
                raise
            info = Walk()
            try:
                result = _scan(stripped, info)
            except LogDamaged:
                raise first from None
            # The NULs were not all fill if the file ends exactly where a record ends (its link
            # marker 10 bytes from the end, or its link verifying): a link whose last bytes are
            # zero, in a record damaged elsewhere.  That is damage, not a torn write.
            if not result.torn or _ends_on_a_link(data[info.end:], info.link):
                raise first from None
            return Scan(result.header, result.records, result.good_end,
                        len(data) - result.good_end)
    except LogDamaged as exc:
        if path is not None and exc.path is None:
            raise LogDamaged(exc.seq, exc.reason, path) from None
        raise


class Walk:
    """What :func:`walk` found besides the records: filled in as the walk goes.

    ``header`` (set before the first record is yielded); once the walk is exhausted:
    ``good_end`` (offset just past the last complete command), ``pending`` (records the last
    command still owed: its records were never acknowledged), ``seq`` (the last sequence number
    walked), ``last_good_seq`` (the last one of a complete command), ``end`` (offset just past
    the last record walked: a torn tail starts there) and ``link`` (that record's link).
    """

    __slots__ = ("header", "good_end", "pending", "seq", "last_good_seq", "end", "link")

    def __init__(self):
        self.header: Header | None = None
        self.good_end = 0
        self.pending = 0
        self.seq = 0
        self.last_good_seq = 0
        self.end = 0
        self.link = ZERO_LINK


def walk(data: bytes, info: Walk) -> Iterator[list]:
    """Check ``data`` record by record and yield each good record as the list
    ``[seq, actor, cmd, ts, event, left, link]``; raise :class:`LogDamaged` at the first bad one.

    The one implementation of the checks :func:`scan` describes; :func:`scan` and fast folds
    (engine.replay.fold_bytes) both use it.  Records of a last command whose write never
    finished are yielded too: ``info.pending`` says how many of the last yielded records were
    never acknowledged (their command ends with ``left`` > 0).
    """
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(data)
    try:
        header_obj = unpacker.unpack()
    except msgpack.OutOfData:
        raise LogDamaged(0, "the file is empty or its header is cut short") from None
    except Exception as exc:
        raise LogDamaged(0, f"the header is not msgpack ({exc})") from None
    end = unpacker.tell()
    header = _header_from(header_obj, data, end)
    info.header = header
    yield from walk_records(data, end, 0, header.link, info, unpacker)


def walk_records(data: bytes, start: int, seq: int, previous: bytes, info: Walk,
                 unpacker: "msgpack.Unpacker | None" = None) -> Iterator[list]:
    """The record part of :func:`walk`: check and yield the records of ``data`` from byte
    offset ``start``, where the record after sequence number ``seq`` begins and ``previous`` is
    the link of the record before it (the header's link when ``seq`` is 0).

    This is how a store reads only what was appended since it last looked: the chain is
    checked from the link it already trusts.  ``info`` offsets are offsets into ``data``.
    """
    if unpacker is None:
        unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
        unpacker.feed(data[start:] if start else data)
        base = start
    else:
        base = 0
    end = start
    good_end = start
    last_good = seq
    pending = 0  # records still expected to finish the current command
    tell = unpacker.tell
    unpack = unpacker.unpack
    blake2b = hashlib.blake2b
    link_tail = _LINK_TAIL
    while True:
        start = end
        try:
            obj = unpack()
        except msgpack.OutOfData:
            break
        except Exception as exc:
            if not data[start:].strip(b"\0"):
                break
            raise LogDamaged(seq + 1, f"record is not msgpack ({exc})") from None
        end = base + tell()
        if type(obj) is not list or len(obj) != 7:
            if not data[start:].strip(b"\0"):
                end = start
                break
            raise LogDamaged(seq + 1, "record is not an array of 7")
        rseq, actor, cmd, ts, event, left, link = obj
        seq += 1
        if rseq != seq:
            raise LogDamaged(seq, f"sequence number {rseq!r} where {seq} was expected "
                                  "(a record was removed, repeated or moved)")
        if data[end - 10:end - 8] != link_tail or type(link) is not bytes:
            raise LogDamaged(rseq, "the record's link is missing or malformed")
        if link != blake2b(previous + data[start:end - 10], digest_size=LINK_SIZE).digest():
            raise LogDamaged(rseq, "the hash chain breaks here: this record, or the one before it, "
                                   "was edited, removed or moved")
        if (type(actor) is not int or type(ts) is not int or type(event) is not dict
                or type(left) is not int or left < 0 or (cmd is not None and type(cmd) is not str)
                or not 0 <= ts <= MAX_TS or not -1 <= actor < 1000):
            raise LogDamaged(rseq, "a field of the record has the wrong type or is out of range")
        if pending and left != pending - 1:
            raise LogDamaged(rseq, f"the command's records run out of order (left={left}, "
                                   f"expected {pending - 1})")
        previous = link
        pending = left
        if left == 0:
            good_end = end
            last_good = seq
        yield obj
    if end < len(data):
        tail = data[end:]
        if _next_record_follows(data, end, seq):
            raise LogDamaged(seq + 1, "record is cut short or garbled, and records follow it")
        if _ends_on_a_link(tail, previous):
            # a torn write is a prefix: it does not end exactly on a link
            raise LogDamaged(seq + 1, "the last record is garbled "
                                      "(it is complete but does not parse)")
    info.good_end = good_end
    info.end = end
    info.link = previous
    info.pending = pending
    info.seq = seq
    info.last_good_seq = last_good


def _ends_on_a_link(tail: bytes, previous: bytes) -> bool:
    """Whether ``tail`` (what follows the last good record) ends exactly where a record ends:
    ``c4 08`` ten bytes from its end, or its last 8 bytes the link of the rest after
    ``previous``.  A torn write is a prefix of a record, so this means damage."""
    return len(tail) >= 10 and (tail[-10:-8] == _LINK_TAIL
                                or link_of(previous, tail[:-10]) == tail[-8:])


def _scan(data: bytes, info: Walk | None = None) -> Scan:
    info = Walk() if info is None else info
    records: list[Record] = []
    append = records.append
    for obj in walk(data, info):
        append(Record(*obj))
    if info.pending:
        # the last command's write never finished: its records were never acknowledged
        del records[info.last_good_seq:]
    assert info.header is not None  # the walk read the header (or raised) before any record
    return Scan(info.header, records, info.good_end, len(data) - info.good_end)


def scan_after(data: bytes, start: int, header: Header, seq: int, previous: bytes) -> Scan:
    """Check only the records of ``data`` from byte offset ``start`` on, where the record after
    sequence number ``seq`` begins and ``previous`` is the link before it.

    Returns a :class:`Scan` whose ``records`` are just those new records (a torn tail after
    them is reported in ``torn``, as :func:`scan` does); raises :class:`LogDamaged` at the first
    bad record.  A store that already checked the first ``start`` bytes calls this to read what
    was appended since, so a read costs what was appended, not the whole log.  Damage it
    cannot classify on its own (a torn write zero-filled by the file system) needs the whole
    file: callers fall back to :func:`scan` when this raises.
    """
    info = Walk()
    info.header = header
    records = [Record(*obj) for obj in walk_records(data, start, seq, previous, info)]
    if info.pending:
        del records[info.last_good_seq - seq:]
    return Scan(header, records, info.good_end, len(data) - info.good_end)


@functools.lru_cache(maxsize=4096)  # one record's time is shown to every watcher of its game
def iso_time(created_ms: int, ts: int) -> str:
    """A record's time in ISO 8601 UTC, from the header's ``created`` and the record's ``ts``
    (both ms)."""
    moment = _dt.datetime.fromtimestamp((created_ms + ts) / 1000, tz=_dt.timezone.utc)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now_ms() -> int:
    """The current UTC time in ms since the Unix epoch."""
    return time.time_ns() // 1_000_000


class LogWriter:
    """Appends to one .devlog under an exclusive lock held by the caller (see engine.store).

    Open with :meth:`create` (a new file) or :meth:`open` (an existing one: a torn tail is cut
    here, and only here, under the lock).  :meth:`append` writes one command's records with one
    ``write`` and ``fsync``s before it returns, so a returned append is durable.
    """

    def __init__(self, fd: int, path: str, header: Header, last_seq: int, last_link: bytes,
                 cut: int = 0):
        self.fd = fd
        self.path = path
        self.header = header
        self.last_seq = last_seq
        self.last_link = last_link
        self.cut = cut

    @classmethod
    def create(cls, path: str, kind: str, game: str, created: int | None = None) -> "LogWriter":
        """A new, empty log (header only).  Raises FileExistsError if ``path`` exists."""
        created = now_ms() if created is None else created
        data = encode_header(kind, game, created)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
        os.write(fd, data)
        os.fsync(fd)
        _fsync_dir(os.path.dirname(os.path.abspath(path)))
        header = scan(data, path).header
        return cls(fd, path, header, 0, header.link)

    @classmethod
    def open(cls, fd: int, path: str, data: bytes) -> tuple["LogWriter", Scan]:
        """Take over ``fd`` (open read-write, already locked) whose bytes are ``data``; cut a
        torn tail."""
        result = scan(data, path)
        if result.torn:
            os.ftruncate(fd, result.good_end)
            os.fsync(fd)
        writer = cls(fd, path, result.header, result.last_seq, result.last_link, cut=result.torn)
        return writer, result

    def append(self, actor: int, cmd: str | None, events: list[dict], ts: int | None = None
               ) -> list[Record]:
        """Write one command's events durably; returns their records (seq numbers assigned)."""
        if not events:
            return []
        if ts is None:
            ts = max(0, now_ms() - self.header.created)
        data, links = encode_records(self.last_link, self.last_seq + 1, actor, cmd, ts, events)
        os.lseek(self.fd, 0, os.SEEK_END)
        written = os.write(self.fd, data)
        if written != len(data):  # pragma: no cover - disk full and friends
            raise OSError(f"short write to {self.path}: {written} of {len(data)} bytes")
        os.fsync(self.fd)
        left = len(events)
        records = []
        for index, (event, link) in enumerate(zip(events, links)):
            left -= 1
            records.append(Record(self.last_seq + 1 + index, actor, cmd, ts, event, left, link))
        self.last_seq += len(events)
        self.last_link = links[-1]
        return records


def _fsync_dir(path: str) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def read_bytes(path: str) -> bytes:
    """The bytes of the .devlog at ``path``; UsageError for a missing file or a folder."""
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        raise UsageError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise UsageError(f"{path} is a folder, not a .devlog file") from None


def read_path(path: str) -> Scan:
    """Read and check the .devlog at ``path`` without changing it (a torn tail is ignored)."""
    return scan(read_bytes(path), path)
