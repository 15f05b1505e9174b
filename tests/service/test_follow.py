"""Following a game: long-poll and server-sent events, redacted per reader, resumable."""

from __future__ import annotations

import threading
import time

import httpx
import pytest

from client.remote import RemoteClient
from engine.service import GameService
from engine.store import FileStore

from .conftest import auth
from .helpers import play_atkr


@pytest.fixture
def table(server):
    response = httpx.post(server.url + "/games", json={
        "kind": "atkr", "options": {"players": ["Anna", "Ben"], "first": "Anna"}, "seed": 9})
    return response.json()


def later(delay, fn, *args):
    timer = threading.Timer(delay, fn, args)
    timer.start()
    return timer


def test_long_poll_wakes_on_a_new_event_redacted_for_the_reader(server, table):
    game = table["game"]
    ben = RemoteClient(server.url, table["tokens"]["Ben"])
    anna = RemoteClient(server.url, table["tokens"]["Anna"])
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


def test_long_poll_wakes_on_appends_by_another_process(server, table):
    game = table["game"]
    spectator = RemoteClient(server.url, table["tokens"]["spectator"])
    version = spectator.wait_events(game, None, 0)["version"]
    local = GameService(FileStore(server.store))  # the local CLI's way, no HTTP
    timer = later(0.5, lambda: local.submit(game, {"type": "bet", "player": "Ben",
                                                   "amount": 10}))
    began = time.monotonic()
    woke = spectator.wait_events(game, None, version, wait=20)
    timer.join()
    assert time.monotonic() - began < 5
    assert woke["events"][0]["event"] == {"type": "bet_placed", "seat": 1, "amount": None}


def test_server_sent_events_and_resume_with_last_event_id(server, table):
    game = table["game"]
    referee = RemoteClient(server.url, table["tokens"]["referee"])
    anna = RemoteClient(server.url, table["tokens"]["Anna"])
    ben = RemoteClient(server.url, table["tokens"]["Ben"])
    seen = []

    def follow():
        for entry in RemoteClient(server.url, table["tokens"]["Ben"]).stream(game, timeout=4):
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
    with httpx.stream("GET", f"{server.url}/games/{game}/stream?timeout=0.5",
                      headers={**auth(table["tokens"]["Ben"]), "Last-Event-ID": "3"},
                      timeout=10) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        text = response.read().decode()
    ids = [int(line[3:]) for line in text.splitlines() if line.startswith("id: ")]
    assert ids == [s for s in full if s > 3]


def test_the_stream_ends_when_the_game_is_over(server):
    created = httpx.post(server.url + "/games", json={
        "kind": "atkr", "options": {"players": ["A", "B"], "first": "A"}, "seed": 1}).json()
    game = created["game"]
    play_atkr(server.url, created)
    spectator = RemoteClient(server.url, created["tokens"]["spectator"])
    assert spectator.view(game, None)["phase"] == "over"
    began = time.monotonic()
    entries = list(spectator.stream(game, timeout=30))
    assert time.monotonic() - began < 10  # closes at the end instead of waiting
    assert entries[-1]["event"]["type"] == "game_ended"
    assert spectator.wait_events(game, None, entries[-1]["seq"], wait=30)["over"] is True
