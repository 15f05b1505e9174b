"""ATKR-1 (components and setup), and rules ATKR-4.5, 5.1 and 9.1 seen from a whole table.

Values worked by hand from docs/rules/atkr.md.
"""

import pytest

from engine.chance import SeededChance
from engine.errors import IllegalCommand, UnknownPlayer, UsageError
from engine.game import PUBLIC
from engine.games.atkr import RULES
from engine.games.atkr import events as ev
from engine.games.atkr.commands import Bet, Draw, Stop
from engine.games.atkr.state import COAL_COUNTS, COAL_KINDS, track_space
from engine.service import GameService
from engine.store import FileStore

from .helpers import DEVIL, Table, of_type

AB = ["Anna", "Ben"]
ABC = ["Anna", "Ben", "Cleo"]


def digital(players, seed, **options):
    chance = SeededChance(seed, "00")
    events = RULES.setup({"players": list(players), **options}, chance)
    return RULES.fold(events), chance


def test_1_2_all_48_coals_are_shuffled_into_the_furnace():
    state, _ = digital(AB, 1)
    assert state.furnace == list(COAL_COUNTS) and sum(state.furnace) == 48
    firsts = set()
    for seed in range(200):
        state, chance = digital(AB, seed, first="Anna")
        state = RULES.fold(RULES.decide(state, Bet("Anna", 0), chance), state)
        state = RULES.fold(RULES.decide(state, Bet("Ben", 0), chance), state)
        drawn = of_type(RULES.decide(state, Draw("Anna"), chance), ev.CoalDrawn)
        firsts.add(drawn[0].coal)
    assert firsts == set(COAL_KINDS)  # any coal, devils and both 100s included, can come first


def test_1_3_everyone_starts_with_200_and_the_bank_with_nothing():
    t = Table(["Anna", "Ben", "Cleo", "Dan"], first="Anna")
    assert t.state.money == [200, 200, 200, 200] and t.state.bank == 0
    assert t.events[0].start_money == 200
    assert [p["money"] for p in t.view(1)["players"]] == [None, 200, None, None]


def test_1_4_the_bank_is_unlimited_and_its_lowest_point_is_kept():
    t = Table(AB, first="Anna")
    t.bets(Anna=200, Ben=0)
    t.turn("Anna", 100, 100)                 # H = 200 with two coals
    t.turn("Ben", 10)
    # the bank pays 2 x 200 (ATKR-5.5) and both prizes (5.6, 5.7) from nothing: it is down 500
    assert t.money("Anna") == 200 + 400 + 100 and t.money("Ben") == 200
    assert t.state.bank == -500 and t.state.bank_low == -500
    t.bets(Anna=10, Ben=200)
    t.turn("Ben", DEVIL)                     # round 2 starts with Ben; he busts, H = 10
    t.turn("Anna", 10)
    assert t.state.bank == -500 + 200 - 10 - 100  # Ben's 200 lost; Anna's 10 doubled, prizes
    assert t.state.bank_low == -500             # the lowest point so far stays


def test_1_5_every_pawn_starts_on_the_200_space():
    t = Table(ABC, first="Anna")
    space = track_space(200, 50, [200, 300, 500, 700, 1000, 1300, 1600])
    assert t.state.spaces == [space] * 3
    assert [(p["track"], p["space"]) for p in t.view(PUBLIC)["players"]] == [("200", space)] * 3


def test_1_6_two_to_six_players_with_unique_names_in_seat_order():
    for players in (["Solo"], ["A", "B", "C", "D", "E", "F", "G"], ["Anna", "Anna"]):
        with pytest.raises(UsageError) as info:
            Table(players)
        assert "ATKR-1.6" in info.value.message
    for n in range(2, 7):
        names = ["Finn", "Eve", "Dan", "Cleo", "Ben", "Anna"][:n]
        assert RULES.seats(Table(names).state) == names  # seat order as given, not sorted


def test_1_7_the_start_player_is_given_or_drawn():
    t = Table(ABC, first="Cleo")
    assert t.events[0].first == 2 and not t.events[0].first_drawn
    assert t.events[1] == ev.RoundStarted(1, 2) and t.state.start == 2
    drawn = set()
    for seed in range(30):
        state, _ = digital(ABC, seed)
        assert state.players == ABC
        drawn.add(state.start)
    assert drawn == {0, 1, 2}
    first, _ = digital(ABC, 3)
    created = RULES.setup({"players": ABC}, SeededChance(3, "00"))[0]
    assert created.first_drawn and created.first == first.start
    assert Table(ABC).state.start == 0  # a physical game without a start player: the first seat


def test_4_5_a_devil_pays_the_pact_holders_at_once():
    t = Table(ABC, first="Anna")
    t.bets(Anna=200, Ben=0, Cleo=0)
    t.turn("Anna", DEVIL)
    t.turn("Ben", 10)
    t.turn("Cleo", DEVIL)
    assert t.state.pacts == [0] and t.money("Anna") == 0  # Anna lost everything: a pact (6.2)
    t.bets(Ben=0, Cleo=0)                    # Anna has no money and does not bet (3.3)
    events = t.draw("Ben", DEVIL)            # round 2 starts with Ben
    assert of_type(events, ev.PactPaid) == [ev.PactPaid(1, 1, 0, 50)]
    assert t.state.phase == "draw" and t.money("Anna") == 50 and t.money("Ben") == 250


def test_5_1_h_is_the_highest_total_laid_out_busted_players_lay_out_nothing():
    t = Table(ABC, first="Anna")
    t.bets(Anna=30, Ben=40, Cleo=0)
    t.turn("Anna", 10, 20)                   # 30 laid out
    t.turn("Ben", 100, DEVIL)                # 100 drawn, busted: nothing laid out
    tail = len(t.events)
    t.turn("Cleo", 20)
    events = t.since(tail)
    # H = 30: Anna's 30 wins (1x: the highest bet, Ben's 40, lost), Ben's 40 loses
    assert of_type(events, ev.BetWon) == [ev.BetWon(0, 30, 30, "ATKR-5.3")]
    assert of_type(events, ev.BetLost) == [ev.BetLost(1, 40)]
    assert of_type(events, ev.PrizePaid) == [ev.PrizePaid(0, 50, "ATKR-5.6"),
                                             ev.PrizePaid(0, 50, "ATKR-5.7")]


def test_9_1_a_refused_command_names_its_rule_and_records_nothing(tmp_path):
    service = GameService(FileStore(str(tmp_path)))
    game = service.create("atkr", {"players": AB, "first": "Anna"}, seed=5).game
    before = [r.seq for r, _ in service.stream(game)]
    for command, rule in ((Bet("Anna", 15), "ATKR-3.1"), (Bet("Anna", 210), "ATKR-3.1"),
                          (Draw("Anna"), "ATKR-2"), (Stop("Ben"), "ATKR-2"),
                          (Bet("Zed", 10), "ATKR-9.2")):
        # an unknown player is refused the same way, with exit 2 (UnknownPlayer)
        expected = UnknownPlayer if command.player == "Zed" else IllegalCommand
        with pytest.raises(expected) as info:
            service.submit(game, command)
        assert info.value.rule == rule
        assert info.value.message.startswith(rule) and len(info.value.message) > len(rule) + 10
        assert [r.seq for r, _ in service.stream(game)] == before
    service.submit(game, Bet("Anna", 10))
    with pytest.raises(IllegalCommand) as info:
        service.submit(game, Bet("Anna", 10))  # a second bet (ATKR-3.2)
    assert info.value.rule == "ATKR-3.2"
    assert len(service.stream(game)) == len(before) + 1
