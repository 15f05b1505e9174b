"""Adjudicated tables and amended results in a tournament stream (TOUR-8, TOUR-9;
docs/tournaments.md, "Time limits and amended results").

The stream's side only, pure like engine.tournament.rules (which dispatches here):

* ``adjudicate`` -> ``table_adjudicated``: a table of the open round ended at time (TOUR-8.1
  the round time, TOUR-8.2 the table); its result follows as a ``result_recorded`` whose
  ``adjudicated`` names the game's rule (TOUR-8.3).
* ``amend`` -> ``result_amended``: a table's recorded result replaced by the one its game's
  log gives after a correction or ruling at the referee's desk (TOUR-9.1, 9.2); the old
  result stays in the stream, the new one counts; later rounds already paired stand
  (TOUR-9.4).

What the game's log says is read by engine.tournament.adjudicate (the store's side); what the
standings show of both is engine.tournament.marks; :func:`history` is what a bundle shows of
the amendments.
"""

from __future__ import annotations

from ..errors import IllegalCommand, UsageError
from . import events as ev
from .checks import check_open, check_reason


def _reason(text, rule: str) -> str:
    return check_reason(text, rule, "say why (--reason): it is recorded with the event")


def _open_table(state, round_: int, table: int) -> None:
    """IllegalCommand TOUR-8.2 unless ``table`` is a table of the open round ``round_``."""
    if round_ != state.round or state.closed >= round_:
        open_ = "none is open" if state.closed == state.round else f"round {state.round} is"
        raise IllegalCommand("TOUR-8.2", f"round {round_} is not the open round ({open_})")
    tables = state.tables.get(round_, [])
    if not 1 <= table <= len(tables):
        raise IllegalCommand("TOUR-8.2", f"round {round_} has tables 1 to {len(tables)}, "
                                         f"not {table}")


def check_adjudicate(state, command: ev.Adjudicate) -> int | None:
    """The checks of an ``adjudicate`` (TOUR-8.1, 8.2), without the events: when the round's
    time runs out (None: no round time).  Raises IllegalCommand naming the rule."""
    from .clock import check_time

    check_open(state)
    _open_table(state, command.round, command.table)
    where = f"table {command.table} of round {command.round}"
    game = state.games.get((command.round, command.table))
    if game is None:
        raise IllegalCommand("TOUR-8.2", f"{where} has no game attached: there is nothing to "
                                         "adjudicate")
    if game != command.game:
        raise IllegalCommand("TOUR-8.2", f"{command.game} is not the game of {where} ({game})")
    if (command.round, command.table) in state.results:
        raise IllegalCommand("TOUR-8.2", f"{where} has its result already")
    if (command.round, command.table) in state.adjudicated:
        raise IllegalCommand("TOUR-8.2", f"{where} was adjudicated already")
    _reason(command.reason, "TOUR-8.2")
    if type(command.at) is not int or command.at < 0:
        raise UsageError("adjudicate: \"at\" is a time in ms since 1970")
    return check_time(state, command.round, command.at, bool(command.force))


def check_amend(state, command: ev.Amend):
    """The checks of an ``amend`` (TOUR-9.1, 9.2) against the stream: the recorded result it
    replaces.  A finished tournament still takes an amendment (TOUR-9.5): a result found
    wrong after the last round closed is corrected, and the final standings follow.  Raises
    IllegalCommand naming the rule, UsageError for a malformed result."""
    round_, table = command.round, command.table
    if not 1 <= round_ <= state.round:
        raise IllegalCommand("TOUR-9.1", f"rounds 1 to {state.round} are paired, not {round_}")
    tables = state.tables[round_]
    if not 1 <= table <= len(tables):
        raise IllegalCommand("TOUR-9.1", f"round {round_} has tables 1 to {len(tables)}, "
                                         f"not {table}")
    where = f"table {table} of round {round_}"
    old = state.results.get((round_, table))
    if old is None:
        raise IllegalCommand("TOUR-9.1", f"{where} has no result to amend: attach or close "
                                         "the round to record it")
    if state.games.get((round_, table)) != command.game:
        raise IllegalCommand("TOUR-9.1", f"{command.game} is not the game of {where}")
    _reason(command.reason, "TOUR-9.1")
    if command.seq == old.seq and command.link == old.link:
        raise IllegalCommand("TOUR-9.2", f"nothing changed: {command.game}'s log still ends at "
                                         f"record {old.seq}, the head its result was read at")
    n = len(tables[table - 1].players)
    if (len(command.places) != n or len(command.values) != n
            or not all(1 <= p <= n for p in command.places)
            or any(w not in tables[table - 1].players for w in command.winners)
            or (command.points is not None and len(command.points) != n)):
        raise UsageError("the result does not fit the table's seats")
    return old


