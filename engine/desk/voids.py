"""A log's voids (docs/architecture.md, "Corrections fold as voids"): which records stand.

The game's state after record k is the fold of the game's events up to k that no correction
up to k voided; desk records are never folded by the game.  The fold itself is
:mod:`engine.fold` (the one caller of a kind's ``evolve``); these helpers say which records a
log's desk leaves in force, for the readers that list or audit them.

Records are the :class:`engine.log.Record` objects (or anything with ``seq``); events the
decoded events, in the same order.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from ..errors import LogDamaged
from .events import DESK_CLASSES
from .state import Desk


def has_desk(events: Iterable) -> bool:
    """Whether any of ``events`` is one of the desk's."""
    return any(type(event) in DESK_CLASSES for event in events)


def desk_of(records, events) -> Desk:
    """The :class:`Desk` of a whole log (its desk records only); LogDamaged at a correction
    to a record that is not before it."""
    desk = Desk()
    for record, event in zip(records, events):
        if type(event) in DESK_CLASSES:
            try:
                desk.apply(record.seq, event)
            except ValueError as exc:
                raise LogDamaged(record.seq, str(exc)) from None
    return desk


def surviving(records, events, desk: Desk) -> Iterator[tuple[Any, Any]]:
    """``(record, event)`` of every game record ``desk`` leaves in force."""
    skip = desk.skip
    for record, event in zip(records, events):
        if not skip(record.seq):
            yield record, event
