"""`devil tournament ...` end to end on a file store: simulate, standings (--json, --csv,
--html with the points-by-round chart), show, bundle, verify and their exit codes."""

import json
import os

from click.testing import CliRunner

from client.cli import cli


def run(store, *args):
    result = CliRunner().invoke(cli, ["--store", store, "tournament", *args])
    return result


def test_simulate_standings_bundle_verify(tmp_path):
    store = str(tmp_path / "store")
    sim = run(store, "simulate", "--game", "atkr", "--players", "9", "--rounds", "2",
              "--seed", "5", "--json")
    assert sim.exit_code == 0, sim.output
    t = json.loads(sim.output.strip().splitlines()[-1])["tournament"]
    got = run(store, "standings", t, "--json", "--csv", str(tmp_path / "s.csv"),
              "--html", str(tmp_path / "s.html"))
    data = json.loads(got.output)
    assert data["tournament"] == t and data["round"] == 2 and len(data["standings"]) == 9
    row = data["standings"][0]
    assert set(row) >= {"rank", "player", "points", "played", "byes", "opponents_points",
                        "wins", "money", "dropped"}
    # 9 players at tables of 4 to 5: 5 and 4, nobody has a bye; two games each
    assert all(r["played"] == 2 and r["byes"] == 0 for r in data["standings"])
    page = open(tmp_path / "s.html").read()
    assert page.count("<svg") == 9 and "points by round: round 1:" in page
    assert open(tmp_path / "s.csv").read().startswith("rank,player,points,played,byes")
    shown = run(store, "show", t)
    assert shown.exit_code == 0 and "table 1" in shown.output
    out = str(tmp_path / "b")
    assert run(store, "bundle", t, out).exit_code == 0
    # pinned to the store's key (TOUR-6.12; unpinned, exit 6: tests/tournament/test_bundle_auth)
    key = CliRunner().invoke(cli, ["--store", store, "key"]).output.strip()
    ok = run(store, "verify", out + ".zip", "--key", key)
    assert ok.exit_code == 0 and f"verified: {t}" in ok.output
    assert run(store, "verify", t).exit_code == 0
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    game = manifest["logs"][1]["game"]
    path = os.path.join(out, manifest["logs"][1]["file"])
    data = bytearray(open(path, "rb").read())
    data[-20] ^= 0xFF
    open(path, "wb").write(bytes(data))
    bad = run(store, "verify", out)
    assert bad.exit_code == 3 and f"FAILED: game {game}" in bad.output


def test_refusals_have_exit_codes(tmp_path):
    store = str(tmp_path / "store")
    made = run(store, "new", "Cup", "--game", "atkr", "--rounds", "1", "--table-size", "3-3",
               "--player", "A", "--player", "B", "--player", "C", "--format", "fixed", "--json")
    assert made.exit_code == 0, made.output
    t = json.loads(made.output)["tournament"]
    seating = tmp_path / "seating.json"
    seating.write_text(json.dumps({"tables": [["A", "B", "A"]]}))
    twice = run(store, "pair", t, "--seating", str(seating))
    assert twice.exit_code == 1 and "TOUR-2.2: A is seated at two tables" in twice.output
    unknown = run(store, "drop", t, "Zed")
    assert unknown.exit_code == 2 and "no player called 'Zed'" in unknown.output
    early = run(store, "close-round", t)
    assert early.exit_code == 1 and "no round is open" in early.output
    seating.write_text(json.dumps({"tables": [["B", "C", "A"]]}))
    paired = run(store, "pair", t, "--seating", str(seating))
    assert paired.exit_code == 0 and "B*  C  A" in paired.output


def test_the_shared_reading_commands_read_a_tournament(tmp_path):
    store = str(tmp_path / "store")
    made = run(store, "new", "Cup", "--game", "castle", "--rounds", "1", "--table-size", "3-4",
               *[x for p in ("Ann", "Ben", "Cid", "Dora", "Eve", "Fay", "Gus") for x in
                 ("--player", p)], "--json")
    t = json.loads(made.output)["tournament"]
    assert "round 1: 2 tables" in run(store, "pair", t).output  # 7 at 3 to 4: 4 and 3
    log = CliRunner().invoke(cli, ["--store", store, "log", t])
    assert log.exit_code == 0 and "round 1 paired: 1: " in log.output
    assert "plays castle-" in log.output
    verify = CliRunner().invoke(cli, ["--store", store, "verify", t])
    assert verify.exit_code == 0 and "pairings recomputed" in verify.output
    shown = CliRunner().invoke(cli, ["--store", store, "show", t])
    assert shown.exit_code == 0 and "round 1 of 1" in shown.output


def test_players_from_a_file(tmp_path):
    store = str(tmp_path / "store")
    names = tmp_path / "players.csv"
    names.write_text("# the club's players\nname,club\nAnna,Köln\nBen,Bonn\n\nCleo,\n")
    made = run(store, "new", "Cup", "--game", "atkr", "--rounds", "1", "--table-size", "3-3",
               "--players-file", str(names), "--player", "Dora", "--json")
    assert made.exit_code == 0, made.output
    t = json.loads(made.output)["tournament"]
    rows = json.loads(run(store, "standings", t, "--json").output)["standings"]
    assert sorted(r["player"] for r in rows) == ["Anna", "Ben", "Cleo", "Dora"]
    # 4 players at tables of exactly 3: one bye (TOUR-2.3)
    paired = json.loads(run(store, "pair", t, "--no-games", "--json").output)
    assert len(paired["tables"]) == 1 and len(paired["byes"]) == 1


def test_standings_files_are_never_overwritten_without_force(tmp_path):
    """The one policy of every command that writes a file (README): an existing --html or
    --csv file is refused (exit 2) and left as it was; --force overwrites it."""
    store = str(tmp_path / "store")
    sim = run(store, "simulate", "--game", "atkr", "--players", "6", "--rounds", "1",
              "--seed", "5", "--json")
    t = json.loads(sim.output.strip().splitlines()[-1])["tournament"]
    page = tmp_path / "s.html"
    page.write_text("mine")
    refused = run(store, "standings", t, "--html", str(page))
    assert refused.exit_code == 2 and "exists already" in refused.output
    assert page.read_text() == "mine"
    forced = run(store, "standings", t, "--html", str(page), "--force")
    assert forced.exit_code == 0 and f"wrote {page}" in forced.stderr
    assert page.read_text().startswith("<!doctype html>")
