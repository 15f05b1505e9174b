"""Amending one record (DESK-9, issue 24.1), worked by hand from docs/rules/atkr.md and
docs/rules/castle.md: a mistyped coal amended mid-round with the later draws re-applied and
the bank's audit reconciling; a coal amended to a devil, so that a later stop no longer fits
and is voided with its seat told; a digital bet typed wrong, whose draws are re-applied with
the coals they drew (chance never rewinds, DESK-6) and the seed re-derived at the end; a
castle trade offered to the wrong player; and every refusal changing nothing."""

from __future__ import annotations

import json
import random

import pytest

from engine.bots import make_bot, play_out
from engine.errors import IllegalCommand, UsageError
from engine.replay import verify_bytes, verify_path
from engine.service import GameService
from engine.store import MemoryStore

from ..tools.helpers import rechain, split
from .helpers import devil, log_json, ok, seq_of


def _physical(store) -> str:
    return ok(store, "new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
              "--physical").splitlines()[0]


def _round(store, game, second_coal) -> None:
    """Bets Anna 60, Ben 40 (seqs 3; 4 and the reveal 5); Anna draws 25 (6) and SECOND_COAL
    (7) and stops (8); Ben draws 10 (9), 20 (10) and stops (11 and the round's end after)."""
    for args in (("bet", game, 60, "--as", "Anna"), ("bet", game, 40, "--as", "Ben"),
                 ("draw", game, "--as", "Anna", "--coal", 25),
                 ("draw", game, "--as", "Anna", "--coal", second_coal),
                 ("stop", game, "--as", "Anna"), ("draw", game, "--as", "Ben", "--coal", 10),
                 ("draw", game, "--as", "Ben", "--coal", 20), ("stop", game, "--as", "Ben")):
        ok(store, *args)


def _audit(store, game) -> dict:
    return json.loads(ok(store, "audit", game, "--json"))


def test_a_mistyped_coal_amended_mid_round_reapplies_the_later_draws_and_the_audit_reconciles(
        tmp_path):
    store = tmp_path / "store"
    game = _physical(store)
    _round(store, game, 50)  # the referee typed 50 where Anna drew a 20
    entries = log_json(store, game)
    assert seq_of(entries, type="coal_drawn", coal=50) == 7
    last = entries[-1]["seq"]
    # as recorded (ATKR-5): Anna 75, Ben 30: Anna 200 + 120 + 50 + 50 = 420, Ben 290
    assert _audit(store, game)["final_money"] == {"Anna": 420, "Ben": 290}

    out = ok(store, "amend", game, 7, "--coal", 20, "--reason", "it was a 20")
    # the amended record is last + 1; the new 20 follows; Anna's stop (8), Ben's 10 (9), 20
    # (10) and stop (11) are re-applied in order, one record after another
    amended = last + 1
    assert f"Referee amends #7 to draw coal=20: it was a 20; re-applied: #8 as " \
           f"#{amended + 2}, #9 as #{amended + 3}, #10 as #{amended + 4}, #11 as " \
           f"#{amended + 5}" in out
    assert "no longer fit" not in out

    # After (as the correction of test_physical_audit worked out): Anna 25 + 20 = 45, Ben
    # 10 + 20 = 30, H = 45.  Anna's 60 > 45 loses to the bank (ATKR-5.4); the highest bet
    # lost, so Ben's 40 <= 45 wins 1 x 40 (ATKR-5.5, 5.3); Anna's 45 = H: +50 (ATKR-5.6);
    # two coals each: +50 each (ATKR-5.7).  Anna 200 - 60 + 50 + 50 = 240, Ben 200 + 40 +
    # 50 = 290; the bank took 60 and paid 190: -130.  240 and 290 share a space: no pact.
    after = _audit(store, game)
    assert after["ok"] is True
    assert after["final_money"] == {"Anna": 240, "Ben": 290}
    assert after["bank_balance"] == -130
    assert after["rounds"][0]["highest_total"] == 45
    players = json.loads(ok(store, "show", game, "--json"))["players"]
    assert [p["pact"] for p in players] == [False, False]

    # nothing is erased: the old records are struck through, the new ones cite them
    entries = log_json(store, game)
    assert {e["seq"] for e in entries if "voided" in e} == set(range(7, last + 1))
    assert entries[7]["voided"] == {"by": amended, "reason": "it was a 20",
                                    "reapplied_as": amended + 2}  # record 8, Anna's stop
    assert entries[amended + 1]["reapplied"] == {"of": 8, "by": amended}
    assert entries[amended]["event"]["coal"] == 20 and entries[amended]["actor"] == -1
    text = ok(store, "log", game)
    assert f"~~Anna stops~~  [VOID by #{amended}: it was a 20; re-applied as #{amended + 2}]" \
        in text
    assert f"Anna stops  [re-applied #8 by the amendment at #{amended}]" in text
    shown = ok(store, "show", game)
    assert f"VOID: #7-#{last} by the amendment at #{amended}: it was a 20" in shown

    check = verify_path(str(store / f"{game}.devlog"))
    assert check.ok, check.reason
    assert any(f"1 amendment (#7 by #{amended}: 4 re-applied, 0 no longer fit)" in c
               for c in check.checks)
    # the amendment re-decided: a re-applied coal edited (re-chained) fails at its record
    data = (store / f"{game}.devlog").read_bytes()
    header, _chunks, objs = split(data)
    index = next(i for i, o in enumerate(objs) if o[0] == amended + 3)  # Ben's 10 again
    objs[index][4] = {**objs[index][4], "coal": 25}
    bad = verify_bytes(rechain(header, objs))
    assert not bad.ok and bad.first_bad_seq == amended + 3
    assert "the amendment re-decided gives" in bad.reason


