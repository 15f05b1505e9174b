"""The command path: one retry loop for every command, the game's and the desk's.

Submitting a command (:func:`submit`)::

    read new records -> authorise -> decide -> append(expected version, command id)
        -> advance the folds -> (seat entropy: open the table; game over: reveal the seats)

The append is optimistic: if another process appended first, the store refuses it
(ConcurrencyConflict), and the loop reads the new records and decides again.  A command id
already in the log returns that command's original records and appends nothing (safe
retries): the store's append refuses a used id (DuplicateCommand), and only then, or when the
command is refused (it may be a retry of one the game has moved past), is the original looked
up (``store.command``), so a new command costs the store one read and one append.  A refused
command raises before the append: nothing is recorded.
"""

from __future__ import annotations

from typing import Any

import attrs

from ..entropy import SeatEntropy, Seating
from ..errors import (ConcurrencyConflict, DevilError, LogDamaged, NotAllowed,
                      StoreUnavailable, UsageError)
from ..fold import fold
from ..game import REFEREE
from ..log import REFEREE_ACTOR, Record
from ..store.protocol import DuplicateCommand
from . import seating, steps
from .seating import CONSOLE, LazyChance

#: how often a submit decides again after losing a race to another writer
RETRIES = 20
#: the longest command id (an Idempotency-Key over HTTP, ``--id`` on the command line)
MAX_COMMAND_ID = 64


@attrs.frozen
class Submitted:
    """What a submitted command did: its ``records`` and decoded ``events``; ``repeated`` is True
    when the command id had already been applied (nothing was appended this time)."""

    game: str
    records: list[Record]
    events: list
    repeated: bool = False
    #: the signed receipt of the command's last record (engine.receipts)
    receipt: dict | None = None
    #: the game as the service holds it just after the command (engine.service.cache.Loaded):
    #: the answer is built from it without reading the store again
    loaded: Any = attrs.field(default=None, eq=False, repr=False)


def check_command_id(command_id) -> None:
    """UsageError unless ``command_id`` is None or 1 to 64 printable characters."""
    if command_id is None:
        return
    if (not isinstance(command_id, str) or not 1 <= len(command_id) <= MAX_COMMAND_ID
            or not command_id.isprintable()):
        shown = repr(command_id) if len(str(command_id)) <= 40 else f"{str(command_id)[:40]!r}..."
        raise UsageError(f"a command id is 1 to {MAX_COMMAND_ID} printable characters, not {shown}")


def is_desk_command(command) -> bool:
    """Whether ``command`` (an object or a tagged map) is one of the referee's desk's
    (engine.desk.commands: correct, dispute, ruling, amend, ...) rather than the game's."""
    from ..desk.commands import COMMAND_TYPES

    tag = command.get("type") if isinstance(command, dict) else getattr(type(command), "TYPE", None)
    return isinstance(tag, str) and tag in COMMAND_TYPES and (
        isinstance(command, dict) or type(command).__module__ == "engine.desk.commands")


def actor_code(actor) -> int:
    """The ``actor`` field of a record: a seat index, or -1 for the referee."""
    return REFEREE_ACTOR if actor is REFEREE else actor


def submit(service, game: str, command, actor=CONSOLE, command_id: str | None = None
           ) -> Submitted:
    """Check ``command`` (an object or a tagged map) and record what it causes (see
    :meth:`engine.service.GameService.submit`), in this thread."""
    return steps.run(submit_steps(service, game, command, actor, command_id), service.store)


