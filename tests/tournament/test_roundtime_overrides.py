"""TOUR-7.4 with TOUR-8.5: a round time puts the round's end on every game's clock as a
``clock_set`` record after its creation; that record is not a command of the table, so seats
are still swapped (and a table made again) before the game has begun."""

from engine.games.atkr import commands as A
from engine.tournament import noshow_ops as ops

from .helpers import organiser

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def test_a_swap_before_the_first_bet_of_a_round_with_a_round_time():
    d = organiser()
    t = d.create({"name": "Timed", "game": "atkr", "rounds": 1, "table_size": [4, 4],
                  "players": PLAYERS, "seed": 5, "round_time": 45})
    one, two = d.pair(t)["tables"]
    assert any(e.TYPE == "clock_set" for e in d.service.load(one["game"]).events)
    assert not ops.has_command(d, one["game"])
    out = ops.swap(d, t, one["players"][1], two["players"][1], "Ben needs the door")
    assert [row["old_game"] for row in out["tables"]] == [one["game"], two["game"]]
    new = out["tables"][0]["game"]
    d.service.submit(new, A.Bet(player=d.state(t).tables[1][0].players[0], amount=10))
    assert ops.has_command(d, new)  # a bet is a command
