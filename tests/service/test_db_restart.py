"""Bad conditions: the database goes away and comes back under a running `devil serve`.

While the database is gone the node answers 503 with ``{"error": "the database is
unavailable ...", "code": 5}`` (the CLI exits 5), records nothing it cannot store (every append
is one transaction: nothing half-written appears), and once the database is back it serves
again without being restarted: its connections are opened anew and its LISTEN connection
listens again (a watcher wakes on an append by another node).  A database whose schema is older
than the package is refused at start with the command that upgrades it.

The outage is the session's throwaway cluster (tests/pg.py) stopped and started again.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import threading
import time
import uuid

import httpx
import pytest
from click.testing import CliRunner

from client.cli import cli

from tests import pg

from .conftest import ROOT, auth
from .helpers import atkr_choice
from .test_nodes import Node, command_runs, new_game


def stop_database() -> None:
    cluster = pg.cluster()
    cluster._run("pg_ctl", "-D", cluster.data, "-m", "fast", "-w", "stop")


def start_database() -> None:
    cluster = pg.cluster()
    cluster._run("pg_ctl", "-D", cluster.data, "-l", cluster.log, "-w", "-t", "60", "start")


def devil(*argv: str, **env) -> subprocess.CompletedProcess:
    """`devil ARGV` in a process of its own (for `serve`, which must exit, not serve)."""
    full = dict(os.environ, PYTHONPATH=ROOT, **env)
    return subprocess.run([sys.executable, "-m", "client.cli", *argv], cwd=ROOT, env=full,
                          capture_output=True, text=True, timeout=60)


def devil_here(*argv: str):
    """`devil ARGV` run in this process (Click's runner: its exit code, stdout and stderr);
    a process is not the point of these commands."""
    return CliRunner().invoke(cli, list(argv), env={"DEVIL_SERVER": None, "DEVIL_TOKEN": None,
                                                    "DEVIL_STORE": None})


def next_command(http: httpx.Client, created: dict) -> tuple[str, dict]:
    """A seat that may act now and a command for it."""
    game = created["game"]
    for name in created["players"]:
        view = http.get(f"/games/{game}/view", params={"legal": "true"},
                        headers=auth(created["tokens"][name])).json()
        if view["legal"]:
            return name, atkr_choice(view, name, view["legal"])
    raise AssertionError("nobody may act")


def submit(http: httpx.Client, created: dict, name: str, command: dict, key: str):
    return http.post(f"/games/{created['game']}/commands", json=command,
                     headers={**auth(created["tokens"][name]), "Idempotency-Key": key})


class Burst(threading.Thread):
    """Submits commands to one game as fast as it can until stopped; remembers the keys
    acknowledged and the keys answered 503."""

    def __init__(self, url: str, created: dict):
        super().__init__(daemon=True)
        self.url, self.created = url, created
        self.acked: set[str] = set()
        self.unavailable: set[str] = set()
        self.other: list[str] = []
        self.stop = threading.Event()

    def run(self):
        with httpx.Client(base_url=self.url, timeout=10) as http:
            while not self.stop.is_set():
                try:
                    name, command = next_command(http, self.created)
                except (KeyError, ValueError, AssertionError):  # a 503 answer to the view
                    name, command = self.created["players"][0], {"type": "draw"}
                except httpx.TransportError:
                    return
                key = uuid.uuid4().hex
                try:
                    response = submit(http, self.created, name, command, key)
                except httpx.TransportError:
                    return
                if response.status_code == 201:
                    self.acked.add(key)
                elif response.status_code == 503:
                    self.unavailable.add(key)
                    time.sleep(0.01)
                elif not (response.status_code == 409 and response.json()["code"] == 1):
                    self.other.append(f"{response.status_code}: {response.text[:200]}")


@pytest.fixture
def node(tmp_path):
    url = pg.fresh_database()
    started = Node(url, str(tmp_path)).start()
    yield url, started
    started.stop()


def test_the_database_going_away_is_503_and_the_node_recovers_without_a_restart(node):
    url, srv = node
    created = new_game(srv, seed=5, players=["Anna", "Ben", "Cleo"])
    game = created["game"]
    referee = auth(created["tokens"]["referee"])
    burst = Burst(srv.url, created)
    burst.start()
    while len(burst.acked) < 10:
        time.sleep(0.005)
    stop_database()  # in the middle of the burst
    try:
        time.sleep(0.3)
        with httpx.Client(base_url=srv.url, timeout=10) as http:
            answer = http.get(f"/games/{game}/view", headers=referee)
            assert answer.status_code == 503, answer.text
            body = answer.json()
            assert "the database is unavailable" in body["error"] and body["code"] == 5
            assert answer.headers["retry-after"] == "1"
            key = uuid.uuid4().hex
            answer = http.post(f"/games/{game}/commands", json={"type": "stop"},
                               headers={**auth(created["tokens"]["Anna"]),
                                        "Idempotency-Key": key})
            assert answer.status_code == 503 and answer.json()["code"] == 5, answer.text
            assert http.post("/games", json={"kind": "atkr", "options": {
                "players": ["Anna", "Ben"]}}).status_code == 503
            waited = http.get(f"/games/{game}/events", headers=referee,
                              params={"after": 0, "wait": 1})
            assert waited.status_code == 503
            assert http.get("/health").status_code == 200  # the process itself is fine
        shown = devil_here("--server", srv.url, "--token", created["tokens"]["referee"],
                           "show", game)
        assert shown.exit_code == 5, (shown.exit_code, shown.output)
        assert "the database is unavailable" in shown.stderr
        refused_during = len(burst.unavailable)
        assert refused_during > 0
    finally:
        start_database()
    # back: the same process serves again, within a moment
    deadline = time.monotonic() + 10
    with httpx.Client(base_url=srv.url, timeout=10) as http:
        while http.get(f"/games/{game}/view", headers=referee).status_code != 200:
            assert time.monotonic() < deadline, "the node did not recover"
            time.sleep(0.05)
        recovered = len(burst.acked)
        while len(burst.acked) < recovered + 10:  # the burst goes on through the same node
            assert time.monotonic() < deadline + 10
            time.sleep(0.01)
        burst.stop.set()
        burst.join(timeout=20)
        assert not burst.other, burst.other
        assert srv.proc.poll() is None  # never restarted
        log = http.get(f"/games/{game}/log", headers=referee).content
        runs, _ = command_runs(log)  # the log verifies: nothing half-written
        assert burst.acked <= set(runs) and all(n == 1 for n in runs.values())
        # a 503 took nothing, except a commit whose answer was lost (then its id is there once)
        assert set(runs) <= burst.acked | burst.unavailable
        # a command refused with 503 can be resent with its id
        name, command = next_command(http, created)
        key = uuid.uuid4().hex
        assert submit(http, created, name, command, key).status_code == 201
        assert submit(http, created, name, command, key).status_code == 200
        # the node listens again: a watcher wakes at once on an append by another node
        from engine.store.postgres import PostgresStore

        version = http.get(f"/games/{game}", headers=referee).json()["version"]
        seen = {}

        def watch():
            with httpx.Client(base_url=srv.url, timeout=10) as watcher:
                seen["answer"] = watcher.get(f"/games/{game}/events", headers=referee,
                                             params={"after": version, "wait": 5}).json()
                seen["at"] = time.perf_counter()
        thread = threading.Thread(target=watch)
        thread.start()
        time.sleep(0.5)  # long enough for the listener to be back (it retries every 0.5 s)
        name, command = next_command(http, created)
        with PostgresStore(url, pool_size=1) as other:
            from engine.service import GameService

            GameService(other).submit(game, command, command_id="from-another-node")
            appended = time.perf_counter()
        thread.join(timeout=10)
        assert seen["answer"]["events"]
        assert seen["at"] - appended < 0.2


def test_an_older_schema_is_refused_with_the_command_that_upgrades_it(tmp_path):
    url = pg.fresh_database(initialized=False)
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:  # devil's schema before migration 1
        conn.execute("CREATE TABLE schema_version (version integer PRIMARY KEY, "
                     "name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())")
    refused = devil("serve", "--store", url, "--port", "0")
    assert refused.returncode == 2, refused
    assert f"run `devil db upgrade {shlex.quote(url)}`" in refused.stderr
    assert "version 0" in refused.stderr
    upgraded = devil_here("db", "upgrade", url)
    assert upgraded.exit_code == 0, upgraded.output
    node = Node(url, str(tmp_path)).start()  # now it starts
    try:
        assert new_game(node, seed=1)["game"]
    finally:
        node.stop()
