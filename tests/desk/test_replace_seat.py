"""DESK-7: a seat handed to a bot by the referee, over HTTP with the seats' tokens; the bot
plays at once when the seat may act, every view shows the replacement, and a seat cannot give
it."""

from __future__ import annotations

import pytest

from engine.errors import IllegalCommand, NotAllowed

from ..service.conftest import App


def test_a_seat_handed_to_a_bot_over_http(tmp_path):
    app = App(tmp_path / "store")
    try:
        created = app.http.post("/games", json={"kind": "atkr", "options": {
            "players": ["Anna", "Ben"], "first": "Anna", "physical": True}}).json()
        game, tokens = created["game"], created["tokens"]
        referee, anna = app.remote(tokens["referee"]), app.remote(tokens["Anna"])
        with pytest.raises(NotAllowed, match="DESK-1"):
            anna.submit(game, {"type": "replace_seat", "seat": "Ben", "bot": "random",
                               "reason": "he left"}, None)
        anna.submit(game, {"type": "bet", "amount": 60}, None)
        referee.submit(game, {"type": "replace_seat", "seat": "Ben", "bot": "cautious",
                              "reason": "Ben had to leave"}, None)
        events = referee.events(game, None)
        # record 4 hands Ben's seat over; Ben still had to bet, so record 5 is the bot's bet,
        # recorded as Ben's seat (actor 1), and both bets are revealed (record 6)
        assert [(e["seq"], e["actor"], e["event"]["type"]) for e in events[3:]] == [
            (4, -1, "seat_replaced"), (5, 1, "bet_placed"), (6, 1, "bets_revealed")]
        assert events[3]["event"]["seat"] == 1 and events[4]["event"]["seat"] == 1
        seen = anna.view(game, None)
        assert seen["replaced"] == [{"seat": 1, "player": "Ben", "bot": "cautious",
                                     "reason": "Ben had to leave", "at": 4}]
        with pytest.raises(IllegalCommand, match="DESK-7.*already"):
            referee.submit(game, {"type": "replace_seat", "seat": "Ben", "bot": "random",
                                  "reason": "again"}, None)
    finally:
        app.close()


def test_bots_of_a_console_play_on_beside_a_seat_the_service_plays():
    """engine.bots.play_out beside a seat handed to the service's bot (DESK-7): after each of
    its commands it folds what the service's bot played too, so it never plays a turn that
    is no longer its own, and the game ends."""
    from engine.bots import make_bot, play_out
    from engine.desk import commands as D
    from engine.game import REFEREE
    from engine.service import GameService
    from engine.store import MemoryStore

    import random

    service = GameService(MemoryStore())
    game = service.create("atkr", {"players": ["Anna", "Ben", "Cleo"], "first": "Anna",
                                   "physical": False}).game
    service.submit(game, D.ReplaceSeat(seat="Ben", bot="cautious", reason="left"),
                   actor=REFEREE)
    bots = {seat: make_bot("atkr", "cautious", random.Random(seat)) for seat in (0, 2)}
    done = play_out(service, game, bots)
    assert done["over"] and not done["capped"]
    bets = [event.seat for _record, event in service.stream(game, REFEREE)
            if type(event).__name__ == "BetPlaced"]
    assert 1 in bets  # Ben's seat bet: the service's bot played it
