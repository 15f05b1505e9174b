"""The transparency log's cost (issue 20): a store append with and without its leaf, at 1 and
50 concurrent writers, for the file store and PostgreSQL; then a checkpoint, proof sizes and
verify times over a log of --leaves leaves (default 1,000,000).

    python -m benchmarks.bench_tlog [--appends 400] [--leaves 1000000] [--no-postgres]

"Without" is the same store with the leaf not written (file: the leaf list a no-op;
PostgreSQL: the trigger disabled).  Each writer appends one-event commands to its own game.
Ends with one JSON line of the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import tempfile
import threading
import time

from engine.store import FileStore
from engine.tlog import merkle


class _NoLeaves:
    def add(self, entries):
        return 0


def _run(store, writers: int, appends: int) -> float:
    """Appends per second with ``writers`` threads, ``appends`` in all."""
    games = [f"atkr-bench{w:04d}" for w in range(writers)]
    for game in games:
        store.create("atkr", game, -1, [{"type": "a"}], created=1)
    each = max(1, appends // writers)

    def write(game):
        for n in range(each):
            store.append(game, n + 1, 0, None, [{"type": "x", "n": n}])
    threads = [threading.Thread(target=write, args=(g,)) for g in games]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return each * writers / (time.perf_counter() - started)


def files(appends: int) -> dict:
    out = {}
    for writers in (1, 50):
        for leaf in (True, False):
            folder = tempfile.mkdtemp(prefix="devil-tlog-", dir=os.environ.get("DEVIL_BENCH_DIR"))
            try:
                store = FileStore(folder)
                if not leaf:
                    store._leaves = _NoLeaves()  # type: ignore[assignment]
                out[f"file_{writers}_{'with' if leaf else 'without'}"] = \
                    round(_run(store, writers, appends), 1)
            finally:
                shutil.rmtree(folder, ignore_errors=True)
    return out


def postgres(appends: int) -> dict:
    import psycopg

    from benchmarks.load import throwaway_database
    from engine.store.postgres import PostgresStore

    make = throwaway_database()
    out = {}
    for writers in (1, 50):
        for leaf in (True, False):
            url = make()
            if not leaf:
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute("ALTER TABLE games DISABLE TRIGGER games_tlog")
            with PostgresStore(url, pool_size=min(writers, 20)) as store:
                out[f"pg_{writers}_{'with' if leaf else 'without'}"] = \
                    round(_run(store, writers, appends), 1)
                if leaf:
                    started = time.perf_counter()
                    size = store.tlog_size()  # integrates the pending leaves
                    out[f"pg_{writers}_integrate_ms"] = round(
                        (time.perf_counter() - started) * 1000, 1)
                    out[f"pg_{writers}_leaves"] = size
    return out


def big_tree(leaves: int) -> dict:
    started = time.perf_counter()
    hashes = [merkle.leaf_hash(hashlib.sha256(i.to_bytes(8, "big")).digest())
              for i in range(leaves)]
    built = time.perf_counter() - started
    started = time.perf_counter()
    tree = merkle.Tree(hashes)  # what a store's log keeps (engine.tlog.log.tree)
    kept = time.perf_counter() - started
    started = time.perf_counter()
    root = merkle.tree_root(tree)
    head = time.perf_counter() - started
    index = leaves // 3
    started = time.perf_counter()
    path = merkle.inclusion_proof(tree, index)
    prove = time.perf_counter() - started
    started = time.perf_counter()
    for _ in range(1000):
        assert merkle.verify_inclusion(hashes[index], index, leaves, path, root)
    verify = (time.perf_counter() - started) / 1000
    old = leaves - leaves // 7
    old_root = merkle.tree_root(tree, old)
    started = time.perf_counter()
    consistency = merkle.consistency_proof(tree, old, leaves)
    prove_c = time.perf_counter() - started
    started = time.perf_counter()
    for _ in range(1000):
        assert merkle.verify_consistency(old, leaves, old_root, root, consistency)
    verify_c = (time.perf_counter() - started) / 1000
    return {"leaves": leaves, "leaf_hashes_s": round(built, 2), "tree_s": round(kept, 2),
            "root_ms": round(head * 1000, 3),
            "inclusion_hashes": len(path), "inclusion_bytes": 32 * len(path),
            "inclusion_prove_ms": round(prove * 1000, 3),
            "inclusion_verify_us": round(verify * 1e6, 1),
            "consistency_hashes": len(consistency), "consistency_bytes": 32 * len(consistency),
            "consistency_prove_ms": round(prove_c * 1000, 3),
            "consistency_verify_us": round(verify_c * 1e6, 1)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=400)
    parser.add_argument("--leaves", type=int, default=1_000_000)
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args(argv)
    figures = {**files(args.appends)}
    for key, value in figures.items():
        print(f"{key:>24}: {value} appends/s")
    if not args.no_postgres:
        pg = postgres(args.appends)
        for key, value in pg.items():
            print(f"{key:>24}: {value}")
        figures.update(pg)
    tree = big_tree(args.leaves)
    for key, value in tree.items():
        print(f"{key:>24}: {value}")
    figures.update(tree)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
