"""Adjudicating a table at time and amending a result: the store's side (TOUR-8, TOUR-9;
docs/tournaments.md, "Time limits and amended results").

:func:`adjudicate` ends a table's game at time: the referee's ``adjudicated`` record goes into
the GAME's log (engine.desk, DESK-8: the game is finished, placed by its kind's
``adjudicated`` hook), then the tournament stream records ``table_adjudicated`` and the result
(``result_recorded`` with ``adjudicated``: the rule).  :func:`amend` reads a table's game again
after a correction or ruling at the referee's desk and records ``result_amended``.
:func:`placed_of` is how every reader of a finished log (attach, close-round, amend, the
bundle's check) places its players; :func:`attachments` finds the tournaments using a game
(the desk warns when such a game is corrected).
"""

from __future__ import annotations

from ..errors import IllegalCommand
from . import events as ev
from .amend import check_adjudicate


def placed_of(log, state_end=None) -> dict:
    """The placings of a finished game log (engine.replay.LoadedLog), as the kind's
    ``placings`` hook gives them (GameRules.placings), or, for a game the referee ended at
    time (DESK-8), its ``adjudicated`` hook, with ``"rule"`` the rule that placed it (absent
    for a game played out).  ``state_end``: the fold of its events in force, if known."""
    rules = log.rules
    effective = log.effective()
    if log.desk is not None and log.desk.ended is not None and rules.adjudicated is not None:
        return dict(rules.adjudicated(rules, effective.events))
    if state_end is None:
        state_end = rules.fold(effective.events)
    assert rules.placings is not None  # a kind a tournament plays places its players
    return dict(rules.placings(state_end))


def result_fields(log, placed: dict) -> dict:
    """The fields of a RecordResult / Amend from a log and its placings: the head (``seq``,
    ``link`` hex), ``places``, ``values``, ``winners`` (names), ``measure``, ``share``,
    ``points`` (the game's own, or None), ``adjudicated`` (the rule, or None)."""
    last = log.records[-1]
    return {"seq": last.seq, "link": last.link.hex(), "places": list(placed["places"]),
            "values": list(placed["values"]),
            "winners": [log.names[s] for s in placed["winners"]], "measure": placed["measure"],
            "share": bool(placed["share"]),
            "points": None if placed["points"] is None else list(placed["points"]),
            "adjudicated": placed.get("rule")}


def attachments(organiser, game: str) -> list[tuple[str, int, int, bool]]:
    """``(tournament, round, table, has its result)`` of every tournament in the store that
    attaches ``game`` (its result is in use there)."""
    out = []
    for tournament in organiser.tournaments():
        try:
            state = organiser.state(tournament)
        except Exception:  # a damaged stream is named by its own commands
            continue
        where = state.attached.get(game)
        if where is not None:
            out.append((tournament, where[0], where[1], where in state.results))
    return out


def attached_warnings(organiser, game: str) -> list[str]:
    """What a correction or ruling of ``game`` warns (TOUR-9): a line for every tournament
    of the store that attaches it (its result in use, and the ``amend`` that takes the
    corrected one; or read when its round closes).  ``[]`` for a game of no tournament."""
    out = []
    for tid, round_, table, counted in attachments(organiser, game):
        if counted:
            out.append(f"{game} is attached to table {table} of round {round_} of {tid}, whose "
                       "standings use its result: once the game is finished again, `devil "
                       f"tournament amend {tid} {table} --round {round_} --reason TEXT` takes "
                       "the corrected result")
        else:
            out.append(f"{game} is attached to table {table} of round {round_} of {tid}: its "
                       "result is read when the round closes")
    return out


def adjudicate(organiser, tournament: str, table: int, reason: str, force: bool = False,
               round_: int | None = None, at: int | None = None) -> dict:
    """End table ``table`` of the open round at time (TOUR-8.1, 8.2) and record its result.

    ``at``: now (ms since 1970; default the clock, engine.tournament.clock); ``force``: the
    referee's call before the round time ran out.  Returns ``{"game", "round", "table",
    "rule", "ends", "forced", "result": {"players", "places", <measure>, "points",
    "winners"}}``.  Raises IllegalCommand (TOUR-8.x) with nothing recorded when refused."""
    from ..desk.commands import AdjudicateGame
    from ..replay import load_bytes
    from .clock import now_ms

    state = organiser.state(tournament)
    round_ = state.round if round_ is None else round_
    game = state.games.get((round_, table), "")
    command = ev.Adjudicate(round=round_, table=table, game=game, reason=reason,
                            at=now_ms() if at is None else at, force=force)
    check_adjudicate(state, command)  # before anything is written to the game's log
    from .roundtime import apply_deadline
    apply_deadline(organiser, game)  # TOUR-8.5: the round's deadline may have ended it already
    log = load_bytes(organiser.store.log_bytes(game))
    rules = log.rules
    if log.desk is None or log.desk.ended is None:
        if rules.is_over(rules.fold(log.effective().events)):
            raise IllegalCommand("TOUR-8.2", f"{game} is finished: its result is recorded as it "
                                             "stands (close-round collects it)")
        if rules.adjudicated is None:
            raise IllegalCommand("TOUR-8.2", f"{log.header.kind} games cannot be adjudicated")
        rule = rules.adjudicated(rules, log.effective().events)["rule"]
        organiser.service.submit(game, AdjudicateGame(
            reason=f"{tournament} round {round_} table {table}: {reason.strip()}", rule=rule))
    events = organiser.submit(tournament, command)
    found = organiser.check_log(tournament, organiser.store.log_bytes(game), round_, table)
    organiser.submit(tournament, found["record"])
    return {"game": game, "round": round_, "table": table, "rule": found["record"].adjudicated,
            "ends": events[0].ends, "forced": events[0].forced,
            "result": organiser._result_row(tournament, round_, table)}


