"""Auf Teufel komm raus's ``takeback_barrier`` hook (DESK-12.3): the events no takeback crosses.

* ``coal_drawn``: a draw (ATKR-4.2), digital or reported;
* ``bets_revealed``: a reveal (ATKR-3.2: the sealed bets shown together);
* ``furnace_refilled``: a deal (ATKR-7.1: the 48 coals go back, the next round's chance);
* ``game_ended``: a reveal (the seed of a digital game, ATKR-8).

Everything else may be taken back: a sealed bet (``bet_placed``: nobody else saw its amount),
a ``stopped``, and what follows from them in the same command without chance (a payout comes
only with the refill or the end, so a command holding one is refused already).
"""

from __future__ import annotations

#: event tag -> what it does that a takeback may not cross
BARRIERS = {"coal_drawn": "draw", "bets_revealed": "reveal", "furnace_refilled": "deal",
            "game_ended": "reveal"}


def barrier(event) -> str | None:
    """``"draw"``, ``"reveal"``, ``"deal"`` or None for one of the kind's events."""
    return BARRIERS.get(getattr(type(event), "TYPE", ""))
