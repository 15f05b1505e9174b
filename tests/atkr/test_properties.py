"""Properties of random legal Auf Teufel komm raus games (hypothesis).

Sizes are small by default; DEVIL_TEST_SCALE=10 runs ten times as many games.  That a fold
of any prefix equals the service's state is checked for every game in tests/games/.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.chance import SeededChance
from engine.game import PUBLIC
from engine.games.atkr import RULES
from engine.games.atkr import events as ev
from engine.games.atkr.state import COAL_COUNTS, KIND_INDEX

from ..scale import examples

NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn"]


def random_game(seed: int, players: int, choices, max_commands: int):
    """Play a digital game choosing each command from legal_commands with ``choices``."""
    chance = SeededChance(seed, "00")
    names = NAMES[:players]
    events = RULES.setup({"players": names}, chance)
    state = RULES.fold(events)
    batches = [list(events)]
    for step in range(max_commands):
        if state.phase == "over":
            break
        seat = next(s for s in range(players) if RULES.legal_commands(state, s))
        legal = RULES.legal_commands(state, seat)
        pick = choices.draw(st.integers(0, 9), label="choice")
        if legal[0].TYPE == "bet":
            command = legal[min(len(legal) - 1, pick * len(legal) // 30)]  # modest bets
        else:
            command = legal[-1] if pick < 4 and len(legal) > 1 else legal[0]  # stop 40%
        new = RULES.decide(state, command, chance)
        batches.append(new)
        state = RULES.fold(new, state)
    return names, batches, state


game_args = dict(seed=st.integers(0, 2**32), players=st.integers(2, 6), choices=st.data())


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**game_args)
def test_money_is_conserved_and_every_coal_is_accounted_for(seed, players, choices):
    names, batches, _ = random_game(seed, players, choices, 250)
    state = RULES.initial()
    out = [0] * len(COAL_COUNTS)  # coals drawn since the last refill, by kind
    for event in (e for batch in batches for e in batch):
        state = RULES.evolve(state, event)
        if isinstance(event, ev.CoalDrawn):
            out[KIND_INDEX[event.coal]] += 1
        if isinstance(event, ev.FurnaceRefilled):
            out = [0] * len(COAL_COUNTS)
        # players' money + stakes on the table + the bank's balance = what the game started with
        assert sum(state.money) + sum(state.table) + state.bank == 200 * players
        assert all(m >= 0 and m % 10 == 0 for m in state.money)
        # every coal is in the furnace or out since the last refill (ATKR-4.7, 7.1)
        assert [f + o for f, o in zip(state.furnace, out)] == list(COAL_COUNTS)
        assert state.bank_low <= min(0, state.bank)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**game_args)
def test_no_view_or_stream_shows_another_seats_sealed_bet(seed, players, choices):
    names, batches, _ = random_game(seed, players, choices, 150)
    events = [e for batch in batches for e in batch]
    for viewer in list(range(players)) + [PUBLIC]:
        state = RULES.initial()
        for event in events:
            shown = RULES.redact(event, viewer)
            if isinstance(shown, ev.BetPlaced) and shown.seat != viewer:
                assert shown.amount is None
            state = RULES.evolve(state, shown)
            view = RULES.view(state, viewer)
            if not state.revealed:
                for seat, player in enumerate(view["players"]):
                    if seat != viewer:
                        assert player["bet"] is None
                        if player["has_bet"] and seat not in state.pacts:
                            assert player["money"] is None
