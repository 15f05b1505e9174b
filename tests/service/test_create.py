"""Creating a game over HTTP is one step (issue 9.3): refused names change nothing, and a game
exists only with its log, secret and tokens in place."""

from __future__ import annotations

import pytest

from tests.service.conftest import App
from engine.store import FileStore


@pytest.mark.parametrize("kind,players", [("atkr", ["Anna", "referee"]),
                                          ("castle", ["Anna", "Ben", "Spectator"])])
def test_a_player_named_like_a_role_is_refused_with_400_and_no_game(tmp_path, kind, players):
    client = App(tmp_path).http
    answer = client.post("/games", json={"kind": kind, "options": {"players": players}})
    assert answer.status_code == 400
    assert "name the game's roles" in answer.json()["error"]
    assert FileStore(str(tmp_path)).games() == []
    assert [p.name for p in tmp_path.iterdir()] == []


def test_a_created_game_has_its_tokens_from_the_start(tmp_path):
    store = FileStore(str(tmp_path))
    client = App(tmp_path).http
    answer = client.post("/games", json={"kind": "atkr", "options": {"players": ["Anna", "Ben"]}})
    assert answer.status_code == 201
    body = answer.json()
    game = body["game"]
    assert sorted(body["tokens"]) == ["Anna", "Ben", "referee", "spectator"]
    hashes = store.private(game, "tokens")["tokens"]
    assert sorted(map(str, hashes.values())) == ["0", "1", "referee", "spectator"]
    assert store.secret(game) is not None
    me = client.get(f"/games/{game}", headers={"Authorization": f"Bearer {body['tokens']['Ben']}"})
    assert me.status_code == 200 and me.json()["you"] == {"role": "seat", "seat": 1, "name": "Ben"}
