"""devil audit: a hand-built physical game worked out by hand from the rules, and a doctored
payout caught only by the re-derivation."""

from __future__ import annotations

import csv
import json

import pytest

from engine.games.atkr.audit import audit
from engine.replay import open_log, verify_bytes

from .helpers import rechain, run, service, split

G, P, L, S = "Gordon", "Pella", "Lucy", "Saul"


def submit_all(svc, game, commands):
    for command in commands:
        svc.submit(game, command)


def bet(name, amount):
    return {"type": "bet", "player": name, "amount": amount}


def draw(name, coal):
    return {"type": "draw", "player": name, "coal": coal}


def stop(name):
    return {"type": "stop", "player": name}


@pytest.fixture(scope="module")
def physical(tmp_path_factory):
    """The worked example of the printed rules as round 1, then a round with pact payments."""
    svc = service(tmp_path_factory.mktemp("audit"))
    game = svc.create("atkr", {"players": [G, P, L, S], "first": G, "physical": True}).game
    submit_all(svc, game, [
        # round 1 (the worked example): bets 100 / 120 / 140 / 60        seq 3-6, reveal 7
        bet(G, 100), bet(P, 120), bet(L, 140), bet(S, 60),
        draw(G, 50), draw(G, 20), draw(G, 20), draw(G, 0),               # 8-11 Gordon busts on 90
        draw(P, 100), draw(P, 25), draw(P, 10), stop(P),                 # 12-15 Pella 135
        draw(L, 0),                                                      # 16 Lucy busts
        draw(S, 10), draw(S, 10), draw(S, 10), draw(S, 20), stop(S),     # 17-21 Saul 50 in 4
        # payouts 22-27, pawns 28 (Lucy alone last on 60: pact), round 2 starts 29 (Pella)
        # round 2: bets 30-33, reveal 34
        bet(G, 250), bet(P, 370), bet(L, 60), bet(S, 100),
        draw(P, 0),        # 35 Pella busts with 0 not bet: the bank pays Lucy (36)
        draw(L, 0),        # 37 Lucy busts: she holds the only pact and never pays herself
        draw(S, 75), stop(S),  # 38-39
        draw(G, 0),        # 40 Gordon busts with 50 not bet: he pays Lucy (41); payouts 42-47
    ])
    path = svc.store.path(game)
    return svc, game, path


def t(frm, to, amount, rule, seq):
    return {"from": frm, "to": to, "amount": amount, "rule": rule, "seq": seq}


def test_worked_example_and_pact_round_by_hand(physical):
    svc, game, path = physical
    result = audit(open_log(path))
    assert result.ok, result.problems
    data = result.to_json()
    r1, r2 = data["rounds"][0], data["rounds"][1]
    assert r1["round"] == 1 and r1["bets"] == {G: 100, P: 120, L: 140, S: 60}
    assert r1["highest_total"] == 135
    # H = 135: Gordon, Pella and Saul win 1x; Lucy's 140 is the highest bet and lost, so
    # nobody is paid double; Pella takes the highest-total prize, Saul (4 coals) the most coals
    assert r1["transfers"] == [
        t(G, "table", 100, "ATKR-3.5", 3), t(P, "table", 120, "ATKR-3.5", 4),
        t(L, "table", 140, "ATKR-3.5", 5), t(S, "table", 60, "ATKR-3.5", 6),
        t("table", G, 100, "ATKR-5.3", 22), t("bank", G, 100, "ATKR-5.3", 22),
        t("table", P, 120, "ATKR-5.3", 23), t("bank", P, 120, "ATKR-5.3", 23),
        t("table", "bank", 140, "ATKR-5.4", 24),
        t("table", S, 60, "ATKR-5.3", 25), t("bank", S, 60, "ATKR-5.3", 25),
        t("bank", P, 50, "ATKR-5.6", 26), t("bank", S, 50, "ATKR-5.7", 27),
    ]
    # after round 1: Gordon 300, Pella 370, Lucy 60, Saul 310; Lucy alone last: the pact.
    # round 2 (start Pella): bets 250 / 370 / 60 / 100 leave 50 / 0 / 0 / 210 not bet.
    assert r2["bets"] == {G: 250, P: 370, L: 60, S: 100}
    assert r2["highest_total"] == 75
    assert r2["transfers"] == [
        t(G, "table", 250, "ATKR-3.5", 30), t(P, "table", 370, "ATKR-3.5", 31),
        t(L, "table", 60, "ATKR-3.5", 32), t(S, "table", 100, "ATKR-3.5", 33),
        t("bank", L, 50, "ATKR-6.5", 36),   # Pella cannot pay: the bank covers it
        t(G, L, 50, "ATKR-6.5", 41),        # Gordon pays from his 50 not bet
        t("table", "bank", 370, "ATKR-5.4", 42),          # Pella's highest bet lost (75 < 370)
        t("table", L, 60, "ATKR-5.3", 43), t("bank", L, 60, "ATKR-5.3", 43),
        t("table", "bank", 100, "ATKR-5.4", 44), t("table", "bank", 250, "ATKR-5.4", 45),
        t("bank", S, 50, "ATKR-5.6", 46), t("bank", S, 50, "ATKR-5.7", 47),
    ]
    # Gordon 300-250-50 = 0; Pella 370-370 = 0; Lucy 60-60+50+50+60+60 = 220; Saul 310-100+100
    assert data["final_money"] == {G: 0, P: 0, L: 220, S: 310}
    # bank: -100 -120 +140 -60 -50 -50 = -240; then -50 (pact) = -290, its lowest;
    # then +370 -60 +100 +250 -100 = 270
    assert data["bank_max_deficit"] == 290
    assert data["bank_balance"] == 270
    assert not data["finished"]
    # the engine's own state agrees
    state = svc.load(game).state
    assert state.money == [0, 0, 220, 310] and state.bank == 270


