"""The deal stays secret (issue 10.6): `devil new castle` prints only what the whole table may
see, locally and over `--server`; the whole deal only to the referee who asks (`--show-deal`);
the service's create answer never carries it."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from client.cli import cli
from engine.games.castle.cards import PROFESSIONS
from tests.service.conftest import App

PLAYERS = ["--player", "Ann", "--player", "Ben", "--player", "Cid", "--player", "Dora"]


def dealt(view: dict) -> list[str]:
    """Every secret word of the deal in a referee view: each seat's profession and items."""
    words = []
    for player in view["players"]:
        words.append(player["profession"])
        words += player["items"]
    return words


def assert_secret(text: str, view: dict) -> None:
    for word in dealt(view):
        assert word not in text, (word, text)
    for profession in PROFESSIONS:  # not even a profession left in the pile
        assert profession not in text, (profession, text)


def run(*args, code=0):
    result = CliRunner().invoke(cli, list(map(str, args)),
                                env={"DEVIL_SERVER": None, "DEVIL_TOKEN": None})
    assert result.exit_code == code, (args, result.output, result.stderr)
    return result


def test_new_castle_locally_prints_the_public_facts_only(tmp_path):
    result = run("--store", tmp_path, "new", "castle", *PLAYERS, "--seed", 5)
    game = result.stdout.strip()
    view = json.loads(run("--store", tmp_path, "show", game, "--json").stdout)
    assert "Cards dealt: each player gets a society card, a profession and 1 item(s)" \
        in result.stderr
    assert_secret(result.stderr, view)
    assert "order" not in result.stderr and "brotherhood" not in result.stderr
    # --json without --show-deal: the id, kind, players and path, no events
    created = json.loads(run("--store", tmp_path, "new", "castle", *PLAYERS, "--json").stdout)
    # (and its signed receipt: seq, link, time, signature; no card: issue 13.2)
    assert sorted(created) == ["game", "kind", "path", "players", "receipt"]


def test_show_deal_prints_the_whole_deal_for_the_referee(tmp_path):
    result = run("--store", tmp_path, "new", "castle", *PLAYERS, "--seed", 5, "--show-deal")
    game = result.stdout.strip()
    view = json.loads(run("--store", tmp_path, "show", game, "--json").stdout)
    for player in view["players"]:
        assert (f"{player['name']}: {player['society']}, {player['profession']}, "
                f"{', '.join(player['items'])}") in result.stderr
    created = json.loads(run("--store", tmp_path, "new", "castle", *PLAYERS, "--seed", 5,
                             "--show-deal", "--json").stdout)
    deal = [e for e in created["events"] if e["type"] == "cards_dealt"]
    assert len(deal) == 1 and None not in deal[0]["societies"]
    assert len(deal[0]["item_pile"]) == 21 - 4  # one item dealt each (CASTLE-2.4), the rest


@pytest.fixture
def app(tmp_path, monkeypatch):
    """The service in this process; the CLI's --server reaches it through the app's transport."""
    app = App(tmp_path / "served")
    monkeypatch.setattr("client.remote.RemoteClient",
                        lambda server, token=None: app.remote(token))
    yield app
    app.close()


def test_the_create_answer_never_carries_the_deal(app):
    answer = app.http.post("/games", json={"kind": "castle", "options": {
        "players": ["Ann", "Ben", "Cid", "Dora"]}, "seed": 5})
    assert answer.status_code == 201
    body = answer.json()
    assert sorted(body) == ["game", "kind", "players", "receipt", "tokens"]  # receipt: 13.2
    referee = {"Authorization": f"Bearer {body['tokens']['referee']}"}
    view = app.http.get(f"/games/{body['game']}/view", headers=referee).json()
    assert_secret(answer.text, view)


def test_new_castle_over_the_server_prints_the_public_facts_unless_asked(app):
    server = ["--server", app.url]
    result = run(*server, "new", "castle", *PLAYERS, "--seed", 5)
    game = result.stdout.strip()
    referee = next(line.split(": ", 1)[1] for line in result.stderr.splitlines()
                   if "token for referee" in line)
    view = json.loads(run(*server, "--token", referee, "show", game, "--json").stdout)
    assert "Cards dealt" in result.stderr and "token for Ann" in result.stderr
    assert_secret(result.stderr, view)
    shown = run(*server, "new", "castle", *PLAYERS, "--show-deal")
    assert any(profession in shown.stderr for profession in PROFESSIONS)
    assert "Ann: " in shown.stderr and "set aside" not in shown.stderr  # 4 players: none
