"""Size benchmark: average bytes per event in .devlog files against the same records as JSON
lines (``{"seq", "actor", "cmd", "ts", "event", "left", "link"}``, the link in hex).
Target: at most 48 bytes per event.

    python -m benchmarks.bench_size [--events 100000] [FILES...]

Without FILES it measures a generated archive (random 4-player games, a command every 0.9 s).
Ends with one JSON line of the figures.
"""

from __future__ import annotations

import argparse
import collections
import json
import os

from engine.log import read_path

from .archive import build


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("files", nargs="*")
    args = parser.parse_args(argv)
    files = args.files
    if not files:
        directory, _, _ = build(args.events)
        files = sorted(os.path.join(directory, f) for f in os.listdir(directory)
                       if f.endswith(".devlog"))
    devlog = jsonl = events = 0
    by_type = collections.defaultdict(lambda: [0, 0])
    for path in files:
        devlog += os.path.getsize(path)
        for record in read_path(path).records:
            line = json.dumps({"seq": record.seq, "actor": record.actor, "cmd": record.cmd,
                               "ts": record.ts, "event": record.event, "left": record.left,
                               "link": record.link.hex()}, separators=(",", ":")) + "\n"
            jsonl += len(line)
            events += 1
            by_type[record.event["type"]][0] += 1
    per_event = devlog / events
    print(f"{events} events in {len(files)} files")
    print(f".devlog:    {per_event:6.1f} bytes per event (header included; target <= 48)")
    print(f"JSON lines: {jsonl / events:6.1f} bytes per event")
    print(json.dumps({"benchmark": "size", "events": events, "files": len(files),
                      "devlog_bytes_per_event": round(per_event, 1),
                      "jsonl_bytes_per_event": round(jsonl / events, 1),
                      "devlog_over_jsonl": round(devlog / jsonl, 3)}))


if __name__ == "__main__":
    main()
