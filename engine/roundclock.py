"""A tournament round's time on the game's clock (CLOCK-10, TOUR-8.5; docs/house-rules.md).

A game a tournament pairs in a round with a round time carries the round's end in its time
control: ``clock_set``'s ``deadline`` (ms since the log header's ``created``; a game may have
a deadline and no per-seat clock).  When it passes in a game neither finished nor ended at the
desk, the service records, as it records the seats' timeouts (engine.service.clocks), one
command of two events: ``clock_expired`` with ``seat`` -1, ``limit`` ``"round"``, ``action``
``"adjudicate"`` and ``due`` the deadline, then the desk's ``adjudicated`` (DESK-8) with
:data:`REASON` and the kind's house rule (its ``adjudicated`` hook).
``devil verify`` re-derives both (:func:`check`).  Pure: "now" is passed in.
"""

from __future__ import annotations

from .clock import ACT, ADJUDICATE, ROUND, ClockExpired, Clocks, ClockSet

#: the reason of the ``adjudicated`` record the round's deadline causes
REASON = "the round time is over (CLOCK-10)"


def with_deadline(control: ClockSet | None, deadline: int) -> ClockSet:
    """``control`` (None: no per-seat clock) with the round's ``deadline`` (ms since the game's
    created; never below 0)."""
    if control is None:
        return ClockSet(None, 0, None, ACT, max(0, int(deadline)))
    return ClockSet(control.base, control.increment, control.move, control.on_timeout,
                    max(0, int(deadline)))


def due(clocks: Clocks, rules, state, desk, now: int) -> int | None:
    """The round's deadline (ms since the header's created) when its timeout is due at
    ``now`` (same unit): a deadline set, passed, not recorded yet, in a game that is set up,
    not over and not ended at the desk; None otherwise."""
    control = clocks.control
    if control is None or control.deadline is None or clocks.round_over:
        return None
    if now < control.deadline or type(state).__name__ == "Seating" or rules.is_over(state):
        return None
    if desk is not None and desk.ended is not None:
        return None
    if rules.adjudicated is None:
        return None
    return control.deadline


def in_force(records, events, desk) -> list:
    """The kind's events in force (voids applied, no desk record) of ``records``/``events``."""
    from .desk.events import DESK_CLASSES

    if desk is None:
        return [e for e in events if type(e) not in DESK_CLASSES]
    from .desk.voids import surviving

    return [e for _, e in surviving(records, events, desk)]


def timeout_events(rules, records, events, desk, deadline: int) -> list:
    """The two events of the round's timeout (see the module doc) for a game whose records
    and decoded events so far are ``records``/``events`` (``desk``: its referee's desk)."""
    from .desk.events import Adjudicated

    rule = rules.adjudicated(rules, in_force(records, events, desk))["rule"]
    return [ClockExpired(-1, ROUND, ADJUDICATE, deadline), Adjudicated(REASON, rule)]


def is_round(event) -> bool:
    """Whether ``event`` is a round's timeout (``clock_expired`` with limit ``"round"``)."""
    return type(event) is ClockExpired and event.limit == ROUND


def check(rules, clocks: Clocks, state, desk, before, records, events):
    """``(seq, reason)`` when the command ``records``/``events`` holding a round's timeout is
    not exactly the one due (CLOCK-10): recorded by the service, at or after the deadline, in a
    game not over, its ``due`` the deadline, followed by ``adjudicated`` with :data:`REASON`
    and the kind's rule; None when it is.  ``before()``: ``(records, events)`` of the log
    before the command; ``state``/``desk``: the referee's before it."""
    first = records[0]
    control = clocks.control
    if first.actor != -1 or control is None or control.deadline is None:
        return first.seq, "CLOCK-10: a round's timeout is recorded by the service in a game " \
                          "with a round deadline"
    deadline = control.deadline
    if clocks.round_over or first.ts < deadline or due(clocks, rules, state, desk,
                                                       first.ts) is None:
        return first.seq, (f"CLOCK-10: this round timeout at {first.ts} ms was not due (the "
                           f"round ends at {deadline} ms, in a game still being played, once)")
    old_records, old_events = before()
    wanted = timeout_events(rules, old_records, old_events, desk, deadline)
    if list(events) != wanted:
        return first.seq, (f"CLOCK-10: a round's timeout records {[e for e in wanted]!r}, not "
                           f"{list(events)!r}")[:400]
    return None
