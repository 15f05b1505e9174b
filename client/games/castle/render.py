"""Text for Castle of the Devil events and views (no rules here: only wording).

The renderer interface (``client.common.renderer_for``):

* ``describe(event, names) -> str``: one sentence for an event object as the viewer saw it
  (a redacted event has its hidden fields None: "an item" instead of "the dagger");
  ``names`` are the players in seat order (events name seats by index).
* ``describe_map(map, names)``: the same for a tagged event map (a ``seq`` key is ignored).
* ``table(view, you) -> str``: the table for ``devil show`` from a view map
  (``engine.games.castle.view.view``): each player's society, profession and items as far as
  the viewer knows, item counts, drinks, used professions, the piles, the fight and whose
  window it is, open decisions, who must act, what the viewer learned.
* ``summarize_legal(commands) -> str``: a compact phrase for a seat's legal command maps.
* ``next_hint(view) -> str``: who the table waits for.
"""

from __future__ import annotations

from engine.games.castle import RULES
from engine.games.castle import events as ev

SOCIETY_NAMES = {"order": "Order of Open Secrets", "brotherhood": "Brotherhood of True Lies"}


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
    """One sentence for ``event`` (an event object, possibly redacted)."""
    def who(seat) -> str:
        if seat is None:
            return "someone"
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    t = type(event)
    e = event
    if t is ev.GameCreated:
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
    if t is ev.CardsDealt:
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
    if t is ev.TurnStarted:
        return f"Turn {e.turn}: {who(e.player)}'s turn"
    if t is ev.TurnPassed:
        return f"{who(e.player)} passes (CASTLE-8.1)"
    if t is ev.TradeOffered:
        silent = " (to be kept silent)" if e.silent else ""
        return f"{who(e.giver)} offers {who(e.receiver)} {_item(e.item)}{silent} (CASTLE-4.1)"
    if t is ev.TradeRefused:
        what = "" if e.item is None else f" of {_item(e.item)}"
        return f"{who(e.receiver)} refuses {who(e.giver)}'s offer{what} (CASTLE-4.2)"
    if t is ev.TradeCompleted:
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
    if t is ev.HandLimitExceeded:
        return (f"{who(e.player)} holds {e.excess} item(s) over the hand limit and must give "
                f"{'it' if e.excess == 1 else 'them'} away (CASTLE-3.3)")
    if t is ev.ItemGiven:
        return f"{who(e.giver)} gives {who(e.receiver)} {_item(e.item)} ({_reason(e.reason)})"
    if t is ev.ItemDrawn:
        return f"{who(e.player)} draws {_item(e.item)} from the pile ({_reason(e.reason)})"
    if t is ev.DrawAwaited:
        return (f"{who(e.player)} draws from the item pile ({_reason(e.reason)}); the card drawn "
                "is to be reported (CASTLE-7.1)")
    if t is ev.EffectDeclined:
        return f"{who(e.player)} does not use the {e.effect} effect (CASTLE-4.6)"
    if t is ev.ItemsSeen:
        seen = "" if e.items is None else f": {_list(e.items)}"
        return f"{who(e.viewer)} looks at all of {who(e.owner)}'s items ({_reason(e.reason)}){seen}"
    if t is ev.SocietySeen:
        seen = "" if e.society is None else f": {e.society}"
        which = "" if e.card is None else f" number {e.card + 1} of three (CASTLE-10.4)"
        return (f"{who(e.viewer)} looks at {who(e.owner)}'s society card{which} "
                f"({_reason(e.reason)}){seen}")
    if t is ev.ProfessionSeen:
        seen = "" if e.profession is None else f": {e.profession}"
        return f"{who(e.viewer)} looks at {who(e.owner)}'s profession ({_reason(e.reason)}){seen}"
    if t is ev.ProfessionsSwapped:
        text = f"{who(e.first)} and {who(e.second)} swap professions (tome, CASTLE-5.4)"
        if e.first_now is not None:
            text += f": {who(e.first)} is now the {e.first_now}, {who(e.second)} the {e.second_now}"
        return text
    if t is ev.ProfessionPileSeen:
        seen = "" if e.pile is None else f": {_list(e.pile)}"
        return f"{who(e.player)} looks through the profession pile (coat, CASTLE-5.5){seen}"
    if t is ev.ProfessionExchanged:
        if e.taken is None:
            return (f"{who(e.player)} takes a profession from the pile and puts theirs in "
                    "(coat, CASTLE-5.5)")
        return (f"{who(e.player)} takes the {e.taken} from the profession pile and puts the "
                f"{e.returned} in (coat, CASTLE-5.5)")
    if t is ev.SextantTurned:
        return (f"{who(e.player)} uses the sextant: everyone passes one item to the "
                f"{e.direction} (CASTLE-5.6)")
    if t is ev.SextantItemChosen:
        return f"{who(e.player)} chooses {_item(e.item)} to pass (sextant)"
    if t is ev.SextantPassed:
        n = len(e.items)
        known = []
        for seat, card in enumerate(e.items):
            if card is not None:
                to = (seat + 1) % n if e.direction == "left" else (seat - 1) % n
                known.append(f"{who(seat)} passed the {card} to {who(to)}")
        return (f"Everyone passes the chosen item to the {e.direction} (sextant)"
                + (": " + "; ".join(known) if known else ""))
    if t is ev.ClairvoyantUsed:
        seen = "" if e.pile is None else f" (top first: {_list(e.pile)})"
        return f"{who(e.player)} uses the Clairvoyant and looks through the item pile{seen} (CASTLE-7.1)"
    if t is ev.PileArranged:
        top = [c for c in e.pile[:2] if c is not None]
        seen = f": {', '.join(top)} on top" if top else ""
        return (f"{who(e.player)} shuffles the item pile and puts two items back on top{seen} "
                "(CASTLE-7.1)")
    if t is ev.DiplomatUsed:
        text = (f"{who(e.player)} uses the Diplomat and demands a {e.kind} from {who(e.target)} "
                "(CASTLE-7.3): ")
        if e.holds:
            return text + f"{who(e.target)} holds one and must hand it over"
        return text + (f"{who(e.target)} holds none and shows all items to {who(e.player)}; "
                       f"{who(e.player)}'s turn ends")
    if t is ev.DiplomatItemChosen:
        return f"{who(e.player)} hands {_item(e.item)} to the Diplomat {who(e.diplomat)}"
    if t is ev.BagsTurned:
        return ("The item pile is empty: the secret bags now count as a key and a goblet "
                "(CASTLE-9.3)")
    if t is ev.AttackDeclared:
        return f"{who(e.attacker)} attacks {who(e.defender)} (CASTLE-6.1)"
    if t is ev.SupportDeclared:
        if e.side == "neutral":
            return f"{who(e.player)} stays neutral (CASTLE-6.3)"
        return f"{who(e.player)} supports the {e.side} (CASTLE-6.3)"
    if t is ev.PowerUsed:
        if e.power == "priest":
            return f"{who(e.player)} uses the priest and stops the fight (CASTLE-6.2)"
        if e.power == "hypnotist":
            return f"{who(e.player)} uses the hypnotist on {who(e.target)}: that support is void (CASTLE-6.4)"
        if e.power == "doctor":
            return f"{who(e.player)} uses the doctor: the fight's result is cancelled (CASTLE-6.7)"
        if e.power == "poison-mixer":
            return f"{who(e.player)} uses the poison-mixer: {who(e.target)} wins (CASTLE-6.5)"
        if e.power in ("dagger", "gloves", "poison-ring", "casting-knives", "whip"):
            return f"{who(e.player)} shows the {e.power} (CASTLE-6.5)"
        return f"{who(e.player)} uses the {e.power} (CASTLE-6.5)"
    if t is ev.WindowPassed:
        return f"{who(e.player)} passes ({e.window} window)"
    if t is ev.FightCounted:
        text = f"Count: attacker {e.attacker_total}, defender {e.defender_total}"
        if e.parts:
            text += " (" + count_parts(e.parts, who) + ")"
        if e.winner is None:
            return text + ": a tie (CASTLE-6.6)"
        how = " by the poison-mixer" if e.by_poison_mixer else (
            " by the poison-ring" if e.by_poison_ring else "")
        return text + f": {who(e.winner)} wins{how} (CASTLE-6.6)"
    if t is ev.FightTied:
        if not e.drew:
            return "The tie stands; the pile is empty, so the attacker draws nothing (CASTLE-6.6)"
        return f"The tie stands: {who(e.attacker)} draws {_item(e.item)} (CASTLE-6.6)"
    if t is ev.FightChoiceMade:
        if e.choice == "look":
            return (f"{who(e.player)} chooses to look at {who(e.loser)}'s society and "
                    "profession (CASTLE-6.8a)")
        return f"{who(e.player)} chooses to look at {who(e.loser)}'s items and take one (CASTLE-6.8b)"
    if t is ev.ItemTaken:
        if not e.took:
            return f"{who(e.winner)} takes nothing from {who(e.loser)} (CASTLE-6.8b)"
        text = f"{who(e.winner)} takes {_item(e.item)} from {who(e.loser)} (CASTLE-6.8b)"
        if e.given_back is not None:
            text += f" and gives back the {e.given_back}"
        return text
    if t is ev.Declared:
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
    if t is ev.GameEnded:
        text = "Game over. Winners: " + (", ".join(who(s) for s in e.winners) or "nobody")
        if e.points:
            text += ". Points: " + ", ".join(f"{k} {v}" for k, v in e.points.items())
        if e.reveal is not None:
            text += f"; seed revealed: {e.reveal.seed}"
        return text
    return repr(event)  # pragma: no cover


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
            source, seat, value, void = get(p, "source"), get(p, "player"), get(p, "value"), get(p, "void")
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


