"""Append benchmark: durable commands per second through GameService.submit (lock, fold,
decide, append, fsync) beside the eventsourcing library's SQLite recorder saving one event
per transaction.  Target: at least as fast.

    python -m benchmarks.bench_append [--commands 600]

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

from engine.bots import Table, make_bot
from engine.service import GameService
from engine.store import FileStore


def ours(commands: int, directory: str) -> tuple[float, int]:
    """Seconds for ``commands`` durable commands (random bots, new 4-player games as needed)."""
    service = GameService(FileStore(directory))
    done = 0
    elapsed = 0.0
    seed = 0
    while done < commands:
        seed += 1
        game = service.create("atkr", {"players": ["Anna", "Ben", "Cleo", "Dan"]}, seed=seed).game
        table = Table(service, game)
        bots = [make_bot("atkr", "random", random.Random(seed * 10 + s)) for s in range(4)]
        while not table.over() and done < commands:
            for seat in range(4):
                legal = table.legal(seat)
                if not legal or done >= commands:
                    continue
                command = bots[seat].choose(table.states[seat], seat, legal)
                started = time.perf_counter()
                result = service.submit(game, command, actor=seat)
                elapsed += time.perf_counter() - started
                table.apply(result.events)
                done += 1
                if table.over():
                    break
    return elapsed, done


def theirs(commands: int, directory: str) -> float:
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class Game(Aggregate):
        @event("CoalDrawnFact")
        def coal_drawn(self, seat: int, coal: int):
            self.draws = getattr(self, "draws", 0) + 1

    path = os.path.join(directory, "es.sqlite")
    app = Application(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path})
    game = Game()
    app.save(game)
    started = time.perf_counter()
    for i in range(commands):
        game.coal_drawn(seat=i % 4, coal=25)
        app.save(game)  # one event, one transaction
    return time.perf_counter() - started


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=600)
    args = parser.parse_args(argv)
    directory = tempfile.mkdtemp(prefix="devil-append-", dir=os.environ.get("DEVIL_BENCH_DIR"))
    try:
        t_ours, n = ours(args.commands, os.path.join(directory, "store"))
        t_es = theirs(args.commands, directory)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    ours_rate, es_rate = n / t_ours, args.commands / t_es
    print(f"devil GameService.submit (decide + append + fsync): {ours_rate:8.0f} commands/s")
    print(f"eventsourcing 9.5.6 SQLite, one event per transaction: {es_rate:8.0f} saves/s")
    print(f"ratio {ours_rate / es_rate:.2f} (target >= 1)")
    print(json.dumps({"benchmark": "append", "commands": n,
                      "ours_per_s": round(ours_rate, 1), "eventsourcing_per_s": round(es_rate, 1),
                      "ours_over_eventsourcing": round(ours_rate / es_rate, 2),
                      "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
                                 f"Python {platform.python_version()}"}))


if __name__ == "__main__":
    main()
