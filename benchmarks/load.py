"""Load test of `devil serve` (issue 5): many concurrent clients over many games, loopback only.

    python benchmarks/load.py [--clients 50] [--games 20] [--seconds 30] [--store DIR]

Starts a real server (uvicorn, a subprocess) on a free 127.0.0.1 port and a fresh store, then
runs ``--clients`` asyncio clients, each the token of one seat at one of ``--games`` tables of
Auf Teufel komm raus.  A client reads its legal commands and view, submits one (with a fresh
Idempotency-Key; 2% are sent twice to exercise retries), and long-polls the game's events when
it cannot act.  A table whose game ends starts a new game.  After ``--seconds`` it prints
commands per second and the p50 / p99 latency of a command, stops the server and checks every
game: the hash chain (engine.log.read_path), a full fold, and that every acknowledged command
id is in its log exactly once (and none twice).  Exit status 0 when every check passes.
"""

from __future__ import annotations

import argparse
import asyncio
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

from engine.log import read_path  # noqa: E402
from engine.service import GameService  # noqa: E402
from engine.store import FileStore  # noqa: E402

NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(store: str, port: int) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("DEVIL_ORGANISER_KEY", None)
    proc = subprocess.Popen([sys.executable, "-m", "client.cli", "--store", store, "serve",
                             "--host", "127.0.0.1", "--port", str(port)], cwd=ROOT, env=env,
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


async def client(table: Table, seat: int, stats: Stats, deadline: float, rng: random.Random):
    """One seat with its own connection (as separate players would have)."""
    async with httpx.AsyncClient(base_url=str(table.http.base_url), timeout=30) as http:
        await play_seat(http, table, seat, stats, deadline, rng)


async def play_seat(http, table: Table, seat: int, stats: Stats, deadline: float,
                    rng: random.Random):
    """Act while the seat may (the answer to each command carries the next view and legal
    commands), otherwise long-poll the game's events."""
    name = table.players[seat]
    version = 0
    view = None  # the latest view with "legal", None when it must be read again
    while time.monotonic() < deadline:
        created = table.created
        game, token = created["game"], created["tokens"][name]
        headers = {"Authorization": f"Bearer {token}"}
        try:
            if view is None or view.get("game") != game:
                view = (await http.get(f"/games/{game}/view", headers=headers,
                                       params={"legal": "true"})).json()
                stats.reads += 1
                version = max(version, view["version"])
            if not view["legal"]:
                view = None
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                polled = (await http.get(f"/games/{game}/events", headers=headers, params={
                    "after": version, "wait": min(1.0, left)})).json()
                stats.reads += 1
                version = polled["version"]
                if polled["over"]:
                    await table.new_game(over=game)
                    version = 0
                continue
            command = choose(view, name, view["legal"], rng)
            key = uuid.uuid4().hex
            began = time.perf_counter()
            response = await http.post(f"/games/{game}/commands", json=command,
                                       params={"legal": "true"},
                                       headers={**headers, "Idempotency-Key": key})
            stats.latencies.append(time.perf_counter() - began)
            view = None
            if response.status_code == 201:
                stats.acked.setdefault(game, []).append(key)
                view = response.json()["view"]
                version = max(version, view["version"])
                if rng.random() < 0.02:  # a client that did not hear the answer retries
                    again = await http.post(f"/games/{game}/commands", json=command,
                                            headers={**headers, "Idempotency-Key": key})
                    stats.retries += 1
                    if again.status_code != 200 or not again.json()["repeated"]:
                        stats.errors.append(f"retry of {key} answered {again.status_code}")
            elif response.status_code == 409 and response.json().get("code") == 1:
                stats.refused += 1  # refused by the rules (the table moved on): nothing recorded
            else:
                stats.errors.append(f"{response.status_code}: {response.text[:200]}")
        except httpx.HTTPError as exc:
            view = None
            stats.errors.append(f"{type(exc).__name__}: {exc}")
            await asyncio.sleep(0.1)


def seat_plan(clients: int, games: int) -> list[int]:
    """Players per table so that the seats add up to ``clients`` (2 to 6 each)."""
    base, extra = divmod(clients, games)
    sizes = [base + (1 if i < extra else 0) for i in range(games)]
    if min(sizes) < 2 or max(sizes) > 6:
        raise SystemExit("need 2 to 6 clients per game")
    return sizes


async def run(url: str, clients: int, games: int, seconds: float, seed: int) -> tuple[Stats, list]:
    stats = Stats()
    limits = httpx.Limits(max_connections=clients + 10, max_keepalive_connections=clients + 10)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as http:
        tables = [Table(http, NAMES[:n], seed * 1000 + i * 100) for i, n in
                  enumerate(seat_plan(clients, games))]
        await asyncio.gather(*(t.new_game() for t in tables))
        began = time.monotonic()
        deadline = began + seconds
        rng = random.Random(seed)
        await asyncio.gather(*(client(t, s, stats, deadline, random.Random(rng.random()))
                               for t in tables for s in range(len(t.players))))
        stats.elapsed = time.monotonic() - began
    return stats, tables


def verify(store: str, stats: Stats, tables: list) -> list[str]:
    problems = []
    service = GameService(FileStore(store))
    for table in tables:
        for created in table.games:
            game = created["game"]
            path = os.path.join(store, game + ".devlog")
            try:
                records = read_path(path).records  # the hash chain
                service.load(game)  # a full fold
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
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--store", help="store folder (default: a fresh temporary folder)")
    args = parser.parse_args(argv)
    if not 1 <= args.seconds <= 600:
        raise SystemExit("--seconds must be between 1 and 600")
    store = args.store or tempfile.mkdtemp(prefix="devil-load-")
    port = free_port()
    server = start_server(store, port)
    try:
        stats, tables = asyncio.run(asyncio.wait_for(
            run(f"http://127.0.0.1:{port}", args.clients, args.games, args.seconds, args.seed),
            timeout=args.seconds + 120))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
    commands = sum(len(v) for v in stats.acked.values())
    lat = sorted(stats.latencies)
    p50 = statistics.median(lat) * 1000 if lat else float("nan")
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else float("nan")
    played = sum(len(t.games) for t in tables)
    finished = sum(1 for t in tables for c in t.games[:-1])
    print(f"devil serve load test: {args.clients} clients, {args.games} tables, "
          f"{stats.elapsed:.1f} s, store {store}")
    print(f"  commands acknowledged: {commands}  ({commands / stats.elapsed:.1f} commands/s)")
    print(f"  command latency: p50 {p50:.1f} ms, p99 {p99:.1f} ms  (n={len(lat)})")
    print(f"  reads (legal, view, long-polls): {stats.reads} ({stats.reads / stats.elapsed:.1f}/s)")
    print(f"  games: {played} played, {finished} finished; retries with the same id: "
          f"{stats.retries}; refused by the rules: {stats.refused}")
    problems = verify(store, stats, tables)
    for error in stats.errors[:10]:
        print(f"  error: {error}")
    for problem in problems:
        print(f"  PROBLEM: {problem}")
    ok = not problems and not stats.errors
    print(f"  verification: every game's hash chain and fold {'OK' if not problems else 'FAILED'};"
          f" acknowledged commands missing or doubled: {'none' if not problems else 'SEE ABOVE'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
