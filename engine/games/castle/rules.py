"""Checks of a command against the rules, from what the acting seat knows (used by ``decide``
and by ``legal_commands`` on the seat's own redacted fold).

``check(state, seat, command)`` raises :class:`engine.errors.IllegalCommand` citing the rule.
It reads only the seat's own cards, public facts and what the seat has been shown.
"""

from __future__ import annotations

from ...errors import IllegalCommand
from ...game import seat_of
from . import commands as cmd
from .cards import (ALL_ITEMS, BAG_RELIC, BAGS, FIGHT_ITEMS, ITEM_KINDS, ONCE_ONLY, PROFESSIONS,
                    RELIC, TRADE_EFFECTS, kind, relic_of)
from .state import (SIDES, State, profession_applies, role, used_in_fight, waiting_for)

FRAME_RULE = {
    "turn": ("CASTLE-3.1", "take their turn"),
    "limit": ("CASTLE-3.3", "give away items over the hand limit"),
    "offer": ("CASTLE-4.2", "accept or refuse a trade"),
    "effect": ("CASTLE-4.6", "decide on a trade effect"),
    "sextant": ("CASTLE-5.6", "pass an item for the sextant"),
    "clairvoyant": ("CASTLE-7.1", "put two items back on the pile"),
    "diplomat": ("CASTLE-7.3", "complete the Diplomat's trade"),
    "fight": ("CASTLE-6", "act in the fight"),
    "draw": ("CASTLE-7.1", "report the card drawn from the pile"),
}

STAGE_RULE = {
    "priest": "CASTLE-6.2", "duel": "CASTLE-6.5", "support": "CASTLE-6.3",
    "hypnotist": "CASTLE-6.4",
    "abilities": "CASTLE-6.5", "doctor": "CASTLE-6.7", "priest-payment": "CASTLE-6.2",
    "choice": "CASTLE-6.8", "take": "CASTLE-6.8",
}


def other_society(society: str) -> str:
    """The other society (CASTLE-1.1): order <-> brotherhood."""
    return "brotherhood" if society == "order" else "order"


def bag_clash(state: State, a: str | None, b: str | None) -> bool:
    """CASTLE-4.4: a bag exchanged for the other bag while the pile is not empty."""
    return (not state.bags_turned and a in BAGS and b in BAGS and a != b)


def matches(state: State, card: str | None, wanted: str) -> bool:
    """Whether ``card`` is of the item kind ``wanted`` (CASTLE-7.3: a turned bag is its relic)."""
    if card is None:
        return False
    return kind(card) == wanted or (state.bags_turned and BAG_RELIC.get(card) == wanted)


def may_smuggle(state: State, card: str) -> bool:
    """CASTLE-10.1: with smuggling, the giver of an effect card may keep it silent."""
    return "smuggling" in state.variants and card in TRADE_EFFECTS


def effect_options(state: State, frame: dict) -> list[str]:
    """The choices of an effect frame (CASTLE-5.1 to 5.6); every effect is optional (4.6)."""
    e = frame["effect"]
    if e == "bag":
        return ["draw", "skip"] if state.pile else ["skip"]
    if e == "monocle" and state.society_cards is not None:
        return ["look-1", "look-2", "look-3", "skip"]  # CASTLE-10.4: one of the three cards
    if e in ("privilege", "monocle"):
        return ["look", "skip"]
    if e == "tome":
        return ["swap", "skip"]
    if e == "coat":
        return sorted(set(frame.get("pile") or [])) + ["skip"]
    if e == "sextant":
        return ["left", "right", "skip"]
    return ["skip"]  # pragma: no cover


def _name(state: State, name: str, rule: str) -> int:
    """The seat of player ``name`` (a command naming another player); UnknownPlayer citing
    ``rule`` for a name not in the game (exit 2, as for every command)."""
    seat_of(list(state.players), name, rule)
    return state.seat(name)


def _own(state: State, seat: int, item: str, rule: str, what: str = "that item") -> None:
    if item not in state.hands[seat]:
        raise IllegalCommand(rule, f"you do not hold {item!r}, so you cannot {what}")


def _silent(state: State, card: str, silent: bool) -> None:
    if silent and not may_smuggle(state, card):
        if "smuggling" not in state.variants:
            raise IllegalCommand("CASTLE-10.1", "keeping a card silent needs the smuggling variant")
        raise IllegalCommand("CASTLE-10.1", f"{card} has no trade effect to keep silent")


