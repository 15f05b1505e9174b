"""Tokens, limits and errors of the service: every refusal is clear JSON and changes nothing."""

from __future__ import annotations

import json
import os
import stat

import pytest

from engine.service import GameService
from engine.store import FileStore

from .conftest import App, auth


@pytest.fixture
def game(server):
    response = server.http.post("/games", json={
        "kind": "atkr", "options": {"players": ["Anna", "Ben"], "first": "Anna"}, "seed": 2})
    assert response.status_code == 201
    return response.json()


def size_of(server, created) -> int:
    return os.path.getsize(os.path.join(server.store, created["game"] + ".devlog"))


def assert_error(response, status, code):
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error", "rule", "code"}
    assert body["code"] == code and body["error"] and "Traceback" not in body["error"]
    return body


def test_missing_or_wrong_tokens_get_401(server, http, game):
    before = size_of(server, game)
    path = f"/games/{game['game']}/view"
    assert_error(http.get(path), 401, 4)
    assert_error(http.get(path, headers=auth(game["game"] + ".not-the-secret")), 401, 4)
    assert_error(http.get(path, headers={"Authorization": "Basic abc"}), 401, 4)
    assert_error(http.get(path, headers=auth("garbage")), 401, 4)
    response = http.post(f"/games/{game['game']}/commands", json={"type": "bet", "amount": 10},
                         headers={"Idempotency-Key": "k"})
    assert_error(response, 401, 4)
    assert size_of(server, game) == before
    assert http.get(path, headers=auth(game["tokens"]["Anna"])).status_code == 200


def test_refusals_change_nothing(server, http, game):
    before = size_of(server, game)
    token = auth(game["tokens"]["Anna"])
    commands = f"/games/{game['game']}/commands"
    body = assert_error(http.post(commands, content=b"{not json", headers={
        **token, "Idempotency-Key": "a", "Content-Type": "application/json"}), 400, 2)
    assert "JSON" in body["error"]
    assert_error(http.post(commands, json=[1, 2], headers={**token, "Idempotency-Key": "b"}),
                 400, 2)
    assert_error(http.post(commands, content=b"", headers={**token, "Idempotency-Key": "c"}),
                 400, 2)
    body = assert_error(http.post(commands, json={"type": "fly"}, headers={
        **token, "Idempotency-Key": "d"}), 400, 2)
    assert "fly" in body["error"]
    body = assert_error(http.post(commands, json={"type": "bet", "amount": 10}, headers=token),
                        400, 2)
    assert "Idempotency-Key" in body["error"]
    assert_error(http.post(commands, json={"type": "bet", "amount": 10, "colour": "red"},
                           headers={**token, "Idempotency-Key": "e"}), 400, 2)
    big = {"type": "bet", "amount": 10, "pad": "x" * 100_000}
    assert_error(http.post(commands, json=big, headers={**token, "Idempotency-Key": "f"}), 413, 2)

    def chunks():  # no Content-Length: the limit holds while streaming
        for _ in range(100):
            yield b" " * 1024

    assert_error(http.post(commands, content=chunks(), headers={
        **token, "Idempotency-Key": "g"}), 413, 2)
    assert size_of(server, game) == before


def test_unknown_games_endpoints_and_methods(http, game):
    token = auth(game["tokens"]["referee"])
    # a game token naming any other game gets the same 403, whether that game exists or not
    assert_error(http.get("/games/atkr-zzzzzz/view", headers=token), 403, 4)
    assert_error(http.get("/nowhere", headers=token), 404, 2)
    assert_error(http.delete(f"/games/{game['game']}", headers=token), 405, 2)
    assert_error(http.get(f"/games/{game['game']}/events?after=-1", headers=token), 400, 2)
    assert_error(http.get(f"/games/{game['game']}/events?wait=soon", headers=token), 400, 2)


def test_bad_new_games(http):
    assert_error(http.post("/games", json={"kind": "chess"}), 400, 2)
    assert_error(http.post("/games", json={"kind": "atkr", "options": {"players": ["Solo"]}}),
                 400, 2)
    assert_error(http.post("/games", json={"kind": "atkr", "options": [], "seed": 1}), 400, 2)
    assert_error(http.post("/games", json={"kind": "atkr", "colour": 1}), 400, 2)
    assert_error(http.post("/games", content=b"\xff\xfe"), 400, 2)


def test_tokens_are_stored_only_as_hashes(server, game):
    path = os.path.join(server.store, game["game"] + ".tokens.json")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    text = open(path).read()
    log = open(os.path.join(server.store, game["game"] + ".devlog"), "rb").read()
    for token in game["tokens"].values():
        secret = token.split(".", 1)[1]
        assert secret not in text and secret.encode() not in log
    assert len(json.loads(text)["tokens"]) == 4  # referee, spectator, two seats


def test_the_local_cli_store_still_reads_served_games(server, game):
    service = GameService(FileStore(server.store))
    assert service.view(game["game"])["players"][0]["name"] == "Anna"


def test_openapi_document(http):
    response = http.get("/openapi.json")
    assert response.status_code == 200
    doc = response.json()
    assert doc["openapi"].startswith("3.")
    for path in ("/games", "/games/{game}", "/games/{game}/view", "/games/{game}/legal",
                 "/games/{game}/events", "/games/{game}/stream", "/games/{game}/commands",
                 "/games/{game}/log"):
        assert path in doc["paths"], path
    params = doc["paths"]["/games/{game}/commands"]["post"]["parameters"]
    assert any(p["name"] == "Idempotency-Key" and p["required"] for p in params)


def test_listing_shows_a_token_only_its_own_game(http, game):
    rows = http.get("/games", headers=auth(game["tokens"]["Ben"])).json()
    assert [r["game"] for r in rows] == [game["game"]]
    assert_error(http.get("/games"), 401, 4)


@pytest.fixture(scope="module")
def organised(tmp_path_factory):
    app = App(tmp_path_factory.mktemp("organised"), organiser_key="let-me-organise")
    yield app
    app.close()


def test_organiser_key_guards_creation(organised):
    new = {"kind": "atkr", "options": {"players": ["A", "B"]}}
    http = organised.http
    assert_error(http.post("/games", json=new), 401, 4)
    assert_error(http.post("/games", json=new, headers=auth("guess")), 403, 4)
    assert os.listdir(organised.store) == []  # nothing was created
    created = http.post("/games", json=new, headers=auth("let-me-organise"))
    assert created.status_code == 201
    # a game made by the local CLI in the same store: the organiser is its referee
    local = GameService(FileStore(organised.store)).create("atkr", {"players": ["C", "D"]})
    rows = http.get("/games", headers=auth("let-me-organise")).json()
    assert {r["game"] for r in rows} == {created.json()["game"], local.game}
    view = http.get(f"/games/{local.game}/view", headers=auth("let-me-organise"))
    assert view.status_code == 200 and view.json()["game"] == local.game


def test_hostile_inputs_get_clear_errors_not_500s(http, game):
    """A token whose game part is no game id, and JSON nested too deeply, are answered 401 and
    400, never a 500 (found by review)."""
    long_token = {"Authorization": "Bearer " + "a" * 300 + ".x"}
    assert_error(http.get(f"/games/{game['game']}/view", headers=long_token), 401, 4)
    token = {**auth(game["tokens"]["Anna"]), "Idempotency-Key": "deep-1",
             "Content-Type": "application/json"}
    deep = "[" * 30000 + "]" * 30000
    assert_error(http.post(f"/games/{game['game']}/commands", content=deep, headers=token),
                 400, 2)
