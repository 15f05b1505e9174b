"""Text for Auf Teufel komm raus events and views (no rules here: only wording)."""

from __future__ import annotations

from engine.games.atkr import RULES
from engine.games.atkr import events as ev


def coal_text(coal) -> str:
    """``"a devil"`` for a devil (0 or "devil"), else the value."""
    return "a devil" if coal in (0, "devil") else str(coal)


def describe(event, names: list[str]) -> str:
    """One sentence for ``event``; ``names`` are the players in seat order."""
    def who(seat: int) -> str:
        return "the bank" if seat == ev.BANK else names[seat]

    t = type(event)
    if t is ev.GameCreated:
        kind = "physical (the referee reports every coal)" if event.physical else "digital"
        first = names[event.first] + (" (drawn)" if event.first_drawn else "")
        track = ",".join([f"0-{event.track_low}", *map(str, event.track)])
        commit = f"; seed commitment {event.commitment[:16]}..." if event.commitment else ""
        return (f"New game for {', '.join(event.players)}: {kind}; start player {first}; "
                f"ring {event.ring}; track {track}{commit}")
    if t is ev.RoundStarted:
        return f"Round {event.round} begins; start player {names[event.start]}"
    if t is ev.BetPlaced:
        if event.amount is None:
            return f"{names[event.seat]} places a sealed bet"
        return f"{names[event.seat]} bets {event.amount}"
    if t is ev.BetsRevealed:
        return "Bets revealed: " + ", ".join(f"{names[s]} {b}" for s, b in enumerate(event.bets))
    if t is ev.CoalDrawn:
        if event.coal == ev.DEVIL:
            return f"{names[event.seat]} draws a devil and busts"
        return f"{names[event.seat]} draws {event.coal}"
    if t is ev.Stopped:
        return f"{names[event.seat]} stops"
    if t is ev.PactPaid:
        return (f"{who(event.payer)} pays {names[event.to]} {event.amount} "
                f"(devil's pact, {event.rule})")
    if t is ev.BetWon:
        double = " double" if event.rule == "ATKR-5.5" else ""
        return (f"{names[event.seat]}'s bet of {event.stake} wins: the bank pays{double} "
                f"{event.win} ({event.rule})")
    if t is ev.BetLost:
        return f"{names[event.seat]}'s bet of {event.stake} loses to the bank ({event.rule})"
    if t is ev.PrizePaid:
        what = "highest total" if event.rule == "ATKR-5.6" else "most coals"
        return f"The bank pays {names[event.seat]} {event.amount} for the {what} ({event.rule})"
    if t is ev.PawnsPlaced:
        if not event.pacts:
            return "Pawns placed; nobody is in the devil's pact"
        pacts = ", ".join(f"{names[s]} ({m})" for s, m in zip(event.pacts, event.pact_money))
        return f"Pawns placed; devil's pact: {pacts}"
    if t is ev.FurnaceRefilled:
        return f"Only {event.left} coals left: all 48 go back into the furnace"
    if t is ev.GameEnded:
        winners = " and ".join(names[s] for s in event.winners)
        money = ", ".join(f"{names[s]} {m}" for s, m in enumerate(event.money))
        reveal = f"; seed revealed: {event.seed}" if event.seed is not None else ""
        return f"Game over. Winner: {winners}. Money: {money}{reveal}"
    return repr(event)  # pragma: no cover


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


def describe_map(data: dict, names: list[str]) -> str:
    """:func:`describe` for an event given as a tagged map (a ``seq`` key is ignored)."""
    from engine.games.atkr.events import EVENTS
    return describe(EVENTS.from_map({k: v for k, v in data.items() if k != "seq"}), names)


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
