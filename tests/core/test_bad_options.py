"""Bad options of a new game get a clear UsageError and create nothing (issue 9.4): never a
crash, never a game that is not what was asked for."""

from __future__ import annotations

import pytest

from engine.errors import UsageError
from engine.service import GameService
from engine.store import MemoryStore

DEAL_SEATS = {"A": {"society": "order", "profession": "priest", "items": ["bag-key"]},
              "B": {"society": "brotherhood", "profession": "doctor", "items": ["bag-goblet"]},
              "C": {"society": "order", "profession": "thug", "items": ["key"]}}


@pytest.mark.parametrize("kind,options,words", [
    ("atkr", {"players": ["A", "B"], "track": 5}, "a track is text"),
    ("atkr", {"players": ["A", "B"], "track": True}, "a track is text"),
    ("atkr", {"players": ["A", "B"], "track": 1.5}, "a track is text"),
    ("atkr", {"players": ["A", "B"], "track": [0.5, "x"]}, "a track is text"),
    ("atkr", {"players": ["A", "B"], "physical": "false"}, "physical must be true or false"),
    ("atkr", {"players": ["A", "B"], "physical": 1}, "physical must be true or false"),
    ("castle", {"players": ["A", "B", "C"], "physical": "false"},
     "physical must be true or false"),
    ("castle", {"players": ["A", "B", "C"], "physical": True,
                "deal": {"seats": DEAL_SEATS, "set_aside": "brotherhood", "item_pile": [],
                         "profession_pile": [1, 2]}},
     "profession_pile must be a list of profession names"),
    ("castle", {"players": ["A", "B", "C"], "physical": True,
                "deal": {"seats": DEAL_SEATS, "set_aside": "brotherhood", "item_pile": [{}],
                         "profession_pile": ["bodyguard", "clairvoyant", "diplomat", "duelist",
                                             "grand-master", "hypnotist", "poison-mixer"]}},
     "item_pile must be a list of item ids"),
])
def test_a_bad_option_is_refused_and_nothing_is_created(kind, options, words):
    store = MemoryStore()
    with pytest.raises(UsageError) as info:
        GameService(store).create(kind, options)
    assert words in info.value.message
    assert store.games() == []
