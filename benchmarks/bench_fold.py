"""Fold benchmark: read + hash-chain check + fold of a large archive, against (a) raw msgpack
decoding of the same bytes and (c) the eventsourcing library (9.5.6) rebuilding aggregates
from the same number of events of the same shape (SQLite recorder, one aggregate per game).

    python -m benchmarks.bench_fold [--events 1000000] [--repeat 3]

Targets: (b) at least 10x faster than (c); (b) no more than 4x slower than (a).
Ends with one JSON line of the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

import msgpack

from engine.replay import fold_bytes

from .archive import BENCH_DIR, build


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def eventsourcing_setup(datas, directory):
    """An eventsourcing SQLite app holding one aggregate per game, with one domain event per
    recorded event (same names, same fields); returns (app, ids)."""
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate

    from engine.games.atkr.events import EVENTS

    methods = {}
    for tag, cls in EVENTS.by_type.items():
        import attrs
        fields = [f.name for f in attrs.fields(cls)]
        params = ", ".join(f"{f}=None" for f in fields)
        body = "    self.version_seen = getattr(self, 'version_seen', 0) + 1\n"
        namespace: dict = {}
        exec(f"def {tag}(self, {params}):\n{body}", namespace)  # noqa: S102
        methods[tag] = namespace[tag]

    from eventsourcing.domain import event as es_event
    attrs_ns = {name: es_event("".join(part.title() for part in name.split("_")) + "Fact")(fn)
                for name, fn in methods.items()}
    game_cls = type("Game", (Aggregate,), attrs_ns)

    path = os.path.join(directory, "eventsourcing.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    app = Application(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path,
                           "IS_SNAPSHOTTING_ENABLED": "n"})
    ids = []
    total = 0
    for data in datas:
        unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
        unpacker.feed(data)
        next(unpacker)
        aggregate = game_cls()
        for record in unpacker:
            event = dict(record[4])
            tag = event.pop("type")
            getattr(aggregate, tag)(**event)
            total += 1
        app.save(aggregate)
        ids.append(aggregate.id)
    return app, ids, total


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-eventsourcing", action="store_true")
    args = parser.parse_args(argv)

    directory, games, events = build(args.events)
    files = sorted(os.path.join(directory, f) for f in os.listdir(directory)
                   if f.endswith(".devlog"))
    total_bytes = sum(os.path.getsize(f) for f in files)
    print(f"archive: {games} games, {events} events, {total_bytes / 1e6:.1f} MB in {directory}")

    def read_all():
        out = []
        for path in files:
            with open(path, "rb") as handle:
                out.append(handle.read())
        return out

    datas = read_all()

    def raw():
        for data in datas:
            unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
            unpacker.feed(data)
            for _ in unpacker:
                pass

    def ours():
        count = 0
        for path in files:  # read from disk, check the chain, decode, fold
            with open(path, "rb") as handle:
                _, _, n = fold_bytes(handle.read(), path)
            count += n
        assert count == events, (count, events)

    t_raw = best(raw, args.repeat)
    t_ours = best(ours, args.repeat)
    print(f"(a) raw msgpack decoding:            {t_raw:8.3f} s  "
          f"{events / t_raw / 1e6:6.2f} M events/s")
    print(f"(b) read + hash chain + fold:        {t_ours:8.3f} s  "
          f"{events / t_ours / 1e6:6.2f} M events/s")
    figures = {"benchmark": "fold", "events": events, "games": games, "bytes": total_bytes,
               "raw_msgpack_s": round(t_raw, 3), "ours_s": round(t_ours, 3),
               "ours_over_raw": round(t_ours / t_raw, 2)}
    if not args.skip_eventsourcing:
        started = time.perf_counter()
        app, ids, total = eventsourcing_setup(datas, BENCH_DIR)
        print(f"    (eventsourcing: {total} events stored in "
              f"{time.perf_counter() - started:.0f} s)")
        assert total == events

        def theirs():
            for aggregate_id in ids:
                app.repository.get(aggregate_id)

        t_es = best(theirs, max(1, args.repeat - 1))
        print(f"(c) eventsourcing 9.5.6 rebuild:     {t_es:8.3f} s  "
              f"{events / t_es / 1e6:6.2f} M events/s")
        figures.update({"eventsourcing_s": round(t_es, 3),
                        "eventsourcing_over_ours": round(t_es / t_ours, 2)})
        print(f"(b) is {t_es / t_ours:.1f}x faster than (c) (target >= 10x)")
    print(f"(b) is {t_ours / t_raw:.2f}x the time of (a) (target <= 4x)")
    figures["machine"] = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, " \
                         f"Python {platform.python_version()}"
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
