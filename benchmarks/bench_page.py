"""Replay page benchmark: how long the replay page's data takes to build and how large it is,
for the shipped recordings, as the referee, a seat and a spectator: each step's view sent as a
patch of the previous one (what engine.web.pages.replay_data sends) against every step's whole
view (what it sent first), raw and gzipped (what the server sends a browser that takes gzip).

    python -m benchmarks.bench_page [FILES...]

Without FILES: every recording in replays/.  Ends with one JSON line of the figures.
"""

from __future__ import annotations

import argparse
import glob
import gzip
import json
import os
import time

from engine.game import PUBLIC, REFEREE
from engine.web.pages import expand, replay_data
from engine.replay import open_log

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure(path: str, viewer) -> dict:
    """Build time (best of 3, s) and sizes (bytes) of the data of ``path`` for ``viewer``."""
    from client.page import texts

    log = open_log(path)
    best = None
    for _ in range(3):
        start = time.perf_counter()
        data = replay_data(log, viewer, texts)
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    patched = json.dumps(data, separators=(",", ":")).encode()
    whole = dict(data, steps=[dict({k: v for k, v in s.items() if k != "patch"}, view=view)
                              for s, view in zip(data["steps"], expand(data))])
    full = json.dumps(whole, separators=(",", ":")).encode()
    return {"file": os.path.basename(path), "as": data["as"], "events": len(data["steps"]),
            "seconds": round(best, 3), "bytes": len(patched),
            "gzip": len(gzip.compress(patched, 6)), "whole_views_bytes": len(full)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*")
    args = parser.parse_args(argv)
    files = args.files or sorted(glob.glob(os.path.join(ROOT, "replays", "*.devlog")))
    rows = []
    print(f"{'recording':34} {'as':10} {'events':>6} {'build s':>8} {'patched':>10} "
          f"{'gzipped':>9} {'whole views':>12}")
    for path in files:
        for viewer in (REFEREE, 0, PUBLIC):
            row = measure(path, viewer)
            rows.append(row)
            print(f"{row['file']:34} {row['as']:10} {row['events']:>6} {row['seconds']:>8.3f} "
                  f"{row['bytes'] / 1024:>8.0f} K {row['gzip'] / 1024:>7.0f} K "
                  f"{row['whole_views_bytes'] / 1024:>10.0f} K")
    print(json.dumps({"bench": "page", "rows": rows}))


if __name__ == "__main__":
    main()
