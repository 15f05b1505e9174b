"""The desk's decider: a desk command checked against the log, and the events it causes.

:func:`decide` is pure: it reads the :class:`engine.desk.state.Desk` and a :class:`Log` (what
it needs to know of the game's records) and returns the events, or raises:

* :class:`engine.errors.NotAllowed` (exit 4): a seat correcting or ruling (DESK-1), or a seat
  disputing for another;
* :class:`engine.errors.UsageError` (exit 2): an empty or overlong reason or text;
  :class:`UnknownRecord` / :class:`UnknownDispute` (exit 2): a record or dispute the log does
  not have (yet);
* :class:`engine.errors.IllegalCommand` (exit 1): what the desk's rules refuse (DESK-2 to 5,
  DESK-8, DESK-9 (engine.desk.amend), DESK-10: remedies and cited disputes).
"""

from __future__ import annotations

from typing import Callable

import attrs

from ..errors import IllegalCommand, NotAllowed, UsageError
from . import takeback
from .commands import (AdjudicateGame, AmendRecord, Correct, Dispute, ReplaceSeat, ReturnSeat,
                       Ruling)
from .events import (Adjudicated, Amended, Corrected, DisputeRaised, RulingGiven, SeatReplaced,
                     SeatReturned)
from .state import Desk

#: the longest reason or complaint (characters)
MAX_TEXT = 500
#: the referee, as :func:`decide` is told who acts (engine.game.REFEREE)
REFEREE = None


class UnknownRecord(UsageError):
    """A command naming a record the log does not have (exit 2, like an unknown game); the
    message starts with the rule id."""

    def __init__(self, rule: str, message: str):
        self.rule = rule
        super().__init__(f"{rule}: {message}")


class UnknownDispute(UnknownRecord):
    """A ruling on a dispute the log does not have (exit 2)."""


@attrs.frozen
class Log:
    """What the desk's decider needs of a game's log.

    ``last``: the last sequence number; ``setup_end``: the last record of the game's first
    command (its setup); ``left(seq)``: the record's ``left`` field (0 ends a command);
    ``names``: the players in seat order; ``over``: whether the game (as folded, voids
    applied) has ended; ``physical``: whether the referee reports chance.
    """

    last: int
    setup_end: int
    left: Callable[[int], int]
    names: list
    over: bool
    physical: bool
    #: the bot names of the game's kind (engine.bots.bot_names); empty: not checked
    bots: tuple = ()
    #: the log's records and events (engine.desk.takeback.History), for a takeback (DESK-12)
    history: "takeback.History | None" = None
    #: True in the strict refold of ``devil verify``: an upheld ruling without a remedy is
    #: one recorded before DESK-10, accepted as it was then
    legacy: bool = False


def clean_text(text, what: str) -> str:
    """``text`` stripped: 1 to :data:`MAX_TEXT` printable characters, else UsageError."""
    if not isinstance(text, str) or not text.strip():
        raise UsageError(f"{what} must not be empty: say why (it is recorded with the event)")
    text = text.strip()
    if len(text) > MAX_TEXT or not text.isprintable():
        raise UsageError(f"{what} is 1 to {MAX_TEXT} printable characters on one line")
    return text


def seat_named(player, names: list) -> "int | None":
    """The seat of player ``player`` (None for None); UsageError for a name the game lacks."""
    from ..seats import seat_named as named

    if player is None:
        return None
    return named(names, player, fold_case=False)


#: an upheld ruling's remedies (DESK-10.1)
REMEDIES = ("correct", "amend", "none")


