"""Takebacks (DESK-12): a seat asks to take back its last command; the records stay, voided.

Board Game Arena's policy: a takeback is never allowed across a reveal, a draw or another
seat's move.  So a seat may ask (``takeback``) only for its own last command in force, when no
game record of anyone else follows it and nothing in it drew, revealed or dealt (the kind says
which events do: the ``takeback_barrier`` hook of :class:`engine.game.GameRules`).  Every other
seat a person plays then consents or refuses (``takeback_answer``), or the referee decides
(``takeback_decision``).  Granted, a ``takeback_granted`` record voids the command's records:
they stay in the log, struck through, and every fold leaves them out (like a correction's,
:mod:`engine.desk.state`).  A request lapses when any game record follows it (the game goes
on: nobody waits for an answer).

Events (public, desk records of every kind)::

    takeback_asked    {number, seat, first, last}      # seat asks; first..last: its command
    takeback_answered {number, seat, consent}          # another seat consents or refuses
    takeback_ruled    {number, allowed, reason}        # the referee decides
    takeback_granted  {number, first, last, reason}    # the records first..last are voided

Commands (tagged maps, like every desk command)::

    {"type": "takeback", "player": NAME}
    {"type": "takeback_answer", "consent": BOOL, "player": NAME}
    {"type": "takeback_decision", "allowed": BOOL, "reason": TEXT}

Rule ids (docs/house-rules.md): DESK-12.1 what may be asked, DESK-12.2 not across another
seat's command, DESK-12.3 not across a draw, a reveal or a deal, DESK-12.4 the other seats'
consent (and the lapse), DESK-12.5 the referee's decision, DESK-12.6 a granted takeback voids,
erases nothing, and never rewinds chance.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Sequence

import attrs

from ..codec import tagged
from ..errors import IllegalCommand, NotAllowed, UsageError

#: the referee as the desk's decider is told who acts (engine.game.REFEREE)
REFEREE = None


# -- events -----------------------------------------------------------------------------------
@tagged
class TakebackAsked:
    """Seat ``seat`` asks to take back its command recorded as records ``first`` to ``last``
    (DESK-12.1); ``number`` numbers the game's requests from 1."""

    TYPE: ClassVar[str] = "takeback_asked"
    number: int
    seat: int
    first: int
    last: int


@tagged
class TakebackAnswered:
    """Seat ``seat`` consents to (``consent``) or refuses takeback ``number`` (DESK-12.4)."""

    TYPE: ClassVar[str] = "takeback_answered"
    number: int
    seat: int
    consent: bool


@tagged
class TakebackRuled:
    """The referee allows or denies takeback ``number`` with a ``reason`` (DESK-12.5)."""

    TYPE: ClassVar[str] = "takeback_ruled"
    number: int
    allowed: bool
    reason: str


@tagged
class TakebackGranted:
    """Takeback ``number`` is granted: records ``first`` to ``last`` (one command) are voided
    (DESK-12.6); ``reason`` is shown with them.  Recorded in the same command as the last
    consent or the referee's allowing ruling."""

    TYPE: ClassVar[str] = "takeback_granted"
    number: int
    first: int
    last: int
    reason: str


EVENTS = (TakebackAsked, TakebackAnswered, TakebackRuled, TakebackGranted)


# -- commands ---------------------------------------------------------------------------------
@tagged
class Takeback:
    """``player`` asks to take back its last command (DESK-12.1 to 12.3)."""

    TYPE: ClassVar[str] = "takeback"
    player: str | None = None


@tagged
class TakebackAnswer:
    """``player`` consents to (``consent`` True) or refuses the open takeback (DESK-12.4)."""

    TYPE: ClassVar[str] = "takeback_answer"
    consent: bool
    player: str | None = None


@tagged
class TakebackDecision:
    """The referee allows (``allowed``) or denies the open takeback, for ``reason``
    (DESK-12.5); ``player``: a seat that tried to give it (refused, DESK-1)."""

    TYPE: ClassVar[str] = "takeback_decision"
    allowed: bool
    reason: str
    player: str | None = None