def submit_steps(service, game: str, command, actor=CONSOLE, command_id: str | None = None
                 ) -> steps.Steps:
    """:func:`submit` as a path of steps (engine.service.steps): it yields its appends and
    other durable writes, and returns the :class:`Submitted`."""
    check_command_id(command_id)
    at_desk = is_desk_command(command)
    cache, store = service.cache, service.store
    with cache.lock(game):
        for attempt in range(RETRIES):
            # the first decision may be made on the game as held, if nobody else appended to
            # it since it was read (steps.Refresh.trust): the append's version check is the
            # proof, and a refusal reads the game again before it is given
            loaded = yield steps.Refresh(cache, game, trust=attempt == 0)
            if attempt == 0 and type(loaded.state) is Seating:
                # never a seat's value on trust: it is kept before its commitment is appended
                loaded = yield steps.Refresh(cache, game)
            command = _decoded(loaded.rules, command, at_desk)
            seated = False
            try:
                decided = _decide(service, loaded, command, actor, at_desk)
            except (StoreUnavailable, LogDamaged):
                raise
            except DevilError:  # refused: unless it is a retry of a command already recorded
                if attempt == 0 and (yield from _moved(cache, game, loaded)):
                    continue  # decided on a game that had moved on: decide again
                done = None if command_id is None else (
                    yield steps.Call(store.command, (game, command_id)))
                if done and command_id is not None:
                    return _repeated(service, loaded, done, command, command_id, actor)
                raise
            if decided[0] == "seating":
                outcome = decided[1]
                if outcome[0] == "open":  # every seat in, the table never opened: open it
                    from .clocks import time_of

                    yield from seating.open_table(service, loaded, time_of(service, loaded))
                    continue  # and decide the command again, now that the game has started
                if outcome[0] == "repeated":
                    done = outcome[1]
                    events = loaded.events[done[0].seq - 1:done[-1].seq]
                    return _answer(service, loaded, done, events, repeated=True)
                _, acting, event, private = outcome
                yield steps.Call(seating.keep_value, (store, *private))  # before its commitment
                events, seated = [event], True
            else:
                _, acting, events = decided
            from .clocks import stamp, time_of

            ts = time_of(service, loaded)  # a game with a clock: the service's time
            if not at_desk and not seated:  # a seat's move: its clock checked too (CLOCK-7)
                try:
                    ts = stamp(service, loaded, acting)
                except DevilError:  # CLOCK-6, CLOCK-7: unless a retry of a recorded command
                    if attempt == 0 and (yield from _moved(cache, game, loaded)):
                        continue
                    done = None if command_id is None else (
                        yield steps.Call(store.command, (game, command_id)))
                    if done and command_id is not None:
                        return _repeated(service, loaded, done, command, command_id, actor)
                    raise
            maps = [loaded.rules.events.to_map(e) for e in events]
            try:
                records = yield steps.Append(game, loaded.head.seq, actor_code(acting),
                                             command_id, maps, ts)
            except DuplicateCommand:  # a retry: the id is in the log the command was decided on
                done = None if command_id is None else (
                    yield steps.Call(store.command, (game, command_id)))
                if not done or command_id is None:  # pragma: no cover - an id it does not hold
                    raise
                return _repeated(service, loaded, done, command, command_id, actor)
            except ConcurrencyConflict:
                continue  # another writer got there first: read what it wrote, decide again
            cache.advance(loaded, records)
            if seated:
                if not loaded.state.waiting:
                    records = records + ((yield from seating.open_table(
                        service, loaded, time_of(service, loaded))) or [])
            elif ((not at_desk or getattr(command, "TYPE", "") == "amend")
                  and loaded.rules.is_over(loaded.state)) \
                    or (getattr(command, "TYPE", "") == "adjudicate"
                        and type(loaded.state) is not Seating):  # ended at time (DESK-8)
                records = records + (yield from seating.reveal_seats(
                    service, loaded, time_of(service, loaded)))
            receipt = yield from service.signing.command(loaded, records, service.seal_steps)
            return Submitted(game, records, loaded.appended(len(records)), receipt=receipt,
                             loaded=loaded)
        raise ConcurrencyConflict(f"{game} is busy: other writers moved it on {RETRIES} times "
                                  "while this command was decided; try again")


def _moved(cache, game: str, loaded) -> steps.Steps:
    """Whether the store has more of ``game`` than ``loaded`` held (read now, steps)."""
    head = loaded.head
    again = yield steps.Refresh(cache, game)
    return again is not loaded or again.head != head


def _decide(service, loaded, command, actor, at_desk: bool) -> tuple:
    """What ``command`` causes: ``("game", acting, events)`` (a game's or the desk's command)
    or ``("seating", outcome)`` (:func:`engine.service.seating.decide_seating`).  Raises
    IllegalCommand, NotAllowed."""
    if at_desk:
        return ("game", *_decide_desk(loaded, command, actor, service.store))
    if type(loaded.state) is Seating or type(command) is SeatEntropy:
        return ("seating", seating.decide_seating(service, loaded, command, actor))
    return ("game", *_decide_game(service.store, loaded, command, actor))


def _decoded(rules, command, at_desk: bool):
    """``command`` as this kind's (or the desk's) command object (CodecError for a bad map)."""
    if at_desk:
        from ..desk.commands import COMMANDS as registry
    else:
        registry = rules.commands
    if registry.by_type.get(getattr(type(command), "TYPE", None)) is not type(command):  # type: ignore[arg-type]  # any TYPE: a miss
        command = registry.from_map(command)  # a map, or anything but this kind's command
    return command


def _decide_game(store, loaded, command, actor) -> tuple[Any, list]:
    """``(acting, events)``: who the game's ``command`` is recorded as given by, and what it
    causes (the kind's ``decide``).  Raises IllegalCommand, NotAllowed."""
    rules, state = loaded.rules, loaded.state
    if loaded.desk is not None and loaded.desk.ended is not None:
        from ..errors import IllegalCommand

        raise IllegalCommand("DESK-8", f"the referee ended this game at time (record "
                                       f"{loaded.desk.ended[0]}: {loaded.desk.ended[1]}): "
                                       "nothing more is played")
    seat = rules.acting_seat(state, command)
    acting = actor
    if actor == CONSOLE:
        acting = REFEREE if seat is None else seat
    elif actor is not REFEREE:
        if seat is None:
            raise NotAllowed("only the referee may give this command")
        if seat != actor:
            names = rules.seats(state)
            raise NotAllowed(f"you sit as {names[actor]} and cannot act as {names[seat]}")
    chance = None if rules.physical(state) else LazyChance(store, loaded)
    if loaded.desk is not None and loaded.desk.epoch:  # never rewinds (DESK-6)
        from ..desk.chance import continued

        chance = continued(chance, loaded.desk.epoch)
    return acting, rules.decide(state, command, chance)


