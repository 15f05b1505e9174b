"""GameService: create games, submit commands, read events and views.

The one object the CLI uses in-process and the HTTP app (engine.http) wraps.  It knows no
game's rules (it asks :func:`engine.game.rules_for`) and no storage (it talks to an
:class:`engine.store.EventStore`).

**State is kept, not recomputed.**  For every game it has read, the service keeps the referee's
fold and each seat's fold of its own redacted stream, and advances them with the records
appended since its cached head (read with ``store.read(game, after=head)``; the store checks
that they continue the chain from the cached link).  A seat's state is still, by definition,
``fold(redact(e, seat) for e in events)``: only the work is shared.  A cold load starts from the
game's **snapshot** (every fold, the log position and the link there) when the log still has
that link at that position; otherwise the snapshot is ignored, the log folded from the start,
and the snapshot written again.

Submitting a command (:meth:`GameService.submit`)::

    read new records -> authorise -> decide -> append(expected version) -> advance the folds

The append is optimistic: if another process appended first, the store refuses it
(ConcurrencyConflict), and the service reads the new records and decides again.  A command id
already in the log returns that command's original events and appends nothing (safe retries).
A refused command raises and appends nothing.
"""

from __future__ import annotations

import json
import threading
from typing import Any, Callable

import attrs

from . import entropy
from .chance import SeededChance, commitment as commitment_of
from .desk.events import DESK_CLASSES
from .entropy import SeatEntropy, Seating
from .errors import (CodecError, ConcurrencyConflict, DevilError, IllegalCommand, LogDamaged,
                     NotAllowed, UsageError)
from .game import PUBLIC, REFEREE, GameRules, rules_for
from .log import REFEREE_ACTOR, Header, Record
from .store.file import new_game_id
from .store.protocol import EventStore, Head

#: ``actor`` for a trusted console (the local CLI): the command acts for the seat it names,
#: or as the referee where only the referee may give it.
CONSOLE = "console"
#: a snapshot is written once this many events were folded since the last one
SNAPSHOT_EVERY = 500
#: the snapshot format this version writes and reads
SNAPSHOT_FORMAT = 1
#: how often a submit decides again after losing a race to another writer
RETRIES = 20


@attrs.define(eq=False)
class Loaded:
    """One game as the service holds it (the referee's full view).

    ``state``: the referee's fold at ``head``; ``base``: the sequence number before the first
    record held in memory (0 unless the game was loaded from a snapshot); ``folds``: each
    viewer's ``[seq, state]`` (a seat, or PUBLIC), the fold of that viewer's redacted stream up
    to ``seq``.  ``records`` and ``events`` (the decoded events) are the whole log: reading them
    on a game loaded from a snapshot reads and decodes the part before it once.
    """

    game: str
    header: Header
    rules: GameRules
    state: Any
    head: Head
    base: int
    held_records: list[Record]
    held_events: list
    folds: dict = attrs.field(factory=dict)
    snapshot_seq: int = 0
    chance: Any = None
    fill: Callable[["Loaded"], None] | None = None
    #: the referee's desk (engine.desk): None until the log holds a desk record
    desk: Any = None

    @property
    def version(self) -> int:
        """The sequence number of the last record (the game's version)."""
        return self.head.seq

    @property
    def records(self) -> list[Record]:
        if self.base and self.fill is not None:
            self.fill(self)
        return self.held_records

    @property
    def events(self) -> list:
        if self.base and self.fill is not None:
            self.fill(self)
        return self.held_events


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


#: the longest command id (an Idempotency-Key over HTTP, ``--id`` on the command line)
MAX_COMMAND_ID = 64


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
    (engine.desk.commands: correct, dispute, ruling) rather than the game's."""
    from .desk.commands import COMMAND_TYPES

    tag = command.get("type") if isinstance(command, dict) else getattr(type(command), "TYPE", None)
    return isinstance(tag, str) and tag in COMMAND_TYPES and (
        isinstance(command, dict) or type(command).__module__ == "engine.desk.commands")


def actor_code(actor) -> int:
    """The ``actor`` field of a record: a seat index, or -1 for the referee."""
    return REFEREE_ACTOR if actor is REFEREE else actor


