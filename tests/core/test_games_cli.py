"""`devil games` (each kind's own summary, filters, JSON), show/log of a .devlog file, an audit
for a kind without one, and JSON errors on every kind of command."""

from __future__ import annotations

import datetime
import json
import pathlib

import pytest
from click.testing import CliRunner

from client.cli import cli

REPLAYS = pathlib.Path(__file__).resolve().parents[2] / "replays"


@pytest.fixture
def devil(tmp_path):
    runner = CliRunner()

    def run(*args, code=0, store=tmp_path / "store"):
        result = runner.invoke(cli, ["--store", str(store), *map(str, args)])
        assert result.exit_code == code, (args, result.output, result.stderr)
        return result

    return run


@pytest.fixture
def three_games(devil):
    """A castle game in progress, an atkr game in progress and a finished atkr game."""
    castle = devil("new", "castle", "--player", "Ann", "--player", "Ben", "--player", "Cid",
                   "--first", "Ben", "--seed", 7).stdout.strip()
    running = devil("new", "atkr", "--player", "A", "--player", "B", "--first", "A",
                    "--seed", 3).stdout.strip()
    devil("bet", running, 20, "--as", "A")
    done = json.loads(devil("simulate", "atkr", "--players", 2, "--games", 1, "--seed", 5,
                            "--json").stdout)["game_ids"][0]
    return castle, running, done


def test_games_rows_carry_each_kinds_own_summary(devil, three_games):
    castle, running, done = three_games
    rows = {r["game"]: r for r in json.loads(devil("games", "--json").stdout)}
    assert set(rows) == {castle, running, done}
    c = rows[castle]
    assert c["kind"] == "castle" and c["players"] == ["Ann", "Ben", "Cid"]
    assert c["finished"] is False and c["events"] == 3
    assert c["summary"] == {"phase": "turn", "round": 1, "round_name": "turn", "turn": "Ben",
                            "winners": [], "text": "turn 1: Ben to play"}
    assert c["text"] == "turn 1: Ben to play" and c["round"] == 1  # no more "round None"
    created = datetime.datetime.fromisoformat(c["created"].replace("Z", "+00:00"))
    assert abs((datetime.datetime.now(datetime.timezone.utc) - created).total_seconds()) < 600
    r = rows[running]
    assert r["summary"] == {"phase": "bet", "round": 1, "turn": None, "winners": [],
                            "text": "round 1, bets"}
    assert r["finished"] is False and r["events"] == 3
    d = rows[done]
    assert d["finished"] is True and d["summary"]["phase"] == "over"
    assert d["winners"] and d["text"] == (f"over after round {d['round']}, won by "
                                          f"{', '.join(d['winners'])}")


def test_games_filters_and_text(devil, three_games):
    castle, running, done = three_games

    def listed(*args):
        return [r["game"] for r in json.loads(devil("games", *args, "--json").stdout)]

    assert listed("--kind", "castle") == [castle]
    assert sorted(listed("--kind", "atkr")) == sorted([running, done])
    assert listed("--finished") == [done]
    assert sorted(listed("--in-progress")) == sorted([castle, running])
    assert listed("--kind", "castle", "--finished") == []
    text = devil("games", "--kind", "castle").stdout
    day = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    assert text.startswith(f"{castle}  castle  Ann, Ben, Cid  turn 1: Ben to play  {day} ")
    assert text.rstrip().endswith("in progress  (3 events)")
    line = devil("games", "--finished").stdout.strip()
    assert line.startswith(f"{done}  atkr  Anna, Ben  over after round ")
    assert line.endswith("events)") and "  finished  (" in line
    assert "no games" in devil("games", "--kind", "castle", "--finished").stdout
    bad = devil("games", "--kind", "chess", "--json", code=2)
    assert json.loads(bad.stdout)["ok"] is False


