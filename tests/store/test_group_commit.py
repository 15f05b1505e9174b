"""Group commit (issue 21.2): FileStore.append_many writes several games' commands, then fsyncs
them, and answers each request with its own records or its own refusal; GroupWriter gathers
what an event loop's commands wait for into such groups."""

from __future__ import annotations

import asyncio
import fcntl
import os
import subprocess
import sys

import engine.store.file as file_store
from engine.errors import ConcurrencyConflict, UnknownGame
from engine.log import scan
from engine.store import FileStore
from engine.store.group import GroupWriter
from engine.store.protocol import DuplicateCommand

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EVENT = {"type": "note", "text": "x"}


def games(store: FileStore, count: int) -> list[str]:
    out = []
    for i in range(count):
        game = f"atkr-grp{i:03d}"
        store.create("atkr", game, -1, [dict(EVENT)])
        out.append(game)
    return out


class Syscalls:
    """What the store asked of the disk, in order: ("write", path) and ("fsync", path)."""

    def __init__(self, monkeypatch):
        self.calls: list[tuple[str, str]] = []
        self.fail: set[str] = set()
        real_write, real_fsync = os.write, os.fsync

        def write(fd, data):
            self.calls.append(("write", os.readlink(f"/proc/self/fd/{fd}")))
            return real_write(fd, data)

        def fsync(fd):
            path = os.readlink(f"/proc/self/fd/{fd}")
            self.calls.append(("fsync", path))
            if os.path.basename(path) in self.fail:
                raise OSError(5, "Input/output error (the test's disk)")
            return real_fsync(fd)

        monkeypatch.setattr(file_store, "_write_all", lambda fd, data: write(fd, data))
        monkeypatch.setattr(file_store.os, "fsync", fsync)

    def logs(self) -> list[tuple[str, str]]:
        return [(kind, os.path.basename(path)) for kind, path in self.calls
                if path.endswith(".devlog")]


def test_a_group_is_written_whole_before_it_is_fsynced_and_each_request_answered(tmp_path,
                                                                                 monkeypatch):
    store = FileStore(str(tmp_path))
    ids = games(store, 3)
    disk = Syscalls(monkeypatch)
    results = store.append_many([(game, 1, 0, f"c-{game}", [dict(EVENT), dict(EVENT)])
                                 for game in reversed(ids)])
    # every log written (in the order of the game ids: the locks are taken in that order),
    # then every one fsynced; only then answered
    assert disk.logs() == [("write", f"{g}.devlog") for g in ids] + \
        [("fsync", f"{g}.devlog") for g in ids]
    for game, records in zip(reversed(ids), results):
        assert [(r.seq, r.cmd) for r in records] == [(2, f"c-{game}"), (3, f"c-{game}")]
        data = FileStore(str(tmp_path)).log_bytes(game)  # a fresh reader: on the disk
        read = scan(data)  # the hash chain checked
        assert [r.seq for r in read.records] == [1, 2, 3] and not read.torn


def test_each_request_hears_its_own_refusal(tmp_path):
    store = FileStore(str(tmp_path))
    a, b, c, d = games(store, 4)
    store.append(b, 1, 0, "used", [dict(EVENT)])
    results = store.append_many([
        (a, 1, 0, "a1", [dict(EVENT)]),          # fine
        (b, 2, 0, "used", [dict(EVENT)]),        # its command id is in the log
        (c, 0, 0, "c1", [dict(EVENT)]),          # decided from a version that is gone
        ("atkr-nosuch", 1, 0, "n1", [dict(EVENT)]),
        (d, 1, 0, "d1", [dict(EVENT)]),          # two for one game: one after the other
        (d, 2, 0, "d2", [dict(EVENT)]),
    ])
    assert [r.seq for r in results[0]] == [2]
    assert type(results[1]) is DuplicateCommand
    assert type(results[2]) is ConcurrencyConflict and "version 1" in str(results[2])
    assert isinstance(results[3], UnknownGame)
    assert [(r.seq, r.cmd) for r in results[4] + results[5]] == [(2, "d1"), (3, "d2")]
    fresh = FileStore(str(tmp_path))
    assert [fresh.head(g).seq for g in (a, b, c, d)] == [2, 2, 1, 3]


