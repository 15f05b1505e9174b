"""A 2-round Auf Teufel komm raus event with physical games, worked by hand (TOUR-3):
tied places, a bye, a drop, and ties decided by opponents' points and by money.

Points by place 6, 4, 2, 1, 0 (the default); a bye is worth the middle place's, 2 (TOUR-2.4).
Every game is :func:`helpers.quick_atkr`: after round 1 everyone has 600 and seat 0 has 700;
in round 2, a bet of 600 (the highest) ends at 1800 (seat 0: 2000), 300 at 900, 0 at 600.

Round 1 (fixed seating, tables of 4; I has the bye: 2 points)
  table 1  A B C D   bets A 600, B 600, C 300, D 0 -> A 2000, B 1800, C 900, D 600
           places 1, 2, 3, 4 -> A 6, B 4, C 2, D 1
  table 2  E F G H   bets E 600, F 300, G 300, H 600 -> E 2000, H 1800, F 900, G 900
           F and G tie for 3rd and share 3rd and 4th: (2 + 1) / 2 = 1.5 each; E 6, H 4
D drops out after round 1 (TOUR-1.2).
Round 2
  table 1  A H C G   bets A 600, H 600, C 600, G 300 -> A 2000, H 1800, C 1800, G 900
           H and C tie for 2nd: (4 + 2) / 2 = 3 each; A 6, G (4th) 1
  table 2  B E F I   bets B 600, E 600, F 0, I 600 -> B 2000, E 1800, I 1800, F 600
           E and I tie for 2nd: 3 each; B 6, F (4th) 1

Totals: A 12, B 10, E 9, H 7, C 5, I 5 (2 + 3), G 2.5, F 2.5, D 1.
Opponents' points (each opponent's total, once per meeting):
  C: A 12 + B 10 + D 1 (round 1) + A 12 + H 7 + G 2.5 (round 2) = 44.5
  I: B 10 + E 9 + F 2.5 (round 2 only: the bye has no opponents) = 21.5  -> C above I
  F: E 9 + G 2.5 + H 7 + B 10 + E 9 + I 5 = 42.5
  G: E 9 + F 2.5 + H 7 + A 12 + H 7 + C 5 = 42.5  -> equal: the next tiebreak, money:
     G 900 + 900 = 1800, F 900 + 600 = 1500 -> G above F
  A: 10 + 5 + 1 + 7 + 5 + 2.5 = 30.5; B: 12 + 5 + 1 + 9 + 2.5 + 5 = 34.5;
  E: 2.5 + 2.5 + 7 + 10 + 2.5 + 5 = 29.5; H: 9 + 2.5 + 2.5 + 12 + 5 + 2.5 = 33.5;
  D: 12 + 10 + 5 = 27.
Wins (most money at the table, ATKR-8.2): A 2, B 1, E 1, the rest 0.
Ranking: A, B, E, H, C, I, G, F, D.
"""

from engine.errors import IllegalCommand

from .helpers import by_player, fixed, organiser, quick_atkr

import pytest

PLAYERS = list("ABCDEFGHI")


def run_event():
    d = organiser()
    t = d.create(fixed(PLAYERS, game="atkr", options={"physical": True}))
    svc = d.service
    d.pair(t, seating=[list("ABCD"), list("EFGH")], byes=["I"], games=False)
    g1 = quick_atkr(svc, list("ABCD"), {"A": 600, "B": 600, "C": 300, "D": 0})
    g2 = quick_atkr(svc, list("EFGH"), {"E": 600, "F": 300, "G": 300, "H": 600})
    first = d.attach(t, g1)
    d.attach(t, g2)
    d.close_round(t)
    d.drop(t, "D", "went home")
    with pytest.raises(IllegalCommand, match="TOUR-2.2.*D does not play round 2"):
        d.pair(t, seating=[list("AHCG"), list("BEFD")], games=False)
    d.pair(t, seating=[list("AHCG"), list("BEFI")], games=False)
    d.attach(t, quick_atkr(svc, list("AHCG"), {"A": 600, "H": 600, "C": 600, "G": 300}))
    d.attach(t, quick_atkr(svc, list("BEFI"), {"B": 600, "E": 600, "F": 0, "I": 600}))
    d.close_round(t)
    return d, t, first


