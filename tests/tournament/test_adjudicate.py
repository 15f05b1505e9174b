"""Round time limits and adjudicated tables (TOUR-8.1 to 8.3, DESK-8, ATKR-H1, CASTLE-H1):
values worked by hand from docs/tournaments.md, docs/house-rules.md and the games' rules."""

from fractions import Fraction

import pytest

from engine.desk.commands import AdjudicateGame, Correct
from engine.errors import IllegalCommand, NotAllowed
from engine.games.atkr import commands as A
from engine.log import iso_time
from engine.replay import verify_bytes
from engine.tournament import events as ev
from engine.tournament.adjudicate import adjudicate
from engine.tournament.clock import MINUTE

from .amend_helpers import round_one
from .helpers import by_player, fixed, organiser

P = ["Anna", "Ben", "Cleo", "Dora"]


def _cup(round_time=30, **more):
    org = organiser()
    t = org.create(fixed(P, rounds=1, game="atkr", options={"physical": True},
                         round_time=round_time, **more))
    paired = org.pair(t, seating=[P])  # creates the table's physical game, attached
    return org, t, paired["tables"][0]["game"]


def _lengths(org, t, game):
    return len(org.store.log_bytes(t)), len(org.store.log_bytes(game))


def test_atkr_at_time_by_money_when_the_last_round_was_settled():
    """Round 1 as quick_atkr: Anna (seat 0) 700, the others 600 (ATKR-5).  Round 2 is under
    way (bets placed, a coal drawn) when time runs out: ATKR-H1 abandons it, so the money is
    700, 600, 600, 600: Anna 1st (6 points), the three tied for 2nd share 4 + 2 + 1: 7/3."""
    org, t, game = _cup(round_time=30)
    service = org.service
    round_one(service, game, P)
    for name, amount in (("Anna", 300), ("Ben", 600), ("Cleo", 100), ("Dora", 0)):
        service.submit(game, A.Bet(player=name, amount=amount))
    service.submit(game, A.Draw(player="Ben", coal=0))  # Ben starts round 2: a devil
    ends = org.state(t).paired_at[1] + 30 * MINUTE
    before = _lengths(org, t, game)
    with pytest.raises(IllegalCommand) as early:
        adjudicate(org, t, 1, "round time over", at=ends - 1)
    assert early.value.rule == "TOUR-8.1"
    assert f"runs out at {iso_time(ends, 0)} (1 min from now)" in early.value.message
    assert _lengths(org, t, game) == before  # nothing recorded, in either log
    done = adjudicate(org, t, 1, "round time over", at=ends)  # the moment it runs out
    assert done["rule"] == "ATKR-H1" and done["forced"] is False and done["ends"] == ends
    result = done["result"]
    assert result["money"] == [700, 600, 600, 600]
    assert result["places"] == [1, 2, 2, 2]
    assert result["points"] == ["6", "7/3", "7/3", "7/3"]
    assert result["winners"] == ["Anna"]
    # the game's log: the referee's record ends it; it verifies as finished; nothing more
    check = verify_bytes(org.store.log_bytes(game))
    assert check.ok and check.finished
    assert "finished: adjudicated at time by the referee (DESK-8)" in check.checks
    loaded = service.load(game)
    assert loaded.desk.ended[2] == "ATKR-H1"
    with pytest.raises(IllegalCommand) as late:
        service.submit(game, A.Draw(player="Cleo", coal=0))
    assert late.value.rule == "DESK-8"
    with pytest.raises(IllegalCommand) as corrected:
        service.submit(game, Correct(to=2, reason="no"))
    assert corrected.value.rule == "DESK-8"
    # the stream: table_adjudicated, then the result marked with the rule; it re-decides
    state = org.state(t)
    assert state.adjudicated[(1, 1)].at == ends
    assert state.results[(1, 1)].adjudicated == "ATKR-H1"
    assert verify_bytes(org.store.log_bytes(t)).ok
    rows = by_player(org.standings(t))
    assert rows["Ben"]["points_exact"] == "7/3" and rows["Ben"]["adjudicated"] == [1]
    notes = org.standings(t)["notes"]
    assert notes == [f"round 1, table 1: adjudicated at time ({iso_time(ends, 0)}) by "
                     "ATKR-H1: round time over"]
    closed = org.close_round(t)
    assert closed["collected"] == 0 and closed["finished"]