def decide_late(state, command) -> list:
    """The events of an ``adjudicate`` or ``amend`` command (see the module doc)."""
    from .standings import table_points

    if type(command) is ev.Adjudicate:
        ends = check_adjudicate(state, command)
        return [ev.TableAdjudicated(round=command.round, table=command.table,
                                    game=command.game, reason=command.reason.strip(),
                                    at=command.at, ends=ends, forced=bool(command.force))]
    old = check_amend(state, command)
    points = table_points(state.created.points, command.places, command.share, command.points)
    return [ev.ResultAmended(
        round=command.round, table=command.table, game=command.game,
        reason=command.reason.strip(), seq=command.seq, link=command.link,
        places=list(command.places), values=list(command.values),
        winners=list(command.winners), points=[str(p) for p in points],
        measure=command.measure, share=command.share, scored=command.points is not None,
        adjudicated=command.adjudicated, was_seq=old.seq, was_link=old.link,
        standing=list(range(command.round + 1, state.round + 1)))]


def evolve_late(state, event) -> None:
    """Apply a ``table_adjudicated`` or ``result_amended`` (in place): an amendment's result
    replaces the table's for the standings; the amendment is kept in ``state.amendments``."""
    if type(event) is ev.TableAdjudicated:
        state.adjudicated[(event.round, event.table)] = event
        return
    state.results[(event.round, event.table)] = ev.ResultRecorded(
        round=event.round, table=event.table, game=event.game, seq=event.seq, link=event.link,
        places=list(event.places), values=list(event.values), winners=list(event.winners),
        points=list(event.points), measure=event.measure, share=event.share,
        scored=event.scored, adjudicated=event.adjudicated)
    state.amendments.append(event)


def command_late(event):
    """The command that gave a ``table_adjudicated`` or ``result_amended`` (for ``devil
    verify``'s strict refold)."""
    from .standings import fraction

    if type(event) is ev.TableAdjudicated:
        return ev.Adjudicate(round=event.round, table=event.table, game=event.game,
                             reason=event.reason, at=event.at, force=event.forced)
    own = [int(fraction(p)) for p in event.points] if event.scored else None
    return ev.Amend(round=event.round, table=event.table, game=event.game, reason=event.reason,
                    seq=event.seq, link=event.link, places=list(event.places),
                    values=list(event.values), winners=list(event.winners),
                    measure=event.measure, share=event.share, points=own,
                    adjudicated=event.adjudicated)


# -- what the bundle shows -------------------------------------------------------------------------
def history(state) -> list[dict]:
    """Every amendment for a bundle's manifest: ``{"round", "table", "game", "reason",
    "was": {"seq", "link"}, "now": {"seq", "link", "places", "values", "points", "winners"},
    "standing": [rounds]}``; the old result's placings are the ``result_recorded`` (or earlier
    ``result_amended``) in the stream, which is never edited."""
    return [{"round": a.round, "table": a.table, "game": a.game, "reason": a.reason,
             "was": {"seq": a.was_seq, "link": a.was_link},
             "now": {"seq": a.seq, "link": a.link, "places": list(a.places),
                     "values": list(a.values), "points": list(a.points),
                     "winners": list(a.winners)},
             "standing": list(a.standing)} for a in state.amendments]


def check_history(state, logs: dict[str, bytes]) -> tuple[list[str], list[str]]:
    """A bundle's amendments checked against its game logs (``logs``: game -> bytes):
    ``(problems, checks)``.  Each replaced result's head must be a record of the log (the log
    grew past it by a correction, never lost it)."""
    from ..log import scan

    problems, checks = [], []
    for a in state.amendments:
        data = logs.get(a.game)
        if data is None:
            continue
        try:
            records = scan(data).records
        except Exception:
            continue  # already named by the log's own check
        taken = records[a.was_seq - 1] if 0 < a.was_seq <= len(records) else None
        if taken is None or taken.link.hex() != a.was_link:
            problems.append(f"game {a.game} (round {a.round}, table {a.table}): the result its "
                            f"amendment replaced was read at record {a.was_seq}, which its log "
                            "does not hold")
    if state.amendments and not problems:
        count = len(state.amendments)
        checks.append(f"{count} result{'s' if count != 1 else ''} amended ("
                      + "; ".join(f"round {a.round} table {a.table}: record {a.was_seq} -> "
                                  f"{a.seq}" for a in state.amendments)
                      + "): every replaced result's head is in its log")
    return problems, checks
