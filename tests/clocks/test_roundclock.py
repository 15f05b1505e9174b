"""A tournament's round time on its games' clocks (CLOCK-10, TOUR-8.5): ``pair`` records the
round's end as the game's ``deadline``, the service adjudicates the game when it passes (by the
kind's house rule, ATKR-H1), ``close-round`` reads it as adjudicated (TOUR-8.3) and ``verify``
re-derives the timeout, catching a forged early one.  Values worked by hand from
docs/house-rules.md, docs/tournaments.md and the games' rules."""

from __future__ import annotations

import pytest

from client.clocks import describe_clock
from engine.clock import ClockSet, checked, control_text, duration_text
from engine.errors import IllegalCommand, UsageError
from engine.games.atkr import commands as A
from engine.games.atkr import RULES
from engine.log import iso_time
from engine.replay import verify_bytes
from engine.service.clocks import running
from engine.tournament.clock import MINUTE

from ..tournament.amend_helpers import round_one
from ..tournament.helpers import by_player, fixed, organiser

P = ["Anna", "Ben", "Cleo", "Dora"]
REASON = "the round time is over (CLOCK-10)"


def _cup(round_time=30):
    org = organiser()
    t = org.create(fixed(P, rounds=1, game="atkr", options={"physical": True},
                         round_time=round_time))
    game = org.pair(t, seating=[P])["tables"][0]["game"]
    return org, t, game


def _types(org, game):
    return [r.event["type"] for r in org.service.load(game).records]


def test_the_round_deadline_adjudicates_the_game_and_close_round_reads_it():
    """Round 1 as quick_atkr: Anna 700, the others 600 (ATKR-5).  Round 2 is under way (bets
    placed, Ben's devil drawn) when the round's 30 min run out: ATKR-H1 abandons it, so the
    money is 700, 600, 600, 600: Anna 1st (6 points), three tied for 2nd share 4 + 2 + 1 = 7/3
    each (TOUR-3.2)."""
    org, t, game = _cup(30)
    service = org.service
    loaded = service.load(game)
    created = loaded.header.created
    ends = org.state(t).paired_at[1] + 30 * MINUTE
    second = loaded.records[2].event  # after the setup's two records: the time control
    assert second == {"type": "clock_set", "base": None, "increment": 0, "move": None,
                      "on_timeout": "act", "deadline": ends - created}
    assert running(loaded)  # the server's tick looks at it though no seat's clock runs yet
    control = ClockSet(None, 0, None, "act", 30 * MINUTE)
    assert control_text(control) == "round ends 30:00.0 into the game"
    round_one(service, game, P)
    for name, amount in (("Anna", 300), ("Ben", 600), ("Cleo", 100), ("Dora", 0)):
        service.submit(game, A.Bet(player=name, amount=amount))
    service.submit(game, A.Draw(player="Ben", coal=0))
    head = service.load(game).head.seq
    assert service.apply_timeouts(game, now=ends - 1) == []  # 1 ms early: nothing
    made = service.apply_timeouts(game, now=ends)
    assert [(r.seq, r.actor, r.ts, r.event) for r in made] == [
        (head + 1, -1, ends - created, {"type": "clock_expired", "seat": -1, "limit": "round",
                                        "action": "adjudicate", "due": ends - created}),
        (head + 2, -1, ends - created, {"type": "adjudicated", "reason": REASON,
                                        "rule": "ATKR-H1"})]
    assert made[0].cmd == made[1].cmd  # one command (CLOCK-10)
    assert service.apply_timeouts(game, now=ends + MINUTE) == []  # once
    assert not running(service.load(game))  # ended: nothing more to look at
    with pytest.raises(IllegalCommand) as late:
        service.submit(game, A.Draw(player="Cleo", coal=0))
    assert late.value.rule == "DESK-8"
    check = verify_bytes(org.store.log_bytes(game))
    assert check.ok and check.finished, check.reason
    assert "finished: adjudicated at time by the referee (DESK-8)" in check.checks
    closed = org.close_round(t)
    assert closed["collected"] == 1 and closed["finished"]
    state = org.state(t)
    assert state.adjudicated[(1, 1)].at == ends and state.adjudicated[(1, 1)].forced is False
    result = state.results[(1, 1)]
    assert result.adjudicated == "ATKR-H1"
    assert list(result.values) == [700, 600, 600, 600] and list(result.places) == [1, 2, 2, 2]
    rows = by_player(org.standings(t))
    assert rows["Anna"]["points_exact"] == "6" and rows["Ben"]["points_exact"] == "7/3"
    assert rows["Ben"]["adjudicated"] == [1]
    assert org.standings(t)["notes"] == [
        f"round 1, table 1: adjudicated at time ({iso_time(ends, 0)}) by ATKR-H1: {REASON}"]
    assert verify_bytes(org.store.log_bytes(t)).ok
    assert describe_clock(made[0].event, P) == (
        f"The round's time ran out at {duration_text(ends - created)} into the game: the game "
        "is adjudicated at time (CLOCK-10, TOUR-8.5)")


