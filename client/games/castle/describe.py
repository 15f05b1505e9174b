"""One sentence per Castle of the Devil event (no rules here: only wording): the ``describe``
and ``describe_map`` of the renderer interface (client.games.castle.render re-exports them).

Each event type has its describer, ``(event, who) -> str`` (``who(seat)``: the player's name,
"someone" for a hidden seat), in :data:`DESCRIBERS` (event class -> describer), filled by the
``@_describes(EventClass)`` decorator on each.
"""

from __future__ import annotations

from engine.games.castle import events as ev

from .. import describer_table

#: event class -> its describer ``(event, who) -> str``; ``_describes(EventClass)`` registers one
DESCRIBERS, _describes = describer_table()


def _item(card) -> str:
    return "an item" if card is None else f"the {card}"


def _list(values) -> str:
    values = [v for v in values if v is not None]
    return ", ".join(values) if values else "nothing"


def _reason(reason: str) -> str:
    return {"hand-limit": "hand limit, CASTLE-3.3", "priest": "paying the priest, CASTLE-6.2",
            "bag": "secret bag, CASTLE-5.1", "privilege": "privilege, CASTLE-5.2",
            "monocle": "monocle, CASTLE-5.3", "fight": "the fight, CASTLE-6.8",
            "diplomat": "Diplomat, CASTLE-7.3", "tie": "tie, CASTLE-6.6"}.get(reason, reason)


def describe(event, names: list[str]) -> str:
    """One sentence for ``event`` (an event object, possibly redacted); ``names``: the
    players in seat order."""
    def who(seat) -> str:
        if seat is None:
            return "someone"
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    describer = DESCRIBERS.get(type(event))
    if describer is None:  # pragma: no cover - every event type has one (tests/games)
        return repr(event)
    return describer(event, who)


@_describes(ev.GameCreated)
def _game_created(e, who) -> str:
    first = e.players[e.first] + (" (drawn)" if e.first_drawn else "")
    parts = [f"New castle game for {', '.join(e.players)}: start player {first}",
             f"hand limit {e.hand_limit}",
             "physical (dealt with the box)" if e.physical else "digital"]
    if e.position:
        parts.append("starts from a position (a game already under way)")
    elif e.deal_given:
        parts.append("deal given")
    parts.append(f"rules text {e.rules}")
    if e.beginner:
        parts.append("beginner game")
    if e.variants:
        parts.append("variants " + ", ".join(e.variants))
    off = [k for k, v in e.house.items() if not v]
    if off:
        parts.append("house rules off: " + ", ".join(off))
    if e.commitment:
        parts.append(f"seed commitment {e.commitment[:16]}...")
    return "; ".join(parts)


@_describes(ev.CardsDealt)
def _cards_dealt(e, who) -> str:
    n = len(e.hands)
    counts = {len(h) for h in e.hands}
    text = (f"Cards dealt: each player gets a society card, a profession and "
            f"{'/'.join(map(str, sorted(counts)))} item(s); item pile {len(e.item_pile)}, "
            f"profession pile {len(e.profession_pile)}")
    if any(e.drinks):
        text += "; everyone gets a Drink of Power and one society card is set aside"
    if e.removed:
        text += f"; removed from the game: {', '.join(e.removed)}"
    known = []
    for seat in range(n):
        facts = [x for x in (e.societies[seat], e.professions[seat]) if x is not None]
        items = [c for c in e.hands[seat] if c is not None]
        if facts or items:
            known.append(f"{who(seat)}: {', '.join(facts + items)}")
    if known:
        text += ". " + "; ".join(known)
    if e.set_aside is not None:
        text += f"; set aside: {e.set_aside}"
    if e.society_cards is not None:
        mine = [f"{who(i)} holds {', '.join(x)}" for i, x in enumerate(e.society_cards)
                if all(c is not None for c in x)]
        text += "; three society cards each (advanced-3p, CASTLE-10.4)"
        if mine:
            text += ": " + "; ".join(mine)
    if e.professions_used and any(e.professions_used):
        text += "; used professions face up: " + ", ".join(
            who(i) for i, u in enumerate(e.professions_used) if u)
    if not e.pile_ordered:
        text += "; the item pile is known only as a set: each card drawn is reported (CASTLE-7.1)"
    elif e.pile_shuffled:
        text += "; the item pile given as a set was shuffled"
    return text


