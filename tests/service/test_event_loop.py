"""One event loop (issue 21.2-3): on a file store the game routes' work in memory runs on the
server's event loop without a hop to the thread pool per request, only the append leaves it
(for the store's group-commit writer); `devil serve` runs on httptools and uvloop where they
are installed, and on h11 and asyncio's loop when asked."""

from __future__ import annotations

import threading
import uuid

import pytest

import engine.web.app as web_app
import engine.web.games as web_games
from client.cmd_service import http_stack, loop_stack
from engine.errors import UsageError

from .conftest import App, Server, auth, start_all
from .helpers import atkr_choice


def play(http, created, commands: int) -> int:
    """Up to ``commands`` commands (with ``legal=true``, as the load benchmark sends them) and
    a view, an events read and the summary before each; how many were taken."""
    game, tokens = created["game"], created["tokens"]
    done = 0
    while done < commands:
        acted = False
        for name in created["players"]:
            headers = auth(tokens[name])
            view = http.get(f"/games/{game}/view", params={"legal": "true"},
                            headers=headers).json()
            assert http.get(f"/games/{game}/events", params={"after": 0},
                            headers=headers).status_code == 200
            assert http.get(f"/games/{game}", headers=headers).status_code == 200
            if not view["legal"]:
                continue
            command = atkr_choice(view, name, view["legal"])
            answer = http.post(f"/games/{game}/commands", json=command,
                               params={"legal": "true"},
                               headers={**headers, "Idempotency-Key": uuid.uuid4().hex})
            assert answer.status_code == 201, answer.text
            done += 1
            acted = True
            break
        assert acted
    return done


def test_commands_and_reads_run_on_the_loop_and_appends_go_to_the_writer(tmp_path,
                                                                          monkeypatch):
    app = App(tmp_path / "store")
    try:
        created = app.http.post("/games", json={"kind": "atkr", "options": {
            "players": ["Anna", "Ben"]}, "seed": 5}).json()
        hops: list[str] = []
        threads: set[int] = set()
        real = web_app.run_in_threadpool

        async def counted(fn, *args, **kwargs):  # a spy: the call itself is unchanged
            hops.append(getattr(fn, "__name__", repr(fn)))
            return await real(fn, *args, **kwargs)

        monkeypatch.setattr(web_app, "run_in_threadpool", counted)
        monkeypatch.setattr(web_games, "run_in_threadpool", counted)
        api = app.transport._asgi.app.state.api
        decide = api.service.submit_steps

        def submit_steps(*args, **kwargs):
            threads.add(threading.get_ident())
            return decide(*args, **kwargs)

        monkeypatch.setattr(api.service, "submit_steps", submit_steps)
        taken = play(app.http, created, 12)
        assert hops == []  # no request went through the thread pool
        assert len(threads) == 1 and threading.get_ident() not in threads  # the loop's thread
        assert api.writer.appends == taken and api.writer.groups <= taken
        log = app.http.get(f"/games/{created['game']}/log",
                           headers=auth(created["tokens"]["referee"]))
        from engine.replay import verify_bytes

        assert verify_bytes(log.content).ok
    finally:
        app.close()


def test_the_stack_is_chosen_by_what_is_installed():
    assert http_stack("h11") == "h11" and loop_stack("asyncio") == "asyncio"
    import importlib.util

    has = {name: importlib.util.find_spec(name) is not None for name in ("httptools", "uvloop")}
    assert http_stack("auto") == ("httptools" if has["httptools"] else "h11")
    assert loop_stack("auto") == ("uvloop" if has["uvloop"] else "asyncio")
    if not has["uvloop"]:
        with pytest.raises(UsageError, match="uvloop is not installed"):
            loop_stack("uvloop")


STACKS = [(), ("--http", "h11", "--loop", "asyncio")]


@pytest.fixture(scope="module")
def stacks(tmp_path_factory):
    """A real `devil serve` on each stack of :data:`STACKS` (its arguments -> the server),
    started side by side, each on a store of its own."""
    servers = start_all([Server(str(tmp_path_factory.mktemp("store")), args=args)
                         for args in STACKS])
    yield dict(zip(STACKS, servers))
    for server in servers:
        server.stop()


@pytest.mark.parametrize("args", STACKS, ids=["default", "h11-asyncio"])
def test_devil_serve_plays_on_either_stack(stacks, args):
    server = stacks[args]
    created = server.http.post("/games", json={"kind": "atkr", "options": {
        "players": ["Anna", "Ben"]}, "seed": 9}).json()
    assert play(server.http, created, 6) == 6
    said = server.output()
    expected = ("HTTP h11, loop asyncio" if args else
                f"HTTP {http_stack('auto')}, loop {loop_stack('auto')}")
    assert expected in said
