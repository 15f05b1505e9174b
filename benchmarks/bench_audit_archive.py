"""One ledger of a large archive: `devil audit DIR --csv FILE` of 10,000 games in one call.

    python -m benchmarks.bench_audit_archive [--games 10000] [--jobs N] [--dir DIR]
                                             [--runs text,csv,json]

* the archive: ``--games`` finished 4-player Auf Teufel komm raus games played by random bots
  in memory (engine.simulate.simulate: the service's own bytes, each log encoded once),
  generated on every core and written as .devlog files; cached under ``$DEVIL_BENCH_DIR``
  (default /tmp/devil-bench) as ``audit-archive-N``;
* ``devil audit DIR`` (text: a line per game, the totals), ``devil audit DIR --csv FILE`` (one
  CSV of every transfer of every game, streamed, then the totals) and ``devil audit DIR
  --json`` (to /dev/null), each once, through the real command line in a child process, every
  core (``--jobs``: default all); the wall time and the CPU time (the command and its workers:
  steadier than the wall time on a shared machine), the CSV's rows and size, and the largest
  resident size of a process of the run (the command or a worker: the ledger holds no game's
  transfers after writing them).

On demand, not a test.  Ends with one JSON line of the figures.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

BENCH_DIR = os.environ.get("DEVIL_BENCH_DIR", "/tmp/devil-bench")
NAMES = ["Anna", "Ben", "Cleo", "Dan"]
DEVIL = [sys.executable, "-m", "client.cli"]


def _make(batch: tuple[str, range]) -> tuple[int, int]:
    """Play the games of ``batch`` (folder, seeds) and write them; (games, finished)."""
    from engine.bots import make_bot
    from engine.simulate import simulate

    folder, seeds = batch
    finished = 0
    for seed in seeds:
        bots = {s: make_bot("atkr", "random", random.Random(seed * 10 + s)) for s in range(4)}
        played = simulate("atkr", {"players": NAMES}, bots, seed=seed)
        finished += bool(played.result["over"])
        with open(os.path.join(folder, f"g{seed:05d}.devlog"), "wb") as handle:
            handle.write(played.data)
    return len(seeds), finished


def _events(path: str) -> int:
    """The records of a .devlog (engine.log.scan)."""
    from engine.log import scan

    with open(path, "rb") as handle:
        return len(scan(handle.read(), path).records)


def build(games: int, jobs: int) -> tuple[str, int, float]:
    """The archive's folder, how many of its games finished, and the seconds it took to make
    (0 when cached)."""
    folder = os.path.join(BENCH_DIR, f"audit-archive-{games}")
    marker = os.path.join(folder, "DONE")
    if os.path.exists(marker):
        return folder, int(open(marker).read().split()[0]), 0.0
    os.makedirs(folder, exist_ok=True)
    started = time.perf_counter()
    step = 250
    batches = [(folder, range(start, min(start + step, games)))
               for start in range(0, games, step)]
    finished = 0
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for done, (_, over) in enumerate(pool.map(_make, batches), 1):
            finished += over
            print(f"  made {min(done * step, games)} games "
                  f"({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
    seconds = time.perf_counter() - started
    with open(marker, "w") as handle:
        handle.write(f"{finished} {seconds:.1f}")
    return folder, finished, seconds


def _timed(args: list[str], stdout) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and its workers: user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(args, check=False, stdout=stdout, stderr=subprocess.DEVNULL,
                   env=dict(os.environ, PYTHONPATH=os.getcwd()))
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--dir", default=None, help="where the CSV goes (default: a temp dir)")
    parser.add_argument("--runs", default="text,csv,json",
                        help="which runs, comma-separated (default: text,csv,json)")
    args = parser.parse_args()
    folder, finished, made = build(args.games, args.jobs)
    files = [n for n in os.listdir(folder) if n.endswith(".devlog")]
    size = sum(os.path.getsize(os.path.join(folder, n)) for n in files)
    out = args.dir or tempfile.mkdtemp(prefix="devil-bench-audit-")
    target = os.path.join(out, "ledger.csv")
    if os.path.exists(target):
        os.unlink(target)
    jobs = ["--jobs", str(args.jobs)]
    runs = {"text": [], "csv": ["--csv", target], "json": ["--json"]}
    json_path = os.path.join(out, "ledger.jsonl")
    timed = {}
    for name in args.runs.split(","):
        with open(json_path if name == "json" else os.devnull, "w") as sink:
            timed[name] = _timed([*DEVIL, "audit", folder, *runs[name], *jobs], sink)
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    load = os.getloadavg()[0]
    events = sum(_events(os.path.join(folder, n)) for n in files)
    counts: dict[str, int] = {}
    if "csv" in timed:
        with open(target, newline="") as handle:
            for row in csv.DictReader(handle):
                counts[row["record"]] = counts.get(row["record"], 0) + 1
    figures = {
        "games": len(files), "finished": finished, "events": events, "archive_mb": size / 1e6,
        "made_s": made, "jobs": args.jobs,
        **{f"audit_{name}_s": wall for name, (wall, _) in timed.items()},
        **{f"audit_{name}_cpu_s": cpu for name, (_, cpu) in timed.items()},
        "csv_rows": counts, "csv_mb": os.path.getsize(target) / 1e6 if counts else None,
        "peak_rss_mb": peak_mb, "load_after": load,
        "python": platform.python_version(), "cores": os.cpu_count()}
    print(f"archive: {len(files)} games ({finished} finished), {events} events, "
          f"{size / 1e6:.1f} MB" + (f", made in {made:.0f} s" if made else " (cached)"))
    for name, (wall, cpu) in timed.items():
        print(f"devil audit DIR {' '.join(runs[name][:1]):7} {wall:7.1f} s wall, {cpu:7.1f} s CPU "
              f"({len(files) / wall:.0f} games/s)")
    if counts:
        print(f"CSV: {counts.get('transfer', 0):,} transfers, {os.path.getsize(target) / 1e6:.1f} "
              "MB")
    print(f"largest resident size of a process: {peak_mb:.0f} MB; load average after: {load:.1f}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
