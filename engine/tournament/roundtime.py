"""A round's time on its games' clocks (TOUR-8.5, CLOCK-10; docs/tournaments.md, "Time limits
and amended results").

``pair`` gives each game of a round with a round time the round's end as its time control's
``deadline`` (:func:`deadline_of`; engine.roundclock); the service adjudicates a game whose
deadline passed (its log: ``clock_expired`` with limit ``"round"`` and the desk's
``adjudicated``).  ``close-round`` records what is due first (:func:`apply_deadline`) and, for
a table so ended, the stream's ``table_adjudicated`` at the round's end before its result
(:func:`record_timed_out`), as ``adjudicate`` would have: TOUR-8.3 marks the result.
"""

from __future__ import annotations

from contextlib import suppress

from ..errors import DevilError
from . import events as ev
from .clock import MINUTE


def deadline_of(created, paired) -> int | None:
    """When the round ``paired`` (``round_paired``) ends (ms since 1970): its ``at`` plus the
    tournament's round time (``created``: ``tournament_created``); None without a round time
    or a pairing time."""
    minutes = created.round_time
    at = getattr(paired, "at", None)
    if minutes is None or at is None:
        return None
    return at + minutes * MINUTE


def apply_deadline(organiser, game: str) -> None:
    """Record ``game``'s timeouts due now, its round's deadline among them
    (engine.service.clocks.apply_due); a damaged game is left for its reader to name."""
    with suppress(DevilError):
        organiser.service.apply_timeouts(game)


def round_timeout(log):
    """The ``clock_expired`` round timeout of a game log (engine.replay.LoadedLog) whose desk
    ended it (CLOCK-10), or None."""
    from ..roundclock import REASON, is_round

    if log.desk is None or log.desk.ended is None or log.desk.ended[1] != REASON:
        return None
    return next((e for e in log.events if is_round(e)), None)


def record_timed_out(organiser, tournament: str, state, record) -> None:
    """Before ``record`` (a RecordResult) of a game the service adjudicated at its round's
    deadline, record the table's ``table_adjudicated`` at that deadline (TOUR-8.5), so the
    result is marked as adjudicated (TOUR-8.3); nothing for any other result."""
    from ..replay import load_bytes
    from ..roundclock import REASON

    where = (record.round, record.table)
    if record.adjudicated is None or where in state.adjudicated:
        return
    log = load_bytes(organiser.store.log_bytes(record.game))
    expired = round_timeout(log)
    if expired is None:
        return
    organiser.submit(tournament, ev.Adjudicate(round=record.round, table=record.table,
                                               game=record.game, reason=REASON,
                                               at=log.header.created + expired.due))
