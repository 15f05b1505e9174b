"""`devil tournament adjudicate` and `amend` on the command line and over HTTP (the organiser's
key): exit codes, messages naming the rule, --json, 409 for a refusal, 400 for a bad body."""

import json

from click.testing import CliRunner
from starlette.testclient import TestClient

from client.cli import cli
from engine.store import MemoryStore
from engine.web import create_app

KEY = "organiser-secret"
AUTH = {"Authorization": f"Bearer {KEY}"}


def test_adjudicate_on_the_command_line(tmp_path):
    store = str(tmp_path / "store")

    def run(*args):
        return CliRunner().invoke(cli, ["--store", store, *args])

    made = run("tournament", "new", "Cup", "--game", "atkr", "--rounds", "1", "--table-size",
               "4-4", "--format", "fixed", "--physical", "--round-time", "30", "--json",
               *[x for p in ("Anna", "Ben", "Cleo", "Dora") for x in ("--player", p)])
    assert made.exit_code == 0, made.output
    t = json.loads(made.output)["tournament"]
    seating = tmp_path / "seating.json"
    seating.write_text(json.dumps({"tables": [["Anna", "Ben", "Cleo", "Dora"]]}))
    paired = json.loads(run("tournament", "pair", t, "--seating", str(seating), "--json").output)
    game = paired["tables"][0]["game"]
    assert run("bet", game, "100", "--as", "Anna").exit_code == 0
    assert "  round time runs out at 20" in run("tournament", "show", t).output
    early = run("tournament", "adjudicate", t, "1", "--reason", "slow")
    assert early.exit_code == 1 and "TOUR-8.1: round 1's time runs out at " in early.output
    assert "(30 min from now)" in early.output and "Traceback" not in early.output
    done = run("tournament", "adjudicate", t, "1", "--force", "--reason", "player ill")
    assert done.exit_code == 0, done.output
    assert f"table 1 of round 1 ({game}) adjudicated as the referee's call by ATKR-H1" \
        in done.output
    # the bet is given back (ATKR-H1): 200 each, four tied for 1st: (6 + 4 + 2 + 1) / 4
    assert "  1. Anna             money    200  points 3.25" in done.output
    late = run("bet", game, "100", "--as", "Ben")
    assert late.exit_code == 1 and "DESK-8" in late.output
    verified = run("verify", game)
    assert verified.exit_code == 0 and "adjudicated at time by the referee" in verified.output
    logged = run("log", game)
    assert "Referee ends the game at time (ATKR-H1)" in logged.output
    text = run("tournament", "standings", t).output
    assert "  adjudicated r1" in text and "note: round 1, table 1: adjudicated before time" in text
    assert "round 1 table 1: " + game + " adjudicated as the referee's call (player ill)" \
        in run("log", t).output
    # show and games say the game is over (DESK-8), not whose turn it is
    shown = run("show", game).output
    assert f"ENDED AT TIME by the referee at #5 (ATKR-H1, DESK-8): {t} round 1 table 1: " \
        "player ill; nothing more is played" in shown
    listed = json.loads(run("games", "--json").output)
    row = next(r for r in (listed if isinstance(listed, list) else listed["games"])
               if r["game"] == game)
    assert row["finished"] and row["text"].startswith("ended at time by the referee (ATKR-H1)")
    helped = run("tournament", "adjudicate", "--help")
    assert "house rule" in helped.output and "--force" in helped.output
    assert run("tournament", "adjudicate", t, "0", "--reason", "x").exit_code == 2


