"""Submit latency by game length: one command's latency when the game already holds 10, 100,
1,000 and 10,000 events, in-process and over HTTP, beside the eventsourcing library.

    python -m benchmarks.bench_submit [--lengths 10,100,1000,10000] [--commands 50] [--no-http]

The comparison needs the eventsourcing library, which is a benchmark-only reference and not
one of devil's dependencies: ``pip install eventsourcing==9.5.6`` (the HTTP part needs uvicorn
and httpx, which ``pip install -e '.[test]'`` brings).

The game: a physical Auf Teufel komm raus game, 4 players, ring capacity 47 (the furnace is
refilled every round), in which everyone bets 0 and the referee reports a devil for every
draw.  Nobody wins or loses money, so the game never ends and reaches any length; a round is 8
commands and 12 events (4 bets, bets revealed, 4 devils, pawns, refill, next round).  A physical
game's decisions are deterministic, so the benchmark keeps its own fold to know the next
command whichever way it was sent.  For each length a fresh game is built to that length
through ``GameService.submit`` on a FileStore (every command fsynced; not timed), then:

* in-process: ``--commands`` further commands through ``GameService.submit`` on the same warm
  service, each timed alone (decide, append, fsync, fold): median and p90;
* HTTP: a real uvicorn process on 127.0.0.1 serving ``engine.web.app.create_app`` on the same store
  folder, an httpx client (keep-alive) posting ``/games/{id}/commands`` with the seat's token for
  a bet and the referee's for a coal report, with an Idempotency-Key; 5 warm-up commands per
  game first (the server's first request folds the game from its log);
* eventsourcing 9.5.6: an aggregate with that many events in its SQLite recorder (a file
  database, WAL, one file per length), snapshotting every ``--es-interval`` events; each timed
  step is ``repository.get`` + one command (one new event) + ``save``.

The timed commands add events to the game (about 1.5 events a command), so "at 10" means the
first timed command sees 10 events.  Also printed: the latency of a bare 100-byte append +
fsync to a file in the same folder (the floor of any durable command here).

Targets (issue): in-process, our 10,000 figure at most 1.5x our 10 figure, and at most
eventsourcing's figure at every length.  Ends with one JSON line of the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from engine.game import REFEREE
from engine.games.atkr import RULES
from engine.games.atkr.commands import Bet, Draw
from engine.service import GameService
from engine.store import FileStore, MemoryStore

PLAYERS = ["Anna", "Ben", "Cleo", "Dan"]
OPTIONS = {"players": PLAYERS, "physical": True, "ring": 47}
DEVIL = 0


def stats(samples: list[float]) -> dict:
    """Median and p90 of ``samples`` (seconds) in milliseconds."""
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, int(round(0.9 * (len(ordered) - 1))))]
    return {"median_ms": round(statistics.median(ordered) * 1000, 3),
            "p90_ms": round(p90 * 1000, 3), "n": len(ordered)}


class Script:
    """The never-ending game's next command, from a fold the benchmark keeps itself."""

    def __init__(self, events: list):
        self.state = RULES.fold(events)
        self.events = len(events)

    def next(self) -> tuple[object, object]:
        """``(command, actor)``: a seat's bet of 0, or the referee's report of a devil."""
        state = self.state
        for seat in range(state.n):
            if RULES.legal_commands(state, seat):
                if state.phase == "bet":
                    return Bet(state.players[seat], 0), seat
                return Draw(state.players[seat], DEVIL), REFEREE
        raise RuntimeError("nobody can act: the script's game ended")

    def done(self, command) -> None:
        """Fold what ``command`` caused (a physical game decides without chance)."""
        events = RULES.decide(self.state, command, None)
        self.state = RULES.fold(events, self.state)
        self.events += len(events)


def build(service: GameService, length: int) -> tuple[str, Script]:
    """A new game with at least ``length`` events (every command submitted and fsynced)."""
    loaded = service.create("atkr", dict(OPTIONS))
    script = Script(list(loaded.events))
    i = 0
    while script.events < length:
        command, actor = script.next()
        service.submit(loaded.game, command, actor=actor, command_id=f"b{i}")
        script.done(command)
        i += 1
    return loaded.game, script


