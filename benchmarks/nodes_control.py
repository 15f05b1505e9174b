"""Two nodes on one database against their control: what sharing the cores costs (issue 21).

    python -m benchmarks.nodes_control [--clients 10] [--seconds 8] [--rounds 2]

On a two-core machine two `devil serve` nodes share the cores with each other, the database
and the load: each node's CPU per command rises whatever the nodes do.  Each round measures
(benchmarks.load.measure, fsync'd throwaway cluster, the same seeds) back to back:

* **1 node**: one node on one database, ``--clients`` over 20 tables;
* **2 nodes, one database**: the seats of every table spread over both (as ``load --nodes 2``);
* **2 nodes, a database each** (the control): two independent one-node runs at once, each
  with half the clients over 10 tables, each driven by its own process.  They share the
  machine exactly as the two nodes do, but no node reads or waits for the other's appends.

The nodes' CPU per command of the control against one node's is what the shared cores cost;
two nodes on one database against the control is what serving one game from two nodes costs.
Prints one line a round and a JSON line.  Exit status 0 when every run's checks pass.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from benchmarks import load


def _half(url: str, clients: int, seconds: float, seed: int) -> dict:
    """One independent node's run (in this process: its own driver)."""
    return load.measure(url, 1, clients, 10, seconds, seed)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--half", nargs=3, metavar=("URL", "CLIENTS", "SEED"),
                        help=argparse.SUPPRESS)  # one independent node (a child process)
    args = parser.parse_args(argv)
    if args.half:
        url, clients, seed = args.half
        print(json.dumps(_half(url, int(clients), args.seconds, int(seed))))
        return 0
    if args.clients < 2 or args.clients % 2:
        raise SystemExit("--clients must be even (half a client per control node is none)")
    fresh = load.throwaway_database()
    rows, ok = [], True
    for _ in range(args.rounds):
        one = load.measure(fresh(), 1, args.clients, 20, args.seconds, 1)
        two = load.measure(fresh(), 2, args.clients, 20, args.seconds, 1)
        children = [subprocess.Popen(
            [sys.executable, "-m", "benchmarks.nodes_control", "--seconds", str(args.seconds),
             "--half", fresh(), str(args.clients // 2), str(seed)],
            stdout=subprocess.PIPE, text=True, cwd=load.ROOT) for seed in (1, 2)]
        halves = [json.loads(child.communicate()[0].strip().splitlines()[-1])
                  for child in children]
        commands = sum(half["commands"] for half in halves)
        control_cpu = sum(half["server_cpu_ms"] * half["commands"] for half in halves) / commands
        row = {"one_node": {"per_second": one["per_second"], "cpu_ms": one["server_cpu_ms"]},
               "two_nodes_one_database": {"per_second": two["per_second"],
                                          "cpu_ms": two["server_cpu_ms"]},
               "two_nodes_a_database_each": {
                   "per_second": round(sum(half["per_second"] for half in halves), 1),
                   "cpu_ms": round(control_cpu, 3)}}
        ok = ok and one["ok"] and two["ok"] and all(half["ok"] for half in halves)
        rows.append(row)
        print(f"1 node {one['per_second']}/s, {one['server_cpu_ms']} ms CPU a command | "
              f"2 nodes, one database {two['per_second']}/s, {two['server_cpu_ms']} ms | "
              f"2 nodes, a database each {row['two_nodes_a_database_each']['per_second']}/s, "
              f"{control_cpu:.3f} ms | shared cores {control_cpu / one['server_cpu_ms']:.2f}x, "
              f"one database {two['server_cpu_ms'] / control_cpu:.2f}x the control", flush=True)
    print(json.dumps({"benchmark": "nodes_control", "clients": args.clients,
                      "seconds": args.seconds, "rounds": rows, "ok": ok}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