def amend(organiser, tournament: str, table: int, reason: str,
          round_: int | None = None) -> dict:
    """Record the corrected result of table ``table`` of round ``round_`` (default: the last
    paired) from its game's log, after a correction or ruling at the referee's desk (TOUR-9.1
    to 9.4).  Returns ``{"game", "round", "table", "seq" (the new head), "reason", "was":
    {"seq", "places", "points", <measure>}, "result": {...}, "standing": [later rounds
    paired]}``.  Raises IllegalCommand with
    nothing recorded: no result to amend (9.1), no correction since it was read (9.2), the
    game not finished again or not verifying (9.3)."""
    from ..desk.events import Amended, Corrected
    from ..replay import load_bytes, verify_bytes

    state = organiser.state(tournament)
    round_ = state.round if round_ is None else round_
    game = state.games.get((round_, table))
    old = state.results.get((round_, table))
    if game is None or old is None:
        where = f"table {table} of round {round_}"
        raise IllegalCommand("TOUR-9.1", f"{where} has no result to amend (paired rounds: 1 "
                                         f"to {state.round}; `devil tournament show`)")
    data = organiser.store.log_bytes(game)
    check = verify_bytes(data)
    if not check.ok:
        raise IllegalCommand("TOUR-9.3", f"{game} does not verify: record "
                                         f"{check.first_bad_seq} is bad: {check.reason}")
    log = load_bytes(data)
    corrected = [r.seq for r, e in zip(log.records, log.events)
                 if r.seq > old.seq and type(e) in (Corrected, Amended)]  # DESK-9 too
    if not corrected:
        raise IllegalCommand("TOUR-9.2", f"nothing changed: {game} has no correction, "
                                         "amendment or ruling that corrects it after record "
                                         f"{old.seq}, where "
                                         "its result was read (a dispute or a rejected ruling "
                                         "changes nothing)")
    if not check.finished:
        raise IllegalCommand("TOUR-9.3", f"{game} was corrected at record {corrected[-1]} and "
                                         "is not finished again: record the rest of the game, "
                                         "then amend")
    fields = result_fields(log, placed_of(log))
    organiser.submit(tournament, ev.Amend(round=round_, table=table, game=game, reason=reason,
                                          **fields))
    after = organiser.state(tournament)
    amendment = after.amendments[-1]
    return {"game": game, "round": round_, "table": table, "seq": amendment.seq,
            "was": {"seq": old.seq, "places": list(old.places), "points": list(old.points),
                    old.measure: list(old.values)},
            "result": organiser._result_row(tournament, round_, table),
            "standing": list(amendment.standing), "reason": amendment.reason}


def from_body(organiser, tournament: str, kind: str, body: dict) -> dict:
    """An ``adjudicate`` (``{"table", "reason", "force"?}``) or ``amend`` (``{"table",
    "round"?, "reason"}``) command of the HTTP service (engine.web.tournament): the answer of
    :func:`adjudicate` / :func:`amend`.  UsageError (400) for a field of the wrong type."""
    from ..errors import UsageError

    table, reason = body.get("table"), body.get("reason")
    if type(table) is not int or table < 1:
        raise UsageError(f"{kind}: \"table\" is a table number from 1")
    if not isinstance(reason, str):
        raise UsageError(f"{kind}: \"reason\" is text: say why")
    if kind == "adjudicate":
        force = body.get("force", False)
        if not isinstance(force, bool):
            raise UsageError("adjudicate: \"force\" is true or false")
        return adjudicate(organiser, tournament, table, reason, force=force)
    round_ = body.get("round")
    if round_ is not None and (type(round_) is not int or round_ < 1):
        raise UsageError("amend: \"round\" is a round number from 1")
    return amend(organiser, tournament, table, reason, round_=round_)
