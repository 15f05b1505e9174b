"""Crash test: SIGKILL the server during a burst of commands, restart it on the same store.

Every command that was acknowledged (a 2xx answer) must be in the logs exactly once, every log
must verify (hash chain and a full fold), a command whose answer was lost can be resent with
its id and is recorded at most once, and play continues.  The default run is small; the slow
variant repeats the crash with more games (DEVIL_TEST_SCALE multiplies it).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
import uuid

import httpx
import pytest

from engine.log import read_path
from engine.service import GameService
from engine.store import FileStore

from ..scale import SCALE
from .conftest import ROOT, Server, auth
from .helpers import atkr_choice, play_atkr, runs_of_commands



class Driver(threading.Thread):
    """Plays one game with raw HTTP until the server goes away; remembers every command it
    sent (id, seat token, body) and which were acknowledged."""

    def __init__(self, url, created, seed):
        super().__init__(daemon=True)
        self.url, self.created, self.rng = url, created, random.Random(seed)
        self.sent: list[tuple[str, str, dict]] = []
        self.acked: set[str] = set()
        self.stop = threading.Event()

    def run(self):
        game, names = self.created["game"], self.created["players"]
        with httpx.Client(base_url=self.url, timeout=10) as http:
            for _ in range(5000):
                if self.stop.is_set():
                    return
                try:
                    for name in self.rng.sample(names, len(names)):
                        token = self.created["tokens"][name]
                        legal = http.get(f"/games/{game}/legal", headers=auth(token)).json()
                        if legal:
                            break
                    else:
                        return  # over
                    view = http.get(f"/games/{game}/view", headers=auth(token)).json()
                    command = atkr_choice(view, name, legal)
                    key = uuid.uuid4().hex
                    self.sent.append((key, token, command))
                    response = http.post(f"/games/{game}/commands", json=command,
                                         headers={**auth(token), "Idempotency-Key": key})
                    assert response.status_code == 201, response.text
                    self.acked.add(key)
                except httpx.TransportError:
                    return


def command_groups(path):
    """``{command id: number of separate runs of records}`` of a log (verifies it)."""
    return runs_of_commands(read_path(path).records)


def start_watcher(url: str, created: dict) -> subprocess.Popen:
    """`devil watch --json` of one game through the server, as a spectator: it must print every
    event exactly once, in order, across the crash (it reconnects by itself)."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen(
        [sys.executable, "-m", "client.cli", "--server", url, "--token",
         created["tokens"]["spectator"], "watch", created["game"], "--json", "--timeout", "150"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def crash_once(store, games: int, acks_before_kill: int, seed: int):
    server = Server(store).start()
    port = server.port
    try:
        created = [server.http.post("/games", json={
            "kind": "atkr", "options": {"players": ["Anna", "Ben", "Cleo"]},
            "seed": seed + i}).json() for i in range(games)]
        watcher = start_watcher(server.url, created[0])
        drivers = [Driver(server.url, c, seed + i) for i, c in enumerate(created)]
        for driver in drivers:
            driver.start()
        deadline = time.monotonic() + 30
        while (sum(len(d.acked) for d in drivers) < acks_before_kill
               and time.monotonic() < deadline):
            time.sleep(0.005)
        server.kill()  # SIGKILL in the middle of the burst
        for driver in drivers:
            driver.stop.set()
            driver.join(timeout=20)
            assert not driver.is_alive()
    finally:
        server.kill()
    acked = sum(len(d.acked) for d in drivers)
    assert acked >= acks_before_kill
    # after the crash, before any restart: every acknowledged command is in its log once
    for driver in drivers:
        runs = command_groups(os.path.join(store, driver.created["game"] + ".devlog"))
        for key in driver.acked:
            assert runs.get(key) == 1, key
        assert all(n == 1 for n in runs.values())
    torn = sum(read_path(os.path.join(store, d.created["game"] + ".devlog")).torn > 0
               for d in drivers)
    # restart on the same store: resend the commands whose answer was lost, with their ids
    resent = {200: 0, 201: 0}
    server = Server(store, port=port).start()  # where the watcher reconnects
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            for driver in drivers:
                for key, token, command in driver.sent:
                    if key in driver.acked:
                        continue
                    response = http.post(f"/games/{driver.created['game']}/commands",
                                         json=command,
                                         headers={**auth(token), "Idempotency-Key": key})
                    assert response.status_code in (200, 201), response.text
                    resent[response.status_code] += 1
                    driver.acked.add(key)
                # acknowledged ones answered again: repeated, nothing appended
                key, token, command = driver.sent[0]
                response = http.post(f"/games/{driver.created['game']}/commands", json=command,
                                     headers={**auth(token), "Idempotency-Key": key})
                assert response.status_code == 200 and response.json()["repeated"] is True
        # play continues: one game to its end
        play_atkr(server, drivers[0].created)
        out, err = watcher.communicate(timeout=180)
    finally:
        server.stop()
        if watcher.poll() is None:
            watcher.kill()
    assert watcher.returncode == 0, err
    seen = [json.loads(line)["seq"] for line in out.splitlines()]
    final = read_path(os.path.join(store, drivers[0].created["game"] + ".devlog")).last_seq
    assert seen == list(range(1, final + 1))  # every event once, in order, across the crash
    service = GameService(FileStore(store))
    for driver in drivers:
        game = driver.created["game"]
        runs = command_groups(os.path.join(store, game + ".devlog"))
        assert set(driver.acked) <= set(runs) and all(n == 1 for n in runs.values())
        service.load(game)  # a full fold of every event
        assert service.view(game)["version"] == read_path(
            os.path.join(store, game + ".devlog")).last_seq
    print(f"crash: {acked} acknowledged, {torn} torn tails, answers lost: "
          f"{resent[200]} recorded before the kill, {resent[201]} recorded on resend")
    return acked


def test_sigkill_during_a_burst_loses_no_acknowledged_command(tmp_path):
    assert crash_once(str(tmp_path), games=4, acks_before_kill=30, seed=100) >= 30


@pytest.mark.slow
def test_repeated_crashes(tmp_path):
    for round_ in range(3 * SCALE):
        crash_once(str(tmp_path / f"r{round_}"), games=10, acks_before_kill=120,
                   seed=1000 + 50 * round_)
