"""Self-play benchmark: whole bot games per second, side by side in one run.

    python -m benchmarks.bench_selfplay [--games 100] [--rounds 3] [--durable-games 10]
                                        [--before DIR]

* **simulate (memory)**: ``devil simulate atkr --players 4`` as the command plays it
  (``client.games.atkr.simulate.simulate_games``, random bots, its summary's bank flow
  included) into a MemoryStore: engine.simulate's loop, each log encoded once and imported;
* **simulate (files)**: the same into a FileStore in a temporary folder (the command's
  default: each finished log written and fsynced once, and sealed);
* **bare decider**: the same games (the same seeds, the same bots seeded the same way, so the
  same coals and the same choices: checked by their command counts) played on the rules alone:
  ``legal_commands`` (every bet object), ``decide``, ``evolve`` of every event on the one
  state and each event's map (``to_map``), as ``benchmarks.archive.play_game`` does; no log;
* **through the service (memory)**: the loop ``devil simulate`` used before engine.simulate
  played on one fold (``engine.bots.play_out`` through ``GameService.submit`` on a MemoryStore:
  every seat's fold, a state copy and an encoding per command), the same games;
* **recorded (durable)**: ``play_out`` on a FileStore, every command fsynced;
* **before** (``--before DIR``: another tree of this project, e.g. ``git archive`` of an older
  commit unpacked in DIR): that tree's ``simulate_games`` into a MemoryStore, the same games,
  timed inside a child process (``PYTHONPATH=DIR``) in each round between the others.

The first three and the fourth alternate, ``--rounds`` times each, so the machine's load falls
on all of them alike; the figures are the totals over the rounds.  Castle of the Devil (6
sensible bots) is measured the same way (simulate against the service's loop).  Ends with one
JSON line of the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time

from engine.bots import make_bot, play_out
from engine.service import GameService
from engine.store import FileStore, MemoryStore

NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn"]
SEED = 1000


def _bots(kind: str, bot: str, seed: int, index: int, players: int) -> dict:
    """The bots ``simulate_games`` gives game ``index`` of a run seeded ``seed``."""
    base = random.Random(f"{seed}-{index}")
    return {s: make_bot(kind, bot, random.Random(base.random())) for s in range(players)}


def bare_game(seed: int, index: int, players: int = 4) -> int:
    """Game ``index`` of ``simulate_games(..., seed)`` on the decider alone; its command count."""
    from engine.chance import SeededChance
    from engine.games.atkr import RULES

    chance = SeededChance(seed + index, "ab" * 16)  # draws derive from the seed, not the salt
    to_map = RULES.events.to_map
    options = {"players": NAMES[:players], "seed_chosen": True}
    state = RULES.fold(RULES.setup(options, chance))
    bots = _bots("atkr", "random", seed, index, players)
    commands = 0
    while not RULES.is_over(state) and state.round <= 500:
        for seat in range(players):
            legal = RULES.legal_commands(state, seat)
            if not legal:
                continue
            produced = RULES.decide(state, bots[seat].choose(state, seat, legal), chance)
            state = RULES.fold(produced, state)
            [to_map(e) for e in produced]
            commands += 1
            if RULES.is_over(state):
                break
    return commands


def service_game(service, kind: str, bot: str, seed: int, index: int, players: int) -> int:
    """Game ``index`` through ``GameService.submit`` (engine.bots.play_out); its commands."""
    game = service.create(kind, {"players": NAMES[:players] if kind == "atkr" else
                                 [f"P{i}" for i in range(players)]}, seed=seed + index).game
    result = play_out(service, game, _bots(kind, bot, seed, index, players),
                      max_rounds=500 if kind == "atkr" else 60)
    return result["commands"]


_BEFORE = """
import json, sys, time
from engine.service import GameService
from engine.store import MemoryStore
from client.games.atkr.simulate import simulate_games
games, seed = int(sys.argv[1]), int(sys.argv[2])
started, cpu = time.perf_counter(), time.process_time()
summary = simulate_games(GameService(MemoryStore(), sign=False), 4, games, "random", seed, 500)
print(json.dumps({"seconds": time.perf_counter() - started, "cpu": time.process_time() - cpu,
                  "events": summary["events"]}))
"""


def before(tree: str, games: int, seed: int) -> dict:
    """``{"seconds", "cpu", "events"}`` of ``simulate_games`` in the tree at ``tree`` (a child)."""
    env = {**os.environ, "PYTHONPATH": os.path.abspath(tree)}
    done = subprocess.run([sys.executable, "-c", _BEFORE, str(games), str(seed)], env=env,
                          cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def _now() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def _add(seconds: dict, cpu: dict, way: str, started: tuple[float, float]) -> None:
    """Add the wall and CPU seconds since ``started`` (:func:`_now`) to ``way``'s."""
    seconds[way] += time.perf_counter() - started[0]
    cpu[way] += time.process_time() - started[1]


