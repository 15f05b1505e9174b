"""A 2-round Castle of the Devil event of 12 players at tables of 6, worked by hand (TOUR-3).

Every game is dealt from a deal (helpers.castle_deal: one relic each) and ends at once by
seat 0's declaration (CASTLE-9.2): right, their society wins; wrong, the other society wins.
Without the scoring variant every winner takes the first place's points (6) and every loser
the last place's at a table of 6: place 6, past the end of 6, 4, 2, 1, 0, so 0 (TOUR-3.2).

Round 1
  table 1  A B C D E F   order A, C, E; A declares with C, E: right -> A, C, E 6; B, D, F 0
  table 2  G H I J K L   order G, I, K; G declares with I, K: right -> G, I, K 6; H, J, L 0
Round 2
  table 1  A B G H D J   order A, G, H; A names B and D (brotherhood): wrong ->
                         the brotherhood B, D, J wins: 6 each; A, G, H 0
  table 2  C E I K F L   order C, I, F; C declares with I, F: right -> C, I, F 6; E, K, L 0

Totals: C 12, I 12; A, B, D, E, F, G, J, K 6; H 0, L 0.
Opponents' points:
  C: A 6 + B 6 + D 6 + E 6 + F 6 = 30, then E 6 + I 12 + K 6 + F 6 + L 0 = 30 -> 60
  I: G 6 + H 0 + J 6 + K 6 + L 0 = 18, then C 12 + E 6 + K 6 + F 6 + L 0 = 30 -> 48
  E: B 6 + A 6 + C 12 + D 6 + F 6 = 36, then C 12 + I 12 + K 6 + F 6 + L 0 = 36 -> 72
  F: 36 (as E), then C 12 + E 6 + I 12 + K 6 + L 0 = 36 -> 72
  A: B 6 + C 12 + D 6 + E 6 + F 6 = 36, then B 6 + G 6 + H 0 + D 6 + J 6 = 24 -> 60
  B, D: 36 and 24 -> 60;  K: G 6 + H 0 + I 12 + J 6 + L 0 = 24, then C 12 + E 6 + I 12 +
  F 6 + L 0 = 36 -> 60
  G: H 0 + I 12 + J 6 + K 6 + L 0 = 24, then A 6 + B 6 + H 0 + D 6 + J 6 = 24 -> 48; J: 48
  L: G 6 + H 0 + I 12 + J 6 + K 6 = 30, then C 12 + E 6 + I 12 + K 6 + F 6 = 42 -> 72
  H: G 6 + I 12 + J 6 + K 6 + L 0 = 30, then A 6 + B 6 + G 6 + D 6 + J 6 = 30 -> 60
Score (no scoring variant) is 0 for all; wins equal within each points group, so what
opponents' points leave tied goes to the seeded draw: C, I; then {E, F}, {A, B, D, K},
{G, J}; then L, H.
"""

from .helpers import by_player, castle_declared, fixed, organiser

PLAYERS = list("ABCDEFGHIJKL")


def test_a_hand_worked_castle_event():
    d = organiser()
    t = d.create(fixed(PLAYERS, size=(6, 6), game="castle", options={"physical": True}))
    svc = d.service
    d.pair(t, seating=[list("ABCDEF"), list("GHIJKL")], games=False)
    d.attach(t, castle_declared(svc, list("ABCDEF"), {"A", "C", "E"}, ["C", "E"]))
    d.attach(t, castle_declared(svc, list("GHIJKL"), {"G", "I", "K"}, ["I", "K"]))
    d.close_round(t)
    d.pair(t, seating=[list("ABGHDJ"), list("CEIKFL")], games=False)
    wrong = d.attach(t, castle_declared(svc, list("ABGHDJ"), {"A", "G", "H"}, ["B", "D"]))
    assert wrong["result"]["winners"] == ["B", "D", "J"]
    assert wrong["result"]["points"] == ["0", "6", "0", "0", "6", "6"]
    d.attach(t, castle_declared(svc, list("CEIKFL"), {"C", "I", "F"}, ["I", "F"]))
    d.close_round(t)
    s = d.standings(t)
    assert s["measure"] == "score" and s["finished"]
    rows = by_player(s)
    points = {"C": 12, "I": 12, "H": 0, "L": 0, **{p: 6 for p in "ABDEFGJK"}}
    opponents = {"C": 60, "I": 48, "E": 72, "F": 72, "A": 60, "B": 60, "D": 60, "K": 60,
                 "G": 48, "J": 48, "L": 72, "H": 60}
    for name in PLAYERS:
        assert rows[name]["points"] == points[name], name
        assert rows[name]["opponents_points"] == opponents[name], name
        assert rows[name]["score"] == 0 and rows[name]["played"] == 2
    order = [r["player"] for r in s["standings"]]
    assert order[:2] == ["C", "I"]
    assert set(order[2:4]) == {"E", "F"} and set(order[4:8]) == set("ABDK")
    assert set(order[8:10]) == {"G", "J"} and order[10:] == ["L", "H"]


def test_castle_scoring_variant_points_are_the_personal_scores():
    """CASTLE-10.3: A declares right with C and E, each holding one needed item: A scores 3,
    C and E 2 each, the losers 0; those scores are the tournament points (TOUR-3.3)."""
    d = organiser()
    players = list("ABCDEF")
    t = d.create(fixed(players, rounds=1, size=(6, 6), game="castle",
                       options={"physical": True, "variants": ["scoring"]}))
    d.pair(t, seating=[players], games=False)
    done = d.attach(t, castle_declared(d.service, players, {"A", "C", "E"}, ["C", "E"],
                                       variants=["scoring"]))
    assert done["result"]["points"] == ["3", "0", "2", "0", "2", "0"]
    assert done["result"]["score"] == [3, 0, 2, 0, 2, 0]
    d.close_round(t)
    rows = by_player(d.standings(t))
    assert (rows["A"]["points"], rows["C"]["points"], rows["B"]["points"]) == (3, 2, 0)
    assert rows["A"]["wins"] == 1 and rows["B"]["wins"] == 0
