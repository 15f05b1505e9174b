"""Self-play benchmark: full 4-player games per second with random bots, through
GameService.submit (every command durable: fsync), and, for reference, the same bots on the
pure decider in memory (no log).

    python -m benchmarks.bench_selfplay [--games 20]

Ends with one JSON line of the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import tempfile
import time

from engine.bots import make_bot, play_out
from engine.service import GameService
from engine.store import FileStore

from .archive import play_game


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args(argv)
    directory = tempfile.mkdtemp(prefix="devil-selfplay-", dir=os.environ.get("DEVIL_BENCH_DIR"))
    try:
        service = GameService(FileStore(directory))
        commands = 0
        started = time.perf_counter()
        for index in range(args.games):
            game = service.create("atkr", {"players": ["Anna", "Ben", "Cleo", "Dan"]},
                                  seed=index + 1).game
            bots = {s: make_bot("atkr", "random", random.Random(index * 10 + s))
                    for s in range(4)}
            result = play_out(service, game, bots)
            assert result["over"]
            commands += result["commands"]
        recorded = time.perf_counter() - started
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    started = time.perf_counter()
    for index in range(args.games):
        play_game(index + 1)
    memory = time.perf_counter() - started
    rate = args.games / recorded
    print(f"recorded through the service: {rate:6.2f} games/s "
          f"({commands / args.games:.0f} commands per game, {commands / recorded:.0f} commands/s)")
    print(f"in memory (decide + evolve only): {args.games / memory:6.1f} games/s")
    print(json.dumps({"benchmark": "selfplay", "games": args.games,
                      "games_per_s": round(rate, 2),
                      "commands_per_game": round(commands / args.games, 1),
                      "in_memory_games_per_s": round(args.games / memory, 1),
                      "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
                                 f"Python {platform.python_version()}"}))


if __name__ == "__main__":
    main()
