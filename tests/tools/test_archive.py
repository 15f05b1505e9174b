"""Archives: `devil verify` and `devil audit` of many files and folders, on every core, with a
line per game and a summary (issue 8.5)."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from click.testing import CliRunner

from client.cli import cli

REPLAYS = os.path.join(os.path.dirname(__file__), "..", "..", "replays")


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def archive(tmp_path):
    """A folder of the shipped replays, and in a subfolder: one cut 5 bytes into its last
    command (a damaged end) and one cut at the end of its second-last command (in progress)."""
    from engine.log import scan

    folder = tmp_path / "archive"
    (folder / "day2").mkdir(parents=True)
    names = sorted(n for n in os.listdir(REPLAYS) if n.endswith(".devlog"))
    for name in names:
        shutil.copy(os.path.join(REPLAYS, name), folder / name)
    data = open(os.path.join(REPLAYS, "atkr-4p-cautious-seed104.devlog"), "rb").read()
    (folder / "day2" / "torn.devlog").write_bytes(data[:-5])
    torn = scan(data[:-5])  # what is left whole: every command but the last
    (folder / "day2" / "unfinished.devlog").write_bytes(data[:torn.good_end])
    return folder, names


def test_verify_a_folder_counts_finished_in_progress_and_damaged(archive):
    folder, names = archive
    out = run("verify", folder, "--jobs", "2")
    lines = out.stdout.splitlines()
    assert out.exit_code == 3  # one game is damaged
    assert lines[-1] == (f"FAILED: {len(names) + 2} games: {len(names)} finished and verified, "
                         "1 in progress, 1 damaged")
    torn = next(line for line in lines if "torn.devlog" in line)
    assert torn.startswith("BAD") and "cannot be read as a complete command" in torn
    assert sum(line.startswith("OK ") for line in lines) == len(names) + 1


def test_verify_many_as_json_gives_a_line_per_game_and_a_summary(archive):
    folder, names = archive
    files = [folder / n for n in names]
    out = run("verify", *files, "--json", "--jobs", "2")
    assert out.exit_code == 0
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["path"] for r in rows[:-1]] == [str(f) for f in files]
    assert all(r["status"] == "finished" and r["ok"] for r in rows[:-1])
    assert rows[-1] == {"summary": {"games": len(names), "finished": len(names),
                                    "in_progress": 0, "damaged": 0, "failed": 0, "skipped": 0},
                        "ok": True}


def test_verify_finished_fails_on_a_game_in_progress(archive):
    folder, _ = archive
    day2 = folder / "day2"
    (day2 / "torn.devlog").unlink()
    assert run("verify", day2, folder / "castle-3p.devlog").exit_code == 0
    out = run("verify", day2, folder / "castle-3p.devlog", "--finished")
    assert out.exit_code == 3
    assert out.stdout.splitlines()[-1] == ("FAILED: 2 games: 1 finished and verified, "
                                           "1 in progress, 0 damaged")


def test_audit_a_folder_audits_games_with_a_bank_and_skips_the_others(archive):
    folder, names = archive
    (folder / "day2" / "torn.devlog").unlink()
    out = run("audit", folder, "--jobs", "1")
    banked = [n for n in names if n.startswith("atkr")]
    others = len(names) - len(banked)
    assert out.exit_code == 0, out.output
    assert out.stdout.splitlines()[-1] == (
        f"OK: {len(names) + 1} games: {len(banked)} finished and verified, 1 in progress, "
        f"0 damaged, {others} without an audit")


def test_a_missing_path_is_a_usage_error(tmp_path):
    out = run("verify", tmp_path / "nothing", tmp_path / "nothing.devlog")
    assert out.exit_code == 2 and "no such file" in out.output
    (tmp_path / "empty").mkdir()
    out = run("verify", tmp_path / "empty")
    assert out.exit_code == 2 and "no .devlog files" in out.output


def test_verify_many_games_of_the_store_and_name_the_unfinished(tmp_path):
    store = str(tmp_path / "store")
    first = run("--store", store, "new", "atkr", "--player", "A", "--player", "B",
                "--seed", "1").stdout.strip()
    second = run("--store", store, "new", "atkr", "--player", "A", "--player", "B",
                 "--seed", "2").stdout.strip()
    out = run("--store", store, "verify", first, second)
    assert out.exit_code == 0, out.output
    assert out.stdout.splitlines()[-1] == ("OK: 2 games: 0 finished and verified, 2 in progress, "
                                           "0 damaged")
    out = run("--store", store, "verify", first, second, "--finished")
    assert out.exit_code == 3
    assert sum(line.startswith("UNFINISHED") for line in out.stdout.splitlines()) == 2


def test_replay_of_a_cut_file_shows_what_holds_then_names_the_damage(tmp_path):
    data = open(os.path.join(REPLAYS, "atkr-4p-cautious-seed104.devlog"), "rb").read()
    cut = tmp_path / "cut.devlog"
    cut.write_bytes(data[:6000])
    out = run("replay", cut, "--events-only")
    assert out.exit_code == 3
    assert "cannot be read as a complete command" in out.stderr
    assert out.stdout.startswith("#1 ")