@_describes(ev.TurnStarted)
def _turn_started(e, who) -> str:
    return f"Turn {e.turn}: {who(e.player)}'s turn"


@_describes(ev.TurnPassed)
def _turn_passed(e, who) -> str:
    return f"{who(e.player)} passes (CASTLE-8.1)"


@_describes(ev.TradeOffered)
def _trade_offered(e, who) -> str:
    silent = " (to be kept silent)" if e.silent else ""
    return f"{who(e.giver)} offers {who(e.receiver)} {_item(e.item)}{silent} (CASTLE-4.1)"


@_describes(ev.TradeRefused)
def _trade_refused(e, who) -> str:
    what = "" if e.item is None else f" of {_item(e.item)}"
    return f"{who(e.receiver)} refuses {who(e.giver)}'s offer{what} (CASTLE-4.2)"


@_describes(ev.TradeCompleted)
def _trade_completed(e, who) -> str:
    if e.diplomat:
        head = (f"Diplomat's trade: {who(e.giver)} hands over {_item(e.offered)}, "
                f"the Diplomat {who(e.receiver)} gives back {_item(e.returned)} (CASTLE-7.3)")
    elif e.offered is None:
        head = (f"{who(e.receiver)} accepts {who(e.giver)}'s offer and gives an item back "
                "(CASTLE-4.2)")
    else:
        head = (f"{who(e.receiver)} accepts {_item(e.offered)} from {who(e.giver)} and gives "
                f"back {_item(e.returned)} (CASTLE-4.2)")
    named = []
    if e.offered_named:
        named.append(f"{who(e.receiver)} names the {e.offered_named} "
                     f"({who(e.giver)}'s effect)")
    if e.returned_named:
        named.append(f"{who(e.giver)} names the {e.returned_named} "
                     f"({who(e.receiver)}'s effect)")
    return head + ("; " + "; ".join(named) if named else "; nothing is named")


@_describes(ev.HandLimitExceeded)
def _hand_limit_exceeded(e, who) -> str:
    return (f"{who(e.player)} holds {e.excess} item(s) over the hand limit and must give "
            f"{'it' if e.excess == 1 else 'them'} away (CASTLE-3.3)")


@_describes(ev.ItemGiven)
def _item_given(e, who) -> str:
    return f"{who(e.giver)} gives {who(e.receiver)} {_item(e.item)} ({_reason(e.reason)})"


@_describes(ev.ItemDrawn)
def _item_drawn(e, who) -> str:
    by = "" if e.reporter is None else f"; reported by {e.reporter}"
    return f"{who(e.player)} draws {_item(e.item)} from the pile ({_reason(e.reason)}{by})"


@_describes(ev.DrawAwaited)
def _draw_awaited(e, who) -> str:
    return (f"{who(e.player)} draws from the item pile ({_reason(e.reason)}); the card drawn "
            "is to be reported (CASTLE-7.1)")


@_describes(ev.EffectDeclined)
def _effect_declined(e, who) -> str:
    return f"{who(e.player)} does not use the {e.effect} effect (CASTLE-4.6)"


@_describes(ev.ItemsSeen)
def _items_seen(e, who) -> str:
    seen = "" if e.items is None else f": {_list(e.items)}"
    return f"{who(e.viewer)} looks at all of {who(e.owner)}'s items ({_reason(e.reason)}){seen}"


@_describes(ev.SocietySeen)
def _society_seen(e, who) -> str:
    seen = "" if e.society is None else f": {e.society}"
    which = "" if e.card is None else f" number {e.card + 1} of three (CASTLE-10.4)"
    return (f"{who(e.viewer)} looks at {who(e.owner)}'s society card{which} "
            f"({_reason(e.reason)}){seen}")


@_describes(ev.ProfessionSeen)
def _profession_seen(e, who) -> str:
    seen = "" if e.profession is None else f": {e.profession}"
    return f"{who(e.viewer)} looks at {who(e.owner)}'s profession ({_reason(e.reason)}){seen}"


@_describes(ev.ProfessionsSwapped)
def _professions_swapped(e, who) -> str:
    text = f"{who(e.first)} and {who(e.second)} swap professions (tome, CASTLE-5.4)"
    if e.first_now is not None:
        text += f": {who(e.first)} is now the {e.first_now}, {who(e.second)} the {e.second_now}"
    return text


