"""DESK-11: a bot-played seat decides from that seat's view only, and ``replace --back``
returns the seat to its player (the bot stops), recorded and verified.

Worked by hand (atkr, digital, seed 7, Anna, Ben, Cleo, Anna starts; setup records 1-2):

    #3  Anna bets 60 (sealed: Ben and Cleo see that she bet, not how much, ATKR-3.2)
    #4  the referee hands Ben's seat to the bot "cautious" (DESK-7)
    #5  the bot bets for Ben at once (bets are placed in any order)
    #6  the referee gives Ben's seat back (DESK-11)
    #7  Cleo bets 0; #8 the bets are revealed
    #9  Anna draws (the same first coal as every seed-7 game's), #10 she stops (ATKR-4.3):
        it is Ben's turn, and no bot plays it (the log stays at 10 records); #11 Ben draws
"""

from __future__ import annotations

import json

from engine.desk import commands as D
from engine.game import REFEREE
from engine.service import GameService
from engine.service.autoplay import bot_view
from engine.store import FileStore

from .helpers import devil, log_json, ok


def test_the_bot_decides_from_the_seats_view_only(tmp_path):
    service = GameService(FileStore(str(tmp_path / "store")))
    game = service.create("atkr", {"players": ["Anna", "Ben", "Cleo"], "first": "Anna"},
                          seed=7).game
    service.submit(game, {"type": "bet", "player": "Anna", "amount": 60}, actor=0)
    service.submit(game, D.ReplaceSeat(seat="Ben", bot="cautious", reason="left"),
                   actor=REFEREE)
    loaded = service.load(game)
    seen = bot_view(service, loaded, 1)
    # the referee knows Anna's 60 (the table holds it); Ben's seat only that she bet
    referee = service.state(game, REFEREE)
    assert (referee.bets[0], referee.money[0]) == (60, 140)
    assert seen.bets[0] is None and seen.money[0] != 140  # nothing of the 60 reaches it
    # the very state Ben's own token reads: the same view, field for field
    assert seen is service.state(game, 1)
    shown = service.view(game, 1)
    assert {k: v for k, v in loaded.rules.view(seen, 1).items()} == {
        k: v for k, v in shown.items() if k not in ("game", "version", "replaced")}


def test_replace_back_returns_the_seat_to_its_player(tmp_path):
    store = tmp_path / "store"
    game = ok(store, "new", "atkr", "--player", "Anna", "--player", "Ben", "--player", "Cleo",
              "--first", "Anna", "--seed", 7).splitlines()[0]
    ok(store, "bet", game, 60, "--as", "Anna")  # 3
    refused = devil(store, "replace", game, "Ben", "--back", "--reason", "nothing to return")
    assert refused.exit_code == 1 and "DESK-11" in refused.output
    both = devil(store, "replace", game, "Ben", "--back", "--bot", "cautious", "--reason", "x")
    assert both.exit_code == 2
    ok(store, "replace", game, "Ben", "--bot", "cautious", "--reason", "Ben had to leave")
    assert [(e["seq"], e["actor"], e["event"]["type"]) for e in log_json(store, game)[3:]] == [
        (4, -1, "seat_replaced"), (5, 1, "bet_placed")]
    as_ben = devil(store, "replace", game, "Ben", "--back", "--reason", "x", "--as", "Ben")
    assert as_ben.exit_code == 4 and "DESK-1" in as_ben.output
    ok(store, "replace", game, "Ben", "--back", "--reason", "Ben is back")  # 6
    ok(store, "bet", game, 0, "--as", "Cleo")  # 7, 8
    ok(store, "draw", game, "--as", "Anna")  # 9
    ok(store, "stop", game, "--as", "Anna")  # 10
    entries = log_json(store, game)
    assert [e["event"]["type"] for e in entries[5:]] == [
        "seat_returned", "bet_placed", "bets_revealed", "coal_drawn", "stopped"]
    view = json.loads(ok(store, "show", game, "--as", "Ben", "--json"))
    assert view["turn"] == "Ben" and "replaced" not in view
    assert view["returned"] == [{"seat": 1, "player": "Ben", "bot": "cautious", "from": 4,
                                 "to": 6}]
    again = devil(store, "replace", game, "Ben", "--back", "--reason", "twice")
    assert again.exit_code == 1 and "DESK-11" in again.output
    ok(store, "draw", game, "--as", "Ben")  # 11: Ben plays his own seat
    assert [(e["actor"], e["event"]["type"]) for e in log_json(store, game)[10:]] == [
        (1, "coal_drawn")]
    result = devil(store, "verify", game)
    assert result.exit_code == 0, result.output