def test_castle_is_a_draw_and_a_digital_game_keeps_its_seed():
    """CASTLE-H1: six seats all take place 1 and share 6 + 4 + 2 + 1 + 0 + 0 = 13: 13/6 each;
    nobody wins.  Without a round time only the referee's call (--force) adjudicates."""
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
    org = organiser()
    t = org.create(fixed(names, rounds=1, size=(6, 6), game="castle"))
    game = org.pair(t, seating=[names])["tables"][0]["game"]  # a digital game
    with pytest.raises(IllegalCommand) as refused:
        adjudicate(org, t, 1, "slow table")
    assert refused.value.rule == "TOUR-8.1" and "no round time" in refused.value.message
    done = adjudicate(org, t, 1, "slow table", force=True)
    assert done["rule"] == "CASTLE-H1" and done["forced"] is True and done["ends"] is None
    assert done["result"]["places"] == [1] * 6
    assert done["result"]["points"] == ["13/6"] * 6 and done["result"]["winners"] == []
    check = verify_bytes(org.store.log_bytes(game))
    assert check.ok and check.finished and not check.seed_checked
    assert "the seed stays secret" in check.checks[-1]
    rows = org.standings(t)["standings"]
    assert {r["points_exact"] for r in rows} == {"13/6"} and {r["wins"] for r in rows} == {0}
    assert "before time, as the referee's call by CASTLE-H1" in org.standings(t)["notes"][0]
    assert verify_bytes(org.store.log_bytes(t)).ok


def test_refusals_name_the_rule_and_record_nothing():
    org, t, game = _cup()
    at = org.state(t).paired_at[1] + 31 * MINUTE
    before = _lengths(org, t, game)
    for table, reason, rule, text in ((2, "x", "TOUR-8.2", "tables 1 to 1"),
                                      (1, "  ", "TOUR-8.2", "say why")):
        with pytest.raises(IllegalCommand) as refused:
            adjudicate(org, t, table, reason, at=at)
        assert refused.value.rule == rule and text in refused.value.message
    assert _lengths(org, t, game) == before
    # only the referee ends a game at time (DESK-1)
    with pytest.raises(NotAllowed):
        org.service.submit(game, AdjudicateGame(reason="r", rule="ATKR-H1", player="Anna"))
    adjudicate(org, t, 1, "time", at=at)
    with pytest.raises(IllegalCommand) as twice:
        adjudicate(org, t, 1, "time", at=at)
    assert twice.value.rule == "TOUR-8.2" and "has its result already" in twice.value.message


def test_a_finished_game_is_not_adjudicated_and_a_desk_adjudication_needs_the_command():
    from .helpers import quick_atkr

    org = organiser()
    t = org.create(fixed(P, rounds=1, game="atkr", options={"physical": True}))
    org.pair(t, seating=[P], games=False)
    game = quick_atkr(org.service, P, {"Anna": 600, "Ben": 0, "Cleo": 0, "Dora": 0})
    org.submit(t, ev.Attach(round=1, table=1, game=game,
                            created=org.service.load(game).header.created))
    with pytest.raises(IllegalCommand) as finished:
        adjudicate(org, t, 1, "time", force=True)
    assert finished.value.rule == "TOUR-8.2" and "is finished" in finished.value.message
    # a game ended at the desk directly, then collected, is refused: the table's time rule
    # is checked by the tournament's adjudicate only
    org2, t2, game2 = _cup()
    org2.service.submit(game2, AdjudicateGame(reason="by hand", rule="ATKR-H1"))
    with pytest.raises(IllegalCommand) as by_hand:
        org2.close_round(t2)
    assert by_hand.value.rule == "TOUR-8.2"
    done = adjudicate(org2, t2, 1, "by hand", force=True)  # takes the desk's record as it is
    assert done["result"]["points"] == ["13/4"] * 4  # four tied at 200: (6+4+2+1) / 4
    assert Fraction(done["result"]["points"][0]) == Fraction(13, 4)


def test_verify_refuses_a_game_record_after_the_adjudication():
    """A log whose writer went on after the referee ended the game (DESK-8) does not verify:
    the record after it is named."""
    org, t, game = _cup()
    org.service.submit(game, AdjudicateGame(reason="time", rule="ATKR-H1"))
    head = org.store.read(game, after=0).records[-1].seq
    org.store.append(game, head, 0, "forged", [{"type": "bet_placed", "seat": 0,
                                                 "amount": 100}])
    check = verify_bytes(org.store.log_bytes(game))
    assert not check.ok and check.first_bad_seq == head + 1
    assert "adjudicated at record" in check.reason and "DESK-8" in check.reason
