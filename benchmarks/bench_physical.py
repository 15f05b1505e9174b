"""A recorded physical game replayed through GameService command by command, before and after
the service kept its folds (commit 86207de against the current tree).

    python -m benchmarks.bench_physical [--commands 600] [--seed 1] [--before 86207de]

The script: a physical Auf Teufel komm raus game for 4 players (options ``physical=True``), made
once from a seeded RNG and cached as JSON under ``$DEVIL_BENCH_DIR`` (default /tmp/devil-bench):
each player bets a random multiple of 10 up to a third of their money, draws at least one coal
and stops with a chance that grows with the coals in front of them; the referee reports every
coal, drawn by the RNG from what is in the furnace (weighted by how many of each kind are left,
as a hand in the bag would).  Bets and stops are sent as the seat, coal reports as the referee,
each with a command id.  The script runs to ``--commands`` commands (or the game's end).

Both trees replay the same JSON in a fresh process (``PYTHONPATH`` = the tree, so its
``engine`` is imported; the process checks which one it got) into a fresh FileStore on the same
file system (``--dir``), timing each ``GameService.submit`` (every append fsynced in both;
``--dir /dev/shm`` puts the stores on tmpfs, where fsync costs almost nothing, to show the
rest).  "Before" is
``git archive <--before> engine`` unpacked into a temporary folder.  Both print the sha256 of
the event maps they recorded: they must match.

Needs nothing beyond ``pip install -e .``.  Target (issue): after at least 10x faster than
before.  Ends with one JSON line of the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLAYERS = ["Anna", "Ben", "Cleo", "Dan"]


# -- making the script (current tree) ---------------------------------------------------------
def make_script(commands: int, seed: int) -> dict:
    from engine.games.atkr import RULES
    from engine.games.atkr.commands import Bet, Draw, Stop
    from engine.games.atkr.state import COAL_KINDS

    rng = random.Random(seed)
    options = {"players": PLAYERS, "physical": True}
    state = RULES.fold(RULES.setup(dict(options), None))
    out = []
    while len(out) < commands and not RULES.is_over(state):
        for seat in range(state.n):
            if RULES.legal_commands(state, seat):
                break
        else:
            raise RuntimeError("nobody can act")
        name = state.players[seat]
        if state.phase == "bet":
            top = state.money[seat] // 30
            command, actor = Bet(name, 10 * rng.randint(0, top)), seat
        elif state.coals[seat] and rng.random() < 0.2 * len(state.coals[seat]):
            command, actor = Stop(name), seat
        else:
            bag = [kind for kind, count in zip(COAL_KINDS, state.furnace) for _ in range(count)]
            command, actor = Draw(name, rng.choice(bag)), -1
        state = RULES.fold(RULES.decide(state, command, None), state)
        out.append({"actor": actor, "command": RULES.commands.to_map(command)})
    return {"kind": "atkr", "options": options, "seed": seed, "over": bool(RULES.is_over(state)),
            "commands": out}


def script_path(commands: int, seed: int) -> str:
    folder = os.environ.get("DEVIL_BENCH_DIR", os.path.join(tempfile.gettempdir(), "devil-bench"))
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, f"physical-atkr-{commands}-seed{seed}.json")


# -- replaying (run in a subprocess, in either tree) ---------------------------------------------
def replay(path: str, store: str, tree: str, profile: str | None = None) -> dict:
    import engine
    from engine.game import REFEREE
    from engine.service import GameService
    from engine.store.file import FileStore

    where = os.path.dirname(os.path.dirname(os.path.abspath(engine.__file__)))
    if os.path.realpath(where) != os.path.realpath(tree):
        raise SystemExit(f"imported engine from {where}, expected {tree}")
    with open(path) as handle:
        script = json.load(handle)
    service = GameService(FileStore(store))
    game = service.create(script["kind"], dict(script["options"])).game
    samples = []
    profiler = None
    if profile:
        import cProfile
        profiler = cProfile.Profile()
        profiler.enable()
    for index, step in enumerate(script["commands"]):
        actor = REFEREE if step["actor"] == -1 else step["actor"]
        started = time.perf_counter()
        service.submit(game, dict(step["command"]), actor=actor, command_id=f"c{index:04d}")
        samples.append(time.perf_counter() - started)
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(profile)
    records = FileStore(store).read(game).records
    digest = hashlib.sha256(json.dumps([r.event for r in records], sort_keys=True).encode())
    return {"total_s": sum(samples), "commands": len(samples), "events": len(records),
            "median_ms": statistics.median(samples) * 1000,
            "first100_ms": statistics.mean(samples[:100]) * 1000,
            "last100_ms": statistics.mean(samples[-100:]) * 1000,
            "sha256": digest.hexdigest()}


def run_tree(tree: str, path: str, directory: str, label: str, profile: bool) -> dict:
    env = dict(os.environ, PYTHONPATH=tree)
    store = os.path.join(directory, f"store-{label}")
    command = [sys.executable, os.path.abspath(__file__), "--replay", path, "--store", store,
               "--tree", tree]
    if profile:
        command += ["--profile-to", os.path.join(directory, f"{label}.prof")]
    done = subprocess.run(command, env=env, cwd=directory, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{label} replay failed:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if profile:
        import pstats
        out = io.StringIO()
        pstats.Stats(os.path.join(directory, f"{label}.prof"), stream=out) \
            .sort_stats("cumulative").print_stats(25)
        print(f"--- profile ({label}) ---\n{out.getvalue()}", file=sys.stderr)
    return result


def unpack(commit: str, directory: str) -> str:
    tree = os.path.join(directory, f"tree-{commit}")
    os.makedirs(tree)
    data = subprocess.run(["git", "-C", ROOT, "archive", "--format=tar", commit, "engine"],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(tree)
    return tree


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", default="86207de")
    parser.add_argument("--profile", action="store_true", help="cProfile both replays (stderr)")
    parser.add_argument("--dir", help="the folder the two stores are made in (default "
                                      "$DEVIL_BENCH_DIR or the system's temporary folder); "
                                      "e.g. /dev/shm to take the disk's fsync out")
    parser.add_argument("--replay", help=argparse.SUPPRESS)
    parser.add_argument("--store", help=argparse.SUPPRESS)
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    parser.add_argument("--profile-to", dest="profile_to", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.replay:
        print(json.dumps(replay(args.replay, args.store, args.tree, args.profile_to)))
        return

    path = script_path(args.commands, args.seed)
    if not os.path.exists(path):
        with open(path, "w") as handle:
            json.dump(make_script(args.commands, args.seed), handle, indent=0)
    with open(path) as handle:
        script = json.load(handle)
    directory = tempfile.mkdtemp(prefix="devil-physical-",
                                 dir=args.dir or os.environ.get("DEVIL_BENCH_DIR"))
    try:
        before_tree = unpack(args.before, directory)
        before = run_tree(before_tree, path, directory, "before", args.profile)
        after = run_tree(ROOT, path, directory, "after", args.profile)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    if before["sha256"] != after["sha256"]:
        raise SystemExit("the two trees recorded different events: not the same game")
    n = after["commands"]
    print(f"physical atkr game, {n} commands, {after['events']} events "
          f"({'to its end' if script['over'] else 'not ended'}), script {path}, "
          f"stores in {os.path.dirname(directory)}")
    print(f"{'':>22} | {'total s':>8} | {'ms/command':>10} | {'median ms':>9} | "
          f"{'first 100':>9} | {'last 100':>9}")
    for label, row in ((f"before ({args.before})", before), ("after (this tree)", after)):
        print(f"{label:>22} | {row['total_s']:8.2f} | {row['total_s'] / n * 1000:10.2f} | "
              f"{row['median_ms']:9.2f} | {row['first100_ms']:9.2f} | {row['last100_ms']:9.2f}")
    speedup = before["total_s"] / after["total_s"]
    print(f"after is {speedup:.1f}x faster (target >= 10)")
    print(json.dumps({"benchmark": "physical", "commands": n, "events": after["events"],
                      "before_commit": args.before, "before": before, "after": after,
                      "speedup": round(speedup, 2), "stores_in": os.path.dirname(directory),
                      "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
                                 f"Python {platform.python_version()}"}))


if __name__ == "__main__":
    main()
