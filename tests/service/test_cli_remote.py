"""The devil CLI as a client of the service: same output and exit codes as locally.

Against a real `devil serve` process (one for the module): the CLI's --server and `devil watch`
in a subprocess talk to it over a socket, as a user's terminal does."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from client.cli import cli
from client.remote import RemoteClient

from .conftest import ROOT


@pytest.fixture(scope="module")
def server(real_server):
    return real_server


@pytest.fixture
def devil(server):
    runner = CliRunner()

    def run(*args, token=None, remote=True, code=0):
        prefix = ["--store", server.store]
        if remote:
            prefix += ["--server", server.url]
            if token:
                prefix += ["--token", token]
        result = runner.invoke(cli, [*prefix, *map(str, args)], env={
            "DEVIL_SERVER": None, "DEVIL_TOKEN": None, "DEVIL_STORE": None})
        assert result.exit_code == code, (args, result.output, result.stderr)
        return result

    return run


def new_game(devil):
    result = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                   "--seed", 4)
    game = result.stdout.strip()
    tokens = {}
    for line in result.stderr.splitlines():
        if line.strip().startswith("token for "):
            label, _, token = line.strip()[len("token for "):].partition(": ")
            tokens[label] = token
    return game, tokens


def test_new_against_a_server_prints_the_tokens(devil):
    game, tokens = new_game(devil)
    assert game.startswith("atkr-")
    assert set(tokens) == {"referee", "spectator", "Anna", "Ben"}
    assert all(t.startswith(game + ".") for t in tokens.values())


def test_remote_commands_match_local_output_and_exit_codes(devil):
    game, tokens = new_game(devil)
    anna, ben, ref = tokens["Anna"], tokens["Ben"], tokens["referee"]
    # not allowed: acting as another seat -> 4, as locally for NotAllowed
    result = devil("bet", game, 60, "--as", "Ben", token=anna, code=4)
    assert "Anna" in result.stderr
    result = devil("show", game, "--as", "Ben", token=anna, code=4)
    result = devil("log", game, "--as", "Ben", token=anna, code=4)
    devil("bet", game, 60, "--as", "Anna", token="nonsense", code=4)
    # refused by the rules -> 1 with the rule id, the same message as locally
    remote = devil("bet", game, 65, "--as", "Anna", token=anna, code=1)
    local = devil("bet", game, 65, "--as", "Anna", remote=False, code=1)
    assert remote.stderr == local.stderr and "ATKR-3.1" in remote.stderr
    remote = devil("bet", game, 65, "--as", "Anna", "--json", token=anna, code=1)
    assert json.loads(remote.stdout)["rule"] == "ATKR-3.1"
    # another game, existing or not, with this game's token -> 4, the same answer either way
    # (a token tells nothing about other games)
    missing = devil("show", "atkr-zzzzzz", token=ref, code=4)
    assert "this token belongs to game" in missing.stderr
    devil("submit", game, '{"type": "jump"}', "--as", "Anna", token=anna, code=2)
    # play: the same output as the local CLI gives for the same game
    result = devil("bet", game, 60, "--as", "Anna", "--id", "a1", token=anna)
    assert result.stdout.startswith("#")
    again = devil("bet", game, 60, "--as", "Anna", "--id", "a1", token=anna)
    assert "already applied" in again.stdout
    devil("bet", game, 30, "--as", "Ben", token=ben)
    devil("draw", game, "--as", "Anna", token=anna)
    for args, token in ((("show", game, "--as", "Anna"), anna),
                        (("log", game, "--as", "Anna"), anna),
                        (("show", game, "--as", "Ben", "--json"), ref),
                        (("log", game, "--json"), ref)):
        remote = devil(*args, token=token)
        local = devil(*args, remote=False)
        assert remote.stdout == local.stdout, args
    # with a seat's token --as is optional: the token's own seat
    mine = json.loads(devil("show", game, "--json", token=ben).stdout)
    assert mine["players"][1]["money"] is not None and mine["players"][0]["money"] is None
    rows = json.loads(devil("games", "--json", token=ben).stdout)
    assert [r["game"] for r in rows] == [game]


def test_referee_log_export_is_referee_only(server, devil):
    game, tokens = new_game(devil)
    assert RemoteClient(server.url, tokens["referee"]).log_bytes(game) == open(
        os.path.join(server.store, game + ".devlog"), "rb").read()


def test_watch_prints_events_live_and_resumes(server, devil):
    game, tokens = new_game(devil)
    env = dict(os.environ, PYTHONPATH=ROOT, DEVIL_SERVER=server.url,
               DEVIL_TOKEN=tokens["spectator"])
    watcher = subprocess.Popen([sys.executable, "-m", "client.cli", "watch", game, "--json",
                                "--timeout", "60"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        # the game's first event printed: the watcher is following; what comes next is live
        lines = [watcher.stdout.readline()]
        anna = RemoteClient(server.url, tokens["Anna"])
        ben = RemoteClient(server.url, tokens["Ben"])
        anna.submit(game, {"type": "bet", "amount": 50}, None)
        ben.submit(game, {"type": "bet", "amount": 20}, None)
        anna.submit(game, {"type": "draw"}, None)
        # read as printed until the draw's coal (or the watch's end: its --timeout), then stop
        # it, whatever the machine's load (a fixed --timeout missed the draw under load 25)
        while lines[-1] and '"coal_drawn"' not in lines[-1]:
            lines.append(watcher.stdout.readline())
        watcher.terminate()
        rest, err = watcher.communicate(timeout=30)
        out = "".join(lines) + rest
    finally:
        if watcher.poll() is None:
            watcher.kill()
    entries = [json.loads(line) for line in out.splitlines()]
    seqs = [e["seq"] for e in entries]
    assert seqs == sorted(set(seqs)) and seqs[0] == 1
    types = [e["event"]["type"] for e in entries]
    assert types[:2] == ["game_created", "round_started"]
    assert "bets_revealed" in types and "coal_drawn" in types
    placed = [e["event"] for e in entries if e["event"]["type"] == "bet_placed"]
    assert placed[0] == {"type": "bet_placed", "seat": 0, "amount": None}  # the spectator's
    # resume after the reveal: only what came later
    reveal = next(e["seq"] for e in entries if e["event"]["type"] == "bets_revealed")
    result = devil("watch", game, "--after", reveal, "--timeout", 1, "--json",
                   token=tokens["spectator"])
    later = [json.loads(line)["seq"] for line in result.stdout.splitlines()]
    assert later == [s for s in seqs if s > reveal]


def test_a_seat_token_stands_for_its_seat_and_the_referee_exports(devil, tmp_path):
    game, tokens = new_game(devil)
    shown = devil("show", game, token=tokens["Anna"]).stdout
    assert shown.splitlines()[-1] == "Anna may: bet 0 to 200 in steps of 10"
    devil("bet", game, 20, token=tokens["Anna"])           # no --as: the token's seat
    result = devil("bet", game, 20, token=tokens["referee"], code=2)
    assert "--as NAME is required" in result.stderr
    out = tmp_path / "exported.devlog"
    devil("export", game, "-o", out, token=tokens["Anna"], code=4)
    devil("export", game, "-o", out, token=tokens["referee"])
    assert "Anna bets 20" in devil("log", game, token=tokens["referee"]).stdout
    from engine.replay import verify_path
    assert verify_path(str(out)).ok


def test_referee_add_issues_a_named_token_whose_draws_it_reports(devil):
    """`devil referee add` (issue 23.4): the named token's name is recorded as each draw's
    reporter over --server; another --reporter is refused (exit 4, nothing recorded); a
    named referee may not issue others (exit 4); locally there are no tokens (exit 2)."""
    result = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                   "--physical")
    game = result.stdout.strip()
    tokens = dict(line.strip()[len("token for "):].split(": ", 1)
                  for line in result.stderr.splitlines() if line.strip().startswith("token for "))
    rita = devil("referee", "add", game, "Rita", token=tokens["referee"]).stdout.strip()
    assert rita.startswith(f"{game}.")
    devil("bet", game, 0, token=tokens["Anna"])
    devil("bet", game, 0, token=tokens["Ben"])  # seqs 3, 4, 5
    refused = devil("draw", game, "--as", "Anna", "--coal", "25", "--reporter", "Sam",
                    token=rita, code=4)
    assert "reports as Rita" in refused.output
    out = devil("draw", game, "--as", "Anna", "--coal", "25", token=rita).stdout
    assert out.splitlines()[0] == "#6    Anna draws 25 (reported by Rita)"
    devil("referee", "add", game, "Sam", token=rita, code=4)
    assert "--server" in devil("referee", "add", game, "Sam", remote=False, code=2).output