def test_a_coal_amended_to_a_devil_voids_the_stop_that_no_longer_fits_and_tells_its_seat(
        tmp_path):
    store = tmp_path / "store"
    game = _physical(store)
    _round(store, game, 50)
    last = log_json(store, game)[-1]["seq"]
    out = ok(store, "amend", game, 7, "--coal", "devil", "--reason", "it was the devil")
    amended = last + 1
    # Anna busts on the devil (ATKR-4.4): her stop (8) no longer fits (Ben is on turn); Ben's
    # 10, 20 and stop are re-applied
    assert f"re-applied: #9 as #{amended + 2}, #10 as #{amended + 3}, #11 as " \
           f"#{amended + 4}; no longer fit, void: #8" in out
    assert ("  told Anna: the command at #8 no longer fits and is void (ATKR-4.1: it is "
            "Ben's turn, not Anna's)") in out
    # H = 30 (Ben; busted Anna lays out nothing, ATKR-5.1).  Anna's 60 > 30 loses, Ben's
    # 40 > 30 loses too (ATKR-5.4): the bank takes 100.  Ben's 30 = H: +50 (ATKR-5.6); only
    # Ben laid out coals: +50 (ATKR-5.7).  Anna 200 - 60 = 140, Ben 200 - 40 + 100 = 260;
    # the bank: +100 - 100 = 0.  Phase 4: 140 lies below 200, 260 between 200 and 300:
    # Anna is alone in last place and enters the pact (ATKR-6.2 A).
    after = _audit(store, game)
    assert after["ok"] is True
    assert after["final_money"] == {"Anna": 140, "Ben": 260}
    assert after["bank_balance"] == 0
    assert after["rounds"][0]["highest_total"] == 30
    view = json.loads(ok(store, "show", game, "--json"))
    assert [p["pact"] for p in view["players"]] == [True, False]
    assert view["amended"][0]["voided"][0]["of"] == 8
    assert view["amended"][0]["voided"][0]["player"] == "Anna"
    # Anna is told why; Ben sees that her command was voided and the rule, not more
    anna = ok(store, "show", game, "--as", "Anna")
    ben = ok(store, "show", game, "--as", "Ben")
    told = f"AMENDED at #{amended}: Anna's command at #8 no longer fits and is void (DESK-9.3): "
    assert told + "ATKR-4.1: it is Ben's turn, not Anna's" in anna
    assert told + "ATKR-4.1\n" in ben + "\n"
    assert verify_path(str(store / f"{game}.devlog")).ok


def _digital(seed: int):
    svc = GameService(MemoryStore())
    game = svc.create("atkr", {"players": ["Anna", "Ben"], "first": "Anna"}, seed=seed).game
    return svc, game


