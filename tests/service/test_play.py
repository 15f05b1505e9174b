"""Whole games over HTTP (the app in process, see conftest.py), one client (token) per seat, and
the service's seat/referee/spectator boundaries (issue 5)."""

from __future__ import annotations

import random
import time

import pytest

from engine.errors import IllegalCommand, NotAllowed
from engine.log import scan

from .conftest import auth
from .helpers import play_atkr


def create(server, kind, options, seed=None):
    body = {"kind": kind, "options": options}
    if seed is not None:
        body["seed"] = seed
    response = server.http.post("/games", json=body, timeout=30)
    assert response.status_code == 201, response.text
    return response.json()


def clients(server, created):
    return {name: server.remote(created["tokens"][name]) for name in created["players"]}


def test_whole_atkr_game_one_client_per_seat(server):
    created = create(server, "atkr", {"players": ["Anna", "Ben", "Cleo"], "first": "Anna"},
                     seed=11)
    game = created["game"]
    assert set(created["tokens"]) == {"referee", "spectator", "Anna", "Ben", "Cleo"}
    referee = server.remote(created["tokens"]["referee"])
    acted = play_atkr(server, created)
    final = referee.view(game, None)
    assert final["phase"] == "over"
    money = {p["name"]: p["money"] for p in final["players"]}
    best = max(money.values())
    assert best >= 1600  # ATKR-8.1
    assert sorted(final["winners"]) == sorted(n for n, m in money.items() if m == best)  # 8.2
    assert all(acted.values())
    # the referee's export is the whole, verifying log; every seat's records carry its seat
    data = referee.log_bytes(game)
    result = scan(data)
    assert result.torn == 0 and result.last_seq == final["version"]
    names = created["players"]
    for record in result.records:
        if record.cmd is not None:
            assert record.actor in (0, 1, 2)
            assert record.event.get("seat", record.actor) is not None
    ended = [r for r in result.records if r.event["type"] == "game_ended"]
    assert len(ended) == 1 and ended[0].event["seed"] == 11
    assert [names[s] for s in ended[0].event["winners"]] == final["winners"]


def test_whole_castle_game_one_client_per_seat(server):
    names = ["Ada", "Bo", "Cy", "Di"]
    created = create(server, "castle", {"players": names}, seed=5)
    game = created["game"]
    seats = clients(server, created)
    spectator = server.remote(created["tokens"]["spectator"])
    referee = server.remote(created["tokens"]["referee"])
    # at the start the spectator sees no card of anyone; each seat sees its own only
    public = spectator.view(game, None)
    for player in public["players"]:
        assert player["items"] is None and player["society"] is None
        assert player["profession"] is None
    for seat, name in enumerate(names):
        own = seats[name].view(game, None)["players"]
        assert own[seat]["society"] in ("order", "brotherhood")
        assert own[seat]["items"]
        assert all(p["items"] is None for i, p in enumerate(own) if i != seat)
    rng = random.Random(5)
    deadline = time.monotonic() + 120
    steps = 0
    for steps in range(1, 2000):
        assert time.monotonic() < deadline
        if referee.view(game, None)["phase"] == "over":
            break
        options = [(name, c) for name, client in seats.items() for c in client.legal(game, None)]
        assert options, "nobody can act although the game is not over"
        name, command = rng.choice(options)
        seats[name].submit(game, command, None)
    final = referee.view(game, None)
    assert final["phase"] == "over" and final["winners"]
    # face-down trades stay face down for the spectator (CASTLE-4)
    for entry in spectator.events(game, None):
        event = entry["event"]
        if event["type"] == "cards_dealt":
            assert all(c is None for hand in event["hands"] for c in hand)
            assert all(s is None for s in event["societies"])
        if event["type"] in ("trade_offered", "item_given", "trade_refused"):
            assert event["item"] is None
    assert scan(referee.log_bytes(game)).last_seq == final["version"]


