"""Castle of the Devil in bulk: ``devil simulate castle`` (docs/tools.md), the kind's
subcommand of the shared ``simulate`` group (``devil play castle`` is in
client.games.castle.play)."""

from __future__ import annotations

import click

from engine.games import PLAYERS

from ...context import local_service
from ...options import json_option
from ...output import emit
from .. import described

BOT_NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gina", "Hugo", "Ida", "Jon"]


def simulate_games(service, players: int, games: int, bot: str, seed: int | None,
                          max_rounds: int, progress=None, durable: bool = False) -> dict:
    """Play ``games`` recorded castle games of ``players`` bots of kind ``bot`` in ``service``
    (``engine.simulate.play_game``: in memory, each log written once, or command by command
    with ``durable``; capped at ``max_rounds`` rounds of turns); the summary map:
    ``games, finished, declared, right, capped, average_turns, wins`` (order / brotherhood /
    coat-of-arms), ``game_ids``."""
    import random
    import time

    from engine.bots import make_bot
    from engine.simulate import play_game

    names = BOT_NAMES[:players]
    declared = right = capped = 0
    wins = {"order": 0, "brotherhood": 0, "coat-of-arms": 0}
    turns, ids = [], []
    started = time.perf_counter()
    for index in range(games):
        game_seed = None if seed is None else seed + index
        base = random.Random(f"{seed}-{index}") if seed is not None else random.Random()
        bots = {s: make_bot("castle", bot, random.Random(base.random())) for s in range(players)}
        result = play_game(service.store, "castle", {"players": names}, bots, seed=game_seed,
                           max_rounds=max_rounds, durable=durable)
        state = result["state"]
        ids.append(result["game"])
        turns.append(state.turn)
        capped += bool(result["capped"])
        if state.declaration is not None:
            declared += 1
            right += bool(state.declaration["right"])
            society = state.declaration["winning_society"]
            wins[society or "coat-of-arms"] += 1
        if progress is not None:
            progress(1)
    n = max(1, games)
    return {"games": games, "players": players, "bot": bot, "seed": seed,
            "finished": declared, "declared": declared, "right": right, "capped": capped,
            "declared_share": round(declared / n, 3), "max_rounds": max_rounds,
            "average_turns": round(sum(turns) / n, 1), "wins": wins,
            "seconds": round(time.perf_counter() - started, 3), "out": service.store.location(),
            "game_ids": ids}


@click.command("castle")
@click.option("--players", type=click.IntRange(*PLAYERS["castle"]), default=6, show_default=True)
@click.option("--games", type=click.IntRange(1), default=10, show_default=True)
@click.option("--bot", type=click.Choice(["random", "sensible"]), default="sensible",
              show_default=True, help="The bot at every seat.")
@click.option("--seed", type=click.IntRange(min=0),
              help="Game i uses seed S+i (its bots are seeded from it): reproducible runs.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Record the games in this folder (default: the store).")
@click.option("--max-rounds", type=click.IntRange(1), default=60, show_default=True,
              help="Stop a game still running after this many rounds of turns (counted as "
                   "capped, and marked stopped in the store): random bots may never declare.")
@click.option("--durable", is_flag=True, help="Write every command as it is played (one fsync "
              "each), as a real table does; default: play in memory, write each log once.")
@json_option
@click.pass_obj
@described("castle")
def simulate_castle(obj, players, games, bot, seed, out_dir, max_rounds, durable, as_json):
    """K recorded {title} games between bots, then a summary: how many ended by a
    declaration (and were right), how many hit the turn cap, who won.

    \b
    Example:
      devil simulate castle --players 7 --games 20 --bot sensible --seed 1 --out runs/
    """
    import sys

    service = local_service(obj, out_dir)
    with click.progressbar(length=games, label=f"{games} games", file=sys.stderr) as bar:
        summary = simulate_games(service, players, games, bot, seed, max_rounds,
                                        progress=bar.update, durable=durable)
    if as_json:
        emit(summary)
        return
    click.echo(f"{games} castle games of {players} {bot} bots in {summary['out']} "
               f"({summary['seconds']} s)")
    click.echo(f"ended by a declaration: {summary['declared']} ({summary['declared_share']:.0%}),"
               f" right: {summary['right']}; capped at {max_rounds} rounds: {summary['capped']}")
    click.echo(f"average turns: {summary['average_turns']}; wins: " +
               ", ".join(f"{k} {v}" for k, v in summary["wins"].items()))
