"""One or more tests per rule id ATKR-3 to ATKR-9, values worked by hand from docs/rules/atkr.md.

Games are physical (the test chooses every coal) unless a test says otherwise.
"""

import pytest

from engine.errors import IllegalCommand, UnknownPlayer, UsageError
from engine.game import PUBLIC
from engine.games.atkr import RULES
from engine.games.atkr import events as ev
from engine.games.atkr.state import track_space

from .helpers import DEVIL, Table, of_type

AB = ["Anna", "Ben"]
ABC = ["Anna", "Ben", "Cleo"]


def refused(rule, fn, *args):
    with pytest.raises(IllegalCommand) as info:
        fn(*args)
    assert info.value.rule == rule, info.value.message
    assert info.value.message.startswith(rule)
    return info.value


# -- ATKR-3: the devil's bet ----------------------------------------------------------------------
def test_3_1_bet_is_a_multiple_of_10_up_to_all_money():
    t = Table(AB, first="Anna")
    refused("ATKR-3.1", t.bet, "Anna", 25)
    refused("ATKR-3.1", t.bet, "Anna", -10)
    refused("ATKR-3.1", t.bet, "Anna", 210)
    events = t.bet("Anna", 200)  # all of it is allowed
    assert events == [ev.BetPlaced(0, 200)]
    assert t.money("Anna") == 0


def test_3_1_zero_is_a_bet():
    t = Table(AB, first="Anna")
    t.bet("Anna", 0)
    events = t.bet("Ben", 0)
    assert events[-1] == ev.BetsRevealed([0, 0])
    assert t.state.phase == "draw"


def test_3_2_bets_are_secret_until_all_are_in():
    t = Table(ABC, first="Anna")
    t.bet("Anna", 70)
    t.bet("Ben", 40)
    # Cleo sees that Anna and Ben have bet, but no amount, and no money for them
    cleo = t.view(2)
    assert [p["bet"] for p in cleo["players"]] == [None, None, None]
    assert [p["has_bet"] for p in cleo["players"]] == [True, True, False]
    # Anna sees her own bet and money only
    anna = t.view(0)
    assert anna["players"][0]["bet"] == 70 and anna["players"][0]["money"] == 130
    assert anna["players"][1]["bet"] is None and anna["players"][1]["money"] is None
    assert RULES.redact(ev.BetPlaced(0, 70), 1) == ev.BetPlaced(0, None)
    assert RULES.redact(ev.BetPlaced(0, 70), PUBLIC) == ev.BetPlaced(0, None)
    events = t.bet("Cleo", 10)
    assert events == [ev.BetPlaced(2, 10), ev.BetsRevealed([70, 40, 10])]
    assert [p["bet"] for p in t.view(2)["players"]] == [70, 40, 10]


def test_3_2_a_second_bet_is_refused():
    t = Table(ABC, first="Anna")
    t.bet("Anna", 70)
    refused("ATKR-3.2", t.bet, "Anna", 10)
    assert t.state.bets[0] == 70 and t.money("Anna") == 130


def test_3_3_a_player_without_money_does_not_bet_but_draws():
    t = Table(AB, first="Anna")
    t.bets(Anna=200, Ben=0)
    t.turn("Anna", DEVIL)        # Anna busts: H = 0 ...
    t.turn("Ben", DEVIL)         # ... Ben busts too: Anna's 200 goes to the bank
    assert t.money("Anna") == 0
    assert t.state.round == 2 and t.state.phase == "bet"
    refused("ATKR-3.3", t.bet, "Anna", 0)
    events = t.bet("Ben", 30)    # the only bettor: bets are revealed at once
    assert events[-1] == ev.BetsRevealed([0, 30])
    assert t.state.turn == 1     # round 2 starts with Ben (ATKR-2.1) ...
    t.turn("Ben", 10)
    assert t.state.turn == 0     # ... and Anna still takes her turn


