"""The bot registry and the loop that lets bots play through the service.

A bot is an object with ``choose(state, seat, legal) -> command``: ``state`` is the fold of the
seat's own redacted stream (what that seat knows, nothing more) and ``legal`` the seat's legal
commands from that state.  Bots act only through :meth:`GameService.submit` with ``actor`` = their
seat, exactly like a person at the keyboard.

``make_bot(kind, name, rng)`` builds a bot; ``bot_names(kind)`` lists them.
:class:`Table` keeps each seat's redacted fold up to date from what the service returns, and
:func:`play_out` runs a game to its end with bots at every seat (or to a cap).
"""

from __future__ import annotations

import random
from typing import Any, Callable

from .errors import UsageError
from .game import REFEREE, rules_for

def _registry(kind: str) -> dict:
    """``{name: class}``: the kind's ``bots`` hook (GameRules.bots); UsageError if it has none."""
    rules = rules_for(kind)
    if rules.bots is None:
        raise UsageError(f"no bots for game kind {kind!r} yet")
    return rules.bots()


def bot_names(kind: str) -> list[str]:
    """The bot kinds available for game ``kind`` (sorted); UsageError for an unknown kind."""
    return sorted(_registry(kind))


def make_bot(kind: str, name: str, rng: random.Random | None = None, **params):
    """A bot called ``name`` (e.g. ``"random"``) for game ``kind``, built with ``rng`` (a
    fresh ``random.Random`` if None) and ``params``; UsageError for an unknown kind or bot."""
    registry = _registry(kind)
    if name not in registry:
        raise UsageError(f"no bot {name!r} for {kind} (bots: {', '.join(sorted(registry))})")
    return registry[name](rng=rng or random.Random(), **params)


class Table:
    """Every seat's own knowledge of one game in a service, kept up to date incrementally.

    ``states[seat]`` is the fold of the seat's redacted stream (as ``GameService.state(game,
    seat)`` computes it, without re-reading the log for every decision).
    """

    def __init__(self, service, game: str):
        self.service = service
        self.game = game
        self._fold(service.load(game))

    def _fold(self, loaded) -> None:
        """Every seat's state folded from the whole of ``loaded`` (a service's loaded game)."""
        from .fold import fold

        self.rules = loaded.rules
        self.names = self.rules.seats(loaded.state)
        self._log = list(loaded.events)  # every event so far (a correction folds them again)
        self.folds = [fold(self.rules, self._log)] + [fold(self.rules, self._log, seat)
                                                      for seat in range(len(self.names))]
        self.events = len(self._log)

    @property
    def referee(self):
        """The referee's state (the whole game)."""
        return self.folds[0].state

    @property
    def states(self) -> list:
        """Each seat's state: the fold of its own stream (engine.fold)."""
        return [f.state for f in self.folds[1:]]

    def apply(self, events: list) -> None:
        """Fold newly recorded ``events`` into every seat's fold (engine.fold: each seat's
        visible events, voids applied)."""
        log = self._log
        for f in self.folds:
            f.advance(events, lambda: log)
        log.extend(events)
        self.events += len(events)

    def sync(self) -> list:
        """Catch up with the store: the events recorded since this table last folded (by this
        process or any other writer, e.g. `devil bet` from another terminal), folded into every
        seat's state (a referee's correction included: engine.fold applies its voids); ``[]``
        when nothing is new.  A log shorter than the one folded folds every seat again."""
        loaded = self.service.load(self.game)  # the service reads what was appended since
        if loaded.version == self.events:
            return []
        if loaded.version < self.events:  # the log was replaced by a shorter one
            self._fold(loaded)
            return []
        events = [event for _, event in self.service.stream(self.game, REFEREE, self.events)]
        self.apply(events)
        return events

    def over(self) -> bool:
        return bool(self.rules.is_over(self.referee))

    def legal(self, seat: int) -> list:
        return self.rules.legal_commands(self.folds[1 + seat].state, seat)

    def waiting(self) -> list[int]:
        """The seats that may act now."""
        return [seat for seat in range(len(self.names)) if self.legal(seat)]

    def submit(self, seat: int, command) -> list:
        """Submit ``command`` as ``seat`` (through the service) and fold what it caused: the
        events it recorded (preceded by any another writer recorded before it).  A command
        only the referee may give (``acting_seat`` None: a chance fact reported in a physical
        game, such as a coal drawn) is submitted as the referee, whose console this is."""
        actor = REFEREE if self.rules.acting_seat(self.referee, command) is None else seat
        result = self.service.submit(self.game, command, actor=actor)
        if result.records and result.records[0].seq == self.events + 1:
            self.apply(result.events)
            loaded = getattr(result, "loaded", None)
            if loaded is not None and loaded.desk is not None and loaded.desk.replaced:
                # a seat handed to a bot (DESK-7): the service's bots may have played on after
                # this command (engine.service.autoplay): fold their commands too
                return result.events + self.sync()
            return result.events
        # another writer appended before this command (the service decided after reading it):
        # fold theirs too, in order, and return everything new
        return self.sync()


def play_out(service, game: str, bots: dict[int, Any], *, max_rounds: int = 500,
             max_commands: int = 100_000, on_events: Callable | None = None) -> dict:
    """Let ``bots`` (seat -> bot) play ``game`` to its end.

    Stops early when the game reaches round ``max_rounds + 1`` or after ``max_commands``
    commands (a game that never ends); returns ``{"over", "capped", "commands", "rounds"}``.
    """
    table = Table(service, game)
    commands = 0
    capped = False
    while not table.over():
        rounds = getattr(table.referee, "round", 0) or 0
        if rounds > max_rounds or commands >= max_commands:
            capped = True
            break
        acted = False
        for seat in range(len(table.names)):
            legal = table.legal(seat)
            if not legal:
                continue
            bot = bots.get(seat)
            if bot is None:
                raise UsageError(f"seat {seat} ({table.names[seat]}) has no bot")
            command = bot.choose(table.folds[1 + seat].state, seat, legal)
            events = table.submit(seat, command)
            commands += 1
            acted = True
            if on_events is not None:
                on_events(events)
            if table.over():
                break
        if not acted:
            raise UsageError("nobody can act, but the game is not over")
    return {"over": table.over(), "capped": capped, "commands": commands,
            "rounds": getattr(table.referee, "round", None), "state": table.referee}


__all__ = ["REFEREE", "Table", "bot_names", "make_bot", "play_out", "rules_for"]
