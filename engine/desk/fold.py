"""Folding a log with its voids applied (docs/architecture.md, "Corrections fold as voids").

The game's state after record k is the fold of the game's events up to k that no correction
up to k voided; desk records are never folded by the game.  Every fold in the engine (the
service's referee and per-seat folds, :mod:`engine.replay`'s steps, verify and fast folds)
follows this: when a ``corrected`` record comes, the fold is rebuilt from the start without
the voided records (corrections are rare; the cost is one fold of the log).

Records are the :class:`engine.log.Record` objects (or anything with ``seq``); events the
decoded events, in the same order.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from ..errors import LogDamaged
from .events import DESK_CLASSES
from .state import Desk

#: the viewer who sees everything (engine.game.REFEREE)
REFEREE = None


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


def fold(rules, records, events, viewer=REFEREE, desk: Desk | None = None):
    """``(state, desk)``: the state of the game after all of ``records`` as ``viewer`` knows
    it (its redacted stream, voids applied), and the log's :class:`Desk`."""
    if desk is None:
        desk = desk_of(records, events)
    state = rules.initial()
    evolve, redact = rules.evolve, rules.redact
    for _, event in surviving(records, events, desk):
        shown = event if viewer is REFEREE else redact(event, viewer)
        if shown is not None:
            state = evolve(state, shown)
    return state, desk


def steps(rules, records, events, viewer=REFEREE) -> Iterator[tuple[Any, Any, Any, Desk]]:
    """The log record by record: ``(record, event, state, desk)`` with ``state`` the game as
    ``viewer`` knew it just after ``record`` (voids of the corrections so far applied) and
    ``desk`` the desk then (the same objects each time: read them before the next step).
    ``event`` is redacted for ``viewer``; records the viewer never saw are left out.  A
    voided record is yielded when it comes, like any other: its void comes later."""
    desk = Desk()
    state = rules.initial()
    evolve, redact = rules.evolve, rules.redact
    seen: list = []  # (record, shown event) so far, for rebuilding after a correction
    for record, event in zip(records, events):
        if type(event) in DESK_CLASSES:
            try:
                corrected = desk.apply(record.seq, event)
            except ValueError as exc:
                raise LogDamaged(record.seq, str(exc)) from None
            if corrected:
                state = rules.initial()
                for earlier, shown in seen:
                    if not desk.skip(earlier.seq):
                        state = evolve(state, shown)
            yield record, event, state, desk
            continue
        shown = event if viewer is REFEREE else redact(event, viewer)
        if shown is None:
            continue
        seen.append((record, shown))
        state = evolve(state, shown)
        yield record, shown, state, desk
