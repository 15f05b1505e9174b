"""The codec's generated encoders give exactly what cattrs gives, and an unusual value still
takes the cattrs path."""

from __future__ import annotations

import glob
import pathlib

import engine.codec as codec
from engine.games.atkr.commands import COMMANDS, Bet
from engine.replay import open_log

REPLAYS = pathlib.Path(__file__).resolve().parents[2] / "replays"


def test_fast_maps_equal_cattrs_maps_for_every_shipped_event():
    count = 0
    for path in sorted(glob.glob(str(REPLAYS / "*.devlog"))):
        log = open_log(path)
        for event in log.events:
            fast = log.rules.events.to_map(event)
            slow = {"type": type(event).TYPE, **codec.get_converter().unstructure(event)}
            assert fast == slow and list(fast) == list(slow)
            count += 1
    assert count > 1000


def test_an_unusual_value_takes_the_cattrs_path():
    odd = Bet.__new__(Bet)
    object.__setattr__(odd, "player", "Anna")
    object.__setattr__(odd, "amount", True)  # a bool where an int is declared
    assert COMMANDS.to_map(Bet("Ben", 10)) == {"type": "bet", "player": "Ben", "amount": 10}
    assert COMMANDS._fast_out[Bet](odd) is None
    assert COMMANDS.to_map(odd) == {"type": "bet", "player": "Anna", "amount": True}
    assert COMMANDS.to_map(Bet("Anna", 60)) == {"type": "bet", "player": "Anna", "amount": 60}
