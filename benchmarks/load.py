"""Load test of `devil serve`: concurrent clients over many games, loopback only.

    python -m benchmarks.load [--clients 50] [--games 20] [--seconds 30] [--store DIR|URL]
                              [--nodes 2]
    python -m benchmarks.load --matrix [--seconds 10] [--json] [--before REV]

Starts real servers (uvicorn subprocesses, ``--nodes`` of them on one store) on free 127.0.0.1
ports and a fresh store, then runs ``--clients`` asyncio clients over ``--games`` tables of Auf
Teufel komm raus.  Each table's seats are spread over the nodes (seat i talks to node i mod
nodes).  With no more clients than tables a client plays every seat of its tables; with more,
each client is one seat.  A client reads a seat's legal commands and view, submits one (with a
fresh Idempotency-Key; 2% are sent twice to exercise retries), moves on to its next seat, and
long-polls a game's events when none of its seats can act.  A table whose game ends starts a
new game.  After ``--seconds`` it prints commands per second and the p50 / p99 latency of a
command, stops the servers and checks every game: its .devlog verifies (engine.replay.
verify_bytes: hash chain, seed, strict refold), and every acknowledged command id is in its log
exactly once (and none twice).  Exit status 0 when every check passes.

``--matrix`` measures in one run: one node on files, one node on PostgreSQL, two nodes on
PostgreSQL, each at 1, 10 and 50 clients over ``--games`` (20) tables, and prints a table and
one JSON line.  Without ``--database URL`` (a server where it may create databases) it starts a
throwaway cluster (tests/pg.py) with ``fsync`` and ``synchronous_commit`` on, so that a
PostgreSQL commit is as durable as the file store's fsync.  With ``--before REV`` every
configuration is measured twice back to back, with the servers of REV (``git archive REV engine
client``, unpacked into a temporary folder) and then of this tree: a paired run, each pair
under the same load of the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

import httpx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from engine.log import scan  # noqa: E402
from engine.replay import verify_bytes  # noqa: E402
from engine.store import open_store  # noqa: E402

NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(store: str, port: int, root: str = ROOT) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=root)
    env.pop("DEVIL_ORGANISER_KEY", None)
    proc = subprocess.Popen([sys.executable, "-m", "client.cli", "serve", "--store", store,
                             "--host", "127.0.0.1", "--port", str(port),
                             "--no-seat-entropy"],  # the bots play at once, on the server's seed
                            cwd=root, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited: {proc.stderr.read().decode()[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("server did not start")


def choose(view: dict, me: str, legal: list[dict], rng: random.Random) -> dict:
    """Bet up to 100, draw until the coal total reaches the highest revealed bet, then stop."""
    bets = [c for c in legal if c["type"] == "bet"]
    if bets:
        return rng.choice([c for c in bets if c["amount"] <= 100])
    mine = next(p for p in view["players"] if p["name"] == me)
    target = max([p["bet"] or 0 for p in view["players"]] + [30])
    stops = [c for c in legal if c["type"] == "stop"]
    if stops and mine["total"] >= target:
        return stops[0]
    return next(c for c in legal if c["type"] == "draw")


class Table:
    """One of the concurrent tables: its current game and tokens; a new game when it ends."""

    def __init__(self, http: httpx.AsyncClient, players: list[str], seed: int):
        self.http, self.players, self.seed = http, players, seed
        self.created: dict | None = None
        self.lock = asyncio.Lock()
        self.games: list[dict] = []

    async def new_game(self, over: str | None = None) -> dict:
        async with self.lock:
            if self.created is None or self.created["game"] == over:
                self.seed += 1
                response = await self.http.post("/games", json={
                    "kind": "atkr", "options": {"players": self.players}, "seed": self.seed})
                response.raise_for_status()
                self.created = response.json()
                self.games.append(self.created)
            return self.created


class Stats:
    def __init__(self):
        self.latencies: list[float] = []
        self.acked: dict[str, list[str]] = {}  # game -> acknowledged command ids
        self.retries = 0
        self.refused = 0
        self.errors: list[str] = []
        self.reads = 0
        self.elapsed = 0.0
        self.watched: list[int] = []  # the seqs a spectator's long-poll received, in order
        self.watched_game: str | None = None


class Seat:
    """One seat of a table: which player, and the node its requests go to."""

    def __init__(self, table: Table, index: int, url: str):
        self.table, self.index, self.url = table, index, url
        self.name = table.players[index]
        self.version = 0
        self.view: dict | None = None  # the latest view with "legal" (None: read it again)


def connections(seats: list[Seat]) -> dict[str, httpx.AsyncClient]:
    """A client's own connection to each node its seats use (as separate players would have;
    made before the clock starts: an httpx client costs milliseconds of CPU to make)."""
    return {url: httpx.AsyncClient(base_url=url, timeout=30)
            for url in sorted({seat.url for seat in seats})}


async def client(https: dict, seats: list[Seat], stats: Stats, deadline: float,
                 rng: random.Random):
    """One client: plays its seats until ``deadline``."""
    try:
        await play(https, seats, stats, deadline, rng)
    finally:
        for http in https.values():
            await http.aclose()


async def play(https: dict, seats: list[Seat], stats: Stats, deadline: float,
               rng: random.Random):
    """Act for whichever of ``seats`` may (the answer to each command carries that seat's next
    view and legal commands); when none may, long-poll the first seat's game."""
    while time.monotonic() < deadline:
        acted = False
        for seat in seats:
            if time.monotonic() >= deadline:
                return
            acted |= await step(https[seat.url], seat, stats, rng)
        if not acted:
            seat = seats[0]
            created = seat.table.created
            game = created["game"]
            headers = {"Authorization": f"Bearer {created['tokens'][seat.name]}"}
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                polled = (await https[seat.url].get(f"/games/{game}/events", headers=headers,
                                                    params={"after": seat.version,
                                                            "wait": min(0.5, left)})).json()
                stats.reads += 1
                seat.version = max(seat.version, polled["version"])
                if polled["over"]:
                    await seat.table.new_game(over=game)
            except httpx.HTTPError as exc:
                stats.errors.append(f"{type(exc).__name__}: {exc}")
                await asyncio.sleep(0.1)


