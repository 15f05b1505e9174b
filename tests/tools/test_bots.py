"""Bots: legal moves only, through the service as their own seat; the cautious rules."""

from __future__ import annotations

import random

from engine.bots import make_bot, bot_names
from engine.games.atkr import RULES
from engine.games.atkr.bots import CautiousBot, expected_highest_total
from engine.games.atkr.commands import Bet, Draw, Stop
from engine.replay import open_log

from .helpers import bot_game, service


def test_registry():
    assert bot_names("atkr") == ["cautious", "random"]


def test_bots_play_as_their_own_seat_through_the_service(tmp_path):
    svc = service(tmp_path)
    for bot in ("random", "cautious"):
        game = bot_game(svc, 3, seed=9, bot=bot)
        log = open_log(svc.store.path(game))
        assert RULES.is_over(svc.load(game).state)
        state = RULES.initial()
        batch_first = True
        for record, event in zip(log.records, log.events):
            if batch_first and record.seq > 2:
                # a command's first event names the seat that acted: the actor is that seat
                assert record.actor == event.seat
            batch_first = record.left == 0
            state = RULES.evolve(state, event)


def table_state(furnace, coals, phase="draw", money=200):
    state = RULES.fold(RULES.setup({"players": ["A", "B"], "first": "A"}, _Chance()))
    state.phase = phase
    state.furnace = list(furnace)
    state.coals = [list(coals), []]
    state.turn = 0
    state.money = [money, money]
    return state


class _Chance:
    commitment = "0" * 64


def test_cautious_stops_when_the_devil_chance_passes_the_threshold():
    bot = CautiousBot(random.Random(1), threshold=0.2)
    legal = [Draw("A"), Stop("A")]
    # 2 devils in 10 coals: 20 %, not past 0.2: draw
    assert bot.choose(table_state([0, 0, 0, 0, 0, 8, 2], [10]), 0, legal) == Draw("A")
    # 3 devils in 10 coals: 30 %: stop
    assert bot.choose(table_state([0, 0, 0, 0, 0, 7, 3], [10]), 0, legal) == Stop("A")
    # the first coal is compulsory whatever the odds
    assert bot.choose(table_state([0, 0, 0, 0, 0, 1, 9], []), 0, [Draw("A")]) == Draw("A")


def test_cautious_bets_from_the_expected_highest_total():
    # five 10s and no devil: the first player draws all five: H = 50 every time
    assert expected_highest_total([0, 0, 0, 0, 0, 5, 0], 2, 0.2, random.Random(0)) == 50
    bot = CautiousBot(random.Random(1), share=0.8)
    state = table_state([0, 0, 0, 0, 0, 5, 0], [], phase="bet")
    legal = [Bet("A", a) for a in range(0, 201, 10)]
    assert bot.choose(state, 0, legal) == Bet("A", 40)  # 0.8 x 50
    # never more than it has
    state = table_state([0, 0, 0, 0, 0, 5, 0], [], phase="bet", money=30)
    assert bot.choose(state, 0, legal[:4]) == Bet("A", 30)


def test_random_bot_only_legal_commands():
    bot = make_bot("atkr", "random", random.Random(4))
    state = table_state([0, 0, 0, 0, 0, 5, 0], [], phase="bet", money=70)
    legal = [Bet("A", a) for a in range(0, 71, 10)]
    for _ in range(50):
        assert bot.choose(state, 0, legal) in legal
