"""Castle of the Devil's ``takeback_barrier`` hook (DESK-12.3): the events no takeback crosses.

A reveal is anything by which a seat learns what it did not know: an item offered face down
is seen by its receiver (CASTLE-4.1), so an offer is a reveal, and so is every look at a
card, every hand-over and every shown item.  Draws: the pile's top item (CASTLE-5.1, 6.6),
and the wait for a reported one.  Deals: the deal itself and the Clairvoyant's reshuffle.

What may be taken back: what every seat sees whole and that hides nothing: an attack or a
support declared, a fight window passed, a turn passed, an effect declined, the sextant's
direction, a sextant item chosen (sealed until all are in), the fight's choice, the count.
"""

from __future__ import annotations

#: event tag -> what it does that a takeback may not cross
BARRIERS = {
    "cards_dealt": "deal", "pile_arranged": "deal",
    "item_drawn": "draw", "draw_awaited": "draw", "fight_tied": "draw",
    "trade_offered": "reveal", "trade_refused": "reveal", "trade_completed": "reveal",
    "item_given": "reveal", "items_seen": "reveal", "society_seen": "reveal",
    "profession_seen": "reveal", "professions_swapped": "reveal",
    "profession_pile_seen": "reveal", "profession_exchanged": "reveal",
    "sextant_passed": "reveal", "clairvoyant_used": "reveal", "diplomat_used": "reveal",
    "diplomat_item_chosen": "reveal", "item_taken": "reveal", "power_used": "reveal",
    "declared": "reveal", "game_ended": "reveal",
}


def barrier(event) -> str | None:
    """``"draw"``, ``"reveal"``, ``"deal"`` or None for one of the kind's events."""
    return BARRIERS.get(getattr(type(event), "TYPE", ""))
