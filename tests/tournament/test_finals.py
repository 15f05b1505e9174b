"""Finals (TOUR-10), worked by hand: a 3-round event (2 Swiss rounds, then a final table of
4), a top cut to 2 final tables, and the refusals.

Every game is :func:`helpers.quick_atkr`: after round 1 seat 0 has 700 and everyone else
600; in round 2 a bet b < 600 ends at 600 + b (seat 0: 800 + b), a bet of 600 (the highest)
at 1800 (seat 0: 2000).  Points 6, 4, 2, 1, 0; tiebreaks opponents, money, wins.

Round 1 (fixed seating, tables of 4)
  table 1  Ann Ben Cat Dan  bets 600 600 200 0   -> 2000 1800 800 600: Ann 6, Ben 4, Cat 2, Dan 1
  table 2  Eve Fay Gus Hal  bets 600 300 100 0   -> 2000 900 700 600:  Eve 6, Fay 4, Gus 2, Hal 1
Round 2
  table 1  Ben Ann Fay Hal  bets 600 200 600 0   -> 2000 800 1800 600: Ben 6, Fay 4, Ann 2, Hal 1
  table 2  Cat Eve Dan Gus  bets 600 200 600 0   -> 2000 800 1800 600: Cat 6, Dan 4, Eve 2, Gus 1

Swiss totals: Ben 10; Ann, Cat, Eve, Fay 8; Dan 5; Gus 3; Hal 2.
Four players on 8 for places 2 to 4: the cut line is decided by opponents' points (TOUR-10.2):
  Ann: Ben 10 + Cat 8 + Dan 5 (round 1) + Ben 10 + Fay 8 + Hal 2 (round 2) = 43
  Cat: Ann 8 + Ben 10 + Dan 5 + Eve 8 + Dan 5 + Gus 3 = 39
  Fay: Eve 8 + Gus 3 + Hal 2 + Ben 10 + Ann 8 + Hal 2 = 33
  Eve: Fay 8 + Gus 3 + Hal 2 + Cat 8 + Dan 5 + Gus 3 = 29   -> Eve is 5th: out of the final
Swiss ranking: Ben, Ann, Cat, Fay, Eve, Dan, Gus, Hal.

The final (round 3): Ben Ann Cat Fay in Swiss order, Ben starts (TOUR-10.3).
  bets Ben 0, Ann 200, Cat 600, Fay 600 -> Ben 800, Ann 800, Cat 1800, Fay 1800
  places: Cat and Fay 1st, Ben and Ann 3rd; equal places go by Swiss rank (TOUR-10.4):
Final ranking: Cat, Fay, Ben, Ann, then Eve, Dan, Gus, Hal (Swiss rank).
The final's points count nowhere: the standings' points stay the Swiss ones.
"""

import pytest

from engine.errors import IllegalCommand, UsageError
from engine.replay import verify_bytes
from engine.tournament.finals import snake

from .helpers import by_player, fixed, organiser, quick_atkr

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
SWISS = ["Ben", "Ann", "Cat", "Fay", "Eve", "Dan", "Gus", "Hal"]


def swiss_rounds(check_in: bool = False, **final):
    from engine.tournament.noshow_events import CheckIn

    d = organiser()
    t = d.create(fixed(PLAYERS, game="atkr", options={"physical": True}, **final,
                       **({"check_in": True} if check_in else {})))
    svc = d.service
    for tables, bets in (
            ([["Ann", "Ben", "Cat", "Dan"], ["Eve", "Fay", "Gus", "Hal"]],
             [{"Ann": 600, "Ben": 600, "Cat": 200, "Dan": 0},
              {"Eve": 600, "Fay": 300, "Gus": 100, "Hal": 0}]),
            ([["Ben", "Ann", "Fay", "Hal"], ["Cat", "Eve", "Dan", "Gus"]],
             [{"Ben": 600, "Ann": 200, "Fay": 600, "Hal": 0},
              {"Cat": 600, "Eve": 200, "Dan": 600, "Gus": 0}])):
        if check_in:  # everyone checks in for each Swiss round (TOUR-7.1)
            for player in PLAYERS:
                d.submit(t, CheckIn(player=player))
        d.pair(t, seating=tables, games=False)
        for table, bet in zip(tables, bets):
            d.attach(t, quick_atkr(svc, table, bet))
        d.close_round(t)
    return d, t


