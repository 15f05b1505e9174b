"""Many nodes: two `devil serve` processes on one PostgreSQL database serve the same games.

The clients of one game are spread over both nodes: every command is applied exactly once and
both nodes answer the same log (one order); a watcher long-polling node A sees an event
appended through node B within 200 ms (the store's LISTEN/NOTIFY wakes A's watchers); SIGKILL
of one node in the middle of a burst loses no acknowledged command and the other node carries
on.  A node's folds and token caches are only a cache of the database: nothing here tells a
node about the other.

The database is a fresh one in the session's throwaway cluster (tests/pg.py).
"""

from __future__ import annotations

import random
import statistics
import tempfile
import threading
import time
import uuid

import httpx
import pytest

from engine.replay import verify_bytes
from tests import pg

from .conftest import Server, auth, start_all
from .helpers import atkr_choice, runs_of_commands

PLAYERS = ["Anna", "Ben", "Cleo", "Dan"]


def Node(store: str, log_dir: str) -> Server:
    """A `devil serve --store URL` node (conftest.Server), its output logged in ``log_dir``."""
    return Server(store, log_dir=log_dir)


@pytest.fixture(scope="module")
def nodes():
    """Two nodes on one fresh database, for the module (the SIGKILL test, last, kills A)."""
    url = pg.fresh_database()
    logs = tempfile.mkdtemp(prefix="devil-nodes-")
    started = []
    try:
        started = start_all([Node(url, logs) for _ in range(2)])
        yield url, started[0], started[1]
    finally:
        for node in started:
            node.stop()