@pytest.fixture
def table(server):
    created = create(server, "atkr", {"players": ["Anna", "Ben"], "first": "Anna"}, seed=3)
    return created


def version(server, created) -> int:
    response = server.http.get(f"/games/{created['game']}",
                         headers=auth(created["tokens"]["referee"]), timeout=10)
    return response.json()["version"]


def test_a_seat_cannot_act_as_another(server, table):
    game, anna = table["game"], server.remote(table["tokens"]["Anna"])
    before = version(server, table)
    with pytest.raises(NotAllowed):
        anna.submit(game, {"type": "bet", "player": "Ben", "amount": 10}, None)
    with pytest.raises(NotAllowed):
        anna.submit(game, {"type": "bet", "amount": 10}, "Ben")  # --as Ben
    response = server.http.post(f"/games/{game}/commands", json={"type": "bet",
                          "player": "Ben", "amount": 10},
                          headers={**auth(table["tokens"]["Anna"]), "Idempotency-Key": "x1"})
    assert response.status_code == 403
    assert response.json()["code"] == 4 and "Anna" in response.json()["error"]
    assert version(server, table) == before


def test_a_seat_cannot_read_another_seat_or_the_referee_log(server, table):
    game, token = table["game"], table["tokens"]["Anna"]
    for path in (f"/games/{game}/view?as=Ben", f"/games/{game}/legal?as=Ben",
                 f"/games/{game}/events?as=Ben", f"/games/{game}/stream?as=Ben",
                 f"/games/{game}/log"):
        response = server.http.get(path, headers=auth(token), timeout=10)
        assert response.status_code == 403, path
        assert response.json()["code"] == 4
    # the referee may
    log = server.http.get(f"/games/{game}/log", headers=auth(table["tokens"]["referee"]))
    assert log.status_code == 200 and scan(log.content).header.game == game
    ben_view = server.http.get(f"/games/{game}/view?as=Ben",
                         headers=auth(table["tokens"]["referee"]))
    assert ben_view.status_code == 200


def test_a_token_of_one_game_does_not_open_another(server, table):
    other = create(server, "atkr", {"players": ["X", "Y"]}, seed=1)
    response = server.http.get(f"/games/{other['game']}/view",
                         headers=auth(table["tokens"]["referee"]))
    assert response.status_code == 403


def test_spectator_and_other_seats_see_no_unrevealed_bet(server, table):
    game = table["game"]
    anna = server.remote(table["tokens"]["Anna"])
    ben = server.remote(table["tokens"]["Ben"])
    spectator = server.remote(table["tokens"]["spectator"])
    anna.submit(game, {"type": "bet", "amount": 70}, None)
    for client in (ben, spectator):
        seen = client.view(game, None)["players"][0]
        assert seen["has_bet"] is True and seen["bet"] is None  # ATKR-3.2
        assert seen["money"] is None  # money not on the table is private until revealed
        placed = [e["event"] for e in client.events(game, None)
                  if e["event"]["type"] == "bet_placed"]
        assert placed == [{"type": "bet_placed", "seat": 0, "amount": None}]
    assert anna.view(game, None)["players"][0]["bet"] == 70
    with pytest.raises(NotAllowed):
        spectator.submit(game, {"type": "bet", "player": "Ben", "amount": 10}, None)
    with pytest.raises(NotAllowed):
        spectator.view(game, "Anna")
    ben.submit(game, {"type": "bet", "amount": 20}, None)
    shown = [p["bet"] for p in spectator.view(game, None)["players"]]
    assert shown == [70, 20]  # revealed together once all have bet