def main(argv=None):
    from client.games.atkr.simulate import simulate_games
    from client.games.castle.simulate import simulate_games as simulate_castle

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per round and way")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--durable-games", type=int, default=10,
                        help="games recorded with an fsync per command (0: skip)")
    parser.add_argument("--before", metavar="DIR",
                        help="another tree whose devil simulate to time beside this one's")
    args = parser.parse_args(argv)
    bench_dir = os.environ.get("DEVIL_BENCH_DIR")
    cpu = {way: 0.0 for way in ("memory", "files", "bare", "service", "castle",
                                 "castle_service", "before")}
    seconds = {"memory": 0.0, "files": 0.0, "bare": 0.0, "service": 0.0,
               "castle": 0.0, "castle_service": 0.0, "before": 0.0}
    commands = {"bare": 0, "service": 0}
    events = 0
    castle_games = max(1, args.games // 5)
    for round_ in range(args.rounds):
        seed = SEED + round_ * args.games
        started = _now()
        summary = simulate_games(GameService(MemoryStore(), sign=False), 4, args.games,
                                 "random", seed, 500)
        _add(seconds, cpu, "memory", started)
        assert summary["finished"] == args.games
        events += summary["events"]

        started = _now()
        for index in range(args.games):
            commands["bare"] += bare_game(seed, index)
        _add(seconds, cpu, "bare", started)

        directory = tempfile.mkdtemp(prefix="devil-selfplay-", dir=bench_dir)
        try:
            store = FileStore(directory)
            started = _now()
            simulate_games(GameService(store), 4, args.games, "random", seed, 500)
            _add(seconds, cpu, "files", started)
        finally:
            shutil.rmtree(directory, ignore_errors=True)

        service = GameService(MemoryStore(), sign=False)
        started = _now()
        for index in range(args.games):
            commands["service"] += service_game(service, "atkr", "random", seed, index, 4)
        _add(seconds, cpu, "service", started)

        if args.before:
            old = before(args.before, args.games, seed)
            assert old["events"] == summary["events"], "the other tree played other games"
            seconds["before"] += old["seconds"]
            cpu["before"] += old["cpu"]

        started = _now()
        simulate_castle(GameService(MemoryStore(), sign=False), 6, castle_games, "sensible",
                        seed, 60)
        _add(seconds, cpu, "castle", started)
        service = GameService(MemoryStore(), sign=False)
        started = _now()
        for index in range(castle_games):
            service_game(service, "castle", "sensible", seed, index, 6)
        _add(seconds, cpu, "castle_service", started)
    assert commands["bare"] == commands["service"], "the bare decider played other games"

    total = args.games * args.rounds
    def rates(spent_by_way: dict) -> dict:
        return {way: (castle_games * args.rounds if way.startswith("castle") else total) / spent
                for way, spent in spent_by_way.items() if spent}

    rate, by_cpu = rates(seconds), rates(cpu)
    per_game = commands["bare"] / total
    print(f"{args.rounds} rounds of {args.games} 4-player random-bot atkr games "
          f"({per_game:.0f} commands, {events / total:.0f} events a game), alternating; "
          "games/s by the wall clock (by the process's CPU time):")

    def line(label: str, way: str, note: str = "") -> None:
        print(f"  {label:<34} {rate[way]:6.1f} ({by_cpu[way]:6.1f}) games/s{note}")

    line("devil simulate, in memory", "memory",
         f"  {rate['memory'] / rate['bare']:.2f}x ({by_cpu['memory'] / by_cpu['bare']:.2f}x) "
         "the bare decider")
    line("devil simulate, into a FileStore", "files")
    line("the bare decider, the same games", "bare")
    line("through GameService.submit", "service",
         f"  simulate is {rate['memory'] / rate['service']:.1f}x "
         f"({by_cpu['memory'] / by_cpu['service']:.1f}x) faster")
    if args.before:
        line(f"devil simulate of {args.before}", "before",
             f"  this tree's is {rate['memory'] / rate['before']:.1f}x "
             f"({by_cpu['memory'] / by_cpu['before']:.1f}x) faster")
    print(f"castle, 6 sensible bots, {castle_games} games a round:")
    line("devil simulate, in memory", "castle")
    line("through GameService.submit", "castle_service",
         f"  simulate is {rate['castle'] / rate['castle_service']:.1f}x "
         f"({by_cpu['castle'] / by_cpu['castle_service']:.1f}x) faster")
    figures: dict = {"benchmark": "selfplay", "games": total,
                     "commands_per_game": round(per_game, 1)}
    for way in rate:
        figures[f"{way}_games_per_s"] = round(rate[way], 2)
        figures[f"{way}_games_per_cpu_s"] = round(by_cpu[way], 2)
    figures["simulate_vs_bare"] = round(rate["memory"] / rate["bare"], 2)
    figures["simulate_vs_bare_cpu"] = round(by_cpu["memory"] / by_cpu["bare"], 2)
    if args.durable_games:
        directory = tempfile.mkdtemp(prefix="devil-selfplay-", dir=bench_dir)
        try:
            service = GameService(FileStore(directory))
            durable = 0
            started = _now()
            for index in range(args.durable_games):
                durable += service_game(service, "atkr", "random", SEED, index, 4)
            spent = time.perf_counter() - started[0]
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        print(f"recorded through the service, every command fsynced: "
              f"{args.durable_games / spent:6.2f} games/s ({durable / spent:.0f} commands/s)")
        figures["durable_games_per_s"] = round(args.durable_games / spent, 2)
    figures["load_average"] = [round(x, 2) for x in os.getloadavg()]
    figures["machine"] = (f"{platform.machine()}, {os.cpu_count()} cores, "
                          f"Python {platform.python_version()}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