async def step(http: httpx.AsyncClient, seat: Seat, stats: Stats, rng: random.Random) -> bool:
    """Submit one command for ``seat`` if it may act; whether it did."""
    created = seat.table.created
    game, token = created["game"], created["tokens"][seat.name]
    headers = {"Authorization": f"Bearer {token}"}
    try:
        if seat.view is None or seat.view.get("game") != game:
            seat.view = (await http.get(f"/games/{game}/view", headers=headers,
                                        params={"legal": "true"})).json()
            stats.reads += 1
            if seat.view.get("game") != game:
                seat.version = 0
            seat.version = max(seat.version, seat.view["version"])
        view = seat.view
        if not view["legal"]:
            seat.view = None
            if view.get("phase") == "over":
                await seat.table.new_game(over=game)
            return False
        command = choose(view, seat.name, view["legal"], rng)
        key = uuid.uuid4().hex
        began = time.perf_counter()
        response = await http.post(f"/games/{game}/commands", json=command,
                                   params={"legal": "true"},
                                   headers={**headers, "Idempotency-Key": key})
        stats.latencies.append(time.perf_counter() - began)
        seat.view = None
        if response.status_code == 201:
            stats.acked.setdefault(game, []).append(key)
            seat.view = response.json()["view"]
            seat.version = max(seat.version, seat.view["version"])
            if rng.random() < 0.02:  # a client that did not hear the answer retries
                again = await http.post(f"/games/{game}/commands", json=command,
                                        headers={**headers, "Idempotency-Key": key})
                stats.retries += 1
                if again.status_code != 200 or not again.json()["repeated"]:
                    stats.errors.append(f"retry of {key} answered {again.status_code}")
            return True
        if response.status_code == 409 and response.json().get("code") == 1:
            stats.refused += 1  # refused by the rules (the table moved on): nothing recorded
        else:
            stats.errors.append(f"{response.status_code}: {response.text[:200]}")
    except httpx.HTTPError as exc:
        seat.view = None
        stats.errors.append(f"{type(exc).__name__}: {exc}")
        await asyncio.sleep(0.1)
    return False


def seat_plan(clients: int, games: int) -> list[int]:
    """Players per table: 2 each while there are no more clients than tables, else as many
    as make one seat per client (2 to 6 each)."""
    if clients <= games:
        return [2] * games
    base, extra = divmod(clients, games)
    sizes = [base + (1 if i < extra else 0) for i in range(games)]
    if min(sizes) < 2 or max(sizes) > 6:
        raise SystemExit("need at most 6 clients per game")
    return sizes