def test_a_repeated_command_id_appends_once(server, table):
    game = table["game"]
    anna = server.remote(table["tokens"]["Anna"])
    first = anna.submit(game, {"type": "bet", "amount": 30}, None, "anna-bet-1")
    again = anna.submit(game, {"type": "bet", "amount": 30}, None, "anna-bet-1")
    assert first["repeated"] is False and again["repeated"] is True
    assert again["events"] == first["events"]
    referee = server.remote(table["tokens"]["referee"])
    records = scan(referee.log_bytes(game)).records
    assert [r.cmd for r in records].count("anna-bet-1") == 1
    # the raw HTTP: the retry answers 200, the first 201; a different caller reusing the id
    # is told so and nothing is recorded
    headers = {**auth(table["tokens"]["Ben"]), "Idempotency-Key": "anna-bet-1"}
    response = server.http.post(f"/games/{game}/commands", json={"type": "bet",
                          "amount": 10}, headers=headers)
    # another seat's id: refused before anything is compared, and Anna's bet is not echoed
    assert response.status_code == 403 and response.json()["code"] == 4
    assert response.json()["error"] == ("command id 'anna-bet-1' belongs to another player's "
                                        "command; give a new id")
    headers = {**auth(table["tokens"]["referee"]), "Idempotency-Key": "anna-bet-1"}
    response = server.http.post(f"/games/{game}/commands", json={"type": "bet",
                          "player": "Anna", "amount": 30}, headers=headers)
    assert response.status_code == 409 and response.json()["code"] == 2  # another caller
    assert len(scan(referee.log_bytes(game)).records) == len(records)


def test_refused_command_keeps_its_rule(server, table):
    game = table["game"]
    anna = server.remote(table["tokens"]["Anna"])
    before = version(server, table)
    with pytest.raises(IllegalCommand) as caught:
        anna.submit(game, {"type": "bet", "amount": 15}, None)  # not a multiple of 10
    assert caught.value.rule == "ATKR-3.1"
    assert caught.value.message.startswith("ATKR-3.1")
    response = server.http.post(f"/games/{game}/commands", json={"type": "draw"},
                          headers={**auth(table["tokens"]["Anna"]), "Idempotency-Key": "d1"})
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == 1 and body["rule"] and body["error"].startswith(body["rule"])
    assert version(server, table) == before


def test_physical_game_chance_comes_from_the_referee(server):
    created = create(server, "atkr", {"players": ["Anna", "Ben"], "first": "Anna",
                                      "physical": True})
    game = created["game"]
    anna = server.remote(created["tokens"]["Anna"])
    ben = server.remote(created["tokens"]["Ben"])
    referee = server.remote(created["tokens"]["referee"])
    anna.submit(game, {"type": "bet", "amount": 10}, None)
    ben.submit(game, {"type": "bet", "amount": 10}, None)
    with pytest.raises(NotAllowed):  # a seat cannot report its own coal (ATKR-9.3)
        anna.submit(game, {"type": "draw", "coal": 100}, None)
    result = referee.submit(game, {"type": "draw", "player": "Anna", "coal": 25}, None)
    assert [e for e in result["events"] if e["type"] == "coal_drawn"] == [
        {"seq": result["events"][0]["seq"], "type": "coal_drawn", "seat": 0, "coal": 25}]
    records = scan(referee.log_bytes(game)).records
    assert records[-1].actor == -1  # recorded as the referee's report


def test_view_and_answer_can_carry_the_seats_legal_commands(server, table):
    game, token = table["game"], table["tokens"]["Anna"]
    view = server.http.get(f"/games/{game}/view?legal=true", headers=auth(token)).json()
    assert view["legal"] == server.http.get(f"/games/{game}/legal",
                                      headers=auth(token)).json()
    assert {c["type"] for c in view["legal"]} == {"bet"}  # phase 1 (ATKR-3.1)
    answer = server.http.post(f"/games/{game}/commands?legal=true",
                        json={"type": "bet", "amount": 10},
                        headers={**auth(token), "Idempotency-Key": "l1"}).json()
    assert answer["view"]["legal"] == []  # Anna has bet; Ben has not
    plain = server.http.get(f"/games/{game}/view", headers=auth(token)).json()
    assert "legal" not in plain
