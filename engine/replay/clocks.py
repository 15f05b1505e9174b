"""``devil verify``'s checks of a game's clocks (engine.clock, CLOCK-1 to CLOCK-9).

The strict refold (engine.replay.verify) keeps a :class:`engine.clock.Clocks` beside its
fold and, for every command, asks :func:`check_batch` first: a ``clock_set`` must be the
game's second command, alone, recorded by the service (-1), with times in range (CLOCK-1); a
``clock_expired`` must be recorded by the service, at or after the time the seat's clock ran
out as re-derived from the records' times (its ``due`` and ``limit`` exactly), with the
game's ``on_timeout`` (or ``flag`` where the kind has no action), and with ``act`` followed in
the same command by exactly the kind's timeout command's events (CLOCK-5); and a seat's own
command must come before its time ran out and never after it was flagged (CLOCK-6, CLOCK-7).
"""

from __future__ import annotations

from ..clock import ACT, FLAG, CLOCK_CLASSES, ClockExpired, ClockSet, Clocks, checked, waiting
from ..errors import DevilError


def check_batch(rules, clocks: Clocks, state, commands: int, records, events, desk=None,
                before=None):
    """``(bad, game_start, expected)`` for one command: ``bad`` the ``(seq, reason)`` of a
    broken clock rule or None; ``game_start`` the index in the batch where the kind's own
    events begin (1 after a ``clock_expired``); ``expected``: the timeout command those events
    must come from (CLOCK-5), or None.  ``commands``: how many commands the refold has seen,
    this one included; ``state``: the referee's state before the command; ``desk``: the
    referee's desk before it and ``before()`` the ``(records, events)`` before it (for a round's
    timeout, CLOCK-10: engine.roundclock.check, the whole command then checked)."""
    from .. import roundclock

    first = records[0]
    kinds = [type(e) for e in events]
    if events and roundclock.is_round(events[0]) and before is not None:
        return roundclock.check(rules, clocks, state, desk, before, records, events), \
            len(events), None
    if ClockSet in kinds:
        if len(events) != 1 or commands != 2 or first.actor != -1 or clocks.control is not None:
            return (first.seq, "CLOCK-1: a time control is the game's second command, alone, "
                               "recorded by the service, once"), 0, None
        try:
            checked(events[0])
        except DevilError as exc:
            return (first.seq, exc.message), 0, None
        return None, 1, None
    if ClockExpired not in kinds:
        if clocks.control is not None and first.actor >= 0 and not any(
                k in CLOCK_CLASSES for k in kinds):
            try:
                clocks.check_move(first.actor, first.ts)
            except DevilError as exc:
                return (first.seq, exc.message), 0, None
        return None, 0, None
    event = events[0]
    if type(event) is not ClockExpired or ClockExpired in kinds[1:] or ClockSet in kinds:
        return (first.seq, "CLOCK-5: a timeout is the first event of its command, and the only "
                           "one"), 0, None
    if first.actor != -1 or clocks.control is None:
        return (first.seq, "CLOCK-5: a timeout is recorded by the service in a game with a "
                           "clock"), 0, None
    due = clocks.due(event.seat)
    if due is None or due != (event.due, event.limit) or first.ts < due[0]:
        said = "its clock does not run" if due is None else (
            f"it runs out at {due[0]} ms ({due[1]})")
        return (first.seq, f"CLOCK-5: this timeout of seat {event.seat} at {first.ts} ms was not "
                           f"due ({said}; the record says {event.due} ms, {event.limit})"), 0, None
    control = clocks.control
    expected = None
    if clocks.action(event.seat, event.limit) == FLAG and event.action != FLAG:
        return (first.seq, "CLOCK-5.1: every seat's time ran out: the seat is flagged, not "
                           "played"), 0, None
    if event.action == FLAG and clocks.action(event.seat, event.limit) == FLAG:
        return (None, 1, None) if len(events) == 1 else (
            (first.seq, "CLOCK-6: a flag stands alone"), 0, None)
    if control.on_timeout == ACT and rules.timeout is not None:
        expected = rules.timeout(state, event.seat)
    if event.action == ACT:
        if control.on_timeout != ACT or expected is None or len(events) < 2:
            return (first.seq, "CLOCK-5: a timeout that acts is followed by the kind's timeout "
                               "action, in a game created to act"), 0, None
        return None, 1, expected
    if event.action != FLAG or len(events) != 1:
        return (first.seq, "CLOCK-6: a flag stands alone"), 0, None
    if control.on_timeout == ACT and expected is not None:
        try:  # flagged though the game acts: only where the rules refused the action
            rules.decide(state, expected, None)
        except DevilError:
            return None, 1, None
        except Exception:  # pragma: no cover - it needed chance: it was possible
            pass
        return (first.seq, "CLOCK-5: the game acts on a timeout, and the kind's action was "
                           "possible here"), 0, None
    return None, 1, None


def step(rules, clocks: Clocks, fold, records, events) -> None:
    """Fold one command into ``clocks`` (``fold`` is the referee's fold just after it)."""
    if clocks.control is None and not any(type(e) is ClockSet for e in events):
        return
    clocks.step(records[0].ts, records[0].actor, list(events),
                waiting(rules, fold.state, fold.desk), len(rules.seats(fold.state)))


def summary(clocks: Clocks, names: list[str]) -> str:
    """The sentence verify says of a game's clocks."""
    control = clocks.control
    assert control is not None
    readings = clocks.readings(clocks.at, names)
    assert readings is not None
    parts = []
    for seat in readings["seats"]:
        text = seat["player"]
        if seat["remaining"] is not None:
            from ..clock import duration_text

            text += f" {duration_text(seat['remaining'])}"
        if seat["timeouts"]:
            text += f" ({seat['timeouts']} timeout{'s' if seat['timeouts'] != 1 else ''}"
            text += ", flagged)" if seat["flagged"] else ")"
        parts.append(text)
    return (f"clocks ({readings['control']['text']}): every timeout was due and no seat moved "
            "after its time ran out; at the last record: " + ", ".join(parts))


def timeline(log) -> dict:
    """``{seq: readings}``: every seat's clock (engine.clock.Clocks.readings) just after the
    command of each record, at that record's time, as the live game showed it then; {} for a
    game without a time control.  ``log``: an engine.replay.LoadedLog."""
    from ..clock import ClockFold

    rules = log.rules
    if rules.to_move is None:
        return {}
    records, events = log.records, log.events
    fold = ClockFold(rules)
    out: dict = {}
    start = 0
    for index, record in enumerate(records):
        if record.left:
            continue
        fold.advance(records[start:index + 1], events[start:index + 1], lambda: events)
        if fold.clocks.control is not None:
            reading = fold.clocks.readings(record.ts, rules.seats(fold.fold.state))
            for earlier in records[start:index + 1]:
                out[earlier.seq] = reading
        start = index + 1
    return out
