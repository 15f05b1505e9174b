"""Text for Auf Teufel komm raus events and views (no rules here: only wording)."""

from __future__ import annotations

from engine.games.atkr import RULES

from .describe import describe, describe_map  # noqa: F401 (the interface)


def coal_text(coal) -> str:
    """``"a devil"`` for a devil (0 or "devil"), else the value."""
    return "a devil" if coal in (0, "devil") else str(coal)


def _cell(value) -> str:
    return "?" if value is None else str(value)


def table(view: dict, you: str | None = None) -> str:
    """The table as text, from a view map (see engine.games.atkr.view)."""
    head = (f"{view['game']}  {RULES.title}  "
            f"({'physical' if view['physical'] else 'digital'})  ")
    if view["phase"] == "over":
        head += f"game over after round {view['round']}"
    else:
        phase = {"bet": "phase 1: bets", "draw": "phase 2: pulling coals"}.get(
            view["phase"], view["phase"])
        head += f"round {view['round']}, {phase}"
    lines = [head]
    if view.get("seed_chosen"):
        lines.append("chance chosen by the game's creator: reproducible, not secret")
    furnace = view["furnace"]
    lines.append(f"start player {view['start_player']}; turn: {view['turn'] or '-'}; furnace: "
                 f"{furnace['left']} coals, {furnace['devils_left']} devils "
                 f"({furnace['devil_chance']:.0%} devil on the next draw)")
    rows = [("", "player", "money", "bet", "coals", "total", "track", "pact")]
    for p in view["players"]:
        marker = ">" if p["name"] == view["turn"] else ("*" if p["name"] == you else "")
        if p["bet"] is not None:
            bet = str(p["bet"])
        else:
            bet = "sealed" if p["has_bet"] else "-"
        coals = " ".join(str(c) for c in p["coals"]) or "-"
        if p["busted"]:
            coals += " BUST"
        elif p["stopped"]:
            coals += " (stopped)"
        rows.append((marker, p["name"], _cell(p["money"]), bet, coals, str(p["total"]),
                     p["track"], "pact" if p["pact"] else ""))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    if view["winners"]:
        lines.append("winners: " + ", ".join(view["winners"]))
    if view.get("bank") is not None:
        lines.append(f"bank balance: {view['bank']}")
    return "\n".join(lines)


def summarize_legal(commands: list[dict]) -> str:
    """A short phrase for a seat's legal commands (tagged maps; ``[]``: nothing to do now)."""
    if not commands:
        return "nothing to do now"
    kinds = {c["type"] for c in commands}
    parts = []
    if "bet" in kinds:
        amounts = [c["amount"] for c in commands if c["type"] == "bet"]
        parts.append(f"bet {min(amounts)} to {max(amounts)} in steps of 10")
    if "draw" in kinds:
        coals = [c.get("coal") for c in commands
                 if c["type"] == "draw" and c.get("coal") is not None]
        parts.append("draw" + (f" (report one of: {', '.join(coal_text(c) for c in coals)})"
                               if coals else ""))
    if "stop" in kinds:
        parts.append("stop")
    return ", ".join(parts)


def next_hint(view: dict) -> str:
    """What the table waits for, from a view map."""
    if view["phase"] == "over":
        return "The game is over: " + ", ".join(view["winners"]) + " won."
    if view["phase"] == "bet":
        waiting = [p["name"] for p in view["players"] if not p["has_bet"]]
        return "Waiting for bets from: " + ", ".join(waiting)
    if view["phase"] == "draw" and view["turn"]:
        player = next(p for p in view["players"] if p["name"] == view["turn"])
        return f"{view['turn']}'s turn: " + ("draw or stop." if player["coals"] else "draw.")
    return ""
