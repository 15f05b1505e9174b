"""`devil new castle --position FILE` (issue 10.3) and a physical game's reported draws
(`devil drawn`, issue 10.2), through the CLI: docs/examples/castle-position.json is the example
of docs/castle-rules.md."""

from __future__ import annotations

import json
import pathlib

import pytest
from click.testing import CliRunner

from client.cli import cli

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "castle-position.json"


@pytest.fixture
def devil(tmp_path):
    runner = CliRunner()

    def run(*args, code=0):
        result = runner.invoke(cli, ["--store", str(tmp_path / "store"), *map(str, args)])
        assert result.exit_code == code, (args, result.output)
        return result

    run.tmp = tmp_path
    return run


def test_a_physical_game_from_the_example_position_with_a_reported_draw(devil):
    game = json.loads(devil("new", "castle", "--position", EXAMPLE, "--json").stdout)["game"]
    view = json.loads(devil("show", game, "--json").stdout)
    assert view["turn"] == "Ann" and view["turn_number"] == 12 and view["pile"] == 14
    assert view["options"]["position"] and view["options"]["physical"]
    assert view["options"]["variants"] == ["prophecy"] and view["pile_order_known"] == 0
    ben = json.loads(devil("show", game, "--json", "--as", "Cid").stdout)["players"][1]
    assert ben["profession"] == "priest" and ben["profession_used"]  # used: face up
    devil("trade", game, "bag-key", "--to", "Ben", "--as", "Ann")
    devil("accept", game, "dagger", "--as", "Ben")
    out = devil("choose", game, "draw", "--as", "Ann").stdout
    assert "to be reported" in out
    # Cid holds the whip: it is not in the pile (CASTLE-7.1), refused with exit 1
    refused = devil("drawn", game, "whip", "--as", "Ann", code=1)
    assert "CASTLE-7.1" in refused.output and "not in the item pile" in refused.output
    devil("drawn", game, "tome", "--as", "Ann")
    ann = json.loads(devil("show", game, "--json", "--as", "Ann").stdout)["players"][0]
    assert ann["items"] == ["key-1", "dagger", "tome"]
    data = json.loads(devil("verify", game, "--json").stdout)
    assert data["ok"] and data["physical"]
    assert any("starts from a position" in c and "turn 12" in c for c in data["checks"])
    assert any("reported and checked" in c for c in data["checks"])
    replay = devil("replay", game, "--as", "Ann").stdout
    assert "starts from a position" in replay


@pytest.mark.parametrize("change, message", [
    (lambda d: d["seats"]["Cid"].update(items=["whip", "key-1"]), "dealt twice"),
    (lambda d: d.update(colour="red"), "unknown position field"),
    (lambda d: d.update(active="Zed"), "start player"),
])
def test_a_bad_position_file_is_refused_with_the_reason_and_creates_nothing(devil, change, message):
    data = json.loads(EXAMPLE.read_text())
    change(data)
    path = devil.tmp / "bad.json"
    path.write_text(json.dumps(data))
    result = devil("new", "castle", "--position", path, code=2)
    assert message in result.output
    assert json.loads(devil("games", "--json").stdout) in ([], {"games": []})