def test_3_4_a_bet_is_won_by_anyones_total():
    t = Table(AB, first="Anna")
    t.bets(Anna=50, Ben=0)
    t.turn("Anna", DEVIL)
    tail = len(t.events)
    t.turn("Ben", 50)            # Ben's 50 wins Anna's bet of 50
    assert of_type(t.since(tail), ev.BetWon) == [ev.BetWon(0, 50, 100, "ATKR-5.5")]


def test_3_5_the_bet_leaves_spendable_money():
    t = Table(AB, first="Anna")
    t.bet("Anna", 120)
    assert t.money("Anna") == 80 and t.state.table[0] == 120


# -- ATKR-4: pulling coals ------------------------------------------------------------------------
def test_4_1_turns_go_clockwise_from_the_start_player():
    t = Table(ABC, first="Ben")
    t.bets(Anna=0, Ben=0, Cleo=0)
    assert t.state.turn == 1
    refused("ATKR-4.1", t.draw, "Anna", 10)
    t.turn("Ben", 10)
    assert t.state.turn == 2
    t.turn("Cleo", 10)
    assert t.state.turn == 0


def test_4_1_drawing_during_phase_1_is_refused():
    t = Table(AB, first="Anna")
    refused("ATKR-2", t.draw, "Anna", 10)
    refused("ATKR-2", t.stop, "Anna")


def test_4_2_at_least_one_coal_and_no_drawing_after_stopping():
    t = Table(AB, first="Anna")
    t.bets(Anna=0, Ben=0)
    refused("ATKR-4.2", t.stop, "Anna")
    t.turn("Anna", 25)
    refused("ATKR-4.1", t.draw, "Anna", 10)  # she stopped: it is Ben's turn


def test_4_3_and_4_4_stopping_lays_out_a_total_busting_lays_out_nothing():
    t = Table(ABC, first="Anna")
    t.bets(Anna=0, Ben=0, Cleo=0)
    t.turn("Anna", 25, 75)
    assert t.state.total(0) == 100 and t.state.laid_out(0)
    t.draw("Ben", 100)
    t.draw("Ben", DEVIL)
    assert t.state.busted[1] and t.state.total(1) == 0 and not t.state.laid_out(1)


def test_4_4_busting_does_not_touch_the_bet():
    t = Table(AB, first="Anna")
    t.bets(Anna=0, Ben=60)
    t.turn("Anna", 50, 20)                   # H = 70
    tail = len(t.events)
    t.turn("Ben", DEVIL)                     # Ben busts but his 60 <= 70 wins, doubled (highest)
    assert of_type(t.since(tail), ev.BetWon) == [ev.BetWon(1, 60, 120, "ATKR-5.5")]
    assert t.money("Ben") == 200 - 60 + 60 + 120


def test_4_6_the_last_coal_ends_the_phase_and_the_rest_score_nothing():
    t = Table(ABC, first="Anna", ring=0)
    numbered = [100] * 2 + [75] * 3 + [50] * 7 + [25] * 9 + [20] * 9 + [10] * 8  # all but one 10
    t.bets(Anna=0, Ben=0, Cleo=0)
    t.turn("Anna", *numbered)                 # 38 coals
    t.turn("Ben", DEVIL)
    t.turn("Cleo", DEVIL)                     # left: one 10 and 7 devils (8 > ring 0: no refill)
    assert t.state.left_in_furnace() == 8 and t.state.round == 2
    for _ in range(2):                        # rounds 2 and 3: everyone busts, 6 more devils
        t.bets(Anna=0, Ben=0, Cleo=0)
        for seat in range(3):
            t.turn(t.names[t.state.turn], DEVIL)
    assert t.state.round == 4 and t.state.start == 0
    assert t.state.furnace == [0, 0, 0, 0, 0, 1, 1]  # one 10, one devil
    t.bets(Anna=0, Ben=0, Cleo=0)
    t.turn("Anna", DEVIL)
    tail = len(t.events)
    t.draw("Ben", 10)                         # the last coal: Ben keeps it, the phase ends
    events = t.since(tail)
    # Cleo had no turn: not busted, scores 0; Ben has the highest total and the most coals
    assert of_type(events, ev.PrizePaid) == [ev.PrizePaid(1, 50, "ATKR-5.6"),
                                             ev.PrizePaid(1, 50, "ATKR-5.7")]
    assert of_type(events, ev.FurnaceRefilled) == [ev.FurnaceRefilled(0)]
    assert not of_type(events, ev.Stopped)
    assert t.state.round == 5 and t.state.left_in_furnace() == 48


