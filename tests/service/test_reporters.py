"""Who reported each draw of a physical game (issue 23.4): named referee tokens over HTTP
(``POST /games/{id}/referees``, engine.web.auth) and a name given at the CLI (``devil draw
--reporter``, env DEVIL_REFEREE), both recorded in the draw's event (ATKR-9.3) and shown by
``devil log``, ``replay`` and ``verify``.

One physical game of Auf Teufel komm raus, Anna and Ben, Anna first, played by hand: the
seqs below follow from the rules (ATKR-2, 3, 4): 1 game_created, 2 round_started, 3 Anna's
bet, 4 Ben's bet, 5 bets_revealed (ATKR-3.2), then phase 2: 6 Anna draws 25 (reported by Sam's
named token), 7 Anna draws 10 (Rita at the CLI), 8 Anna stops, 9 Ben draws 50 (Rita through
DEVIL_REFEREE), 10 Ben draws a devil (the unnamed referee token, no name: "not named")."""

from __future__ import annotations

import json
import uuid

import pytest
from click.testing import CliRunner

from client.cli import cli

from .conftest import App, auth


@pytest.fixture
def app(tmp_path):
    served = App(tmp_path / "store")
    yield served
    served.close()


def command(app, game, token, body, as_name=None, status=201):
    """POST one command; the answer's JSON (asserting ``status``)."""
    params = {"as": as_name} if as_name else None
    response = app.http.post(f"/games/{game}/commands", json=body, params=params,
                             headers={**auth(token), "Idempotency-Key": uuid.uuid4().hex})
    assert response.status_code == status, response.text
    return response.json()


def version(app, game, token) -> int:
    return app.http.get(f"/games/{game}", headers=auth(token)).json()["version"]


def devil(app, *args, env=None, code=0):
    result = CliRunner().invoke(cli, ["--store", app.store, *map(str, args)], env={
        "DEVIL_SERVER": None, "DEVIL_TOKEN": None, "DEVIL_STORE": None, "DEVIL_REFEREE": None,
        **(env or {})})
    assert result.exit_code == code, (args, result.output)
    return result


def physical_game(app) -> tuple[str, dict]:
    created = app.http.post("/games", json={"kind": "atkr", "options": {
        "players": ["Anna", "Ben"], "first": "Anna", "physical": True}}).json()
    return created["game"], created["tokens"]


