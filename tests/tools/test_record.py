"""devil audit --record (docs/record.md): the regulator's record of recorded games.

A short physical game whose coals the referee reports, worked out by hand from
docs/rules/atkr.md; a Castle game's choices; an old log's engine version ("not recorded");
CSV and JSON agreeing fact for fact; bad paths refused with nothing written."""

from __future__ import annotations

import csv
import io
import json
import os
import pathlib
import shutil

import pytest

import engine
from engine.log import iso_time

from .helpers import run

ROOT = pathlib.Path(__file__).resolve().parents[2]
REPLAYS = ROOT / "replays"


def cli(store, *args):
    return run("--store", str(store), *map(str, args))


def ok(store, *args) -> str:
    result = cli(store, *args)
    assert result.exit_code == 0, (args, result.output)
    return result.output


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Two rounds of a physical game for Anna and Ben, Anna first, to Ben's 1650 (the game's
    records are numbered as the comments say; `devil log` shows them)."""
    store = tmp_path_factory.mktemp("record") / "store"
    before = engine.log.now_ms()
    game = ok(store, "new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
              "--physical").splitlines()[0]
    # round 1 (#2), start Anna: bets Anna 50 (#3), Ben 200 (#4), revealed (#5)
    ok(store, "bet", game, 50, "--as", "Anna")
    ok(store, "bet", game, 200, "--as", "Ben")
    # Anna draws 100 (#6), 100 (#7), stops (#8); Ben draws 10 (#9), a devil (#10)
    for coal in (100, 100):
        ok(store, "draw", game, "--as", "Anna", "--coal", coal)
    ok(store, "stop", game, "--as", "Anna")
    ok(store, "draw", game, "--as", "Ben", "--coal", 10)
    ok(store, "draw", game, "--as", "Ben", "--coal", "devil")
    # payouts #11-#14, pawns #15; round 2 (#16), start Ben (ATKR-2.1): bets #17, #18, #19
    ok(store, "bet", game, 100, "--as", "Anna")
    ok(store, "bet", game, 550, "--as", "Ben")
    # Ben draws a devil (#20) and pays Anna's pact (#21); Anna draws ten coals (#22-#31) and
    # stops (#32); payouts #33-#36, pawns #37, game over #38
    ok(store, "draw", game, "--as", "Ben", "--coal", "devil")
    for coal in (75, 75, 75, 50, 50, 50, 50, 50, 50, 25):
        ok(store, "draw", game, "--as", "Anna", "--coal", coal)
    ok(store, "stop", game, "--as", "Anna")
    after = engine.log.now_ms()
    folder = store.parent
    ok(store, "audit", game, "--record", folder / "game.json")
    ok(store, "audit", game, "--record", folder / "game.csv")
    record = json.loads((folder / "game.json").read_text())
    rows = list(csv.DictReader(io.StringIO((folder / "game.csv").read_text(encoding="utf-8"))))
    return {"store": store, "game": game, "record": record, "rows": rows, "before": before,
            "after": after, "log": store / f"{game}.devlog"}


def fact(seq, player, amount=None, **more):
    return {"seq": seq, "player": player, **({"amount": amount} if amount is not None else {}),
            **more}


def strip(facts):
    """Facts without the time and actor the record adds (checked on their own)."""
    return [{k: v for k, v in f.items() if k not in ("time_ms", "time_utc", "actor")}
            for f in facts]


def test_the_record_of_a_physical_game_worked_by_hand(played):
    doc = played["record"]
    assert doc["format"] == "devil-record" and doc["version"] == 1
    assert doc["engine_version"] == engine.__version__
    (game,) = doc["games"]
    assert game["game"] == played["game"] and game["kind"] == "atkr"
    assert game["rules_version"] == "atkr-2013"          # game_created.rules
    assert game["engine_version"] == "0.1.0"             # the header of a new log
    assert game["status"] == "finished" and game["physical"] is True
    assert game["players"] == ["Anna", "Ben"]
    assert game["records"] == game["last_seq"] == 38
    assert game["verified"]["ok"] is True and game["audit"] == {"ok": True, "problems": []}
    r1, r2 = game["rounds"]

    # Round 1, start Anna.  H = 100 + 100 = 200 (Ben busted: nothing laid out, ATKR-4.4).
    # Resolved from Anna (ATKR-5.2): Anna's 50 <= 200 wins 1x (ATKR-5.3); Ben's 200 <= 200 is
    # the highest bet and wins 2x = 400 (ATKR-5.5); Anna's 200 = H: 50 (ATKR-5.6); Anna is
    # the only one with coals laid out, so the most (2): 50 (ATKR-5.7).
    # Anna 200 - 50 + 50 + 50 + 50 + 50 = 350; Ben 200 - 200 + 200 + 400 = 600.
    # Phase 4: 350 lies between 300 and 500, 600 between 500 and 700: Anna alone in last
    # place enters the pact with 350 (ATKR-6.1, 6.2 A).  48 - 4 coals left > 16: no refill.
    assert (r1["round"], r1["seq"], r1["start"]) == (1, 2, "Anna")
    assert (r1["highest_total"], r1["highest_bet"]) == (200, 200)
    assert strip(r1["bet"]) == [fact(3, "Anna", 50, rule="ATKR-3.1"),
                                fact(4, "Ben", 200, rule="ATKR-3.1")]
    assert strip(r1["draw"]) == [
        fact(6, "Anna", name="coal", value=100, rule="ATKR-4.2"),
        fact(7, "Anna", name="coal", value=100, rule="ATKR-4.2"),
        fact(8, "Anna", name="stop", value=200, rule="ATKR-4.3"),
        fact(9, "Ben", name="coal", value=10, rule="ATKR-4.2"),
        fact(10, "Ben", name="devil", value=0, rule="ATKR-4.4")]

    def paid(seq, player, frm, to, amount, rule, name):
        return {"seq": seq, "player": player, "from": frm, "to": to, "amount": amount,
                "rule": rule, "name": name}

    assert strip(r1["payout"]) == [
        paid(11, "Anna", "table", "Anna", 50, "ATKR-5.3", "stake returned"),
        paid(11, "Anna", "bank", "Anna", 50, "ATKR-5.3", "bet won"),
        paid(12, "Ben", "table", "Ben", 200, "ATKR-5.5", "stake returned"),
        paid(12, "Ben", "bank", "Ben", 400, "ATKR-5.5", "bet won"),
        paid(13, "Anna", "bank", "Anna", 50, "ATKR-5.6", "highest total prize"),
        paid(14, "Anna", "bank", "Anna", 50, "ATKR-5.7", "most coals prize")]
    assert strip(r1["pact"]) == [fact(15, "Anna", 350, rule="ATKR-6.2", name="entered")]

    # Round 2, start Ben.  Ben draws a devil with 600 - 550 = 50 not bet and pays Anna's pact
    # 50 himself (ATKR-4.5, 6.5).  Anna: 75 x 3 + 50 x 6 + 25 = 550 in 10 coals, so H = 550.
    # From Ben: his 550 <= 550 is the highest bet: 2x = 1100 (ATKR-5.5); Anna's 100 wins 1x
    # (ATKR-5.3); Anna takes both prizes (ATKR-5.6, 5.7).
    # Ben 600 - 550 - 50 + 550 + 1100 = 1650; Anna 350 - 100 + 50 + 100 + 100 + 50 + 50 = 600.
    # Phase 4: Anna (600, between 500 and 700) alone last: pact again; Ben's 1650 >= 1600
    # ends the game (ATKR-8.1) and Ben has the most money (ATKR-8.2).
    assert (r2["round"], r2["seq"], r2["start"]) == (2, 16, "Ben")
    assert (r2["highest_total"], r2["highest_bet"]) == (550, 550)
    assert strip(r2["bet"]) == [fact(17, "Anna", 100, rule="ATKR-3.1"),
                                fact(18, "Ben", 550, rule="ATKR-3.1")]
    draws = strip(r2["draw"])
    assert draws[0] == fact(20, "Ben", name="devil", value=0, rule="ATKR-4.4")
    assert [d["value"] for d in draws[1:-1]] == [75, 75, 75, 50, 50, 50, 50, 50, 50, 25]
    assert [d["seq"] for d in draws[1:]] == list(range(22, 33))
    assert draws[-1] == fact(32, "Anna", name="stop", value=550, rule="ATKR-4.3")
    assert strip(r2["payout"]) == [
        paid(21, "Anna", "Ben", "Anna", 50, "ATKR-6.5", "pact payment"),
        paid(33, "Ben", "table", "Ben", 550, "ATKR-5.5", "stake returned"),
        paid(33, "Ben", "bank", "Ben", 1100, "ATKR-5.5", "bet won"),
        paid(34, "Anna", "table", "Anna", 100, "ATKR-5.3", "stake returned"),
        paid(34, "Anna", "bank", "Anna", 100, "ATKR-5.3", "bet won"),
        paid(35, "Anna", "bank", "Anna", 50, "ATKR-5.6", "highest total prize"),
        paid(36, "Anna", "bank", "Anna", 50, "ATKR-5.7", "most coals prize")]
    # held through round 2 by round 1's phase 4 (#15), entered again at round 2's (#37)
    assert strip(r2["pact"]) == [fact(15, "Anna", 350, rule="ATKR-6.2", name="held"),
                                 fact(37, "Anna", 600, rule="ATKR-6.2", name="entered")]

    # Totals: bet 50 + 200 + 100 + 550 = 900; stakes returned the same 900 (no bet lost);
    # the bank's wins 50 + 400 + 1100 + 100 = 1650; prizes 4 x 50 = 200; the pact paid by Ben.
    # total paid = 900 + 1650 + 200 + 0 = 2750, and 600 + 1650 - 400 = 2750 - 900.
    assert game["money"] == {
        "start": {"Anna": 200, "Ben": 200}, "end": {"Anna": 600, "Ben": 1650},
        "total_bet": 900, "total_paid": 2750, "stakes_returned": 900, "won": 1650,
        "prizes": 200, "pact_paid_by_bank": 0, "pact_paid_by_players": 50, "stakes_lost": 0,
        "on_table": 0, "bank_balance": -1850, "bank_max_deficit": 1850}
    assert game["result"]["winners"] == ["Ben"] and game["result"]["finished"] is True
    assert game["result"]["final_money"] == {"Anna": 600, "Ben": 1650}


def test_times_choices_and_phases_of_the_physical_game(played):
    (game,) = played["record"]["games"]
    start, end = game["start"], game["end"]
    assert played["before"] <= start["ms"] <= end["ms"] <= played["after"]
    assert start["utc"] == iso_time(start["ms"], 0) and end["utc"] == iso_time(end["ms"], 0)
    choices = game["choices"]
    assert [c["seq"] for c in choices] == list(range(1, 39))
    assert choices[-1]["time_ms"] == end["ms"] and choices[0]["time_ms"] >= start["ms"]
    # bets are sealed until revealed (ATKR-3.2), but the record is the referee's: Ben's 550
    bet = choices[18 - 1]
    assert (bet["type"], bet["actor"], bet["event"], bet["phase"]) == (
        "bet_placed", "Ben", {"seat": 1, "amount": 550}, "betting")
    # a physical game's coals are reported by the referee (ATKR-9.3)
    assert (choices[6 - 1]["type"], choices[6 - 1]["actor"]) == ("coal_drawn", "referee")
    assert choices[6 - 1]["event"] == {"seat": 0, "coal": 100}
    phases = {c["type"]: c["phase"] for c in choices}
    assert phases == {"game_created": "setup", "round_started": "betting",
                      "bet_placed": "betting", "bets_revealed": "betting",
                      "coal_drawn": "drawing", "stopped": "drawing", "pact_paid": "drawing",
                      "bet_won": "winnings", "prize_paid": "winnings", "pawns_placed": "pawns",
                      "game_ended": "over"}
    # one command wrote #4 (Ben's bet) and #5 (the reveal): one command number
    assert choices[3]["command"] == choices[4]["command"] == choices[2]["command"] + 1
    # the last link: what a copy of the log is checked against
    data = played["log"].read_bytes()
    assert game["last_link"] == data[-8:].hex()


def test_csv_and_json_agree_fact_for_fact(played):
    (game,) = played["record"]["games"]
    rows = played["rows"]
    assert {r["game"] for r in rows} == {"", game["game"]}
    first = {(r["name"]): r["value"] for r in rows if r["record_type"] == "record"}
    assert first["format"] == "devil-record" and first["version"] == "1"
    facts = {r["name"]: r["value"] for r in rows if r["record_type"] == "game"}
    for key in ("kind", "rules_version", "engine_version", "status", "last_link"):
        assert facts[key] == game[key]
    assert facts["records"] == "38" and facts["physical"] == "true"
    times = {r["name"]: int(r["time_ms"]) for r in rows if r["record_type"] == "game"
             and r["time_ms"]}
    assert times == {"start": game["start"]["ms"], "end": game["end"]["ms"]}
    money = {(r["name"], r["player"]): int(r["amount"]) for r in rows
             if r["record_type"] == "money"}
    assert money[("end", "Ben")] == 1650 and money[("total_paid", "")] == 2750
    assert len(money) == 4 + len(game["money"]) - 2
    for kind in ("bet", "draw", "payout", "pact"):
        from_csv = [(int(r["round"]), int(r["seq"]), r["player"], r["amount"], r["value"],
                     r["rule"], r["from"], r["to"], r["name"], r["actor"], int(r["time_ms"]))
                    for r in rows if r["record_type"] == kind]
        from_json = [(item["round"], f["seq"], f["player"], str(f.get("amount", "")),
                      str(f.get("value", "")), f["rule"], f.get("from", ""), f.get("to", ""),
                      f.get("name", ""), f["actor"], f["time_ms"])
                     for item in game["rounds"] for f in item[kind]]
        assert from_csv == from_json and from_csv, kind
    choices = [(int(r["seq"]), r["actor"], r["name"], json.loads(r["value"]), r["phase"],
                int(r["time_ms"])) for r in rows if r["record_type"] == "choice"]
    assert choices == [(c["seq"], c["actor"], c["type"], c["event"], c["phase"], c["time_ms"])
                       for c in game["choices"]]
    assert [r["player"] for r in rows if r["record_type"] == "result"
            and r["name"] == "winner"] == ["Ben"]


def test_a_castle_game_records_its_choices_and_no_money(tmp_path):
    store = tmp_path / "store"
    game = ok(store, "new", "castle", "--player", "Ann", "--player", "Bob", "--player", "Cid",
              "--first", "Ann", "--seed", 5).splitlines()[0]
    ok(store, "pass", game, "--as", "Ann")
    ok(store, "audit", game, "--record", tmp_path / "c.json")
    (record,) = json.loads((tmp_path / "c.json").read_text())["games"]
    assert record["kind"] == "castle" and record["rules_version"] == "castle-2006-r2"
    assert record["engine_version"] == "0.1.0" and record["status"] == "in progress"
    assert record["money"] is None and record["rounds"] == [] and record["audit"] is None
    assert record["setup"]["first"] == "Ann" and record["setup"]["seed_chosen"] is True
    types = [(c["type"], c["actor"]) for c in record["choices"]]
    # the creation (the game's own setup, by the referee), Ann's turn, her pass, Bob's turn
    assert types[0] == ("game_created", "referee")
    assert ("turn_passed", "Ann") in types
    passed = next(c for c in record["choices"] if c["type"] == "turn_passed")
    assert passed["event"] == {"player": 0} and passed["round"] == 1
    assert record["choices"][-1]["type"] == "turn_started"
    assert record["choices"][-1]["event"]["player"] == 1 and record["choices"][-1]["phase"] \
        == "turn"
    assert record["result"]["winners"] == [] and record["result"]["finished"] is False


def test_old_logs_say_not_recorded_in_both_files(tmp_path):
    folder = tmp_path / "old"
    folder.mkdir()
    for name in ("atkr-2p-random-seed102.devlog", "castle-3p.devlog"):
        shutil.copy(REPLAYS / name, folder / name)
    out = run("audit", str(folder), "--record", str(tmp_path / "old.csv"), "--jobs", "2")
    assert out.exit_code == 0, out.output
    assert "the record of 2 game(s) as CSV (2 finished, 0 in progress)" in out.output
    rows = list(csv.DictReader(io.StringIO((tmp_path / "old.csv").read_text())))
    engines = {r["game"]: r["value"] for r in rows if r["name"] == "engine_version"}
    assert list(engines.values()) == ["0.1.0", "not recorded", "not recorded"]  # writer, games
    out = run("audit", str(folder), "--record", str(tmp_path / "old.data"),
              "--record-format", "json", "--json", "--jobs", "1")
    assert json.loads(out.output.splitlines()[-1])["games"] == 2
    games = json.loads((tmp_path / "old.data").read_text())["games"]
    assert [g["engine_version"] for g in games] == ["not recorded", "not recorded"]
    assert [g["kind"] for g in games] == ["atkr", "castle"]
    # an old log's money still adds up: what players gained is what was paid less what was bet
    money = games[0]["money"]
    assert (sum(money["end"].values()) - sum(money["start"].values())
            == money["total_paid"] - money["total_bet"] == -money["bank_balance"])
    assert money["bank_balance"] == (money["stakes_lost"] - money["won"] - money["prizes"]
                                     - money["pact_paid_by_bank"])


def test_bad_paths_and_files_are_refused_and_nothing_is_written(played, tmp_path):
    log = str(played["log"])
    cases = [
        (["audit", log, "--record", str(tmp_path / "no-such" / "r.csv")], 2,
         "the folder"),
        (["audit", log, "--record", str(tmp_path / "r.txt")], 2, ".csv or .json"),
        (["audit", str(tmp_path / "missing.devlog"), "--record", str(tmp_path / "r.csv")], 2,
         "no such file"),
        (["audit", log, "--record", str(tmp_path / "r.csv"), "--csv", str(tmp_path / "l.csv")],
         2, "leave out --csv"),
        (["audit", log, "--record-format", "csv"], 2, "give --record too"),
    ]
    for args, code, words in cases:
        result = run(*args)
        assert result.exit_code == code, (args, result.output)
        assert words in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1, result.output
    assert sorted(os.listdir(tmp_path)) == []
    # an existing file is kept as it was, unless --force
    target = tmp_path / "r.json"
    target.write_text("keep")
    result = run("audit", log, "--record", str(target))
    assert result.exit_code == 2 and "exists already" in result.output
    assert target.read_text() == "keep"
    assert run("audit", log, "--record", str(target), "--force").exit_code == 0
    assert json.loads(target.read_text())["games"][0]["game"] == played["game"]
    # a damaged log among good ones: exit 3 naming it, no file, no temporary file left
    bad = tmp_path / "logs"
    bad.mkdir()
    data = bytearray(played["log"].read_bytes())
    data[-20] ^= 0xFF
    (bad / "bad.devlog").write_bytes(bytes(data))
    shutil.copy(played["log"], bad / "good.devlog")
    result = run("audit", str(bad), "--record", str(tmp_path / "out.csv"))
    assert result.exit_code == 3, result.output
    assert "no record written" in result.output and "bad.devlog" in result.output
    assert "record 38" in result.output
    assert sorted(os.listdir(tmp_path)) == ["logs", "r.json"]


def test_finished_refuses_a_game_in_progress(tmp_path):
    store = tmp_path / "store"
    game = ok(store, "new", "atkr", "--player", "A", "--player", "B", "--physical")
    game = game.splitlines()[0]
    result = cli(store, "audit", game, "--record", tmp_path / "r.csv", "--finished")
    assert result.exit_code == 3 and "is in progress" in result.output
    assert not (tmp_path / "r.csv").exists()


def test_a_corrected_game_is_recorded_as_corrected_with_every_record_listed(tmp_path):
    store = tmp_path / "store"
    game = ok(store, "new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
              "--physical").splitlines()[0]
    ok(store, "bet", game, 60, "--as", "Anna")                 # #3
    ok(store, "bet", game, 40, "--as", "Ben")                  # #4, revealed #5
    ok(store, "draw", game, "--as", "Anna", "--coal", 25)      # #6
    ok(store, "draw", game, "--as", "Anna", "--coal", 50)      # #7: the referee mistyped 20
    ok(store, "correct", game, "--to", 6, "--reason", "it was a 20")  # #8 voids #7
    ok(store, "draw", game, "--as", "Anna", "--coal", 20)      # #9
    ok(store, "stop", game, "--as", "Anna")                    # #10: Ben's turn now
    ok(store, "audit", game, "--record", tmp_path / "r.csv")
    ok(store, "audit", game, "--record", tmp_path / "r.json")
    (record,) = json.loads((tmp_path / "r.json").read_text())["games"]
    voided = {c["seq"]: c["voided"] for c in record["choices"]}
    assert voided[7] == {"by": 8, "reason": "it was a 20"}
    assert [s for s, v in voided.items() if v] == [7] and len(voided) == 10
    assert record["voided"] == [{"from": 7, "to": 7, "by": 8, "reason": "it was a 20",
                                 "epoch": 1}]
    # the round as corrected: Anna's 25 and 20, stopped on 45 (ATKR-4.3); the 50 is gone
    draws = record["rounds"][0]["draw"]
    assert [(d["seq"], d["name"], d["value"]) for d in draws] == [
        (6, "coal", 25), (9, "coal", 20), (10, "stop", 45)]
    # phase 3 has not come: both stakes are on the table (ATKR-3.5), nothing paid yet, so
    # Anna 200 - 60 = 140, Ben 200 - 40 = 160, and 300 - 400 = 0 paid - 100 bet
    money = record["money"]
    assert money["end"] == {"Anna": 140, "Ben": 160}
    assert (money["total_bet"], money["on_table"], money["total_paid"]) == (100, 100, 0)
    rows = list(csv.DictReader(io.StringIO((tmp_path / "r.csv").read_text())))
    assert [(r["seq"], r["name"], r["value"]) for r in rows if r["record_type"] == "void"] == [
        ("8", "7-7", "it was a 20")]
    assert [r["seq"] for r in rows if r["record_type"] == "choice" and r["voided"]] == ["7"]