def test_a_three_round_event_with_a_final_table():
    d, t = swiss_rounds(final_table=4)
    s = d.standings(t)
    assert not s["finished"] and s["closed"] == 2 and s["final_table"] == 4
    assert [r["player"] for r in s["standings"]] == SWISS
    rows = by_player(s)
    assert {n: (rows[n]["points"], rows[n]["opponents_points"]) for n in PLAYERS} == {
        "Ann": (8, 43), "Ben": (10, 39), "Cat": (8, 39), "Dan": (5, 45), "Eve": (8, 29),
        "Fay": (8, 33), "Gus": (3, 39), "Hal": (2, 45)}
    assert all(not r["finalist"] and r["final_place"] is None for r in s["standings"])
    # the final: the top 4 in Swiss order, Swiss rank 1 starts
    with pytest.raises(UsageError, match="TOUR-10.2"):
        d.pair(t, seating=[SWISS[:4]], games=False)
    paired = d.pair(t, games=False)
    assert paired["round"] == 3 and paired["final"] and paired["byes"] == []
    assert [(r["players"], r["first"]) for r in paired["tables"]] == [
        (["Ben", "Ann", "Cat", "Fay"], "Ben")]
    during = by_player(d.standings(t))
    assert during["Cat"]["finalist"] and during["Cat"]["final_place"] is None
    assert not during["Eve"]["finalist"]
    with pytest.raises(IllegalCommand, match="TOUR-5.2"):
        d.close_round(t)
    done = d.attach(t, quick_atkr(d.service, ["Ben", "Ann", "Cat", "Fay"],
                                  {"Ben": 0, "Ann": 200, "Cat": 600, "Fay": 600}))
    assert done["result"]["money"] == [800, 800, 1800, 1800]
    assert done["result"]["places"] == [3, 3, 1, 1]
    closed = d.close_round(t)
    assert closed["finished"]
    s = d.standings(t)
    assert s["finished"]
    order = ["Cat", "Fay", "Ben", "Ann", "Eve", "Dan", "Gus", "Hal"]
    assert [r["player"] for r in s["standings"]] == order
    assert [r["rank"] for r in s["standings"]] == list(range(1, 9))
    assert [(r["swiss_rank"], r["final_place"]) for r in s["standings"]] == [
        (3, 1), (4, 1), (1, 3), (2, 3), (5, None), (6, None), (7, None), (8, None)]
    rows = by_player(s)
    assert rows["Cat"]["points"] == 8 and rows["Cat"]["played"] == 2  # the final adds none
    assert d.state(t).ranking == order
    with pytest.raises(IllegalCommand, match="TOUR-5.3"):
        d.pair(t, games=False)
    check = verify_bytes(d.store.log_bytes(t))  # every command re-decided, the final's too
    assert check.ok and check.finished


def test_a_top_cut_to_two_final_tables():
    """All 8 at 2 final tables of 4, by the snake (TOUR-10.3): seeds 1 4 5 8 and 2 3 6 7.
      table 1  Ben Fay Eve Hal  bets 0 600 600 200 -> 800 1800 1800 800: places 3 1 1 3
      table 2  Ann Cat Dan Gus  bets 600 0 600 300 -> 2000 600 1800 900: places 1 4 2 3
    Place 1: Ann (Swiss 2), Fay (4), Eve (5); place 2: Dan (6); place 3: Ben (1), Gus (7),
    Hal (8); place 4: Cat (3)."""
    d, t = swiss_rounds(final_table=4, final_tables=2)
    paired = d.pair(t, games=False)
    assert [(r["players"], r["first"]) for r in paired["tables"]] == [
        (["Ben", "Fay", "Eve", "Hal"], "Ben"), (["Ann", "Cat", "Dan", "Gus"], "Ann")]
    d.attach(t, quick_atkr(d.service, ["Ben", "Fay", "Eve", "Hal"],
                           {"Ben": 0, "Fay": 600, "Eve": 600, "Hal": 200}))
    d.attach(t, quick_atkr(d.service, ["Ann", "Cat", "Dan", "Gus"],
                           {"Ann": 600, "Cat": 0, "Dan": 600, "Gus": 300}))
    d.close_round(t)
    s = d.standings(t)
    assert [(r["player"], r["final_table"], r["final_place"]) for r in s["standings"]] == [
        ("Ann", 2, 1), ("Fay", 1, 1), ("Eve", 1, 1), ("Dan", 2, 2), ("Ben", 1, 3),
        ("Gus", 2, 3), ("Hal", 1, 3), ("Cat", 2, 4)]
    assert verify_bytes(d.store.log_bytes(t)).ok


def test_snake():
    assert snake(list("12345678"), 2) == [list("1458"), list("2367")]
    assert snake(list("123456"), 3) == [list("16"), list("25"), list("34")]


def test_refusals():
    d = organiser()
    for bad, rule in (({"final_table": 5}, "TOUR-10.1"), ({"final_table": 3}, "TOUR-10.1"),
                      ({"final_tables": 2}, "TOUR-10.1"),
                      ({"final_table": 4, "final_tables": 0}, "TOUR-10.1"),
                      ({"final_table": "4"}, "TOUR-10.1")):
        with pytest.raises(UsageError, match=rule):
            d.create(fixed(PLAYERS, game="atkr", options={"physical": True}, **bad))
    # too few left for the cut: 3 of 8 players after 5 dropped out, a final table of 4
    t = d.create(fixed(PLAYERS, rounds=1, game="atkr", options={"physical": True},
                       final_table=4))
    d.pair(t, seating=[PLAYERS[:4], PLAYERS[4:]], games=False)
    d.attach(t, quick_atkr(d.service, PLAYERS[:4], {p: 600 for p in PLAYERS[:4]}))
    d.attach(t, quick_atkr(d.service, PLAYERS[4:], {p: 600 for p in PLAYERS[4:]}))
    assert not d.close_round(t)["finished"]
    with pytest.raises(IllegalCommand, match="TOUR-10.2: the 1 Swiss round"):
        d.add(t, "Ivy")
    for name in PLAYERS[:5]:
        d.drop(t, name)
    version = d.service.load(t).version
    with pytest.raises(IllegalCommand, match="TOUR-10.2: the final needs 4 active players"):
        d.pair(t, games=False)
    assert d.service.load(t).version == version  # nothing recorded


def test_the_final_of_a_check_in_tournament_needs_no_check_in():
    """TOUR-10.2 with TOUR-7.1: check-in is for the Swiss rounds; the final is seated from the
    Swiss standings, here as in the event above: Ben, Ann, Cat, Fay, Ben starting."""
    d, t = swiss_rounds(check_in=True, final_table=4)
    paired = d.pair(t, games=False)
    assert [(row["players"], row["first"]) for row in paired["tables"]] == [
        (["Ben", "Ann", "Cat", "Fay"], "Ben")]
