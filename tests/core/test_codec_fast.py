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
            for key in getattr(type(event), "OMIT_NONE", ()):  # left out while None (codec)
                if slow[key] is None:
                    del slow[key]
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


def _slow(registry, data):
    """The cattrs path's answer for ``data``: the object, or the CodecError's message."""
    from engine.errors import CodecError

    try:
        return registry._from_map_checked(data)
    except CodecError as exc:
        return exc.message


def test_the_fast_decoder_takes_exactly_what_cattrs_takes_for_nested_lists():
    """Castle's deal (lists of lists of optional strings, optional lists, lists of bools) is
    decoded without cattrs; every map the fast path takes decodes to what cattrs gives, and a
    map with one value of a wrong type falls to cattrs, which refuses it as before."""
    from engine.game import rules_for

    rules = rules_for("castle")
    log = open_log(str(REPLAYS / "castle-6p.devlog"))
    dealt = next(r.event for r in log.records if r.event["type"] == "cards_dealt")
    decode = codec._fast_plan(type(rules.events.from_map(dealt)))[0]
    assert decode(dealt) == _slow(rules.events, dealt)
    wrong = [("hands", [[1, None]]), ("drinks", [1]), ("removed", [None]),
             ("society_cards", [["a"], 5]), ("professions_used", "yes"), ("set_aside", 3)]
    for field, value in wrong:
        bad = {**dealt, field: value}
        assert decode(bad) is None, field  # not taken: the cattrs path decides
        refused = _slow(rules.events, bad)
        assert isinstance(refused, str) and "cards_dealt" in refused, (field, refused)
    encoded = rules.events.to_map(decode(dealt))
    assert encoded == dealt and encoded["hands"] is not dealt["hands"]
    assert encoded["hands"][0] is not dealt["hands"][0]  # nested lists copied, as cattrs does


def test_a_reporter_is_left_out_of_the_map_while_none():
    """A digital or unreported draw keeps the bytes it had before the field existed; a
    reported one carries it, and both decode (engine.codec OMIT_NONE)."""
    from engine.games.atkr import events as ev
    from engine.games.atkr.events import EVENTS

    assert EVENTS.to_map(ev.CoalDrawn(1, 25)) == {"type": "coal_drawn", "seat": 1, "coal": 25}
    assert EVENTS.to_map(ev.CoalDrawn(1, 0, "Rita")) == {"type": "coal_drawn", "seat": 1,
                                                        "coal": 0, "reporter": "Rita"}
    assert EVENTS.from_map({"type": "coal_drawn", "seat": 1, "coal": 25}).reporter is None
    assert EVENTS.from_map({"type": "coal_drawn", "seat": 1, "coal": 0,
                            "reporter": "Rita"}).reporter == "Rita"


def test_a_command_with_its_fields_in_another_order_is_decoded_without_cattrs():
    """A client's bet ``{"type", "amount"}`` with the seat's ``player`` added last (how the
    service builds it, engine/web/games.py) is the same Bet on the generated decoder as cattrs
    gives; a wrong or extra field in any order still falls to cattrs and is refused."""
    decode = codec._fast_plan(Bet)[0]
    shuffled = {"type": "bet", "amount": 60, "player": "Anna"}
    assert decode(shuffled) == Bet("Anna", 60) == _slow(COMMANDS, shuffled)
    assert decode({"amount": 60, "player": "Anna", "type": "bet"}) == Bet("Anna", 60)
    extra = {"type": "bet", "amount": 60, "player": "Anna", "coal": 10}
    assert decode(extra) is None
    assert _slow(COMMANDS, extra) == "bad atkr command 'bet': extra fields found (coal) @ bet"
    wrong = {"type": "bet", "amount": "60", "player": "Anna"}
    assert decode(wrong) is None
    assert _slow(COMMANDS, wrong) == ("bad atkr command 'bet': invalid value for type, "
                                      "expected int @ bet.amount")
