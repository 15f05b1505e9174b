"""Watchers of every role against writers in other processes (issue 21.1: no skipped event).

A :class:`Watch` is one game watched by every role (the referee, each seat, the spectator) in
every way a client follows a game: long-polling ``GET /games/{id}/events?after=N&wait=2``
(:class:`LongPoll`), the server-sent event stream ``GET /games/{id}/stream``
(:class:`Stream`, reconnecting after the last id it saw) and ``devil watch --server``
(:class:`DevilWatch`, a real CLI process).  Writers append meanwhile from wherever the test
puts them: :class:`HttpWriter` (a seat over HTTP), :class:`ServiceWriter` (a GameService of
its own on the same store: another process as far as the server knows) and
:class:`DevilLoop` (a subprocess running real ``devil show`` / ``devil submit`` commands on the
store folder).

When the writers have stopped, :meth:`Watch.check` lets every watcher catch up with the head
and compares what it printed with what that role may see of the log: the final
``GET /games/{id}/events`` with the role's token, itself checked against
:meth:`engine.game.GameRules.visible` of every record of the referee's log.  Each watcher must
have seen every entry exactly once, in order: the message names the first skipped or repeated
sequence numbers.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
import uuid

import httpx

from .conftest import ROOT, auth
from .helpers import atkr_choice

#: the CLI, run from the worktree
DEVIL = [sys.executable, "-m", "client.cli"]


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))


class _Watcher(threading.Thread):
    """One watcher: ``entries`` in the order it received them; ``done`` once it reached
    ``target`` (the last seq its role may see) or the game's end."""

    how = "?"

    def __init__(self, url: str, game: str, role: str, token: str):
        super().__init__(daemon=True, name=f"{self.how} {role}")
        self.url, self.game, self.role, self.token = url, game, role, token
        self.entries: list[dict] = []
        self.errors: list[str] = []
        self.target: int | None = None  # set by Watch.check once the writers stopped
        self.finished = threading.Event()

    def label(self) -> str:
        return f"{self.how} as {self.role} on {self.url}"

    def caught_up(self) -> bool:
        last = self.entries[-1]["seq"] if self.entries else 0
        return self.target is not None and last >= self.target

    def run(self):
        try:
            self.follow()
        except Exception as exc:  # noqa: BLE001 - reported by the check
            self.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            self.finished.set()

    def follow(self):  # pragma: no cover - each kind's own
        raise NotImplementedError

    def close(self) -> None:
        """Stop now (the check gave up waiting)."""


class LongPoll(_Watcher):
    """``GET /games/{id}/events?after=N&wait=2``, resumed with ``after=version``."""

    how = "long-poll"

    def follow(self):
        after = 0
        with httpx.Client(base_url=self.url, timeout=15, headers=auth(self.token)) as http:
            while not self.caught_up():
                data = http.get(f"/games/{self.game}/events",
                                params={"after": after, "wait": 2}).json()
                self.entries.extend(data["events"])
                after = data["version"]
                if data["over"]:
                    return


class Stream(_Watcher):
    """``GET /games/{id}/stream`` read as server-sent events; when the server closes it (its
    ``timeout``), reconnected with ``Last-Event-ID`` as a browser does."""

    how = "stream"

    def __init__(self, *args, timeout: float = 2.0):
        super().__init__(*args)
        self.timeout = timeout

    def follow(self):
        with httpx.Client(base_url=self.url, timeout=httpx.Timeout(15, read=30)) as http:
            while not self.caught_up():
                headers = {**auth(self.token), "Accept": "text/event-stream"}
                if self.entries:
                    headers["Last-Event-ID"] = str(self.entries[-1]["seq"])
                with http.stream("GET", f"/games/{self.game}/stream",
                                 params={"timeout": self.timeout}, headers=headers) as response:
                    assert response.status_code == 200, response.status_code
                    kind, data = None, []
                    for line in response.iter_lines():
                        if line == "":
                            if kind == "event":
                                self.entries.append(json.loads("\n".join(data)))
                                if self.caught_up():
                                    return
                            elif kind == "over":
                                return
                            kind, data = None, []
                        elif line.startswith("event:"):
                            kind = line[6:].strip()
                        elif line.startswith("data:"):
                            data.append(line[5:].lstrip())