def check(state: State, seat: int, command) -> None:
    """Raise IllegalCommand unless ``seat`` may submit ``command`` now."""
    if state.over:
        raise IllegalCommand("CASTLE-9.2", "the game is over")
    frame = state.top
    if frame is None:
        raise IllegalCommand("CASTLE-2", "the game has not been dealt yet")
    waiting = waiting_for(state)
    rule, what = FRAME_RULE[frame["kind"]]
    if frame["kind"] == "fight":
        rule = STAGE_RULE.get(frame["stage"], rule)
    if seat not in waiting:
        if (frame["kind"] == "fight" and seat == frame["hypnotised"]
                and isinstance(command, cmd.Use)):
            raise IllegalCommand("CASTLE-6.4", "you are hypnotised: you may use no item and no "
                                               "profession for the rest of this fight")
        names = " and ".join(state.players[s] for s in waiting) or "nobody"
        raise IllegalCommand(rule, f"it is not your move: waiting for {names} to {what}")
    _CHECKS[frame["kind"]](state, seat, frame, command)


def _wrong(rule: str, expected: str):
    raise IllegalCommand(rule, f"now you can only {expected}")


def _check_turn(state: State, seat: int, frame: dict, c) -> None:
    if isinstance(c, cmd.Pass):
        return
    if isinstance(c, cmd.Trade):
        to = _name(state, c.to, "CASTLE-4.1")
        if to == seat:
            raise IllegalCommand("CASTLE-4.1", "you offer an item to another player, "
                                               "not to yourself")
        _own(state, seat, c.item, "CASTLE-4.1", "offer it")
        _silent(state, c.item, c.silent)
        return
    if isinstance(c, cmd.Attack):
        d = _name(state, c.defender, "CASTLE-6.1")
        if d == seat:
            raise IllegalCommand("CASTLE-6.1", "you attack another player, not yourself")
        return
    if isinstance(c, cmd.Declare):
        check_declare(state, seat, c)
        return
    if isinstance(c, cmd.Clairvoyant):
        _fresh_profession(state, seat, "clairvoyant", "CASTLE-7.1")
        return
    if isinstance(c, cmd.Diplomat):
        _fresh_profession(state, seat, "diplomat", "CASTLE-7.3")
        t = _name(state, c.target, "CASTLE-7.3")
        if t == seat:
            raise IllegalCommand("CASTLE-7.3", "the Diplomat names another player")
        if c.kind not in ITEM_KINDS:
            raise IllegalCommand("CASTLE-7.3", f"{c.kind!r} is not an item kind "
                                               f"(kinds: {', '.join(ITEM_KINDS)})")
        if c.kind in BAGS and state.bags_turned:
            raise IllegalCommand("CASTLE-9.3", f"the pile is empty: the bags are a key and a "
                                               f"goblet now; name {BAG_RELIC[c.kind]} instead")
        if state.r2:
            # CASTLE-7.3: any kind may be named; only a demand for a bag the Diplomat could not
            # answer with anything but the other bag (4.4 [house]) is refused
            if c.kind in BAGS and all(bag_clash(state, c.kind, x) for x in state.hands[seat]):
                raise IllegalCommand("CASTLE-7.3", "you could give back only the other bag for "
                                                   "that bag, and before the pile is empty a bag "
                                                   "is never exchanged for the other bag "
                                                   "(CASTLE-4.4)")
            return
        if not any(x != c.kind and not (c.kind in BAGS and bag_clash(state, c.kind, x))
                   for x in state.hands[seat]):
            raise IllegalCommand("CASTLE-4.4", "you could not give anything back for that bag: "
                                               "a bag is never exchanged for the other bag")
        return
    _wrong("CASTLE-3.1", "pass, trade, attack or declare "
                         "(or first use the Clairvoyant or Diplomat)")


def _fresh_profession(state: State, seat: int, prof: str, rule: str) -> None:
    if state.professions[seat] != prof:
        raise IllegalCommand(rule, f"you are not the {prof}")
    if state.prof_used[seat]:
        raise IllegalCommand("CASTLE-6.9", f"your {prof} is already used")