def test_an_append_by_another_process_is_seen_under_the_lock(tmp_path):
    """The version check holds across processes: another process appended to one game after
    this one decided; that request is refused, the others of its group are recorded."""
    store = FileStore(str(tmp_path))
    a, b = games(store, 2)
    assert store.head(a).seq == 1  # known here at version 1
    subprocess.run([sys.executable, "-c",
                    "import sys; from engine.store import FileStore; "
                    f"FileStore(sys.argv[1]).append({a!r}, 1, 1, 'other', [{EVENT!r}])",
                    str(tmp_path)], cwd=ROOT, check=True, env=dict(os.environ, PYTHONPATH=ROOT))
    results = store.append_many([(a, 1, 0, "mine", [dict(EVENT)]),
                                 (b, 1, 0, "mine", [dict(EVENT)])])
    assert type(results[0]) is ConcurrencyConflict
    assert [r.seq for r in results[1]] == [2]
    assert [r.cmd for r in store.read(a).records] == [None, "other"]


def test_a_failed_fsync_is_that_request_s_error_only(tmp_path, monkeypatch):
    store = FileStore(str(tmp_path))
    a, b, c = games(store, 3)
    disk = Syscalls(monkeypatch)
    disk.fail.add(f"{b}.devlog")
    results = store.append_many([(g, 1, 0, f"c-{g}", [dict(EVENT)]) for g in (a, b, c)])
    assert [r.seq for r in results[0]] == [2] and [r.seq for r in results[2]] == [2]
    assert isinstance(results[1], OSError)  # never acknowledged
    assert ("fsync", f"{c}.devlog") in disk.logs()  # the others were still made durable


def test_the_writer_gathers_what_waits_into_groups(tmp_path):
    """While the writer waits for one log's lock (held here, as another process's append
    would), the other games' commands gather; they are written as one group, each answered
    with its own records."""
    store = FileStore(str(tmp_path))
    ids = games(store, 8)
    writer = GroupWriter(store)

    async def main():
        held = os.open(store.path(ids[0]), os.O_RDWR)
        fcntl.flock(held, fcntl.LOCK_EX)
        first = asyncio.ensure_future(writer.append(ids[0], 1, 0, "first", [dict(EVENT)]))
        await asyncio.sleep(0.2)  # the writer now waits for the lock
        rest = [asyncio.ensure_future(writer.append(g, 1, 0, f"c-{g}", [dict(EVENT)]))
                for g in ids[1:]]
        await asyncio.sleep(0.1)
        assert not first.done() and not any(r.done() for r in rest)
        fcntl.flock(held, fcntl.LOCK_UN)
        os.close(held)
        return await first, await asyncio.gather(*rest)

    try:
        first, rest = asyncio.run(main())
    finally:
        writer.close()
    assert [(r.seq, r.cmd) for r in first] == [(2, "first")]
    assert [[(r.seq, r.cmd) for r in records] for records in rest] == \
        [[(2, f"c-{g}")] for g in ids[1:]]
    assert (writer.groups, writer.appends) == (2, 8)


def test_the_writer_raises_each_refusal_in_its_own_caller(tmp_path):
    store = FileStore(str(tmp_path))
    a, b = games(store, 2)
    writer = GroupWriter(store)

    async def main():
        return await asyncio.gather(writer.append(a, 1, 0, "x", [dict(EVENT)]),
                                    writer.append(b, 0, 0, "y", [dict(EVENT)]),
                                    return_exceptions=True)

    try:
        ok, refused = asyncio.run(main())
    finally:
        writer.close()
    assert [r.seq for r in ok] == [2]
    assert type(refused) is ConcurrencyConflict
