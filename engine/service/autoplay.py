"""Seats played by a bot after the referee handed them over (DESK-7; engine.desk).

A ``seat_replaced`` record in a game's log says that a bot plays that seat from then on.  The
rules stay pure: the service plays the bot.  After every command recorded in a game with such
a seat (the replacement itself included), :func:`then_bots` gives each replaced seat that may
act its bot's command, as that seat (``actor`` = the seat, through the same command path as a
person's), until no replaced seat may act (a person must, or the game is over).  A seat the
referee gave back (``seat_returned``, DESK-11) is no longer in the desk's ``replaced``: its
bot stops.

The bot sees only its seat's view (DESK-11, :func:`bot_view`): the fold of that seat's
redacted stream (as :meth:`engine.service.GameService.state` computes it), and chooses among
that seat's legal commands (engine.bots).  Its choice is drawn from a generator seeded with
the game id, the log's head sequence number and the seat (:func:`bot_rng`), so the same log
gives the same choices again.  In a physical game the bot gives only its seat's own
decisions; the draws are still the referee's to report.
"""

from __future__ import annotations

import random

from ..entropy import Seating
from ..errors import DevilError
from . import commands, steps

#: the most bot commands played after one command (a game that never ends stops there)
MAX_BOT_COMMANDS = 20_000


def bot_rng(game: str, seq: int, seat: int) -> random.Random:
    """The generator a replaced seat's bot draws from when the log ends at record ``seq``."""
    return random.Random(f"replaced-seat|{game}|{seq}|{seat}")


def then_bots(service, path: steps.Steps) -> steps.Steps:
    """``path`` (a command's steps), then the replaced seats' bots (see the module doc); the
    answer is ``path``'s own."""
    result = yield from path
    loaded = getattr(result, "loaded", None)
    if loaded is not None and loaded.desk is not None and loaded.desk.replaced:
        yield from play_steps(service, result.game)
    return result


def due(service, loaded) -> list[tuple[int, list]]:
    """``[(seat, legal commands)]`` of the replaced seats that may act now (the game as
    ``loaded`` holds it), in seat order; ``[]`` once the game is over."""
    desk = loaded.desk
    if desk is None or not desk.replaced or type(loaded.state) is Seating \
            or loaded.rules.is_over(loaded.state):
        return []
    out = []
    for seat in sorted(desk.replaced):
        legal = [c for c in service.legal_of(loaded, seat)
                 if loaded.rules.acting_seat(loaded.state, c) == seat]
        if legal:
            out.append((seat, legal))
    return out


def bot_view(service, loaded, seat: int):
    """The state a replaced seat's bot decides from (DESK-11): the fold of that seat's own
    redacted stream, the very state the seat's token reads (GameService.state(game, seat)),
    never the referee's."""
    with service.cache.lock(loaded.game):
        return service.cache.fold_of(loaded, seat).state


def play_steps(service, game: str) -> steps.Steps:
    """Play every replaced seat of ``game`` that may act, one command at a time, until none
    may (at most :data:`MAX_BOT_COMMANDS`)."""
    from ..bots import make_bot

    for _ in range(MAX_BOT_COMMANDS):
        with service.cache.lock(game):
            loaded = service.cache.refresh(game)
        waiting = due(service, loaded)
        if not waiting:
            return
        seat, legal = waiting[0]
        name = loaded.desk.replaced[seat][0]
        view = bot_view(service, loaded, seat)
        bot = make_bot(loaded.header.kind, name, bot_rng(game, loaded.head.seq, seat))
        command = bot.choose(view, seat, legal)
        try:
            yield from commands.submit_steps(service, game, command, seat, None)
        except DevilError:  # refused (another writer moved the game on): the person's command
            return          # stands; the bot plays after the next command