class GameService:
    """Games in a store (any :class:`engine.store.EventStore`)."""

    def __init__(self, store: EventStore, *, sign: bool = True):
        self.store = store
        #: whether answers carry signed receipts and finished games are sealed (a simulation
        #: in memory signs nothing; engine.simulate seals the finished log in the real store)
        self.sign = sign
        self._games: dict[str, Loaded] = {}
        self._locks: dict[str, threading.RLock] = {}
        self._locks_lock = threading.Lock()

    def _lock(self, game: str) -> threading.RLock:
        """The lock of one game: its folds are advanced in place, one thread at a time."""
        with self._locks_lock:
            lock = self._locks.get(game)
            if lock is None:
                lock = self._locks[game] = threading.RLock()
            return lock

    # -- creating ---------------------------------------------------------------------------
    def create(self, kind: str, options: dict, *, seed: int | None = None,
               private: Callable[[str, list[str]], dict[str, dict]] | None = None,
               seat_entropy: bool = False) -> Loaded:
        """A new game of ``kind`` with ``options`` (see the kind's ``options`` module).

        ``seed`` fixes a digital game's chance (for reproducible games and tests); ``None``
        draws a secret one.  ``private(game_id, seat_names)`` gives documents the store keeps
        with the game from its first moment (the HTTP service's token hashes): the game exists
        with all of them or not at all.  ``seat_entropy``: a digital game that starts only once
        every seat has given its random value (engine.entropy: its first event is
        ``table_opened``, the kind's setup runs when the last seat is in).  Raises UsageError
        for bad options.
        """
        rules = rules_for(kind)
        if not isinstance(options, dict):
            raise UsageError(f"the options of a new game are a map, not {type(options).__name__}")
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**64):
            raise UsageError(f"a seed is a whole number from 0 to 2**64 - 1, not {seed!r}"[:200])
        physical = options.get("physical", False)
        if not isinstance(physical, bool):
            raise UsageError(f"physical must be true or false, not {physical!r}")
        if physical and seed is not None:
            raise UsageError("a physical game has no seed: the referee reports every draw")
        options = dict(options)
        options.pop("seed_chosen", None)  # the service says whether the seed was chosen
        if not physical:
            options["seed_chosen"] = seed is not None
        try:
            chance = None if physical else SeededChance.fresh(seed)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        if seat_entropy and physical:
            raise UsageError("a physical game draws nothing by chance: seat entropy is for "
                             "digital games")
        events = rules.setup(dict(options), chance)
        if seat_entropy:  # the options checked by a setup whose draws are thrown away
            from .entropy import TableOpened, options_text

            names = rules.seats(rules.fold(events))
            events = [TableOpened(names, chance.commitment, options_text(options))]
        maps = [rules.events.to_map(e) for e in events]
        game = new_game_id(kind)
        while self.store.exists(game):  # pragma: no cover - 32**6 ids
            game = new_game_id(kind)
        secret = chance.reveal() if chance is not None else None
        documents = None
        if private is not None:
            documents = private(game, rules.seats(rules.fold(events)))
        self.store.create(kind, game, REFEREE_ACTOR, maps, secret, private=documents)
        return self.load(game)

    # -- reading ----------------------------------------------------------------------------
    def resolve(self, text: str) -> str:
        """The id of the game ``text`` names (an id, or a unique prefix or suffix of one)."""
        return self.store.resolve(text)

    def load(self, game: str) -> Loaded:
        """``game`` as of now: the cached folds advanced by whatever was appended since (by any
        process).  Raises UnknownGame, LogDamaged."""
        with self._lock(game):
            return self._refresh(game)

    def _refresh(self, game: str) -> Loaded:
        loaded = self._games.get(game)
        if loaded is None:
            return self._cold(game)
        batch = self.store.read(game, after=loaded.head.seq)
        if batch.base is None or batch.base.link != loaded.head.link or batch.header != loaded.header:
            # the log is not the one folded (cut, replaced): start again from the log
            self._games.pop(game, None)
            return self._cold(game)
        if batch.records:
            self._advance(loaded, batch.records)
            self._maybe_snapshot(loaded)
        return loaded

    def _cold(self, game: str) -> Loaded:
        """Load ``game`` from its snapshot if the log confirms it, else fold the whole log."""
        loaded = self._from_snapshot(game)
        if loaded is None:
            batch = self.store.read(game, after=0)
            rules = rules_for(batch.header.kind)
            loaded = Loaded(game, batch.header, rules, rules.initial(), batch.base, 0, [], [],
                            fill=self._fill)
            self._advance(loaded, batch.records)
            if not loaded.held_records:
                raise LogDamaged(1, "the log has a header but no events (an unfinished creation)",
                                 self.store.location(game))
            self._maybe_snapshot(loaded)
        self._games[game] = loaded
        return loaded

    def _from_snapshot(self, game: str) -> Loaded | None:
        """The game from its snapshot and what follows it, or None when there is no snapshot or
        the log does not confirm it (another link at its position, another game, a damaged or
        foreign file): a snapshot is never trusted."""
        data = self.store.snapshot(game)
        if not data:
            return None
        try:
            snap = _unpickle_snapshot(data)
            if not (isinstance(snap, dict) and snap.get("format") == SNAPSHOT_FORMAT
                    and snap.get("game") == game):
                return None
            seq, link, states = snap["seq"], snap["link"], snap["states"]
            batch = self.store.read(game, after=seq)
            if (batch.base is None or batch.base.link != link or seq < 1
                    or batch.header.link != snap["header_link"]):
                return None
            rules = rules_for(batch.header.kind)
            folds = {viewer: [seq, state] for viewer, state in states.items() if viewer is not REFEREE}
            loaded = Loaded(game, batch.header, rules, states[REFEREE], batch.base, seq, [], [],
                            folds, snapshot_seq=seq, fill=self._fill)
            if snap.get("desk") is not None:
                from .desk.state import Desk

                loaded.desk = Desk.from_plain(snap["desk"])
        except LogDamaged:
            raise
        except Exception:  # an unreadable or foreign snapshot: fold from the log instead
            return None
        self._advance(loaded, batch.records)
        return loaded

    def _fill(self, loaded: Loaded) -> None:
        """Read and decode the part of the log before a snapshot (once)."""
        with self._lock(loaded.game):
            if not loaded.base:
                return
            batch = self.store.read(loaded.game, after=0)
            early = batch.records[: loaded.base]
            if len(early) != loaded.base or early[-1].link != self._link_at_base(loaded):
                raise LogDamaged(len(early), "the log changed under a running service; "
                                 "run `devil verify`", self.store.location(loaded.game))
            loaded.held_events[:0] = self._decode(loaded, early)
            loaded.held_records[:0] = early
            loaded.base = 0

    def _link_at_base(self, loaded: Loaded) -> bytes:
        batch = self.store.read(loaded.game, after=loaded.base)
        return batch.base.link if batch.base is not None else b""

    def _decode(self, loaded: Loaded, records: list[Record]) -> list:
        decode = loaded.rules.events.from_map
        out = []
        for record in records:
            try:
                out.append(decode(record.event))
            except CodecError as exc:
                self._games.pop(loaded.game, None)
                raise LogDamaged(record.seq, exc.message, self.store.location(loaded.game)) from None
        return out

    def _advance(self, loaded: Loaded, records: list[Record]) -> None:
        """Fold ``records`` (which follow ``loaded.head``) into the referee's state."""
        events = self._decode(loaded, records)
        evolve = loaded.rules.evolve
        state = loaded.state
        for index, (record, event) in enumerate(zip(records, events)):
            try:
                state = evolve(state, event)
            except Exception as exc:  # an impossible event in a log whose chain was recomputed
                if type(event) in DESK_CLASSES:  # the referee's desk: not the game's to fold
                    state = self._desk_record(loaded, state, records, events, index)
                    continue
                self._games.pop(loaded.game, None)
                raise LogDamaged(record.seq, f"{event.TYPE} cannot be applied at this point "
                                             f"({type(exc).__name__}: {exc}); run `devil verify`",
                                 self.store.location(loaded.game)) from None
        loaded.state = state
        loaded.held_records.extend(records)
        loaded.held_events.extend(events)
        if records:
            loaded.head = Head(records[-1].seq, records[-1].link)

    def _desk_record(self, loaded: Loaded, state, records: list[Record], events: list, index: int):
        """Take in the desk record ``records[index]`` (engine.desk); after a correction the
        referee's state is folded again without the voided records and every seat's fold is
        dropped (each is folded again, voids applied, when next asked for)."""
        from .desk.fold import fold as desk_fold
        from .desk.state import Desk

        if loaded.desk is None:
            loaded.desk = Desk()
        try:
            corrected = loaded.desk.apply(records[index].seq, events[index])
        except ValueError as exc:
            self._games.pop(loaded.game, None)
            raise LogDamaged(records[index].seq, f"{exc}; run `devil verify`",
                             self.store.location(loaded.game)) from None
        if corrected:
            state, _ = desk_fold(loaded.rules, loaded.records + records[:index],
                                 loaded.events + events[:index], desk=loaded.desk)
            loaded.folds.clear()
        return state

    def _viewer_state(self, loaded: Loaded, viewer):
        """The fold of ``viewer``'s redacted stream up to the head, advanced from where it was."""
        if viewer is REFEREE:
            return loaded.state
        rules = loaded.rules
        entry = loaded.folds.get(viewer)
        if entry is None or entry[0] < loaded.base:
            entry = [0, rules.initial()]
        seq, state = entry
        events = loaded.events if seq < loaded.base else loaded.held_events
        offset = 0 if seq < loaded.base else loaded.base
        redact, evolve = rules.redact, rules.evolve
        if loaded.desk is None:
            for index in range(seq - offset, len(events)):
                shown = redact(events[index], viewer)
                if shown is not None:
                    state = evolve(state, shown)
        else:  # voided records and the desk's own are not folded (engine.desk.fold)
            skip = loaded.desk.skip
            for index in range(seq - offset, len(events)):
                if skip(index + 1 + offset):
                    continue
                shown = redact(events[index], viewer)
                if shown is not None:
                    state = evolve(state, shown)
        loaded.folds[viewer] = [loaded.head.seq, state]
        return state

    def _maybe_snapshot(self, loaded: Loaded) -> None:
        """Write a snapshot when :data:`SNAPSHOT_EVERY` events were folded since the last."""
        if loaded.head.seq - loaded.snapshot_seq >= SNAPSHOT_EVERY:
            self.write_snapshot(loaded)

    def write_snapshot(self, loaded: Loaded) -> None:
        """Save every fold of ``loaded`` (referee, each seat, the public) at its head."""
        rules = loaded.rules
        viewers = [PUBLIC, *range(len(rules.seats(loaded.state)))]
        states = {viewer: self._viewer_state(loaded, viewer) for viewer in viewers}
        states[REFEREE] = loaded.state
        import pickle

        data = pickle.dumps({"format": SNAPSHOT_FORMAT, "game": loaded.game,
                             "kind": loaded.header.kind, "header_link": loaded.header.link,
                             "seq": loaded.head.seq, "link": loaded.head.link, "states": states,
                             "desk": loaded.desk.to_plain() if loaded.desk else None},
                            protocol=pickle.HIGHEST_PROTOCOL)
        try:
            self.store.save_snapshot(loaded.game, data)
        except OSError:  # pragma: no cover - a snapshot is only a shortcut
            return
        loaded.snapshot_seq = loaded.head.seq

    def state(self, game: str, viewer=REFEREE):
        """The state as ``viewer`` knows it: the fold of ``viewer``'s redacted stream.

        The returned state is the service's own cached fold: read it, do not change it.
        """
        with self._lock(game):
            return self._viewer_state(self._refresh(game), viewer)

    def view(self, game: str, viewer=REFEREE) -> dict:
        """The kind's view map for ``viewer`` plus ``game`` (id), ``version`` (last seq) and,
        while the store holds bytes it could not read as records and the referee has not
        acknowledged them, ``damage`` (see EventStore.damage): every view mentions them."""
        with self._lock(game):
            loaded = self._refresh(game)
            view = loaded.rules.view(self._viewer_state(loaded, viewer), viewer)
            out = {"game": game, "version": loaded.version, **view}
            if loaded.desk is not None:  # the voids and disputes: every view shows them
                out.update(loaded.desk.summary(loaded.rules.seats(loaded.state)))
            damage = self.store.damage(game)
            if damage:
                out["damage"] = damage
            return out

    def stream(self, game: str, viewer=REFEREE, after: int = 0) -> list[tuple[Record, Any]]:
        """``(record, event)`` pairs after sequence number ``after``, redacted for ``viewer``."""
        with self._lock(game):
            loaded = self._refresh(game)
            if after < loaded.base:
                records, events, offset = loaded.records, loaded.events, 0
            else:
                records, events, offset = loaded.held_records, loaded.held_events, loaded.base
            start = max(0, after - offset)
            pairs = list(zip(records[start:], events[start:]))
        redact = loaded.rules.redact
        out = []
        for record, event in pairs:
            shown = event if viewer is REFEREE or type(event) in DESK_CLASSES \
                else redact(event, viewer)
            if shown is not None:
                out.append((record, shown))
        return out

    def desk(self, game: str):
        """The game's :class:`engine.desk.state.Desk` (voids, disputes), or None when its log
        holds no desk record.  Read it, do not change it."""
        with self._lock(game):
            return self._refresh(game).desk

    def legal(self, game: str, seat: int) -> list:
        """Every command ``seat`` may submit now (from that seat's own knowledge)."""
        with self._lock(game):
            loaded = self._refresh(game)
            return loaded.rules.legal_commands(self._viewer_state(loaded, seat), seat)

    def seat(self, game: str, name: str) -> int:
        """The seat index of player ``name``; UsageError if there is none."""
        loaded = self.load(game)
        from .seats import seat_named

        return seat_named(loaded.rules.seats(loaded.state), name, where=game)

    # -- submitting -------------------------------------------------------------------------
    def submit(self, game: str, command, *, actor=CONSOLE, command_id: str | None = None
               ) -> Submitted:
        """Check ``command`` (an object or a tagged map) and record what it causes.

        ``actor``: a seat index (may act only for itself), REFEREE (may act for anyone and
        report chance), or CONSOLE (the local CLI: as the seat the command names).
        Raises IllegalCommand (rules), NotAllowed (actor), CodecError / UsageError (malformed),
        ConcurrencyConflict (other writers won :data:`RETRIES` races in a row).
        """
        check_command_id(command_id)
        if is_desk_command(command):
            return self._desk_submit(game, command, actor, command_id)
        with self._lock(game):
            for _ in range(RETRIES):
                loaded = self._refresh(game)
                rules = loaded.rules
                if rules.commands.by_type.get(getattr(type(command), "TYPE", None)) \
                        is not type(command):  # a map, or anything but this kind's command
                    command = rules.commands.from_map(command)
                if command_id is not None:
                    done = self.store.command(game, command_id)
                    if done:
                        return self._repeated(loaded, done, command, command_id, actor)
                state = loaded.state
                if type(state) is Seating or type(command) is SeatEntropy:
                    seated = self._seat(loaded, command, actor, command_id)
                    if seated is None:
                        continue  # another writer moved the game on: decide again
                    return seated
                seat = rules.acting_seat(state, command)
                acting = actor
                if actor == CONSOLE:
                    acting = REFEREE if seat is None else seat
                elif actor is not REFEREE:
                    if seat is None:
                        raise NotAllowed("only the referee may give this command")
                    if seat != actor:
                        names = rules.seats(state)
                        raise NotAllowed(f"you sit as {names[actor]} and cannot act as "
                                         f"{names[seat]}")
                chance = None if rules.physical(state) else _LazyChance(self, loaded)
                if loaded.desk is not None and loaded.desk.epoch:  # never rewinds (DESK-6)
                    from .desk.chance import continued

                    chance = continued(chance, loaded.desk.epoch)
                events = rules.decide(state, command, chance)
                maps = [rules.events.to_map(e) for e in events]
                try:
                    records = self.store.append(game, loaded.head.seq, actor_code(acting),
                                                command_id, maps)
                except ConcurrencyConflict:
                    continue  # another writer got there first: read what it wrote, decide again
                self._advance(loaded, records)
                self._maybe_snapshot(loaded)
                if rules.is_over(loaded.state):
                    records = records + self._reveal_seats(loaded)
                count = len(records)
                receipt = self._sign_command(loaded, records)
                return Submitted(game, records, loaded.held_events[len(loaded.held_events) - count:]
                                 if count else [], receipt=receipt)
            raise ConcurrencyConflict(f"{game} is busy: other writers moved it on {RETRIES} times "
                                      "while this command was decided; try again")

    def _desk_submit(self, game: str, command, actor, command_id: str | None) -> Submitted:
        """A desk command (engine.desk.commands: correct, dispute, ruling), decided by
        :func:`engine.desk.decide.decide` and appended like any command."""
        from .desk.commands import COMMANDS, Dispute
        from .desk.decide import Log, decide
        from .desk.state import Desk

        with self._lock(game):
            for _ in range(RETRIES):
                loaded = self._refresh(game)
                rules = loaded.rules
                if COMMANDS.by_type.get(getattr(type(command), "TYPE", None)) is not type(command):
                    command = COMMANDS.from_map(command)
                if command_id is not None:
                    done = self.store.command(game, command_id)
                    if done:
                        return self._repeated(loaded, done, command, command_id, actor)
                state = loaded.state
                names = rules.seats(state)
                records = loaded.records
                log = Log(loaded.head.seq, 1 + records[0].left, lambda seq: records[seq - 1].left,
                          names, bool(rules.is_over(state)), bool(rules.physical(state)))
                events = decide(loaded.desk or Desk(), command, actor, log)
                acting = REFEREE
                if isinstance(command, Dispute):  # recorded as given by the seat itself
                    acting = (actor if actor not in (CONSOLE, REFEREE)
                              else names.index(command.player) if actor == CONSOLE else REFEREE)
                maps = [rules.events.to_map(e) for e in events]
                try:
                    appended = self.store.append(game, loaded.head.seq, actor_code(acting),
                                                 command_id, maps)
                except ConcurrencyConflict:
                    continue
                self._advance(loaded, appended)
                self._maybe_snapshot(loaded)
                return Submitted(game, appended, loaded.held_events[len(loaded.held_events)
                                                                    - len(appended):],
                                 receipt=self._sign_command(loaded, appended))
            raise ConcurrencyConflict(f"{game} is busy: other writers moved it on {RETRIES} times "
                                      "while this command was decided; try again")

    def _repeated(self, loaded: Loaded, done: list[Record], command, command_id: str, actor
                  ) -> Submitted:
        """The answer to a command id already in the log."""
        if actor != CONSOLE and actor is not REFEREE and done[0].actor != actor_code(actor):
            # another player's id: say nothing about their command (it may be hidden)
            raise NotAllowed(f"command id {command_id!r} belongs to another player's "
                             "command; give a new id")
        first = done[0].seq - 1
        events = loaded.events[first:first + len(done)]
        self._check_same_command(loaded, first, events, command, command_id)
        return Submitted(loaded.game, list(done), list(events), repeated=True,
                         receipt=self.receipt(loaded.game, done[-1], loaded.header)
                         if self.sign else None)

    def _check_same_command(self, loaded: Loaded, first: int, events: list, command,
                            command_id: str) -> None:
        """A retried command id must come with the same command (UsageError otherwise)."""
        rules = loaded.rules
        hook = rules.command_for
        if is_desk_command(command):
            from .desk.commands import COMMANDS
            from .desk.decide import command_for as desk_command_for

            try:
                original, _ = desk_command_for(events, loaded.records[first].actor,
                                               rules.seats(loaded.state))
            except ValueError:
                original = None
            same = original is not None and \
                {**COMMANDS.to_map(original), "player": None} == \
                {**COMMANDS.to_map(command), "player": None}
            if not same:
                raise UsageError(f"command id {command_id!r} was already used for a different "
                                 "command; give a new id")
            return
        if hook is None:
            return
        if loaded.desk is not None:
            from .desk.fold import fold as desk_fold

            before, _ = desk_fold(rules, loaded.records[:first], loaded.events[:first])
        else:
            before = rules.fold(loaded.events[:first])
        try:
            original, _ = hook(before, events)
        except Exception:  # pragma: no cover - a hook that cannot rebuild: accept the retry
            return
        if not isinstance(original, dict) and rules.commands.to_map(original) \
                != rules.commands.to_map(command):
            # the original is not shown: it may hold what this caller may not see
            raise UsageError(f"command id {command_id!r} was already used for a different "
                             "command; give a new id")

    # -- seat entropy (engine.entropy) --------------------------------------------------------
    def _authorise(self, loaded: Loaded, seat: int, actor) -> int:
        """The actor code a seat's entropy is recorded with; NotAllowed for another seat, and
        for the referee (over HTTP): a seat's value must come from the seat's own client."""
        if actor == CONSOLE:
            return seat
        if actor is REFEREE:
            raise NotAllowed("a seat's entropy comes from that seat's own client (its token), "
                             "not from the referee: that is what makes the draws fair")
        if actor != seat:
            names = loaded.rules.seats(loaded.state)
            raise NotAllowed(f"you sit as {names[actor]} and cannot act as {names[seat]}")
        return seat

    def _seat(self, loaded: Loaded, command, actor, command_id) -> "Submitted | None":
        """A command while the game is seating, or a seat's entropy: record the seat's
        commitment (its value kept private), and open the table once every seat is in.
        Returns None when another writer moved the game on first (decide again)."""
        rules, state, game = loaded.rules, loaded.state, loaded.game
        if type(command) is not SeatEntropy:
            if type(state) is Seating and not state.waiting:  # in, but the table never opened
                self._open_table(loaded)
                return None  # decide the command again, now that the game has started
            rules.acting_seat(state, command)  # SEAT-1: waiting for ...
            raise AssertionError("unreachable")  # pragma: no cover
        seat = rules.acting_seat(state, command)
        self._authorise(loaded, seat, actor)
        name = rules.seats(state)[seat]
        if type(state) is not Seating:
            raise IllegalCommand("SEAT-2", f"{name} cannot give entropy now: "
                                 + ("the game has started" if entropy.opening(loaded.events)
                                    else "this game was created without seat entropy"))
        if not isinstance(command.value, str) or not entropy.VALUE.match(command.value):
            raise IllegalCommand("SEAT-2", "a seat's value is 64 lowercase hex digits (32 "
                                           "random bytes); `devil sit` makes one")
        commitment = entropy.seat_commitment(game, seat, command.value)
        given = state.committed[seat]
        if given is not None:
            if given != commitment:
                raise IllegalCommand("SEAT-2", f"{name} has given its entropy already: one "
                                               "value per seat")
            done = [r for r, e in zip(loaded.records, loaded.events)
                    if type(e) is entropy.SeatCommitted and e.seat == seat]
            return Submitted(game, done, [entropy.SeatCommitted(seat, commitment)],
                             repeated=True, receipt=self.receipt(game, done[-1], loaded.header)
                             if self.sign else None)
        self.store.put_private(game, entropy.private_name(seat),
                               {"value": command.value, "commitment": commitment}, replace=True)
        event = entropy.SeatCommitted(seat, commitment)
        try:
            records = self.store.append(game, loaded.head.seq, seat, command_id,
                                        [rules.events.to_map(event)])
        except ConcurrencyConflict:
            return None
        self._advance(loaded, records)
        events = [event]
        if not loaded.state.waiting:
            opened = self._open_table(loaded)
            if opened:
                records = records + opened
                events = events + loaded.held_events[len(loaded.held_events) - len(opened):]
        return Submitted(game, records, events, receipt=self._sign_command(loaded, records))

    def _open_table(self, loaded: Loaded) -> list[Record] | None:
        """Run the kind's setup with the mixed chance once every seat is in (the referee's
        records), or None if another writer did it first."""
        first = entropy.opening(loaded.events)
        options = json.loads(first.options)
        chance = self.chance(loaded.game, first.commitment, loaded)
        events = loaded.rules.setup(dict(options), chance)
        maps = [loaded.rules.events.to_map(e) for e in events]
        try:
            records = self.store.append(loaded.game, loaded.head.seq, REFEREE_ACTOR, None, maps)
        except ConcurrencyConflict:
            return None
        loaded.chance = chance
        self._advance(loaded, records)
        return records

    def _reveal_seats(self, loaded: Loaded) -> list[Record]:
        """At the end of a seated game: append ``seats_revealed`` (every seat's value) once."""
        if entropy.opening(loaded.events) is None \
                or entropy.revealed_values(loaded.events) is not None:
            return []
        chance = loaded.chance
        if chance is None or getattr(chance, "seats", None) is None:
            chance = self.chance(loaded.game, entropy.opening(loaded.events).commitment, loaded)
        event = entropy.SeatsRevealed(list(chance.seats))
        records = self.store.append(loaded.game, loaded.head.seq, REFEREE_ACTOR, None,
                                    [loaded.rules.events.to_map(event)])
        self._advance(loaded, records)
        return records

    # -- receipts and seals (engine.receipts) ------------------------------------------------
    def signer(self):
        """The store's signing key (:class:`engine.receipts.Signer`), loaded once."""
        signer = getattr(self, "_signer", None)
        if signer is None:
            from .receipts import Signer

            signer = self._signer = Signer.of(self.store)
        return signer

    def receipt(self, game: str, record: Record, header: Header | None = None) -> dict:
        """The signed receipt of ``record`` of ``game`` (whose header is ``header``, read if
        not given): its seq, link and time."""
        from .log import iso_time

        if header is None:
            header = self.load(game).header
        return self.signer().receipt(game, record.seq, record.link,
                                     iso_time(header.created, record.ts))

    def _sign_command(self, loaded: Loaded, records: list[Record]) -> dict | None:
        """A new command's receipt; when it ended the game, the game's seal is kept too."""
        if not records or not self.sign:
            return None
        receipt = self.receipt(loaded.game, records[-1], loaded.header)
        if loaded.rules.is_over(loaded.state):
            self.seal(loaded.game)
        return receipt

    def seal(self, game: str) -> dict | None:
        """The seal of a finished ``game`` (signed final head, kept as its private document
        ``"seal"``; made now if the game ended without one, e.g. imported), or None while it
        runs.  The tournament bundle calls this for each table's game."""
        with self._lock(game):
            loaded = self._refresh(game)
            if not loaded.rules.is_over(loaded.state):
                return None
            self._reveal_seats(loaded)  # a seated game's values, if a crash left them out
            kept = self.store.private(game, "seal")
            head = loaded.head
            if kept is not None and kept.get("seq") == head.seq \
                    and kept.get("link") == head.link.hex():
                return kept
            from .log import iso_time

            last = loaded.records[-1]
            seal = self.signer().seal(game, head.seq, head.link,
                                      iso_time(loaded.header.created, last.ts))
            self.store.put_private(game, "seal", seal, replace=True)
            return seal

    def chance(self, game: str, commitment: str | None, loaded: Loaded | None = None
               ) -> SeededChance:
        """The secret chance of a digital game, checked against its public ``commitment``;
        for a game with seat entropy (``loaded`` given), mixed with every seat's value, each
        checked against the commitment the seat recorded.

        Raises :class:`SecretDamaged` if the secret is missing, unreadable or does not match.
        """
        try:
            secret = self.store.secret(game)
        except (OSError, ValueError) as exc:
            raise SecretDamaged(f"the secret seed file of {game} cannot be read ({exc})") from None
        if secret is None:
            raise SecretDamaged(f"the secret seed of {game} is missing from the store; "
                                "no digital draw can be made")
        try:
            chance = SeededChance(secret["seed"], secret["salt"])
        except (KeyError, TypeError, ValueError) as exc:
            raise SecretDamaged(f"the secret seed file of {game} is malformed ({exc})") from None
        if commitment is not None and commitment_of(chance.seed, chance.salt) != commitment:
            raise SecretDamaged(f"the secret seed of {game} does not match the commitment in its "
                                "first event; refusing to draw from it")
        if loaded is not None and entropy.opening(loaded.events) is not None:
            values = []
            for seat, recorded in enumerate(entropy.commitments(loaded.events)):
                try:
                    kept = self.store.private(game, entropy.private_name(seat)) or {}
                except (OSError, ValueError):
                    kept = {}
                value = kept.get("value")
                if recorded is None or not isinstance(value, str) \
                        or entropy.seat_commitment(game, seat, value) != recorded:
                    raise SecretDamaged(f"seat {seat}'s value in {game} is missing or does not "
                                        "match the commitment it recorded; refusing to draw")
                values.append(value)
            chance = SeededChance(chance.seed, chance.salt, values)
        return chance


