"""DESK-12.1 and 12.4 with a seat a bot plays, and a game that is over (worked by hand).

atkr, digital, seed 7, Anna, Ben, Cleo (setup records 1-2):

    #3  the referee hands Ben's seat to the bot "cautious"; #4 the bot bets for Ben
    #5  Anna bets 60 (sealed); #6 Anna asks to take #5 back
        Ben's seat neither asks nor answers (a bot's); Cleo is the only seat to consent:
    #7  Cleo consents, #8 granted: #5 void, Anna has her 200 again
    #9  the referee ends the game at time (DESK-8): nothing can be taken back any more
"""

from __future__ import annotations

import pytest

from engine.desk import commands as D
from engine.errors import IllegalCommand
from engine.game import REFEREE
from engine.service import GameService
from engine.store import MemoryStore


def test_a_bots_seat_neither_asks_nor_answers_and_an_ended_game_takes_nothing_back():
    service = GameService(MemoryStore())
    game = service.create("atkr", {"players": ["Anna", "Ben", "Cleo"], "first": "Anna"},
                          seed=7).game
    service.submit(game, D.ReplaceSeat(seat="Ben", bot="cautious", reason="left"),
                   actor=REFEREE)
    service.submit(game, {"type": "bet", "player": "Anna", "amount": 60}, actor=0)  # 5
    with pytest.raises(IllegalCommand, match="DESK-12.1: Ben's seat is played by the bot"):
        service.submit(game, {"type": "takeback"}, actor=1)
    asked = service.submit(game, {"type": "takeback"}, actor=0)
    assert [(r.seq, r.event["first"], r.event["last"]) for r in asked.records] == [(6, 5, 5)]
    with pytest.raises(IllegalCommand, match="DESK-12.4: Ben's seat is played by a bot"):
        service.submit(game, {"type": "takeback_answer", "consent": True}, actor=1)
    done = service.submit(game, {"type": "takeback_answer", "consent": True}, actor=2)
    assert [r.event["type"] for r in done.records] == ["takeback_answered", "takeback_granted"]
    state = service.state(game, REFEREE)
    assert (state.money[0], state.bets[0]) == (200, None)
    service.submit(game, D.AdjudicateGame(reason="time", rule="ATKR-H1"), actor=REFEREE)
    with pytest.raises(IllegalCommand, match="DESK-12.1: the game is over"):
        service.submit(game, {"type": "takeback"}, actor=2)
