"""A tournament's round time (TOUR-8.1; docs/tournaments.md, "Time limits and amended
results"): the one place that reads the clock and says when a round's time runs out.

A round starts when it is paired (``round_paired``'s ``at``, ms since 1970, stamped by the
organiser from :func:`now_ms` and recorded, so ``devil verify`` re-decides from the stream
alone); it ends ``round_time`` minutes later (``tournament_created``'s ``round_time``; None:
no limit).  The deciders never read the clock: the time is passed in the command.
"""

from __future__ import annotations

import time

from ..errors import IllegalCommand, UsageError
from ..log import iso_time

#: milliseconds in a minute
MINUTE = 60_000
#: the longest round time (minutes): a day
MAX_ROUND_TIME = 24 * 60


def now_ms() -> int:
    """Now, in ms since 1970 (UTC): what the organiser stamps a pairing or an adjudication
    with."""
    return int(time.time() * 1000)


def check_round_time(value) -> int | None:
    """``value`` as a round time in whole minutes (1 to :data:`MAX_ROUND_TIME`), or None for
    none.  UsageError otherwise."""
    if value is None:
        return None
    if type(value) is not int or not 1 <= value <= MAX_ROUND_TIME:
        raise UsageError(f"a round time is 1 to {MAX_ROUND_TIME} whole minutes, not {value!r}")
    return value


def round_ends(state, round_: int) -> int | None:
    """When round ``round_``'s time runs out (ms since 1970): its pairing's time plus the
    round time; None when the tournament has no round time or the round's pairing has no time
    (a stream recorded before round times)."""
    minutes = state.created.round_time
    start = state.paired_at.get(round_)
    if minutes is None or start is None:
        return None
    return start + minutes * MINUTE


def check_time(state, round_: int, at: int, force: bool) -> int | None:
    """Whether a table of round ``round_`` may be adjudicated at ``at`` (ms; TOUR-8.1): once the
    round's time ran out, or at any time with ``force`` (the referee's call).  Returns when the
    time runs out (None: no round time); IllegalCommand TOUR-8.1 naming it otherwise."""
    ends = round_ends(state, round_)
    if force:
        return ends
    if ends is None:
        raise IllegalCommand("TOUR-8.1", f"round {round_} has no round time (tournament new "
                             "--round-time MINUTES): a table is adjudicated before time only "
                             "as the referee's call (--force)")
    if at < ends:
        left = (ends - at + MINUTE - 1) // MINUTE
        raise IllegalCommand("TOUR-8.1", f"round {round_}'s time runs out at "
                             f"{iso_time(ends, 0)} ({left} min from now): a table is "
                             "adjudicated once it has, or before as the referee's call (--force)")
    return ends