@_describes(ev.ProfessionPileSeen)
def _profession_pile_seen(e, who) -> str:
    seen = "" if e.pile is None else f": {_list(e.pile)}"
    return f"{who(e.player)} looks through the profession pile (coat, CASTLE-5.5){seen}"


@_describes(ev.ProfessionExchanged)
def _profession_exchanged(e, who) -> str:
    if e.taken is None:
        return (f"{who(e.player)} takes a profession from the pile and puts theirs in "
                "(coat, CASTLE-5.5)")
    return (f"{who(e.player)} takes the {e.taken} from the profession pile and puts the "
            f"{e.returned} in (coat, CASTLE-5.5)")


@_describes(ev.SextantTurned)
def _sextant_turned(e, who) -> str:
    return (f"{who(e.player)} uses the sextant: everyone passes one item to the "
            f"{e.direction} (CASTLE-5.6)")


@_describes(ev.SextantItemChosen)
def _sextant_item_chosen(e, who) -> str:
    return f"{who(e.player)} chooses {_item(e.item)} to pass (sextant)"


@_describes(ev.SextantPassed)
def _sextant_passed(e, who) -> str:
    n = len(e.items)
    known = []
    for seat, card in enumerate(e.items):
        if card is not None:
            to = (seat + 1) % n if e.direction == "left" else (seat - 1) % n
            known.append(f"{who(seat)} passed the {card} to {who(to)}")
    return (f"Everyone passes the chosen item to the {e.direction} (sextant)"
            + (": " + "; ".join(known) if known else ""))


@_describes(ev.ClairvoyantUsed)
def _clairvoyant_used(e, who) -> str:
    seen = "" if e.pile is None else f" (top first: {_list(e.pile)})"
    return (f"{who(e.player)} uses the Clairvoyant and looks through the item pile{seen} "
            "(CASTLE-7.1)")


@_describes(ev.PileArranged)
def _pile_arranged(e, who) -> str:
    top = [c for c in e.pile[:2] if c is not None]
    seen = f": {', '.join(top)} on top" if top else ""
    return (f"{who(e.player)} shuffles the item pile and puts two items back on top{seen} "
            "(CASTLE-7.1)")


@_describes(ev.DiplomatUsed)
def _diplomat_used(e, who) -> str:
    text = (f"{who(e.player)} uses the Diplomat and demands a {e.kind} from {who(e.target)} "
            "(CASTLE-7.3): ")
    if e.holds:
        return text + f"{who(e.target)} holds one and must hand it over"
    return text + (f"{who(e.target)} holds none and shows all items to {who(e.player)}; "
                   f"{who(e.player)}'s turn ends")


@_describes(ev.DiplomatItemChosen)
def _diplomat_item_chosen(e, who) -> str:
    return f"{who(e.player)} hands {_item(e.item)} to the Diplomat {who(e.diplomat)}"


@_describes(ev.BagsTurned)
def _bags_turned(e, who) -> str:
    return ("The item pile is empty: the secret bags now count as a key and a goblet "
            "(CASTLE-9.3)")


@_describes(ev.AttackDeclared)
def _attack_declared(e, who) -> str:
    return f"{who(e.attacker)} attacks {who(e.defender)} (CASTLE-6.1)"


@_describes(ev.SupportDeclared)
def _support_declared(e, who) -> str:
    if e.side == "neutral":
        return f"{who(e.player)} stays neutral (CASTLE-6.3)"
    return f"{who(e.player)} supports the {e.side} (CASTLE-6.3)"


@_describes(ev.PowerUsed)
def _power_used(e, who) -> str:
    if e.power == "priest":
        return f"{who(e.player)} uses the priest and stops the fight (CASTLE-6.2)"
    if e.power == "hypnotist":
        return (f"{who(e.player)} uses the hypnotist on {who(e.target)}: that support is void "
                "(CASTLE-6.4)")
    if e.power == "doctor":
        return f"{who(e.player)} uses the doctor: the fight's result is cancelled (CASTLE-6.7)"
    if e.power == "poison-mixer":
        return f"{who(e.player)} uses the poison-mixer: {who(e.target)} wins (CASTLE-6.5)"
    if e.power in ("dagger", "gloves", "poison-ring", "casting-knives", "whip"):
        return f"{who(e.player)} shows the {e.power} (CASTLE-6.5)"
    return f"{who(e.player)} uses the {e.power} (CASTLE-6.5)"


@_describes(ev.WindowPassed)
def _window_passed(e, who) -> str:
    return f"{who(e.player)} passes ({e.window} window)"


