"""Applying one Auf Teufel komm raus fact to the state (no checks: ``decide`` made them).

:func:`evolve` updates ``state`` in place and returns it.  It also works on a seat's redacted
stream, where another seat's bet is sealed (``amount`` None) until ``bets_revealed``.
"""

from __future__ import annotations

from typing import Any, Callable

from . import events as ev
from .state import (ALL_COALS, COAL_COUNTS, KIND_INDEX, PHASE_BET, PHASE_DRAW, PHASE_OVER,
                    State, track_space)


def next_turn(state: State, seat: int) -> int | None:
    """The seat after ``seat`` in this round's order (from the start player), or None (ATKR-4.1)."""
    position = (seat - state.start) % state.n
    if position + 1 >= state.n:
        return None
    return (state.start + position + 1) % state.n


def _end_turn(state: State, seat: int) -> None:
    state.had_turn[seat] = True
    if state.left_in_furnace() == 0:  # ATKR-4.6: the furnace ran out, phase 2 ends
        state.turn = None
    else:
        state.turn = next_turn(state, seat)


_HANDLERS: dict[type, Callable[[Any, State], None]] = {}


def _on(event_type):
    def register(handler):
        _HANDLERS[event_type] = handler
        return handler
    return register


@_on(ev.GameCreated)
def _(event: ev.GameCreated, state: State) -> None:
    n = len(event.players)
    state.players = list(event.players)
    state.first = event.first
    state.physical = event.physical
    state.ring = event.ring
    state.track_low = event.track_low
    state.track = list(event.track)
    state.goal = event.goal
    state.commitment = event.commitment
    state.seed_chosen = event.seed_chosen
    state.duplicate = bool(event.duplicate)
    state.money = [event.start_money] * n
    state.spaces = [track_space(event.start_money, event.track_low, event.track)] * n
    state.pacts = []
    state.furnace = list(COAL_COUNTS)
    _reset_round(state, n)


def _reset_round(state: State, n: int) -> None:
    state.bets = [None] * n
    state.bet_in = [False] * n
    state.table = [0] * n
    state.revealed = False
    state.coals = [[] for _ in range(n)]
    state.busted = [False] * n
    state.stopped = [False] * n
    state.had_turn = [False] * n
    state.turn = None


@_on(ev.RoundStarted)
def _(event: ev.RoundStarted, state: State) -> None:
    state.round = event.round
    state.start = event.start
    state.phase = PHASE_BET
    _reset_round(state, state.n)
    for seat, money in enumerate(state.money):
        if money == 0:  # ATKR-3.3: no money, no bet
            state.bets[seat] = 0
            state.bet_in[seat] = True


@_on(ev.BetPlaced)
def _(event: ev.BetPlaced, state: State) -> None:
    state.bet_in[event.seat] = True
    if event.amount is not None:
        state.bets[event.seat] = event.amount
        state.table[event.seat] = event.amount
        state.money[event.seat] -= event.amount


@_on(ev.BetsRevealed)
def _(event: ev.BetsRevealed, state: State) -> None:
    for seat, amount in enumerate(event.bets):
        if state.bets[seat] is None:  # sealed in this stream until now
            state.money[seat] -= amount
        state.bets[seat] = amount
        state.table[seat] = amount
    state.revealed = True
    state.phase = PHASE_DRAW
    state.turn = state.start


@_on(ev.CoalDrawn)
def _(event: ev.CoalDrawn, state: State) -> None:
    state.furnace[KIND_INDEX[event.coal]] -= 1
    state.draws += 1
    state.coals[event.seat].append(event.coal)
    if event.coal == ev.DEVIL:
        state.busted[event.seat] = True
        _end_turn(state, event.seat)
    elif state.left_in_furnace() == 0:
        _end_turn(state, event.seat)


@_on(ev.Stopped)
def _(event: ev.Stopped, state: State) -> None:
    state.stopped[event.seat] = True
    _end_turn(state, event.seat)


@_on(ev.PactPaid)
def _(event: ev.PactPaid, state: State) -> None:
    if event.payer == ev.BANK:
        state.bank -= event.amount
        state.bank_low = min(state.bank_low, state.bank)
    else:
        state.money[event.payer] -= event.amount
    state.money[event.to] += event.amount


@_on(ev.BetWon)
def _(event: ev.BetWon, state: State) -> None:
    state.table[event.seat] -= event.stake
    state.money[event.seat] += event.stake + event.win
    state.bank -= event.win
    state.bank_low = min(state.bank_low, state.bank)


@_on(ev.BetLost)
def _(event: ev.BetLost, state: State) -> None:
    state.table[event.seat] -= event.stake
    state.bank += event.stake


@_on(ev.PrizePaid)
def _(event: ev.PrizePaid, state: State) -> None:
    state.money[event.seat] += event.amount
    state.bank -= event.amount
    state.bank_low = min(state.bank_low, state.bank)


@_on(ev.PawnsPlaced)
def _(event: ev.PawnsPlaced, state: State) -> None:
    state.spaces = list(event.spaces)
    state.pacts = list(event.pacts)
    state.turn = None


@_on(ev.FurnaceRefilled)
def _(event: ev.FurnaceRefilled, state: State) -> None:
    state.furnace = list(COAL_COUNTS)


@_on(ev.GameEnded)
def _(event: ev.GameEnded, state: State) -> None:
    state.phase = PHASE_OVER
    state.turn = None
    state.winners = list(event.winners)
    state.seed = event.seed
    state.salt = event.salt


def evolve(state: State, event) -> State:
    """Apply ``event`` to ``state`` (in place) and return it."""
    _HANDLERS[type(event)](event, state)
    return state


def initial() -> State:
    """The state before the first event."""
    return State()


assert ALL_COALS == 48
