"""Two checks every tournament command shares (docs/tournaments.md): the tournament is still
open (TOUR-5.3), and a recorded reason is given and fits on one line.  Pure: no I/O."""

from __future__ import annotations

from ..errors import IllegalCommand, UsageError


def check_open(state) -> None:
    """IllegalCommand (TOUR-5.3) once ``state`` (a TournamentState) is finished: nothing more
    is recorded."""
    if state.finished:
        raise IllegalCommand("TOUR-5.3", "the tournament is finished: nothing more can be recorded")


def check_reason(text, rule: str, missing: str) -> str:
    """``text`` stripped: the reason a command records.  IllegalCommand (``rule``, saying
    ``missing``) when there is none; UsageError when it is over 500 characters or not one
    printable line."""
    reason = text.strip() if isinstance(text, str) else ""
    if not reason:
        raise IllegalCommand(rule, missing)
    if len(reason) > 500 or not reason.isprintable():
        raise UsageError("a reason is 1 to 500 printable characters on one line")
    return reason