def decide(desk: Desk, command, actor, log: Log, history=None) -> list:
    """The events ``command`` (a :mod:`engine.desk.commands` object) causes, given by
    ``actor`` (REFEREE, a seat index, or ``"console"``: the local CLI, acting as the seat
    ``command.player`` names, else as the referee), on a log described by ``log``.
    ``history``: ``(rules, records, events, chance)`` of the whole log, which an amendment
    (DESK-9, :func:`engine.desk.amend.decide_amend`) re-decides."""
    if isinstance(command, takeback.COMMANDS):
        return takeback.decide(desk, command, actor, log, log.history, clean_text)[0]
    if isinstance(command, (Correct, Ruling, ReplaceSeat, AdjudicateGame, ReturnSeat,
                            AmendRecord)):
        named = seat_named(command.player, log.names)
        seat = None if actor is REFEREE else named if actor == "console" else actor
        if seat is not None:
            what = ("correct a game" if isinstance(command, Correct) else "give a ruling"
                    if isinstance(command, Ruling) else "hand a seat to a bot"
                    if isinstance(command, ReplaceSeat) else "give a seat back to its player"
                    if isinstance(command, ReturnSeat) else "amend a record"
                    if isinstance(command, AmendRecord) else "end a game at time")
            raise NotAllowed(f"DESK-1: only the referee may {what}; {log.names[seat]} may "
                             "raise a dispute instead (`devil dispute GAME SEQ TEXT`)")
    if isinstance(command, AdjudicateGame):
        reason = clean_text(command.reason, "the reason of an adjudication")
        rule = clean_text(command.rule, "the rule of an adjudication")
        if desk.ended is not None:
            raise IllegalCommand("DESK-8", f"the game was already adjudicated at record "
                                           f"{desk.ended[0]}: it is over")
        if log.over:
            raise IllegalCommand("DESK-8", "the game is finished: there is nothing to adjudicate")
        return [Adjudicated(reason, rule)]
    if desk.ended is not None and (isinstance(command, (Correct, AmendRecord))
                                   or getattr(command, "to", None) is not None):
        raise IllegalCommand("DESK-8", f"the game was adjudicated at record {desk.ended[0]}: "
                                       "it is over and cannot be corrected")
    if isinstance(command, Correct):
        reason = clean_text(command.reason, "the reason of a correction")
        check_cited(desk, command.dispute, "correct")
        check_to(desk, log, command.to)
        return [Corrected(command.to, reason, desk.epoch + 1, command.dispute)]
    if isinstance(command, AmendRecord):
        from .amend import decide_amend

        reason = clean_text(command.reason, "the reason of an amendment")
        if not 1 <= command.seq <= log.last:
            raise UnknownRecord("DESK-9", f"there is no record {command.seq} to amend (the log "
                                          f"has records 1 to {log.last})")
        check_cited(desk, command.dispute, "amend")
        if history is None:  # pragma: no cover - every caller gives it
            raise UsageError("an amendment needs the game's log")
        return decide_amend(desk, command, reason, log, *history)
    if isinstance(command, Ruling):
        reason = clean_text(command.reason, "the reason of a ruling")
        case = desk.cases.get(command.dispute)
        if case is None:
            open_ = ", ".join(str(c.number) for c in desk.open_cases()) or "none"
            raise UnknownDispute("DESK-5", f"there is no dispute {command.dispute} in this game "
                                           f"(open disputes: {open_}; `devil disputes GAME`)")
        if not case.open:
            verdict = "upheld" if case.upheld else "rejected"
            raise IllegalCommand("DESK-5", f"dispute {case.number} was already ruled at record "
                                           f"{case.ruling} ({verdict}): "
                                           "a ruling is final; correct the game if it must change")
        if command.to is not None and not command.upheld:
            raise IllegalCommand("DESK-5", "a rejected dispute changes nothing: a correction "
                                           "(--to) comes only with --uphold")
        remedy = check_remedy(command, log)
        events: list[RulingGiven | Corrected] = [
            RulingGiven(case.number, command.upheld, reason, command.to, remedy)]
        if command.to is not None:
            check_to(desk, log, command.to)
            events.append(Corrected(command.to, reason, desk.epoch + 1))
        return events
    if isinstance(command, ReplaceSeat):
        return [replace_seat(desk, command, log)]
    if isinstance(command, ReturnSeat):
        return [return_seat(desk, command, log)]
    if isinstance(command, Dispute):
        text = clean_text(command.text, "the text of a dispute")
        seat = seat_named(command.player, log.names)
        if actor != "console" and actor is not REFEREE:
            if seat is not None and seat != actor:
                raise NotAllowed(f"you sit as {log.names[actor]} and cannot raise a dispute "
                                 f"as {log.names[seat]}")
            seat = actor
        if seat is None:
            raise UsageError("DESK-4: a dispute is a seat's complaint: name the player raising "
                             "it (--as NAME); the referee corrects directly (`devil correct`)")
        if not 1 <= command.seq <= log.last:
            raise UnknownRecord("DESK-4", f"there is no record {command.seq} to dispute "
                                          f"(the log has records 1 to {log.last})")
        if command.seq in desk.voided:
            void = desk.void_of(command.seq)
            what = "amendment" if void is not None and void.amended else "correction"
            raise IllegalCommand("DESK-4", f"record {command.seq} was already voided by the "
                                           f"{what} at record {desk.voided[command.seq]}")
        return [DisputeRaised(len(desk.cases) + 1, command.seq, seat, text)]
    raise UsageError(f"{type(command).__name__} is not a desk command")  # pragma: no cover


