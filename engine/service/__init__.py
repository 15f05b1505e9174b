"""GameService: create games, submit commands, read events and views.

The one object the CLI uses in-process and the HTTP app (engine.web) wraps.  It knows no
game's rules (it asks :func:`engine.game.rules_for`) and no storage (it talks to an
:class:`engine.store.EventStore`).  Its parts, one idea each:

* :mod:`engine.service.cache`: every game's folds (engine.fold), kept and advanced with the
  records appended since (by any process); cold loads from snapshots;
* :mod:`engine.service.snapshots`: when and how the folds are saved;
* :mod:`engine.service.commands`: the command path, one retry loop for game and desk commands;
* :mod:`engine.service.seating`: the seat-entropy ceremony and the secret chance;
* :mod:`engine.service.signing`: receipts and seals.

**State is kept, not recomputed.**  A seat's state is, by definition, the fold of its own
stream (``engine.fold``: every event through ``GameRules.visible``): only the work is shared.
"""

from __future__ import annotations

from typing import Any, Callable

from ..chance import SeededChance
from ..errors import UsageError
from ..game import REFEREE, rules_for
from ..log import REFEREE_ACTOR, Header, Record
from . import commands, seating, steps
from .cache import GameCache, Loaded
from .commands import (MAX_COMMAND_ID, RETRIES, Submitted, actor_code, check_command_id,
                       is_desk_command)
from .seating import CONSOLE, SecretDamaged
from .signing import Signing
from .snapshots import SNAPSHOT_EVERY

__all__ = ["CONSOLE", "GameService", "Loaded", "MAX_COMMAND_ID", "RETRIES", "SNAPSHOT_EVERY",
           "SecretDamaged", "Submitted", "actor_code", "check_command_id", "is_desk_command"]


