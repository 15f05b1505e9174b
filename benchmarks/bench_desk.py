"""What a correction costs (the referee's desk, engine/desk), by game length.

    python -m benchmarks.bench_desk [--lengths 100,1000,10000] [--repeat 5]

The game is bench_submit's never-ending physical game (4 players, everyone bets 0, every draw
a devil), built through ``GameService.submit`` on a FileStore to each length.  Timed, on the
warm service (best of ``--repeat`` fresh corrections, each on its own copy of the game):

* ``submit``: one ordinary command (a bet: decide, append, fsync, fold) before any
  correction: the reference;
* ``correct``: a correction voiding the last round (about 12 records): decide, append,
  fsync, and the referee's fold rebuilt from the start without the voided records;
* ``seat view``: a seat's first view after it (its fold is rebuilt, voids skipped);
* ``submit after``: the next ordinary command (folds advance as before);
* ``verify``: ``verify_bytes`` of the log without and with the correction.

No target is set by the issue; a correction is expected to cost about one fold of the log
(the price of never editing it), and an ordinary command after it what it cost before.
Ends with one JSON line of the figures.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import shutil
import tempfile
import time

from engine.game import REFEREE
from engine.replay import verify_bytes
from engine.service import GameService
from engine.store import FileStore

from .bench_submit import build


def timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def one(directory: str, length: int) -> dict:
    """The figures of one fresh game of ``length`` events (seconds)."""
    store = FileStore(directory)
    service = GameService(store)
    game, script = build(service, length)
    service.view(game, 0)
    command, actor = script.next()
    submit = timed(lambda: service.submit(game, command, actor=actor))
    script.done(command)
    plain = verify_bytes(store.log_bytes(game))
    loaded = service.load(game)
    records = loaded.records
    to = next(r.seq for r in reversed(records) if r.left == 0 and r.seq <= loaded.version - 12)
    correct = timed(lambda: service.submit(game, {"type": "correct", "to": to,
                                                  "reason": "bench"}))
    view = timed(lambda: service.view(game, 0))
    script.state = copy.deepcopy(service.state(game, REFEREE))
    command, actor = script.next()
    after = timed(lambda: service.submit(game, command, actor=actor))
    data = store.log_bytes(game)
    started = time.perf_counter()
    check = verify_bytes(data)
    verify_with = time.perf_counter() - started
    assert check.ok and plain.ok, check.reason
    return {"events": loaded.version, "submit": submit, "correct": correct, "seat_view": view,
            "submit_after": after, "verify_with": verify_with,
            "verify_without": timed(lambda: verify_bytes(_plain_log(store, game)))}


def _plain_log(store, game) -> bytes:
    """The log's bytes up to the correction (the same game, uncorrected)."""
    batch = store.read(game, after=0)
    last = next(r.seq for r in batch.records if r.event.get("type") == "corrected") - 1
    data = store.log_bytes(game)
    import msgpack

    # the records before the correction are a prefix of the file
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(data)
    unpacker.unpack()
    for _ in range(last):
        unpacker.unpack()
    end = unpacker.tell()
    return data[:end]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", default="100,1000,10000")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    lengths = [int(x) for x in args.lengths.split(",")]
    out = {}
    root = tempfile.mkdtemp(prefix="devil-desk-", dir=os.environ.get("DEVIL_BENCH_DIR"))
    try:
        for length in lengths:
            runs = [one(os.path.join(root, f"{length}-{i}"), length) for i in range(args.repeat)]
            best = {key: min(run[key] for run in runs) for key in runs[0] if key != "events"}
            best["events"] = runs[0]["events"]
            out[length] = best
            print(f"{best['events']:>6} events: submit {best['submit'] * 1000:.2f} ms, correct "
                  f"{best['correct'] * 1000:.2f} ms, seat view after {best['seat_view'] * 1000:.2f}"
                  f" ms, submit after {best['submit_after'] * 1000:.2f} ms; verify "
                  f"{best['verify_without'] * 1000:.1f} ms without, "
                  f"{best['verify_with'] * 1000:.1f} ms with the correction")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(json.dumps({str(k): {key: round(v, 6) for key, v in fig.items()}
                      for k, fig in out.items()}))


if __name__ == "__main__":
    main()