@_describes(ev.FightCounted)
def _fight_counted(e, who) -> str:
    text = f"Count: attacker {e.attacker_total}, defender {e.defender_total}"
    if e.parts:
        text += " (" + count_parts(e.parts, who) + ")"
    if e.winner is None:
        return text + ": a tie (CASTLE-6.6)"
    how = " by the poison-mixer" if e.by_poison_mixer else (
        " by the poison-ring" if e.by_poison_ring else "")
    return text + f": {who(e.winner)} wins{how} (CASTLE-6.6)"


@_describes(ev.FightTied)
def _fight_tied(e, who) -> str:
    if not e.drew:
        return "The tie stands; the pile is empty, so the attacker draws nothing (CASTLE-6.6)"
    return f"The tie stands: {who(e.attacker)} draws {_item(e.item)} (CASTLE-6.6)"


@_describes(ev.FightChoiceMade)
def _fight_choice_made(e, who) -> str:
    if e.choice == "look":
        return (f"{who(e.player)} chooses to look at {who(e.loser)}'s society and "
                "profession (CASTLE-6.8a)")
    return f"{who(e.player)} chooses to look at {who(e.loser)}'s items and take one (CASTLE-6.8b)"


@_describes(ev.ItemTaken)
def _item_taken(e, who) -> str:
    if not e.took:
        return f"{who(e.winner)} takes nothing from {who(e.loser)} (CASTLE-6.8b)"
    text = f"{who(e.winner)} takes {_item(e.item)} from {who(e.loser)} (CASTLE-6.8b)"
    if e.given_back is not None:
        text += f" and gives back the {e.given_back}"
    return text


@_describes(ev.Declared)
def _declared(e, who) -> str:
    kind = {"society": "declares victory for their society",
            "prophecy": "prophesies that the other society holds its relics",
            "coat-of-arms": "declares victory alone with the coat of arms"}.get(e.kind, e.kind)
    named = f", naming {', '.join(who(a) for a in e.allies)}" if e.allies else ""
    verdict = "right" if e.right else "wrong"
    wins = (f"the {e.winning_society} wins" if e.winning_society else f"{who(e.player)} wins alone")
    shown = "; ".join(
        f"{who(r.player)}: {r.society}, {r.profession}, {_list(r.items)}"
        + (", a drink" if r.drink else "") for r in e.revealed)
    text = f"{who(e.player)} {kind}{named}: {verdict}, {wins} (CASTLE-9). Revealed: {shown}"
    if e.faults:
        text += ". Why wrong: " + "; ".join(f.text for f in e.faults)
    return text


@_describes(ev.GameEnded)
def _game_ended(e, who) -> str:
    text = "Game over. Winners: " + (", ".join(who(s) for s in e.winners) or "nobody")
    if e.points:
        text += ". Points: " + ", ".join(f"{k} {v}" for k, v in e.points.items())
    if e.reveal is not None:
        text += f"; seed revealed: {e.reveal.seed}"
    return text


VOID = {"hypnotist": "void: hypnotised, CASTLE-6.4", "duel": "void: a duel, CASTLE-6.5",
        "no-bonus": "no +1: duelist_bonus off, CASTLE-6.5"}


def count_parts(parts, who) -> str:
    """A fight's count with its parts (events.CountPart or maps): "attacker: 1 (own) + 1
    (Cid supports) + 1 (Ann's dagger); defender: ..." with voided parts marked."""
    def get(p, key):
        return p[key] if isinstance(p, dict) else getattr(p, key)

    out = []
    for side in ("attacker", "defender"):
        bits = []
        for p in parts:
            if get(p, "side") != side:
                continue
            source, seat = get(p, "source"), get(p, "player")
            value, void = get(p, "value"), get(p, "void")
            if source == "side":
                what = "own"
            elif source == "support":
                what = f"{who(seat)} supports"
            else:
                what = f"{who(seat)}'s {source}"
            bits.append(f"{value} ({what}" + (f"; {VOID[void]}" if void in VOID else "") + ")")
        out.append(f"{side}: " + " + ".join(bits))
    return "; ".join(out)


def describe_map(data: dict, names: list[str]) -> str:
    """:func:`describe` for an event given as a tagged map (a ``seq`` key is ignored)."""
    from engine.games.castle.events import EVENTS
    return describe(EVENTS.from_map({k: v for k, v in data.items() if k != "seq"}), names)
