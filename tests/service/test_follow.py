"""Following a game: long-poll and server-sent events, redacted per reader, resumable.

In process (the ``server`` fixture), except the wake-up on an append by another process, which
needs a real ``devil serve`` (``real_server``) and this test process as the other writer."""

from __future__ import annotations

import threading
import time

import pytest

from engine.service import GameService
from engine.store import FileStore

from .conftest import auth
from .helpers import play_atkr


def new_table(server):
    response = server.http.post("/games", json={
        "kind": "atkr", "options": {"players": ["Anna", "Ben"], "first": "Anna"}, "seed": 9})
    assert response.status_code == 201, response.text
    return response.json()


@pytest.fixture
def table(server):
    return new_table(server)


def later(delay, fn, *args):
    timer = threading.Timer(delay, fn, args)
    timer.start()
    return timer


def test_long_poll_wakes_on_a_new_event_redacted_for_the_reader(server, table):
    game = table["game"]
    ben = server.remote(table["tokens"]["Ben"])
    anna = server.remote(table["tokens"]["Anna"])
    start = ben.wait_events(game, None, 0, wait=0)
    assert start["events"] and not start["over"]
    version = start["version"]
    began = time.monotonic()
    quiet = ben.wait_events(game, None, version, wait=0.5)
    assert quiet["events"] == [] and quiet["version"] == version
    assert 0.4 <= time.monotonic() - began < 5
    timer = later(0.5, anna.submit, game, {"type": "bet", "amount": 40}, None)
    began = time.monotonic()
    woke = ben.wait_events(game, None, version, wait=20)
    timer.join()
    assert time.monotonic() - began < 5
    assert [e["event"] for e in woke["events"]] == [
        {"type": "bet_placed", "seat": 0, "amount": None}]
    assert woke["version"] == version + 1
    # Anna reads her own bet
    mine = anna.wait_events(game, None, version, wait=1)
    assert mine["events"][0]["event"]["amount"] == 40


def test_long_poll_wakes_on_appends_by_another_process(real_server):
    server = real_server
    table = new_table(server)
    game = table["game"]
    spectator = server.remote(table["tokens"]["spectator"])
    version = spectator.wait_events(game, None, 0)["version"]
    local = GameService(FileStore(server.store))  # the local CLI's way in this process
    timer = later(0.5, lambda: local.submit(game, {"type": "bet", "player": "Ben",
                                                   "amount": 10}))
    began = time.monotonic()
    woke = spectator.wait_events(game, None, version, wait=20)
    timer.join()
    assert time.monotonic() - began < 5
    assert woke["events"][0]["event"] == {"type": "bet_placed", "seat": 1, "amount": None}


def test_server_sent_events_and_resume_with_last_event_id(server, table):
    game = table["game"]
    referee = server.remote(table["tokens"]["referee"])
    anna = server.remote(table["tokens"]["Anna"])
    ben = server.remote(table["tokens"]["Ben"])
    seen = []

    def follow():
        for entry in server.remote(table["tokens"]["Ben"]).stream(game, timeout=2):
            seen.append(entry)

    reader = threading.Thread(target=follow)
    reader.start()
    time.sleep(0.3)
    anna.submit(game, {"type": "bet", "amount": 40}, None)
    ben.submit(game, {"type": "bet", "amount": 20}, None)
    reader.join(timeout=20)
    assert not reader.is_alive()
    seqs = [e["seq"] for e in seen]
    full = [e["seq"] for e in referee.events(game, None)]
    assert seqs == full  # every event, in order, once
    assert seen[2]["event"] == {"type": "bet_placed", "seat": 0, "amount": None}
    # reconnect after seq 3 with Last-Event-ID: the rest only
    with server.http.stream("GET", f"/games/{game}/stream?timeout=0.5",
                      headers={**auth(table["tokens"]["Ben"]), "Last-Event-ID": "3"},
                      timeout=10) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        text = response.read().decode()
    ids = [int(line[3:]) for line in text.splitlines() if line.startswith("id: ")]
    assert ids == [s for s in full if s > 3]


def test_the_stream_ends_when_the_game_is_over(server):
    created = server.http.post("/games", json={
        "kind": "atkr", "options": {"players": ["A", "B"], "first": "A"}, "seed": 1}).json()
    game = created["game"]
    play_atkr(server, created)
    spectator = server.remote(created["tokens"]["spectator"])
    assert spectator.view(game, None)["phase"] == "over"
    began = time.monotonic()
    entries = list(spectator.stream(game, timeout=30))
    assert time.monotonic() - began < 10  # closes at the end instead of waiting
    assert entries[-1]["event"]["type"] == "game_ended"
    assert spectator.wait_events(game, None, entries[-1]["seq"], wait=30)["over"] is True
