"""Options of a new Castle of the Devil game and the deal (CASTLE-2).

``setup(options, chance)`` checks the options map and returns the first events:
``game_created``, ``cards_dealt``, ``turn_started``.  Options (docs/castle-rules.md)::

    {"players": ["Ann", "Ben", "Cid"],   # RULES.min_players to max_players, clockwise
     "first": "Ben" | None,                # None: drawn by chance (physical: the first listed)
     "beginner": False,                    # CASTLE-2.6
     "variants": ["smuggling", "prophecy", "scoring"],   # CASTLE-10, any subset
     "house": {"doctor_cancels_tie_draw": True, ...},    # see HOUSE_DEFAULTS
     "deal": None | {...},                 # a fixed deal, see parse_deal
     "position": None | {...},             # a game already under way: the position file itself
                                           # (engine.games.castle.position; see position_options)
     "physical": False,                    # True: played with the box, no chance (needs a deal)
     "rules": "castle-2006-r2"}            # the rules text: RULES_VERSIONS (old logs: castle-2006)

``physical`` is what ``GameService.create`` reads to create the game without chance; ``setup``
checks it agrees with the chance it is given.
"""

from __future__ import annotations

from typing import Any

from ...errors import UsageError
from .cards import (ALL_ITEMS, BAGS, BROTHERHOOD, ORDER, PROFESSIONS, SEALED, SOCIETIES,
                    UNSEALED, hand_limit)
from .events import BagsTurned, CardsDealt, GameCreated, TurnStarted

VARIANTS = ("smuggling", "prophecy", "scoring", "advanced-3p")

#: The rules text a game is played under, recorded in ``game_created.rules``.  ``castle-2006``:
#: the text before issue 10 (logs recorded then verify and replay under it); ``castle-2006-r2``:
#: the text corrected against the printed rules (docs/rules/castle.md), the default.
OLD_RULES = "castle-2006"
NEW_RULES = "castle-2006-r2"
RULES_VERSIONS = (OLD_RULES, NEW_RULES)

#: Switchable house rules (docs/castle-rules.md), all recorded in ``game_created``.
HOUSE_DEFAULTS: dict[str, bool] = {
    # CASTLE-6.7: a doctor also cancels the tie draw
    "doctor_cancels_tie_draw": True,
    # CASTLE-4.6: a sextant resolves after the other traded card's effect (r2: off)
    "sextant_last": False,
    # CASTLE-9.5: a coat-of-arms claim that does not hold is refused (False: it loses)
    "coat_of_arms_refused": True,
    # CASTLE-7.3, 10.1: in the Diplomat's trade, too, a giver may smuggle (only with smuggling)
    "diplomat_smuggling": True,
    # CASTLE-6.5: the duelist's side gets +1 (the English rules text; the German card has none)
    "duelist_bonus": True,
}

#: The house rules (and defaults) of the old rules text ``castle-2006``.
OLD_HOUSE_DEFAULTS: dict[str, bool] = {
    "doctor_cancels_tie_draw": True, "sextant_last": True, "coat_of_arms_refused": True,
    "diplomat_smuggling": True,
}

KNOWN_OPTIONS = {"players", "first", "beginner", "variants", "house", "deal", "physical",
                 "seed_chosen", "rules", "position"}


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


#: the game's options a position file may carry (its other fields are the cards), and the
#: option each one is: ``active`` is the start player (``first``)
POSITION_OPTIONS = {"players": "players", "active": "first", "variants": "variants",
                    "beginner": "beginner", "house": "house"}


