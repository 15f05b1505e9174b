"""Auf Teufel komm raus in bulk: ``devil simulate atkr`` (docs/tools.md), the kind's
subcommand of the shared ``simulate`` group (``devil play atkr`` is in client.games.atkr.play)."""

from __future__ import annotations

import click

from engine.games import PLAYERS

from ...context import local_service
from ...options import json_option
from ...output import emit
from .. import described

BOT_NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn"]


def simulate_games(service, players: int, games: int, bot: str, seed: int | None,
                   max_rounds: int, progress=None, durable: bool = False) -> dict:
    """Play ``games`` games of ``players`` bots of kind ``bot`` into ``service``'s store (each
    played in memory and written once when it ends, or command by command with ``durable``);
    the summary."""
    import random
    import time

    from engine.bots import make_bot
    from engine.games.atkr import events as ev
    from engine.simulate import play_game

    names = BOT_NAMES[:players]
    wins = {name: 0 for name in names}
    rounds, capped, finished, ids = [], 0, 0, []
    paid_out = taken_in = 0
    deficits = []
    event_count = 0
    started = time.perf_counter()
    for index in range(games):
        game_seed = None if seed is None else seed + index
        flow = {"out": 0, "in": 0}

        def on_events(events, flow=flow):
            for e in events:
                t = type(e)
                if t is ev.BetWon:
                    flow["out"] += e.win
                elif t is ev.PrizePaid:
                    flow["out"] += e.amount
                elif t is ev.PactPaid and e.payer == ev.BANK:
                    flow["out"] += e.amount
                elif t is ev.BetLost:
                    flow["in"] += e.stake

        base = random.Random(f"{seed}-{index}") if seed is not None else random.Random()
        bots = {s: make_bot("atkr", bot, random.Random(base.random())) for s in range(players)}
        result = play_game(service.store, "atkr", {"players": names}, bots, seed=game_seed,
                           max_rounds=max_rounds, durable=durable, on_events=on_events)
        state = result["state"]
        ids.append(result["game"])
        rounds.append(state.round)
        event_count += service.store.head(result["game"]).seq
        paid_out += flow["out"]
        taken_in += flow["in"]
        deficits.append(max(0, -state.bank_low))
        if result["capped"]:
            capped += 1
        if result["over"]:
            finished += 1
            for seat in state.winners:
                wins[names[seat]] += 1
        if progress is not None:
            progress(1)
    elapsed = time.perf_counter() - started
    n = max(1, games)
    return {
        "games": games, "players": players, "bot": bot, "seed": seed,
        "finished": finished, "capped": capped, "max_rounds": max_rounds,
        "average_rounds": round(sum(rounds) / n, 2),
        "events": event_count,
        "bank": {"paid_out_per_game": round(paid_out / n, 1),
                 "taken_in_per_game": round(taken_in / n, 1),
                 "net_per_game": round((taken_in - paid_out) / n, 1),
                 "max_deficit": max(deficits, default=0),
                 "average_max_deficit": round(sum(deficits) / n, 1)},
        "wins": wins,
        "win_share": {name: round(count / max(1, finished), 3) for name, count in wins.items()},
        "seconds": round(elapsed, 3),
        "out": service.store.location(),
        "game_ids": ids,
    }


@click.command("atkr")
@click.option("--players", type=click.IntRange(*PLAYERS["atkr"]), default=4, show_default=True)
@click.option("--games", type=click.IntRange(1), default=10, show_default=True)
@click.option("--bot", type=click.Choice(["random", "cautious"]), default="random",
              show_default=True, help="The bot at every seat.")
@click.option("--seed", type=click.IntRange(min=0),
              help="Game i uses seed S+i (and its bots are seeded from it): reproducible runs.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Record the games in this folder (default: the store).")
@click.option("--max-rounds", type=click.IntRange(1), default=500, show_default=True,
              help="A game still running after this many rounds is stopped (counted, and "
                   "marked stopped in the store).")
@click.option("--durable", is_flag=True, help="Write every command as it is played (one fsync "
              "each), as a real table does; default: play in memory, write each log once.")
@json_option
@click.pass_obj
@described("atkr")
def simulate_atkr(obj, players, games, bot, seed, out_dir, max_rounds, durable, as_json):
    """K recorded {title} games between bots, then a summary: average rounds,
    the bank's flow and how often each seat won.

    \b
    Example:
      devil simulate atkr --players 4 --games 50 --bot cautious --seed 1 --out runs/
    """
    import sys

    service = local_service(obj, out_dir)
    with click.progressbar(length=games, label=f"{games} games", file=sys.stderr) as bar:
        summary = simulate_games(service, players, games, bot, seed, max_rounds,
                                 progress=bar.update, durable=durable)
    if as_json:
        emit(summary)
        return
    click.echo(f"{summary['games']} games of {players} {bot} bots in {summary['out']} "
               f"({summary['seconds']} s)")
    click.echo(f"finished: {summary['finished']}; stopped at the {max_rounds}-round cap: "
               f"{summary['capped']}")
    click.echo(f"average rounds: {summary['average_rounds']}")
    bank = summary["bank"]
    click.echo(f"bank per game: paid out {bank['paid_out_per_game']}, took in "
               f"{bank['taken_in_per_game']}, net {bank['net_per_game']}; "
               f"largest deficit {bank['max_deficit']}")
    click.echo("wins by seat: " + ", ".join(
        f"{name} {count} ({summary['win_share'][name]:.0%})"
        for name, count in summary["wins"].items()))