# -- the table ---------------------------------------------------------------------------------

def _fight_lines(f: dict) -> list[str]:
    lines = [f"fight: {f['attacker']} attacks {f['defender']}; stage {f['stage']}"
             + (f"; {f['window']}'s window" if f.get("window") else "")]
    sides = f.get("sides") or {}
    if sides:
        lines.append("  support: " + ", ".join(f"{p} {s}" for p, s in sides.items()))
    if f.get("hypnotised"):
        lines.append(f"  hypnotised: {f['hypnotised']}")
    if f.get("duel"):
        lines.append(f"  duel called by {f['duel']}: supporters do not count")
    if f.get("uses"):
        lines.append("  used: " + ", ".join(
            f"{u['player']} {u['power']}" + (f" (for the {u['for']})" if u.get("for") else "")
            for u in f["uses"]))
    if f.get("priest"):
        lines.append(f"  stopped by the priest {f['priest']}")
    result = f.get("result")
    if result:
        verdict = result["winner"] or "tie"
        lines.append(f"  count: attacker {result['attacker']}, defender {result['defender']}: "
                     f"{verdict}")
        if result.get("parts"):
            lines.append("    " + count_parts(result["parts"], lambda name: name))
    if f.get("loser_items"):
        lines.append("  loser's items: " + ", ".join(f["loser_items"]))
    return lines


