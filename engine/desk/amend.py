"""Amending one record (DESK-9, issue 24.1): the referee replaces one recorded fact and every
later command that still fits is re-applied.

``devil amend GAME SEQ --coal 50 --reason TEXT`` is one desk command (:class:`AmendRecord`).  Its
records, all in one command of the log::

    amended {about, to, command, reason, epoch, reapplied, voided, why, dispute}
    <the replacement's events>            (the amended command given again, fields changed)
    <each later command re-applied>       (its events as the rules give them now)

The ``amended`` record voids, like a correction to ``to`` (the record before the amended
command), every game record in force after ``to``; nothing is erased.  The records after it
are new game records: the replacement's, then each later command's that is still legal, in
the original order, re-decided from the game as it now stands.  A later command the rules now
refuse is left voided, listed in ``voided`` with its seat and in ``why`` with the refusal.

Chance is never drawn anew inside an amendment: a re-applied command that drew by chance (a
digital coal) draws what its original drew (the recorded answers, each checked still possible,
:class:`Replayed`); a command that would need a draw its original never made no longer fits
(DESK-9.4).  After the amendment the game's chance goes on with the next epoch (DESK-6), as
after a correction.  Which fields of which commands may change is the kind's (the ``amend`` hook
of engine.game.GameRules); this module names no kind.

:func:`units` reads a log's game commands (an amendment's records hold several), for the
service, ``devil verify`` and the listings alike.
"""

from __future__ import annotations

from typing import Any, Iterator

import attrs

from ..errors import DevilError, IllegalCommand, UsageError
from .commands import AmendRecord
from .events import DESK_CLASSES, Amended

#: the shared seating stage's event tags (engine.entropy), which are no game command
_SEATING = frozenset({"table_opened", "seat_committed", "seats_revealed"})


class NoLongerFits(Exception):
    """A re-applied command that needs a draw its original never made (DESK-9.4)."""


@attrs.frozen
class Unit:
    """One command's records in a log: records ``first`` to ``last`` (sequence numbers,
    inclusive); ``what``: ``"setup"``, ``"game"``, ``"desk"`` or ``"seating"``."""

    first: int
    last: int
    what: str


def units(records, events) -> Iterator[Unit]:
    """Every command of a log (``records`` and their decoded ``events``, from record 1), in
    order: a batch of records ending with ``left == 0`` is one command, except an amendment's,
    which is its ``amended`` record (a desk unit), the replacement and each re-applied command
    (game units, split where ``reapplied`` says)."""
    start, setup_seen = 0, False
    for index, record in enumerate(records):
        if record.left:
            continue
        first, last = records[start].seq, record.seq
        head = events[start]
        start = index + 1
        if getattr(type(head), "TYPE", None) in _SEATING:
            yield Unit(first, last, "seating")
        elif type(head) is Amended:
            yield Unit(first, first, "desk")
            cuts = [first + 1, *(at for _of, at in head.reapplied), last + 1]
            for a, b in zip(cuts, cuts[1:]):
                if a < b:
                    yield Unit(a, b - 1, "game")
        elif type(head) in DESK_CLASSES:
            yield Unit(first, last, "desk")
        elif not setup_seen:
            setup_seen = True
            yield Unit(first, last, "setup")
        else:
            yield Unit(first, last, "game")


class Replayed:
    """Chance for a command re-applied by an amendment: the answers its original drew, in
    order, each checked still possible (engine.replay.ScriptedChance), and ``reveal`` /
    ``commitment`` from the game's own chance (a digital game's end reveals its seed).  A
    draw beyond the recorded answers raises :class:`NoLongerFits`."""

    def __init__(self, answers: list, chance):
        from ..replay.scripted import ScriptedChance

        self._script = ScriptedChance(answers, None)
        self._chance = chance

    @property
    def commitment(self):
        return getattr(self._chance, "commitment", None)

    def _ask(self, method: str, *args):
        if not self._script.answers:
            raise NoLongerFits("DESK-9.4: it would draw by chance where its original drew "
                               "nothing, and an amendment never draws anew")
        return getattr(self._script, method)(*args)

    def randbelow(self, n: int, *label: Any) -> int:
        return self._ask("randbelow", n, *label)

    def pick(self, counts, *label: Any) -> int:
        return self._ask("pick", counts, *label)

    def shuffled(self, items, *label: Any) -> list:
        return self._ask("shuffled", items, *label)

    def reveal(self) -> dict:
        if self._chance is None:  # pragma: no cover - a physical game reveals nothing
            raise NoLongerFits("a physical game reveals no seed")
        return self._chance.reveal()


