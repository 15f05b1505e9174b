"""Smaller holes of the service (issue 9.8): command ids seen only by their own seat, command
ids of sane length, a body that never arrives does not hold the connection."""

from __future__ import annotations

import asyncio
import json

import pytest

from engine.errors import UsageError
from engine.web import create_app
from tests.service.conftest import App
from engine.service import GameService
from engine.store import MemoryStore


def _game(client):
    body = client.post("/games", json={"kind": "atkr", "options": {
        "players": ["Anna", "Ben"], "first": "Anna", "physical": True}}).json()
    return body["game"], body["tokens"]


def _auth(token):
    return {"Authorization": f"Bearer {token}"}


def test_a_seat_sees_its_own_command_ids_only(tmp_path):
    client = App(tmp_path).http
    game, tokens = _game(client)
    for name, key, amount in (("Anna", "anna-secret-plan-60", 60), ("Ben", "ben-key", 0)):
        answer = client.post(f"/games/{game}/commands", json={"type": "bet", "amount": amount},
                             headers={**_auth(tokens[name]), "Idempotency-Key": key})
        assert answer.status_code == 201

    def ids(token):
        events = client.get(f"/games/{game}/events", headers=_auth(token)).json()["events"]
        return [e["cmd"] for e in events]

    assert ids(tokens["referee"]) == [None, None, "anna-secret-plan-60", "ben-key", "ben-key"]
    assert ids(tokens["Anna"]) == [None, None, "anna-secret-plan-60", None, None]
    assert ids(tokens["Ben"]) == [None, None, None, "ben-key", "ben-key"]
    assert ids(tokens["spectator"]) == [None] * 5


@pytest.mark.parametrize("command_id", ["", "a\nb", "x" * 65, "x" * 100_000, "tab\there"])
def test_a_command_id_is_1_to_64_printable_characters(command_id):
    service = GameService(MemoryStore())
    game = service.create("atkr", {"players": ["Anna", "Ben"], "physical": True}).game
    with pytest.raises(UsageError, match="1 to 64 printable characters"):
        service.submit(game, {"type": "bet", "player": "Anna", "amount": 10},
                       command_id=command_id)
    assert service.load(game).version == 2
    service.submit(game, {"type": "bet", "player": "Anna", "amount": 10}, command_id="x" * 64)
    assert service.load(game).version == 3


def test_an_idempotency_key_over_64_characters_is_refused(tmp_path):
    client = App(tmp_path).http
    game, tokens = _game(client)
    answer = client.post(f"/games/{game}/commands", json={"type": "bet", "amount": 10},
                         headers={**_auth(tokens["Anna"]), "Idempotency-Key": "k" * 65})
    assert answer.status_code == 400 and "1 to 64" in answer.json()["error"]


def test_a_body_shorter_than_its_content_length_times_out(tmp_path):
    app = create_app(str(tmp_path))
    app.state.api.body_timeout = 0.3
    sent = []

    async def scenario():
        messages = [{"type": "http.request", "body": b'{"kind": "at', "more_body": True}]

        async def receive():
            if messages:
                return messages.pop(0)
            await asyncio.sleep(30)  # the rest of the body never comes
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": "POST", "scheme": "http", "path": "/games", "raw_path": b"/games",
                 "query_string": b"", "root_path": "",
                 "headers": [(b"content-type", b"application/json"),
                             (b"content-length", b"100")],
                 "client": ("127.0.0.1", 5), "server": ("127.0.0.1", 80)}
        await asyncio.wait_for(app(scope, receive, send), timeout=5)

    asyncio.run(scenario())
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    assert start["status"] == 408
    assert "did not arrive" in json.loads(body)["error"]


def test_a_token_reaches_its_game_by_any_name_the_cli_takes(tmp_path):
    """A game is named over HTTP as locally (docs/commands.md): its id, or 3+ characters of
    its start, its end, or the part after the kind ('k3f' for 'atkr-k3f9qz'); anything else is
    another game as far as the token is concerned (403, the same answer whether it exists)."""
    client = App(tmp_path).http
    game, tokens = _game(client)
    suffix = game.partition("-")[2]
    for name in (game, game[:7], suffix[:3], game[-3:]):
        answer = client.get(f"/games/{name}/view", headers=_auth(tokens["Ben"]))
        assert answer.status_code == 200 and answer.json()["game"] == game, name
    for name in (suffix[:2], "zzzzzz", game + "x"):
        answer = client.get(f"/games/{name}/view", headers=_auth(tokens["Ben"]))
        assert answer.status_code == 403 and "belongs to game" in answer.json()["error"], name
