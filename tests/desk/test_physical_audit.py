"""A physical game with a wrong coal, corrected by the referee (issue 13.1): the bank's audit
before and after the correction, worked by hand from docs/rules/atkr.md; the voided records
stay in the log, struck through with the reason, and verify re-checks the corrected game."""

from __future__ import annotations

import json

from engine.replay import verify_path

from .helpers import log_json, ok, seq_of


def _round_one(store, game, second_coal):
    """Bets Anna 60, Ben 40; Anna draws 25 and SECOND_COAL and stops; Ben 10, 20, stops."""
    for args in (("draw", game, "--as", "Anna", "--coal", second_coal),
                 ("stop", game, "--as", "Anna"), ("draw", game, "--as", "Ben", "--coal", 10),
                 ("draw", game, "--as", "Ben", "--coal", 20), ("stop", game, "--as", "Ben")):
        ok(store, *args)


def _audit(store, game) -> dict:
    return json.loads(ok(store, "audit", game, "--json"))


def test_a_wrong_coal_corrected_changes_the_audit_as_the_rules_say(tmp_path):
    store = tmp_path / "store"
    game = ok(store, "new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
              "--physical").splitlines()[0]
    ok(store, "bet", game, 60, "--as", "Anna")
    ok(store, "bet", game, 40, "--as", "Ben")
    ok(store, "draw", game, "--as", "Anna", "--coal", 25)
    first_coal = seq_of(log_json(store, game), type="coal_drawn", coal=25)
    # the referee types 50 where Anna drew a 20
    _round_one(store, game, 50)

    # Before, as recorded (ATKR-5): Anna 25 + 50 = 75, Ben 10 + 20 = 30, so H = 75.
    # Anna's 60 <= 75 wins and is the highest bet: the bank pays 2 x 60 = 120 (ATKR-5.5);
    # Ben's 40 <= 75 wins 1 x 40 (ATKR-5.3); Anna's 75 = H: +50 (ATKR-5.6); both laid out two
    # coals, the most: +50 each (ATKR-5.7).  Anna 200 + 120 + 50 + 50 = 420, Ben 200 + 40 +
    # 50 = 290; the bank paid 120 + 40 + 50 + 50 + 50 = 310.
    before = _audit(store, game)
    assert before["ok"] is True
    assert before["final_money"] == {"Anna": 420, "Ben": 290}
    assert before["bank_balance"] == -310
    assert before["rounds"][0]["highest_total"] == 75
    # Phase 4 (ATKR-6.1, 6.2): 420 lies between 300 and 500, 290 between 200 and 300: Ben's
    # pawn is alone in last place, so Ben is in the pact.
    assert json.loads(ok(store, "show", game, "--json"))["players"][1]["pact"] is True

    last_before = log_json(store, game)[-1]["seq"]
    reason = "Anna's second coal was a 20; I typed 50"
    out = ok(store, "correct", game, "--to", first_coal, "--reason", reason)
    assert f"back to #{first_coal}" in out and reason in out
    # the table is as it was just after the 25: Anna 25, on turn, bets in play
    view = json.loads(ok(store, "show", game, "--json"))
    anna, ben = view["players"]
    assert (anna["coals"], anna["total"], anna["money"], anna["bet"]) == ([25], 25, 140, 60)
    assert (ben["coals"], ben["money"], ben["pact"]) == ([], 160, False)
    assert view["turn"] == "Anna" and view["bank"] == 0
    assert view["voided"] == [{"from": first_coal + 1, "to": last_before, "by": last_before + 1,
                               "reason": reason, "epoch": 1}]
    _round_one(store, game, 20)

    # After the correction: Anna 25 + 20 = 45, Ben 30, so H = 45.  Anna's 60 > 45 loses the
    # stake to the bank (ATKR-5.4); the highest bet lost, so Ben's 40 <= 45 wins only 1 x 40
    # (ATKR-5.5, 5.3); Anna's 45 = H: +50 (ATKR-5.6); two coals each: +50 each (ATKR-5.7).
    # Anna 200 - 60 + 50 + 50 = 240, Ben 200 + 40 + 50 = 290; the bank took 60 and paid
    # 40 + 50 + 50 + 50 = 190: -130.  Phase 4: 240 and 290 share the space between 200 and
    # 300, so nobody is alone in last place: no pact (ATKR-6.2).
    after = _audit(store, game)
    assert after["ok"] is True
    assert after["final_money"] == {"Anna": 240, "Ben": 290}
    assert after["bank_balance"] == -130
    assert after["rounds"][0]["highest_total"] == 45
    assert after["voided"][0]["reason"] == reason
    voided_seqs = set(range(first_coal + 1, last_before + 1))
    assert not {t["seq"] for r in after["rounds"] for t in r["transfers"]} & voided_seqs
    players = json.loads(ok(store, "show", game, "--json"))["players"]
    assert [p["pact"] for p in players] == [False, False]

    # the voided records stay in the log, struck through with the reason
    text = ok(store, "log", game)
    assert f"~~Anna draws 50~~  [VOID by #{last_before + 1}: {reason}]" in text
    entries = log_json(store, game)
    assert {e["seq"] for e in entries if "voided" in e} == voided_seqs
    assert all(e["voided"] == {"by": last_before + 1, "reason": reason}
               for e in entries if "voided" in e)
    audit_text = ok(store, "audit", game)
    assert "Anna: 200 + 100 - 60 = 240" in audit_text and "left out of this audit" in audit_text

    # verify re-decides the surviving commands with the voids applied
    check = verify_path(str(store / f"{game}.devlog"))
    assert check.ok, check.reason
    assert check.voided[0]["by"] == last_before + 1
    assert any("1 correction voiding 12 records" in c for c in check.checks)
