"""Clocks over HTTP (CLOCK-1, CLOCK-5, CLOCK-8, CLOCK-9): POST /games with a clock, every request
naming the game records the timeouts due, the view carries the clocks; and a real ``devil
serve`` records a timeout by its background task, with no request at all.
"""

from __future__ import annotations

import time as wall

import httpx
import pytest

from engine.replay import verify_path
from engine.web import create_app

from ..clocks.test_clocks import Time
from .conftest import InProcessTransport, auth


@pytest.fixture
def clocked(tmp_path):
    app = create_app(str(tmp_path))
    time = Time()
    app.state.api.service.clock = time  # the service's clock, passed in (engine.clock)
    transport = InProcessTransport(app)
    http = httpx.Client(base_url="http://devil.test", transport=transport, timeout=30.0)
    yield http, time, tmp_path
    http.close()
    transport.close()


def test_a_game_with_a_clock_over_http(clocked):
    http, time, store = clocked
    bad = http.post("/games", json={"kind": "atkr", "options": {"players": ["Anna", "Ben"]},
                                    "clock": {"clock": "20x"}})
    assert bad.status_code == 400 and "CLOCK-1" in bad.text
    created = http.post("/games", json={
        "kind": "atkr", "seed": 5, "seat_entropy": False,
        "options": {"players": ["Anna", "Ben"], "first": "Anna"},
        "clock": {"move_time": "30s", "on_timeout": "act"}}).json()
    game, tokens = created["game"], created["tokens"]
    view = http.get(f"/games/{game}/view", headers=auth(tokens["Anna"])).json()
    assert view["clocks"]["control"] == {"base": None, "increment": 0, "move": 30_000,
                                         "on_timeout": "act",
                                         "text": "30s a move, on timeout: act"}
    assert [s["move_left"] for s in view["clocks"]["seats"]] == [30_000, 30_000]
    time.set(10)
    answer = http.post(f"/games/{game}/commands", json={"type": "bet", "amount": 20},
                       headers={**auth(tokens["Anna"]), "Idempotency-Key": "a-1"})
    assert answer.status_code == 201, answer.text
    time.set(31)  # Ben's move time ran out at 30 s: the next request naming the game sees it
    view = http.get(f"/games/{game}/view", headers=auth(tokens["spectator"])).json()
    ben = view["clocks"]["seats"][1]
    assert ben["timeouts"] == 1 and not ben["running"]
    events = http.get(f"/games/{game}/events", headers=auth(tokens["referee"])).json()["events"]
    expired = [e for e in events if e["event"]["type"] == "clock_expired"]
    assert [(e["seq"], e["actor"], e["event"]["due"]) for e in expired] == [(5, -1, 30_000)]
    assert next(e for e in events if e["seq"] == 6)["event"] == {"type": "bet_placed",
                                                                  "seat": 1, "amount": 0}
    late = http.post(f"/games/{game}/commands", json={"type": "bet", "amount": 10},
                     headers={**auth(tokens["Ben"]), "Idempotency-Key": "b-1"})
    assert late.status_code == 409 and late.json()["rule"].startswith("ATKR-")  # bet for him
    assert verify_path(str(store / f"{game}.devlog")).ok
    assert view["clocks"]["at"] == 31_000  # ms since the game's creation (at T0)


@pytest.mark.slow
def test_devil_serve_records_a_timeout_nobody_asks_for(real_server):
    created = real_server.http.post("/games", json={
        "kind": "atkr", "seat_entropy": False, "options": {"players": ["Anna", "Ben"]},
        "clock": {"move_time": "1s", "on_timeout": "flag"}}).json()
    path = f"{real_server.store}/{created['game']}.devlog"
    deadline = wall.monotonic() + 15
    while wall.monotonic() < deadline:
        check = verify_path(path)
        if check.clocks and all(s["flagged"] for s in check.clocks["seats"]):
            break
        wall.sleep(0.3)
    assert check.ok and [s["flagged"] for s in check.clocks["seats"]] == [True, True]