def test_a_digital_bet_typed_wrong_is_amended_with_its_draws_kept_and_the_seed_rederived():
    for seed in range(1, 60):  # a seed whose first two draws are numbers (Anna draws twice)
        svc, game = _digital(seed)
        svc.submit(game, {"type": "bet", "player": "Anna", "amount": 60})  # 3: meant 40
        svc.submit(game, {"type": "bet", "player": "Ben", "amount": 40})  # 4, 5
        first = svc.submit(game, {"type": "draw", "player": "Anna"}).events[0]  # 6
        if first.coal:
            second = svc.submit(game, {"type": "draw", "player": "Anna"}).events[0]  # 7
            if second.coal:
                break
    else:
        raise AssertionError("no seed drew two numbers")
    version = svc.load(game).version
    assert version == 7
    # refused, nothing recorded: a bet above Anna's 200 (ATKR-3.1), a digital draw (DESK-9.2)
    for fields, rule, words in (({"amount": 300}, "DESK-9.3", "ATKR-3.1"),
                                ({"coal": 100}, "DESK-9.2", "chance never rewinds")):
        seq = 3 if "amount" in fields else 6
        with pytest.raises(IllegalCommand) as refused:
            svc.submit(game, {"type": "amend", "seq": seq, "fields": fields, "reason": "x"})
        assert refused.value.rule == rule and words in refused.value.message
    assert svc.load(game).version == version

    amend = {"type": "amend", "seq": 3, "fields": {"amount": 40}, "reason": "Anna said 40"}
    done = svc.submit(game, amend, command_id="fix-3")
    # a retry with the same id answers the same records, appending nothing; another
    # amendment under that id is refused
    again = svc.submit(game, amend, command_id="fix-3")
    assert again.repeated and [r.seq for r in again.records] == [r.seq for r in done.records]
    with pytest.raises(UsageError):
        svc.submit(game, {**amend, "fields": {"amount": 50}}, command_id="fix-3")
    head, *made = done.events
    # 8 amended; 9 Anna's 40; Ben's bet (4) again at 10 with the reveal at 11; the draws
    # (6, 7) again at 12, 13 with the very coals they drew
    assert (head.about, head.to, head.reapplied, head.voided) == (3, 2, [[4, 10], [6, 12],
                                                                         [7, 13]], [])
    assert [type(e).__name__ for e in made] == ["BetPlaced", "BetPlaced", "BetsRevealed",
                                                "CoalDrawn", "CoalDrawn"]
    assert made[0].amount == 40 and made[2].bets == [40, 40]
    assert (made[3].coal, made[4].coal) == (first.coal, second.coal)
    state = svc.state(game)
    assert state.money == [160, 160] and state.draws == 2
    # Ben never learns Anna's amount from the amendment (ATKR-3.2 while bets are sealed)
    from engine.game import rules_for

    shown = rules_for("atkr").visible(head, 1)
    assert shown.command == {"type": "bet", "player": "Anna"}
    # play on to the end: the next draws are new ones (epoch 1, DESK-6); verify re-derives
    # every draw from the revealed seed and re-decides the amendment
    bots = {s: make_bot("atkr", "cautious", random.Random(seed + s)) for s in range(2)}
    assert play_out(svc, game, bots)["over"]
    check = verify_bytes(svc.store.log_bytes(game))
    assert check.ok, check.reason
    assert check.finished and check.seed_checked
    with pytest.raises(IllegalCommand) as late:
        svc.submit(game, {"type": "amend", "seq": 9, "fields": {"amount": 50}, "reason": "x"})
    assert late.value.rule == "DESK-9.1"


def test_a_castle_trade_offered_to_the_wrong_player_is_amended(tmp_path):
    store = tmp_path / "store"
    game = ok(store, "new", "castle", "--player", "Anna", "--player", "Ben", "--player",
              "Cleo", "--first", "Anna", "--seed", 3).splitlines()[0]
    # seed 3 deals Anna bag-key and gloves (the log's cards_dealt, record 2)
    ok(store, "trade", game, "gloves", "--to", "Ben", "--as", "Anna")  # 4
    ok(store, "refuse", game, "--as", "Ben")  # 5 and Ben's turn (6)
    out = ok(store, "amend", game, 4, "--set", "to=Cleo", "--reason", "offered to Cleo")
    # the trade goes to Cleo now (8): Ben's refusal no longer fits, as only the receiver
    # answers an offer (CASTLE-4.2); the game waits for Cleo
    assert "#8    Anna offers Cleo the gloves (CASTLE-4.1)" in out
    assert "told Ben: the command at #5 no longer fits and is void (CASTLE-4.2" in out
    assert "waiting for: Cleo" in ok(store, "show", game, "--as", "Cleo")
    assert "Cleo may: refuse, accept" in ok(store, "show", game, "--as", "Cleo")
    # Ben does not see the face-down item in the amendment (CASTLE-4.1)
    ben = [e for e in log_json(store, game, "--as", "Ben") if e["event"]["type"] == "amended"]
    assert ben[0]["event"]["command"] == {"type": "trade", "player": "Anna"}
    assert verify_path(str(store / f"{game}.devlog")).ok
    # the type and the seat stay (DESK-9.2)
    refused = devil(store, "amend", game, 8, "--set", "player=Ben", "--reason", "x")
    assert refused.exit_code == 1 and "DESK-9.2: the seat that gave a command stays" \
        in refused.output