COMMANDS = (Takeback, TakebackAnswer, TakebackDecision)


# -- the desk's record of requests ----------------------------------------------------------
@attrs.define
class Request:
    """Takeback ``number``: asked at record ``asked`` by ``seat`` for records ``first`` to
    ``last``; ``answers``: seat -> consent; ``outcome``: None while open, else ``"granted"``,
    ``"refused"`` (a seat refused) or ``"denied"`` (the referee); ``at``: the record that
    closed it; ``reason``: the referee's."""

    number: int
    asked: int
    seat: int
    first: int
    last: int
    answers: dict = attrs.field(factory=dict)
    outcome: str | None = None
    at: int | None = None
    reason: str | None = None

    def to_json(self, names: list[str] | None = None, lapsed: bool = False) -> dict:
        """``{"takeback", "asked", "seat", "player", "from", "to", "consents": [names],
        "refused": [names], "state": "open"|"lapsed"|"granted"|"refused"|"denied", "at",
        "reason"}``."""
        def name(seat):
            return names[seat] if names and 0 <= seat < len(names) else f"seat {seat}"

        state = self.outcome or ("lapsed" if lapsed else "open")
        return {"takeback": self.number, "asked": self.asked, "seat": self.seat,
                "player": name(self.seat), "from": self.first, "to": self.last,
                "consents": [name(s) for s, yes in sorted(self.answers.items()) if yes],
                "refused": [name(s) for s, yes in sorted(self.answers.items()) if not yes],
                "state": state, "at": self.at, "reason": self.reason}


def apply(desk, seq: int, event) -> "tuple[int, int, str] | None":
    """Take takeback record ``seq`` into ``desk`` (:class:`engine.desk.state.Desk`); for a
    ``takeback_granted`` the span ``(first, last, reason)`` its records are voided by (the desk
    voids them: every fold starts again without them), else None.  ValueError for a span
    that is not before it (a damaged log)."""
    kind = type(event)
    if kind is TakebackAsked:
        desk.takebacks[event.number] = Request(event.number, seq, event.seat, event.first,
                                               event.last)
        return None
    request = desk.takebacks.get(event.number)
    if kind is TakebackAnswered:
        if request is not None:
            request.answers[event.seat] = event.consent
            if not event.consent:
                request.outcome, request.at = "refused", seq
        return None
    if kind is TakebackRuled:
        if request is not None:
            request.outcome = "granted" if event.allowed else "denied"
            request.at, request.reason = seq, event.reason
        return None
    # TakebackGranted: the command's records voided (a damaged log may not void itself)
    if not 1 <= event.first <= event.last < seq:
        raise ValueError(f"a takeback at record {seq} cannot void records {event.first} to "
                         f"{event.last}")
    if request is not None:
        request.outcome, request.at = "granted", seq
    return event.first, event.last, event.reason


def lapsed(desk, request: Request, last: int) -> bool:
    """Whether open ``request`` has lapsed: a game record in force follows it (DESK-12.4);
    ``last``: the log's last sequence number."""
    skip = desk.skip
    return any(not skip(s) for s in range(request.asked + 1, last + 1))


def open_request(desk, last: int) -> "Request | None":
    """The takeback still waiting for answers (not closed, not lapsed), or None."""
    for request in reversed(list(desk.takebacks.values())):
        if request.outcome is None and not lapsed(desk, request, last):
            return request
    return None


# -- deciding ---------------------------------------------------------------------------------
@attrs.frozen
class History:
    """What a takeback is decided from: the log's records (``records``: each with ``seq``,
    ``actor``: a seat or -1 the referee, ``left``) and their decoded ``events``, records 1 to
    ``last``; ``barrier(event)``: ``"draw"``, ``"reveal"``, ``"deal"`` or None (the kind's
    hook, :meth:`engine.game.GameRules.barrier`); ``replaced``: the seats a bot plays."""

    records: Sequence[Any]
    events: Sequence[Any]
    barrier: Callable[[Any], "str | None"]


