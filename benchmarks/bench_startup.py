"""Start-up: a cold ``devil show`` of a small game of each kind against bare Python (issue 19.8).

    python -m benchmarks.bench_startup [--times 5]

In this environment's Python (the one `devil` runs in, so both pay the same site start-up):
best of ``--times`` wall times of ``python3 -c pass``, ``devil --help`` and ``devil show GAME
--as NAME`` of a small game of each kind (Auf Teufel komm raus, 3 players, two bets; Castle, 4
players, one turn), each a fresh process through the installed ``devil`` script.  Target: each
``show`` at most 5x ``python3 -c pass``.  Ends with one JSON line of the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def _run(args: list[str], env: dict) -> float:
    started = time.perf_counter()
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def _best(args: list[str], env: dict, times: int) -> float:
    return min(_run(args, env) for _ in range(times))


def _devil() -> list[str]:
    found = shutil.which("devil", path=os.path.dirname(sys.executable)) or shutil.which("devil")
    return [found] if found else [sys.executable, "-m", "client.cli"]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=5)
    args = parser.parse_args(argv)
    root = tempfile.mkdtemp(prefix="devil-startup-")
    env = {**os.environ, "DEVIL_STORE": os.path.join(root, "store"),
           "DEVIL_CONFIG": os.path.join(root, "config")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as a user runs it: compiled modules are cached
    devil = _devil()

    def out(*words: str) -> str:
        return subprocess.run([*devil, *words], env=env, check=True, capture_output=True,
                              text=True).stdout.strip()

    atkr = out("new", "atkr", "--player", "Anna", "--player", "Ben", "--player", "Cleo",
               "--first", "Anna", "--seed", "1")
    out("bet", atkr, "60", "--as", "Anna")
    out("bet", atkr, "40", "--as", "Ben")
    castle = out("new", "castle", "--player", "Anna", "--player", "Ben", "--player", "Cleo",
                 "--player", "Dan", "--seed", "1")
    for warm in ([*devil, "--help"], [*devil, "show", atkr], [*devil, "show", castle]):
        _run(warm, env)  # once, so every module's bytecode is cached before the timed runs
    bare = _best([sys.executable, "-c", "pass"], env, args.times)
    figures = {"python_ms": bare * 1000,
               "help_ms": _best([*devil, "--help"], env, args.times) * 1000,
               "show_atkr_ms": _best([*devil, "show", atkr, "--as", "Ben"], env, args.times) * 1000,
               "show_castle_ms": _best([*devil, "show", castle, "--as", "Ben"], env,
                                       args.times) * 1000}
    print(f"| command (best of {args.times}) | ms | x python3 -c pass |")
    print("|---|---|---|")
    for label, key in (("python3 -c pass", "python_ms"), ("devil --help", "help_ms"),
                       ("devil show (Auf Teufel komm raus)", "show_atkr_ms"),
                       ("devil show (Castle)", "show_castle_ms")):
        print(f"| {label} | {figures[key]:.0f} | {figures[key] / figures['python_ms']:.1f} |")
    shutil.rmtree(root, ignore_errors=True)
    print(json.dumps({k: round(v, 1) for k, v in figures.items()}
                     | {"show_atkr_x": round(figures["show_atkr_ms"] / bare / 1000, 2),
                        "show_castle_x": round(figures["show_castle_ms"] / bare / 1000, 2)}))


if __name__ == "__main__":
    main()