def new_game(node: Node, seed: int, players=PLAYERS) -> dict:
    response = httpx.post(node.url + "/games", json={
        "kind": "atkr", "options": {"players": list(players)}, "seed": seed}, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def command_runs(data: bytes) -> tuple[dict[str, int], list]:
    """``({command id: separate runs of its records}, records)`` of a .devlog, which must
    verify (hash chain, seed, strict refold)."""
    from engine.log import scan

    checked = verify_bytes(data)
    assert checked.ok, checked
    records = scan(data).records
    return runs_of_commands(records), records


class Seat(threading.Thread):
    """One seat of a game playing through its ``nodes`` (the first is its own): reads its legal
    commands, submits one with a fresh Idempotency-Key; when a connection dies, the same
    command with the same key goes to the next node.  Remembers every key acknowledged and
    the sequence numbers each answer gave."""

    def __init__(self, created: dict, name: str, nodes: list[Node], seed: int,
                 limit: int = 10_000):
        super().__init__(daemon=True)
        self.created, self.name, self.nodes = created, name, list(nodes)
        self.rng = random.Random(seed)
        self.limit = limit
        self.acked: dict[str, list[int]] = {}  # key -> the seqs of the events the answer showed
        self.stop = threading.Event()
        self.errors: list[str] = []
        self.failovers = 0

    def _request(self, method, path, **kwargs):
        """``method path`` on the first node that answers (moving to the next when a
        connection dies)."""
        for _ in range(2 * len(self.nodes)):
            try:
                return self.clients[0].request(method, path, **kwargs)
            except httpx.TransportError:
                self.clients.append(self.clients.pop(0))
                self.failovers += 1
                time.sleep(0.02)
        raise RuntimeError("no node answers")

    def run(self):
        game, token = self.created["game"], self.created["tokens"][self.name]
        headers = auth(token)
        self.clients = [httpx.Client(base_url=node.url, timeout=10) for node in self.nodes]
        try:
            for _ in range(self.limit):
                if self.stop.is_set():
                    return
                view = self._request("GET", f"/games/{game}/view", headers=headers,
                                     params={"legal": "true"}).json()
                if view.get("phase") == "over":
                    return
                if not view["legal"]:
                    self._request("GET", f"/games/{game}/events", headers=headers,
                                  params={"after": view["version"], "wait": 0.5})
                    continue
                command = atkr_choice(view, self.name, view["legal"])
                key = uuid.uuid4().hex
                response = self._request("POST", f"/games/{game}/commands", json=command,
                                         headers={**headers, "Idempotency-Key": key})
                if response.status_code in (200, 201):
                    self.acked[key] = [event["seq"] for event in response.json()["events"]]
                elif not (response.status_code == 409 and response.json()["code"] == 1):
                    # refused by the rules (another seat moved first) is fine; nothing else
                    self.errors.append(f"{response.status_code}: {response.text[:200]}")
        except Exception as exc:  # noqa: BLE001 - reported by the test
            self.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            for client in self.clients:
                client.close()


def test_one_game_over_two_nodes_applies_every_command_once_in_one_order(nodes):
    url, a, b = nodes
    created = new_game(a, seed=7)
    game = created["game"]
    # seats alternate between the nodes; each falls back to the other only if its node dies
    seats = [Seat(created, name, [a, b] if i % 2 == 0 else [b, a], seed=i, limit=400)
             for i, name in enumerate(PLAYERS)]
    for seat in seats:
        seat.start()
    for seat in seats:
        seat.join(timeout=90)
        assert not seat.is_alive()
    assert not [e for s in seats for e in s.errors]
    with httpx.Client(timeout=10) as http:
        over = http.get(f"{a.url}/games/{game}/view",
                        headers=auth(created["tokens"]["referee"])).json()["phase"] == "over"
    log_a = httpx.get(f"{a.url}/games/{game}/log",
                      headers=auth(created["tokens"]["referee"])).content
    log_b = httpx.get(f"{b.url}/games/{game}/log",
                      headers=auth(created["tokens"]["referee"])).content
    assert log_a == log_b  # one order, whichever node is asked
    runs, records = command_runs(log_a)
    acked = {k: v for s in seats for k, v in s.acked.items()}
    assert len(acked) >= 20 and over
    assert set(acked) == set(runs)  # every command acknowledged is there, nothing else
    assert all(n == 1 for n in runs.values())  # ... exactly once
    by_seq = {r.seq: r.cmd for r in records}
    for key, seqs in acked.items():  # and where its answer said it went
        assert all(by_seq[seq] == key for seq in seqs), key


def test_one_command_id_sent_to_both_nodes_at_once_is_recorded_once(nodes):
    url, a, b = nodes
    created = new_game(a, seed=11, players=PLAYERS[:2])
    game = created["game"]
    answers = []
    for name in PLAYERS[:2]:
        key = uuid.uuid4().hex
        headers = {**auth(created["tokens"][name]), "Idempotency-Key": key}
        barrier = threading.Barrier(2)

        def send(node, headers=headers, barrier=barrier):
            barrier.wait()
            answers.append((key, httpx.post(f"{node.url}/games/{game}/commands",
                                            json={"type": "bet", "amount": 20},
                                            headers=headers, timeout=10)))
        threads = [threading.Thread(target=send, args=(node,)) for node in (a, b)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    statuses = sorted(r.status_code for _, r in answers)
    assert statuses == [200, 200, 201, 201], [(r.status_code, r.text) for _, r in answers]
    log = httpx.get(f"{b.url}/games/{game}/log",
                    headers=auth(created["tokens"]["referee"])).content
    runs, _ = command_runs(log)
    assert sorted(runs.values()) == [1, 1] and set(runs) == {k for k, _ in answers}


def test_a_watcher_on_one_node_sees_an_append_through_the_other_within_200_ms(nodes):
    url, a, b = nodes
    created = new_game(a, seed=3, players=PLAYERS[:2])
    game = created["game"]
    spectator = auth(created["tokens"]["spectator"])
    delays, totals = [], []
    with httpx.Client(timeout=10) as watcher, httpx.Client(timeout=10) as writer:
        version = watcher.get(f"{a.url}/games/{game}/events", headers=spectator).json()["version"]
        for trial in range(8):
            name = PLAYERS[trial % 2]
            view = writer.get(f"{b.url}/games/{game}/view", params={"legal": "true"},
                              headers=auth(created["tokens"][name])).json()
            if not view["legal"]:
                name = PLAYERS[(trial + 1) % 2]
                view = writer.get(f"{b.url}/games/{game}/view", params={"legal": "true"},
                                  headers=auth(created["tokens"][name])).json()
            command = atkr_choice(view, name, view["legal"])
            seen: dict = {}

            def watch():
                answer = watcher.get(f"{a.url}/games/{game}/events", headers=spectator,
                                     params={"after": version, "wait": 10})
                seen["at"] = time.perf_counter()
                seen["answer"] = answer.json()
            thread = threading.Thread(target=watch)
            thread.start()
            time.sleep(0.3)  # the long-poll is waiting on node A (past its first look)
            sent = time.perf_counter()
            response = writer.post(f"{b.url}/games/{game}/commands", json=command,
                                   headers={**auth(created["tokens"][name]),
                                            "Idempotency-Key": uuid.uuid4().hex})
            acked = time.perf_counter()
            assert response.status_code == 201, response.text
            thread.join(timeout=10)
            assert seen["answer"]["events"], seen
            version = seen["answer"]["version"]
            delays.append(max(0.0, seen["at"] - acked))
            totals.append(seen["at"] - sent)
    print(f"watcher on A, append through B: after B's answer median "
          f"{statistics.median(delays) * 1000:.1f} ms, max {max(delays) * 1000:.1f} ms; "
          f"from B's request median {statistics.median(totals) * 1000:.1f} ms, "
          f"max {max(totals) * 1000:.1f} ms")
    assert max(delays) < 0.2, delays
    assert max(totals) < 0.2 + 0.5, totals


def burst_with_a_kill(url: str, a: Node, b: Node, games: int, acks_before_kill: int,
                      seed: int) -> tuple[int, int]:
    """Seats of ``games`` games spread over ``a`` and ``b``; SIGKILL ``a`` once
    ``acks_before_kill`` commands were acknowledged; play on through ``b``.  Checks every
    acknowledged command is in its log exactly once and every log verifies.  Returns
    (acknowledged before the kill, after)."""
    created = [new_game(b, seed=seed + i) for i in range(games)]
    seats = [Seat(c, name, [a, b] if (i + j) % 2 == 0 else [b, a], seed=seed + 10 * i + j,
                  limit=2000)
             for i, c in enumerate(created) for j, name in enumerate(c["players"])]
    for seat in seats:
        seat.start()
    deadline = time.monotonic() + 30
    while sum(len(s.acked) for s in seats) < acks_before_kill and time.monotonic() < deadline:
        time.sleep(0.002)
    a.kill()  # SIGKILL, mid-burst
    before = sum(len(s.acked) for s in seats)
    # the other node carries on: commands acknowledged through B after the kill, the clients
    # of A among them (they moved to B); waited for, up to 15 s
    until = time.monotonic() + 15
    while time.monotonic() < until and not (
            sum(len(s.acked) for s in seats) - before >= 20
            and sum(s.failovers for s in seats) > 0):
        time.sleep(0.01)
    for seat in seats:
        seat.stop.set()
    for seat in seats:
        seat.join(timeout=30)
        assert not seat.is_alive()
    after = sum(len(s.acked) for s in seats) - before
    assert not [e for s in seats for e in s.errors]
    assert before >= acks_before_kill and after > 0, (before, after)
    assert sum(s.failovers for s in seats) > 0  # the clients of A did move to B
    from engine.store.postgres import PostgresStore

    with PostgresStore(url, pool_size=2) as store:
        for c in created:
            runs, records = command_runs(store.log_bytes(c["game"]))
            acked = {k: v for s in seats if s.created is c for k, v in s.acked.items()}
            assert set(acked) <= set(runs)  # no acknowledged command lost
            assert all(n == 1 for n in runs.values())  # none doubled
            by_seq = {r.seq: r.cmd for r in records}
            for key, seqs in acked.items():
                assert all(by_seq[seq] == key for seq in seqs), key
    return before, after


def test_sigkill_of_one_node_mid_burst_loses_nothing_and_the_other_carries_on(nodes):
    url, a, b = nodes
    before, after = burst_with_a_kill(url, a, b, games=4, acks_before_kill=40, seed=100)
    print(f"two nodes, SIGKILL of A: {before} acknowledged before, {after} after (through B)")


@pytest.mark.slow
def test_repeated_kills_of_either_node(tmp_path):
    url = pg.fresh_database()
    for round_ in range(3):
        a, b = start_all([Node(url, str(tmp_path)), Node(url, str(tmp_path))])
        try:
            burst_with_a_kill(url, a, b, games=8, acks_before_kill=150, seed=1000 + 50 * round_)
        finally:
            a.stop()
            b.stop()
