"""Disputes and rulings (DESK-4, DESK-5), locally with --as and over HTTP with the seats' and
the referee's tokens; bad desk commands are refused with their exit code (README) and record
nothing."""

from __future__ import annotations

import json

import pytest

from engine.errors import IllegalCommand, NotAllowed, UsageError

from ..service.conftest import App
from .helpers import devil, log_json, ok, seq_of


def _physical_game(store) -> str:
    game = ok(store, "new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
              "--physical").splitlines()[0]
    for args in (("bet", game, 60, "--as", "Anna"), ("bet", game, 40, "--as", "Ben"),
                 ("draw", game, "--as", "Anna", "--coal", 25),
                 ("draw", game, "--as", "Anna", "--coal", 50)):
        ok(store, *args)
    return game


def test_a_dispute_from_the_complaint_to_the_ruling_locally(tmp_path):
    store = tmp_path / "store"
    game = _physical_game(store)
    fifty = seq_of(log_json(store, game), type="coal_drawn", coal=50)
    out = ok(store, "dispute", game, fifty, "I drew a 20, not a 50", "--as", "Anna")
    assert f"Anna disputes #{fifty} (dispute 1): I drew a 20, not a 50" in out
    listed = json.loads(ok(store, "disputes", game, "--json"))
    assert [(c["dispute"], c["player"], c["seq"], c["open"]) for c in listed] == \
        [(1, "Anna", fifty, True)]
    text = ok(store, "disputes", game)
    assert f"dispute 1 (open): Anna, #{fifty + 1}" in text and "about #" in text
    # the referee upholds it and corrects the game back to the 25, in one command
    out = ok(store, "ruling", game, 1, "--uphold", "--to", fifty - 1, "--reason",
             "the coal on the table is a 20")
    assert "Referee upholds dispute 1, and returns the game to" in out
    entries = log_json(store, game)
    ruling, corrected = entries[-2], entries[-1]
    assert ruling["event"] == {"type": "ruling_given", "dispute": 1, "upheld": True,
                               "reason": "the coal on the table is a 20", "to": fifty - 1,
                               "remedy": "correct"}  # DESK-10.1: --to names the remedy
    assert corrected["event"]["type"] == "corrected" and corrected["event"]["epoch"] == 1
    assert ruling["actor"] == corrected["actor"] == -1 and ruling["time"] == corrected["time"]
    assert entries[fifty - 1]["voided"] == {"by": corrected["seq"],
                                            "reason": "the coal on the table is a 20"}
    assert "voided" not in entries[fifty]  # the dispute itself stays in force
    assert json.loads(ok(store, "disputes", game, "--json")) == []
    assert "no open disputes" in ok(store, "disputes", game)
    ruled = json.loads(ok(store, "disputes", game, "--all", "--json"))[0]
    assert (ruled["upheld"], ruled["ruling"], ruled["to"]) == (True, ruling["seq"], fifty - 1)
    anna = json.loads(ok(store, "show", game, "--as", "Anna", "--json"))["players"][0]
    assert (anna["coals"], anna["total"]) == ([25], 25)
    assert ok(store, "verify", game).startswith("OK")
    # a ruling is final
    again = devil(store, "ruling", game, 1, "--reject", "--reason", "changed my mind")
    assert again.exit_code == 1 and "DESK-5" in again.output


@pytest.mark.parametrize("args, code, says", [
    (("correct", "{game}", "--to", 99, "--reason", "typo"), 2, "there is no record 99 yet"),
    (("correct", "{game}", "--to", 1, "--reason", "typo"), 1, "DESK-2: records 1 to 2 set the"),
    (("correct", "{game}", "--to", 4, "--reason", "   "), 2, "must not be empty"),
    (("correct", "{game}", "--to", 4, "--reason", "x", "--as", "Ben"), 4, "DESK-1"),
    (("ruling", "{game}", 7, "--uphold", "--reason", "x"), 2, "there is no dispute 7"),
    (("ruling", "{game}", 1, "--uphold", "--reason", "x", "--as", "Anna"), 4, "DESK-1"),
    (("ruling", "{game}", 1, "--reason", "x"), 2, "--uphold or --reject"),
    (("ruling", "{game}", 1, "--reject", "--to", 4, "--reason", "x"), 2, "only with --uphold"),
    (("dispute", "{game}", 42, "wrong"), 2, "name the player"),
    (("dispute", "{game}", 42, "wrong", "--as", "Ben"), 2, "no record 42 to dispute"),
    (("dispute", "{game}", 5, "", "--as", "Ben"), 2, "must not be empty"),
    (("dispute", "{game}", 5, "wrong", "--as", "Zed"), 2, "no player called 'Zed'"),
])
def test_bad_desk_commands_are_refused_and_record_nothing(tmp_path, args, code, says):
    store = tmp_path / "store"
    game = _physical_game(store)
    ok(store, "dispute", game, 6, "that was a 20", "--as", "Anna")
    before = (store / f"{game}.devlog").read_bytes()
    result = devil(store, *[game if a == "{game}" else a for a in args])
    assert result.exit_code == code, result.output
    assert says in result.output
    assert (store / f"{game}.devlog").read_bytes() == before
    as_json = devil(store, *[game if a == "{game}" else a for a in args], "--json")
    assert as_json.exit_code == code