def position_options(options: dict) -> dict:
    """``options`` with a ``position`` given as the position file itself (the file
    ``devil new castle --position FILE`` reads, docs/castle-rules.md) taken apart: its
    ``players``, ``active``, ``variants``, ``beginner`` and ``house`` become the options
    ``players``, ``first``, ``variants``, ``beginner`` and ``house``, its cards stay the
    ``position``; without ``players`` anywhere the seats are the order of its ``seats``.
    An option given both beside the position and in it must agree (UsageError naming both);
    a position of cards only is returned as it is."""
    position = options.get("position")
    if not isinstance(position, dict):
        return options
    lifted = {key: position[key] for key in POSITION_OPTIONS if key in position}
    if not lifted and options.get("players") is not None:
        return options
    out = dict(options)
    out["position"] = {k: v for k, v in position.items() if k not in POSITION_OPTIONS}
    if "players" not in lifted and options.get("players") is None:
        seats = position.get("seats")
        if isinstance(seats, dict):
            lifted["players"] = list(seats)
    for key, value in lifted.items():
        option = POSITION_OPTIONS[key]
        if value is None:
            continue
        beside = options.get(option)
        if beside is not None and beside != value:
            raise UsageError(f"position.{key} is {value!r} but the option {option!r} beside it "
                             f"is {beside!r}: give it once (docs/castle-rules.md)"[:300])
        out[option] = value
    return out


def parse_options(options: Any) -> dict:
    """The checked options as a dict with every key filled in; raises UsageError.  A
    ``position`` may be the position file itself (:func:`position_options`)."""
    if not isinstance(options, dict):
        raise UsageError("castle options must be a map")
    options = position_options(options)
    unknown = set(options) - KNOWN_OPTIONS
    if unknown:
        raise UsageError(f"unknown castle option(s): {', '.join(sorted(unknown))} "
                         f"(known: {', '.join(sorted(KNOWN_OPTIONS))})")
    from . import RULES

    players = RULES.check_players(options.get("players"))
    rules = options.get("rules", NEW_RULES)
    if rules not in RULES_VERSIONS:
        raise UsageError(f"rules must be one of {', '.join(RULES_VERSIONS)}, not {rules!r}")
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
    if "advanced-3p" in variants:
        if rules == OLD_RULES:
            raise UsageError(f"advanced-3p is not in the rules text {OLD_RULES} (CASTLE-10.4)")
        if len(players) != 3:
            raise UsageError("advanced-3p is the 3-player variant: it needs exactly 3 players "
                             "(CASTLE-10.4)")
    defaults = OLD_HOUSE_DEFAULTS if rules == OLD_RULES else HOUSE_DEFAULTS
    house = dict(defaults)
    given = options.get("house") or {}
    if not isinstance(given, dict):
        raise UsageError("house must be a map of house rule -> true/false")
    for key, value in given.items():
        if key not in defaults:
            raise UsageError(f"unknown house rule {key!r} (known: {', '.join(defaults)})")
        if not isinstance(value, bool):
            raise UsageError(f"house rule {key!r} must be true or false")
        house[key] = value
    physical = options.get("physical", False)
    if not isinstance(physical, bool):
        raise UsageError("physical must be true or false")
    if options.get("deal") is not None and options.get("position") is not None:
        raise UsageError("give a deal or a position, not both")
    return {"players": list(players), "first": first, "beginner": beginner,
            "variants": [v for v in VARIANTS if v in variants], "house": house,
            "deal": options.get("deal"), "physical": physical, "rules": rules,
            "position": options.get("position")}


def _society_of(cards: list[str]) -> str:
    """CASTLE-10.4: the society of which a player holds two or three of their three cards."""
    return ORDER if cards.count(ORDER) >= 2 else BROTHERHOOD


