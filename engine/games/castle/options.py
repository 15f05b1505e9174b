"""Options of a new Castle of the Devil game and the deal (CASTLE-2).

``setup(options, chance)`` checks the options map and returns the first events:
``game_created``, ``cards_dealt``, ``turn_started``.  Options (docs/castle-rules.md)::

    {"players": ["Ann", "Ben", "Cid"],   # 3-10 unique names, seat order = clockwise
     "first": "Ben" | None,                # None: drawn by chance (physical: the first listed)
     "beginner": False,                    # CASTLE-2.6
     "variants": ["smuggling", "prophecy", "scoring"],   # CASTLE-10, any subset
     "house": {"doctor_cancels_tie_draw": True, ...},    # see HOUSE_DEFAULTS
     "deal": None | {...},                 # a fixed deal, see parse_deal
     "physical": False}                    # True: played with the box, no chance (needs a deal)

``physical`` is what ``GameService.create`` reads to create the game without chance; ``setup``
checks it agrees with the chance it is given.
"""

from __future__ import annotations

from typing import Any

from ...errors import UsageError
from ...game import check_players
from .cards import (ALL_ITEMS, BAGS, BROTHERHOOD, ORDER, PROFESSIONS, SEALED, SOCIETIES,
                    UNSEALED, hand_limit)
from .events import CardsDealt, GameCreated, TurnStarted

VARIANTS = ("smuggling", "prophecy", "scoring")

#: Switchable house rules (docs/castle-rules.md), all recorded in ``game_created``.
HOUSE_DEFAULTS: dict[str, bool] = {
    # CASTLE-6.7: a doctor also cancels the tie draw
    "doctor_cancels_tie_draw": True,
    # CASTLE-4.6: a sextant resolves after the other traded card's effect
    "sextant_last": True,
    # CASTLE-9.5: a coat-of-arms claim that does not hold is refused (False: it loses)
    "coat_of_arms_refused": True,
    # CASTLE-7.3, 10.1: in the Diplomat's trade, too, a giver may smuggle (only with smuggling)
    "diplomat_smuggling": True,
}

KNOWN_OPTIONS = {"players", "first", "beginner", "variants", "house", "deal", "physical",
                 "seed_chosen"}


def in_play(n: int, beginner: bool) -> tuple[list[str], list[str]]:
    """(items in play, items removed) for ``n`` players (CASTLE-2.5, 2.6)."""
    removed = []
    if n == 3:
        removed.append("black-pearl")
    if n == 10:
        removed.append("coat")
    if beginner:
        removed += [c for c in UNSEALED if c not in removed]
    return [c for c in ALL_ITEMS if c not in removed], removed


def _seed_chosen(options: dict, chance) -> bool:
    """The ``seed_chosen`` option (set by the service, never by a player): True only for a
    digital game created with a chosen seed (issue 9.7).  UsageError otherwise."""
    chosen = options.get("seed_chosen", False)
    if not isinstance(chosen, bool) or (chosen and chance is None):
        raise UsageError("seed_chosen is set by the service: true only for a digital game "
                         "created with a chosen seed")
    return chosen


def parse_options(options: Any) -> dict:
    """The checked options as a dict with every key filled in; raises UsageError."""
    if not isinstance(options, dict):
        raise UsageError("castle options must be a map")
    unknown = set(options) - KNOWN_OPTIONS
    if unknown:
        raise UsageError(f"unknown castle option(s): {', '.join(sorted(unknown))} "
                         f"(known: {', '.join(sorted(KNOWN_OPTIONS))})")
    players = check_players(options.get("players"), 3, 10, "Castle of the Devil", "CASTLE-2.8")
    first = options.get("first")
    if first is not None and first not in players:
        raise UsageError(f"the start player {first!r} is not one of the players")
    beginner = options.get("beginner", False)
    if not isinstance(beginner, bool):
        raise UsageError("beginner must be true or false")
    variants = options.get("variants", []) or []
    if not isinstance(variants, list) or any(v not in VARIANTS for v in variants):
        raise UsageError(f"variants must be a list drawn from {', '.join(VARIANTS)}")
    if len(set(variants)) != len(variants):
        raise UsageError("a variant is named twice")
    house = dict(HOUSE_DEFAULTS)
    given = options.get("house") or {}
    if not isinstance(given, dict):
        raise UsageError("house must be a map of house rule -> true/false")
    for key, value in given.items():
        if key not in HOUSE_DEFAULTS:
            raise UsageError(f"unknown house rule {key!r} (known: {', '.join(HOUSE_DEFAULTS)})")
        if not isinstance(value, bool):
            raise UsageError(f"house rule {key!r} must be true or false")
        house[key] = value
    physical = options.get("physical", False)
    if not isinstance(physical, bool):
        raise UsageError("physical must be true or false")
    return {"players": list(players), "first": first, "beginner": beginner,
            "variants": [v for v in VARIANTS if v in variants], "house": house,
            "deal": options.get("deal"), "physical": physical}


