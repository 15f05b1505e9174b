"""devil simulate and devil play."""

from __future__ import annotations

import json
import os

from engine.replay import verify_path

from .helpers import run


def test_simulate_json_summary(tmp_path):
    out_dir = tmp_path / "sim"
    out = run("simulate", "atkr", "--players", "3", "--games", "2", "--seed", "4",
              "--out", str(out_dir), "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output.strip().splitlines()[-1])
    assert data["games"] == 2 and data["players"] == 3
    assert data["finished"] + data["capped"] == 2
    assert sum(data["wins"].values()) >= data["finished"]
    assert data["average_rounds"] > 0
    logs = sorted(f for f in os.listdir(out_dir) if f.endswith(".devlog"))
    assert len(logs) == 2
    for name in logs:
        result = verify_path(str(out_dir / name))
        assert result.ok and result.finished == (data["capped"] == 0)
    # the same seed gives the same games
    again = run("simulate", "atkr", "--players", "3", "--games", "2", "--seed", "4",
                "--out", str(tmp_path / "again"), "--json")
    data2 = json.loads(again.output.strip().splitlines()[-1])
    assert data2["wins"] == data["wins"] and data2["events"] == data["events"]


def test_simulate_round_cap(tmp_path):
    out = run("simulate", "atkr", "--players", "2", "--games", "2", "--seed", "1",
              "--max-rounds", "1", "--out", str(tmp_path / "cap"), "--json")
    data = json.loads(out.output.strip().splitlines()[-1])
    assert data["capped"] == 2 and data["finished"] == 0
    text = run("simulate", "atkr", "--players", "2", "--games", "1", "--seed", "1",
               "--max-rounds", "1", "--out", str(tmp_path / "cap2")).output
    assert "stopped at the 1-round cap: 1" in text


def test_play_people_and_bots(tmp_path):
    store = tmp_path / "store"
    # Anna types: a hidden bet of 10, then draws (Enter) and stops; repeated as needed
    answers = "10\n\ns\n" * 40
    out = run("--store", str(store), "play", "atkr", "--player", "Anna", "--bot", "Rex=cautious",
              "--seed", "3", "--first", "Anna", "--max-rounds", "2", input=answers)
    assert out.exit_code == 0, out.output
    assert "secret bet" in out.output
    assert "chance of a devil on the next draw" in out.output
    assert "Rex places a sealed bet" in out.output
    assert "Recorded in" in out.output
    logs = [f for f in os.listdir(store) if f.endswith(".devlog")]
    assert len(logs) == 1
    assert verify_path(str(store / logs[0])).ok


def test_play_bad_bot_spec(tmp_path):
    out = run("--store", str(tmp_path), "play", "atkr", "--player", "Anna", "--bot", "Rex")
    assert out.exit_code == 2
