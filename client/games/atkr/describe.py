"""One sentence per Auf Teufel komm raus event (no rules here: only wording): the
``describe`` and ``describe_map`` of the renderer interface (client.games.atkr.render
re-exports them).

Each event type has its describer, ``(event, names) -> str`` (``names``: the players in seat
order), in :data:`DESCRIBERS` (event class -> describer), filled by the
``@_describes(EventClass)`` decorator on each.
"""

from __future__ import annotations

from engine.games.atkr import events as ev

from .. import describer_table

#: event class -> its describer ``(event, names) -> str``; ``_describes(EventClass)`` registers one
DESCRIBERS, _describes = describer_table()


def _who(names: list[str], seat: int) -> str:
    return "the bank" if seat == ev.BANK else names[seat]


def describe(event, names: list[str]) -> str:
    """One sentence for ``event``; ``names`` are the players in seat order."""
    describer = DESCRIBERS.get(type(event))
    if describer is None:  # pragma: no cover - every event type has one (tests/games)
        return repr(event)
    return describer(event, names)


def describe_map(data: dict, names: list[str]) -> str:
    """:func:`describe` for an event given as a tagged map (a ``seq`` key is ignored)."""
    from engine.games.atkr.events import EVENTS
    return describe(EVENTS.from_map({k: v for k, v in data.items() if k != "seq"}), names)


@_describes(ev.GameCreated)
def _game_created(event, names) -> str:
    kind = "physical (the referee reports every coal)" if event.physical else "digital"
    first = names[event.first] + (" (drawn)" if event.first_drawn else "")
    track = ",".join([f"0-{event.track_low}", *map(str, event.track)])
    commit = f"; seed commitment {event.commitment[:16]}..." if event.commitment else ""
    return (f"New game for {', '.join(event.players)}: {kind}; start player {first}; "
            f"ring {event.ring}; track {track}{commit}")


@_describes(ev.RoundStarted)
def _round_started(event, names) -> str:
    return f"Round {event.round} begins; start player {names[event.start]}"


@_describes(ev.BetPlaced)
def _bet_placed(event, names) -> str:
    if event.amount is None:
        return f"{names[event.seat]} places a sealed bet"
    return f"{names[event.seat]} bets {event.amount}"


@_describes(ev.BetsRevealed)
def _bets_revealed(event, names) -> str:
    return "Bets revealed: " + ", ".join(f"{names[s]} {b}" for s, b in enumerate(event.bets))


@_describes(ev.CoalDrawn)
def _coal_drawn(event, names) -> str:
    by = "" if event.reporter is None else f" (reported by {event.reporter})"
    if event.coal == ev.DEVIL:
        return f"{names[event.seat]} draws a devil and busts{by}"
    return f"{names[event.seat]} draws {event.coal}{by}"


@_describes(ev.Stopped)
def _stopped(event, names) -> str:
    return f"{names[event.seat]} stops"


@_describes(ev.PactPaid)
def _pact_paid(event, names) -> str:
    return (f"{_who(names, event.payer)} pays {names[event.to]} {event.amount} "
            f"(devil's pact, {event.rule})")


@_describes(ev.BetWon)
def _bet_won(event, names) -> str:
    double = " double" if event.rule == "ATKR-5.5" else ""
    return (f"{names[event.seat]}'s bet of {event.stake} wins: the bank pays{double} "
            f"{event.win} ({event.rule})")


@_describes(ev.BetLost)
def _bet_lost(event, names) -> str:
    return f"{names[event.seat]}'s bet of {event.stake} loses to the bank ({event.rule})"


@_describes(ev.PrizePaid)
def _prize_paid(event, names) -> str:
    what = "highest total" if event.rule == "ATKR-5.6" else "most coals"
    return f"The bank pays {names[event.seat]} {event.amount} for the {what} ({event.rule})"


@_describes(ev.PawnsPlaced)
def _pawns_placed(event, names) -> str:
    if not event.pacts:
        return "Pawns placed; nobody is in the devil's pact"
    pacts = ", ".join(f"{names[s]} ({m})" for s, m in zip(event.pacts, event.pact_money))
    return f"Pawns placed; devil's pact: {pacts}"


@_describes(ev.FurnaceRefilled)
def _furnace_refilled(event, names) -> str:
    return f"Only {event.left} coals left: all 48 go back into the furnace"


@_describes(ev.GameEnded)
def _game_ended(event, names) -> str:
    winners = " and ".join(names[s] for s in event.winners)
    money = ", ".join(f"{names[s]} {m}" for s, m in enumerate(event.money))
    reveal = f"; seed revealed: {event.seed}" if event.seed is not None else ""
    return f"Game over. Winner: {winners}. Money: {money}{reveal}"