def time_inprocess(service: GameService, games: dict, commands: int) -> dict[int, list[float]]:
    """``commands`` timed submits per game, interleaved across the games (one command to each
    game in turn) so that a busy spell of the shared machine hits every length alike."""
    samples: dict[int, list[float]] = {length: [] for length in games}
    submit = service.submit
    for i in range(commands):
        for length, (game, script) in games.items():
            command, actor = script.next()
            started = time.perf_counter()
            submit(game, command, actor=actor, command_id=f"p{i}")
            samples[length].append(time.perf_counter() - started)
            script.done(command)
    return samples


def fsync_floor(directory: str, count: int = 50) -> list[float]:
    """A 100-byte append + fsync, ``count`` times, in ``directory``."""
    path = os.path.join(directory, "fsync-probe")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    samples = []
    try:
        for _ in range(count):
            started = time.perf_counter()
            os.write(fd, b"x" * 100)
            os.fsync(fd)
            samples.append(time.perf_counter() - started)
    finally:
        os.close(fd)
        os.remove(path)
    return samples


# -- HTTP -----------------------------------------------------------------------------------------
SERVER = ("import sys, uvicorn\n"
          "from engine.web import create_app\n"
          "uvicorn.run(create_app(sys.argv[1]), host='127.0.0.1', port=int(sys.argv[2]), "
          "log_level='warning', access_log=False)\n")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(store: str, port: int) -> subprocess.Popen:
    import httpx

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root)
    env.pop("DEVIL_ORGANISER_KEY", None)
    proc = subprocess.Popen([sys.executable, "-c", SERVER, store, str(port)], cwd=root, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
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


def time_http(client, games: dict, tokens: dict, commands: int, warmup: int = 5
              ) -> dict[int, list[float]]:
    """Like :func:`time_inprocess` over HTTP; ``warmup`` untimed commands per game first."""
    samples: dict[int, list[float]] = {length: [] for length in games}
    for i in range(warmup + commands):
        for length, (game, script) in games.items():
            command, actor = script.next()
            seat = "referee" if actor is REFEREE else PLAYERS[actor]
            token = tokens[length][seat]
            body = RULES.commands.to_map(command)
            headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": f"h{i}"}
            started = time.perf_counter()
            response = client.post(f"/games/{game}/commands", json=body, headers=headers)
            elapsed = time.perf_counter() - started
            if response.status_code != 201:
                raise SystemExit(f"HTTP {response.status_code}: {response.text}")
            script.done(command)
            if i >= warmup:
                samples[length].append(elapsed)
    return samples


# -- eventsourcing --------------------------------------------------------------------------------
_ES_CLASSES: dict = {}


def es_classes(interval: int):
    """The eventsourcing aggregate and application (defined once: the library registers topics)."""
    if interval in _ES_CLASSES:
        return _ES_CLASSES[interval]
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class Game(Aggregate):
        def __init__(self):
            self.draws = 0

        @event("CoalDrawn")
        def coal_drawn(self, seat: int, coal: int):
            self.draws += 1

    class Games(Application):
        snapshotting_intervals = {Game: interval}

    _ES_CLASSES[interval] = Game, Games
    return Game, Games


def time_eventsourcing(lengths: list[int], commands: int, interval: int, directory: str
                       ) -> dict[int, list[float]]:
    """get + one command + save on an aggregate of each length (one database file per length),
    ``commands`` times, interleaved across the lengths."""
    Game, Games = es_classes(interval)
    apps = {}
    for length in lengths:
        path = os.path.join(directory, f"es-{length}.sqlite")
        app = Games(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path})
        game = Game()
        for i in range(length - 1):  # Created is the first event
            game.coal_drawn(seat=i % 4, coal=DEVIL)
            if (i + 1) % 500 == 0:
                app.save(game)  # a snapshot is taken at every multiple of the interval saved
        app.save(game)
        apps[length] = app, game.id
    samples: dict[int, list[float]] = {length: [] for length in lengths}
    for i in range(commands):
        for length, (app, game_id) in apps.items():
            started = time.perf_counter()
            aggregate = app.repository.get(game_id)
            aggregate.coal_drawn(seat=i % 4, coal=DEVIL)
            app.save(aggregate)
            samples[length].append(time.perf_counter() - started)
    for app, _ in apps.values():
        if hasattr(app, "close"):
            app.close()
    return samples


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", default="10,100,1000,10000")
    parser.add_argument("--commands", type=int, default=100)
    parser.add_argument("--es-interval", type=int, default=100,
                        help="eventsourcing snapshotting interval (events)")
    parser.add_argument("--no-http", action="store_true")
    parser.add_argument("--no-eventsourcing", action="store_true")
    args = parser.parse_args(argv)
    lengths = [int(x) for x in args.lengths.split(",")]
    directory = tempfile.mkdtemp(prefix="devil-submit-", dir=os.environ.get("DEVIL_BENCH_DIR"))
    store_dir = os.path.join(directory, "store")
    rows: dict[int, dict] = {}
    try:
        service = GameService(FileStore(store_dir))
        games = {}
        for length in lengths:
            started = time.perf_counter()
            games[length] = build(service, length)
            rows[length] = {"events": games[length][1].events,
                            "build_s": round(time.perf_counter() - started, 1)}
            print(f"  built {games[length][0]} to {rows[length]['events']} events in "
                  f"{rows[length]['build_s']} s", file=sys.stderr)
        for length, samples in time_inprocess(service, games, args.commands).items():
            rows[length]["inprocess"] = stats(samples)
        memory = GameService(MemoryStore())
        memory_games = {length: build(memory, length) for length in lengths}
        for length, samples in time_inprocess(memory, memory_games, args.commands).items():
            rows[length]["memory"] = stats(samples)
        floor = stats(fsync_floor(store_dir))
        if not args.no_http:
            import httpx

            from engine.web.auth import TokenBook

            book = TokenBook(service.store)
            tokens = {length: book.issue(game, PLAYERS) for length, (game, _) in games.items()}
            port = free_port()
            proc = start_server(store_dir, port)
            try:
                with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                    for length, samples in time_http(client, games, tokens,
                                                     args.commands).items():
                        rows[length]["http"] = stats(samples)
            finally:
                proc.terminate()
                proc.wait(10)
        if not args.no_eventsourcing:
            for length, samples in time_eventsourcing(lengths, args.commands, args.es_interval,
                                                      directory).items():
                rows[length]["eventsourcing"] = stats(samples)
    finally:
        shutil.rmtree(directory, ignore_errors=True)

    def cell(row, key):
        s = row.get(key)
        return f"{s['median_ms']:.2f} / {s['p90_ms']:.2f}" if s else "-"

    print(f"submit latency, median / p90 ms over {args.commands} commands "
          f"(eventsourcing snapshot interval {args.es_interval})")
    print(f"{'events':>8} | {'in-process':>15} | {'no fsync (mem)':>15} | "
          f"{'HTTP (uvicorn)':>15} | {'eventsourcing':>15} | ours / es")
    for length in lengths:
        row = rows[length]
        ratio = ""
        if "eventsourcing" in row:
            ratio = f"{row['inprocess']['median_ms'] / row['eventsourcing']['median_ms']:.2f}"
        print(f"{row['events']:>8} | {cell(row, 'inprocess'):>15} | {cell(row, 'memory'):>15} | "
              f"{cell(row, 'http'):>15} | "
              f"{cell(row, 'eventsourcing'):>15} | {ratio}")
    print(f"bare 100-byte append + fsync in the same folder: {floor['median_ms']:.2f} / "
          f"{floor['p90_ms']:.2f} ms")
    first, last = rows[lengths[0]], rows[lengths[-1]]
    growth = last["inprocess"]["median_ms"] / first["inprocess"]["median_ms"]
    print(f"in-process {last['events']} vs {first['events']} events: {growth:.2f}x (target <= 1.5)")
    if "eventsourcing" in first:
        beaten = all(rows[n]["inprocess"]["median_ms"] <= rows[n]["eventsourcing"]["median_ms"]
                     for n in lengths)
        print(f"in-process at most eventsourcing's at every length: {'yes' if beaten else 'no'}")
    print(json.dumps({"benchmark": "submit", "commands": args.commands,
                      "es_interval": args.es_interval, "fsync": floor,
                      "rows": {str(n): rows[n] for n in lengths},
                      "inprocess_growth": round(growth, 2),
                      "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
                                 f"Python {platform.python_version()}"}))


if __name__ == "__main__":
    main()
