"""Issue 19.4: a store whose signing key (engine.receipts, the store-private document
``signing``: ``<store>/.devil-signing.json``) cannot be read.  Every accepted command is
answered with a receipt, so such a store records nothing: the local CLI refuses before anything
is appended (exit 3, naming the file), `devil serve` does not start (exit 3), and reading still
works."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from engine.receipts import SigningKeyDamaged
from engine.service import GameService
from engine.store import FileStore

from .helpers import run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DAMAGE = {
    "garbage bytes": (b"\xff\xfe\x00garbage", "cannot be read ("),
    "a JSON list": (b"[1, 2, 3]", "cannot be read (not a JSON object)"),
    "not a key": (b'{"version": 1, "private": "zz"}', "is not an Ed25519 key (ValueError: "),
}


@pytest.fixture(params=list(DAMAGE), ids=list(DAMAGE))
def damaged(request, tmp_path):
    """A store with one atkr game (Anna, Ben, in round 1's bets), then its key damaged: the
    store folder, the game, the key file, the log's bytes and the expected reason."""
    store = str(tmp_path / "store")
    svc = GameService(FileStore(store))
    game = svc.create("atkr", {"players": ["Anna", "Ben"]}).game
    key = os.path.join(store, ".devil-signing.json")  # made by now (the check) or damaged later
    data, reason = DAMAGE[request.param]
    with open(key, "wb") as handle:
        handle.write(data)
    with open(os.path.join(store, f"{game}.devlog"), "rb") as handle:
        log = handle.read()
    return {"store": store, "game": game, "key": key, "log": log, "reason": reason}


def message(damaged) -> str:
    return f"error: the store's signing key ({damaged['key']}) {damaged['reason']}"


def test_the_local_cli_refuses_to_write_and_appends_nothing(damaged):
    store, game = damaged["store"], damaged["game"]
    out = run("--store", store, "bet", game, "60", "--as", "Anna")
    assert out.exit_code == 3, out.output
    assert out.output.startswith(message(damaged)), out.output
    assert "nothing was recorded" in out.output and "Traceback" not in out.output
    with open(os.path.join(store, f"{game}.devlog"), "rb") as handle:
        assert handle.read() == damaged["log"]  # no record appended
    before = sorted(os.listdir(store))
    out = run("--store", store, "new", "atkr", "--player", "Cleo", "--player", "Dan")
    assert out.exit_code == 3 and out.output.startswith(message(damaged)), out.output
    assert sorted(os.listdir(store)) == before  # no game written
    out = run("--store", store, "key")
    assert out.exit_code == 3 and out.output.startswith(message(damaged)), out.output
    out = run("--store", store, "show", game)  # reading needs no key
    assert out.exit_code == 0, out.output


def test_the_service_checks_the_key_before_any_append(damaged):
    svc = GameService(FileStore(damaged["store"]))
    with pytest.raises(SigningKeyDamaged) as refused:
        svc.submit(damaged["game"], {"type": "bet", "player": "Anna", "amount": 60})
    assert refused.value.exit_code == 3 and damaged["key"] in refused.value.message
    with pytest.raises(SigningKeyDamaged):  # a retry is refused the same way
        svc.submit(damaged["game"], {"type": "bet", "player": "Anna", "amount": 60})
    with pytest.raises(SigningKeyDamaged):
        svc.create("atkr", {"players": ["Cleo", "Dan"]})
    assert svc.store.log_bytes(damaged["game"]) == damaged["log"]
    assert svc.store.games() == [damaged["game"]]


def test_serve_does_not_start_on_a_store_whose_key_cannot_be_read(damaged):
    done = subprocess.run(
        [sys.executable, "-m", "client.cli", "--store", damaged["store"], "serve",
         "--host", "127.0.0.1", "--port", "0"],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 3, done.stderr
    assert done.stderr.startswith(message(damaged)), done.stderr
    assert "listening" not in done.stderr and "Traceback" not in done.stderr


def test_an_app_in_process_on_such_a_store_writes_no_game_and_says_why(damaged):
    """Where the app runs without `devil serve`'s check (in process), `POST /games` refuses
    before the game is written, so no one-time token is handed out for a game it cannot
    answer for; the answer is 503 (the service cannot take commands until the key is repaired:
    nothing recorded) and names the file (an engine error of exit 3)."""
    from ..service.conftest import App

    app = App(damaged["store"])
    try:
        before = sorted(os.listdir(damaged["store"]))
        answer = app.http.post("/games", json={"kind": "atkr",
                                               "options": {"players": ["Cleo", "Dan"]}})
        assert answer.status_code == 503, answer.text
        assert answer.json()["code"] == 3 and damaged["key"] in answer.json()["error"]
        assert sorted(os.listdir(damaged["store"])) == before
    finally:
        app.close()
