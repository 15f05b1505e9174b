"""A 3-round Auf Teufel komm raus event with a no-show in round 2 and a forfeit to a bot in
round 3, worked by hand (TOUR-7.2, 7.3; TOUR-3).

Points by place 6, 4, 2, 1, 0; tables of 3 or 4; fixed seating, physical games created by
``pair``.  Every game is played as :func:`helpers.quick_atkr` plays its own: after the game's
round 1 everyone has 600 and seat 0 700; in its round 2 a bet of 600 (the highest) ends at 1800
(seat 0: 2000), 300 at 900, 0 at 600, and the game ends.

Round 1
  table 1  A B C D   bets A 600, B 600, C 300, D 0 -> places 1 2 3 4 -> A 6, B 4, C 2, D 1
  table 2  E F G H   bets E 600, F 600, G 300, H 0 -> E 6, F 4, G 2, H 1
Round 2 (seating A E C G | B F D H): B does not turn up.  Table 2's game has no command yet
and atkr seats 2 to 6, so the table is made again as F D H (TOUR-7.2; B was seat 0, the start
player: F, the next seat, starts), a new game is created for it, and B takes the points of the
last of the 4 places the table was paired with: 1.  B is dropped from round 3.
  table 1  A E C G   bets A 600, E 600, C 300, G 0 -> A 6, E 4, C 2, G 1
  table 2  F D H     bets F 600, D 300, H 0 -> F 2000, D 900, H 600 -> F 6, D 4, H 2
Round 3 (seating A E F D | C G H): E leaves during table 1's game, after their devil in the
game's round 2.  The game has commands, so E's seat goes to a bot (TOUR-7.3; a
``seat_replaced`` record in the game's log, DESK-7); the bot has nothing left to decide.
  table 1  A E F D   bets A 600, E 600, F 300, D 0 -> places A 1, E 2, F 3, D 4.
           E takes the last place's points (4th: 1); A, F, D are placed among themselves:
           1st, 2nd, 3rd -> A 6, F 4, D 2
  table 2  C G H     bets C 600, G 300, H 0 -> C 6, G 4, H 2

Totals: A 18, F 14, E 11 (6 + 4 + 1), C 10, D 7 (1 + 4 + 2), G 7 (2 + 1 + 4), B 5 (4 + 1),
H 5 (1 + 2 + 2).
"""

import pytest

from engine.errors import IllegalCommand, UsageError
from engine.tournament import noshow_ops as ops

from .helpers import DEVIL, by_player, fixed, organiser
from engine.games.atkr import commands as A


def play(service, game: str, bets2: dict, after=None) -> None:
    """quick_atkr's two game rounds on ``game`` (created by ``pair``); ``after(name)`` is
    called after each round-2 devil drawn by ``name``."""
    players = service.players(game)
    drawer = players[0]
    for number, (bets, coals) in enumerate((({p: 200 for p in players}, [100, 100]),
                                            (bets2, [75, 75, 75] + [50] * 7 + [25])), 1):
        for name in players:
            service.submit(game, A.Bet(player=name, amount=bets[name]))
        for _ in range(len(players)):
            name = players[service.state(game).turn]
            if name == drawer:
                for coal in coals:
                    service.submit(game, A.Draw(player=name, coal=coal))
                service.submit(game, A.Stop(player=name))
            else:
                service.submit(game, A.Draw(player=name, coal=DEVIL))
                if number == 2 and after is not None:
                    after(name)


def run_event():
    d = organiser()
    svc = d.service
    t = d.create(fixed(list("ABCDEFGH"), rounds=3, size=(3, 4), game="atkr",
                       options={"physical": True}))
    out = {}
    d.pair(t, seating=[list("ABCD"), list("EFGH")])
    games = d.state(t).games
    play(svc, games[(1, 1)], {"A": 600, "B": 600, "C": 300, "D": 0})
    play(svc, games[(1, 2)], {"E": 600, "F": 600, "G": 300, "H": 0})
    d.close_round(t)

    d.pair(t, seating=[list("AECG"), list("BFDH")])
    out["old"] = d.state(t).games[(2, 2)]
    out["r2"] = ops.forfeit(d, t, "B", "did not turn up")
    games = d.state(t).games
    play(svc, games[(2, 1)], {"A": 600, "E": 600, "C": 300, "G": 0})
    play(svc, games[(2, 2)], {"F": 600, "D": 300, "H": 0})
    d.close_round(t)

    d.pair(t, seating=[list("AEFD"), list("CGH")])
    games = d.state(t).games

    def leave(name):
        if name == "E":
            out["r3"] = ops.forfeit(d, t, "E", "left the hall")

    play(svc, games[(3, 1)], {"A": 600, "E": 600, "F": 300, "D": 0}, after=leave)
    play(svc, games[(3, 2)], {"C": 600, "G": 300, "H": 0})
    out["close"] = d.close_round(t)
    return d, t, out


@pytest.fixture(scope="module")
def event():
    return run_event()


def test_a_no_show_before_the_game_remakes_the_table(event):
    d, t, out = event
    r2 = out["r2"]
    assert (r2["remade"], r2["bot"], r2["table"], r2["players"]) == (True, None, 2, list("FDH"))
    assert r2["old_game"] == out["old"] and r2["game"] != out["old"]
    state = d.state(t)
    assert state.tables[2][1].players == list("FDH") and state.tables[2][1].first == "F"
    assert state.games[(2, 2)] == r2["game"] and out["old"] not in state.attached
    assert d.store.exists(out["old"])  # the old game stays in the store, unattached
    assert state.dropped["B"] == 3
    assert [tb.players for tb in state.tables[3]] == [list("AEFD"), list("CGH")]
    assert list(state.results[(2, 2)].points) == ["6", "4", "2"]


