"""Power loss, not only SIGKILL (issue 9.9): what the file store wrote but had not fsynced may
be lost, in part or whole, when the machine loses power.  Simulated here by keeping, for each
log, the bytes as of its last completed fsync ("on the disk") and, at a power cut in the middle
of an append, putting back those bytes plus an arbitrary prefix of what was written after them
(the part of the page cache that happened to reach the disk).

What must hold (docs/log-format.md, "What is durable"): every command whose append returned is
there after the restart, byte for byte; the interrupted command is either wholly there or not
at all; whatever partial bytes it left are set aside by the next writer, never deleted.
"""

from __future__ import annotations

import os
import random

import pytest

from engine.bots import Table, make_bot
from engine.service import GameService
from engine.store import FileStore
import engine.store.file as file_store


class PowerCut(Exception):
    """The machine lost power before the fsync returned."""


class Disk:
    """What reached the disk: each file's bytes at its last fsync."""

    def __init__(self, monkeypatch):
        self.synced: dict[str, bytes] = {}
        self.armed = False
        self._fsync = os.fsync
        monkeypatch.setattr(file_store.os, "fsync", self.fsync)

    def fsync(self, fd: int) -> None:
        path = os.readlink(f"/proc/self/fd/{fd}")
        if self.armed and path.endswith(".devlog"):
            self.armed = False
            raise PowerCut(path)
        self._fsync(fd)
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                self.synced[path] = handle.read()


@pytest.mark.parametrize("trial", range(12))
def test_every_acknowledged_command_survives_a_power_cut(tmp_path, monkeypatch, trial):
    rng = random.Random(trial)
    disk = Disk(monkeypatch)
    root = str(tmp_path / "store")
    service = GameService(FileStore(root))
    game = service.create("atkr", {"players": ["A", "B", "C"]}, seed=trial).game
    path = service.store.path(game)
    bots = [make_bot("atkr", "random", random.Random(trial * 10 + s)) for s in range(3)]
    table = Table(service, game)
    acknowledged = service.store.head(game).seq
    cut_after = rng.randrange(3, 40)
    done = 0
    interrupted = None
    while not table.over():
        for seat in range(3):
            legal = table.legal(seat)
            if not legal:
                continue
            command = bots[seat].choose(table.states[seat], seat, legal)
            if done == cut_after:
                disk.armed = True
            try:
                result = service.submit(game, command, actor=seat)
            except PowerCut:
                interrupted = command
                break
            table.apply(result.events)
            acknowledged = result.records[-1].seq
            done += 1
        if interrupted is not None or table.over():
            break
    assert interrupted is not None, "the game ended before the power cut"
    durable = disk.synced[path]
    written = open(path, "rb").read()
    assert written.startswith(durable) and len(written) > len(durable)
    reached = rng.randrange(0, len(written) - len(durable) + 1)  # what reached the disk
    on_disk = written[:len(durable) + reached]
    with open(path, "wb") as handle:
        handle.write(on_disk)

    # the restart: a new process, a new store
    store = FileStore(root)
    head = store.head(game)
    records = store.read(game).records
    assert head.seq >= acknowledged
    assert [r.seq for r in records] == list(range(1, head.seq + 1))
    if head.seq > acknowledged:  # the whole interrupted command reached the disk
        assert reached == len(written) - len(durable) and records[-1].left == 0
    # the game goes on; a partial write is set aside first, with exactly the bytes it left
    after = GameService(store)
    table = Table(after, game)
    for seat in range(3):
        legal = table.legal(seat)
        if legal:
            after.submit(game, bots[seat].choose(table.states[seat], seat, legal), actor=seat)
            break
    asides = sorted(n for n in os.listdir(root) if n.endswith(".aside"))
    if head.seq == acknowledged and reached:
        assert len(asides) == 1
        kept = open(os.path.join(root, asides[0]), "rb").read()
        assert kept == on_disk[len(durable):]
    else:
        assert asides == []