def check_declare(state: State, seat: int, c) -> None:
    """CASTLE-9.1, 9.5, 10.2, 5.7: may ``seat`` make this declaration?"""
    hand = state.hands[seat]
    if "black-pearl" in hand:
        raise IllegalCommand("CASTLE-5.7", "whoever holds the black pearl cannot declare victory")
    if len(set(c.allies)) != len(c.allies):
        raise IllegalCommand("CASTLE-9.2", "you named a player twice")
    for name in c.allies:
        if _name(state, name, "CASTLE-9.2") == seat:
            raise IllegalCommand("CASTLE-9.2", "you name others, not yourself")
    if c.kind == "society":
        relic = RELIC[state.societies[seat]]
        if not any(relic_of(x, state.bags_turned) == relic for x in hand):
            raise IllegalCommand("CASTLE-9.1", f"to declare you must hold at least one {relic} "
                                               f"yourself (a bag counts only once the pile is "
                                               f"empty, CASTLE-9.3; your Drink of Power never "
                                               f"does)")
    elif c.kind == "prophecy":
        if "prophecy" not in state.variants:
            raise IllegalCommand("CASTLE-10.2", "prophecy needs the prophecy variant")
        if not c.allies:
            raise IllegalCommand("CASTLE-10.2", "a prophecy names the opponents who hold "
                                                "their relics")
    elif c.kind == "coat-of-arms":
        if "coat-of-arms" not in hand:
            raise IllegalCommand("CASTLE-9.5", "only the holder of the coat of arms may "
                                               "declare alone")
        if c.allies:
            raise IllegalCommand("CASTLE-9.5", "the coat of arms declares alone, naming nobody")
        relics = sum(1 for x in hand if relic_of(x, state.bags_turned))
        if relics < 3 and state.house.get("coat_of_arms_refused", True):
            bags = [x for x in hand if x in BAGS] if not state.bags_turned else []
            extra = (f"; your {' and '.join(bags)} count only once the item pile is empty "
                     f"(CASTLE-9.3)" if bags else "")
            raise IllegalCommand("CASTLE-9.5", f"you hold {relics} relic(s); the coat of arms "
                                               f"needs three in your own hand{extra}")
    else:
        raise IllegalCommand("CASTLE-9", f"a declaration is society, prophecy or coat-of-arms, "
                                         f"not {c.kind!r}")


def must_refuse(state: State, seat: int, offered: str | None) -> bool:
    """CASTLE-4.4: the receiver's only item is the other bag."""
    hand = state.hands[seat]
    return len(hand) == 1 and bag_clash(state, offered, hand[0])


def _check_offer(state: State, seat: int, frame: dict, c) -> None:
    offered = frame["item"]
    if isinstance(c, cmd.Refuse):
        if offered in ("black-pearl", "broken-mirror"):
            raise IllegalCommand("CASTLE-4.3", f"the {offered} cannot be refused")
        return
    if isinstance(c, cmd.Accept):
        if must_refuse(state, seat, offered):
            raise IllegalCommand("CASTLE-4.4", "your only item is the other bag: you must refuse")
        _own(state, seat, c.item, "CASTLE-4.2", "give it back")
        if bag_clash(state, offered, c.item):
            raise IllegalCommand("CASTLE-4.4", "a bag is never exchanged for the other bag: "
                                               "give back something else")
        _silent(state, c.item, c.silent)
        return
    _wrong("CASTLE-4.2", "accept (giving back an item) or refuse the offer")


def _check_limit(state: State, seat: int, frame: dict, c) -> None:
    if not isinstance(c, cmd.Give):
        _wrong("CASTLE-3.3", f"give items away until you hold {state.limit}")
    _own(state, seat, c.item, "CASTLE-3.3", "give it away")
    if _name(state, c.to, "CASTLE-3.3") == seat:
        raise IllegalCommand("CASTLE-3.3", "give the item to another player")
    if c.silent:
        raise IllegalCommand("CASTLE-3.3", "a give-away has no effect to keep silent")


def _check_effect(state: State, seat: int, frame: dict, c) -> None:
    options = effect_options(state, frame)
    if not isinstance(c, cmd.Choose) or c.option not in options:
        rule = {"bag": "CASTLE-5.1", "privilege": "CASTLE-5.2", "monocle": "CASTLE-5.3",
                "tome": "CASTLE-5.4", "coat": "CASTLE-5.5",
                "sextant": "CASTLE-5.6"}[frame["effect"]]
        raise IllegalCommand(rule, f"choose one of: {', '.join(options)} "
                                   f"(the {frame['effect']} effect)")


def _check_sextant(state: State, seat: int, frame: dict, c) -> None:
    to = state.left(seat) if frame["direction"] == "left" else state.right(seat)
    if not isinstance(c, cmd.Give):
        _wrong("CASTLE-5.6", f"give an item to {state.players[to]}")
    _own(state, seat, c.item, "CASTLE-5.6", "pass it")
    if c.to != state.players[to]:
        raise IllegalCommand("CASTLE-5.6", f"the sextant passes items {frame['direction']}: "
                                           f"to {state.players[to]}")
    if c.silent:
        raise IllegalCommand("CASTLE-5.6", "items passed by the sextant have no effect")


