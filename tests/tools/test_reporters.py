"""Who reported each draw, at the local CLI (issue 23.4): ``devil draw --reporter`` refused in a
digital game (ATKR-9.3) with nothing appended, Castle's ``devil drawn --reporter`` (CASTLE-7.1),
``devil play --resume GAME --reporter NAME`` of a physical game, and a physical log recorded
before the field existed, which verifies as before and names no reporter.

``old_logs/atkr-physical-before-reporters.devlog`` was written by the tree before reporters
(9a3d73c^): a physical game of Anna and Ben, Anna first; Anna bets 30, Ben 0 (seqs 3-5), Anna
draws 20 (6) and 10 (7), stops (8), Ben draws a devil (9), then round 1's payouts and round 2's
start (10-14): three draws, none named."""

from __future__ import annotations

import json
import pathlib

import pytest
from click.testing import CliRunner

from client.cli import cli
from engine.game import rules_for
from engine.log import read_bytes, scan

HERE = pathlib.Path(__file__).resolve().parent
OLD = HERE / "old_logs" / "atkr-physical-before-reporters.devlog"
POSITION = HERE.parents[1] / "docs" / "examples" / "castle-position.json"


@pytest.fixture
def devil(tmp_path):
    runner = CliRunner()

    def run(*args, code=0, env=None, input=None):
        result = runner.invoke(cli, ["--store", str(tmp_path / "store"), *map(str, args)],
                               env={"DEVIL_SERVER": None, "DEVIL_TOKEN": None,
                                    "DEVIL_REFEREE": None, **(env or {})}, input=input)
        assert result.exit_code == code, (args, result.output)
        return result

    run.store = tmp_path / "store"
    return run


def test_a_digital_draw_with_a_reporter_is_refused_and_records_nothing(devil):
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                 "--seed", 7).stdout.strip()
    devil("bet", game, "0", "--as", "Anna")
    devil("bet", game, "0", "--as", "Ben")  # seqs 3, 4, 5 (revealed)
    before = (devil.store / f"{game}.devlog").read_bytes()
    refused = devil("draw", game, "--as", "Anna", "--reporter", "Rita", code=1)
    assert "ATKR-9.3" in refused.output and "a reporter cannot be given" in refused.output
    refused = devil("draw", game, "--as", "Anna", "--referee", "Rita", "--json", code=1)
    assert json.loads(refused.stdout)["rule"] == "ATKR-9.3"
    assert (devil.store / f"{game}.devlog").read_bytes() == before
    # the environment's referee is for physical draws: a digital draw goes on without it
    drawn = devil("draw", game, "--as", "Anna", "--json", env={"DEVIL_REFEREE": "Rita"})
    event = json.loads(drawn.stdout)["events"][0]
    assert event["seq"] == 6 and event["type"] == "coal_drawn" and "reporter" not in event


def test_a_bad_reporter_name_is_refused_citing_the_rule(devil):
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                 "--physical").stdout.strip()
    devil("bet", game, "0", "--as", "Anna")
    devil("bet", game, "0", "--as", "Ben")
    refused = devil("draw", game, "--as", "Anna", "--coal", "25", "--reporter", "R" * 33, code=1)
    assert "ATKR-9.3" in refused.output and "1 to 32 printable characters" in refused.output
    assert len(json.loads(devil("log", game, "--json").stdout)) == 5  # nothing appended


def test_castle_reported_pile_draw_records_its_reporter(devil):
    game = json.loads(devil("new", "castle", "--position", POSITION, "--json").stdout)["game"]
    devil("trade", game, "bag-key", "--to", "Ben", "--as", "Ann")
    devil("accept", game, "dagger", "--as", "Ben")
    devil("choose", game, "draw", "--as", "Ann")  # the bag: a draw to be reported (CASTLE-5.1)
    out = devil("drawn", game, "tome", "--as", "Ann", "--reporter", "Rita").stdout
    assert "#7    Ann draws the tome from the pile (secret bag, CASTLE-5.1; reported by Rita)" \
        in out.splitlines()
    drawn = [e for e in json.loads(devil("log", game, "--json").stdout)
             if e["event"]["type"] == "item_drawn"]
    assert [(e["event"]["item"], e["event"]["reporter"]) for e in drawn] == [("tome", "Rita")]
    # the reporter is public: Cid sees who reported it, not the card (CASTLE-11.1)
    cid = [e["event"] for e in json.loads(devil("log", game, "--as", "Cid", "--json").stdout)
           if e["event"]["type"] == "item_drawn"]
    assert cid == [{"type": "item_drawn", "player": 0, "item": None, "reason": "bag",
                    "reporter": "Rita"}]
    data = json.loads(devil("verify", game, "--json").stdout)
    assert data["ok"] and data["reporters"] == {"Rita": 1} and data["draws_not_named"] == 0


def test_an_old_physical_log_verifies_unchanged_and_names_no_reporter(devil):
    data = read_bytes(str(OLD))
    rules = rules_for("atkr")
    for record in scan(data).records:  # every event re-encodes to the bytes it has
        assert rules.events.to_map(rules.events.from_map(record.event)) == record.event
    text = devil("verify", OLD).stdout
    assert text.startswith(f"OK {OLD}: atkr game atkr-fwxuiw, 14 events, in progress")
    assert "  - draws reported by: not named 3\n" in text
    report = json.loads(devil("verify", OLD, "--json").stdout)
    assert report["ok"] and report["physical"] and report["commands"] == 7
    assert report["reporters"] == {} and report["draws_not_named"] == 3
    lines = devil("log", OLD).stdout.splitlines()
    assert lines[5:9] == ["#6    Anna draws 20", "#7    Anna draws 10", "#8    Anna stops",
                          "#9    Ben draws a devil and busts"]
    assert read_bytes(str(OLD)) == data


def test_play_resumed_physical_game_records_the_sessions_reporter(devil):
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                 "--physical").stdout.strip()
    # a new game of `devil play` is digital: --reporter refused before anything is made
    refused = devil("play", "atkr", "--player", "Cleo", "--bot", "Dan=cautious",
                    "--reporter", "Rita", code=2)
    assert "physical" in refused.output
    assert [p.name for p in devil.store.glob("*.devlog")] == [f"{game}.devlog"]
    # Anna bets 0, Ben 20 (seqs 3-5), Anna draws 25 (6) and 10 (7); then the input ends
    keys = "\n0\n" "\n20\n" "\nd\n25\n" "d\n10\n"
    devil("play", "--resume", game, "--reporter", "Rita", input=keys, code=130)
    entries = json.loads(devil("log", game, "--json").stdout)
    assert [(e["seq"], e["event"]["coal"], e["event"].get("reporter")) for e in entries
            if e["event"]["type"] == "coal_drawn"] == [(6, 25, "Rita"), (7, 10, "Rita")]
