"""The service's part of the seat's page's auto-pass (engine/web/autopass.py, PAGE-20 to
PAGE-24, CASTLE-H3), over the in-process app: the moves answer's ``window``, the table's
window hold and the page's module, and that a bad hold is refused before anything starts.

The game is tests/castle/test_windows.py's deal: Ann (thug, dagger) attacks Ben; the priest
window (CASTLE-6.2) asks Ben, Cid and Dora in turn (6.10: every face-down profession); Dora
holds the priest, so her pass is a decision, Ben's and Cid's are not."""

from __future__ import annotations

import pytest

from engine.web import create_app
from engine.web.autopass import HOLD_MS, hold_ms
from tests.castle.helpers import make_deal
from tests.castle.test_windows import DEAL
from tests.service.conftest import auth

PLAYERS = ["Ann", "Ben", "Cid", "Dora"]


def new_castle(http) -> dict:
    answer = http.post("/games", json={"kind": "castle", "options": {
        "players": PLAYERS, "first": "Ann", "deal": make_deal(DEAL)}})
    assert answer.status_code == 201, answer.text
    return answer.json()


def send(http, created, name, body, key):
    answer = http.post(f"/games/{created['game']}/commands", json=body,
                       headers={**auth(created["tokens"][name]), "Idempotency-Key": key})
    assert answer.status_code == 201, answer.text


def moves(http, created, name) -> dict:
    answer = http.get(f"/games/{created['game']}/moves", headers=auth(created["tokens"][name]))
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_the_moves_answer_names_the_window_and_whether_anything_could_be_used(http):
    created = new_castle(http)
    assert moves(http, created, "Ann")["window"] is None  # a turn is no window (CASTLE-8.1)
    send(http, created, "Ann", {"type": "attack", "defender": "Ben"}, "attack")
    ben = moves(http, created, "Ben")
    assert ben["window"] == {"stage": "priest", "rules": ["CASTLE-6.2", "CASTLE-6.10"],
                             "pass": {"type": "pass", "player": "Ben"}, "nothing_to_use": True}
    assert ben["moves"] == [{"type": "pass", "fixed": {"player": "Ben"}, "inputs": []}]
    assert moves(http, created, "Cid")["window"] is None  # not asked yet: nothing to answer
    send(http, created, "Ben", ben["window"]["pass"], "ben-priest")
    assert moves(http, created, "Cid")["window"]["nothing_to_use"] is True
    send(http, created, "Cid", {"type": "pass"}, "cid-priest")
    dora = moves(http, created, "Dora")  # the priest: stopping the fight is hers to use
    assert dora["window"]["nothing_to_use"] is False
    assert [shape["type"] for shape in dora["moves"]] == ["pass", "use"]


def test_the_table_hold_and_the_pages_module_are_served_with_the_pages_policy(http):
    settings = http.get("/pages/autopass.json")
    assert settings.status_code == 200
    assert settings.json() == {"hold_ms": 3000, "kinds": ["castle"],  # atkr has no windows
                               "rules": ["PAGE-20", "PAGE-21", "PAGE-22", "PAGE-23", "PAGE-24"]}
    script = http.get("/pages/autopass.js")
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
    assert "script-src 'self'" in script.headers["content-security-policy"]
    assert "export class AutoPass" in script.text
    assert 'from "./autopass.js"' in http.get("/pages/table.js").text


def test_a_hold_outside_half_a_second_to_thirty_is_refused(tmp_path):
    assert HOLD_MS == 3000 and hold_ms(None) == 3000 and hold_ms(1.5) == 1500
    assert hold_ms(0.5) == 500 and hold_ms(30) == 30000
    for bad in (0, 0.4, 30.5, -1):
        with pytest.raises(ValueError, match="PAGE-22"):
            create_app(str(tmp_path / "never"), window_hold=bad)
    assert not (tmp_path / "never").exists()  # refused before the store was opened
    app = create_app(str(tmp_path / "store"), window_hold=1.5)
    assert app.state.api.window_hold_ms == 1500


def test_devil_serve_refuses_a_window_hold_outside_its_range_and_documents_it(tmp_path):
    from click.testing import CliRunner

    from client.cli import cli

    result = CliRunner().invoke(cli, ["--store", str(tmp_path), "serve", "--window-hold", "0.2"])
    assert result.exit_code == 2 and "--window-hold" in result.output
    assert not any(tmp_path.iterdir())  # refused before anything was served or written
    helped = CliRunner().invoke(cli, ["serve", "--help"])
    assert helped.exit_code == 0 and "--window-hold 2" in helped.output
    assert "PAGE-22" in helped.output