def _pending_line(p: dict) -> str | None:
    k = p["kind"]
    if k == "limit":
        return f"{p['player']} gives away {p['excess']} item(s) over the hand limit"
    if k == "draw":
        return (f"{p['player']} drew from the item pile ({p['reason']}): report the card with "
                f"`devil drawn GAME ITEM --as {p['player']}` (CASTLE-7.1)")
    if k == "offer":
        item = f" {p['item']}" if p.get("item") else " an item"
        return f"{p['giver']} offers{item} to {p['receiver']}: accept or refuse"
    if k == "effect":
        extra = ""
        if p.get("profession_pile"):
            extra = f" (pile: {', '.join(p['profession_pile'])})"
        return f"{p['owner']} decides on the {p['effect']} effect (partner {p['partner']}){extra}"
    if k == "sextant":
        done = ", ".join(p["chosen"]) or "nobody yet"
        mine = f"; you chose {p['my_item']}" if p.get("my_item") else ""
        return f"sextant to the {p['direction']}: chosen so far by {done}{mine}"
    if k == "clairvoyant":
        pile = f" from {', '.join(p['pile'])}" if p.get("pile") else ""
        return f"{p['player']} puts two items back on top of the pile{pile}"
    if k == "diplomat":
        if p["stage"] == "hand":
            return f"{p['target']} hands a {p['want']} to the Diplomat {p['diplomat']}"
        item = f" for the {p['item']}" if p.get("item") else ""
        return f"the Diplomat {p['diplomat']} gives {p['target']} an item back{item}"
    return None