def check_remedy(command: Ruling, log: Log) -> str | None:
    """The remedy a ruling records (DESK-10.1): an upheld ruling names one of
    :data:`REMEDIES` (``"correct"`` exactly when it carries ``to``); a rejected one none.
    IllegalCommand otherwise (an upheld ruling without one is accepted from an old log in the
    strict refold, ``log.legacy``)."""
    remedy = command.remedy
    if not command.upheld:
        if remedy is not None:
            raise IllegalCommand("DESK-10.1", "a rejected dispute has no remedy: nothing "
                                              "changes")
        return None
    if remedy is None and log.legacy:  # recorded before DESK-10: as the log has it
        return None
    if remedy is None and command.to is not None:
        remedy = "correct"
    if remedy is None:
        raise IllegalCommand("DESK-10.1", "an upheld dispute names its remedy: a correction "
                                          "(--to SEQ), an amendment to follow (--amend: then "
                                          "`devil amend GAME SEQ ... --dispute N`) or no "
                                          "change (--no-change; the reason says why)")
    if remedy not in REMEDIES:
        raise UsageError(f"DESK-10.1: a remedy is one of {', '.join(REMEDIES)}, not {remedy!r}")
    if (remedy == "correct") != (command.to is not None):
        raise IllegalCommand("DESK-10.1", "the remedy \"correct\" comes with the record the "
                                          "game returns to (--to SEQ), and only it does")
    return remedy


def check_cited(desk: Desk, dispute, what: str) -> None:
    """A correction or amendment citing ``dispute`` (DESK-10.2): it must exist and be upheld
    with a remedy that changes the game (``what``: ``"correct"`` or ``"amend"``).  None:
    nothing cited.  UnknownDispute (exit 2) or IllegalCommand."""
    if dispute is None:
        return
    case = desk.cases.get(dispute)
    if case is None:
        raise UnknownDispute("DESK-10.2", f"there is no dispute {dispute} in this game to "
                                          "answer (`devil disputes GAME --all`)")
    if case.open:
        raise IllegalCommand("DESK-10.2", f"dispute {dispute} is still open: rule on it first "
                                          f"(`devil ruling GAME {dispute} --uphold --amend` or "
                                          "--to SEQ), then answer it")
    if not case.upheld:
        raise IllegalCommand("DESK-10.2", f"dispute {dispute} was rejected at record "
                                          f"{case.ruling}: nothing is to change for it")
    if case.remedy == "none":
        raise IllegalCommand("DESK-10.2", f"dispute {dispute} was upheld with no change at "
                                          f"record {case.ruling}: its ruling changes nothing")


def replace_seat(desk: Desk, command: ReplaceSeat, log: Log) -> SeatReplaced:
    """The record of a seat handed to a bot (DESK-7): refused (IllegalCommand) once the game
    is over or when the seat is a bot's already; UsageError for an unknown seat or bot name,
    or an empty reason."""
    reason = clean_text(command.reason, "the reason of a seat's replacement")
    seat = seat_named(command.seat, log.names)
    assert seat is not None  # a name, checked above
    if log.over:
        raise IllegalCommand("DESK-7", "the game is over: no seat is left to play")
    if seat in desk.replaced:
        raise IllegalCommand("DESK-7", f"{log.names[seat]}'s seat is played by the bot "
                                       f"{desk.replaced[seat][0]!r} already (since record "
                                       f"{desk.replaced[seat][2]})")
    if not isinstance(command.bot, str) or not command.bot:
        raise UsageError("name the bot that takes the seat (--bot KIND)")
    if log.bots and command.bot not in log.bots:
        raise UsageError(f"DESK-7: no bot {command.bot!r} for this game (bots: "
                         f"{', '.join(log.bots)})")
    return SeatReplaced(seat, command.bot, reason)