def test_a_forfeit_mid_game_hands_the_seat_to_a_bot(event):
    d, t, out = event
    r3 = out["r3"]
    assert (r3["remade"], r3["bot"], r3["table"]) == (False, "cautious", 1)
    game = r3["game"]
    desk = d.service.load(game).desk
    assert desk.replaced[1][0] == "cautious"  # E is seat 1
    result = d.state(t).results[(3, 1)]
    assert list(result.places) == [1, 2, 3, 4] and list(result.winners) == ["A"]
    assert list(result.points) == ["6", "1", "4", "2"]
    assert out["close"]["finished"]


def test_the_hand_worked_totals(event):
    d, t, _ = event
    rows = by_player(d.standings(t))
    expected = {"A": 18, "F": 14, "E": 11, "C": 10, "D": 7, "G": 7, "B": 5, "H": 5}
    assert {p: r["points"] for p, r in rows.items()} == expected
    assert rows["B"]["by_round"] == {"1": 4, "2": 1} and rows["B"]["dropped"]
    assert rows["E"]["by_round"] == {"1": 6, "2": 4, "3": 1}
    assert [r["player"] for r in d.standings(t)["standings"][:4]] == list("AFEC")


def test_the_stream_and_every_game_verify(event):
    from engine.replay import verify_bytes

    d, t, out = event
    check = verify_bytes(d.store.log_bytes(t))
    assert check.ok and check.finished, check.reason
    game = verify_bytes(d.store.log_bytes(out["r3"]["game"]))
    assert game.ok and game.finished, game.reason


def test_the_bundle_verifies(event, tmp_path):
    from engine.tournament.bundle import verify, write

    d, t, _ = event
    write(d.store, t, str(tmp_path / "b"))
    result = verify(str(tmp_path / "b"))
    assert result["ok"], result["problems"]


def test_a_forfeit_is_refused_with_its_rule_and_records_nothing(event):
    d, t, _ = event
    before = d.service.load(t).version
    with pytest.raises(IllegalCommand, match="TOUR-5.3"):  # finished
        ops.forfeit(d, t, "A", "late")
    fresh = organiser()
    t2 = fresh.create(fixed(list("ABCDE"), rounds=2, size=(2, 3), game="atkr",
                            options={"physical": True}))
    with pytest.raises(IllegalCommand, match="TOUR-7.2.*no round is open"):
        ops.forfeit(fresh, t2, "A", "late")
    fresh.pair(t2, seating=[list("AB"), list("CDE")])
    with pytest.raises(IllegalCommand, match="TOUR-7.2.*needs its reason"):
        ops.forfeit(fresh, t2, "C", "  ")
    v = fresh.service.load(t2).version
    # a table of 2: atkr seats at least 2, so it cannot be remade: a bot takes the seat
    done = ops.forfeit(fresh, t2, "A", "ill")
    assert (done["remade"], done["bot"]) == (False, "cautious")
    assert fresh.service.load(t2).version == v + 2  # player_forfeited, player_dropped
    with pytest.raises(UsageError, match="TOUR-7.2.*no player called 'Zed'"):  # exit 2
        ops.forfeit(fresh, t2, "Zed", "ill")
    assert d.service.load(t).version == before


def test_the_history_names_both_forfeits(event):
    """Every page's history (engine/tournament/history.py) shows the forfeits (issue 22.9)."""
    from engine.tournament.history import lines
    from engine.tournament.printing import Printer

    d, t, _ = event
    forfeits = [(h["round"], h["text"]) for h in lines(Printer(d.service).events(t))
                if h["kind"] == "forfeit"]
    assert forfeits == [
        (2, "B forfeits round 2, table 2: the table was made again without them "
            "(did not turn up)"),
        (3, "E forfeits round 3, table 1: their seat is played by the bot cautious "
            "(left the hall)")]


def test_a_bots_win_is_not_the_forfeiting_players():
    """TOUR-7.3 with TOUR-3.4: A forfeits mid-game and the bot playing A's seat wins the game.
    A takes the last place's points (1 at a table of 4 on 6,4,2,1,0); B, C, D are placed
    among themselves, 1st, 2nd, 3rd: 6, 4, 2.  The wins tiebreak counts no win for A (the
    bot's), and none for B (not a winner)."""
    from engine.tournament import events as ev
    from engine.tournament.noshow_events import PlayerForfeited
    from engine.tournament.printing import explain
    from engine.tournament.rules import evolve, initial, setup
    from engine.tournament.standings import compute

    state = initial()
    for event in setup(fixed(list("ABCD"), rounds=1, game="atkr",
                             options={"physical": True})):
        evolve(state, event)
    for event in [
            ev.RoundPaired(round=1, tables=[ev.PairedTable(players=list("ABCD"), first="A")],
                           byes=[], repeats=0),
            ev.GameAttached(round=1, table=1, game="atkr-aaaaaa", created=1),
            PlayerForfeited(round=1, table=1, player="A", reason="left", remade=False,
                            bot="cautious"),
            ev.ResultRecorded(round=1, table=1, game="atkr-aaaaaa", seq=9, link="00" * 32,
                              places=[1, 2, 3, 4], values=[2000, 1800, 900, 600],
                              winners=["A"], points=["1", "6", "4", "2"], measure="money",
                              share=True, scored=False)]:
        evolve(state, event)
    totals = {t.player: t for t in compute(state)}
    assert {p: t.wins for p, t in totals.items()} == {"A": 0, "B": 0, "C": 0, "D": 0}
    assert [t.player for t in compute(state)] == ["B", "C", "D", "A"]
    assert {p: d["wins"] for p, d in
            ((d["player"], d) for d in explain(state)["players"])}["A"] == {"total": 0,
                                                                             "games": []}
