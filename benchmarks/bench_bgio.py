"""devil's HTTP service against boardgame.io 0.50's server, side by side, loopback only.

    python -m benchmarks.bench_bgio [--seconds 15] [--clients 1,10,50] [--tables 20]
                                    [--rounds 12] [--seed 1] [--with-queue] [--postgres]
                                    [--statement-log]

For each client count, in one paired run, back to back, each on a fresh store and a fresh
server process: `devil serve` on a store folder (every command fsync'd), boardgame.io's own
server with its FlatFile storage (node-persist JSON files, never fsync'd), and boardgame.io's
server in memory (with --postgres, then devil on PostgreSQL too: one node on a throwaway
cluster with durable commits, the same driver, and its ratio to devil on files). One node
driver (benchmarks/bgio/driver.cjs) plays all of them with the same shape: N closed-loop
clients over T tables, one message a move, every seat with its own push channel (devil: its
server-sent event stream; boardgame.io: its socket.io connection). The boardgame.io game
(benchmarks/bgio/game.cjs) has the move shape of Auf Teufel komm raus as the driver plays it
(bet, draw, stop), not the rules in full. Prints a table of moves/s, the ratios devil/FlatFile
and devil/in-memory, each server's CPU ms per move (utime + stime of the server process from
/proc/PID/stat, over the timed window) and the driver's, then one JSON line.

boardgame.io 0.50 and node-persist 3 (FlatFile's storage, a dev dependency of boardgame.io)
come from the npm registry at run time, into $DEVIL_BENCH_DIR/bgio-0.50 (default
/tmp/devil-bench); they are installed when missing.  Needs node and npm (exit 2 without them).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks.load import free_port, start_server  # noqa: E402

HERE = os.path.join(ROOT, "benchmarks", "bgio")
BGIO = "0.50"
PACKAGES = [f"boardgame.io@{BGIO}", "node-persist@3"]
TARGETS = [("devil", "devil, files (fsync'd)"), ("flatfile", "boardgame.io FlatFile"),
           ("memory", "boardgame.io in memory")]
#: with --with-queue: FlatFile on node-persist's default write queue (a file at most once a second)
QUEUED = ("queued", "boardgame.io FlatFile, write queue")
#: with --postgres: devil on PostgreSQL (one node, a throwaway cluster with durable commits)
POSTGRES = ("devil-pg", "devil, PostgreSQL (one node)")
LABELS = dict(TARGETS + [QUEUED, POSTGRES])


def install_dir() -> str:
    return os.path.join(os.environ.get("DEVIL_BENCH_DIR", "/tmp/devil-bench"), f"bgio-{BGIO}")


def installed_version(folder: str) -> str | None:
    modules = os.path.join(folder, "node_modules")
    try:
        with open(os.path.join(modules, "boardgame.io", "package.json")) as f:
            version = json.load(f)["version"]
    except (OSError, ValueError, KeyError):
        return None
    if not os.path.isfile(os.path.join(modules, "node-persist", "package.json")):
        return None
    return version if version.startswith(BGIO + ".") else None


def ensure_bgio() -> tuple[str, str]:
    """The node_modules folder holding boardgame.io 0.50, installed from npm when missing."""
    folder = install_dir()
    version = installed_version(folder)
    if version is None:
        os.makedirs(folder, exist_ok=True)
        print(f"installing {' '.join(PACKAGES)} from the npm registry into {folder} ...",
              flush=True)
        done = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--no-package-lock",
                               "--loglevel=error", "--prefix", folder, *PACKAGES],
                              capture_output=True, text=True, timeout=600)
        version = installed_version(folder)
        if done.returncode != 0 or version is None:
            raise SystemExit(f"npm install failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return os.path.join(folder, "node_modules"), version


def node_env(modules: str) -> dict:
    env = dict(os.environ, NODE_PATH=modules, NODE_ENV="production")
    env.pop("FLATFILE_DIR", None)  # boardgame.io would store there instead of in memory
    return env


def start_bgio(modules: str, port: int, folder: str | None, queue: bool = False
               ) -> subprocess.Popen:
    args = ["node", os.path.join(HERE, "server.cjs"), str(port)] + ([folder] if folder else [])
    args += ["queue"] if queue else []
    proc = subprocess.Popen(args, env=node_env(modules), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    line = proc.stdout.readline()  # "ready PORT" once it listens
    if not line.startswith("ready"):
        proc.kill()
        raise SystemExit(f"boardgame.io server did not start: {proc.stderr.read()[-2000:]}")
    return proc


def stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def drive(modules: str, target: str, port: int, pid: int, args, clients: int) -> dict:
    config = {"target": "devil" if target.startswith("devil") else "bgio", "port": port,
              "serverPid": pid, "clients": clients, "tables": args.tables, "seconds": args.seconds,
              "seed": args.seed, "rounds": args.rounds}
    done = subprocess.run(["node", os.path.join(HERE, "driver.cjs"), json.dumps(config)],
                          env=node_env(modules), capture_output=True, text=True,
                          timeout=args.seconds + 120)
    if done.returncode != 0:
        raise SystemExit(f"driver failed on {target}: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def devil_logs(store: str) -> tuple[int, list[str]]:
    """The commands recorded in ``store`` (every game's log verified), and any problems."""
    from engine.log import scan
    from engine.replay import verify_bytes
    from engine.store import open_store

    opened = open_store(store)
    commands, problems = 0, []
    for game in opened.games():
        data = opened.log_bytes(game)
        checked = verify_bytes(data)
        if not checked.ok:
            problems.append(f"{game}: does not verify: {checked}")
        commands += len({r.cmd for r in scan(data).records if r.cmd is not None})
    return commands, problems


def measure(modules: str, target: str, clients: int, args) -> dict:
    from benchmarks import load

    port = free_port()
    folder = tempfile.mkdtemp(prefix=f"devil-bgio-{target}-", dir=args.work)
    store = args.database() if target == "devil-pg" else folder
    logged = None
    if target == "devil-pg" and args.statement_log:  # before the server opens its sessions
        from tests import pg

        logged = pg.StatementLog(store)
    proc = (start_server(store, port) if target.startswith("devil")
            else start_bgio(modules, port, None if target == "memory" else folder,
                            queue=target == "queued"))
    database = load.database_cpu()
    transactions = load.statements(store)
    mark = None if logged is None else logged.mark()
    try:
        row = drive(modules, target, port, proc.pid, args, clients)
    finally:
        stop(proc)
    if target == "devil-pg":  # the database's CPU and transactions over the drive (the tables'
        # new games included); with --statement-log the statements the server logged
        moves = max(1, row["moves"])
        row["db_cpu_ms_per_move"] = round((load.database_cpu() - database) * 1000 / moves, 3)
        row["db_transactions_per_move"] = round(
            ((load.statements(store) or 0) - (transactions or 0)) / moves, 2)
        if logged is not None and mark is not None:
            row["statements_per_move"] = round(len(logged.since(mark)) / moves, 2)
    row["store"] = target
    row["per_second"] = round(row["moves"] / row["seconds"], 1)
    row["server_cpu_ms_per_move"] = (round(row["server_cpu_ms"] / row["moves"], 3)
                                     if row["moves"] else None)
    row["driver_cpu_ms_per_move"] = (round(row["driver_cpu_ms"] / row["moves"], 3)
                                     if row["moves"] else None)
    row["problems"] = []
    if target.startswith("devil"):
        recorded, row["problems"] = devil_logs(store)
        if recorded != row["moves"]:
            row["problems"].append(f"{row['moves']} moves acknowledged, {recorded} commands "
                                   "in the logs")
    shutil.rmtree(folder, ignore_errors=True)
    row["ok"] = not row["problems"] and not row["error_count"]
    print(f"{clients:>3} clients, {LABELS[target]}: {row['moves']} moves in "
          f"{row['seconds']:.1f} s = {row['per_second']}/s, server {row['server_cpu_ms_per_move']}"
          f" ms CPU a move, driver {row['driver_cpu_ms_per_move']} ms, p50 {row['p50_ms']} ms, "
          f"refused {row['refused']}, games {row['games_created']} / {row['games_finished']} "
          f"finished" + (f", database {row['db_cpu_ms_per_move']} ms CPU and "
                         f"{row['db_transactions_per_move']} transactions a move"
                         if "db_cpu_ms_per_move" in row else "")
          + (f", {row['statements_per_move']} statements a move (the server's log)"
             if "statements_per_move" in row else "")
          + ("" if row["ok"] else "; FAILED"), flush=True)
    for line in row["errors"] + row["problems"]:
        print(f"    {line}")
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="per server and client count")
    parser.add_argument("--clients", default="1,10,50", metavar="N,N,...")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=12,
                        help="rounds of a boardgame.io match (12: about as many moves as one of "
                             "devil's games under this driver)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--with-queue", action="store_true",
                        help="also FlatFile with node-persist's default write queue (FlatFile's "
                             "default: each file written at most once a second)")
    parser.add_argument("--postgres", action="store_true",
                        help="also devil on PostgreSQL, one node (a throwaway cluster, fsync "
                             "and synchronous_commit on: needs PostgreSQL's server binaries); "
                             "prints PostgreSQL / files too")
    parser.add_argument("--statement-log", action="store_true",
                        help="with --postgres: count the statements a move as the database's "
                             "log has them (log_statement = all, which costs the database "
                             "CPU: quote the speed of a run without it); the transactions "
                             "counted otherwise include the listener's reads of the "
                             "notification queue")
    args = parser.parse_args(argv)
    if not 1 <= args.seconds <= 600:
        parser.error("--seconds must be between 1 and 600")
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        print(f"bench_bgio needs node (v18 or later) and npm to run boardgame.io; not found: "
              f"{', '.join(missing)}", file=sys.stderr)
        return 2
    modules, version = ensure_bgio()
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    args.work = os.environ.get("DEVIL_BENCH_DIR", "/tmp/devil-bench")
    os.makedirs(args.work, exist_ok=True)
    try:
        import httptools  # noqa: F401
        http = "httptools"
    except ImportError:
        http = "h11"
    extra = ([QUEUED] if args.with_queue else []) + ([POSTGRES] if args.postgres else [])
    if args.postgres:
        from benchmarks import load

        args.database = load.throwaway_database()
    load_before = os.getloadavg()
    began = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    rows = []
    for clients in [int(n) for n in args.clients.split(",")]:
        for target, _label in TARGETS + extra:
            rows.append(measure(modules, target, clients, args))
    load_after = os.getloadavg()
    print()
    print(f"{began}, boardgame.io {version}, node {node}, Python {platform.python_version()} "
          f"(uvicorn's HTTP parser: {http}), {args.tables} tables, {args.seconds:g} s each, load "
          f"average {load_before[0]:.1f} before, {load_after[0]:.1f} after")
    print("| clients | server | moves/s | server CPU ms/move | driver CPU ms/move | p50 ms | "
          "p99 ms | moves |")
    print("|---|---|---|---|---|---|---|---|")
    by = {(r["clients"], r["store"]): r for r in rows}
    for row in rows:
        print(f"| {row['clients']} | {LABELS[row['store']]} | {row['per_second']} | "
              f"{row['server_cpu_ms_per_move']} | {row['driver_cpu_ms_per_move']} | "
              f"{row['p50_ms']} | {row['p99_ms']} | {row['moves']} |")
    print()
    print("| clients | devil / FlatFile | devil / in memory |"
          + (" devil PostgreSQL / files |" if args.postgres else ""))
    print("|---|---|---|" + ("---|" if args.postgres else ""))
    ratios = []
    for clients in sorted({r["clients"] for r in rows}):
        d, f, m = (by[(clients, t)]["per_second"] for t, _ in TARGETS)
        ratio = {"clients": clients, "devil_flatfile": round(d / f, 3) if f else None,
                 "devil_memory": round(d / m, 3) if m else None}
        if args.postgres:
            p = by[(clients, POSTGRES[0])]["per_second"]
            ratio["postgres_files"] = round(p / d, 3) if d else None
        ratios.append(ratio)
        print(f"| {clients} | {ratio['devil_flatfile']}x | {ratio['devil_memory']}x |"
              + (f" {ratio['postgres_files']}x |" if args.postgres else ""))
    print(json.dumps({"benchmark": "bgio", "date": began, "boardgame.io": version, "node": node,
                      "http": http, "tables": args.tables, "seconds": args.seconds,
                      "load": [round(load_before[0], 2), round(load_after[0], 2)],
                      "ratios": ratios,
                      "rows": [{k: v for k, v in r.items() if k not in ("errors", "problems")}
                               for r in rows]}))
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
