"""A whole tournament played by bots, for rehearsals and load (``devil tournament simulate``).

Registers N bot players, pairs every round, plays every table with bots (in memory, each
finished log written to the store once: engine.simulate.play_game), attaches each game
(checked as any referee's log is) and closes the round.  A game the bots do not finish within
the turn cap is played again (up to 5 times; the stopped one stays in the store, marked).  With
a ``seed`` everything is reproducible: the tournament's draws, the bots' choices and the games'
chance.
"""

from __future__ import annotations

import random
import time
from typing import Callable

from ..bots import bot_names, make_bot
from ..simulate import play_game
from .organiser import Organiser


def simulate(service, kind: str, players: int, rounds: int, *, seed: int | None = None,
             table_size: tuple[int, int] | None = None, options: dict | None = None,
             progress: Callable[[str], None] | None = None) -> dict:
    """Run a bots' tournament; returns ``{"tournament", "pair_seconds": [per round],
    "play_seconds", "games", "standings_seconds"}``.  Raises UsageError for bad settings."""
    rng = random.Random(seed)
    organiser = Organiser(service)
    kinds = bot_names(kind)
    names = [f"Bot{i + 1:03d}" for i in range(players)]
    low, high = table_size or (4, 5)
    tournament = organiser.create({"name": f"simulated {players} players", "game": kind,
                                   "options": dict(options or {}), "table_size": [low, high],
                                   "rounds": rounds, "players": names,
                                   "seed": rng.randrange(2**63) if seed is not None else None})
    styles = {name: kinds[rng.randrange(len(kinds))] for name in names}
    pair_seconds = []
    games = 0
    started = time.perf_counter()
    for round_ in range(1, rounds + 1):
        t0 = time.perf_counter()
        paired = organiser.pair(tournament, games=False)
        pair_seconds.append(time.perf_counter() - t0)
        for row in paired["tables"]:
            bots = {seat: make_bot(kind, styles[name], random.Random(rng.randrange(2**32)))
                    for seat, name in enumerate(row["players"])}
            game_options = {k: v for k, v in organiser.state(tournament).created.options.items()
                            if k != "physical"}
            game_options.update(players=row["players"], first=row["first"])
            for _attempt in range(5):  # a game stopped by the turn cap is played again
                played = play_game(service.store, kind, game_options, bots,
                                   seed=rng.randrange(2**63) if seed is not None else None)
                if not played["capped"]:
                    break
            organiser.attach(tournament, played["game"], table=row["table"])
            games += 1
        organiser.close_round(tournament)
        if progress is not None:
            progress(f"round {round_} of {rounds}: {len(paired['tables'])} tables, "
                     f"{len(paired['byes'])} byes, {paired['repeats']} repeated pairs")
    play_seconds = time.perf_counter() - started - sum(pair_seconds)
    t0 = time.perf_counter()
    organiser.standings(tournament)
    standings_seconds = time.perf_counter() - t0
    return {"tournament": tournament, "pair_seconds": pair_seconds, "games": games,
            "play_seconds": play_seconds, "standings_seconds": standings_seconds}