def parse_deal(deal: Any, players: list[str], beginner: bool) -> dict:
    """Check a fixed deal and return it as seat-ordered lists; raises UsageError with the reason.

    Format (docs/castle-rules.md)::

        {"seats": {"Ann": {"society": "order", "profession": "priest", "items": ["bag-key"]}, ...},
         "item_pile": ["dagger", ...],          # top first: every item in play not in a hand
         "profession_pile": ["thug", ...],      # top first: every profession not dealt
         "set_aside": "brotherhood"}            # odd player counts only (CASTLE-2.2)
    """
    n = len(players)
    if not isinstance(deal, dict):
        raise UsageError("deal must be a map")
    unknown = set(deal) - {"seats", "item_pile", "profession_pile", "set_aside"}
    if unknown:
        raise UsageError(f"unknown deal field(s): {', '.join(sorted(unknown))}")
    seats = deal.get("seats")
    if not isinstance(seats, dict) or set(seats) != set(players):
        raise UsageError("deal.seats must have exactly one entry per player")
    societies, professions, hands = [], [], []
    for name in players:
        entry = seats[name]
        if not isinstance(entry, dict) or set(entry) != {"society", "profession", "items"}:
            raise UsageError(f"deal.seats.{name} needs exactly society, profession and items")
        if not isinstance(entry["society"], str) or entry["society"] not in SOCIETIES:
            raise UsageError(f"{name}'s society must be one of {', '.join(SOCIETIES)}")
        if not isinstance(entry["profession"], str) or entry["profession"] not in PROFESSIONS:
            raise UsageError(f"{name}'s profession {entry['profession']!r} is not a profession")
        items = entry["items"]
        if not isinstance(items, list) or not all(isinstance(c, str) for c in items):
            raise UsageError(f"{name}'s items must be a list of item ids")
        societies.append(entry["society"])
        professions.append(entry["profession"])
        hands.append(list(items))
    set_aside = deal.get("set_aside")
    if n % 2:
        if set_aside not in SOCIETIES:
            raise UsageError("with an odd number of players the deal needs set_aside (order or brotherhood)")
        counted = societies + [set_aside]
        if counted.count(ORDER) != (n + 1) // 2:
            raise UsageError(f"with {n} players the seats and the set-aside card hold "
                             f"{(n + 1) // 2} cards of each society (CASTLE-2.2)")
    else:
        if set_aside is not None:
            raise UsageError("with an even number of players there is no set-aside society card")
        if societies.count(ORDER) != n // 2:
            raise UsageError(f"with {n} players each society has {n // 2} members (CASTLE-2.2)")
    prof_pile = deal.get("profession_pile")
    if not isinstance(prof_pile, list) or not all(isinstance(p, str) for p in prof_pile):
        raise UsageError("deal.profession_pile must be a list of profession names")
    all_profs = professions + prof_pile
    if sorted(all_profs) != sorted(PROFESSIONS):
        dup = sorted({p for p in all_profs if all_profs.count(p) > 1})
        raise UsageError("the professions dealt and the profession pile must be the 10 professions, "
                         "each once" + (f" ({', '.join(dup)} twice)" if dup else ""))
    pile = deal.get("item_pile")
    if not isinstance(pile, list) or not all(isinstance(c, str) for c in pile):
        raise UsageError("deal.item_pile must be a list of item ids")
    playing, removed = in_play(n, beginner)
    all_items = [c for h in hands for c in h] + pile
    for c in all_items:
        if c not in ALL_ITEMS:
            raise UsageError(f"{c!r} is not an item id (items: {', '.join(ALL_ITEMS)})")
    dup = sorted({c for c in all_items if all_items.count(c) > 1})
    if dup:
        raise UsageError(f"item(s) dealt twice: {', '.join(dup)}")
    out = sorted(set(all_items) & set(removed))
    if out:
        raise UsageError(f"item(s) not in this game: {', '.join(out)} (CASTLE-2.5, 2.6)")
    missing = sorted(set(playing) - set(all_items))
    if missing:
        raise UsageError(f"item(s) missing from the deal: {', '.join(missing)}")
    sealed_or_bag = set(SEALED) | set(BAGS)
    if n == 3:
        if any(len(h) != 2 for h in hands):
            raise UsageError("with 3 players each player starts with 2 items (CASTLE-2.5)")
        # two hands hold one bag each, the third a sealed item; the second card is any draw
        bag_seats = [i for i, h in enumerate(hands) if set(h) & set(BAGS)]
        if len(bag_seats) != 2 or any(len(set(hands[i]) & set(BAGS)) != 1 for i in bag_seats):
            raise UsageError("the two bags must be dealt to two different players (CASTLE-2.4)")
        other = [h for i, h in enumerate(hands) if i not in bag_seats][0]
        if not set(other) & set(SEALED):
            raise UsageError("the player without a bag must have been dealt a sealed item (CASTLE-2.4)")
    else:
        if any(len(h) != 1 for h in hands):
            raise UsageError("each player starts with exactly 1 item (CASTLE-2.4)")
        starting = [h[0] for h in hands]
        if not set(BAGS) <= set(starting):
            raise UsageError("both bags must be among the starting items (CASTLE-2.4)")
        bad = [c for c in starting if c not in sealed_or_bag]
        if bad:
            raise UsageError(f"starting items are the bags and sealed items, not {', '.join(bad)} (CASTLE-1.6, 2.4)")
    return {"societies": societies, "professions": professions, "hands": hands,
            "item_pile": list(pile), "profession_pile": list(prof_pile), "set_aside": set_aside,
            "removed": removed}


