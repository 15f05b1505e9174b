"""Position files: a Castle of the Devil game that is already under way (issue 10.3).

``devil new castle --position FILE`` reads a JSON file of this shape (docs/castle-rules.md,
"Starting from a position")::

    {"players": ["Ann", "Ben", "Cid", "Dora"],        # optional: the seats in file order
     "active": "Ben",                                   # whose turn it is (default: the first)
     "turn": 7,                                         # the turn's number (default 1)
     "variants": ["prophecy"], "beginner": false, "house": {"sextant_last": true},
     "seats": {"Ann": {"society": "order", "profession": "priest", "profession_used": true,
                       "items": ["key-1", "dagger"]}, ...},
     "item_pile": ["tome", ...],                        # optional when pile_ordered is false
     "pile_ordered": false,                             # false: the pile is a set
     "profession_pile": [...],                          # optional: the professions not in a seat
     "set_aside": "order"}                              # odd player counts

:func:`options_from_position` turns it into the options map of ``setup`` (``players``,
``first``, ``variants``, ``beginner``, ``house`` and ``position``); ``options.parse_deal``
checks the cards like a deal's (the box's cards each once, hand sizes from 1 to the hand
limit, the societies a split the box allows, the professions each once).  No I/O here.
"""

from __future__ import annotations

from typing import Any

from ...errors import UsageError

#: the keys of a position file that are options of the game, not cards
GAME_KEYS = ("players", "active", "variants", "beginner", "house")
#: the keys that describe the cards (the ``position`` option)
CARD_KEYS = ("seats", "item_pile", "pile_ordered", "profession_pile", "set_aside", "turn")


def options_from_position(data: Any) -> dict:
    """The ``setup`` options for the position file ``data`` (a decoded JSON map).

    Raises UsageError naming an unknown key or a wrongly typed one; the cards themselves are
    checked by ``setup`` (``options.parse_deal`` with ``position=True``)."""
    if not isinstance(data, dict):
        raise UsageError("a position file holds a JSON object (docs/castle-rules.md)")
    unknown = set(data) - set(GAME_KEYS) - set(CARD_KEYS)
    if unknown:
        raise UsageError(f"unknown position field(s): {', '.join(sorted(unknown))} "
                         f"(known: {', '.join(GAME_KEYS + CARD_KEYS)})")
    seats = data.get("seats")
    if not isinstance(seats, dict) or not seats:
        raise UsageError("a position needs seats: a map player -> their cards")
    players = data.get("players", list(seats))
    if not isinstance(players, list):
        raise UsageError("players must be a list of names in seat order")
    options: dict = {"players": list(players),
                     "position": {k: data[k] for k in CARD_KEYS if k in data}}
    if data.get("active") is not None:
        options["first"] = data["active"]
    elif players:
        options["first"] = players[0]
    for key in ("variants", "beginner", "house"):
        if key in data:
            options[key] = data[key]
    return options
