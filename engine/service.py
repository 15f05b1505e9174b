"""GameService: create games, submit commands, read events and views.

The one object the CLI uses in-process and the HTTP app (engine.http) wraps.  It knows no
game's rules: it asks :func:`engine.game.rules_for` for them.

Submitting a command (:meth:`GameService.submit`)::

    lock the stream -> fold -> authorise -> decide -> append (fsync) -> unlock -> result

A command id already in the log returns that command's original events and appends nothing
(safe retries).  A refused command raises and appends nothing.
"""

from __future__ import annotations

import threading
from typing import Any

import attrs

from .chance import SeededChance, commitment as commitment_of
from .errors import CodecError, DevilError, LogDamaged, NotAllowed, UsageError
from .game import REFEREE, GameRules, rules_for
from .log import REFEREE_ACTOR, Header, Record
from .store.file import FileStore, new_game_id

#: ``actor`` for a trusted console (the local CLI): the command acts for the seat it names,
#: or as the referee where only the referee may give it.
CONSOLE = "console"


@attrs.define
class Loaded:
    """A game read from the store and folded (the referee's full view)."""

    game: str
    header: Header
    rules: GameRules
    records: list[Record]
    events: list
    state: Any
    commands: dict[str, list[int]]  # command id -> indexes into records

    @property
    def version(self) -> int:
        return self.records[-1].seq if self.records else 0


@attrs.frozen
class Submitted:
    """What a submitted command did: its ``records`` and decoded ``events``; ``repeated`` is True
    when the command id had already been applied (nothing was appended this time)."""

    game: str
    records: list[Record]
    events: list
    repeated: bool = False


def actor_code(actor) -> int:
    """The ``actor`` field of a record: a seat index, or -1 for the referee."""
    return REFEREE_ACTOR if actor is REFEREE else actor