async def run(urls: list[str], clients: int, games: int, seconds: float,
              seed: int) -> tuple[Stats, list]:
    stats = Stats()
    limits = httpx.Limits(max_connections=clients + 10, max_keepalive_connections=clients + 10)
    async with httpx.AsyncClient(base_url=urls[0], timeout=30, limits=limits) as http:
        tables = [Table(http, NAMES[:n], seed * 1000 + i * 100) for i, n in
                  enumerate(seat_plan(clients, games))]
        await asyncio.gather(*(t.new_game() for t in tables))
        owned: list[list[Seat]] = [[] for _ in range(clients)]
        number = 0
        for t, table in enumerate(tables):
            for s in range(len(table.players)):
                seat = Seat(table, s, urls[s % len(urls)])
                owned[t % clients if clients <= games else number].append(seat)
                number += 1
        https = [connections(seats) for seats in owned]
        began = time.monotonic()
        deadline = began + seconds
        rng = random.Random(seed)
        done = asyncio.Event()
        watching = asyncio.create_task(watch(urls[-1], tables[0].created, stats, done))
        await asyncio.gather(*(client(h, seats, stats, deadline, random.Random(rng.random()))
                               for h, seats in zip(https, owned)))
        stats.elapsed = time.monotonic() - began
        done.set()
        await watching
    return stats, tables


async def watch(url: str, created: dict, stats: Stats, done: asyncio.Event) -> None:
    """A spectator long-polling one game's events on the last node while the load runs, as
    `devil watch` does: every event must arrive exactly once, in order (checked by verify).
    Once the clients stopped it reads until nothing is left."""
    game, token = created["game"], created["tokens"]["spectator"]
    after = 0
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        while True:
            final = done.is_set()
            response = await http.get(f"/games/{game}/events",
                                      params={"after": after, "wait": 0 if final else 2},
                                      headers={"Authorization": f"Bearer {token}"})
            data = response.json()
            for event in data["events"]:
                stats.watched.append(event["seq"])
                after = event["seq"]
            if data["over"] and not data["events"] or (final and not data["events"]):
                break
    stats.watched_game = game


def verify(store: str, stats: Stats, tables: list) -> list[str]:
    """Every game's log verifies, and every acknowledged command id is in it exactly once."""
    problems = []
    opened = open_store(store)
    try:
        for table in tables:
            for created in table.games:
                game = created["game"]
                try:
                    data = opened.log_bytes(game)
                    checked = verify_bytes(data)
                    if not checked.ok:
                        problems.append(f"{game}: does not verify: {checked}")
                        continue
                    records = scan(data).records
                except Exception as exc:  # noqa: BLE001 - report every failure
                    problems.append(f"{game}: {exc}")
                    continue
                runs: dict[str, int] = {}
                previous = None
                for record in records:
                    if record.cmd is not None and record.cmd != previous:
                        runs[record.cmd] = runs.get(record.cmd, 0) + 1
                    previous = record.cmd
                doubled = [k for k, n in runs.items() if n != 1]
                missing = [k for k in stats.acked.get(game, []) if k not in runs]
                if doubled:
                    problems.append(f"{game}: command ids recorded twice: {doubled[:5]}")
                if missing:
                    problems.append(f"{game}: acknowledged commands missing: {missing[:5]}")
                if len(set(stats.acked.get(game, []))) != len(stats.acked.get(game, [])):
                    problems.append(f"{game}: a command id was acknowledged as new twice")
                if game == stats.watched_game and stats.watched != [r.seq for r in records]:
                    problems.append(f"{game}: the watcher did not see every event exactly once "
                                    f"in order ({len(stats.watched)} seen, {len(records)} in "
                                    "the log)")
    finally:
        close = getattr(opened, "close", None)
        if close is not None:
            close()
    return problems