def _unpickle_snapshot(data: bytes):
    """A snapshot's contents, refusing every class but the games' own attrs classes (their
    states) and plain containers: a snapshot file is never trusted, so it can hold data, not
    code.  Raises pickle.UnpicklingError (or another error of a damaged pickle)."""
    import io
    import pickle

    plain = {("builtins", "set"), ("builtins", "frozenset"), ("collections", "OrderedDict")}

    class Unpickler(pickle.Unpickler):
        def find_class(self, module: str, name: str):
            if (module, name) in plain:
                return super().find_class(module, name)
            if module.startswith("engine.games.") and "." not in name:
                found = super().find_class(module, name)
                if isinstance(found, type) and attrs.has(found):
                    return found
            raise pickle.UnpicklingError(f"a snapshot may not hold {module}.{name}")

    return Unpickler(io.BytesIO(data)).load()


class SecretDamaged(DevilError):
    """A digital game's secret seed is missing, unreadable or not the committed one."""

    exit_code = 3


class _LazyChance:
    """The game's chance, loaded (and checked) only when ``decide`` first asks for it, so a
    command that needs no chance (a bet) never depends on the secret; kept with the game."""

    def __init__(self, service: GameService, loaded: Loaded):
        self._service, self._loaded = service, loaded

    def __getattr__(self, name: str):
        loaded = self._loaded
        if loaded.chance is None:
            commitment = getattr(loaded.state, "commitment", None)
            loaded.chance = self._service.chance(loaded.game, commitment, loaded)
        return getattr(loaded.chance, name)
