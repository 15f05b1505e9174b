"""Property tests over random legal games at every player count 3-10.

At every event: every card is in exactly one place and nobody holds zero items; after every
command nobody is over the hand limit unless a give-away is pending; each seat's view and
legal commands computed from its redacted stream equal those from the referee's state; a seat's
redacted stream names no item it has not been shown (checked against its knowledge facts);
every event survives the codec; every game ends or hits the turn cap.

Sizes scale with the environment variable DEVIL_TEST_SCALE (default 1).
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.chance import SeededChance
from engine.games.castle import RULES

from ..scale import SCALE
from .helpers import check_codec, check_privacy, random_game


def run(n, seed, turns, every, **opts):
    rng = random.Random(seed)
    events, state = random_game(n, rng, SeededChance(seed, "5a17"), max_turns=turns,
                                check_every=every, **opts)
    check_privacy(events)
    check_codec(events)
    assert RULES.is_over(state) or state.turn > turns
    if RULES.is_over(state):
        assert events[-1].reveal is not None and events[-1].reveal.seed == seed
    else:  # the seed stays secret while the game runs
        assert all(getattr(e, "reveal", None) is None for e in events)
    return events, state


@pytest.mark.parametrize("n", range(3, 11))
def test_random_games_every_player_count(n):
    run(n, 1000 + n, turns=12 * SCALE, every=2, variants=["smuggling", "prophecy", "scoring"])


@settings(max_examples=6 * SCALE, deadline=None, suppress_health_check=list(HealthCheck))
@given(n=st.integers(3, 10), seed=st.integers(0, 2 ** 32), beginner=st.booleans(),
       variants=st.lists(st.sampled_from(["smuggling", "prophecy", "scoring"]), unique=True))
def test_random_games_hypothesis(n, seed, beginner, variants):
    run(n, seed, turns=10 * SCALE, every=3, beginner=beginner, variants=variants)


@pytest.mark.slow
@pytest.mark.parametrize("n", range(3, 11))
def test_long_random_games(n):
    for k in range(3 * SCALE):
        run(n, 5000 + 100 * n + k, turns=80, every=5, variants=["smuggling", "prophecy", "scoring"])