def _check_clairvoyant(state: State, seat: int, frame: dict, c) -> None:
    pile = frame["pile"] or []
    need = min(2, len(pile))
    if not isinstance(c, cmd.Arrange):
        _wrong("CASTLE-7.1", f"choose {need} item(s) of the pile to put back on top")
    if len(c.top) != need or len(set(c.top)) != need or any(x not in pile for x in c.top):
        raise IllegalCommand("CASTLE-7.1", f"put exactly {need} different item(s) of the pile "
                                           f"on top")


def _check_diplomat(state: State, seat: int, frame: dict, c) -> None:
    if not isinstance(c, cmd.Give):
        _wrong("CASTLE-7.3", "give the item")
    _own(state, seat, c.item, "CASTLE-7.3", "give it")
    if frame["stage"] == "hand":
        if c.to != state.players[frame["diplomat"]]:
            raise IllegalCommand("CASTLE-7.3", "the item goes to the Diplomat")
        if not matches(state, c.item, frame["want"]):
            raise IllegalCommand("CASTLE-7.3", f"the Diplomat asked for a {frame['want']}")
    else:
        if c.to != state.players[frame["target"]]:
            raise IllegalCommand("CASTLE-7.3", "you give back an item to the player you "
                                               "traded with")
        if bag_clash(state, frame["item"], c.item):
            raise IllegalCommand("CASTLE-4.4", "a bag is never exchanged for the other bag")
    if c.silent:
        if not state.house.get("diplomat_smuggling", True):
            raise IllegalCommand("CASTLE-10.1", "the house rules do not allow smuggling in the "
                                                "Diplomat's trade")
        _silent(state, c.item, c.silent)


def check_use(state: State, seat: int, f: dict, c) -> None:
    """CASTLE-6.5, 5.9 to 5.13, 5.15: an item or profession used in the ability round."""
    power = c.power
    r = role(f, seat)
    if power in FIGHT_ITEMS:
        _own(state, seat, power, "CASTLE-5.15", "show it")
        allowed = {"dagger": ("attacker",), "gloves": ("defender",),
                   "poison-ring": ("attacker", "defender"),
                   "casting-knives": ("attacker-supporter",),
                   "whip": ("defender-supporter",)}[power]
        rule = {"dagger": "CASTLE-5.9", "gloves": "CASTLE-5.10", "poison-ring": "CASTLE-5.11",
                "casting-knives": "CASTLE-5.12", "whip": "CASTLE-5.13"}[power]
        if r not in allowed:
            raise IllegalCommand(rule, f"the {power} helps only the {' or '.join(allowed)}")
        if used_in_fight(f, seat, power):
            raise IllegalCommand("CASTLE-5.15", "each item is shown once per fight")
        if c.target is not None:
            raise IllegalCommand("CASTLE-6.5", "an item names no target")
        return
    if power in PROFESSIONS:
        if state.professions[seat] != power:
            raise IllegalCommand("CASTLE-6.5", f"you are not the {power}")
        if power in ONCE_ONLY and state.prof_used[seat]:
            raise IllegalCommand("CASTLE-6.9", f"your {power} is already used")
        if used_in_fight(f, seat, power):
            raise IllegalCommand("CASTLE-6.5", f"you already used the {power} in this fight")
        if not profession_applies(power, f, seat):
            raise IllegalCommand("CASTLE-6.5", f"the {power} cannot be used by you in this "
                                               f"fight now")
        if power == "poison-mixer":
            if c.target not in (state.players[f["attacker"]], state.players[f["defender"]]):
                raise IllegalCommand("CASTLE-6.5", "the poison-mixer names the winner: the "
                                                   "attacker or the defender")
        elif c.target is not None:
            raise IllegalCommand("CASTLE-6.5", f"the {power} names no target")
        return
    raise IllegalCommand("CASTLE-6.5", f"{power!r} cannot be used in a fight")


