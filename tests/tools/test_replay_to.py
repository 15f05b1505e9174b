"""`devil replay --to SEQ` names a record the game has: before the first (0) or past the
last is refused with exit 2 naming the last sequence number (docs/tools.md), never an empty
or silently clamped replay."""

import json

from click.testing import CliRunner

from client.cli import cli


def test_replay_to_outside_the_records_is_refused_naming_the_last(tmp_path):
    runner = CliRunner()

    def devil(*args, code=0):
        result = runner.invoke(cli, ["--store", str(tmp_path), *map(str, args)])
        assert result.exit_code == code, (args, result.output, result.stderr)
        return result

    # a new game has two records: its creation and the start of round 1 (ATKR-2)
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                 "--seed", 3).stdout.strip()
    path = tmp_path / f"{game}.devlog"
    for source in (game, path):
        steps = json.loads(devil("replay", source, "--to", 2, "--json").stdout)["steps"]
        assert [step["seq"] for step in steps] == [1, 2]
        assert [step["seq"] for step in json.loads(
            devil("replay", source, "--to", 1, "--json").stdout)["steps"]] == [1]
        for to in (0, -1):
            refused = devil("replay", source, "--to", to, code=2)
            assert refused.stdout == ""
            assert f"--to {to}: a game's records are numbered from 1" in refused.stderr
            assert "to 2" in refused.stderr
        for to in (3, 99999):
            refused = devil("replay", source, "--to", to, code=2)
            assert refused.stdout == ""
            assert f"--to {to} is past the end of {game}: its last record is #2" \
                in refused.stderr
        refused = json.loads(devil("replay", source, "--to", 3, "--json", code=2).stdout)
        assert refused["ok"] is False and refused["exit"] == 2
    # the page too: nothing written
    devil("replay", game, "--to", 5, "--html", tmp_path / "page.html", code=2)
    assert not (tmp_path / "page.html").exists()