def return_seat(desk: Desk, command: ReturnSeat, log: Log) -> SeatReturned:
    """The record of a seat given back to its player (DESK-11): refused (IllegalCommand) once
    the game is over or when no bot plays the seat; UsageError for an unknown seat or an empty
    reason."""
    reason = clean_text(command.reason, "the reason of a seat's return")
    seat = seat_named(command.seat, log.names)
    assert seat is not None  # a name, checked above
    if log.over or desk.ended is not None:
        raise IllegalCommand("DESK-11", "the game is over: no seat is left to give back")
    if seat not in desk.replaced:
        raise IllegalCommand("DESK-11", f"{log.names[seat]}'s seat is not played by a bot: "
                                        "there is nothing to give back (`devil replace GAME "
                                        "SEAT --bot KIND` hands a seat to one)")
    return SeatReturned(seat, reason)


def check_to(desk: Desk, log: Log, to: int) -> None:
    """Whether the game may return to its state after record ``to`` now (DESK-2, DESK-3);
    raises UnknownRecord or IllegalCommand when not."""
    if not 0 <= to <= log.last:
        raise UnknownRecord("DESK-2", f"there is no record {to} yet: the log ends at record "
                                      f"{log.last}, and a correction returns to a past one")
    if log.over and not log.physical:
        raise IllegalCommand("DESK-3", "a finished digital game cannot be corrected: its seed "
                                       "is revealed, so every further draw could be foreseen")
    if to < log.setup_end:
        raise IllegalCommand("DESK-2", f"records 1 to {log.setup_end} set the game up and cannot "
                                       f"be voided: correct to {log.setup_end} or later")
    if to in desk.voided:
        raise IllegalCommand("DESK-2", f"record {to} was voided by the correction at record "
                                       f"{desk.voided[to]}: correct to a record still in force")
    for void in desk.voids:
        if void.first <= to <= void.last:
            raise IllegalCommand("DESK-2", f"record {to} lies among the records the correction "
                                           f"at record {void.by} voided: correct to "
                                           f"{void.first - 1}, "
                                           f"{void.by} or another record in force")
    left = log.left(to)
    if left:
        raise IllegalCommand("DESK-2", f"record {to} is in the middle of a command (a command is "
                                       f"atomic): correct to record {to + left}, where it ends, or "
                                       "before it began")
    if all(desk.skip(seq) for seq in range(to + 1, log.last + 1)):
        raise IllegalCommand("DESK-2", f"no game record after record {to} is in force: there is "
                                       "nothing to void")


def command_for(events: list, actor: int, names: list):
    """The desk command that produced ``events`` (one command's desk records) and who gave it
    (REFEREE or a seat, from the records' ``actor``, -1 the referee), for the strict refold of
    ``devil verify``; ValueError when no desk command produces these events."""
    first = events[0]
    who = REFEREE if actor == -1 else actor
    if type(first) is Amended:  # DESK-9: the game records after it are its own
        from .amend import command_for as amend_command_for

        return amend_command_for(events), who
    if type(first) is Corrected and len(events) == 1:
        return Correct(first.to, first.reason, dispute=first.dispute), who
    if type(first) is RulingGiven and len(events) <= 2:
        return Ruling(first.dispute, first.upheld, first.reason, first.to,
                      remedy=first.remedy), who
    if type(first) is SeatReplaced and len(events) == 1:
        if not 0 <= first.seat < len(names):
            raise ValueError(f"seat_replaced names seat {first.seat}, "
                             "which the game does not have")
        return ReplaceSeat(names[first.seat], first.bot, first.reason), who
    if type(first) is SeatReturned and len(events) == 1:
        if not 0 <= first.seat < len(names):
            raise ValueError(f"seat_returned names seat {first.seat}, "
                             "which the game does not have")
        return ReturnSeat(names[first.seat], first.reason), who
    if type(first) in takeback.EVENTS:
        asked = takeback.command_for(events, names)
        if asked is not None:
            return asked, who
    if type(first) is Adjudicated and len(events) == 1:
        return AdjudicateGame(first.reason, first.rule), who
    if type(first) is DisputeRaised and len(events) == 1:
        if not 0 <= first.seat < len(names):
            raise ValueError(f"dispute_raised names seat {first.seat}, "
                             "which the game does not have")
        return Dispute(first.about, first.text, names[first.seat]), who
    raise ValueError("these records are not what one desk command writes")
