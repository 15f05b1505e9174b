"""The service takes the position file the CLI takes (issue 19): POST /games with
``options.position`` = docs/examples/castle-position.json, whose `active` and `variants`
(docs/castle-rules.md, "Starting from a position") are options of the game, makes the game
`devil new castle --position` makes; a value given twice that disagrees is refused with 400
and creates nothing."""

from __future__ import annotations

import json
import pathlib

import pytest
from click.testing import CliRunner

from client.cli import cli
from engine.store import FileStore
from tests.service.conftest import App

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "examples" / "castle-position.json"


@pytest.fixture
def app(tmp_path):
    served = App(tmp_path / "served")
    yield served
    served.close()


def position() -> dict:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


def test_the_example_position_file_creates_over_http_the_game_the_cli_creates(app, tmp_path):
    answer = app.http.post("/games", json={"kind": "castle",
                                            "options": {"position": position(), "physical": True}})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    # the seats in the order of the file's `seats` (it has no `players`)
    assert created["players"] == ["Ann", "Ben", "Cid", "Dora"]
    served = app.remote(created["tokens"]["referee"]).view(created["game"], None)
    # the file's `active` is whose turn it is, its `turn` the turn's number, its `variants`
    # the game's (docs/castle-rules.md); all 21 items are in play with 4 players (only 3 and
    # 10 remove one, CASTLE-2.5), 7 of them in the hands: 14 in the pile
    assert served["turn"] == "Ann" and served["turn_number"] == 12 and served["pile"] == 14
    assert served["options"]["variants"] == ["prophecy"]
    assert served["options"]["position"] and served["options"]["physical"]
    assert served["players"][1]["profession_used"] is True  # Ben's priest is face up
    # the same file through the CLI: the same game, view for view
    store = str(tmp_path / "cli")
    runner = CliRunner()
    made = runner.invoke(cli, ["--store", store, "new", "castle", "--position", str(EXAMPLE),
                               "--json"])
    assert made.exit_code == 0, made.output
    game = json.loads(made.stdout)["game"]
    shown = json.loads(runner.invoke(cli, ["--store", store, "show", game, "--json"]).stdout)
    for key in ("game", "version", "legal"):
        shown.pop(key, None)
        served.pop(key, None)
    assert served == shown


@pytest.mark.parametrize("options, named", [
    ({"first": "Ben"}, "active"),             # the file says Ann's turn
    ({"variants": ["scoring"]}, "variants"),  # the file says prophecy
    ({"players": ["Ann", "Ben", "Cid"]}, "seats"),
])
def test_a_position_that_disagrees_with_the_options_beside_it_is_refused(app, options, named):
    body = {"kind": "castle", "options": {**options, "position": position(), "physical": True}}
    answer = app.http.post("/games", json=body)
    assert answer.status_code == 400, answer.text
    assert named in answer.json()["error"]
    assert FileStore(app.store).games() == []


def test_an_unknown_position_field_is_still_refused(app):
    bad = {**position(), "colour": "red"}
    answer = app.http.post("/games", json={"kind": "castle",
                                            "options": {"position": bad, "physical": True}})
    assert answer.status_code == 400
    assert "unknown position field(s): colour" in answer.json()["error"]
    assert FileStore(app.store).games() == []