def cpu_seconds(pid: int, children: bool = False) -> float:
    """The CPU time (user + system, s) process ``pid`` used so far (with ``children``: and its
    children that have exited and been waited for); 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rpartition(")")[2].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / os.sysconf("SC_CLK_TCK")


#: the throwaway cluster's postmaster.pid (set by throwaway_database), to count its CPU
POSTMASTER: str | None = None


def database_cpu() -> float:
    """The CPU time the throwaway cluster used so far (the postmaster, its live children and
    those that exited); 0 without one (a --database server is not counted)."""
    if POSTMASTER is None:
        return 0.0
    with open(POSTMASTER) as handle:
        master = int(handle.readline())
    total = cpu_seconds(master, children=True)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    parent = int(handle.read().rpartition(")")[2].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if parent == master:
                total += cpu_seconds(int(entry))
    return total


def statements(store: str) -> int | None:
    """The transactions the database of a ``postgresql://`` store has committed so far
    (``pg_stat_database.xact_commit``), or None for a folder.  Each of the store's statements
    is one autocommit transaction, and so is each read of the notification queue by a
    listening node's connection (PostgreSQL reads it in a transaction: up to one a
    notification, fewer when several are read together); the statements alone are counted by
    the server's log in ``benchmarks.bench_statements`` and ``benchmarks.bench_bgio
    --statement-log``."""
    if not store.startswith(("postgresql://", "postgres://")):
        return None
    import psycopg

    with psycopg.connect(store, autocommit=True) as conn:
        row = conn.execute("SELECT xact_commit FROM pg_stat_database "
                           "WHERE datname = current_database()").fetchone()
    return None if row is None else int(row[0])


def measure(store: str, nodes: int, clients: int, games: int, seconds: float,
            seed: int, root: str = ROOT) -> dict:
    """One configuration: ``nodes`` servers on ``store``, the load, the checks; a result row
    (with the servers' CPU time a command and, on the throwaway cluster, the database's)."""
    servers = []
    server_cpu = database_used = 0.0
    committed: int | None = None
    database_before = database_cpu()
    try:
        ports = []
        for _ in range(nodes):
            port = free_port()
            servers.append(start_server(store, port, root))
            ports.append(port)
        started = sum(cpu_seconds(server.pid) for server in servers)  # start-up left out
        committed = statements(store)
        stats, tables = asyncio.run(asyncio.wait_for(
            run([f"http://127.0.0.1:{port}" for port in ports], clients, games, seconds, seed),
            timeout=seconds + 120))
        server_cpu = sum(cpu_seconds(server.pid) for server in servers) - started
        database_used = database_cpu() - database_before
        if committed is not None:  # the statistics are sent at each transaction's end
            time.sleep(0.6)
            committed = (statements(store) or committed) - committed - 1  # less this query
    finally:
        for server in servers:
            server.send_signal(signal.SIGTERM)
        for server in servers:
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
    commands = sum(len(v) for v in stats.acked.values())
    lat = sorted(stats.latencies)
    problems = verify(store, stats, tables)
    return {
        "nodes": nodes, "clients": clients, "games": games, "seconds": round(stats.elapsed, 2),
        "commands": commands, "per_second": round(commands / stats.elapsed, 1),
        "p50_ms": round(statistics.median(lat) * 1000, 2) if lat else None,
        "p99_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, 2) if lat else None,
        "reads": stats.reads, "retries": stats.retries, "refused": stats.refused,
        "played": sum(len(t.games) for t in tables),
        "finished": sum(len(t.games) - 1 for t in tables),
        "watched": len(stats.watched),
        # CPU per command, the start-up and the final checks left out (the database's includes
        # the stores' creation, a few ms): of all the nodes together, and the database server's
        "server_cpu_ms": round(server_cpu * 1000 / max(1, commands), 3),
        "db_cpu_ms": round(database_used * 1000 / max(1, commands), 3) if POSTMASTER else None,
        # PostgreSQL: the database's transactions a command (the nodes' statements, every
        # request's and the tables' creation, and the listeners' reads of the notifications)
        "transactions": None if committed is None else round(committed / max(1, commands), 2),
        "errors": stats.errors[:10], "problems": problems,
        "ok": not problems and not stats.errors,
    }


def report(label: str, row: dict) -> None:
    print(f"{label}: {row['clients']} clients, {row['games']} tables, {row['seconds']} s: "
          f"{row['commands']} commands ({row['per_second']}/s), p50 {row['p50_ms']} ms, "
          f"p99 {row['p99_ms']} ms, {row['reads']} reads, games {row['played']} played / "
          f"{row['finished']} finished, retries {row['retries']}, refused {row['refused']}, "
          f"CPU a command {row['server_cpu_ms']} ms (the nodes), database {row['db_cpu_ms']} ms"
          + (f", {row['transactions']} database transactions"
             if row.get("transactions") is not None else "")
          + "; "
          f"verified: {'OK' if row['ok'] else 'FAILED'}", flush=True)
    for error in row["errors"]:
        print(f"  error: {error}")
    for problem in row["problems"]:
        print(f"  PROBLEM: {problem}")


def throwaway_database():
    """A function making fresh databases: in a throwaway cluster (tests/pg.py) with durable
    commits switched on (the test cluster runs with fsync off)."""
    from tests import pg

    global POSTMASTER
    cluster = pg.cluster()
    POSTMASTER = os.path.join(cluster.data, "postmaster.pid")
    cluster.execute("ALTER SYSTEM SET fsync = on")
    cluster.execute("ALTER SYSTEM SET synchronous_commit = on")
    cluster.execute("ALTER SYSTEM SET full_page_writes = on")
    cluster.execute("SELECT pg_reload_conf()")
    return cluster.database


def unpack(rev: str) -> str:
    """``engine`` and ``client`` of revision ``rev``, in a new temporary folder."""
    import io
    import tarfile

    data = subprocess.run(["git", "archive", rev, "engine", "client"], cwd=ROOT,
                          capture_output=True, check=True).stdout
    folder = tempfile.mkdtemp(prefix=f"devil-{rev}-")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(folder)
    return folder


def matrix(args) -> int:
    if args.database:
        from engine.store.postgres.schema import init

        base = args.database.rsplit("/", 1)[0]
        counter = iter(range(1, 1000))

        def fresh() -> str:
            import psycopg

            name = f"devil_load_{os.getpid()}_{next(counter)}"
            with psycopg.connect(args.database, autocommit=True) as conn:
                conn.execute(f"CREATE DATABASE {name}")
            url = f"{base}/{name}"
            init(url)
            return url
    else:
        fresh = throwaway_database()
    configurations = [("1 node, files", 1, lambda: tempfile.mkdtemp(prefix="devil-load-")),
                      ("1 node, PostgreSQL", 1, fresh), ("2 nodes, PostgreSQL", 2, fresh)]
    trees = [("this tree", ROOT)]
    if args.before:
        trees.insert(0, (args.before, unpack(args.before)))
    rows = []
    for clients in args.clients_list:
        for label, nodes, make in configurations:
            for tree, root in trees:
                row = measure(make(), nodes, clients, args.games, args.seconds, args.seed, root)
                row["store"], row["tree"] = label, tree
                report(f"{label} ({tree})", row)
                rows.append(row)
    print()
    print("| clients | store | tree | commands/s | p50 ms | p99 ms | commands | nodes' CPU ms a "
          "command | database CPU ms a command | database transactions a command | verified |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['clients']} | {row['store']} | {row['tree']} | {row['per_second']} | "
              f"{row['p50_ms']} | {row['p99_ms']} | {row['commands']} | {row['server_cpu_ms']} | "
              f"{row['db_cpu_ms'] if row['nodes'] and 'PostgreSQL' in row['store'] else '-'} | "
              f"{'-' if row['transactions'] is None else row['transactions']} | "
              f"{'OK' if row['ok'] else 'FAILED'} |")
    print(json.dumps({"benchmark": "load", "games": args.games, "seconds": args.seconds,
                      "rows": [{k: v for k, v in row.items() if k not in ("errors", "problems")}
                               for row in rows]}))
    return 0 if all(row["ok"] for row in rows) else 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=None,
                        help="per configuration (default 30, 10 with --matrix)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=1, help="servers on the one store")
    parser.add_argument("--store", help="a store folder or postgresql:// URL (default: a fresh "
                                        "temporary folder)")
    parser.add_argument("--matrix", action="store_true",
                        help="files / PostgreSQL / two nodes on PostgreSQL at 1, 10, 50 clients")
    parser.add_argument("--matrix-clients", default="1,10,50", metavar="N,N,...")
    parser.add_argument("--before", metavar="REV",
                        help="with --matrix: also measure revision REV's servers, each "
                             "configuration back to back with this tree's (a paired run)")
    parser.add_argument("--database", metavar="URL",
                        help="with --matrix: a PostgreSQL server to create databases on "
                             "(default: a throwaway cluster)")
    args = parser.parse_args(argv)
    if args.seconds is None:
        args.seconds = 10.0 if args.matrix else 30.0
    if not 1 <= args.seconds <= 600:
        raise SystemExit("--seconds must be between 1 and 600")
    if args.matrix:
        args.clients_list = [int(n) for n in args.matrix_clients.split(",")]
        return matrix(args)
    store = args.store or tempfile.mkdtemp(prefix="devil-load-")
    row = measure(store, args.nodes, args.clients, args.games, args.seconds, args.seed)
    report(f"devil serve load test ({args.nodes} node(s), store {store})", row)
    print(json.dumps({k: v for k, v in row.items() if k not in ("errors", "problems")}))
    return 0 if row["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
