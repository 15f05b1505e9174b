"""The leaf lists behind the stores' transparency log (engine.tlog): in memory, and the file
store's ``<folder>/.devil-tlog``.

Each keeps the entries (engine.tlog.leaves) in the order they were added and their RFC 6962
leaf hashes, and answers the three store methods ``tlog_size()``, ``tlog_entries(start,
end)`` and ``tlog_hashes(end)`` (engine.store.protocol).  Leaves are only ever added.

The file is one entry per line (``\\n`` after each), appended under an exclusive ``flock``
with one ``write`` (no fsync: the read of the leaf hashes that a checkpoint or a proof is made
of fsyncs the file first, so nothing signed can be lost, and an append costs no second
fsync); a reader takes no lock, remembers what it has read and
reads only what follows.  A line without its newline is a write cut short by a crash: readers
ignore it, and the next writer (under the lock) cuts it before it writes (such a leaf was never
acknowledged).
"""

from __future__ import annotations

import fcntl
import os
import threading

from ..tlog.merkle import leaf_hash
from .disk import _make_folder, _write_all


class MemoryLeaves:
    """Leaves in a list (the memory store's); thread-safe."""

    def __init__(self):
        self._entries: list[bytes] = []
        self._hashes: list[bytes] = []
        self._lock = threading.Lock()

    def add(self, entries: list[bytes]) -> None:
        """Add ``entries``."""
        with self._lock:
            self._entries.extend(entries)
            self._hashes.extend(leaf_hash(e) for e in entries)

    def size(self) -> int:
        """How many leaves there are."""
        return len(self._entries)

    def entries(self, start: int = 0, end: int | None = None) -> list[bytes]:
        """The entries ``start`` to ``end`` (default: all)."""
        with self._lock:
            return self._entries[start:end]

    def hashes(self, end: int | None = None) -> list[bytes]:
        """The leaf hashes of the first ``end`` leaves (default: all)."""
        with self._lock:
            return self._hashes[:end]


class FileLeaves:
    """Leaves in the file ``path``, one entry a line (the file store's ``.devil-tlog``)."""

    def __init__(self, root: str, path: str):
        self.root, self.path = root, path
        self._entries: list[bytes] = []
        self._hashes: list[bytes] = []
        self._end = 0  # the offset just past the last line read
        self._lock = threading.Lock()
        # the group commit of :meth:`add`: entries waiting, counts queued and made durable
        self._queue_lock = threading.Condition()
        self._queue: list[bytes] = []
        self._queued = self._durable = 0
        self._writing = False

    def add(self, entries: list[bytes]) -> None:
        """Append ``entries`` (durable at the next :meth:`hashes`).  Group commit: while one
        thread writes, others queue theirs, and the next write takes every queued entry with
        one ``flock`` and one ``write``.  A write that fails raises in the thread that made
        it, and its entries go back to the queue for the next one."""
        if not entries:
            return
        with self._queue_lock:
            self._queue.extend(entries)
            self._queued += len(entries)
            mine = self._queued
            while self._durable < mine:
                if self._writing:
                    self._queue_lock.wait()
                    continue
                batch, self._queue = self._queue, []
                self._writing = True
                self._queue_lock.release()
                written = False
                try:
                    self._write(batch)
                    written = True
                finally:
                    self._queue_lock.acquire()
                    self._writing = False
                    if written:
                        self._durable += len(batch)
                    else:  # put back: the next writer tries them again, this one raises
                        self._queue = batch + self._queue
                    self._queue_lock.notify_all()

    def _write(self, entries: list[bytes]) -> None:
        """One locked write of ``entries``; a torn last line (a crash mid-write) is cut
        first."""
        _make_folder(self.root)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            with self._lock:
                self._catch_up(fd)
                size = os.fstat(fd).st_size
                if size > self._end:  # a line cut short by a crash: never acknowledged
                    os.ftruncate(fd, self._end)
                data = b"".join(e + b"\n" for e in entries)
                _write_all(fd, data)  # made durable by the next read for a checkpoint
                self._entries.extend(entries)
                self._hashes.extend(leaf_hash(e) for e in entries)
                self._end += len(data)
        finally:
            os.close(fd)

    def _catch_up(self, fd: int | None = None) -> None:
        """Read the complete lines after what was read (caller holds ``_lock``)."""
        own = fd is None
        if own:
            try:
                fd = os.open(self.path, os.O_RDONLY)
            except FileNotFoundError:
                return
        assert fd is not None
        try:
            size = os.fstat(fd).st_size
            if size < self._end:  # the file was replaced or cut: read it again
                self._entries, self._hashes, self._end = [], [], 0
            if size == self._end:
                return
            data = os.pread(fd, size - self._end, self._end)
            cut = data.rfind(b"\n") + 1
            lines = data[:cut].split(b"\n")[:-1]
            self._entries.extend(lines)
            self._hashes.extend(leaf_hash(e) for e in lines)
            self._end += cut
        finally:
            if own:
                os.close(fd)

    def size(self) -> int:
        with self._lock:
            self._catch_up()
            return len(self._entries)

    def entries(self, start: int = 0, end: int | None = None) -> list[bytes]:
        with self._lock:
            self._catch_up()
            return self._entries[start:end]

    def hashes(self, end: int | None = None) -> list[bytes]:
        """The leaf hashes, once the file is fsynced: what a checkpoint or a proof is made
        of is durable before it is signed, whoever wrote it."""
        with self._lock:
            try:
                fd = os.open(self.path, os.O_RDONLY)
            except FileNotFoundError:
                return []
            try:
                os.fsync(fd)
                self._catch_up(fd)
            finally:
                os.close(fd)
            return self._hashes[:end]


class TlogMethods:
    """The store methods of the transparency log, answered from the store's ``_leaves`` (a
    :class:`MemoryLeaves` or :class:`FileLeaves`)."""

    _leaves: MemoryLeaves | FileLeaves

    def tlog_size(self) -> int:
        """How many leaves the store's transparency log has (one per write)."""
        return self._leaves.size()

    def tlog_entries(self, start: int = 0, end: int | None = None) -> list[bytes]:
        """The leaf entries ``start`` to ``end`` (engine.tlog.leaves), oldest first."""
        return self._leaves.entries(start, end)

    def tlog_hashes(self, end: int | None = None) -> list[bytes]:
        """The RFC 6962 leaf hashes of the first ``end`` leaves (default all)."""
        return self._leaves.hashes(end)