def last_command(desk, history: History, last: int) -> "tuple[int, int, int] | None":
    """``(first, end, actor)`` of the last game command in force up to record ``last`` (its
    records ``first`` to ``end``), or None when there is none."""
    records = history.records
    end = last
    while end >= 1 and desk.skip(end):
        end -= 1
    if end < 1:
        return None
    first = end
    while first > 1 and records[first - 2].left != 0:
        first -= 1
    return first, end, records[end - 1].actor


def ask(desk, seat: int, log, history: History) -> TakebackAsked:
    """The record of ``seat`` asking to take back its last command (DESK-12.1 to 12.3), or
    IllegalCommand naming the rule that refuses it."""
    names = log.names
    who = names[seat]
    if log.over or desk.ended is not None:
        raise IllegalCommand("DESK-12.1", "the game is over: nothing can be taken back")
    if seat in desk.replaced:
        raise IllegalCommand("DESK-12.1", f"{who}'s seat is played by the bot "
                                          f"{desk.replaced[seat][0]!r}: a bot takes nothing back")
    pending = open_request(desk, log.last)
    if pending is not None:
        raise IllegalCommand("DESK-12.1", f"takeback {pending.number} ({names[pending.seat]}'s, "
                                          f"record {pending.asked}) is still waiting for its "
                                          "answers: one request at a time")
    found = last_command(desk, history, log.last)
    if found is None or found[1] <= log.setup_end:
        raise IllegalCommand("DESK-12.1", f"{who} has no command to take back (the game's "
                                          "setup cannot be)")
    first, end, actor = found
    if actor != seat:
        mine = _own_before(desk, history, first, seat)
        at = end
        if mine is not None:  # the first command in force after the seat's own
            at = next(s for s in range(mine + 1, end + 1) if not desk.skip(s))
            actor = history.records[at - 1].actor
        other = "the referee" if actor == -1 else names[actor] if 0 <= actor < len(names) \
            else f"seat {actor}"
        if mine is None:
            raise IllegalCommand("DESK-12.1", f"{who} has no command to take back (the last "
                                              f"command, record {at}, is {other}'s)")
        raise IllegalCommand("DESK-12.2", f"{who}'s last command (record {mine}) was followed "
                                          f"by {other}'s command at record {at}: a takeback "
                                          "never crosses another seat's command")
    for s in range(first, end + 1):
        kind = history.barrier(history.events[s - 1])
        if kind is not None:
            noun = {"draw": "a draw", "reveal": "a reveal", "deal": "a deal"}.get(kind, kind)
            raise IllegalCommand("DESK-12.3", f"{who}'s last command (records {first} to {end}) "
                                              f"made {noun} at record {s} "
                                              f"({type(history.events[s - 1]).TYPE}): a "
                                              "takeback never crosses a draw, a reveal or a "
                                              "deal")
    return TakebackAsked(len(desk.takebacks) + 1, seat, first, end)


def _own_before(desk, history: History, before: int, seat: int) -> int | None:
    """The last record of ``seat``'s latest game command in force before record ``before``."""
    for s in range(before - 1, 0, -1):
        if not desk.skip(s) and history.records[s - 1].left == 0 \
                and history.records[s - 1].actor == seat:
            return s
    return None


def consenters(desk, request: Request, names: list) -> list[int]:
    """The seats whose consent a request needs: every seat but the asker's that no bot plays
    (DESK-12.4)."""
    return [s for s in range(len(names)) if s != request.seat and s not in desk.replaced]


def _waiting(desk, log) -> Request:
    request = open_request(desk, log.last)
    if request is None:
        ever = list(desk.takebacks.values())
        if ever and ever[-1].outcome is None:
            raise IllegalCommand("DESK-12.4", f"takeback {ever[-1].number} lapsed: the game went "
                                              f"on after it was asked (record {ever[-1].asked})")
        raise IllegalCommand("DESK-12.4", "no takeback is waiting for an answer "
                                          "(`devil takeback GAME --as NAME` asks for one)")
    return request


def granted(request: Request, reason: str) -> TakebackGranted:
    """The record voiding ``request``'s command (DESK-12.6)."""
    return TakebackGranted(request.number, request.first, request.last, reason)


