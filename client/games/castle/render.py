"""Text for Castle of the Devil events and views (no rules here: only wording).

The renderer interface (``client.output.renderer_for``):

* ``describe(event, names) -> str``: one sentence for an event object as the viewer saw it
  (a redacted event has its hidden fields None: "an item" instead of "the dagger");
  ``names`` are the players in seat order (events name seats by index); one describer per
  event type, in client.games.castle.describe.
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

from .describe import count_parts, describe, describe_map  # noqa: F401 (the interface)

SOCIETY_NAMES = {"order": "Order of Open Secrets", "brotherhood": "Brotherhood of True Lies"}


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
            lines.append(f"  turn {fact['turn']}: {about}{fact['what']}: {value} "
                         f"({fact['reason']})")
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
            wanted = _one_of([c['kind'] for c in cs], 'item kinds')
            parts.append(f"use the diplomat (demand {wanted} "
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