# -- ATKR-5: the winnings -------------------------------------------------------------------------
def test_5_3_an_exact_tie_wins_and_5_5_the_highest_bet_is_doubled():
    t = Table(ABC, first="Anna")
    t.bets(Anna=70, Ben=70, Cleo=20)
    t.turn("Anna", 50, 20)                   # H = 70
    t.turn("Ben", DEVIL)
    tail = len(t.events)
    t.turn("Cleo", 10)
    won = of_type(t.since(tail), ev.BetWon)
    # two players share the highest bet and both win: both are paid 2x; Cleo 1x
    assert won == [ev.BetWon(0, 70, 140, "ATKR-5.5"), ev.BetWon(1, 70, 140, "ATKR-5.5"),
                   ev.BetWon(2, 20, 20, "ATKR-5.3")]
    # Anna: 200-70 +70+140 (bet) +50 +50 (both prizes: 70 is H, 2 coals is the most)
    assert [t.money(p) for p in ABC] == [440, 340, 220]


def test_5_4_and_5_8_everyone_busts():
    t = Table(AB, first="Anna")
    t.bets(Anna=10, Ben=0)
    t.turn("Anna", 25, DEVIL)
    tail = len(t.events)
    t.turn("Ben", DEVIL)
    events = t.since(tail)
    assert of_type(events, ev.BetLost) == [ev.BetLost(0, 10)]  # H = 0 < 10
    assert of_type(events, ev.PrizePaid) == []                  # ATKR-5.8
    assert t.money("Anna") == 190 and t.state.bank == 10


def test_5_6_and_5_7_prizes_shared_on_ties():
    t = Table(ABC, first="Anna")
    t.bets(Anna=0, Ben=0, Cleo=0)
    t.turn("Anna", 50, 25)                   # 75 with 2 coals
    t.turn("Ben", 75)                        # 75 with 1 coal
    tail = len(t.events)
    t.turn("Cleo", 10, 20)                   # 30 with 2 coals
    prizes = of_type(t.since(tail), ev.PrizePaid)
    assert prizes == [ev.PrizePaid(0, 50, "ATKR-5.6"), ev.PrizePaid(1, 50, "ATKR-5.6"),
                      ev.PrizePaid(0, 50, "ATKR-5.7"), ev.PrizePaid(2, 50, "ATKR-5.7")]
    assert [t.money(p) for p in ABC] == [300, 250, 250]


def test_5_7_a_busted_player_cannot_take_the_most_coals_prize():
    t = Table(AB, first="Anna")
    t.bets(Anna=0, Ben=0)
    t.turn("Anna", 10, 10, 10, DEVIL)        # four coals, but busted
    tail = len(t.events)
    t.turn("Ben", 10)
    assert of_type(t.since(tail), ev.PrizePaid) == [ev.PrizePaid(1, 50, "ATKR-5.6"),
                                                    ev.PrizePaid(1, 50, "ATKR-5.7")]


def test_5_2_bets_resolve_from_the_start_player():
    t = Table(ABC, first="Cleo")
    t.bets(Anna=10, Ben=20, Cleo=30)
    t.turn("Cleo", 100)
    t.turn("Anna", 10)
    tail = len(t.events)
    t.turn("Ben", 10)
    assert [e.seat for e in of_type(t.since(tail), ev.BetWon)] == [2, 0, 1]


# -- ATKR-6: pawns and the pact -------------------------------------------------------------------
@pytest.mark.parametrize("money,space", [(0, 0), (50, 0), (60, 1), (190, 1), (200, 2), (210, 3),
                                         (300, 4), (310, 5), (370, 5), (1590, 13), (1600, 14),
                                         (5000, 14)])
