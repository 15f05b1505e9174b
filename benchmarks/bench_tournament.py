"""Tournament benchmark (issue 11): `devil tournament simulate` of a 200-player, 7-round
Auf-Teufel-komm-raus-style Swiss (the first registered kind; any kind with --game), timing
the pairing of each round (target: at most 1 s) and the standings (target: at most 2 s: a
cold fold of the stream in a new service plus the ranking, and the ranking alone); then the
bundle is written and verified, and a copy with one byte changed in one game must fail
naming that game.

    python -m benchmarks.bench_tournament [--players 200] [--rounds 7] [--seed 1]

Ends with one JSON line of the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time

from engine.games import kinds
from engine.service import GameService
from engine.store import FileStore
from engine.tournament.bundle import verify, write
from engine.tournament.organiser import Organiser
from engine.tournament.simulate import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=kinds()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="devil-bench-tournament-")
    try:
        store = FileStore(os.path.join(root, "store"))
        started = time.perf_counter()
        report = simulate(GameService(store), args.game, args.players, args.rounds,
                          seed=args.seed, progress=print)
        total = time.perf_counter() - started
        tid = report["tournament"]
        cold_started = time.perf_counter()
        organiser = Organiser(GameService(store))
        standings = organiser.standings(tid)
        cold = time.perf_counter() - cold_started
        again_started = time.perf_counter()
        organiser.standings(tid)
        warm = time.perf_counter() - again_started
        out = os.path.join(root, "bundle")
        t0 = time.perf_counter()
        manifest = write(store, tid, out)
        bundle_seconds = time.perf_counter() - t0
        t0 = time.perf_counter()
        checked = verify(out + ".zip")
        verify_seconds = time.perf_counter() - t0
        victim = manifest["logs"][len(manifest["logs"]) // 2]
        path = os.path.join(out, victim["file"])
        data = bytearray(open(path, "rb").read())
        data[len(data) // 2] ^= 0x01
        open(path, "wb").write(bytes(data))
        tampered = verify(out)
        named = [p for p in tampered["problems"] if victim["game"] in p]
        print(f"{args.players} players, {args.rounds} rounds of {args.game}: {report['games']} "
              f"games, {total:.1f} s in all")
        for number, seconds in enumerate(report["pair_seconds"], 1):
            print(f"  pair round {number}: {seconds * 1000:.0f} ms")
        print(f"  pairing at most {max(report['pair_seconds']):.3f} s a round (target 1 s)")
        print(f"  standings: {cold:.3f} s cold (new service: fold of the stream + ranking), "
              f"{warm:.3f} s warm (target 2 s); leader {standings['standings'][0]['player']}")
        print(f"  bundle written in {bundle_seconds:.2f} s; verified in {verify_seconds:.2f} s: "
              f"{'ok' if checked['ok'] else 'FAILED'} ({checked['games']} games)")
        print(f"  one byte changed in {victim['game']}: "
              f"{'fails naming it' if named and not tampered['ok'] else 'NOT caught'}"
              + (f" ({named[0]})" if named else ""))
        print(json.dumps({"players": args.players, "rounds": args.rounds,
                          "games": report["games"], "pair_seconds": report["pair_seconds"],
                          "standings_cold_seconds": cold, "standings_warm_seconds": warm,
                          "bundle_ok": checked["ok"], "verify_seconds": verify_seconds,
                          "tamper_named": bool(named) and not tampered["ok"],
                          "total_seconds": total}))
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
