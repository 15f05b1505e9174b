"""`devil watch` on the local store prints every event exactly once, in order, while three
other processes write to the game (issue 9.2: it used to skip the events appended between
reading the events and reading the view)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time

from engine.bots import make_bot
from engine.errors import ConcurrencyConflict, IllegalCommand
from engine.service import GameService
from engine.store import FileStore
from tests.procs import context as writer_context

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _play_seat(root: str, game: str, seat: int, seed: int) -> None:
    """One seat in its own process: submit a random legal command whenever it has one."""
    bot = make_bot("atkr", "cautious", random.Random(seed))
    service = GameService(FileStore(root))
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        loaded = service.load(game)
        if loaded.rules.is_over(loaded.state):
            return
        legal = service.legal(game, seat)
        if not legal:
            time.sleep(0.002)
            continue
        try:
            service.submit(game, bot.choose(service.state(game, seat), seat, legal), actor=seat)
        except (IllegalCommand, ConcurrencyConflict):
            pass  # another seat moved the game on since we looked


def test_a_local_watcher_sees_every_event_once_in_order_with_three_writers(tmp_path):
    root = str(tmp_path / "store")
    service = GameService(FileStore(root))
    game = service.create("atkr", {"players": ["Anna", "Ben", "Cleo"]}, seed=21).game
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    watcher = subprocess.Popen(
        [sys.executable, "-m", "client.cli", "--store", root, "watch", game, "--json",
         "--timeout", "120"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    context = writer_context()
    writers = [context.Process(target=_play_seat, args=(root, game, seat, seat + 100))
               for seat in range(3)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(120)
    out, err = watcher.communicate(timeout=60)
    assert watcher.returncode == 0, err
    final = GameService(FileStore(root)).load(game)
    assert final.rules.is_over(final.state)
    seqs = [json.loads(line)["seq"] for line in out.splitlines()]
    assert seqs == list(range(1, final.version + 1))
    assert final.version > 100
