"""What signed receipts cost a command: ``GameService.submit`` with and without signing.

    python -m benchmarks.bench_receipts [--commands 2000]

A physical Auf Teufel komm raus game, 4 players, everyone betting 0 and the referee reporting a
devil for every draw (never ends; the same game as bench_submit), played through
``GameService.submit`` on a MemoryStore (no fsync: the signature's share is seen undiluted)
and on a FileStore (every command fsynced, as in use).  Each run times ``--commands`` commands
alone, once with ``sign=True`` (every answer an Ed25519 receipt, engine/receipts.py) and once
with ``sign=False``; prints the medians and their ratio, then one JSON line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time

from engine.service import GameService
from engine.store import FileStore, MemoryStore

NAMES = ["Anna", "Ben", "Cleo", "Dan"]


def commands():
    """The endless game's commands: four bets of 0, then a devil reported for each seat."""
    while True:
        for name in NAMES:
            yield {"type": "bet", "player": name, "amount": 0}
        for _ in NAMES:
            yield {"type": "draw", "coal": 0}


def run(store, sign: bool, count: int) -> float:
    svc = GameService(store, sign=sign)
    game = svc.create("atkr", {"players": NAMES, "physical": True, "ring": 47}).game
    source = commands()
    times = []
    for _ in range(count):
        command = next(source)
        if command["type"] == "draw":  # the player whose turn it is
            command = {**command, "player": svc.view(game)["turn"]}
        start = time.perf_counter()
        svc.submit(game, command)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=2000)
    args = parser.parse_args()
    out = {}
    for label, make in (("memory", MemoryStore),
                        ("file", lambda: FileStore(tempfile.mkdtemp(prefix="devil-bench-")))):
        signed = run(make(), True, args.commands)
        plain = run(make(), False, args.commands)
        out[label] = {"signed_ms": round(signed, 4), "unsigned_ms": round(plain, 4),
                      "ratio": round(signed / plain, 2)}
        print(f"{label:6} store: {signed:.3f} ms a command signed, {plain:.3f} ms unsigned "
              f"({signed / plain:.2f}x)")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
