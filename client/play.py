"""One terminal, several people: what every kind's ``devil play`` shares (docs/tools.md).

A :class:`Session` drives one game at one keyboard: bots play through the service, people are
asked by the kind's own ``decide(session, seat, legal) -> events`` (``client.games.<kind>.play``
or ``.tools``).  Between two people the screen is cleared (the scrollback too) and the program
waits ("Pass the terminal to Ben, then press Enter"), so nobody's private facts stay on screen
for the next one; each person's screen then starts with what happened since they last had the
keyboard, as *they* saw it.  What is printed while nobody (or a bot) holds the keyboard is what
the whole table sees.

The people and bots a game was started with are kept beside its log in a private store
document (:data:`PLAY`), so ``devil play --resume GAME`` continues an interrupted game with the
same seats.  No game rules here, and no kind is named.
"""

from __future__ import annotations

import sys

import click

from engine.errors import UsageError

#: the private store document of a game started by `devil play`: its people and bots
PLAY = "play"

#: clear the screen and the terminal's scrollback (xterm's ED 3), cursor home
CLEAR = "\x1b[H\x1b[2J\x1b[3J"
#: what is printed instead when the output is not a terminal (a pipe, a transcript)
CLEARED = "=" * 24 + " screen cleared " + "=" * 24

#: how many events a person's screen recaps at most ("since you last had the keyboard")
RECAP = 30


def clear_screen() -> None:
    """Clear the terminal and its scrollback (a marker line when stdout is not a terminal)."""
    if sys.stdout.isatty():
        click.echo(CLEAR, nl=False)
        sys.stdout.flush()
    else:
        click.echo(CLEARED)


def hidden() -> bool:
    """Whether typed input can be hidden: only when it comes from a terminal (from a pipe it is
    not echoed anyway, and getpass would only warn)."""
    return sys.stdin.isatty()


def secret_prompt(text: str, **kwargs):
    """click.prompt whose answer is not echoed on a terminal (a bet, a hidden choice)."""
    return click.prompt(text, hide_input=hidden(), **kwargs)


def wait_enter(text: str) -> None:
    """Print ``text`` and wait for Enter (click.Abort at the end of the input)."""
    click.prompt(text, default="", show_default=False, prompt_suffix=" ")


class MovedOn(Exception):
    """A command was refused because the game had moved on meanwhile (another writer, e.g.
    `devil bet` from another terminal): the new events are shown, the loop asks again."""


