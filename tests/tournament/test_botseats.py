"""TOUR-13: how a tournament counts a seat a bot played after the referee handed it over at
the desk (``devil replace``, DESK-7; not a forfeit), and one given back (``--back``, DESK-11).

One round of Auf Teufel komm raus on 6, 4, 2, 1, 0, two tables of 4, physical games played as
:func:`tests.tournament.test_noshow.play` plays them: after the game's round 1 everyone has
600 and seat 0 700; in its round 2 a bet of 600 (the highest) ends at 1800 (seat 0: 2000), 300
at 900 and 0 at 600, and the game ends.

  table 1  A B C D   bets A 600, B 600, C 300, D 0 -> places 1 2 3 4.  B leaves after the
           devil in the game's round 2 and the referee hands B's seat to a bot, which plays
           it to the end (TOUR-13.1): B takes the last place's points (1); A, C, D are placed
           among themselves, 1st, 2nd, 3rd: 6, 4, 2.  B is not dropped.
  table 2  E F G H   bets E 600, F 600, G 300, H 0 -> places 1 2 3 4.  F's seat goes to a bot
           after F's devil and comes back at once (TOUR-13.2): the result is F's own, 6, 4,
           2, 1 as placed.
"""

from __future__ import annotations

from engine.desk import commands as D
from engine.game import REFEREE

from .helpers import by_player, fixed, organiser
from .test_noshow import play


def test_a_seat_a_bot_played_to_the_end_and_one_given_back(tmp_path):
    from engine.replay import verify_bytes
    from engine.tournament.bundle import verify, write

    d = organiser()
    svc = d.service
    t = d.create(fixed(list("ABCDEFGH"), rounds=1, game="atkr", options={"physical": True}))
    d.pair(t, seating=[list("ABCD"), list("EFGH")])
    games = d.state(t).games

    def leave(name):
        game = games[(1, 1)] if name in "ABCD" else games[(1, 2)]
        if name in ("B", "F"):
            svc.submit(game, D.ReplaceSeat(seat=name, bot="cautious", reason="left"),
                       actor=REFEREE)
        if name == "F":
            svc.submit(game, D.ReturnSeat(seat="F", reason="F is back"), actor=REFEREE)

    play(svc, games[(1, 1)], {"A": 600, "B": 600, "C": 300, "D": 0}, after=leave)
    play(svc, games[(1, 2)], {"E": 600, "F": 600, "G": 300, "H": 0}, after=leave)
    d.close_round(t)
    state = d.state(t)
    one, two = state.results[(1, 1)], state.results[(1, 2)]
    assert (one.bots, one.returned, list(one.places)) == (["B"], None, [1, 2, 3, 4])
    assert list(one.points) == ["6", "1", "4", "2"]  # A, B (last place's), C, D
    assert (two.bots, two.returned) == (None, ["F"])
    assert list(two.points) == ["6", "4", "2", "1"]  # as placed: F's own result
    rows = by_player(d.standings(t))
    assert {p: r["points"] for p, r in rows.items()} == {
        "A": 6, "B": 1, "C": 4, "D": 2, "E": 6, "F": 4, "G": 2, "H": 1}
    assert rows["B"]["bot"] == [1] and rows["F"]["returned"] == [1]
    assert not rows["B"]["dropped"]  # the desk's replacement drops nobody
    notes = d.standings(t)["notes"]
    assert any("a bot played B to the end" in n and "TOUR-13.1" in n for n in notes)
    assert any("a bot played F for a while" in n and "TOUR-13.2" in n for n in notes)
    # the stream re-decides the results (TOUR-13.3), and the bundle's check reads the
    # bot-played seats from each game's log again
    assert verify_bytes(d.store.log_bytes(t)).ok
    write(d.store, t, str(tmp_path / "b"))
    checked = verify(str(tmp_path / "b"))
    assert checked["ok"], checked["problems"]