def table(view: dict, you: str | None = None) -> str:
    """The table as text, from a castle view map (what the viewer knows)."""
    head = f"{view['game']}  {RULES.title}"
    options = view.get("options") or {}
    tags = []
    if options.get("physical"):
        tags.append("physical")
    if options.get("beginner"):
        tags.append("beginner")
    tags += options.get("variants") or []
    if tags:
        head += f" ({', '.join(tags)})"
    if view["phase"] == "over":
        head += f"  game over after turn {view['turn_number']}"
    else:
        head += f"  turn {view['turn_number']}: {view['turn'] or '-'}"
    lines = [head]
    if view.get("seed_chosen"):
        lines.append("chance chosen by the game's creator: reproducible, not secret")
    if view.get("pile") and view.get("pile_order_known", view["pile"]) < view["pile"]:
        lines.append(f"item pile known only as a set below its top {view['pile_order_known']}: "
                     "each card drawn from it is reported (devil drawn, CASTLE-7.1)")
    lines.append(f"item pile: {view['pile']} item(s); profession pile: {view['profession_pile']}; "
                 f"hand limit {view['hand_limit']}; bags "
                 + ("count as relics" if view["bags_are_relics"] else "are not relics yet"))
    rows = [("", "player", "society", "profession", "items", "#", "drink")]
    for p in view["players"]:
        marker = ">" if p["name"] == view["turn"] else ("*" if p["name"] == you else "")
        prof = p["profession"] or "?"
        if p["profession_used"]:
            prof += " (used)"
        items = ", ".join(c or "?" for c in p["items"]) if p["items"] is not None else "?"
        society = p["society"] or "?"
        cards = p.get("society_cards")
        if cards and any(cards):  # advanced-3p: the society cards seen (CASTLE-10.4)
            society += " [" + ", ".join(c or "?" for c in cards) + "]"
        rows.append((marker, p["name"], society, prof, items, str(p["item_count"]),
                     "drink" if p["drink"] else ""))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    if view.get("fight"):
        lines += _fight_lines(view["fight"])
    for p in view.get("pending") or []:
        if p["kind"] != "fight":
            line = _pending_line(p)
            if line:
                lines.append(line)
    if view.get("declaration"):
        d = view["declaration"]
        lines.append(f"declared by {d['player']} ({d['kind']}): "
                     f"{'right' if d['right'] else 'wrong'}")
    if view.get("winners") is not None:
        lines.append("winners: " + (", ".join(view["winners"]) or "nobody"))
        if view.get("points"):
            lines.append("points: " + ", ".join(f"{k} {v}" for k, v in view["points"].items()))
    elif view.get("waiting_for"):
        lines.append("waiting for: " + ", ".join(view["waiting_for"]))
    knowledge = view.get("knowledge")
    if isinstance(knowledge, list) and knowledge:
        lines.append("you learned:")
        for fact in knowledge[-8:]:
            value = fact["value"]
            value = ", ".join(v or "?" for v in value) if isinstance(value, list) else value
            about = f"{fact['about']}'s " if fact.get("about") else ""
            lines.append(f"  turn {fact['turn']}: {about}{fact['what']}: {value} ({fact['reason']})")
    return "\n".join(lines)


# -- what a seat may do ------------------------------------------------------------------------

def _one_of(values: list, noun: str) -> str:
    values = sorted(set(values))
    if len(values) == 1:
        return f"{values[0]}"
    if len(values) <= 4:
        return " / ".join(values)
    return f"one of {len(values)} {noun}"