def test_6_1_track_spaces(money, space):
    assert track_space(money, 50, [200, 300, 500, 700, 1000, 1300, 1600]) == space


def test_6_1_the_track_is_an_option_recorded_in_the_first_event():
    t = Table(AB, first="Anna", track="0-100,250,400")
    created = t.events[0]
    assert created.track_low == 100 and created.track == [250, 400]
    assert track_space(100, 100, [250, 400]) == 0 and track_space(260, 100, [250, 400]) == 3
    with pytest.raises(UsageError):
        Table(AB, track="0-50,300,200")


def test_6_2_two_pawns_sharing_the_lowest_space_above_0_50_make_no_pact():
    t = Table(ABC, first="Anna")
    t.bets(Anna=100, Ben=100, Cleo=0)
    t.turn("Anna", DEVIL)
    t.turn("Ben", DEVIL)
    tail = len(t.events)
    t.turn("Cleo", 10)
    # Anna 100 and Ben 100 share the 50..200 space; Cleo 300 (bet 0, both prizes)
    placed = of_type(t.since(tail), ev.PawnsPlaced)[0]
    assert placed.spaces == [1, 1, 4] and placed.pacts == []


def test_6_2_b_everyone_on_0_50_holds_a_pact():
    t = Table(ABC, first="Anna")
    t.bets(Anna=200, Ben=200, Cleo=0)
    t.turn("Anna", DEVIL)
    t.turn("Ben", DEVIL)
    tail = len(t.events)
    t.turn("Cleo", 10)
    placed = of_type(t.since(tail), ev.PawnsPlaced)[0]
    assert placed.spaces == [0, 0, 4]
    assert placed.pacts == [0, 1] and placed.pact_money == [0, 0]


def test_6_3_round_one_has_no_pact_so_a_devil_costs_nothing():
    t = Table(AB, first="Anna")
    t.bets(Anna=0, Ben=0)
    events = t.turn("Anna", DEVIL)
    assert of_type(events, ev.PactPaid) == []


def test_6_4_pact_money_is_public():
    t = Table(ABC, first="Anna")
    t.bets(Anna=200, Ben=0, Cleo=0)
    t.turn("Anna", DEVIL)
    t.turn("Ben", 10)
    t.turn("Cleo", DEVIL)
    # Anna lost 200: 0 -> pact.  Ben 300, Cleo 200.
    assert t.state.pacts == [0]
    cleo = t.view(2)
    assert [p["money"] for p in cleo["players"]] == [0, None, 200]
    assert [p["pact"] for p in cleo["players"]] == [True, False, False]



def test_6_4_and_3_2_a_pact_holders_money_is_hidden_while_their_bet_is_sealed():
    """Issue 19.3 (found by the every-kind suite): a pact holder's money is public (6.4), but
    while their bet is sealed the money left would tell it (3.2), so no other seat sees it,
    whether the view is computed from the referee's whole state or from the seat's own
    stream; once the bets are revealed it is public again."""
    t = Table(ABC, first="Anna")
    t.bets(Anna=100, Ben=0, Cleo=0)
    t.turn("Anna", DEVIL)
    t.turn("Ben", 10)
    t.turn("Cleo", DEVIL)
    # Anna lost her 100: 100, alone on the lowest space -> pact.  Ben 300, Cleo 200.
    assert t.state.pacts == [0] and [t.money(p) for p in ABC] == [100, 300, 200]
    t.bet("Anna", 30)
    for viewer in (1, 2, PUBLIC):
        own = RULES.fold(RULES.redact(e, viewer) for e in t.events)
        for state in (t.state, own):
            assert RULES.view(state, viewer)["players"][0]["money"] is None, viewer
    assert RULES.view(t.state, 0)["players"][0]["money"] == 70  # her own: 100 - 30
    t.bets(Ben=0, Cleo=0)  # every bet in: revealed (3.2), Anna's 70 is public again (6.4)
    for viewer in (1, 2, PUBLIC):
        own = RULES.fold(RULES.redact(e, viewer) for e in t.events)
        for state in (t.state, own):
            assert RULES.view(state, viewer)["players"][0]["money"] == 70, viewer


