"""The command line's own speed: verifying an archive in one call against one call per game,
simulating games into a store, and a cold `devil show` / `devil --help`.

    python -m benchmarks.bench_cli [--games 1000] [--separate N] [--dir DIR]

* an archive of ``--games`` 4-player Auf Teufel komm raus games made with
  ``devil simulate atkr`` (played in memory, each log written once);
* ``devil verify DIR`` once (every core) against ``devil verify FILE`` for each game, one
  process each (``--separate N`` times only N of them and scales up, for a quick run);
* the wall time of ``devil --help`` and ``devil show GAME`` on a small game (best of 15).

Targets (issue 8): one call at least 20x faster than separate calls; cold `show` and `--help`
at most 150 ms.  Ends with one JSON line of the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

DEVIL = [sys.executable, "-m", "client.cli"]


def _run(args: list[str], env: dict) -> float:
    started = time.perf_counter()
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def _best(args: list[str], env: dict, times: int = 15) -> float:
    return min(_run(args, env) for _ in range(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--separate", type=int, default=None,
                        help="time only this many separate calls and scale (default: all)")
    parser.add_argument("--dir", default=None, help="where the archive goes (default: a temp dir)")
    args = parser.parse_args()
    root = args.dir or tempfile.mkdtemp(prefix="devil-bench-cli-")
    store = os.path.join(root, "archive")
    shutil.rmtree(store, ignore_errors=True)
    env = dict(os.environ, DEVIL_STORE=store, PYTHONPATH=os.getcwd())

    started = time.perf_counter()
    subprocess.run([*DEVIL, "simulate", "atkr", "--players", "4", "--games", str(args.games),
                    "--seed", "1", "--bot", "random", "--json"], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    simulate_s = time.perf_counter() - started
    files = sorted(os.path.join(store, n) for n in os.listdir(store) if n.endswith(".devlog"))
    events = sum(os.path.getsize(f) for f in files)

    one_call = _run([*DEVIL, "verify", store], env)
    sample = files if args.separate is None else files[:args.separate]
    started = time.perf_counter()
    for path in sample:
        _run([*DEVIL, "verify", path], env)
    separate = (time.perf_counter() - started) * len(files) / len(sample)

    small = os.path.join(root, "small")
    shutil.rmtree(small, ignore_errors=True)
    small_env = dict(env, DEVIL_STORE=small)
    game = subprocess.run([*DEVIL, "new", "atkr", "--player", "Anna", "--player", "Ben",
                           "--player", "Cleo", "--first", "Anna"], env=small_env, check=True,
                          capture_output=True, text=True).stdout.strip()
    for name, amount in (("Anna", "60"), ("Ben", "40"), ("Cleo", "0")):
        subprocess.run([*DEVIL, "bet", game, amount, "--as", name], env=small_env, check=True,
                       stdout=subprocess.DEVNULL)
    devil_script = shutil.which("devil")
    launcher = [devil_script] if devil_script else DEVIL
    show = _best([*launcher, "show", game], small_env)
    help_s = _best([*launcher, "--help"], small_env)
    bare = _best([sys.executable, "-c", "pass"], small_env)

    print(f"{platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} cores; {len(files)} games, {events / 1e6:.1f} MB")
    print("| | seconds |")
    print("|---|---|")
    print(f"| `devil simulate atkr --games {len(files)}` (in memory, each log written once) "
          f"| {simulate_s:.1f} |")
    print(f"| `devil verify DIR` (one call, every core) | {one_call:.1f} |")
    scaled = "" if args.separate is None else f" (scaled from {len(sample)})"
    print(f"| `devil verify FILE` x {len(files)} (separate calls){scaled} | {separate:.1f} |")
    print(f"| ratio | {separate / one_call:.1f}x |")
    print(f"| cold `devil show GAME` (3 players, best of 15) | {show * 1000:.0f} ms |")
    print(f"| cold `devil --help` (best of 15) | {help_s * 1000:.0f} ms |")
    print(f"| `python -c pass` (the floor) | {bare * 1000:.0f} ms |")
    print(json.dumps({"games": len(files), "simulate_s": round(simulate_s, 2),
                      "verify_one_call_s": round(one_call, 2),
                      "verify_separate_s": round(separate, 2),
                      "ratio": round(separate / one_call, 1), "show_ms": round(show * 1000),
                      "help_ms": round(help_s * 1000), "python_ms": round(bare * 1000)}))


if __name__ == "__main__":
    main()