class _Original:
    """The referee's fold of the log as recorded, advanced to where each command began."""

    def __init__(self, rules, events):
        from ..fold import Fold

        self.fold, self.events = Fold(rules), events

    def state_at(self, seq: int):
        """The state after record ``seq`` (not before the fold's own position)."""
        fold, events = self.fold, self.events
        done = fold.seq
        fold.advance(list(events[done:seq]), lambda done=done: events[:done])
        return fold.state


def _seat(rules, state, command) -> int:
    """The seat a command was given for (its acting seat, else its ``player``), -1: none."""
    try:
        seat = rules.acting_seat(state, command)
    except DevilError:  # pragma: no cover - it was given once
        seat = None
    if seat is None:
        names = rules.seats(state)
        player = getattr(command, "player", None)
        seat = names.index(player) if player in names else -1
    return seat


def _decide(rules, state, command, answers: list, chance, physical: bool) -> list:
    """``command`` decided on ``state`` with the original's chance ``answers``."""
    return rules.decide(state, command, None if physical else Replayed(answers, chance))


def decide_amend(desk, command: AmendRecord, reason: str, log, rules, records, events,
                 chance) -> list:
    """The records of amendment ``command`` (DESK-9) on a log: ``log`` is the desk's
    :class:`engine.desk.decide.Log`; ``rules`` the kind's GameRules; ``records``/``events``
    the whole log (records 1 to ``log.last``) and ``chance`` the game's chance (None in a
    physical game); ``reason``: the amendment's, checked; ``command.seq`` a record of the log
    (engine.desk.decide checks both).  Returns ``[Amended, replacement events..., re-applied
    events...]``.

    Raises UsageError (exit 2) for fields that are not a map; IllegalCommand for what DESK-9
    refuses (a desk or setup record, a voided one, a finished digital game, fields the kind
    does not amend, a replacement the rules refuse)."""
    if not isinstance(command.fields, dict) or not command.fields:
        raise UsageError("DESK-9: name what the record should have said (e.g. --coal 50, "
                         "--amount 40, --set FIELD=VALUE)")
    seq = command.seq
    if log.over and not log.physical:
        raise IllegalCommand("DESK-9.1", "a finished digital game is not amended: its seed is "
                                         "revealed (DESK-3)")
    found = [u for u in units(records, events) if u.first <= seq <= u.last]
    unit = found[0]
    if unit.what != "game":
        what = {"setup": "sets the game up", "desk": "is the referee's desk's own",
                "seating": "belongs to the seating stage"}[unit.what]
        raise IllegalCommand("DESK-9.1", f"record {seq} {what}: only a game command's record "
                                         "can be amended")
    if seq in desk.voided:
        raise IllegalCommand("DESK-9.1", f"record {seq} was voided by record "
                                         f"{desk.voided[seq]}: amend a record still in force")
    if rules.amend is None:
        raise IllegalCommand("DESK-9.2", f"{rules.title} names no record that can be amended")
    physical = bool(log.physical)
    from ..fold import Fold, copy_state
    from ..replay.scripted import ChanceMismatch

    recorded = _Original(rules, events)
    before = copy_state(recorded.state_at(unit.first - 1))
    original, answers = rules.command_for(before, list(events[unit.first - 1:unit.last]))
    if answers and not physical:
        raise IllegalCommand("DESK-9.2", f"record {seq} drew by chance in a digital game: "
                                         "chance never rewinds (DESK-6), so it is not amended")
    replacement = rules.amend(before, original, dict(command.fields))
    to_map = rules.commands.to_map
    if to_map(replacement) == to_map(original):
        raise IllegalCommand("DESK-9.2", f"record {seq} already says that: nothing to amend")
    now = Fold(rules, state=copy_state(before), seq=unit.first - 1)
    try:
        made = _decide(rules, now.state, replacement, answers, chance, physical)
    except NoLongerFits as exc:
        raise IllegalCommand("DESK-9.4", str(exc).removeprefix("DESK-9.4: ")) from None
    except ChanceMismatch as exc:
        raise IllegalCommand("DESK-9.4", f"the amended command's draw is not possible ({exc})"
                             ) from None
    except IllegalCommand as exc:
        raise IllegalCommand("DESK-9.3", f"the amended command is not legal where record "
                                         f"{unit.first} stands: {exc.message}") from None
    now.advance(made)
    out: list = list(made)
    at = log.last + 2 + len(made)  # the amended record is log.last + 1
    reapplied: list = []
    voided: list = []
    why: list = []
    later = [u for u in units(records, events)
             if u.what == "game" and u.first > unit.last and not desk.skip(u.first)]
    for later_unit in later:
        piece = list(events[later_unit.first - 1:later_unit.last])
        then = recorded.state_at(later_unit.first - 1)
        again, answers = rules.command_for(then, piece)
        seat = _seat(rules, then, again)
        try:
            if rules.is_over(now.state):
                raise IllegalCommand("DESK-9.3", "the game is over before it")
            made = _decide(rules, now.state, again, answers, chance, physical)
        except (DevilError, NoLongerFits) as exc:
            voided.append([later_unit.first, seat])
            why.append(getattr(exc, "message", None) or str(exc))
            continue
        except ChanceMismatch as exc:
            voided.append([later_unit.first, seat])
            why.append(f"DESK-9.4: its draw is no longer possible ({exc})")
            continue
        now.advance(made)
        reapplied.append([later_unit.first, at])
        at += len(made)
        out.extend(made)
    head = Amended(seq, unit.first - 1, to_map(replacement), reason, desk.epoch + 1,
                   reapplied, voided, why, _seat(rules, before, original), command.dispute)
    return [head, *out]


