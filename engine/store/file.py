"""The file store: one ``<game>.devlog`` per game in a folder (the embedded default).

Implements :class:`engine.store.protocol.EventStore`.

* **Appends** (one, or several games' at once: :meth:`FileStore.append_many`, the group commit
  of ``devil serve``'s writer) take an exclusive ``flock`` on the log, bring the store's view of
  the file up to date (setting aside a torn tail: the only place a file is ever shortened, and
  only after the bytes are safely in a file beside it), check the expected version and the
  command id, then write one command's records with one ``write`` and ``fsync``.  Two processes
  appending to one game never lose or duplicate an event.
* **Reads** take no lock and ignore a torn tail still being written.  The store remembers, per
  game, the records it has checked and the byte offset where they end; a later read looks only
  at what follows that offset, after checking that the 8 bytes before it are still the link it
  trusts (so an append by another process costs what was appended, and a file that was
  replaced or edited at its end is read again from the start).
* Bytes after the last complete command that cannot be read as records (a write cut short by
  a crash, or a damaged end) are **set aside, never deleted**: an append moves them to
  ``<game>.<time>-at-<offset>.aside`` beside the log before it writes (see
  :meth:`FileStore.damage`).
* A digital game's secret seed sits beside its log in ``<game>.secret`` (0600) until the
  game's last event reveals it; the service's token hashes in ``<game>.tokens.json`` (0600);
  a snapshot of the service's folds in ``<game>.snapshot`` (0600).  None is part of the log.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import threading
import time

import attrs

from ..errors import LogDamaged, UnknownGame, UsageError
from ..tlog.leaves import entry as leaf_entry
from ..log import (Header, Record, Scan, _fsync_dir, encode_command, encode_header,
                   encode_records, now_ms,
                   scan, scan_after)
from .disk import (_atomic_write, _identity, _link_at, _make_folder, _read_all, _remove,
                   _write_all, open_to_others)
from .protocol import Batch, Head, check_append, new_id, random_game_id, resolve_id
from .aside import AsideMethods
from .tlog import FileLeaves, TlogMethods

_GAME_ID = re.compile(r"^[a-z]+-[a-z0-9]{4,32}$")
_PRIVATE = re.compile(r"^[a-z]{1,16}$")
#: how often :meth:`FileStore.wait` looks at the file for appends by other processes (s)
POLL = 0.02


#: the random id of a new game (engine.store.protocol.random_game_id)
new_game_id = random_game_id


@attrs.define
class _Known:
    """What the store has checked of one log: its header, its good records (``records[i].seq
    == i + 1``), the offset just past them, and an index of command ids."""

    header: Header
    records: list[Record]
    end: int
    commands: dict[str, tuple[int, int]]  # cmd -> (index of its first record, record count)
    #: the file's identity (device, inode, size, mtime, ctime) when it was last seen ending
    #: exactly at ``end``: while a stat says the same, a read needs no more than that stat
    seen: tuple | None = None

    @property
    def head(self) -> Head:
        last = self.records[-1] if self.records else None
        return Head(last.seq, last.link) if last else Head(0, self.header.link)

    def extend(self, records: list[Record], end: int, start: int | None = None) -> bool:
        """Add ``records``, which end at offset ``end``, if they start where the known records
        end (``start``; callers hold the store's lock).  False if another thread got there
        first."""
        if start is not None and start != self.end:
            return False
        index = len(self.records)
        self.records.extend(records)
        for offset, record in enumerate(records):
            if record.cmd is not None:
                first, count = self.commands.get(record.cmd, (index + offset, 0))
                self.commands[record.cmd] = (first, count + 1)
        self.end = end
        return True


class FileStore(AsideMethods, TlogMethods):
    """A folder of .devlog files (an :class:`~engine.store.protocol.EventStore`).  ``root`` is
    created on first write."""

    #: reads take no lock and are a few system calls: an event loop may make them (EventStore's
    #: ``local``); only an append waits, for the log's flock and its fsync
    local = True

    def __init__(self, root: str):
        self.root = os.path.abspath(os.path.expanduser(str(root)))
        self._known: dict[str, _Known] = {}
        self._lock = threading.Lock()
        self._appended = threading.Condition(self._lock)
        #: per game, the log's identity when :meth:`damage` last found nothing to report
        self._no_aside: dict[str, tuple] = {}
        self._leaves = FileLeaves(self.root, os.path.join(self.root, ".devil-tlog"))  # engine.tlog

    # -- names --------------------------------------------------------------------------------
    def path(self, game: str) -> str:
        """The .devlog path of ``game``; UsageError for an id that is not well-formed."""
        if not isinstance(game, str) or not _GAME_ID.match(game):
            raise UsageError(f"{game!r} is not a game id (ids look like KIND-k3f9qz)")
        return os.path.join(self.root, f"{game}.devlog")

    def _side(self, game: str, suffix: str) -> str:
        return self.path(game)[: -len(".devlog")] + suffix

    def location(self, game: str | None = None) -> str:
        """The log's path (or the folder's, without ``game``)."""
        return self.root if game is None else self.path(game)

    def exists(self, game: str) -> bool:
        return isinstance(game, str) and bool(_GAME_ID.match(game)) \
            and os.path.exists(self.path(game))

    def new_game_id(self, kind: str) -> str:
        """A fresh id for a new game of ``kind`` (engine.store.protocol.new_id)."""
        return new_id(kind, self.exists)

    def games(self) -> list[str]:
        """Every game id in the store, oldest first."""
        if not os.path.isdir(self.root):
            return []
        names = [n[: -len(".devlog")] for n in os.listdir(self.root) if n.endswith(".devlog")]
        names = [n for n in names if _GAME_ID.match(n)]

        def mtime(name: str) -> float:
            try:
                return os.path.getmtime(os.path.join(self.root, name + ".devlog"))
            except OSError:
                return 0.0
        return sorted(names, key=mtime)

    def resolve(self, text: str) -> str:
        """The game id ``text`` names: an exact id, or at least 3 characters that begin or end
        exactly one id, or begin the part after its dash (``k3f``, ``9qz``, ``KIND-k3`` for
        ``KIND-k3f9qz``).  UnknownGame when none or several match."""
        if isinstance(text, str) and _GAME_ID.match(text) and self.exists(text):
            return text
        return resolve_id(text, self.games(), self.root)

    # -- creating -----------------------------------------------------------------------------
    def create(self, kind: str, game: str, actor: int, events: list[dict],
               secret: dict | None = None, created: int | None = None,
               private: dict[str, dict] | None = None) -> list[Record]:
        """Create ``game``'s log with its first events; keep ``secret`` (the seed) beside it.

        The log is written to a temporary file and linked into place only when complete, so a
        game either exists whole or not at all.  UsageError if ``game`` exists.
        """
        created = now_ms() if created is None else created
        header = encode_header(kind, game, created)
        first, _ = encode_records(scan(header).header.link, 1, actor, None, 0, events)
        self._install(game, header + first, secret, private, len(events))
        return self.read(game).records

    def import_log(self, data: bytes, secret: dict | None = None) -> str:
        """Add a whole game given as .devlog bytes; returns its id.

        Refuses (UsageError) bytes with a torn tail or a header-only log, and a game that
        exists already; LogDamaged for damaged bytes.
        """
        result = scan(data)
        if result.torn:
            raise UsageError(f"the log ends in {result.torn} bytes of an unfinished write; "
                             "a log to import must be complete")
        if not result.records:
            raise UsageError("the log has a header but no events")
        game = result.header.game
        self.path(game)  # a well-formed id, or UsageError
        self._install(game, data, secret, None, result.records[-1].seq)
        return game

    def _install(self, game: str, data: bytes, secret: dict | None,
                 private: dict[str, dict] | None, last: int) -> None:
        path = self.path(game)
        _make_folder(self.root)
        if os.path.exists(path):
            raise UsageError(f"a game {game} exists already in {self.root}")
        written = []
        secret_path = self._side(game, ".secret")
        if secret is not None:
            try:
                fd = os.open(secret_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                raise UsageError(f"a game {game} exists already in {self.root}") from None
            with os.fdopen(fd, "w") as handle:
                json.dump(secret, handle)
                handle.flush()
                os.fsync(handle.fileno())
        temporary = os.path.join(self.root, f".{game}.{os.getpid()}.creating")
        try:
            for name, document in (private or {}).items():
                target = self._private_path(game, name)
                _atomic_write(self.root, target, json.dumps(document).encode())
                written.append(target)
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                _write_all(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            try:
                os.link(temporary, path)  # fails if the game exists: never overwrite a log
            except FileExistsError:
                raise UsageError(f"a game {game} exists already in {self.root}") from None
            _fsync_dir(self.root)
            self._leaves.add([leaf_entry(game, last, data[-8:])])  # a log ends in its link
        except BaseException:
            for target in written:
                _remove(target)
            if secret is not None:
                _remove(secret_path)
            raise
        finally:
            _remove(temporary)

    # -- reading ------------------------------------------------------------------------------
    def _refresh(self, game: str, fd: int | None = None, locked: bool = False) -> _Known:
        """The store's checked view of ``game``'s log, brought up to date with the file.

        With ``locked`` (an append holds the flock on ``fd``) a torn tail is cut.
        """
        path = self.path(game)
        own = fd is None
        if own:
            known = self._known.get(game)
            if known is not None and known.seen is not None:
                try:
                    if _identity(os.stat(path)) == known.seen:
                        return known  # not written since it was checked: one stat
                except FileNotFoundError:
                    raise UnknownGame(f"no game {game!r} in {self.root} (see `devil games`)"
                                      ) from None
            try:
                fd = os.open(path, os.O_RDONLY)
            except FileNotFoundError:
                raise UnknownGame(f"no game {game!r} in {self.root} (see `devil games`)") from None
        assert fd is not None
        try:
            stat = os.fstat(fd)
            size = stat.st_size
            with self._lock:
                known = self._known.get(game)
            if known is not None and size >= known.end \
                    and _link_at(fd, known.end) == known.head.link:
                start = known.end
                if size == start:
                    known.seen = _identity(stat)
                    return known
                tail = os.pread(fd, size - start, start)
                try:
                    result = scan_after(tail, 0, known.header, known.head.seq, known.head.link)
                except LogDamaged:
                    result = None  # classify it on the whole file (zero-filled torn writes)
                if result is not None:
                    good_end = start + result.good_end
                    if result.torn and locked:
                        self._set_aside(game, fd, good_end, size)
                    with self._lock:
                        if known.extend(result.records, good_end, start):
                            known.seen = None  # seen again (one stat) at the next read
                            return known
                    return self._refresh(game, None if own else fd, locked)
            data = _read_all(fd)
            result = scan(data, path)
            if result.torn and locked:
                self._set_aside(game, fd, result.good_end, len(data))
            known = _Known(result.header, [], result.good_end, {})
            known.extend(result.records, result.good_end)
            with self._lock:
                self._known[game] = known
            return known
        except LogDamaged:
            with self._lock:
                self._known.pop(game, None)
            raise
        finally:
            if own:
                os.close(fd)

    def read(self, game: str, after: int = 0) -> Batch:
        """The records after ``after`` (see :class:`~engine.store.protocol.Batch`); no lock, a
        torn tail is ignored, not cut."""
        known = self._refresh(game)
        with self._lock:
            records = known.records
            head = known.head
            if after > head.seq or after < 0:
                return Batch(known.header, [], None, head)
            base = Head(after, records[after - 1].link if after else known.header.link)
            return Batch(known.header, records[after:], base, head)

    def head(self, game: str) -> Head:
        return self._refresh(game).head

    def header(self, game: str) -> Header:
        return self._refresh(game).header

    def command(self, game: str, cmd: str) -> list[Record] | None:
        known = self._refresh(game)
        with self._lock:
            found = known.commands.get(cmd)
            return None if found is None else known.records[found[0]:found[0] + found[1]]

    def wait(self, game: str, after: int, timeout: float) -> Head:
        """Return once the head is past ``after`` (appended here or by another process, seen
        within :data:`POLL` seconds) or after ``timeout`` seconds."""
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            head = self.head(game)
            left = deadline - time.monotonic()
            if head.seq > after or left <= 0:
                return head
            with self._appended:
                self._appended.wait(min(left, POLL))

    def log_bytes(self, game: str) -> bytes:
        """The log's bytes up to its last complete command (a torn tail left out)."""
        path = self.path(game)
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except FileNotFoundError:
            raise UnknownGame(f"no game {game!r} in {self.root} (see `devil games`)") from None
        return data[: scan(data, path).good_end]

    # -- appending ----------------------------------------------------------------------------
    def append(self, game: str, expected: int, actor: int, cmd: str | None, events: list[dict],
               ts: int | None = None) -> list[Record]:
        """Append one command's events durably if the log is at version ``expected``.

        Raises ConcurrencyConflict (another version), DuplicateCommand (``cmd`` is in the log).
        """
        result = self.append_many([(game, expected, actor, cmd, events, ts)])[0]
        if isinstance(result, BaseException):
            raise result
        return result

    def append_many(self, requests: list[tuple]) -> list:
        """Group commit: several appends (``(game, expected, actor, cmd, events[, ts])`` each,
        as for :meth:`append`) written and fsynced together; for each, its records or the
        exception :meth:`append` would have raised.

        Each log is locked (``flock``, in the order of the game ids, so two processes doing
        this never wait for each other in a circle), brought up to date, checked (version,
        command id) and written; then every written log is fsynced, and only then are the
        locks released and the records known: a request's records are durable when they are
        returned, exactly as one append's.  Two requests for one game are done one after the
        other (the second sees the first's records)."""
        results: list = [None] * len(requests)
        order = sorted(range(len(requests)), key=lambda i: requests[i][0])
        later, games = [], set()
        written = []  # (index, fd, known, start, records, size, seen)
        leaves: list[bytes] = []
        fds = []
        try:
            for i in order:
                game = requests[i][0]
                if game in games:
                    later.append(i)
                    continue
                games.add(game)
                try:
                    fd, outcome = self._write_locked(*requests[i])
                except Exception as exc:  # this request's answer, not the others'
                    results[i] = exc
                    continue
                fds.append(fd)
                if isinstance(outcome, list):
                    results[i] = outcome  # nothing to write (no events)
                else:
                    written.append((i, fd, *outcome))
            for i, fd, known, start, records, size, seen in written:
                game = requests[i][0]
                try:
                    os.fsync(fd)
                    after = _identity(os.fstat(fd))  # the file as this write left it
                except Exception as exc:  # not durable: not acknowledged
                    results[i] = exc
                    with self._lock:
                        self._known.pop(game, None)
                    continue
                with self._appended:
                    if known.extend(records, start + size, start):
                        # the next read of this file, as this write left it, is one stat; if
                        # nothing was set aside when it was locked, nothing is now
                        if after[2] == start + size:
                            if seen is not None and self._no_aside.get(game) == seen:
                                self._no_aside[game] = after
                            known.seen = after
                    else:
                        self._known.pop(game, None)  # a reader raced us: read afresh
                    self._appended.notify_all()
                results[i] = records
                leaves.append(leaf_entry(requests[i][0], records[-1].seq, records[-1].link))
            self._leaves.add(leaves)  # under the logs' locks: a game's leaves in its order
        finally:
            for fd in fds:
                os.close(fd)  # releases the lock
        if later:
            for i, result in zip(later, self.append_many([requests[i] for i in later])):
                results[i] = result
        return results

    def _write_locked(self, game: str, expected: int, actor: int, cmd: str | None,
                      events: list[dict], ts: int | None = None):
        """Open ``game``'s log, lock it, check and write one command (not fsynced): ``(fd,
        (known, start, records, size, seen))`` (``seen``: the file's identity when locked, if
        it ended at ``start``, else None), or ``(fd, [])`` when there is nothing to write.
        The caller fsyncs and closes ``fd`` (which releases the lock)."""
        path = self.path(game)
        try:
            fd = os.open(path, os.O_RDWR | os.O_APPEND)
        except FileNotFoundError:
            raise UnknownGame(f"no game {game!r} in {self.root} (see `devil games`)") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            known = self._refresh(game, fd, locked=True)
            seen = known.seen  # the file's identity now, if it had nothing after known.end
            head = known.head
            check_append(game, head.seq, expected, cmd, cmd in known.commands)
            if not events:
                return fd, []
            if ts is None:
                ts = max(0, now_ms() - known.header.created)
            encoded = encode_command(head.link, head.seq + 1, actor, cmd, ts, events)
            records = [record for record, _ in encoded]
            data = b"".join(chunk for _, chunk in encoded)
            start = known.end
            _write_all(fd, data)
            return fd, (known, start, records, len(data), seen)
        except BaseException:
            os.close(fd)
            raise

    def warnings(self) -> list[str]:
        """Sentences about anything in the store that others may read: the folder or a file
        open to the group or to everyone (logs hold sealed bets and hidden cards; the secret,
        the seed)."""
        return open_to_others(self.root)

    # -- private documents and snapshots --------------------------------------------------------
    def secret(self, game: str) -> dict | None:
        """The secret kept for ``game`` (``{"seed", "salt"}``), or None.  ValueError if the
        file is not a JSON object."""
        return self._read_json(self._side(game, ".secret"))

    def private(self, game: str, name: str) -> dict | None:
        """A private document: ``"secret"``, ``"tokens"`` or another lowercase name."""
        return self._read_json(self._private_path(game, name))

    def put_private(self, game: str, name: str, document: dict, *, replace: bool = False) -> None:
        path = self._private_path(game, name)
        if not replace and os.path.exists(path):
            raise UsageError(f"{game} already has {name}")
        _atomic_write(self.root, path, json.dumps(document).encode())

    def store_private(self, name: str) -> dict | None:
        """A store-wide private document: ``<folder>/.devil-<name>.json`` (mode 0600)."""
        return self._read_json(self.store_private_path(name))

    def put_store_private(self, name: str, document: dict) -> dict:
        """Write ``.devil-<name>.json`` once: a temporary file (0600, fsynced) hard-linked into
        place, so two writers cannot both win; the kept document."""
        import tempfile

        path = self.store_private_path(name)
        _make_folder(self.root)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=self.root)
        try:
            os.fchmod(fd, 0o600)
            _write_all(fd, json.dumps(document).encode())
            os.fsync(fd)
            os.close(fd)
            fd = -1
            try:
                os.link(tmp, path)
                _fsync_dir(self.root)
            except FileExistsError:
                pass
        finally:
            if fd >= 0:
                os.close(fd)
            _remove(tmp)
        kept = self._read_json(path)
        if kept is None:  # pragma: no cover - removed in between
            raise UsageError(f"{path} vanished while it was written")
        return kept

    def store_private_path(self, name: str) -> str:
        """The file of the store-wide private document ``name``: ``<folder>/.devil-<name>.json``
        (named in messages about it, e.g. a damaged signing key)."""
        if not isinstance(name, str) or not _PRIVATE.match(name):
            raise UsageError(f"{name!r} is not a private document name")
        return os.path.join(self.root, f".devil-{name}.json")

    def _private_path(self, game: str, name: str) -> str:
        if not _PRIVATE.match(name):
            raise UsageError(f"{name!r} is not a private document name")
        return self._side(game, ".secret" if name == "secret" else f".{name}.json")

    @staticmethod
    def _read_json(path: str) -> dict | None:
        try:
            with open(path) as handle:
                data = json.load(handle)
        except FileNotFoundError:
            return None
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        return data

    def snapshot(self, game: str) -> bytes | None:
        try:
            with open(self._side(game, ".snapshot"), "rb") as handle:
                return handle.read()
        except (FileNotFoundError, IsADirectoryError, PermissionError):
            return None

    def save_snapshot(self, game: str, data: bytes) -> None:
        """Write the snapshot atomically (temporary file, then rename); no fsync: a lost
        snapshot only costs a longer fold."""
        _atomic_write(self.root, self._side(game, ".snapshot"), data, durable=False)


__all__ = ["FileStore", "new_game_id", "Scan"]