def random_deal(n: int, beginner: bool, chance) -> dict:
    """A deal drawn by ``chance`` (CASTLE-2.1 to 2.5), in the shape of :func:`parse_deal`."""
    profs = chance.shuffled(list(PROFESSIONS), "deal", "professions")
    per = (n + 1) // 2
    cards = chance.shuffled([ORDER] * per + [BROTHERHOOD] * per if n % 2 else
                            [ORDER] * (n // 2) + [BROTHERHOOD] * (n // 2), "deal", "societies")
    playing, removed = in_play(n, beginner)
    sealed = [c for c in SEALED if c in playing]
    sealed = chance.shuffled(sealed, "deal", "sealed")
    start = chance.shuffled(list(BAGS) + sealed[: n - 2], "deal", "start")
    rest = sealed[n - 2:] + [c for c in playing if c not in SEALED and c not in BAGS]
    pile = chance.shuffled(rest, "deal", "pile")
    hands = [[c] for c in start]
    if n == 3:
        for h in hands:
            h.append(pile.pop(0))
    return {"societies": cards[:n], "professions": profs[:n], "hands": hands,
            "item_pile": pile, "profession_pile": profs[n:],
            "set_aside": cards[n] if n % 2 else None, "removed": removed}


def setup(options: dict, chance) -> list:
    """The first events of a new game (CASTLE-2): ``game_created``, ``cards_dealt``,
    ``turn_started``.  ``chance`` None makes a physical game, which needs a ``deal``."""
    opts = parse_options(options)
    players = opts["players"]
    n = len(players)
    if opts["physical"] and chance is not None:
        raise UsageError("a physical game has no seed: the referee reports the deal")
    if opts["deal"] is not None:
        deal = parse_deal(opts["deal"], players, opts["beginner"])
    elif chance is None:
        raise UsageError("a physical game (no chance) needs the deal in the options")
    else:
        deal = random_deal(n, opts["beginner"], chance)
    first = opts["first"]
    drawn = first is None
    if first is None:
        first = players[0] if chance is None else players[chance.randbelow(n, "first")]
    created = GameCreated(
        players=players, first=players.index(first), first_drawn=drawn and chance is not None,
        beginner=opts["beginner"], variants=opts["variants"], house=opts["house"],
        hand_limit=hand_limit(n), physical=chance is None, deal_given=opts["deal"] is not None,
        commitment=None if chance is None else chance.commitment,
        seed_chosen=_seed_chosen(options, chance))
    dealt = CardsDealt(
        societies=deal["societies"], professions=deal["professions"], hands=deal["hands"],
        drinks=[n % 2 == 1] * n, item_pile=deal["item_pile"],
        profession_pile=deal["profession_pile"], set_aside=deal["set_aside"],
        removed=deal["removed"])
    return [created, dealt, TurnStarted(player=players.index(first), turn=1)]
