"""Amendments and remedies over HTTP (DESK-9, DESK-10; engine/web/games.py): the referee's
token amends a record and the answer lists what was re-applied; a seat's token is refused
(403, exit code 4) and records nothing; a refused amendment is 409 with its rule; a ruling's
remedy and the dispute an amendment answers come back in the view; the OpenAPI document
describes both.  The game (Anna, Ben, physical, Anna first; docs/rules/atkr.md): 1
game_created, 2 round_started, 3 and 4 the bets with 5 the reveal, 6 Anna's 25, 7 her 50
(which was a 20), 8 her stop, 9 Ben's 10."""

from __future__ import annotations

import pytest

from .conftest import App, auth
from .test_reporters import command, physical_game, version


@pytest.fixture
def app(tmp_path):
    served = App(tmp_path / "store")
    yield served
    served.close()


def test_an_amendment_and_its_remedy_over_http(app):
    game, tokens = physical_game(app)
    referee = tokens["referee"]
    command(app, game, tokens["Anna"], {"type": "bet", "amount": 60})  # 3
    command(app, game, tokens["Ben"], {"type": "bet", "amount": 40})  # 4, 5
    for seat, coal in (("Anna", 25), ("Anna", 50)):  # 6, 7
        command(app, game, referee, {"type": "draw", "coal": coal}, seat)
    command(app, game, tokens["Anna"], {"type": "stop"})  # 8
    command(app, game, referee, {"type": "draw", "coal": 10}, "Ben")  # 9
    command(app, game, tokens["Anna"], {"type": "dispute", "seq": 7, "text": "a 20"})  # 10
    ruled = command(app, game, referee, {"type": "ruling", "dispute": 1, "upheld": True,
                                         "reason": "a 20", "remedy": "amend"})  # 11
    assert ruled["events"][0]["remedy"] == "amend"
    body = {"type": "amend", "seq": 7, "fields": {"coal": 20}, "reason": "a 20", "dispute": 1}
    refused = app.http.post(f"/games/{game}/commands", json=body,
                            headers={**auth(tokens["Anna"]), "Idempotency-Key": "a-1"})
    assert refused.status_code == 403 and refused.json()["code"] == 4
    assert "DESK-1: only the referee may amend a record" in refused.json()["error"]
    wrong = app.http.post(f"/games/{game}/commands", json={**body, "fields": {"coal": 30}},
                          headers={**auth(referee), "Idempotency-Key": "a-2"})
    assert wrong.status_code == 409 and wrong.json()["rule"] == "DESK-9.3"
    assert version(app, game, referee) == 11
    done = command(app, game, referee, body)
    # 12 amended, 13 the 20, Anna's stop (8) again at 14, Ben's 10 (9) at 15
    head = done["events"][0]
    assert (head["seq"], head["type"], head["about"], head["reapplied"], head["voided"]) == \
        (12, "amended", 7, [[8, 14], [9, 15]], [])
    assert [(e["seq"], e["type"]) for e in done["events"][1:]] == \
        [(13, "coal_drawn"), (14, "stopped"), (15, "coal_drawn")]
    view = app.http.get(f"/games/{game}/view", headers=auth(tokens["Ben"])).json()
    case = view["disputes"][0]
    assert (case["remedy"], case["answered"], case["remedy_text"]) == \
        ("amend", [12], "amendment #12")
    assert view["amended"][0]["reapplied"] == [{"of": 8, "at": 14}, {"of": 9, "at": 15}]
    events = app.http.get(f"/games/{game}/events", headers=auth(tokens["Ben"])).json()
    entries = {e["seq"]: e for e in events["events"]}
    assert entries[8]["voided"] == {"by": 12, "reason": "a 20", "reapplied_as": 14}
    assert entries[14]["reapplied"] == {"of": 8, "by": 12}
    schemas = app.http.get("/openapi.json").json()["components"]["schemas"]
    assert schemas["Amend"]["required"] == ["type", "seq", "fields", "reason"]
    assert "remedy" in schemas["Ruling"]["properties"]