class DevilWatch(_Watcher):
    """``devil --server URL --token T watch GAME --json``: a real CLI process, its lines read
    as they come; ended once it printed the last entry its role may see."""

    how = "devil watch"

    def follow(self):
        self.proc = subprocess.Popen(
            [*DEVIL, "--server", self.url, "--token", self.token, "watch", self.game, "--json",
             "--timeout", "120"], cwd=ROOT, env=_env(), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        for line in self.proc.stdout:
            if line.strip():
                self.entries.append(json.loads(line))
                if self.caught_up():
                    break
        self.close()
        self.proc.wait(timeout=10)
        if self.proc.returncode not in (0, -15):
            self.errors.append(f"exit {self.proc.returncode}: {self.proc.stderr.read()[-500:]}")

    def close(self) -> None:
        proc = getattr(self, "proc", None)
        if proc is not None and proc.poll() is None:
            proc.terminate()


class _Writer(threading.Thread):
    """A writer: plays legal commands until ``stop``; ``appended`` counts what it recorded."""

    def __init__(self, created: dict, seed: int):
        super().__init__(daemon=True)
        self.created, self.game = created, created["game"]
        self.names = list(created["players"])
        self.rng = random.Random(seed)
        self.stop = threading.Event()
        self.appended = 0
        self.errors: list[str] = []

    def run(self):
        try:
            while not self.stop.is_set() and self.step():
                pass
        except Exception as exc:  # noqa: BLE001 - reported by the test
            self.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            self.done()

    def step(self) -> bool:  # pragma: no cover - each kind's own
        raise NotImplementedError

    def done(self) -> None:
        """Release what the writer holds."""


class HttpWriter(_Writer):
    """One seat playing over HTTP with its token, on ``url``."""

    def __init__(self, created: dict, name: str, url: str, seed: int):
        super().__init__(created, seed)
        self.name = name
        self.http = httpx.Client(base_url=url, timeout=15,
                                 headers=auth(created["tokens"][name]))

    def done(self) -> None:
        self.http.close()

    def step(self) -> bool:
        view = self.http.get(f"/games/{self.game}/view", params={"legal": "true"}).json()
        if view.get("phase") == "over":
            return False
        if not view["legal"]:
            self.http.get(f"/games/{self.game}/events",
                          params={"after": view["version"], "wait": 0.3})
            return True
        command = atkr_choice(view, self.name, view["legal"])
        response = self.http.post(f"/games/{self.game}/commands", json=command,
                                  headers={"Idempotency-Key": uuid.uuid4().hex})
        if response.status_code == 201:
            self.appended += len(response.json()["events"])
        elif not (response.status_code == 409 and response.json()["code"] == 1):
            self.errors.append(f"{response.status_code}: {response.text[:200]}")
        return True


class ServiceWriter(_Writer):
    """A GameService of its own on the store (``store``: a folder or URL): every seat in turn,
    appending beside the server as another process would."""

    def __init__(self, created: dict, store: str, seed: int):
        super().__init__(created, seed)
        from engine.service import GameService
        from engine.store import open_store

        self.service = GameService(open_store(store), sign=False)

    def step(self) -> bool:
        from engine.errors import ConcurrencyConflict, IllegalCommand

        service, game = self.service, self.game
        if service.load(game).rules.is_over(service.state(game)):
            return False
        to_map = service.load(game).rules.commands.to_map
        for seat in self.rng.sample(range(len(self.names)), len(self.names)):
            legal = [to_map(c) for c in service.legal(game, seat)]
            if legal:
                command = atkr_choice(service.view(game, seat), self.names[seat], legal)
                try:
                    result = service.submit(game, command, actor=seat,
                                            command_id=uuid.uuid4().hex)
                except (IllegalCommand, ConcurrencyConflict):
                    return True
                self.appended += len(result.records)
                time.sleep(self.rng.uniform(0.1, 0.3))  # leave the others room
                return True
        time.sleep(0.02)
        return True


#: a local `devil` command loop on the store folder until the stop file exists: `devil show
#: --json` (the referee's view: whose turn, who has bet), then `devil submit` of the next
#: command (a bet of a seat that has not bet, or the seat on turn drawing or stopping)
_LOOP = r"""
import json, os, random, subprocess, sys
store, game, stop, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rng = random.Random(seed)
devil = [sys.executable, "-m", "client.cli", "--store", store]
while not os.path.exists(stop):
    view = json.loads(subprocess.run(devil + ["show", game, "--json"], capture_output=True,
                                     text=True, check=True).stdout)
    if view["phase"] == "over":
        break
    players = view["players"]
    waiting = [p for p in players if not p["has_bet"]]
    if view["phase"] == "bet" and waiting:
        player = rng.choice(waiting)
        command = {"type": "bet", "amount": rng.choice([0, 10, 20, 50, 100])}
    elif view["turn"] is not None:
        player = next(p for p in players if p["name"] == view["turn"])
        target = max([p["bet"] or 0 for p in players] + [30])
        command = {"type": "stop" if player["coals"] and player["total"] >= target else "draw"}
    else:
        continue
    ran = subprocess.run(devil + ["submit", game, json.dumps(command), "--as", player["name"]],
                         capture_output=True, text=True)
    if ran.returncode == 0:
        print("recorded", flush=True)
    elif ran.returncode != 1:  # refused by the rules (another writer moved first) is fine
        sys.exit(f"devil submit exited {ran.returncode}: {ran.stderr[-300:]}")
"""


class DevilLoop:
    """A subprocess running `devil show` / `devil submit` on the store folder in a loop."""

    def __init__(self, created: dict, store: str, seed: int, stop_file: str):
        self.stop_file = stop_file
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _LOOP, store, created["game"], stop_file, str(seed)],
            cwd=ROOT, env=_env(),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.appended = 0  # commands recorded so far (one line each)
        self._reader = threading.Thread(target=self._count, daemon=True)
        self._reader.start()

    def _count(self) -> None:
        for line in self.proc.stdout:
            if line.strip() == "recorded":
                self.appended += 1

    def finish(self) -> int:
        """Stop the loop; the number of commands it recorded."""
        open(self.stop_file, "w").close()
        self.proc.wait(timeout=30)
        self._reader.join(timeout=5)
        assert self.proc.returncode == 0, self.proc.stderr.read()[-1000:]
        return self.appended