def _check_fight(state: State, seat: int, f: dict, c) -> None:
    stage = f["stage"]
    rule = STAGE_RULE[stage]
    if stage in ("priest", "hypnotist", "doctor"):
        power = {"priest": "priest", "hypnotist": "hypnotist", "doctor": "doctor"}[stage]
        if isinstance(c, cmd.Pass):
            return
        if not isinstance(c, cmd.Use) or c.power != power:
            _wrong(rule, f"use the {power} or pass")
        if state.professions[seat] != power:
            raise IllegalCommand(rule, f"you are not the {power}")
        if power != "hypnotist" and state.prof_used[seat]:
            raise IllegalCommand("CASTLE-6.9", f"your {power} is already used")
        if c.target is not None and not (power == "hypnotist"
                                         and c.target == state.players[f["last_supporter"]]):
            raise IllegalCommand(rule, f"the {power} names no other target")
        return
    if stage == "duel":  # CASTLE-6.5 (r2): a duel called before the support round
        if isinstance(c, cmd.Pass):
            return
        if not isinstance(c, cmd.Use) or c.power != "duelist":
            _wrong(rule, "use the duelist or pass")
        if state.professions[seat] != "duelist":
            raise IllegalCommand(rule, "you are not the duelist")
        if state.prof_used[seat]:
            raise IllegalCommand("CASTLE-6.9", "your duelist is already used")
        if c.target is not None:
            raise IllegalCommand(rule, "the duelist names no target")
        return
    if stage == "support":
        if not isinstance(c, cmd.Support) or c.side not in SIDES:
            _wrong(rule, "support the attacker or the defender, or stay neutral")
        return
    if stage == "abilities":
        if isinstance(c, cmd.Pass):
            return
        if not isinstance(c, cmd.Use):
            _wrong(rule, "use an item or profession, or pass")
        check_use(state, seat, f, c)
        return
    if stage == "priest-payment":
        if not isinstance(c, cmd.Give):
            _wrong(rule, "give the priest one of your items")
        _own(state, seat, c.item, rule, "give it")
        if c.to != state.players[f["priest"]]:
            raise IllegalCommand(rule, f"the item goes to the priest, {state.players[f['priest']]}")
        if c.silent:
            raise IllegalCommand(rule, "paying the priest has no effect to keep silent")
        return
    if stage == "choice":
        looks = choice_options(state)
        if not isinstance(c, cmd.Choose) or c.option not in looks:
            _wrong(rule, f"choose {' or '.join(looks[:-1])} (society and profession) "
                         f"or take (an item)")
        return
    if stage == "take":
        if not isinstance(c, cmd.Take):
            _wrong(rule, "take one of the loser's items" + (" or none" if state.r2 else ""))
        loser = f["defender"] if seat == f["attacker"] else f["attacker"]
        if c.item is None:
            if not state.r2:
                raise IllegalCommand(rule, "take one of the loser's items")
            if c.give_back is not None:
                raise IllegalCommand(rule, "taking nothing, you give nothing back")
            return
        if c.item not in (f["loser_items"] or []):
            raise IllegalCommand(rule, f"{state.players[loser]} does not hold {c.item!r}")
        if state.count(loser) == 1:
            if c.give_back is None:
                raise IllegalCommand("CASTLE-3.4", "that is their last item: give them one of "
                                                   "yours")
            # r2: the item just taken may be given back (CASTLE-6.8b [house])
            if c.give_back not in state.hands[seat] and not (state.r2 and c.give_back == c.item):
                raise IllegalCommand("CASTLE-6.8", f"you do not hold {c.give_back!r}")
        elif c.give_back is not None:
            raise IllegalCommand("CASTLE-6.8", "you give an item back only when you take the "
                                               "last one")
        return
    raise IllegalCommand(rule, "nobody acts in this part of the fight")  # pragma: no cover


def choice_options(state: State) -> list[str]:
    """The fight winner's choices (CASTLE-6.8): ``look`` (in advanced-3p ``look-1`` to
    ``look-3``, the society card looked at, CASTLE-10.4) or ``take``."""
    if state.society_cards is not None:
        return ["look-1", "look-2", "look-3", "take"]
    return ["look", "take"]


def _check_draw(state: State, seat: int, frame: dict, c) -> None:
    if not isinstance(c, cmd.Draw):
        _wrong("CASTLE-7.1", "report the card you drew from the pile (draw ITEM)")
    if c.item not in ALL_ITEMS:
        raise IllegalCommand("CASTLE-1.3", f"{c.item!r} is not an item id")
    if c.item in state.hands[seat] or (None not in state.pile and c.item not in state.pile):
        raise IllegalCommand("CASTLE-7.1", f"the {c.item} is not in the item pile (the pile holds "
                                   f"{len(state.pile)} card(s); a card drawn must come from it)")


_CHECKS = {
    "turn": _check_turn, "offer": _check_offer, "limit": _check_limit, "effect": _check_effect,
    "sextant": _check_sextant, "clairvoyant": _check_clairvoyant, "diplomat": _check_diplomat,
    "fight": _check_fight, "draw": _check_draw,
}