def test_show_and_log_read_a_devlog_file(devil, three_games, tmp_path):
    castle, running, _ = three_games
    for game in (castle, running):
        path = tmp_path / f"{game}.devlog"
        devil("export", game, "-o", path)
        seat = "Ann" if game == castle else "B"
        for args in (("show", "--json"), ("show", "--as", seat, "--json"), ("show",),
                     ("show", "--as", seat), ("log",), ("log", "--as", seat),
                     ("log", "--json")):
            from_store = devil(args[0], game, *args[1:]).stdout
            # no store at all: the file alone
            from_file = devil(args[0], path, *args[1:], store=tmp_path / "none").stdout
            assert from_file == from_store, (game, args)
    shown = json.loads(devil("show", tmp_path / f"{running}.devlog", "--as", "B", "--json",
                             store=tmp_path / "none").stdout)
    assert shown["game"] == running and shown["version"] == 3
    assert [c["type"] for c in shown["legal"]] == ["bet"] * len(shown["legal"])
    assert shown["players"][0]["bet"] is None  # A's bet stays sealed from B
    assert not (tmp_path / "none").exists()
    missing = devil("show", tmp_path / "gone.devlog", "--json", code=2)
    assert json.loads(missing.stdout)["error"].startswith("no such file")
    unknown = devil("log", tmp_path / f"{running}.devlog", "--as", "Zed", "--json", code=2)
    assert "no player called 'Zed'" in json.loads(unknown.stdout)["error"]


def test_shipped_replay_shows_from_its_file(devil):
    out = devil("show", REPLAYS / "castle-3p.devlog").stdout
    assert "castle" in out.splitlines()[0]
    entries = json.loads(devil("log", REPLAYS / "atkr-2p-random-seed102.devlog", "--json").stdout)
    assert entries[0]["event"]["type"] == "game_created"
    assert entries[-1]["event"]["type"] == "game_ended" and entries[-1]["event"]["seed"] == 102


def test_audit_of_a_kind_without_one_says_so(devil):
    result = devil("audit", REPLAYS / "castle-3p.devlog", "--json", code=2)
    error = json.loads(result.stdout)
    assert error["exit"] == 2 and "have no audit" in error["error"]
    assert "castle" in error["error"] and "devil verify" in error["error"]


def test_json_errors_on_export_simulate_and_watch(devil, three_games, tmp_path):
    castle, _, _ = three_games
    out = tmp_path / "x.devlog"
    done = json.loads(devil("export", castle, "-o", out, "--json").stdout)
    assert done == {"game": castle, "bytes": out.stat().st_size, "path": str(out)}
    again = json.loads(devil("export", castle, "-o", out, "--json", code=2).stdout)
    assert again["ok"] is False and "exists already" in again["error"] and again["exit"] == 2
    unknown = json.loads(devil("export", "nosuch", "-o", tmp_path / "y", "--json",
                               code=2).stdout)
    assert unknown["ok"] is False and "nosuch" in unknown["error"]
    remote = json.loads(devil("--server", "http://127.0.0.1:9", "simulate", "castle",
                              "--players", 3, "--games", 1, "--json", code=2).stdout)
    assert remote["ok"] is False and "local store" in remote["error"]
    bad = json.loads(devil("simulate", "castle", "--players", 11, "--json", code=2).stdout)
    assert bad["ok"] is False and "--players" in bad["error"]
    watched = json.loads(devil("watch", "nosuch", "--timeout", 1, "--json", code=2).stdout)
    assert watched["ok"] is False and "nosuch" in watched["error"]
    events = [json.loads(line) for line in
              devil("watch", castle, "--timeout", 0.2, "--json").stdout.splitlines()]
    assert [e["seq"] for e in events] == [1, 2, 3]


def test_simulate_castle_json_summary(devil, tmp_path):
    summary = json.loads(devil("simulate", "castle", "--players", 3, "--games", 1, "--seed", 2,
                               "--out", tmp_path / "runs", "--json").stdout)
    assert summary["games"] == 1 and summary["players"] == 3 and len(summary["game_ids"]) == 1
    rows = json.loads(devil("games", "--json", store=tmp_path / "runs").stdout)
    assert [r["game"] for r in rows] == summary["game_ids"] and rows[0]["kind"] == "castle"
