"""`devil play --resume --help` (and `devil play KIND --resume --help`) shows the help: an
option where the game id belongs is not taken for a game id."""

import pytest
from click.testing import CliRunner

from client.cli import cli


@pytest.mark.parametrize("args", [["play", "--resume", "--help"], ["play", "--resume", "-h"],
                                  ["play", "atkr", "--resume", "--help"],
                                  ["play", "castle", "--resume", "--help"]])
def test_resume_help_shows_the_help(tmp_path, args):
    result = CliRunner().invoke(cli, ["--store", str(tmp_path), *args])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Usage: ") and "--resume GAME" in result.stdout
    assert "no game" not in result.output
    assert not any(tmp_path.iterdir())  # nothing opened or written


def test_resume_followed_by_another_option_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(cli, ["--store", str(tmp_path), "play", "--resume", "--bot"])
    assert result.exit_code == 2
    assert "give a game id, not the option '--bot'" in result.stderr
