"""A large archive of recorded games for the benchmarks: random 4-player atkr games played in
memory through ``decide`` (the same events the service records) and written as .devlog files
with the real encoder (``engine.log.encode_header`` / ``encode_records``), without an fsync per
command.  The archive is cached under ``$DEVIL_BENCH_DIR`` (default: /tmp/devil-bench)."""

from __future__ import annotations

import os
import random
import time

from engine.chance import SeededChance
from engine.games.atkr import RULES
from engine.games.atkr.bots import RandomBot
from engine.log import encode_header, encode_records

NAMES = ["Anna", "Ben", "Cleo", "Dan"]
BENCH_DIR = os.environ.get("DEVIL_BENCH_DIR", "/tmp/devil-bench")


def play_game(seed: int, players: int = 4, max_rounds: int = 500):
    """``[(actor, [event maps])]`` of one finished random-bot game, command by command."""
    chance = SeededChance(seed, f"{seed:032x}")
    to_map = RULES.events.to_map
    events = RULES.setup({"players": NAMES[:players]}, chance)
    state = RULES.fold(events)
    commands = [(-1, [to_map(e) for e in events])]
    bots = [RandomBot(random.Random(seed * 10 + s)) for s in range(players)]
    while not RULES.is_over(state) and state.round <= max_rounds:
        for seat in range(players):
            legal = RULES.legal_commands(state, seat)
            if not legal:
                continue
            produced = RULES.decide(state, bots[seat].choose(state, seat, legal), chance)
            for event in produced:
                RULES.evolve(state, event)
            commands.append((seat, [to_map(e) for e in produced]))
            if RULES.is_over(state):
                break
    return commands


def game_bytes(game: str, commands, created: int = 1_700_000_000_000, step_ms: int = 900):
    """The .devlog bytes of a game: header, then each command's records (``ts`` grows by
    ``step_ms`` per command, about a real table's pace)."""
    out = bytearray(encode_header("atkr", game, created))
    link = bytes(out[-8:])
    seq = 1
    for index, (actor, maps) in enumerate(commands):
        data, links = encode_records(link, seq, actor, None, index * step_ms, maps)
        out += data
        link = links[-1]
        seq += len(maps)
    return bytes(out)


def build(min_events: int = 1_000_000, directory: str | None = None, verbose: bool = True
          ) -> tuple[str, int, int]:
    """``(directory, games, events)`` of an archive of at least ``min_events`` events."""
    directory = directory or os.path.join(BENCH_DIR, f"archive-{min_events}")
    marker = os.path.join(directory, "DONE")
    if os.path.exists(marker):
        games, events = map(int, open(marker).read().split())
        return directory, games, events
    os.makedirs(directory, exist_ok=True)
    started = time.perf_counter()
    events = games = 0
    while events < min_events:
        commands = play_game(games + 1)
        game = f"atkr-b{games:05d}"
        with open(os.path.join(directory, f"{game}.devlog"), "wb") as handle:
            handle.write(game_bytes(game, commands))
        events += sum(len(m) for _, m in commands)
        games += 1
        if verbose and games % 200 == 0:
            print(f"  archive: {games} games, {events} events "
                  f"({time.perf_counter() - started:.0f} s)", flush=True)
    with open(marker, "w") as handle:
        handle.write(f"{games} {events}")
    return directory, games, events