def test_6_5_pact_payments_the_printed_example():
    """Gordon busts with 90 not bet while Pella, Lucy and Saul hold pacts: Gordon pays Pella 50
    and keeps 40; the bank pays Lucy and Saul.  A pact holder who busts pays the others (bank
    covering what they cannot pay) and never themself."""
    t = Table(["Gordon", "Pella", "Lucy", "Saul"], first="Gordon")
    t.bets(Gordon=0, Pella=200, Lucy=200, Saul=200)
    t.turn("Gordon", 10)
    t.turn("Pella", DEVIL)
    t.turn("Lucy", DEVIL)
    t.turn("Saul", DEVIL)
    # Gordon: 200 + both prizes = 300; the others lost 200 each
    assert [t.money(p) for p in t.names] == [300, 0, 0, 0]
    assert t.state.pacts == [1, 2, 3] and t.state.start == 1
    t.bets(Gordon=210)                        # Pella, Lucy, Saul have no money (ATKR-3.3)
    assert t.money("Gordon") == 90 and t.state.phase == "draw"
    pella = t.turn("Pella", DEVIL)             # a pact holder busts with no money
    assert of_type(pella, ev.PactPaid) == [ev.PactPaid(1, ev.BANK, 2, 50),
                                           ev.PactPaid(1, ev.BANK, 3, 50)]
    t.turn("Lucy", 10)
    t.turn("Saul", 10)
    gordon = t.turn("Gordon", DEVIL)
    assert of_type(gordon, ev.PactPaid) == [ev.PactPaid(0, 0, 1, 50),
                                            ev.PactPaid(0, ev.BANK, 2, 50),
                                            ev.PactPaid(0, ev.BANK, 3, 50)]
    # Gordon kept 40 and lost his 210 (H = 10); Pella 0+50; Lucy 50+50+prizes; Saul the same
    assert t.money("Gordon") == 40 and t.money("Pella") == 50
    # Lucy and Saul tie at 10 with one coal each: both prizes each
    assert t.money("Lucy") == 50 + 50 + 100 and t.money("Saul") == 200


# -- ATKR-7: refilling ----------------------------------------------------------------------------
def test_7_1_refill_only_when_the_coals_left_fit_the_ring():
    t = Table(AB, first="Anna", ring=44)
    t.bets(Anna=0, Ben=0)
    t.turn("Anna", 10, 10)
    tail = len(t.events)
    t.turn("Ben", 10)                         # 45 left > 44: no refill
    assert of_type(t.since(tail), ev.FurnaceRefilled) == []
    assert t.state.left_in_furnace() == 45
    t.bets(Anna=0, Ben=0)
    t.turn("Ben", 20)
    tail = len(t.events)
    t.turn("Anna", 20)                        # 43 left <= 44: all 48 back
    assert of_type(t.since(tail), ev.FurnaceRefilled) == [ev.FurnaceRefilled(43)]
    assert t.state.left_in_furnace() == 48


def test_7_2_ring_default_is_recorded():
    assert Table(AB).events[0].ring == 16
    with pytest.raises(UsageError):
        Table(AB, ring=48)


# -- ATKR-8: the end ------------------------------------------------------------------------------
def _round_one_700_600():
    """Round 1 (ring 47: the furnace is refilled after every round).  Both bet 200; Anna draws
    100+100 = 200, Ben 75.  H = 200: both bets win and both are the highest: 200 + 400 each.
    Anna takes both prizes: Anna 700, Ben 600."""
    t = Table(AB, first="Anna", ring=47)
    t.bets(Anna=200, Ben=200)
    t.turn("Anna", 100, 100)
    t.turn("Ben", 75)
    assert [t.money("Anna"), t.money("Ben")] == [700, 600]
    assert t.state.phase == "bet" and t.state.left_in_furnace() == 48
    return t


