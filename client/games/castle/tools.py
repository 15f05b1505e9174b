"""Castle of the Devil at the table and in bulk: `devil play castle` and `devil simulate castle`.
They are the kind's subcommands of the shared `play` and `simulate` groups."""

from __future__ import annotations

import click

from ...common import emit, json_option, local_service, parse_bots, public_event

BOT_NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gina", "Hugo", "Ida", "Jon"]


def simulate_castle_games(service, players: int, games: int, bot: str, seed: int | None,
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
@click.option("--players", type=click.IntRange(3, 10), default=6, show_default=True)
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
def simulate_castle(obj, players, games, bot, seed, out_dir, max_rounds, durable, as_json):
    """K recorded Castle of the Devil games between bots, then a summary: how many ended by a
    declaration (and were right), how many hit the turn cap, who won.

    \b
    Example:
      devil simulate castle --players 7 --games 20 --bot sensible --seed 1 --out runs/
    """
    import sys

    service = local_service(obj, out_dir)
    with click.progressbar(length=games, label=f"{games} games", file=sys.stderr) as bar:
        summary = simulate_castle_games(service, players, games, bot, seed, max_rounds,
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


def command_text(command: dict) -> str:
    """A command map as a short menu line: ``trade item=dagger-1 to=Ben``."""
    fields = " ".join(f"{key}={value}" for key, value in command.items()
                      if key not in ("type", "player") and value not in (None, False, [], ""))
    return f"{command['type']} {fields}".rstrip()


@click.command("castle")
@click.option("--player", "players", multiple=True, metavar="NAME",
              help="A person at the keyboard (repeat; seat order).")
@click.option("--bot", "bot_specs", multiple=True, metavar="NAME=KIND",
              help="A bot seat, e.g. --bot Rex=sensible (kinds: random, sensible); bots sit "
                   "after the people.")
@click.option("--first", metavar="NAME", help="Start player (default: drawn).")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), help="Fix the deal's seed (and the "
              "bots'); reproducible, so predictable to anyone who knows it.")
@click.option("--variant", "variants", multiple=True,
              type=click.Choice(["smuggling", "prophecy", "scoring"]),
              help="A variant (CASTLE-10), repeatable.")
@click.option("--beginner", is_flag=True, help="The beginner game (CASTLE-2.6).")
@click.option("--max-rounds", type=click.IntRange(1), default=60, show_default=True,
              help="Stop a game that has not ended after this many rounds.")
@json_option
@click.pass_obj
def play_castle(obj, players, bot_specs, first, seed, variants, beginner, max_rounds,
                as_json):
    """Castle of the Devil at one terminal: people and bots mixed.

    When a person must act, the screen names them ("Ben, your move: the others look away"),
    shows the table as Ben knows it and numbers what Ben may do; type the number.  Everything
    that happens is shown as the whole table sees it.  Recorded in the store like any game.

    \b
    Example:
      devil play castle --player Ann --bot Ben=sensible --bot Cid=sensible --bot Dora=random
    """
    import random

    from engine.bots import Table, make_bot
    from engine.errors import IllegalCommand, UsageError
    from engine.game import REFEREE

    from . import render

    bots = parse_bots(bot_specs)
    seats = list(players) + [name for name in bots if name not in players]
    if not 3 <= len(seats) <= 10:
        raise UsageError(f"Castle of the Devil takes 3 to 10 players, not {len(seats)} "
                         "(--player / --bot)")
    service = local_service(obj)
    options = {"players": seats, "first": first, "variants": list(variants),
               "beginner": beginner}
    loaded = service.create("castle", options, seed=seed)
    game = loaded.game
    rng = random.Random(seed)
    robots = {seat: make_bot("castle", bots[name], random.Random(rng.random()))
              for seat, name in enumerate(seats) if name in bots and name not in players}
    click.echo(f"Game {game} ({service.store.location(game)})")
    table = Table(service, game)
    for event in loaded.events:
        click.echo("  " + render.describe(public_event(table, event), seats))
    while not table.over():
        if getattr(table.referee, "round", 0) > max_rounds:
            click.echo(f"Stopped after {max_rounds} rounds (--max-rounds); the game is not over.")
            break
        waiting = table.waiting()
        if not waiting:  # pragma: no cover - a decider always waits for someone
            break
        seat = waiting[0]
        legal = table.legal(seat)
        if seat in robots:
            events = table.submit(seat, robots[seat].choose(table.states[seat], seat, legal))
        else:
            events = _castle_human(table, seat, seats[seat], legal, render, IllegalCommand)
        for event in events:
            click.echo("  " + render.describe(public_event(table, event), seats))
    view = {"game": game, "version": table.events, **table.rules.view(table.referee, REFEREE)}
    if table.over():
        click.echo(render.table(view, None))
    if as_json:  # the last line: the result, for scripts (the transcript above stays text)
        emit({"game": game, "path": service.store.location(game), "events": table.events,
              "over": bool(table.over())})
        return
    click.echo(f"Recorded in {service.store.location(game)} ({table.events} events).")


def _castle_human(table, seat: int, name: str, legal: list, render, refused) -> list:
    """One decision of a person at the keyboard: their table, a numbered menu, a choice."""
    to_map = table.rules.commands.to_map
    maps = [to_map(command) for command in legal]
    click.echo(f"\n=== {name}, your move: the others look away ===")
    view = {"game": table.game, "version": table.events,
            **table.rules.view(table.states[seat], seat)}
    click.echo(render.table(view, name))
    for number, command in enumerate(maps, 1):
        click.echo(f"  {number:>3}  {command_text(command)}")
    while True:
        number = click.prompt(f"{name}, your choice", type=click.IntRange(1, len(maps)))
        try:
            return table.submit(seat, legal[number - 1])
        except refused as exc:  # pragma: no cover - legal commands are accepted
            click.echo(f"refused: {exc}")