def test_a_hand_worked_two_round_event():
    d, t, first = run_event()
    assert first["result"] == {"players": list("ABCD"), "places": [1, 2, 3, 4],
                               "money": [2000, 1800, 900, 600], "points": ["6", "4", "2", "1"],
                               "winners": ["A"]}
    s = d.standings(t)
    assert s["finished"] and s["round"] == 2 and s["measure"] == "money"
    assert [r["player"] for r in s["standings"]] == list("ABEHCIGFD")
    rows = by_player(s)
    expected = {  # points, opponents' points, money, wins, played, byes
        "A": (12, 30.5, 4000, 2, 2, 0), "B": (10, 34.5, 3800, 1, 2, 0),
        "E": (9, 29.5, 3800, 1, 2, 0), "H": (7, 33.5, 3600, 0, 2, 0),
        "C": (5, 44.5, 2700, 0, 2, 0), "I": (5, 21.5, 1800, 0, 1, 1),
        "G": (2.5, 42.5, 1800, 0, 2, 0), "F": (2.5, 42.5, 1500, 0, 2, 0),
        "D": (1, 27, 600, 0, 1, 0)}
    for name, (points, opp, money, wins, played, byes) in expected.items():
        row = rows[name]
        assert (row["points"], row["opponents_points"], row["money"], row["wins"],
                row["played"], row["byes"]) == (points, opp, money, wins, played, byes), name
    assert rows["D"]["dropped"] and not rows["A"]["dropped"]
    assert rows["F"]["points_exact"] == "5/2" and rows["F"]["by_round"] == {"1": 1.5, "2": 1}
    assert rows["I"]["by_round"] == {"1": 2, "2": 3}
    assert [r["rank"] for r in s["standings"]] == list(range(1, 10))


def test_the_stream_verifies_and_a_penalty_moves_a_player():
    from engine.replay import verify_bytes

    d, t, _ = run_event()
    check = verify_bytes(d.store.log_bytes(t))
    assert check.ok and check.finished, check.reason
    with pytest.raises(IllegalCommand, match="TOUR-5.3"):  # finished: nothing more
        d.adjust(t, "C", "-1", "late")


def test_a_penalty_is_an_event_with_its_reason():
    d = organiser()
    t = d.create(fixed(PLAYERS, game="atkr", options={"physical": True}))
    with pytest.raises(IllegalCommand, match="TOUR-3.5: a penalty or correction needs its reason"):
        d.adjust(t, "C", "-1", "  ")
    d.adjust(t, "C", "-1.5", "slow play")
    d.adjust(t, "B", "1/2", "scoring slip in round 1", kind="correction")
    rows = by_player(d.standings(t))
    assert rows["C"]["points_exact"] == "-3/2" and rows["B"]["points"] == 0.5
    assert rows["A"]["points"] == 0


def test_the_standings_page_charts_each_players_points_by_round():
    from engine.tournament.page import page

    d, t, _ = run_event()
    html = page(d.standings(t))
    assert html.count("<svg") == 9
    # F: 1.5 in round 1, 1 in round 2 (worked above); I: the bye's 2, then 3
    assert 'aria-label="points by round: round 1: 1.5, round 2: 1"' in html
    assert 'aria-label="points by round: round 1: 2, round 2: 3"' in html
    assert "D (dropped)" in html
    # the bars share one scale, the most anyone took in a round (6, a table won alone): F's
    # 1.5 is 1.5/6 of the 32-pixel bar height, 8.0, and its 1 is 5.3 (a bar scaled to F's own
    # best round would be 32 tall)
    f_chart = html.split("<td class=player>F</td>")[1].split("</svg>")[0]
    assert 'height="8.0" fill="#9ec5e8"><title>round 1: 1.5' in f_chart
    assert 'height="5.3" fill="#9ec5e8"><title>round 2: 1' in f_chart