def test_8_1_the_game_ends_after_phase_4_when_someone_has_1600():
    t = _round_one_700_600()
    t.bets(Anna=700, Ben=0)
    t.turn("Ben", 10)                                      # Ben starts round 2
    events = t.turn("Anna", 100, 100, 75, 75, 75, 50, 50, 50, 50, 50, 50, 50)  # 775, 12 coals
    # 700 <= 775 and the highest bet: 700 + 1400; both prizes: 2200.  Ben 600.
    assert events[-1] == ev.GameEnded([0], [2200, 600], None, None)
    assert t.state.phase == "over"
    refused("ATKR-9.2", t.bet, "Anna", 10)


def test_8_2_players_tied_for_the_most_money_share_the_win():
    t = _round_one_700_600()
    t.bets(Anna=600, Ben=600)
    t.turn("Ben", 100, 100, 75, 75, 75, 50, 50, 50, 50)   # 625 with 9 coals
    events = t.turn("Anna", 50)
    # both 600 <= 625, both the highest bet: +600 +1200.  Anna 100+1800, Ben 0+1800+50+50.
    assert events[-1] == ev.GameEnded([0, 1], [1900, 1900], None, None)


def test_8_1_a_digital_game_reveals_its_seed_at_the_end():
    from engine.chance import SeededChance, commitment
    chance = SeededChance(4242, "ab" * 16)
    events = RULES.setup({"players": AB, "first": "Anna"}, chance)
    state = RULES.fold(events)
    from engine.games.atkr.commands import Bet, Draw, Stop
    for _ in range(5000):
        if state.phase == "over":
            break
        seat = next(s for s in range(2) if RULES.legal_commands(state, s))
        name = AB[seat]
        if state.phase == "bet":
            command = Bet(name, min(state.money[seat], 100))
        elif state.coals[seat] and state.total(seat) >= 100:
            command = Stop(name)
        else:
            command = Draw(name)
        new = RULES.decide(state, command, chance)
        events += new
        state = RULES.fold(new, state)
    assert state.phase == "over"
    last = events[-1]
    assert isinstance(last, ev.GameEnded) and last.seed == 4242 and last.salt == "ab" * 16
    assert events[0].commitment == commitment(4242, "ab" * 16)
    assert max(last.money) >= 1600
    assert last.winners == [s for s in range(2) if last.money[s] == max(last.money)]


# -- ATKR-9: what the service adds ----------------------------------------------------------------
def test_9_2_unknown_player_and_finished_game():
    t = Table(AB, first="Anna")
    # an unknown player is refused citing ATKR-9.2 and nothing is recorded; like an unknown
    # game it is a usage error (exit 2, docs/commands.md), not a question for the rules
    before = len(t.events)
    with pytest.raises(UnknownPlayer) as info:
        t.bet("Zed", 10)
    assert info.value.rule == "ATKR-9.2" and info.value.exit_code == 2
    assert info.value.message.startswith("ATKR-9.2: there is no player called 'Zed'")
    assert len(t.events) == before


def test_9_3_physical_coals_must_still_be_in_the_furnace():
    t = Table(AB, first="Anna")
    t.bets(Anna=0, Ben=0)
    t.draw("Anna", 100)
    t.draw("Anna", 100)
    refused("ATKR-9.3", t.draw, "Anna", 100)               # both 100s are out
    refused("ATKR-1.1", t.draw, "Anna", 30)
    refused("ATKR-9.3", t.draw, "Anna", None)
    assert t.state.coals[0] == [100, 100]


def test_9_3_a_digital_game_refuses_a_given_coal():
    t = Table(AB, first="Anna", physical=False, seed=1)
    t.bets(Anna=0, Ben=0)
    refused("ATKR-9.3", t.draw, "Anna", 25)
    events = t.draw("Anna")
    assert len(events) >= 1 and isinstance(events[0], ev.CoalDrawn)