class Session:
    """One game played at one terminal by ``people`` (names) and ``robots`` (seat -> bot).

    ``table`` is an :class:`engine.bots.Table` (every seat's own fold); ``render`` the kind's
    renderer (``describe``).  ``at`` is the person at the keyboard (a name) or None.
    ``seen[seat]``: how many of the game's events that person had seen when they last answered
    a prompt (their next screen recaps the rest).  ``reporter``: the name recorded as the
    reporter of every draw reported at this terminal (`devil play --reporter`), or None.
    """

    def __init__(self, table, people: list[str], robots: dict, render, history: list,
                 reporter: str | None = None):
        self.table = table
        #: who reports the draws people report at this terminal (a physical game; issue 23.4)
        self.reporter = reporter
        self.names = table.names
        self.people = [name for name in self.names if name in people]
        self.robots = robots
        self.render = render
        self.history = list(history)  # every event so far, as the referee holds them
        self.seen = {seat: 0 for seat in range(len(self.names))}
        # one person (among bots) keeps the keyboard from the start of a new game
        self.at: str | None = (self.people[0] if len(self.people) == 1 and not history
                               else None)

    # -- who holds the keyboard -------------------------------------------------------------
    @property
    def shared(self) -> bool:
        """Several people share the terminal (so it is cleared between them)."""
        return len(self.people) > 1

    def seat_of(self, name: str) -> int:
        return self.names.index(name)

    def hand_to(self, seat: int) -> None:
        """Give the keyboard to ``seat``'s person: if someone else had it, clear the screen
        and wait until they pass the terminal on; then recap what happened since they last
        had it, as they saw it."""
        name = self.names[seat]
        if self.at == name:
            return
        if self.shared:
            clear_screen()
            wait_enter(f"Pass the terminal to {name}, then press Enter.")
        self.at = name
        self.recap(seat)

    def leave(self) -> None:
        """Nobody keeps the keyboard: clear a private screen (at the end, or on Ctrl-C)."""
        if self.shared and self.at is not None:
            clear_screen()
        if self.shared:
            self.at = None

    def answered(self, seat: int) -> None:
        """``seat``'s person answered a prompt: they have seen everything printed so far."""
        self.seen[seat] = len(self.history)

    # -- what is printed -------------------------------------------------------------------
    def shown(self, event, seat=None):
        """``event`` as ``seat`` may see it (None: as the whole table does); None if unseen."""
        from engine.game import PUBLIC

        return self.table.rules.visible(event, PUBLIC if seat is None else seat)

    def line(self, event, seat=None) -> str | None:
        shown = self.shown(event, seat)
        return None if shown is None else "  " + self.render.describe(shown, self.names)

    def recap(self, seat: int) -> None:
        name = self.names[seat]
        lines = [line for line in (self.line(e, seat) for e in self.history[self.seen[seat]:])
                 if line is not None]
        if not lines:
            return
        start = "the start" if self.seen[seat] == 0 else "your last move"
        click.echo(f"{name}, since {start} (as you saw it):")
        if len(lines) > RECAP:
            click.echo(f"  ... {len(lines) - RECAP} earlier events: `devil log "
                       f"{self.table.game} --as {name}`")
        for text in lines[-RECAP:]:
            click.echo(text)

    def record(self, events: list) -> None:
        """Print newly recorded ``events`` as the person at the keyboard sees them (the whole
        table's view when nobody is)."""
        seat = None if self.at is None else self.seat_of(self.at)
        for event in events:
            self.history.append(event)
            text = self.line(event, seat)
            if text is not None:
                click.echo(text)

    def catch_up(self) -> list:
        """Read what other writers recorded since this session last looked (the store is shared:
        `devil bet` from another terminal, another `devil play`) and print it as the person at
        the keyboard sees it; the new events (``[]`` when nothing is new)."""
        events = self.table.sync()
        if events:
            click.echo("  (recorded meanwhile from elsewhere:)")
            self.record(events)
        return events

    def show_table(self, seat: int) -> None:
        """Print the table as ``seat`` knows it now (the kind's ``render.table``)."""
        table = self.table
        view = {"game": table.game, "version": table.events,
                **table.rules.view(table.states[seat], seat)}
        click.echo(self.render.table(view, self.names[seat]))

    def say(self, text: str) -> None:
        """A line for the whole table (an announcement)."""
        click.echo(text)

    # -- acting ----------------------------------------------------------------------------
    def submit(self, seat: int, command) -> list:
        """Submit ``command`` for ``seat`` (through the service), print what it caused (and
        what another writer recorded before it).  A command refused because another writer
        moved the game on meanwhile: the new events and the seat's table are printed and
        :class:`MovedOn` is raised (:meth:`play` asks again); refused as the game stands:
        IllegalCommand, for the kind's prompt to show."""
        from engine.errors import IllegalCommand

        if self.at == self.names[seat]:
            self.answered(seat)  # their next screen recaps from here, their move included
        try:
            events = self.table.submit(seat, command)
        except IllegalCommand as exc:
            if not self.catch_up():
                raise  # refused as the game stands: the kind's prompt says why and asks again
            click.echo(f"  not recorded: the game moved on meanwhile ({exc})")
            if self.at == self.names[seat]:
                self.show_table(seat)
            raise MovedOn() from None
        self.record(events)
        return events

    def play(self, decide, max_rounds: int) -> bool:
        """Play until the game is over or ``max_rounds`` rounds have passed; people decide
        through ``decide(session, seat, legal) -> None`` (which calls :meth:`submit`).
        Returns True when the game is over (the screen is left as it is: the kind prints the
        final table); a game stopped by the cap clears a private screen.  Ctrl-C (or the end
        of the input) clears a private screen, says how to resume and is raised on."""
        table = self.table
        try:
            while not table.over():
                self.catch_up()  # another writer may have moved the game on
                if table.over():
                    break
                if (getattr(table.referee, "round", 0) or 0) > max_rounds:
                    self.leave()
                    click.echo(f"Stopped after {max_rounds} rounds (--max-rounds); the game is "
                               f"not over: `devil play --resume {table.game}` goes on.")
                    return False
                waiting = table.waiting()
                if not waiting:  # pragma: no cover - a decider always waits for someone
                    raise UsageError("nobody can act, but the game is not over")
                seat = waiting[0]
                legal = table.legal(seat)
                try:
                    if seat in self.robots:
                        self.submit(seat, self.robots[seat].choose(table.states[seat], seat,
                                                                   legal))
                    else:
                        decide(self, seat, legal)
                except MovedOn:
                    continue  # shown: ask again from the game as it stands now
        except (click.exceptions.Abort, KeyboardInterrupt, EOFError):
            self.leave()
            click.echo(f"\nInterrupted; the game is kept: `devil play --resume {table.game}` "
                       "goes on from here.", err=True)
            raise click.exceptions.Abort() from None
        return True  # over: everything is shown now, the last screen may stay