def test_a_forged_early_round_timeout_and_a_move_after_the_deadline_fail_verify():
    org, t, game = _cup(30)
    store = org.store
    deadline = org.service.load(game).records[2].event["deadline"]
    head = store.head(game).seq
    maps = [{"type": "clock_expired", "seat": -1, "limit": "round", "action": "adjudicate",
             "due": deadline}, {"type": "adjudicated", "reason": REASON, "rule": "ATKR-H1"}]
    store.append(game, head, -1, None, maps, deadline - 1)  # 1 ms before the deadline
    bad = verify_bytes(store.log_bytes(game))
    assert not bad.ok and bad.first_bad_seq == head + 1 and "CLOCK-10" in bad.reason
    assert f"at {deadline - 1} ms was not due" in bad.reason

    org2, t2, game2 = _cup(30)
    store2 = org2.store
    deadline2 = org2.service.load(game2).records[2].event["deadline"]
    head2 = store2.head(game2).seq
    wrong = [dict(maps[0], due=deadline2), dict(maps[1], rule="CASTLE-H1")]
    store2.append(game2, head2, -1, None, wrong, deadline2)  # due, but the wrong rule
    bad2 = verify_bytes(store2.log_bytes(game2))
    assert not bad2.ok and bad2.first_bad_seq == head2 + 1 and "CLOCK-10" in bad2.reason

    org3, t3, game3 = _cup(30)
    store3 = org3.store
    deadline3 = org3.service.load(game3).records[2].event["deadline"]
    bet = {"type": "bet_placed", "seat": 0, "amount": 100}
    store3.append(game3, store3.head(game3).seq, 0, None, [bet], deadline3)  # too late
    bad3 = verify_bytes(store3.log_bytes(game3))
    assert not bad3.ok and "CLOCK-10" in bad3.reason


def test_no_round_time_no_time_control_and_old_bytes_kept():
    org = organiser()
    t = org.create(fixed(P, rounds=1, game="atkr", options={"physical": True}))
    game = org.pair(t, seating=[P])["tables"][0]["game"]
    assert "clock_set" not in _types(org, game)
    with pytest.raises(UsageError) as bad:
        checked(ClockSet(None, 0, None, "act", -1))
    assert "CLOCK-10" in bad.value.message
    with pytest.raises(UsageError) as none:
        checked(ClockSet(None, 0, None, "act"))  # neither a clock nor a deadline
    assert "CLOCK-1" in none.value.message
    assert RULES.events.to_map(ClockSet(60_000, 0, None, "act")) == {
        "type": "clock_set", "base": 60_000, "increment": 0, "move": None, "on_timeout": "act"}


def test_castle_adjudicate_after_the_deadline_takes_the_game_the_service_ended():
    """CASTLE-H1: four seats all take place 1 and share 6 + 4 + 2 + 1 = 13: 13/4 each, nobody
    wins (TOUR-3.2).  The organiser's ``adjudicate`` once the round time ran out finds the game
    ended by its deadline (CLOCK-10) and records only the stream's side (TOUR-8.5)."""
    from engine.tournament.adjudicate import adjudicate

    org = organiser()
    t = org.create(fixed(P, rounds=1, game="castle", round_time=10))
    game = org.pair(t, seating=[P])["tables"][0]["game"]  # a digital game
    ends = org.state(t).paired_at[1] + 10 * MINUTE
    org.service.clock = lambda: ends + 5  # the service's clock: 5 ms after the round's end
    done = adjudicate(org, t, 1, "slow table", at=ends + 5)
    assert done["rule"] == "CASTLE-H1" and done["forced"] is False and done["ends"] == ends
    assert done["result"]["places"] == [1] * 4 and done["result"]["winners"] == []
    assert done["result"]["points"] == ["13/4"] * 4
    records = org.service.load(game).records
    created = org.service.load(game).header.created
    assert [r.event for r in records[-2:]] == [
        {"type": "clock_expired", "seat": -1, "limit": "round", "action": "adjudicate",
         "due": ends - created},
        {"type": "adjudicated", "reason": REASON, "rule": "CASTLE-H1"}]
    assert records[-1].ts == ends + 5 - created  # recorded when it was looked at (CLOCK-9)
    assert "slow table" in org.standings(t)["notes"][0]
    check = verify_bytes(org.store.log_bytes(game))
    assert check.ok and check.finished, check.reason
    assert verify_bytes(org.store.log_bytes(t)).ok