def parse_deal(deal: Any, players: list[str], beginner: bool, *, advanced: bool = False,
               physical: bool = False, rules: str = NEW_RULES, position: bool = False,
               limit: int | None = None) -> dict:
    """Check a fixed deal (or, with ``position``, a position) and return it as seat-ordered
    lists; raises UsageError with the reason (and the rule).

    Format (docs/castle-rules.md)::

        {"seats": {"Ann": {"society": "order", "profession": "priest", "items": ["bag-key"]}, ...},
         "item_pile": ["dagger", ...],          # top first: every item in play not in a hand
         "pile_ordered": true,                  # false: the pile is a set (its order unknown)
         "profession_pile": ["thug", ...],      # the professions not dealt
         "set_aside": "brotherhood"}            # odd player counts only (CASTLE-2.2)

    ``item_pile`` may be left out when the pile is a set, ``profession_pile`` always: they
    are every card not in a seat.  ``pile_ordered`` defaults to true in a digital game and false in
    a physical game under the corrected rules (the referee reports each card drawn, CASTLE-7.1);
    under the old text ``castle-2006`` the pile is always ordered.  With ``advanced-3p`` each
    seat gives ``society_cards`` (three society cards, CASTLE-10.4) instead of ``society``.  A
    position (engine.games.castle.position) adds per seat ``profession_used`` and ``drink``,
    and any hand sizes within 1 and the hand limit.
    """
    n = len(players)
    what = "position" if position else "deal"
    if not isinstance(deal, dict):
        raise UsageError(f"{what} must be a map")
    fields = {"seats", "item_pile", "profession_pile", "set_aside", "pile_ordered"}
    if position:
        fields |= {"turn"}
    unknown = set(deal) - fields
    if unknown:
        raise UsageError(f"unknown {what} field(s): {', '.join(sorted(unknown))} "
                         f"(known: {', '.join(sorted(fields))})")
    seats = deal.get("seats")
    if not isinstance(seats, dict) or set(seats) != set(players):
        raise UsageError(f"{what}.seats must have exactly one entry per player")
    societies, professions, hands, cards3, used, drinks = [], [], [], [], [], []
    need = {"profession", "items"}
    allowed = need | {"society", "society_cards"}
    if position:
        allowed |= {"profession_used", "drink"}
    for name in players:
        entry = seats[name]
        soc: str | None
        if not isinstance(entry, dict) or not need <= set(entry) or set(entry) - allowed:
            raise UsageError(f"{what}.seats.{name} needs profession, items and "
                             f"{'society_cards' if advanced else 'society'} "
                             f"(allowed: {', '.join(sorted(allowed))})")
        if advanced:
            sc = entry.get("society_cards")
            if not isinstance(sc, list) or len(sc) != 3 or any(x not in SOCIETIES for x in sc):
                raise UsageError(f"advanced-3p: {name} holds three society cards "
                                 f"(society_cards, each order or brotherhood; CASTLE-10.4)")
            soc = _society_of(sc)
            if entry.get("society", soc) != soc:
                raise UsageError(f"{name} holds {sc.count(soc)} {soc} card(s), so belongs to "
                                 f"the {soc}, not the {entry['society']} (CASTLE-10.4)")
            cards3.append(list(sc))
        else:
            if "society_cards" in entry:
                raise UsageError("society_cards are for the advanced-3p variant (CASTLE-10.4)")
            soc = entry.get("society")
            if not isinstance(soc, str) or soc not in SOCIETIES:
                raise UsageError(f"{name}'s society must be one of {', '.join(SOCIETIES)}")
        if not isinstance(entry["profession"], str) or entry["profession"] not in PROFESSIONS:
            raise UsageError(f"{name}'s profession {entry['profession']!r} is not a profession")
        items = entry["items"]
        if not isinstance(items, list) or not all(isinstance(c, str) for c in items):
            raise UsageError(f"{name}'s items must be a list of item ids")
        flag = entry.get("profession_used", False)
        if not isinstance(flag, bool):
            raise UsageError(f"{name}'s profession_used must be true or false")
        drink = entry.get("drink", n % 2 == 1)
        if drink is not (n % 2 == 1):
            raise UsageError(f"{name}: with {n} players every player holds "
                             f"{'a' if n % 2 else 'no'} Drink of Power; drinks never change "
                             "hands (CASTLE-1.4, 2.3)")
        societies.append(soc)
        professions.append(entry["profession"])
        hands.append(list(items))
        used.append(flag)
        drinks.append(drink)
    set_aside = deal.get("set_aside")
    if advanced:
        if set_aside not in SOCIETIES:
            raise UsageError("advanced-3p: set_aside is the tenth society card (order or "
                             "brotherhood; CASTLE-10.4)")
        flat = [c for sc in cards3 for c in sc] + [set_aside]
        if flat.count(ORDER) != 5:
            raise UsageError("advanced-3p: the nine society cards dealt and the one set aside "
                             "are the box's 5 of each society (CASTLE-1.1, 10.4)")
    elif n % 2:
        if set_aside not in SOCIETIES:
            raise UsageError("with an odd number of players the deal needs set_aside "
                             "(order or brotherhood)")
        counted = societies + [set_aside]
        if counted.count(ORDER) != (n + 1) // 2:
            raise UsageError(f"with {n} players the seats and the set-aside card hold "
                             f"{(n + 1) // 2} cards of each society (CASTLE-2.2)")
    else:
        if set_aside is not None:
            raise UsageError("with an even number of players there is no set-aside society card")
        if societies.count(ORDER) != n // 2:
            raise UsageError(f"with {n} players each society has {n // 2} members (CASTLE-2.2)")
    ordered = deal.get("pile_ordered", not physical)
    if not isinstance(ordered, bool):
        raise UsageError("pile_ordered must be true or false")
    if rules == OLD_RULES:
        ordered = True
    prof_pile = deal.get("profession_pile")
    if prof_pile is None:  # the professions not in a seat (their order never matters)
        prof_pile = [p for p in PROFESSIONS if p not in professions]
    if not isinstance(prof_pile, list) or not all(isinstance(p, str) for p in prof_pile):
        raise UsageError(f"{what}.profession_pile must be a list of profession names")
    all_profs = professions + prof_pile
    if sorted(all_profs) != sorted(PROFESSIONS):
        dup = sorted({p for p in all_profs if all_profs.count(p) > 1})
        raise UsageError("the professions dealt and the profession pile must be the "
                         "10 professions, each once"
                         + (f" ({', '.join(dup)} twice)" if dup else ""))
    playing, removed = in_play(n, beginner)
    pile = deal.get("item_pile")
    held = [c for h in hands for c in h]
    if pile is None and not ordered:
        pile = [c for c in playing if c not in held]
    if not isinstance(pile, list) or not all(isinstance(c, str) for c in pile):
        raise UsageError(f"{what}.item_pile must be a list of item ids"
                         + ("" if ordered else " (or left out: every item not in a hand)"))
    all_items = held + pile
    for c in all_items:
        if c not in ALL_ITEMS:
            raise UsageError(f"{c!r} is not an item id (items: {', '.join(ALL_ITEMS)})")
    dup = sorted({c for c in all_items if all_items.count(c) > 1})
    if dup:
        raise UsageError(f"item(s) dealt twice: {', '.join(dup)} (each card is in the box once, "
                         "CASTLE-1.3)")
    out = sorted(set(all_items) & set(removed))
    if out:
        raise UsageError(f"item(s) not in this game: {', '.join(out)} (CASTLE-2.5, 2.6)")
    missing = sorted(set(playing) - set(all_items))
    if missing:
        raise UsageError(f"item(s) missing from the {what}: {', '.join(missing)}")
    if not ordered:  # a set: kept in the box's order, so the record says nothing of the real one
        pile = [c for c in ALL_ITEMS if c in pile]
    sealed_or_bag = set(SEALED) | set(BAGS)
    if position:
        lim = limit or hand_limit(n)
        for name, h in zip(players, hands):
            if not 1 <= len(h) <= lim:
                raise UsageError(f"{name} holds {len(h)} item(s): every player holds at least "
                                 f"one (CASTLE-3.4) and at most {lim} (CASTLE-2.7)")
    elif n == 3:
        if any(len(h) != 2 for h in hands):
            raise UsageError("with 3 players each player starts with 2 items (CASTLE-2.5)")
        # two hands hold one bag each, the third a sealed item; the second card is any draw
        bag_seats = [i for i, h in enumerate(hands) if set(h) & set(BAGS)]
        if len(bag_seats) != 2 or any(len(set(hands[i]) & set(BAGS)) != 1 for i in bag_seats):
            raise UsageError("the two bags must be dealt to two different players (CASTLE-2.4)")
        other = [h for i, h in enumerate(hands) if i not in bag_seats][0]
        if not set(other) & set(SEALED):
            raise UsageError("the player without a bag must have been dealt a sealed item "
                             "(CASTLE-2.4)")
    else:
        if any(len(h) != 1 for h in hands):
            raise UsageError("each player starts with exactly 1 item (CASTLE-2.4)")
        starting = [h[0] for h in hands]
        if not set(BAGS) <= set(starting):
            raise UsageError("both bags must be among the starting items (CASTLE-2.4)")
        bad = [c for c in starting if c not in sealed_or_bag]
        if bad:
            raise UsageError(f"starting items are the bags and sealed items, not "
                             f"{', '.join(bad)} (CASTLE-1.6, 2.4)")
    turn = deal.get("turn", 1)
    if not isinstance(turn, int) or isinstance(turn, bool) or not 1 <= turn <= 10000:
        raise UsageError("turn must be a whole number from 1 (the turn now being played)")
    return {"societies": societies, "professions": professions, "hands": hands,
            "item_pile": list(pile), "profession_pile": list(prof_pile), "set_aside": set_aside,
            "removed": removed, "pile_ordered": ordered,
            "society_cards": cards3 if advanced else None,
            "professions_used": used if position else None, "turn": turn}