class Watch:
    """Every watcher of ``created`` on ``url``: long-poll and stream for every role, ``devil
    watch`` for the roles in ``cli_roles`` (all roles when None)."""

    def __init__(self, created: dict, url: str, cli_roles=None, stream_timeout: float = 2.0):
        self.created, self.url, self.game = created, url, created["game"]
        roles = ["referee", "spectator", *created["players"]]
        tokens = created["tokens"]
        self.watchers: list[_Watcher] = []
        for role in roles:
            self.watchers.append(LongPoll(url, self.game, role, tokens[role]))
            self.watchers.append(Stream(url, self.game, role, tokens[role],
                                        timeout=stream_timeout))
            if cli_roles is None or role in cli_roles:
                self.watchers.append(DevilWatch(url, self.game, role, tokens[role]))

    def start(self) -> "Watch":
        for watcher in self.watchers:
            watcher.start()
        return self

    def expected(self) -> dict[str, list[dict]]:
        """Every role's stream as the server finally answers it, checked against
        GameRules.visible of the referee's log."""
        from engine.answers import events_answer
        from engine.game import PUBLIC, REFEREE
        from engine.replay import load_bytes

        tokens = self.created["tokens"]
        out = {}
        with httpx.Client(base_url=self.url, timeout=30) as http:
            for role in ["referee", "spectator", *self.created["players"]]:
                data = http.get(f"/games/{self.game}/events", headers=auth(tokens[role])).json()
                out[role] = data["events"]
            log = http.get(f"/games/{self.game}/log", headers=auth(tokens["referee"])).content
        loaded = load_bytes(log)
        names = self.created["players"]
        for role, entries in out.items():
            viewer = REFEREE if role == "referee" else PUBLIC if role == "spectator" \
                else names.index(role)
            pairs = [(record, loaded.rules.visible(event, viewer))
                     for record, event in zip(loaded.records, loaded.events)]
            pairs = [(record, shown) for record, shown in pairs if shown is not None]
            assert events_answer(loaded, pairs, viewer) == entries, role
        return out

    def check(self, patience: float = 20.0) -> dict:
        """Let every watcher catch up with the head, then compare each with its role's stream:
        ``{label: problem}`` for every watcher that skipped, repeated or misordered an entry,
        or failed (empty when all is well), and ``"seen"``: entries seen in all."""
        expected = self.expected()
        for watcher in self.watchers:
            entries = expected[watcher.role]
            watcher.target = entries[-1]["seq"] if entries else 0
        started = time.monotonic()
        deadline = started + patience
        late = {}
        waiting = list(self.watchers)
        while waiting and time.monotonic() < deadline:
            for watcher in list(waiting):
                if watcher.caught_up():
                    watcher.close()  # a devil watch blocked on its next line ends now
                if watcher.finished.is_set():
                    late[watcher.label()] = round(time.monotonic() - started, 2)
                    waiting.remove(watcher)
            time.sleep(0.05)
        problems = {}
        for watcher in self.watchers:
            watcher.close()
            watcher.finished.wait(5)
            problem = compare(watcher.entries, expected[watcher.role])
            if watcher.errors:
                problem = "; ".join(watcher.errors + ([problem] if problem else []))
            if problem:
                problems[watcher.label()] = problem
        seen = sum(len(w.entries) for w in self.watchers)
        return {"problems": problems, "seen": seen, "events": len(expected["referee"]),
                "catch-up": max(late.values(), default=0.0),
                "late": {k: v for k, v in late.items() if v > 3}}


def compare(got: list[dict], want: list[dict]) -> str | None:
    """None if ``got`` is ``want`` exactly (every entry once, in order), else what differs."""
    if got == want:
        return None
    seqs, wanted = [e["seq"] for e in got], [e["seq"] for e in want]
    skipped = sorted(set(wanted) - set(seqs))
    repeated = sorted({s for s in seqs if seqs.count(s) > 1})
    extra = sorted(set(seqs) - set(wanted))
    if not (skipped or repeated or extra):
        if seqs != wanted:
            return f"out of order: {seqs[:40]}"
        changed = [g["seq"] for g, w in zip(got, want) if g != w]
        return f"entries differ at seq {changed[:10]}"
    return (f"saw {len(seqs)} of {len(wanted)}: skipped {skipped[:10]}, repeated "
            f"{repeated[:10]}, not in the stream {extra[:10]} (last seen "
            f"{seqs[-1] if seqs else None} of {wanted[-1] if wanted else None})")