def test_audit_cli_json_and_csv(physical, tmp_path):
    _, _, path = physical
    target = tmp_path / "ledger.csv"
    out = run("audit", path, "--json", "--csv", str(target))
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert data["ok"] is True and data["bank_max_deficit"] == 290
    # the same ledger CSV as for many games (docs/tools.md): the transfers, then the totals
    everything = list(csv.DictReader(target.open()))
    rows = [row for row in everything if row["record"] == "transfer"]
    assert len(rows) == 13 + 13
    game = data["game"]
    assert rows[17] == {"record": "transfer", "path": path, "kind": "atkr", "game": game,
                        "tournament": "", "round": "2", "seq": "36", "rule": "ATKR-6.5",
                        "payer": "bank", "payee": L, "amount": "50", "total": "", "player": "",
                        "rank": ""}
    assert {row["game"] for row in rows} == {game}
    # the game's totals (Audit.totals), from the transfers listed in the test above: bets
    # 100 + 120 + 140 + 60 and 250 + 370 + 60 + 100 = 1200; bets won 100 + 120 + 60 (round 1)
    # + 60 (Lucy, round 2) = 340; prizes 4 x 50 = 200; pacts: the bank 50 (#36), Gordon 50
    # (#41); the bank paid 340 + 200 + 50 = 590 and won 140 + 370 + 100 + 250 = 860: +270;
    # the seats hold 0 + 0 + 220 + 310 = 530 of the 800 they started with
    totals = {"money_start": 800, "money_end": 530, "on_table": 0, "bet": 1200,
              "bank_paid": 590, "bets_won": 340, "prizes": 200, "pact_by_bank": 50,
              "bank_won": 860, "bank_balance": 270, "pact_by_seats": 50, "bank_lowest": -290}
    assert data["totals"] == totals
    assert {r["total"]: int(r["amount"]) for r in everything if r["record"] == "game"} == totals
    assert data["players"][G] == {"money_start": 200, "money_end": 0, "bet": 350,
                                  "won_from_bank": 100, "lost_to_bank": 250, "pact_paid": 50,
                                  "pact_received": 0}
    # one policy for every command that writes a file: an existing file is refused
    again = run("audit", path, "--csv", str(target))
    assert again.exit_code == 2 and "exists already" in again.output
    assert run("audit", path, "--csv", str(target), "--force").exit_code == 0
    text = run("audit", path).output
    assert "the bank was down at most 290" in text
    assert f"{L}: 200 + " in text and "= 220" in text


def doctor(path, seq, change):
    with open(path, "rb") as handle:
        header, _, objs = split(handle.read())
    doctored = [list(o) for o in objs]
    doctored[seq - 1][4] = {**doctored[seq - 1][4], **change}
    return rechain(header, doctored)


def test_a_doctored_payout_fails_at_its_seq(physical, tmp_path):
    _, _, path = physical
    # Pella's round-1 bet (120, not the highest) is paid double: 240 instead of 120
    bad = doctor(path, 23, {"win": 240, "rule": "ATKR-5.5"})
    assert verify_bytes(bad).first_bad_seq == 23  # the chain holds; only re-deriving catches it
    target = tmp_path / "doctored.devlog"
    target.write_bytes(bad)
    result = audit(open_log(str(target)))
    assert not result.ok and result.first_bad_seq == 23
    out = run("audit", str(target), "--json")
    assert out.exit_code == 3
    data = json.loads(out.output)
    assert data["ok"] is False and data["first_bad_seq"] == 23


def test_a_doctored_pact_payer(physical, tmp_path):
    _, _, path = physical
    # the pact payment at 41 said to come from the bank, though Gordon had 50 not bet
    target = tmp_path / "doctored.devlog"
    target.write_bytes(doctor(path, 41, {"payer": -1}))
    result = audit(open_log(str(target)))
    assert not result.ok and result.first_bad_seq == 41
    assert run("audit", str(target)).exit_code == 3


def test_the_audit_walks_every_event_type_that_moves_money_through_its_handler():
    """The audit's dispatch table (event class -> handler) names every atkr event type but
    the furnace's refill (ATKR-7.1: coals back in the furnace, no money moves)."""
    import importlib
    import pathlib

    from engine.games.atkr import events as E
    from engine.replay import load_bytes

    module = importlib.import_module("engine.games.atkr.audit")
    root = pathlib.Path(__file__).resolve().parents[2]
    log = load_bytes((root / "replays" / "atkr-2p-random-seed102.devlog").read_bytes())
    handled = set(module._Auditor(log).handlers())
    kinds = {cls for cls in E.EVENTS.by_type.values() if cls.__module__ == E.__name__}
    assert kinds - handled == {E.FurnaceRefilled}
    assert handled <= kinds