def command_for(events: list) -> AmendRecord:
    """The :class:`AmendRecord` that recorded ``events`` (an amendment's records), for the strict
    refold: the replacement's whole map stands for the fields (unchanged fields change
    nothing)."""
    head = events[0]
    fields = {k: v for k, v in head.command.items() if k != "type"}
    return AmendRecord(head.about, fields, head.reason, head.dispute)


def receipt_note(records, seq: int) -> str | None:
    """What ``devil verify --receipt`` adds of the receipt's record ``seq`` when an amendment
    later voided its command (``records``: the log's records, events as tagged maps): it was
    re-applied as a new record (DESK-9), or no longer fit; None when no amendment touched
    it."""
    first = seq
    while first > 1 and records[first - 2].left:
        first -= 1
    for record in records[seq:]:
        event = record.event
        if event.get("type") != "amended" or not event.get("to", seq) < first:
            continue
        for of, at in event.get("reapplied") or []:
            if of == first:
                return (f"record {seq} was voided by the amendment at #{record.seq} and its "
                        f"command re-applied as #{at} (DESK-9): the receipt stands for the "
                        "command, now recorded there")
        for of, _seat in event.get("voided") or []:
            if of == first:
                return (f"record {seq} was voided by the amendment at #{record.seq}: its "
                        "command no longer fits the amended game (DESK-9)")
    return None


def shown_to(event: Amended, viewer) -> Amended:
    """An ``amended`` record as ``viewer`` (a seat index, or -1 the public) sees it (DESK-9.5):
    what it amended, why, and which commands it re-applied or voided; of the replacement
    only its type and player unless it is the viewer's own command (a bet's amount or a
    face-down card stay hidden, as the kind's own records keep them), and of each refusal
    only its rule id unless it refused the viewer's own command.  The voids and re-applied
    records are the same for every viewer, so every fold builds the same voids."""
    seated = viewer is not None and viewer >= 0
    why = [text if seated and seat == viewer else text.split(":", 1)[0]
           for (_of, seat), text in zip(event.voided, event.why)]
    command = event.command if seated and event.seat == viewer else {
        k: v for k, v in event.command.items() if k in ("type", "player")}
    return attrs.evolve(event, command=command, why=why)  # type: ignore[misc]  # a tagged class is an attrs class


def left_of(records, events):
    """``left(seq)``: how many records of its command follow record ``seq`` (DESK-2: a
    correction returns to the end of a command), counting each command an amendment
    re-applied as one of its own (:func:`units`)."""
    if not any(type(event) is Amended for event in events):
        return lambda seq: records[seq - 1].left
    ends = {}
    for unit in units(records, events):
        for seq in range(unit.first, unit.last + 1):
            ends[seq] = unit.last - seq
    return lambda seq: ends.get(seq, records[seq - 1].left)
