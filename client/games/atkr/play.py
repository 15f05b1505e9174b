"""Auf Teufel komm raus at one terminal: ``devil play atkr`` (docs/tools.md), the kind's
subcommand of the shared ``play`` group."""

from __future__ import annotations

import click

from ...context import local_service
from ...options import game_value, json_option, parse_bots, reporter_option
from ...output import emit
from .. import described


@click.command("atkr")
@click.option("--player", "players", multiple=True, metavar="NAME",
              help="A person at the keyboard (repeat; seat order).")
@click.option("--bot", "bot_specs", multiple=True, metavar="NAME=KIND",
              help="A bot seat, e.g. --bot Rex=cautious (kinds: random, cautious). A bot named "
                   "by --player too sits in that seat; others sit after the people.  With "
                   "--resume: make that seat a bot from now on.")
@click.option("--first", metavar="NAME", help="Start player of round 1 (default: drawn).")
@click.option("--seed", type=click.IntRange(min=0), help="Fix the furnace's seed (and the bots').")
@click.option("--max-rounds", type=click.IntRange(1), default=500, show_default=True,
              help="Stop a game that has not ended after this many rounds.")
@click.option("--resume", "resume_game", metavar="GAME", callback=game_value,
              help="Continue an interrupted game from the store, with the people and bots it "
                   "was started with (a game made by `devil new`: every seat a person).")
@reporter_option
@json_option
@click.pass_obj
@described("atkr")
def play_atkr(obj, players, bot_specs, first, seed, max_rounds, resume_game, reporter,
              as_json):
    """{title} at one terminal.

    People take turns at the keyboard: between two people the screen is cleared and the
    program waits ("Pass the terminal to Ben, then press Enter"); secret bets are typed
    hidden.  Bots play through the same commands.  Shown as it goes: the devil odds in the
    furnace, totals, payouts.  The game is recorded in the store like any other; Ctrl-C keeps
    it: `devil play --resume GAME`.  A physical game (made by `devil new atkr --physical`)
    asks for each coal drawn; --reporter (or env DEVIL_REFEREE) names who reports them.

    \b
    Examples:
      devil play atkr --player Anna --player Ben --bot Rex=cautious --bot Zed=random
      devil play --resume atkr-k3f9qz
      devil play --resume atkr-k3f9qz --reporter Rita     (a physical game)
    """
    import random

    from engine.bots import Table, make_bot
    from engine.errors import UsageError
    from engine.game import REFEREE

    from ...play import (Session, new_game_reporter, resume_announced, session_reporter,
                         start)
    from . import render

    bots = parse_bots(bot_specs)
    service = local_service(obj)
    if resume_game is not None:
        game, people, bots, seed, history, rng = resume_announced(
            service, "atkr", resume_game, bots, bool(players or first or seed is not None))
    else:
        new_game_reporter(reporter)
        seats = list(players) + [name for name in bots if name not in players]
        if len(seats) < 2:
            raise UsageError("a game needs at least two players (--player / --bot)")
        people = [name for name in seats if name not in bots]
        bots = {name: kind for name, kind in bots.items() if name in seats}
        loaded = start(service, "atkr", {"players": seats, "first": first}, seed, people, bots)
        game, history = loaded.game, []
        rng = random.Random(seed)
        click.echo(f"Game {game} ({service.store.location(game)})")
    table = Table(service, game)
    robots = {seat: make_bot("atkr", bots[name], random.Random(rng.random()))
              for seat, name in enumerate(table.names) if name in bots}
    session = Session(table, people, robots, render, history,
                      session_reporter(table, reporter))
    if not history:
        session.record(list(service.load(game).events))
    over = session.play(_human_turn, max_rounds)
    if over:
        click.echo(render.table({"game": game, "version": table.events,
                                 **table.rules.view(table.referee, REFEREE)}))
    if as_json:  # the last line: the result, for scripts (the transcript above stays text)
        emit({"game": game, "path": service.store.location(game), "events": table.events,
              "over": bool(over)})
        return
    click.echo(f"Recorded in {service.store.location(game)} ({table.events} events).")


def _odds(state) -> str:
    from engine.games.atkr.bots import devil_chance
    from engine.games.atkr.events import DEVIL
    from engine.games.atkr.state import KIND_INDEX

    left = sum(state.furnace)
    devils = state.furnace[KIND_INDEX[DEVIL]]
    return (f"furnace: {left} coals, {devils} devils: {devil_chance(state.furnace):.0%} chance "
            f"of a devil on the next draw")


def _human_turn(session, seat: int, legal: list) -> None:
    """One decision of the person at ``seat`` (client.play.Session calls it): a hidden bet,
    or draw / stop."""
    from engine.errors import IllegalCommand
    from engine.games.atkr.commands import Bet, Draw, Stop

    from ...play import secret_prompt
    from . import render

    table = session.table
    name = session.names[seat]
    session.hand_to(seat)
    while True:
        state = table.states[seat]
        view = {"game": table.game, "version": table.events, **table.rules.view(state, seat)}
        try:
            if type(legal[0]) is Bet:
                click.echo(f"\n{name}: your bet ({_odds(state)}). You have {state.money[seat]}.")
                amount = secret_prompt(f"{name}, your secret bet (0 to {state.money[seat]}, "
                                       "a multiple of 10; typed hidden)", type=int)
                session.submit(seat, Bet(name, amount))
                return
            click.echo("")
            click.echo(render.table(view, name))
            totals = ", ".join(f"{p['name']} {p['total']}" for p in view["players"])
            click.echo(f"{_odds(state)}; totals: {totals}")
            can_stop = any(type(c) is Stop for c in legal)
            choice = click.prompt(f"{name}: draw or stop?" if can_stop else
                                  f"{name}: draw your first coal", type=click.Choice(
                                      ["d", "s"] if can_stop else ["d"]), default="d")
            if choice == "s":
                session.submit(seat, Stop(name))
                return
            draws = [c for c in legal if type(c) is Draw]
            if state.physical:
                coal = click.prompt("coal drawn (10, 20, 25, 50, 75, 100 or devil)")
                session.submit(seat, Draw(name, 0 if coal == "devil" else int(coal),
                                          session.reporter))
                return
            session.submit(seat, draws[0])
            return
        except (IllegalCommand, ValueError) as exc:
            click.echo(f"refused: {exc}")


# -- simulate ----------------------------------------------------------------------------------