def _decide_desk(loaded, command, actor, store=None) -> tuple[Any, list]:
    """``(acting, events)`` of a desk command (engine.desk.decide: DESK-1 to 10; an
    amendment, DESK-9, is given the whole log and the game's chance)."""
    from ..desk.commands import AmendRecord, Dispute
    from ..desk.decide import Log, decide
    from ..desk.state import Desk
    from ..desk.takeback import History, Takeback, TakebackAnswer

    rules, state = loaded.rules, loaded.state
    names = rules.seats(state)
    records = loaded.records
    from ..desk.amend import left_of

    log = Log(loaded.head.seq, 1 + records[0].left, left_of(records, loaded.events),
              names, bool(rules.is_over(state)), bool(rules.physical(state)),
              _bots(rules) if getattr(command, "TYPE", "") == "replace_seat" else (),
              History(records, loaded.events, rules.barrier)
              if isinstance(command, Takeback) else None)
    history = None
    if isinstance(command, AmendRecord):
        chance = None if rules.physical(state) or store is None else LazyChance(store, loaded)
        history = (rules, records, loaded.events, chance)
    events = decide(loaded.desk or Desk(), command, actor, log, history)
    acting = REFEREE
    if isinstance(command, (Dispute, Takeback, TakebackAnswer)):  # recorded as the seat's
        acting = (actor if actor not in (CONSOLE, REFEREE)
                  else names.index(command.player) if actor == CONSOLE else REFEREE)
    return acting, events


def _bots(rules) -> tuple:
    """The bot names of ``rules``' kind (DESK-7 checks a replacement's bot against them)."""
    from ..bots import bot_names

    try:
        return tuple(bot_names(rules.kind))
    except DevilError:
        return ("-",)  # a kind without bots: no name fits


def _answer(service, loaded, records: list[Record], events: list, repeated: bool) -> Submitted:
    receipt = service.signing.receipt(loaded.game, records[-1], loaded.header) \
        if service.signing.enabled else None
    return Submitted(loaded.game, list(records), list(events), repeated=repeated,
                     receipt=receipt, loaded=loaded)


def _repeated(service, loaded, done: list[Record], command, command_id: str, actor
              ) -> Submitted:
    """The answer to a command id already in the log."""
    if actor != CONSOLE and actor is not REFEREE and done[0].actor != actor_code(actor):
        # another player's id: say nothing about their command (it may be hidden)
        raise NotAllowed(f"command id {command_id!r} belongs to another player's "
                         "command; give a new id")
    first = done[0].seq - 1
    events = loaded.events[first:first + len(done)]
    _check_same_command(loaded, first, events, command, command_id)
    return _answer(service, loaded, done, events, repeated=True)


def _check_same_command(loaded, first: int, events: list, command, command_id: str) -> None:
    """A retried command id must come with the same command (UsageError otherwise)."""
    rules = loaded.rules
    if is_desk_command(command):
        from ..desk.commands import COMMANDS
        from ..desk.decide import command_for as desk_command_for

        try:
            original, _ = desk_command_for(events, loaded.records[first].actor,
                                           rules.seats(loaded.state))
        except ValueError:
            original = None
        if type(original) is type(command) and getattr(command, "TYPE", "") == "amend":
            # an amendment records the whole replacement: the fields given must be in it
            fields = command.fields if isinstance(command.fields, dict) else {}
            same = (original.seq, original.reason, original.dispute) == \
                (command.seq, str(command.reason).strip(), command.dispute) and \
                all(k in original.fields and (original.fields[k] == v
                                              or (k == "coal" and v == "devil"))
                    for k, v in fields.items())
        else:
            same = original is not None and \
                {**COMMANDS.to_map(original), "player": None} == \
                {**COMMANDS.to_map(command), "player": None}
        if not same:
            raise UsageError(f"command id {command_id!r} was already used for a different "
                             "command; give a new id")
        return
    if rules.command_for is None:
        return
    before = fold(rules, loaded.events[:first]).state
    try:
        original, _ = rules.command_for(before, events)
    except Exception:  # pragma: no cover - a hook that cannot rebuild: accept the retry
        return
    if not isinstance(original, dict) and rules.commands.to_map(original) \
            != rules.commands.to_map(command):
        # the original is not shown: it may hold what this caller may not see
        raise UsageError(f"command id {command_id!r} was already used for a different "
                         "command; give a new id")