#: refused amendments of the game of :func:`_round` (50 at record 7): the arguments after
#: GAME, the exit code and the words of the message
REFUSED = [
    ((7, "--coal", 20, "--reason", "x", "--as", "Anna"), 4, "DESK-1"),
    ((99, "--coal", 20, "--reason", "x"), 2, "DESK-9: there is no record 99"),
    ((1, "--coal", 20, "--reason", "x"), 1, "DESK-9.1: record 1 sets the game up"),
    ((8, "--coal", 20, "--reason", "x"), 1, "DESK-9.2: a stop may have nothing"),
    ((3, "--coal", 20, "--reason", "x"), 1, "DESK-9.2: a bet may have amount"),
    ((7, "--coal", 50, "--reason", "x"), 1, "DESK-9.2: record 7 already says that"),
    ((7, "--reason", "x"), 2, "name what the record should have said"),
    ((7, "--coal", 20, "--reason", " "), 2, "must not be empty"),
    ((3, "--amount", 300, "--reason", "x"), 1, "DESK-9.3"),
    ((7, "--coal", 20, "--reason", "x", "--dispute", 4), 2, "DESK-10.2"),
]


def test_every_refused_amendment_names_its_rule_and_records_nothing(tmp_path):
    store = tmp_path / "store"
    game = _physical(store)
    _round(store, game, 50)
    before = (store / f"{game}.devlog").read_bytes()
    for args, code, words in REFUSED:
        result = devil(store, "amend", game, *map(str, args))
        assert result.exit_code == code, (args, result.output)
        assert words in result.output and "Traceback" not in result.output, args
    assert (store / f"{game}.devlog").read_bytes() == before


def test_a_receipt_of_a_command_an_amendment_reapplied_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("DEVIL_CONFIG", str(tmp_path / "config"))
    store = tmp_path / "store"
    game = _physical(store)
    _round(store, game, 50)
    last = log_json(store, game)[-1]["seq"]
    ok(store, "amend", game, 7, "--coal", 20, "--reason", "it was a 20")
    # Ben's stop (11 to `last`: the payouts and round 2's start) was re-applied after the
    # amended record, the new 20 and the three re-applied before it: at last + 6
    stop = last + 6
    assert log_json(store, game)[stop - 1]["reapplied"] == {"of": 11, "by": last + 1}
    out = ok(store, "verify", game, "--receipt", last)
    assert f"receipt: record {last} with link" in out
    assert (f"record {last} was voided by the amendment at #{last + 1} and its command "
            f"re-applied as #{stop} (DESK-9)") in out


def test_a_card_reported_wrong_at_a_physical_castle_table_is_amended(tmp_path):
    from tests.castle_cli.test_cli import FOUR, write_deal

    store = tmp_path / "store"
    path, deal = write_deal(tmp_path, "four.json", FOUR, top=[])
    deal["pile_ordered"] = False  # the box's pile: its order is known to nobody (CASTLE-7.1)
    path.write_text(json.dumps(deal))
    game = ok(store, "new", "castle", "--deal", path, "--first", "Ann").splitlines()[0]
    ok(store, "trade", game, "bag-key", "--to", "Cid", "--as", "Ann")  # 4
    ok(store, "accept", game, "gloves", "--as", "Cid")  # 5: Ann's bag fires (CASTLE-5.1)
    ok(store, "choose", game, "draw", "--as", "Ann")  # 6: the card drawn is to be reported
    ok(store, "submit", game, json.dumps({"type": "draw", "item": "key-1"}), "--as", "Ann")  # 7, 8
    ok(store, "trade", game, "bag-goblet", "--to", "Dora", "--as", "Ben")  # 9
    ok(store, "accept", game, "dagger", "--as", "Dora")  # 10 ...
    last = log_json(store, game)[-1]["seq"]
    out = ok(store, "amend", game, 7, "--item", "goblet-1", "--reason", "the card was goblet-1")
    # the amended draw (7 and Ben's turn, 8) at last + 2, + 3; Ben's trade (9) and Dora's
    # accept (10 ...) re-applied after it
    assert f"re-applied: #9 as #{last + 4}, #10 as #{last + 5}" in out
    players = json.loads(ok(store, "show", game, "--json"))["players"]
    hands = {p["name"]: p["items"] for p in players}
    assert "goblet-1" in hands["Ann"] and "key-1" not in hands["Ann"]
    assert "dagger" in hands["Ben"] and "bag-goblet" in hands["Dora"]
    # Ann sees her own card in the amendment; Ben does not (a drawn card is secret)
    mine = [e for e in log_json(store, game, "--as", "Ann") if e["event"]["type"] == "amended"]
    his = [e for e in log_json(store, game, "--as", "Ben") if e["event"]["type"] == "amended"]
    assert mine[0]["event"]["command"]["item"] == "goblet-1"
    assert his[0]["event"]["command"] == {"type": "draw", "player": "Ann"}
    # a card that is not in the pile is refused (CASTLE-7.1), nothing recorded
    refused = devil(store, "amend", game, last + 2, "--item", "gloves", "--reason", "x")
    assert refused.exit_code == 1 and "DESK-9.3" in refused.output \
        and "CASTLE-7.1" in refused.output
    assert verify_path(str(store / f"{game}.devlog")).ok
