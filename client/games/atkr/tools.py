"""Auf Teufel komm raus at one terminal and in bulk: ``devil play atkr`` and
``devil simulate atkr`` (docs/tools.md)."""

from __future__ import annotations

import click

from engine.games import PLAYERS

from ...common import emit, json_option, local_service, parse_bots
from .. import described

BOT_PEOPLE = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn"]


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
@click.option("--resume", "resume_game", metavar="GAME",
              help="Continue an interrupted game from the store, with the people and bots it "
                   "was started with (a game made by `devil new`: every seat a person).")
@json_option
@click.pass_obj
@described("atkr")
def play_atkr(obj, players, bot_specs, first, seed, max_rounds, resume_game, as_json):
    """{title} at one terminal.

    People take turns at the keyboard: between two people the screen is cleared and the
    program waits ("Pass the terminal to Ben, then press Enter"); secret bets are typed
    hidden.  Bots play through the same commands.  Shown as it goes: the devil odds in the
    furnace, totals, payouts.  The game is recorded in the store like any other; Ctrl-C keeps
    it: `devil play --resume GAME`.

    \b
    Examples:
      devil play atkr --player Anna --player Ben --bot Rex=cautious --bot Zed=random
      devil play --resume atkr-k3f9qz
    """
    import random

    from engine.bots import Table, make_bot
    from engine.errors import UsageError
    from engine.game import REFEREE

    from ...play import Session, resume_announced, start
    from . import render

    bots = parse_bots(bot_specs)
    service = local_service(obj)
    if resume_game is not None:
        game, people, bots, seed, history, rng = resume_announced(
            service, "atkr", resume_game, bots, bool(players or first or seed is not None))
    else:
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
    session = Session(table, people, robots, render, history)
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
                session.submit(seat, Draw(name, 0 if coal == "devil" else int(coal)))
                return
            session.submit(seat, draws[0])
            return
        except (IllegalCommand, ValueError) as exc:
            click.echo(f"refused: {exc}")


# -- simulate ----------------------------------------------------------------------------------
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

    names = BOT_PEOPLE[:players]
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