def test_two_referees_one_by_token_one_by_name_and_who_reported_which_draw(app):
    game, tokens = physical_game(app)
    referee = tokens["referee"]
    issued = app.http.post(f"/games/{game}/referees", json={"name": "Sam"}, headers=auth(referee))
    assert issued.status_code == 201, issued.text
    sam = issued.json()["token"]
    assert issued.json()["name"] == "Sam" and issued.json()["game"] == game
    you = app.http.get(f"/games/{game}", headers=auth(sam)).json()["you"]
    assert you == {"role": "referee", "name": "Sam"}
    command(app, game, tokens["Anna"], {"type": "bet", "amount": 0})  # seq 3
    command(app, game, tokens["Ben"], {"type": "bet", "amount": 20})  # seqs 4, 5
    # seq 6: Sam's token, the body's reporter in another case is Sam (the token's spelling)
    six = command(app, game, sam, {"type": "draw", "coal": 25, "reporter": "sam"}, "Anna")
    assert six["events"][0] == {"seq": 6, "type": "coal_drawn", "seat": 0, "coal": 25,
                                "reporter": "Sam"}
    devil(app, "draw", game, "--as", "Anna", "--coal", "10", "--reporter", "Rita")  # seq 7
    devil(app, "stop", game, "--as", "Anna")  # seq 8
    # Sam's token naming Rita: refused (403, exit code 4), nothing appended
    refused = app.http.post(f"/games/{game}/commands", params={"as": "Ben"},
                            json={"type": "draw", "coal": 50, "reporter": "Rita"},
                            headers={**auth(sam), "Idempotency-Key": "k-refused"})
    assert refused.status_code == 403 and refused.json()["code"] == 4
    assert "reports as Sam" in refused.json()["error"]
    assert version(app, game, referee) == 8
    devil(app, "draw", game, "--as", "Ben", "--coal", "50", env={"DEVIL_REFEREE": "Rita"})  # 9
    ten = command(app, game, referee, {"type": "draw", "coal": 0}, "Ben")  # the unnamed referee
    assert ten["events"][0] == {"seq": 10, "type": "coal_drawn", "seat": 1, "coal": 0}

    entries = json.loads(devil(app, "log", game, "--json").stdout)
    draws = {e["seq"]: e["event"].get("reporter") for e in entries
             if e["event"]["type"] == "coal_drawn"}
    assert draws == {6: "Sam", 7: "Rita", 9: "Rita", 10: None}
    assert "reporter" not in entries[9]["event"]  # absent while None (OMIT_NONE)

    path = f"{app.store}/{game}.devlog"
    verified = devil(app, "verify", path).stdout
    assert "  - draws reported by: Rita 2, Sam 1, not named 1\n" in verified
    data = json.loads(devil(app, "verify", path, "--json").stdout)
    assert data["ok"] and data["reporters"] == {"Sam": 1, "Rita": 2}
    assert data["draws_not_named"] == 1

    lines = devil(app, "replay", path).stdout.splitlines()
    assert "#6     Anna draws 25 (reported by Sam)" in lines
    assert "#7     Anna draws 10 (reported by Rita)" in lines
    assert "#9     Ben draws 50 (reported by Rita)" in lines
    assert "#10    Ben draws a devil and busts" in lines
    log_text = devil(app, "log", game).stdout.splitlines()
    assert "#9    Ben draws 50 (reported by Rita)" in log_text
    # the replay page's data (engine/web/pages) carries the reporter in every step's event
    page = app.http.get(f"/games/{game}/replay/data", headers=auth(tokens["Ben"])).json()
    shown = {s["seq"]: s["event"].get("reporter") for s in page["steps"]
             if s["event"]["type"] == "coal_drawn"}
    assert shown == {6: "Sam", 7: "Rita", 9: "Rita", 10: None}
    # with the CLI's words (devil serve, devil replay --html) the page's line says who reported
    from client.page import texts
    from engine.replay import load_bytes
    from engine.web.pages import replay_data

    with open(path, "rb") as handle:
        steps = replay_data(load_bytes(handle.read()), texts=texts)["steps"]
    assert [s["text"] for s in steps if s["seq"] in (6, 10)] == [
        "Anna draws 25 (reported by Sam)", "Ben draws a devil and busts"]


def test_who_may_issue_a_named_referee_token_and_what_it_may_be_named(app, tmp_path):
    game, tokens = physical_game(app)
    url = f"/games/{game}/referees"
    rita = app.http.post(url, json={"name": " Rita "}, headers=auth(tokens["referee"])).json()
    assert rita["name"] == "Rita"  # blanks around a name dropped
    for token in (rita["token"], tokens["Anna"], tokens["spectator"]):  # not a named referee's
        answer = app.http.post(url, json={"name": "Sam"}, headers=auth(token))
        assert answer.status_code == 403 and answer.json()["code"] == 4
    for body in ({"name": ""}, {"name": "x" * 33}, {"name": 7}, {"name": "a\tb"},
                 {"name": "Sam", "seat": 1}, {}):
        answer = app.http.post(url, json=body, headers=auth(tokens["referee"]))
        assert answer.status_code == 400 and answer.json()["code"] == 2, body
    digital = app.http.post("/games", json={"kind": "atkr", "options": {
        "players": ["Anna", "Ben"]}, "seed": 3}).json()
    answer = app.http.post(f"/games/{digital['game']}/referees", json={"name": "Sam"},
                           headers=auth(digital["tokens"]["referee"]))
    assert answer.status_code == 400 and "digital" in answer.json()["error"]
    book = json.loads((tmp_path / "store" / f"{game}.tokens.json").read_text())
    assert book["version"] == 2
    assert sorted(v["name"] for v in book["tokens"].values() if isinstance(v, dict)) == ["Rita"]
    # a second node on the same store, which read the book before Sam's token was issued,
    # still takes Sam's token (it reads the book again for a token it does not know)
    other = App(tmp_path / "store")
    try:
        assert other.http.get(f"/games/{game}", headers=auth(rita["token"])).status_code == 200
        sam = app.http.post(url, json={"name": "Sam"}, headers=auth(tokens["referee"])).json()
        you = other.http.get(f"/games/{game}", headers=auth(sam["token"])).json()["you"]
        assert you == {"role": "referee", "name": "Sam"}
    finally:
        other.close()