def test_corrections_that_the_desk_rules_refuse(tmp_path):
    store = tmp_path / "store"
    game = _physical_game(store)
    ok(store, "stop", game, "--as", "Anna")  # record 8 ends Anna's turn
    ok(store, "correct", game, "--to", 7, "--reason", "the stop was Ben's")
    cases = [(8, "was voided by the correction at record 9"),
             (9, "no game record after record 9 is in force"),
             (6, None)]
    for to, says in cases[:2]:
        result = devil(store, "correct", game, "--to", to, "--reason", "again")
        assert result.exit_code == 1 and says in result.output, result.output
    # the middle of a command: Ben's last stop writes the payouts too
    ok(store, "draw", game, "--as", "Anna", "--coal", 10)  # 10
    ok(store, "stop", game, "--as", "Anna")  # 11
    ok(store, "draw", game, "--as", "Ben", "--coal", 20)  # 12
    ok(store, "stop", game, "--as", "Ben")  # 13 stop, 14.. payouts, pawns, next round
    entries = log_json(store, game)
    end = entries[-1]["seq"]
    result = devil(store, "correct", game, "--to", 13, "--reason", "mid")
    assert result.exit_code == 1 and f"correct to record {end}, where it ends" in result.output


def test_a_dispute_and_a_ruling_over_http(tmp_path):
    app = App(tmp_path / "store")
    try:
        created = app.http.post("/games", json={"kind": "atkr", "options": {
            "players": ["Anna", "Ben"], "first": "Anna", "physical": True}}).json()
        game, tokens = created["game"], created["tokens"]
        referee, anna, ben = (app.remote(tokens[k]) for k in ("referee", "Anna", "Ben"))
        anna.submit(game, {"type": "bet", "amount": 60}, None)
        ben.submit(game, {"type": "bet", "amount": 40}, None)
        referee.submit(game, {"type": "draw", "player": "Anna", "coal": 50}, None)
        drawn = referee.events(game, None)[-1]["seq"]
        # Anna's token raises a dispute for Anna (her own seat: no name needed)
        raised = anna.submit(game, {"type": "dispute", "seq": drawn, "text": "it was a 20"},
                             None)
        assert raised["events"] == [{"seq": drawn + 1, "type": "dispute_raised", "dispute": 1,
                                     "about": drawn, "seat": 0, "text": "it was a 20"}]
        assert raised["view"]["disputes"][0]["player"] == "Anna"
        # a seat may not correct or rule, nor dispute as another seat; a spectator gives nothing
        with pytest.raises(NotAllowed, match="DESK-1"):
            ben.submit(game, {"type": "correct", "to": drawn - 1, "reason": "no"}, None)
        with pytest.raises(NotAllowed, match="DESK-1"):
            ben.submit(game, {"type": "ruling", "dispute": 1, "upheld": False, "reason": "no"},
                       None)
        with pytest.raises(NotAllowed):
            ben.submit(game, {"type": "dispute", "seq": drawn, "text": "x"}, "Anna")
        with pytest.raises(NotAllowed):
            app.remote(tokens["spectator"]).submit(game, {"type": "dispute", "seq": drawn,
                                                          "text": "x"}, None)
        with pytest.raises(IllegalCommand, match="DESK-2"):
            referee.submit(game, {"type": "correct", "to": 1, "reason": "setup"}, None)
        with pytest.raises(UsageError, match="no dispute 3"):
            referee.submit(game, {"type": "ruling", "dispute": 3, "upheld": True,
                                  "reason": "x"}, None)
        # the referee's token rules, with a correction
        ruled = referee.submit(game, {"type": "ruling", "dispute": 1, "upheld": True,
                                      "reason": "the coal is a 20", "to": drawn - 1}, None)
        assert [e["type"] for e in ruled["events"]] == ["ruling_given", "corrected"]
        # Ben's stream carries the ruling, the correction and the void
        seen = ben.events(game, None)
        assert seen[-1]["event"]["type"] == "corrected" and seen[-1]["actor"] == -1
        voided = [e for e in seen if "voided" in e]
        assert [e["seq"] for e in voided] == [drawn]
        assert voided[0]["voided"] == {"by": drawn + 3, "reason": "the coal is a 20"}
        view = ben.view(game, None)
        assert view["players"][0]["coals"] == [] and view["voided"][0]["from"] == drawn
        assert view["disputes"][0]["open"] is False
        document = app.http.get("/openapi.json").json()
        assert {"Correct", "Dispute", "Ruling", "Voided"} <= set(document["components"]["schemas"])
        records = app.http.get(f"/games/{game}/log",
                               headers={"Authorization": f"Bearer {tokens['referee']}"})
        from engine.replay import verify_bytes

        check = verify_bytes(records.content)
        assert check.ok and check.disputes == 1, check.reason
    finally:
        app.close()


def test_a_desk_command_retried_with_its_id_is_recorded_once(tmp_path):
    store = tmp_path / "store"
    game = _physical_game(store)
    first = ok(store, "correct", game, "--to", 6, "--reason", "a 20", "--id", "fix-1")
    again = ok(store, "correct", game, "--to", 6, "--reason", "a 20", "--id", "fix-1")
    assert "#8" in first and "already applied; nothing new recorded" in again
    other = devil(store, "correct", game, "--to", 5, "--reason", "a 20", "--id", "fix-1")
    assert other.exit_code == 2 and "already used for a different command" in other.output
    assert [e["event"]["type"] for e in log_json(store, game)].count("corrected") == 1


def test_desk_commands_through_devil_submit(tmp_path):
    store = tmp_path / "store"
    game = _physical_game(store)
    out = ok(store, "submit", game, '{"type": "dispute", "seq": 7, "text": "a 20"}', "--as", "Ben")
    assert "Ben disputes #7 (dispute 1): a 20" in out
    out = ok(store, "submit", game, '{"type": "correct", "to": 6, "reason": "a 20"}')
    assert "Referee corrects the game back to #6" in out
    refused = devil(store, "submit", game, '{"type": "correct", "to": 6, "reason": "x"}',
                    "--as", "Ben")
    assert refused.exit_code == 4 and "DESK-1" in refused.output
