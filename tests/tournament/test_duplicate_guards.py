"""What a duplicate round (TOUR-11) must not give away, and a seated table ended at time:
a table made again leaves an old game that draws nothing (TOUR-11.8); the public spectator
link shows no table of a duplicate round before the round closes (TOUR-11.7); a table with
seat entropy adjudicated at time reveals its seats' values, so its log verifies (DESK-8)."""

import pytest
from starlette.testclient import TestClient

from engine.errors import IllegalCommand
from engine.games.atkr import commands as A
from engine.replay import verify_bytes
from engine.store import MemoryStore
from engine.tournament import noshow_ops as ops
from engine.tournament.adjudicate import adjudicate
from engine.web import create_app

from .helpers import organiser
from .test_duplicate import PLAYERS, _sit, play

KEY = "organiser-key"
AUTH = {"Authorization": f"Bearer {KEY}"}


def _dup(d, **more):
    return d.create({"name": "Dup", "game": "atkr", "rounds": 1, "table_size": [4, 4],
                     "players": PLAYERS, "seed": 5, "duplicate": True, **more})


def test_the_old_game_of_a_swapped_table_draws_nothing():
    d = organiser()
    t = _dup(d)
    paired = d.pair(t)
    one, two = paired["tables"]
    ops.swap(d, t, one["players"][1], two["players"][1], "Ben needs the table by the door")
    old = one["game"]
    for name in one["players"]:
        d.service.submit(old, A.Bet(player=name, amount=10))  # a bet draws nothing: taken
    state = d.service.state(old)
    version = d.service.load(old).version
    with pytest.raises(IllegalCommand) as refused:
        d.service.submit(old, A.Draw(player=state.players[state.turn]))
    assert refused.value.rule == "TOUR-11.8" and d.service.load(old).version == version
    new = d.state(t).games[(1, 1)]
    assert new != old
    for name in d.state(t).tables[1][0].players:
        d.service.submit(new, A.Bet(player=name, amount=10))
    state = d.service.state(new)
    d.service.submit(new, A.Draw(player=state.players[state.turn]))  # the new table draws


def test_no_table_of_a_duplicate_round_is_public_before_the_round_closes():
    store = MemoryStore()
    d = organiser(store)
    t = _dup(d)
    games = [row["game"] for row in d.pair(t, game_seed=lambda r, n: 4256)["tables"]]
    play(d.service, games[0], stop_at=30)
    with TestClient(create_app(store, KEY)) as http:
        assert http.post(f"/tournaments/{t}/publish", json={"public": True},
                         headers=AUTH).status_code == 200
        for path in (f"/tournaments/{t}/watch/{games[0]}/data",
                     f"/tournaments/{t}/watch/{games[0]}"):
            hidden = http.get(path)  # table 1 has finished: its coals are table 2's to come
            assert hidden.status_code == 403 and "TOUR-11.7" in hidden.json()["error"]
        play(d.service, games[1], stop_at=60)
        d.close_round(t)
        shown = http.get(f"/tournaments/{t}/watch/{games[0]}/data")
        assert shown.status_code == 200 and shown.json()["round"] == 1


def test_a_seated_table_ended_at_time_reveals_its_seats_and_verifies():
    d = organiser()
    t = _dup(d, round_time=45)
    paired = d.pair(t, game_seed=lambda r, n: 4256, seat_entropy=True)
    for row in paired["tables"]:
        _sit(d.service, row["game"], row["players"],
             [f"{row['table']}{s}" * 32 for s in range(4)])
    game = paired["tables"][1]["game"]
    out = adjudicate(d, t, 2, "the round time is over", force=True)
    assert out["game"] == game
    check = verify_bytes(d.store.log_bytes(game))
    assert check.ok and check.finished, check.reason
    assert any("revealed value" in line for line in check.checks)


def test_the_old_game_of_a_swapped_seated_table_draws_nothing():
    """With seat entropy too: table 1 had sat when the swap made it again; once every seat of
    both new tables has sat, the old game's seats bet but cannot draw (TOUR-11.8)."""
    d = organiser()
    t = _dup(d)
    one, two = d.pair(t, seat_entropy=True)["tables"]
    _sit(d.service, one["game"], one["players"], [f"a{s}" * 32 for s in range(4)])
    ops.swap(d, t, one["players"][1], two["players"][1], "a player asked to change tables")
    state = d.state(t)
    for n in (1, 2):
        _sit(d.service, state.games[(1, n)], state.tables[1][n - 1].players,
             [f"{n}{s}" * 32 for s in range(4)])
    old = one["game"]
    for name in one["players"]:
        d.service.submit(old, A.Bet(player=name, amount=10))
    turn = d.service.state(old)
    with pytest.raises(IllegalCommand) as refused:
        d.service.submit(old, A.Draw(player=turn.players[turn.turn]))
    assert refused.value.rule == "TOUR-11.8"