def random_deal(n: int, beginner: bool, chance, advanced: bool = False) -> dict:
    """A deal drawn by ``chance`` (CASTLE-2.1 to 2.5, 10.4), in the shape of :func:`parse_deal`."""
    profs = chance.shuffled(list(PROFESSIONS), "deal", "professions")
    per = (n + 1) // 2
    cards3 = None
    if advanced:  # CASTLE-10.4: all 10 society cards, 3 to each player, one set aside
        flat = chance.shuffled([ORDER] * 5 + [BROTHERHOOD] * 5, "deal", "societies")
        cards3 = [flat[3 * i:3 * i + 3] for i in range(n)]
        cards = [_society_of(c) for c in cards3] + [flat[9]]
    else:
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
            "set_aside": cards[n] if n % 2 else None, "removed": removed, "pile_ordered": True,
            "society_cards": cards3, "professions_used": None, "turn": 1}


def setup(options: dict, chance) -> list:
    """The first events of a new game (CASTLE-2): ``game_created``, ``cards_dealt``,
    ``turn_started`` (and ``bags_turned`` for a position with an empty pile).  ``chance`` None
    makes a physical game, which needs a ``deal`` or a ``position``.  A pile given as a set
    (``pile_ordered`` false) is shuffled by ``chance`` in a digital game and stays a set in a
    physical one (the referee reports each draw, CASTLE-7.1)."""
    opts = parse_options(options)
    players = opts["players"]
    n = len(players)
    advanced = "advanced-3p" in opts["variants"]
    physical = chance is None
    if opts["physical"] and chance is not None:
        raise UsageError("a physical game has no seed: the referee reports the deal")
    given = opts["deal"] if opts["deal"] is not None else opts["position"]
    if given is not None:
        deal = parse_deal(given, players, opts["beginner"], advanced=advanced,
                          physical=physical, rules=opts["rules"],
                          position=opts["position"] is not None)
        if not deal["pile_ordered"] and chance is not None:
            deal["item_pile"] = chance.shuffled(deal["item_pile"], "deal", "pile")
            deal["pile_ordered"] = True
            deal["pile_shuffled"] = True
    elif chance is None:
        raise UsageError("a physical game (no chance) needs the deal (or a position) "
                         "in the options")
    else:
        deal = random_deal(n, opts["beginner"], chance, advanced)
    first = opts["first"]
    drawn = first is None
    if first is None:
        first = players[0] if chance is None else players[chance.randbelow(n, "first")]
    created = GameCreated(
        players=players, first=players.index(first), first_drawn=drawn and chance is not None,
        beginner=opts["beginner"], variants=opts["variants"], house=opts["house"],
        hand_limit=hand_limit(n), physical=chance is None,
        deal_given=given is not None,
        commitment=None if chance is None else chance.commitment,
        rules=opts["rules"], seed_chosen=_seed_chosen(options, chance),
        position=opts["position"] is not None)
    dealt = CardsDealt(
        societies=deal["societies"], professions=deal["professions"], hands=deal["hands"],
        drinks=[n % 2 == 1] * n, item_pile=deal["item_pile"],
        profession_pile=deal["profession_pile"], set_aside=deal["set_aside"],
        removed=deal["removed"], pile_ordered=deal["pile_ordered"],
        society_cards=deal["society_cards"], professions_used=deal["professions_used"],
        pile_shuffled=deal.get("pile_shuffled", False))
    out = [created, dealt]
    if not deal["item_pile"]:
        out.append(BagsTurned())
    return out + [TurnStarted(player=players.index(first), turn=deal["turn"])]
