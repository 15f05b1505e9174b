"""Duplicate draws (docs/tournaments.md, TOUR-11): every table of a tournament's duplicate
round draws its coals in the same furnace order.

A game created with the option ``duplicate`` (recorded in ``game_created``) draws no coal at
random.  In each round r of the game the furnace order is one shuffle of all 48 coals
(ATKR-1.1), derived from the game's seed alone (never from seat entropy: every table of the
round is created with the round's seed, so every table has the same orders)::

    order_r = SeededChance(seed, "").shuffled(COALS, "furnace", r)

(with seat entropy, TOUR-11.6, the seed material is instead the round's seed mixed with every
seat's value of every table of the round: engine.service.mixing; ``shuffled`` is then derived
from ``mixed`` as every other draw of a seated game is)

with ``COALS`` the 48 coals in the order of :data:`engine.games.atkr.state.COAL_KINDS` (2 x
100, 3 x 75, 7 x 50, 9 x 25, 9 x 20, 9 x 10, 9 devils).  The coals a table draws in round r
are the coals of ``order_r`` still in its furnace at the start of that round, in that order:
walking ``order_r``, a coal of a kind is skipped once the furnace's count of that kind is used
up.  Two tables whose furnaces hold the same coals draw exactly the same coals in the same
order; a table whose furnace lost other coals in earlier rounds (drawn, not yet refilled:
ATKR-4.7, 7.1) draws the same coals in the same relative order, less those it no longer has.
``devil verify`` re-derives every draw from the revealed seed by the same rule.
"""

from __future__ import annotations

from ...chance import SeededChance
from .state import COAL_COUNTS, COAL_KINDS, KIND_INDEX

#: what ``devil verify`` says of a duplicate game (the ``notes`` hook)
NOTE = ("duplicate draws: every coal follows the furnace order of the seed shared by the tables "
        "of a tournament's duplicate round, committed in the round's record (TOUR-11); the "
        "seed is the tournament's, not chosen at this table, and is revealed by the round's "
        "close, not by this game's end (the tables still playing must not learn the order): "
        "`devil tournament verify` of the bundle re-derives every draw from it")

#: the 48 coals (values; 0 a devil) in COAL_KINDS order
COALS: tuple[int, ...] = tuple(v for v, n in zip(COAL_KINDS, COAL_COUNTS) for _ in range(n))


def furnace_order(seed: int, round_: int) -> list[int]:
    """Round ``round_``'s order of the 48 coals (values, 0 a devil) from a game's ``seed``."""
    return SeededChance(seed, "").shuffled(list(COALS), "furnace", round_)


def next_coal(order: list[int], furnace: list[int], drawn: int) -> int:
    """The coal drawn after ``drawn`` coals this round: the ``drawn``-th (from 0) coal of
    ``order`` that the furnace held at the start of the round (``furnace``: counts per kind in
    COAL_KINDS order).  Example: order 50, 50, devil, 10 and a furnace that held one 50, the
    devil and the 10: draws 50, devil, 10.  ValueError when the furnace holds no more."""
    left = list(furnace)
    taken = 0
    for coal in order:
        kind = KIND_INDEX[coal]
        if left[kind] <= 0:
            continue
        left[kind] -= 1
        if taken == drawn:
            return coal
        taken += 1
    raise ValueError("the furnace holds no more coals this round")


def pick(state, chance) -> int:
    """The kind index (COAL_KINDS) of the next coal of a duplicate game in ``state``.
    ``chance`` with a ``seed`` (the game's, or the one revealed to ``devil verify``) derives it
    by the module's rule; the strict refold of a game still in progress (no seed known) takes
    the recorded coal, checked to be in the furnace (chance.pick)."""
    seed = getattr(chance, "seed", None)
    if seed is None:
        return chance.pick(state.furnace, "draw", state.draws)
    at_start = list(state.furnace)
    drawn = 0
    for coals in state.coals:
        for coal in coals:
            at_start[KIND_INDEX[coal]] += 1
            drawn += 1
    # the round's order, never a correction's epoch (DESK-6): a corrected table draws the same
    # order again; with seat entropy the seed is mixed with every seat of every table (TOUR-11.6)
    base = getattr(chance, "base", chance)
    order = base.shuffled(list(COALS), "furnace", state.round)
    return KIND_INDEX[next_coal(order, at_start, drawn)]
