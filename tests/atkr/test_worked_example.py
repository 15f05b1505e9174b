"""The worked example printed with the rules (shared/rules/atkr.md, 'The worked example')."""

from engine.games.atkr import events as ev

from .helpers import DEVIL, Table, of_type

PLAYERS = ["Gordon", "Pella", "Lucy", "Saul"]


def play_round_one():
    t = Table(PLAYERS, first="Gordon")
    t.bets(Gordon=100, Pella=120, Lucy=140, Saul=60)
    t.turn("Gordon", 50, 20, 20, DEVIL)       # busts with 90 showing
    t.turn("Pella", 100, 25, 10)               # 3 coals worth 135
    t.turn("Lucy", 25, DEVIL)                  # busts
    mark = len(t.events)
    t.turn("Saul", 10, 10, 10, 20)             # 4 coals worth 50
    return t, t.since(mark)


def test_worked_example_money_after_round_one():
    t, _ = play_round_one()
    # Gordon 200+100, Pella 200+120+50, Lucy 200-140, Saul 200+60+50
    assert [t.money(p) for p in PLAYERS] == [300, 370, 60, 310]


def test_worked_example_payouts_in_order():
    t, tail = play_round_one()
    g, p, lu, s = range(4)
    assert of_type(tail, ev.BetWon) == [
        ev.BetWon(g, 100, 100, "ATKR-5.3"),
        ev.BetWon(p, 120, 120, "ATKR-5.3"),   # not the highest bet: no double
        ev.BetWon(s, 60, 60, "ATKR-5.3"),
    ]
    assert of_type(tail, ev.BetLost) == [ev.BetLost(lu, 140)]  # highest bet lost: nobody doubles
    assert of_type(tail, ev.PrizePaid) == [ev.PrizePaid(p, 50, "ATKR-5.6"),
                                           ev.PrizePaid(s, 50, "ATKR-5.7")]


def test_worked_example_lucy_alone_in_last_place_holds_the_pact():
    t, tail = play_round_one()
    placed = of_type(tail, ev.PawnsPlaced)[0]
    # 300 -> the 300 space (4); 370 and 310 share 300..500 (5); 60 is between 0-50 and 200 (1)
    assert placed.spaces == [4, 5, 1, 5]
    assert placed.pacts == [2]
    assert placed.pact_money == [60]
    assert t.state.round == 2 and t.state.start == 1  # ATKR-2.1: Pella starts round 2