def test_adjudicate_and_amend_over_http():
    store = MemoryStore()
    with TestClient(create_app(store, KEY)) as http:
        t = http.post("/tournaments", headers=AUTH, json={
            "name": "Net cup", "game": "atkr", "rounds": 1, "table_size": [4, 4],
            "format": "fixed", "players": list("ABCD"), "seed": 1, "round_time": 20,
            "options": {"physical": True}}).json()["tournament"]
        http.post(f"/tournaments/{t}/commands", headers=AUTH,
                  json={"type": "pair", "seating": [list("ABCD")]})
        path = f"/tournaments/{t}/commands"
        assert http.post(path, json={"type": "adjudicate", "table": 1,
                                     "reason": "x"}).status_code == 401
        early = http.post(path, headers=AUTH, json={"type": "adjudicate", "table": 1,
                                                    "reason": "time"})
        assert early.status_code == 409 and early.json()["rule"] == "TOUR-8.1"
        bad = http.post(path, headers=AUTH, json={"type": "adjudicate", "table": "1",
                                                  "reason": "time"})
        assert bad.status_code == 400
        extra = http.post(path, headers=AUTH, json={"type": "adjudicate", "table": 1,
                                                    "reason": "t", "at": 5})
        assert extra.status_code == 400 and "unknown field" in extra.json()["error"]
        done = http.post(path, headers=AUTH, json={"type": "adjudicate", "table": 1,
                                                   "reason": "time", "force": True})
        assert done.status_code == 200, done.text
        assert done.json()["result"]["points"] == ["13/4"] * 4 and done.json()["forced"]
        nothing = http.post(path, headers=AUTH, json={"type": "amend", "table": 1,
                                                      "reason": "check"})
        assert nothing.status_code == 409 and nothing.json()["rule"] == "TOUR-9.2"
        standings = http.get(f"/tournaments/{t}/standings").json()
        assert standings["standings"][0]["adjudicated"] == [1] and standings["notes"]
        spec = http.get("/openapi.json").json()
        described = spec["paths"]["/tournaments/{tournament}/commands"]["post"]
        assert "adjudicate" in json.dumps(described) and "amend" in json.dumps(described)


def test_a_correction_over_http_warns_that_the_game_is_in_a_tournament():
    """TOUR-9: the service's answer to a correction of an attached game carries the warning
    the command line prints (`warnings`); a game of no tournament has none."""
    store = MemoryStore()
    with TestClient(create_app(store, KEY)) as http:
        t = http.post("/tournaments", headers=AUTH, json={
            "name": "Net cup", "game": "atkr", "rounds": 1, "table_size": [4, 4],
            "format": "fixed", "players": list("ABCD"), "seed": 1,
            "options": {"physical": True}}).json()["tournament"]
        table = http.post(f"/tournaments/{t}/commands", headers=AUTH, json={
            "type": "pair", "seating": [list("ABCD")]}).json()["tables"][0]
        game, referee = table["game"], {"Authorization": f"Bearer {table['tokens']['referee']}"}
        bet = http.post(f"/games/{game}/commands", headers={**referee, "Idempotency-Key": "b1"},
                        json={"type": "bet", "player": "A", "amount": 100})
        assert bet.status_code == 201, bet.text
        fixed = http.post(f"/games/{game}/commands", headers={**referee, "Idempotency-Key": "c1"},
                          json={"type": "correct", "to": 2, "reason": "A bet 200"})
        assert fixed.status_code == 201, fixed.text
        assert fixed.json()["warnings"] == [
            f"{game} is attached to table 1 of round 1 of {t}: its result is read when the "
            "round closes"]
        alone = http.post("/games", headers=AUTH, json={"kind": "atkr", "options": {
            "players": ["A", "B"], "first": "A", "physical": True}}).json()
        mine = {"Authorization": f"Bearer {alone['tokens']['referee']}"}
        http.post(f"/games/{alone['game']}/commands", headers={**mine, "Idempotency-Key": "b2"},
                  json={"type": "bet", "player": "A", "amount": 100})
        plain = http.post(f"/games/{alone['game']}/commands",
                          headers={**mine, "Idempotency-Key": "c2"},
                          json={"type": "correct", "to": 2, "reason": "again"})
        assert plain.status_code == 201 and "warnings" not in plain.json()


def test_the_history_of_an_adjudication_without_a_round_time():
    """TOUR-8.1: with no round time only the referee's call (--force) ends a table, and the
    history says so rather than "before the round time ran out"."""
    from engine.tournament.events import TableAdjudicated
    from engine.tournament.history import DESCRIBERS, HistoryContext

    def text(**more):
        event = TableAdjudicated(round=2, table=1, game="atkr-aaaaaa", reason="ill", at=5,
                                 **more)
        return DESCRIBERS[TableAdjudicated].text(event, HistoryContext())

    assert text(ends=None, forced=True) == (
        "round 2 table 1 (atkr-aaaaaa) ended by the referee's call (no round time) (ill)")
    assert text(ends=4, forced=False) == "round 2 table 1 (atkr-aaaaaa) ended at time (ill)"
    assert text(ends=9, forced=True) == ("round 2 table 1 (atkr-aaaaaa) ended at time before "
                                         "the round time ran out (the referee's call) (ill)")