def answer(desk, seat: int, consent: bool, log) -> list:
    """``seat``'s answer to the open takeback (DESK-12.4): ``[takeback_answered]``, with
    ``takeback_granted`` when it is the last consent needed; IllegalCommand otherwise."""
    if not isinstance(consent, bool):
        raise UsageError("consent is true or false")
    request = _waiting(desk, log)
    names = log.names
    if seat == request.seat:
        raise IllegalCommand("DESK-12.4", f"takeback {request.number} is {names[seat]}'s own: "
                                          "the other seats answer it")
    if seat in desk.replaced:
        raise IllegalCommand("DESK-12.4", f"{names[seat]}'s seat is played by a bot, which "
                                          "answers no takeback: the referee decides")
    if seat in request.answers:
        raise IllegalCommand("DESK-12.4", f"{names[seat]} has answered takeback "
                                          f"{request.number} already")
    events: list = [TakebackAnswered(request.number, seat, consent)]
    if consent and all(s == seat or request.answers.get(s) for s in
                       consenters(desk, request, names)):
        events.append(granted(request, f"taken back by {names[request.seat]} with every "
                                       "seat's consent (DESK-12.4)"))
    return events


def rule(desk, allowed: bool, reason: str, log) -> list:
    """The referee's decision on the open takeback (DESK-12.5): ``[takeback_ruled]``, with
    ``takeback_granted`` when allowed."""
    if not isinstance(allowed, bool):
        raise UsageError("allowed is true or false")
    request = _waiting(desk, log)
    events: list = [TakebackRuled(request.number, allowed, reason)]
    if allowed:
        events.append(granted(request, f"taken back by {log.names[request.seat]}, allowed by "
                                       f"the referee: {reason}"))
    return events


def decide(desk, command, actor, log, history: "History | None", clean_text) -> tuple[list, Any]:
    """``(events, seat recorded as acting)`` of a takeback command given by ``actor``
    (REFEREE, a seat, or ``"console"``: the local CLI, as the seat ``command.player``
    names); NotAllowed for a seat acting for another or a seat deciding (DESK-1)."""
    from ..seats import seat_named

    named = None if command.player is None else seat_named(log.names, command.player,
                                                             fold_case=False)
    if isinstance(command, TakebackDecision):
        if actor is not REFEREE and (actor != "console" or named is not None):
            seat = named if actor == "console" else actor
            raise NotAllowed(f"DESK-1: only the referee decides a takeback; "
                             f"{log.names[seat]} answers it (`devil takeback GAME --consent` "
                             "or --refuse)")
        reason = clean_text(command.reason, "the reason of a takeback decision")
        return rule(desk, command.allowed, reason, log), REFEREE
    seat = named
    if actor not in ("console", REFEREE):
        if named is not None and named != actor:
            raise NotAllowed(f"you sit as {log.names[actor]} and cannot answer or ask as "
                             f"{log.names[named]}")
        seat = actor
    if seat is None:
        raise UsageError("DESK-12: a takeback is a seat's: name the player (--as NAME)")
    if isinstance(command, Takeback):
        if history is None:  # pragma: no cover - every caller gives the log's records
            raise UsageError("a takeback is decided from the log's records")
        return [ask(desk, seat, log, history)], seat
    return answer(desk, seat, command.consent, log), seat


def command_for(events: list, names: list):
    """The takeback command that wrote ``events`` (one command's records), or None when they
    are not a takeback's; ValueError for records no takeback command writes."""
    first = events[0]
    kind = type(first)
    if kind is TakebackAsked and len(events) == 1:
        return Takeback(_name(names, first.seat))
    if kind is TakebackAnswered and len(events) <= 2:
        return TakebackAnswer(first.consent, _name(names, first.seat))
    if kind is TakebackRuled and len(events) <= 2:
        return TakebackDecision(first.allowed, first.reason)
    if kind in EVENTS:
        raise ValueError("these records are not what one takeback command writes")
    return None


def _name(names: list, seat: int) -> str:
    if not 0 <= seat < len(names):
        raise ValueError(f"a takeback names seat {seat}, which the game does not have")
    return names[seat]
