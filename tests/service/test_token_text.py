"""A token as pasted: surrounding blanks and a trailing newline (`DEVIL_TOKEN="$(cat file)"`
keeps none, but `--token "$(cat file; echo)"` or an editor's file may) are dropped; a token
with a character no HTTP header can carry is a usage error naming the token's problem (exit
2), not "cannot reach the devil server" nor an internal error, and never prints the token."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from client.cli import cli


@pytest.fixture(scope="module")
def game(real_server):
    result = CliRunner().invoke(cli, ["--server", real_server.url, "new", "atkr", "--player",
                                      "Anna", "--player", "Ben", "--first", "Anna", "--seed",
                                      4], env={"DEVIL_SERVER": None, "DEVIL_TOKEN": None})
    assert result.exit_code == 0, result.output
    tokens = dict(line.strip()[len("token for "):].split(": ", 1)
                  for line in result.stderr.splitlines()
                  if line.strip().startswith("token for "))
    return result.stdout.strip(), tokens["Anna"], real_server.url


def show(url, game, token, via_env: bool):
    env = {"DEVIL_SERVER": url, "DEVIL_TOKEN": token if via_env else None}
    args = ([] if via_env else ["--token", token]) + ["show", game, "--json"]
    return CliRunner().invoke(cli, args, env=env)


@pytest.mark.parametrize("via_env", [True, False])
def test_surrounding_blanks_and_a_trailing_newline_are_dropped(game, via_env):
    game_id, token, url = game
    result = show(url, game_id, f"  {token}\n", via_env)
    assert result.exit_code == 0, result.output
    # Anna's own view: her 200 to start with (ATKR-1), Ben's money hidden from her
    players = json.loads(result.stdout)["players"]
    assert [(p["name"], p["money"]) for p in players] == [("Anna", 200), ("Ben", None)]


@pytest.mark.parametrize("bad, what", [("\nx", "a line break"), ("\u00e9", "the character 'é'"),
                                       (" x", "a space"), ("\x07", "the control character U+0007")])
@pytest.mark.parametrize("via_env", [True, False])
def test_a_character_no_header_carries_is_named(game, bad, what, via_env):
    game_id, token, url = game
    result = show(url, game_id, token + bad, via_env)
    assert result.exit_code == 2, result.output
    assert f"the token (--token / DEVIL_TOKEN) has {what} at character {len(token) + 1}" \
        in result.stderr
    assert "cannot reach" not in result.output and "internal error" not in result.output
    assert token not in result.output