class GameService:
    """Games in a store (any :class:`engine.store.EventStore`).

    ``sign``: whether answers carry signed receipts and finished games are sealed.
    ``clock``: the service's clock for games with a time control (engine.clock): a callable
    giving now in ms since 1970 (default the system's UTC time); the rules never read it.
    """

    def __init__(self, store, *, sign: bool = True, clock: Callable[[], int] | None = None):
        from .clocks import default_clock

        self.store = store
        self.cache = GameCache(store)
        self.signing = Signing(store, sign)
        self.clock: Callable[[], int] = clock or default_clock

    @property
    def sign(self) -> bool:
        return self.signing.enabled

    # -- creating ---------------------------------------------------------------------------
    def create(self, kind: str, options: dict, *, seed: int | None = None,
               private: Callable[[str, list[str]], dict[str, dict]] | None = None,
               seat_entropy: bool = False, salt: str | None = None,
               chosen: bool | None = None, clock=None, deadline: int | None = None) -> Loaded:
        """A new game of ``kind`` with ``options`` (see the kind's ``options`` module).

        ``seed`` fixes a digital game's chance (for reproducible games and tests); ``None``
        draws a secret one.  ``private(game_id, seat_names)`` gives documents the store keeps
        with the game from its first moment (the HTTP service's token hashes): the game exists
        with all of them or not at all.  ``seat_entropy``: a digital game that starts only once
        every seat has given its random value (engine.entropy: its first event is
        ``table_opened``, the kind's setup runs when the last seat is in).  ``salt`` (with
        ``seed``): the commitment's salt too, so that the game commits to exactly a
        tournament's duplicate round's seed (TOUR-11.2); None draws a random one.
        ``chosen``: whether the recorded ``seed_chosen`` says a given seed was chosen (a
        duplicate round's seed is given but drawn at random by the organiser: False); None
        means ``seed is not None``.  ``clock``: the game's time control
        (engine.clock.ClockSet, CLOCK-1), recorded as its second command; refused
        (UsageError) for a kind without clocks.  ``deadline``: when a tournament round's time
        runs out (ms since 1970; CLOCK-10, TOUR-8.5), recorded in the time control as ms since
        the game's ``created`` (a control of the deadline alone without ``clock``); ignored for
        a kind without clocks.  Raises UsageError for bad options.
        """
        rules = rules_for(kind)
        created = self.clock()
        if deadline is not None and rules.to_move is not None:  # CLOCK-10
            from ..roundclock import with_deadline

            clock = with_deadline(clock, deadline - created)
        if clock is not None:
            from ..clock import checked

            if rules.to_move is None:
                raise UsageError(f"CLOCK-1: {rules.title} games take no clock")
            checked(clock)
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
            options["seed_chosen"] = seed is not None if chosen is None else bool(chosen)
        try:
            chance = None if physical else (SeededChance.fresh(seed) if salt is None or seed is None
                                            else SeededChance(seed, str(salt)))
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        if seat_entropy and physical:
            raise UsageError("a physical game draws nothing by chance: seat entropy is for "
                             "digital games")
        events = rules.setup(dict(options), chance)
        names = rules.seats(rules.fold(events))
        if len({str(name).casefold() for name in names}) != len(names):
            # a new game only: a name is found in any case (engine.seats), so two that differ
            # only in case could not be told apart; a game recorded before may have them
            raise UsageError("every player needs a unique name, whatever the case: a name is "
                             "found in any case (--as anna finds Anna)")
        if seat_entropy:  # the options checked by a setup whose draws are thrown away
            from ..entropy import TableOpened, options_text

            assert chance is not None  # a digital game (a physical one was refused above)
            events = [TableOpened(names, chance.commitment, options_text(options))]
        maps = [rules.events.to_map(e) for e in events]
        game = self.store.new_game_id(kind)
        secret = chance.reveal() if chance is not None else None
        documents = None if private is None else private(game, names)
        self.signing.ready()  # a damaged signing key refuses before anything is written
        self.store.create(kind, game, REFEREE_ACTOR, maps, secret, private=documents,
                          **({} if clock is None else {"created": created}))
        if clock is not None:
            from .clocks import set_clock

            set_clock(self, game, clock)
        return self.load(game)

    # -- reading ----------------------------------------------------------------------------
    def resolve(self, text: str) -> str:
        """The id of the game ``text`` names (an id, or a unique prefix or suffix of one)."""
        return self.store.resolve(text)

    def load(self, game: str) -> Loaded:
        """``game`` as of now: the cached folds advanced by whatever was appended since (by any
        process).  Raises UnknownGame, LogDamaged."""
        with self.cache.lock(game):
            return self.cache.refresh(game)

    def state(self, game: str, viewer=REFEREE):
        """The state as ``viewer`` knows it: the fold of ``viewer``'s stream (engine.fold).
        The returned state is the service's own cached fold: read it, do not change it."""
        with self.cache.lock(game):
            return self.cache.fold_of(self.cache.refresh(game), viewer).state

    def view(self, game: str, viewer=REFEREE) -> dict:
        """The kind's view map for ``viewer`` plus ``game`` (id), ``version`` (last seq),
        the desk's voids and disputes, and, while the store holds bytes it could not read as
        records and the referee has not acknowledged them, ``damage`` (EventStore.damage)."""
        with self.cache.lock(game):
            return self.view_of(self.cache.refresh(game), viewer)

    def view_of(self, loaded: Loaded, viewer=REFEREE) -> dict:
        """:meth:`view` of a game already loaded (no store read but the damage check)."""
        from ..answers import view_answer

        from .clocks import readings

        with self.cache.lock(loaded.game):
            fold = self.cache.fold_of(loaded, viewer)
            out = view_answer(loaded, fold, viewer, self.store.damage(loaded.game))
            clocks = readings(self, loaded)
            if clocks is not None:  # each seat's time, public (CLOCK-8)
                out["clocks"] = clocks
            return out

    def stream(self, game: str, viewer=REFEREE, after: int = 0) -> list[tuple[Record, Any]]:
        """``(record, event)`` pairs after sequence number ``after`` as ``viewer`` sees them
        (:meth:`engine.game.GameRules.visible`; events it sees nothing of left out)."""
        with self.cache.lock(game):
            return self.stream_of(self.cache.refresh(game), viewer, after)

    def stream_of(self, loaded: Loaded, viewer=REFEREE, after: int = 0
                  ) -> list[tuple[Record, Any]]:
        """:meth:`stream` of a game already loaded."""
        with self.cache.lock(loaded.game):
            if after < loaded.base:
                records, events, offset = loaded.records, loaded.events, 0
            else:
                records, events, offset = loaded.held_records, loaded.held_events, loaded.base
            start = max(0, after - offset)
            pairs = list(zip(records[start:], events[start:]))
        visible = loaded.rules.visible
        out = []
        for record, event in pairs:
            shown = visible(event, viewer)
            if shown is not None:
                out.append((record, shown))
        return out

    def desk(self, game: str):
        """The game's :class:`engine.desk.state.Desk` (voids, disputes), or None when its log
        holds no desk record.  Read it, do not change it."""
        return self.load(game).desk

    def legal(self, game: str, seat: int) -> list:
        """Every command ``seat`` may submit now (from that seat's own knowledge)."""
        with self.cache.lock(game):
            return self.legal_of(self.cache.refresh(game), seat)

    def legal_of(self, loaded: Loaded, seat: int) -> list:
        """:meth:`legal` of a game already loaded."""
        with self.cache.lock(loaded.game):
            return loaded.rules.legal_commands(self.cache.fold_of(loaded, seat).state, seat)

    def players(self, game: str) -> list[str]:
        """The players of ``game`` in seat order.  A game's players never change, so a game
        the service holds already is not read again (a game it does not hold is loaded)."""
        with self.cache.lock(game):
            loaded = self.cache.held(game) or self.cache.refresh(game)
            return loaded.rules.seats(loaded.state)

    def seat(self, game: str, name: str) -> int:
        """The seat index of player ``name``; UsageError if there is none."""
        from ..seats import seat_named

        return seat_named(self.players(game), name, where=game)

    def write_snapshot(self, loaded: Loaded) -> None:
        """Save every fold of ``loaded`` (referee, each seat, the public) at its head."""
        with self.cache.lock(loaded.game):
            self.cache.write_snapshot(loaded)

    # -- submitting -------------------------------------------------------------------------
    def submit(self, game: str, command, *, actor=CONSOLE, command_id: str | None = None
               ) -> Submitted:
        """Check ``command`` (an object or a tagged map) and record what it causes.

        ``actor``: a seat index (may act only for itself), REFEREE (may act for anyone and
        report chance), or CONSOLE (the local CLI: as the seat the command names).  Desk
        commands (engine.desk: correct, dispute, ruling) take the same path.
        Raises IllegalCommand (rules), NotAllowed (actor), CodecError / UsageError (malformed),
        ConcurrencyConflict (other writers won :data:`RETRIES` races in a row).
        """
        return steps.run(self.submit_steps(game, command, actor=actor, command_id=command_id),
                         self.store)

    def submit_steps(self, game: str, command, *, actor=CONSOLE, command_id: str | None = None
                     ) -> steps.Steps:
        """:meth:`submit` as a path of steps (engine.service.steps): the HTTP app drives it on
        its event loop, the appends going to the store's group-commit writer."""
        from .autoplay import then_bots
        from .clocks import expire_steps

        self.signing.ready()  # a damaged signing key refuses before anything is appended

        def path():
            # the timeouts due now are recorded first (CLOCK-5): a late command comes after
            # them; a seat the referee handed to a bot (DESK-7) is played after the command
            yield from expire_steps(self, game)
            return (yield from then_bots(self, commands.submit_steps(self, game, command, actor,
                                                                     command_id)))

        return path()

    def apply_timeouts(self, game: str, now: int | None = None) -> list:
        """Record every timeout of ``game`` due at ``now`` (ms since 1970; default
        :attr:`clock`): engine.service.clocks.apply_due; the records appended."""
        from .clocks import apply_due

        return apply_due(self, game, now)

    def clocks(self, game: str, now: int | None = None) -> dict | None:
        """Every seat's clock of ``game`` at ``now`` (engine.clock.Clocks.readings), or None
        for a game without a time control."""
        from .clocks import readings

        with self.cache.lock(game):
            return readings(self, self.cache.refresh(game), now)

    # -- receipts, seals, chance --------------------------------------------------------------
    def signer(self):
        """The store's signing key (:class:`engine.receipts.Signer`), loaded once."""
        return self.signing.signer()

    def receipt(self, game: str, record: Record, header: Header | None = None) -> dict:
        """The signed receipt of ``record`` of ``game`` (whose header is ``header``, read if
        not given): its seq, link and time."""
        if header is None:
            header = self.load(game).header
        return self.signing.receipt(game, record, header)

    def seal(self, game: str) -> dict | None:
        """The seal of a finished ``game`` (signed final head, kept as its private document
        ``"seal"``; made now if the game ended without one, e.g. imported), or None while it
        runs.  The tournament bundle calls this for each table's game."""
        return steps.run(self.seal_steps(game), self.store)

    def seal_steps(self, game: str) -> steps.Steps:
        """:meth:`seal` as a path of steps (engine.service.steps)."""
        self.signer()  # a damaged key refuses before seats_revealed is appended
        with self.cache.lock(game):
            loaded = yield steps.Refresh(self.cache, game)
            if not loaded.rules.is_over(loaded.state):
                return None
            # a seated game's values, if a crash left them out
            yield from seating.reveal_seats(self, loaded)
            return (yield from self.signing.seal(loaded))

    def chance(self, game: str, commitment: str | None, loaded: Loaded | None = None
               ) -> SeededChance:
        """The secret chance of a digital game (:func:`engine.service.seating.chance`)."""
        return seating.chance(self.store, game, commitment, loaded)
