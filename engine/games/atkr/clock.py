"""Auf Teufel komm raus's clock hooks (CLOCK-2, ATKR-H2; engine.clock).

Whose clock runs: in the bets (phase 1, ATKR-3) every seat that has not bet yet, all at once
(the bets are sealed and simultaneous); in the draws (phase 2) the seat whose turn it is.
Its timeout action (ATKR-H2): a seat that has not bet bets 0; a seat whose turn it is stops
if it may (it has drawn this round, ATKR-4.2), and otherwise draws its one coal (a digital
game; a physical game's coal is the referee's to report, so there the seat is flagged).
"""

from __future__ import annotations

from .commands import Bet, Draw, Stop
from .state import PHASE_BET, PHASE_DRAW, State


def to_move(state: State) -> list[int]:
    """The seats whose clock runs in the referee's ``state`` (see the module doc)."""
    if state.phase == PHASE_BET:
        return [seat for seat in range(state.n) if not state.bet_in[seat]]
    if state.phase == PHASE_DRAW and state.turn is not None:
        return [state.turn]
    return []


def timeout(state: State, seat: int):
    """ATKR-H2: the command a timeout applies for ``seat`` (Bet 0, Stop, or a digital Draw),
    or None where the seat is not to move or the coal would be the referee's to report."""
    name = state.players[seat]
    if state.phase == PHASE_BET and not state.bet_in[seat]:
        return Bet(name, 0)
    if state.phase == PHASE_DRAW and state.turn == seat:
        if state.coals[seat]:
            return Stop(name)
        return None if state.physical else Draw(name)
    return None