class GameService:
    """Games in a store.  ``store`` defaults to a :class:`FileStore`."""

    def __init__(self, store: FileStore):
        self.store = store
        self._cache: dict[str, Loaded] = {}
        # folds update cached states in place: one thread at a time (the HTTP app uses threads)
        self._lock = threading.RLock()

    # -- creating ---------------------------------------------------------------------------
    def create(self, kind: str, options: dict, *, seed: int | None = None) -> Loaded:
        """A new game of ``kind`` with ``options`` (see the kind's ``options`` module).

        ``seed`` fixes a digital game's chance (for reproducible games and tests); ``None``
        draws a secret one.  Raises UsageError for bad options.
        """
        rules = rules_for(kind)
        physical = bool(options.get("physical", False)) or self._castle_physical(kind, options)
        if physical and seed is not None:
            raise UsageError("a physical game has no seed: the referee reports every draw")
        try:
            chance = None if physical else SeededChance.fresh(seed)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        events = rules.setup(dict(options), chance)
        maps = [rules.events.to_map(e) for e in events]
        game = new_game_id(kind)
        while self.store.exists(game):  # pragma: no cover - 32**6 ids
            game = new_game_id(kind)
        secret = chance.reveal() if chance is not None else None
        self.store.create(kind, game, REFEREE_ACTOR, maps, secret)
        return self.load(game)

    @staticmethod
    def _castle_physical(kind: str, options: dict) -> bool:
        return kind == "castle" and bool(options.get("physical", False))

    # -- reading ----------------------------------------------------------------------------
    def resolve(self, text: str) -> str:
        """The id of the game ``text`` names (an id, or a unique prefix or suffix of one)."""
        return self.store.resolve(text)

    def load(self, game: str) -> Loaded:
        """``game`` read and folded (cached; the cache follows appends by any process)."""
        result = self.store.read(game)
        return self._fold(game, result.header, result.records)

    def _fold(self, game: str, header: Header, records: list[Record]) -> Loaded:
        with self._lock:
            return self._fold_locked(game, header, records)

    def _fold_locked(self, game: str, header: Header, records: list[Record]) -> Loaded:
        cached = self._cache.get(game)
        rules = rules_for(header.kind)
        if (cached is not None and cached.header == header and len(records) >= len(cached.records)
                and (not cached.records or records[len(cached.records) - 1].link
                     == cached.records[-1].link)):
            loaded = cached
            start = len(cached.records)
        else:
            loaded = Loaded(game, header, rules, [], [], rules.initial(), {})
            start = 0
        decode = rules.events.from_map
        evolve = rules.evolve
        state = loaded.state
        for index in range(start, len(records)):
            record = records[index]
            try:
                event = decode(record.event)
            except CodecError as exc:
                raise LogDamaged(record.seq, exc.message, self.store.path(game)) from None
            try:
                state = evolve(state, event)
            except Exception as exc:  # an impossible event in a log whose chain was recomputed
                self._cache.pop(game, None)
                raise LogDamaged(record.seq, f"{event.TYPE} cannot be applied at this point "
                                             f"({type(exc).__name__}: {exc}); run `devil verify`",
                                 self.store.path(game)) from None
            loaded.records.append(record)
            loaded.events.append(event)
            if record.cmd is not None:
                loaded.commands.setdefault(record.cmd, []).append(index)
        loaded.state = state
        if not loaded.records:
            raise LogDamaged(1, "the log has a header but no events (an unfinished creation)",
                             self.store.path(game))
        self._cache[game] = loaded
        return loaded

    def state(self, game: str, viewer=REFEREE):
        """The state as ``viewer`` knows it: the fold of ``viewer``'s redacted stream.

        The referee's state is the service's cached fold: read it, do not change it.
        """
        with self._lock:
            loaded = self.load(game)
            if viewer is REFEREE:
                return loaded.state
            rules = loaded.rules
            return rules.fold(rules.redact(event, viewer) for event in loaded.events)

    def view(self, game: str, viewer=REFEREE) -> dict:
        """The kind's view map for ``viewer`` plus ``game`` (id) and ``version`` (last seq)."""
        with self._lock:
            loaded = self.load(game)
            state = self.state(game, viewer)
            view = loaded.rules.view(state, viewer)
            return {"game": game, "version": loaded.version, **view}

    def stream(self, game: str, viewer=REFEREE, after: int = 0) -> list[tuple[Record, Any]]:
        """``(record, event)`` pairs after sequence number ``after``, redacted for ``viewer``."""
        with self._lock:
            loaded = self.load(game)
            pairs = list(zip(loaded.records[after:], loaded.events[after:]))
        redact = loaded.rules.redact
        out = []
        for record, event in pairs:
            shown = event if viewer is REFEREE else redact(event, viewer)
            if shown is not None:
                out.append((record, shown))
        return out

    def legal(self, game: str, seat: int) -> list:
        """Every command ``seat`` may submit now (from that seat's own knowledge)."""
        with self._lock:
            loaded = self.load(game)
            return loaded.rules.legal_commands(self.state(game, seat), seat)

    def seat(self, game: str, name: str) -> int:
        """The seat index of player ``name``; UsageError if there is none."""
        loaded = self.load(game)
        names = loaded.rules.seats(loaded.state)
        if name not in names:
            raise UsageError(f"there is no player called {name!r} in {game} "
                             f"(players: {', '.join(names)})")
        return names.index(name)

    # -- submitting -------------------------------------------------------------------------
    def submit(self, game: str, command, *, actor=CONSOLE, command_id: str | None = None
               ) -> Submitted:
        """Check ``command`` (an object or a tagged map) and record what it causes.

        ``actor``: a seat index (may act only for itself), REFEREE (may act for anyone and
        report chance), or CONSOLE (the local CLI: as the seat the command names).
        Raises IllegalCommand (rules), NotAllowed (actor), CodecError / UsageError (malformed).
        """
        with self.store.session(game) as session:
            loaded = self._fold(game, session.header, list(session.records))
            rules = loaded.rules
            if isinstance(command, dict):
                command = rules.commands.from_map(command)
            if command_id is not None and command_id in loaded.commands:
                indexes = loaded.commands[command_id]
                first = loaded.records[indexes[0]]
                if actor != CONSOLE and actor is not REFEREE and first.actor != actor_code(actor):
                    # another player's id: say nothing about their command (it may be hidden)
                    raise NotAllowed(f"command id {command_id!r} belongs to another player's "
                                     "command; give a new id")
                self._check_same_command(loaded, indexes, command, command_id)
                return Submitted(game, [loaded.records[i] for i in indexes],
                                 [loaded.events[i] for i in indexes], repeated=True)
            state = loaded.state
            seat = rules.acting_seat(state, command)
            if actor == CONSOLE:
                actor = REFEREE if seat is None else seat
            elif actor is not REFEREE:
                if seat is None:
                    raise NotAllowed("only the referee may give this command")
                if seat != actor:
                    names = rules.seats(state)
                    raise NotAllowed(f"you sit as {names[actor]} and cannot act as {names[seat]}")
            chance = None if rules.physical(state) else _LazyChance(self, game, state)
            events = rules.decide(state, command, chance)
            maps = [rules.events.to_map(e) for e in events]
            records = session.append(loaded.version, actor_code(actor), command_id, maps)
            loaded = self._fold(game, session.header, session.records)
            return Submitted(game, records, events)

    def _check_same_command(self, loaded: Loaded, indexes: list[int], command, command_id: str
                            ) -> None:
        """A retried command id must come with the same command (UsageError otherwise)."""
        rules = loaded.rules
        hook = rules.command_for
        if hook is None:
            return
        before = rules.fold(loaded.events[:indexes[0]])
        try:
            original, _ = hook(before, [loaded.events[i] for i in indexes])
        except Exception:  # pragma: no cover - a hook that cannot rebuild: accept the retry
            return
        if not isinstance(original, dict) and rules.commands.to_map(original) \
                != rules.commands.to_map(command):
            # the original is not shown: it may hold what this caller may not see
            raise UsageError(f"command id {command_id!r} was already used for a different "
                             "command; give a new id")

    def chance(self, game: str, commitment: str | None) -> SeededChance:
        """The secret chance of a digital game, checked against its public ``commitment``.

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
        return chance


class SecretDamaged(DevilError):
    """A digital game's secret seed is missing, unreadable or not the committed one."""

    exit_code = 3


class _LazyChance:
    """The game's chance, loaded (and checked) only when ``decide`` first asks for it, so a
    command that needs no chance (a bet) never depends on the secret file."""

    def __init__(self, service: GameService, game: str, state):
        self._service, self._game, self._state = service, game, state
        self._chance: SeededChance | None = None

    def __getattr__(self, name: str):
        if self._chance is None:
            commitment = getattr(self._state, "commitment", None)
            self._chance = self._service.chance(self._game, commitment)
        return getattr(self._chance, name)