def new_game_reporter(given: str | None) -> None:
    """UsageError for ``--reporter`` with a new game of `devil play`, which is always digital
    (its draws are chance's): raised before the game is created, so nothing is recorded."""
    if given is not None:
        raise UsageError("--reporter names who reports a physical game's draws; `devil play` "
                         "makes a digital game: leave it out, or resume a physical game made "
                         "by `devil new` (devil play --resume GAME --reporter NAME)")


def session_reporter(table, given: str | None) -> str | None:
    """The reporter of the draws a `devil play` session reports: ``given`` (``--reporter``), else
    env ``DEVIL_REFEREE`` (client.options.reporter_name), in a physical game only.  UsageError
    for ``--reporter`` given for a digital game (its draws are the furnace's, nobody reports
    them); the environment's name is then ignored."""
    from .options import reporter_name

    if not table.rules.physical(table.referee):
        if given is not None:
            raise UsageError(f"--reporter names who reports a physical game's draws; "
                             f"{table.game} is digital (its draws are chance's): leave it out")
        return None
    return reporter_name(given)


# -- starting and resuming ------------------------------------------------------------------------
def start(service, kind: str, options: dict, seed, people: list[str], bots: dict[str, str]):
    """Create a game for ``kind`` and keep who plays it (:data:`PLAY`); the loaded game."""
    loaded = service.create(kind, options, seed=seed)
    service.store.put_private(loaded.game, PLAY, {"people": list(people), "bots": dict(bots),
                                                  "seed": seed})
    return loaded


def resume(service, kind: str, game: str, bots: dict[str, str]):
    """``(game id, people, bots, seed, events)`` of a stored game of ``kind`` to continue:
    the seats it was started with by `devil play` (a game made otherwise: every seat a person),
    ``bots`` (``--bot`` given on resume) overriding.  UsageError for another kind, an unknown
    seat or a game that is over."""
    game = service.resolve(game)
    loaded = service.load(game)
    if loaded.header.kind != kind:
        raise UsageError(f"{game} is a {loaded.header.kind} game, not {kind}: "
                         f"`devil play --resume {game}` finds its kind")
    if loaded.rules.is_over(loaded.state):
        raise UsageError(f"{game} is over already: nothing to resume (`devil show {game}`)")
    names = loaded.rules.seats(loaded.state)
    try:
        kept = service.store.private(game, PLAY) or {}
    except (OSError, ValueError):
        kept = {}
    from engine.seats import seat_named

    chosen = dict(kept.get("bots") or {})
    chosen.update({names[seat_named(names, name, where=game)]: kind
                   for name, kind in bots.items()})
    people = [name for name in names if name not in chosen]
    return game, people, chosen, kept.get("seed"), list(loaded.events)


def resume_announced(service, kind: str, game: str, bots: dict[str, str], made_options: bool):
    """:func:`resume`, for a kind's ``play`` command: ``(game id, people, bots, seed, events,
    rng)`` with the bots' random generator continued from the seed, and a line saying what is
    resumed.  ``made_options``: whether options that make a new game were given too (a
    UsageError: a resumed game goes on as it was made)."""
    import random

    if made_options:
        raise UsageError("--resume continues a game as it was made: give only --bot "
                         "(a seat that a bot takes over) and --max-rounds")
    game, people, bots, seed, history = resume(service, kind, game, bots)
    rng = random.Random(f"{seed}-{len(history)}" if seed is not None else None)
    click.echo(f"Resuming {game} ({service.store.location(game)}) after {len(history)} "
               "events")
    return game, people, bots, seed, history, rng


def kind_of(obj, game: str) -> str:
    """The kind of the local store's ``game`` (for `devil play --resume GAME`)."""
    from .context import local_service

    service = local_service(obj)
    return service.load(service.resolve(game)).header.kind