def summarize_legal(commands: list[dict]) -> str:
    """A short phrase for a seat's legal command maps (``[]``: nothing to do now)."""
    if not commands:
        return "nothing to do now"
    by: dict[str, list[dict]] = {}
    for c in commands:
        by.setdefault(c["type"], []).append(c)
    parts = []
    for kind, cs in by.items():
        if kind == "pass":
            parts.append("pass")
        elif kind == "trade":
            text = (f"trade ({_one_of([c['item'] for c in cs], 'items')} to "
                    f"{_one_of([c['to'] for c in cs], 'players')})")
            if any(c.get("silent") for c in cs):
                text += " (effect cards may be smuggled silently)"
            parts.append(text)
        elif kind == "attack":
            parts.append(f"attack ({_one_of([c['defender'] for c in cs], 'players')})")
        elif kind == "declare":
            kinds = sorted({c["kind"] for c in cs})
            most = max(len(c["allies"]) for c in cs)
            text = "declare (" + ", ".join(kinds)
            if "society" in kinds:
                text += f"; naming up to {most} allies"
            parts.append(text + ")")
        elif kind == "clairvoyant":
            parts.append("use the clairvoyant")
        elif kind == "diplomat":
            parts.append(f"use the diplomat (demand {_one_of([c['kind'] for c in cs], 'item kinds')} "
                         f"from {_one_of([c['target'] for c in cs], 'players')})")
        elif kind == "accept":
            parts.append(f"accept (giving back {_one_of([c['item'] for c in cs], 'items')})")
        elif kind == "refuse":
            parts.append("refuse")
        elif kind == "give":
            parts.append(f"give ({_one_of([c['item'] for c in cs], 'items')} to "
                         f"{_one_of([c['to'] for c in cs], 'players')})")
        elif kind == "choose":
            parts.append("choose " + " / ".join(c["option"] for c in cs))
        elif kind == "support":
            parts.append("support " + " / ".join(c["side"] for c in cs))
        elif kind == "use":
            powers = [c["power"] + (f" naming {c['target']}" if c.get("target") else "")
                      for c in cs]
            parts.append("use " + " / ".join(powers))
        elif kind == "drawn" or kind == "draw":
            parts.append("report the card drawn (drawn ITEM)")
        elif kind == "take":
            text = f"take ({_one_of([c.get('item') or 'nothing' for c in cs], 'items')}"
            backs = [c["give_back"] for c in cs if c.get("give_back")]
            if backs:
                text += f", giving back {_one_of(backs, 'items')}"
            parts.append(text + ")")
        elif kind == "arrange":
            tops = sorted({x for c in cs for x in c["top"]})
            parts.append(f"arrange (put {len(cs[0]['top'])} of {', '.join(tops)} on top)")
        else:  # pragma: no cover
            parts.append(kind)
    return ", ".join(parts)


STAGE_HINT = {
    "priest": "use the priest or pass", "support": "declare support",
    "hypnotist": "use the hypnotist or pass", "abilities": "use an item or profession, or pass",
    "doctor": "use the doctor or pass", "priest-payment": "give the priest an item",
    "choice": "choose look or take", "take": "take an item",
    "duel": "use the duelist or pass",
}
PHASE_HINT = {
    "turn": "take a turn: pass, trade, attack or declare", "limit": "give an item away",
    "offer": "accept or refuse the offer", "effect": "decide on the trade effect",
    "sextant": "pass an item for the sextant", "clairvoyant": "arrange the top of the pile",
    "diplomat": "complete the Diplomat's trade", "draw": "report the card drawn",
}


def next_hint(view: dict) -> str:
    """What the table waits for, from a view map."""
    if view["phase"] == "over":
        winners = view.get("winners") or []
        return "The game is over: " + (", ".join(winners) or "nobody") + " won."
    waiting = view.get("waiting_for") or []
    if not waiting:
        return ""
    if view.get("fight") and view["phase"] == "fight":
        what = STAGE_HINT.get(view["fight"]["stage"], "act in the fight")
    else:
        what = PHASE_HINT.get(view["phase"], "act")
    return f"Waiting for {', '.join(waiting)} to {what}."
