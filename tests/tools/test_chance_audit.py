"""`devil audit PATH... --chance`: the statistical audit of reported chance (issue 23.5,
docs/chance-audit.md).  Every expected value is worked by hand from the rules: the furnace of
ATKR-1.1 (48 coals: 2x100, 3x75, 7x50, 9x25, 9x20, 9x10, 9 devils), the refill of ATKR-7.1,
the pile known only as a set of CASTLE-7.1."""

from __future__ import annotations

import json
import os
import random
from fractions import Fraction as F

import pytest
from click.testing import CliRunner

from client.cli import cli
from engine.chance_audit import (FAMILIES, GameDraws, ReportedDraw, Score, audit, holm,
                                 poisson_binomial, poisson_binomial_two_sided)
from engine.games.atkr import commands as A
from engine.games.atkr.chance import TESTS, coal_scores
from engine.games.atkr.state import COAL_COUNTS

REPLAYS = os.path.join(os.path.dirname(__file__), "..", "..", "replays")


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def record(kind: str, options: dict, commands: list) -> bytes:
    """A game of ``kind`` played command by command through the real service (the referee
    reporting every draw): its .devlog bytes."""
    from engine.game import REFEREE
    from engine.service import GameService
    from engine.store import MemoryStore

    service = GameService(MemoryStore(), sign=False)
    game = service.create(kind, options).game
    for command in commands:
        service.submit(game, command, actor=REFEREE)
    return service.store.log_bytes(game)


# -- the probabilities of one draw ------------------------------------------------------------
def test_atkr_1_1_the_first_draw_from_a_full_furnace_is_a_devil_with_p_9_in_48():
    devils, values = coal_scores(COAL_COUNTS, 25)
    assert devils == Score("devils", 0.0, 9 / 48, 9 / 48 * 39 / 48)
    # the 39 non-devils: 2x100 + 3x75 + 7x50 + 9x25 + 9x20 + 9x10 = 1270; squares: 64500
    assert values.x == 25 and values.mean == pytest.approx(1270 / 39)
    assert values.var == pytest.approx(64500 / 39 - (1270 / 39) ** 2)  # 902600 / 1521
    (only,) = coal_scores(COAL_COUNTS, 0)  # a devil: no value to test
    assert only == Score("devils", 1.0, 9 / 48, 9 / 48 * 39 / 48)
    # one kind of non-devil left: its value cannot deviate, so no value score
    assert [s.test for s in coal_scores((0, 0, 0, 0, 0, 3, 1), 10)] == ["devils"]


def test_poisson_binomial_and_its_two_sided_p_value_by_hand():
    pmf = poisson_binomial([0.5, 0.25])
    assert list(pmf) == [3 / 8, 4 / 8, 1 / 8]
    assert poisson_binomial_two_sided([0.5, 0.25], 2) == 2 * 1 / 8
    assert poisson_binomial_two_sided([0.5, 0.25], 1) == 1.0


def test_weighted_holm_by_hand():
    assert holm([0.01, 0.04, 0.03], [1, 1, 1]) == pytest.approx([0.03, 0.06, 0.06])
    # weights 3:1 of 4: 0.01 / (3/4) = 0.01333; then 0.02 / (1/1)
    assert holm([0.01, 0.02], [3, 1]) == pytest.approx([0.04 / 3, 0.02])
    assert sum(w for _, w in FAMILIES) == pytest.approx(1.0)


# -- a small recorded game, its p-values by hand ----------------------------------------------
def small_game() -> bytes:
    """Round 1 of a physical game of Anna and Ben, Rita reporting: Anna 10 (p devil 9/48),
    Anna devil (9/47), Ben devil (8/46); round 2 starts with Ben."""
    ab = {"players": ["Anna", "Ben"], "first": "Anna", "physical": True}
    return record("atkr", ab, [A.Bet("Anna", 0), A.Bet("Ben", 0),
                               A.Draw("Anna", 10, "Rita"), A.Draw("Anna", 0, "Rita"),
                               A.Draw("Ben", 0, "Rita")])


def test_a_small_archive_gives_the_exact_p_values_worked_by_hand(tmp_path):
    path = tmp_path / "small.devlog"
    path.write_bytes(small_game())
    out = run("audit", path, "--chance", "--json")
    assert out.exit_code == 0, out.output
    chance = json.loads(out.stdout.splitlines()[-1])["chance"]
    assert chance["ok"] and chance["games"] == 1 and chance["draws"] == 3
    groups = {(g["family"], g["group"], g["test"]): g for g in chance["groups"]}
    anna = groups[("seat", "Anna", "devils")]
    # P(K = 0) = 39/48 * 38/47 = 1482/2256, so P(K >= 1) = 774/2256; P(K <= 1) = 2175/2256
    assert anna["n"] == 2 and anna["observed"] == 1 and anna["exact"]
    assert anna["p"] == pytest.approx(float(2 * F(774, 2256)))
    assert anna["expected"] == pytest.approx(9 / 48 + 9 / 47, abs=1e-6)
    assert anna["v"] == pytest.approx(9 / 48 * 39 / 48 + 9 / 47 * 38 / 47, abs=1e-6)
    rita = groups[("referee", "Rita", "devils")]  # all three: K = 2 of p 9/48, 9/47, 8/46
    ps = [F(9, 48), F(9, 47), F(8, 46)]
    at_least_2 = ps[0] * ps[1] * (1 - ps[2]) + ps[0] * (1 - ps[1]) * ps[2] \
        + (1 - ps[0]) * ps[1] * ps[2] + ps[0] * ps[1] * ps[2]
    assert rita["p"] == pytest.approx(float(2 * at_least_2))
    # Anna's 10 is the one value tested: the 39 non-devils' mean 1270/39
    value = groups[("referee x seat", "Rita x Anna", "values")]
    assert value["n"] == 1 and value["expected"] == pytest.approx(1270 / 39, abs=1e-6)
    table = groups[("table", json.loads(run("verify", path, "--json").stdout)["game"],
                    "devils")]
    assert table["n"] == 3


def test_a_refill_puts_every_coal_back(tmp_path):
    """ATKR-7.1: after the refill the first draw is again a devil with probability 9/48."""
    from engine.games.atkr.chance import walk
    from engine.games.atkr.events import CoalDrawn, FurnaceRefilled, GameCreated

    created = GameCreated(["Anna", "Ben"], 0, False, True, 16, 50, [200], 200, 1600, None)
    draws = walk("g", [created, CoalDrawn(0, 0), FurnaceRefilled(40), CoalDrawn(1, 0)],
                 [1, 2, 3, 4]).draws
    assert [(d.seq, d.probability, d.left) for d in draws] == [(2, 9 / 48, 48), (4, 9 / 48, 48)]
    assert [d.reporter for d in draws] == [None, None]


# -- a biased referee is flagged, a fair one is not -------------------------------------------
def archive(folder, referee: str, bias: float, seed: int, games: int) -> None:
    """``games`` recorded physical games of Anna, Bob, Cat, Dan reported by ``referee``, who
    turns a devil drawn by Anna into a non-devil with probability ``bias`` (the benchmark's
    cheat); the bots and the true furnace are seeded: the same archive every run."""
    from benchmarks.bench_chance_power import play_physical

    rng = random.Random(seed)
    names = ["Anna", "Bob", "Cat", "Dan"]
    for g in range(games):
        commands: list = []
        play_physical(rng, names, names[g % 4], referee, "Anna", bias, 0.75, max_rounds=8,
                      commands=commands)
        options = {"players": names, "first": names[g % 4], "physical": True}
        (folder / f"{referee}-{g}.devlog").write_bytes(record("atkr", options, commands))


def test_a_referee_who_never_reports_a_devil_for_anna_fails_and_a_fair_one_does_not(tmp_path):
    folder = tmp_path / "club"
    folder.mkdir()
    archive(folder, "Rex", 1.0, seed=7, games=2)
    archive(folder, "Fay", 0.0, seed=8, games=2)
    out = run("audit", folder, "--chance", "--jobs", "1")
    assert out.exit_code == 3, out.output
    text = out.stdout
    assert "FAILS referee x seat 'Rex x Anna', devils: observed 0," in text
    heaviest = [line for line in text.splitlines() if line.startswith("    game ")]
    assert heaviest and all("Anna drew, Rex reported" in line for line in heaviest[:5])
    last = text.splitlines()[-1]
    assert last.startswith("FAILED: chance:") and "Fay" not in last
    data = json.loads(run("audit", folder, "--chance", "--json", "--jobs", "1")
                      .stdout.splitlines()[-1])["chance"]
    failed = {(g["family"], g["group"]) for g in data["failed"]}
    assert ("referee x seat", "Rex x Anna") in failed
    assert not any("Fay" in group for _, group in failed)
    worst = data["failed"][0]["heaviest"][0]
    assert worst["seat"] == "Anna" and worst["reporter"] == "Rex" and worst["reported"] != "devil"
    assert 0 < worst["probability"] < 1


def test_the_fair_referee_alone_passes(tmp_path):
    folder = tmp_path / "fair"
    folder.mkdir()
    archive(folder, "Fay", 0.0, seed=8, games=2)
    out = run("audit", folder, "--chance", "--jobs", "1")
    assert out.exit_code == 0, out.output
    assert out.stdout.splitlines()[-1] == ("OK: chance: no group fails at alpha 0.01 after "
                                           "correction")


# -- skipped games, Castle, usage ----------------------------------------------------------
def test_a_digital_game_is_skipped_and_says_so():
    path = os.path.join(REPLAYS, "atkr-4p-cautious-seed104.devlog")
    out = run("audit", path, "--chance")
    assert out.exit_code == 0, out.output
    assert "chance: 0 physical games, 0 reported draws" in out.stdout
    assert "a digital game: its draws come from the committed seed, which verify checks " \
           "exactly" in out.stdout


def test_castle_7_1_a_reported_bag_draw_from_the_pile_set(tmp_path):
    """A physical 4-player game whose pile is a set: 21 cards, 5 in hands (bag-key, key-1,
    dagger, whip, gloves), so 16 in the pile with key-2 and key-3.  Ann (Order) trades her bag
    and draws; Rita reports key-2: its kind has probability 2/16, and it is Ann's own relic
    (p 1/8): the exact two-sided p of one success in one trial of 1/8 is 2/8."""
    from engine.games.castle import commands as C
    from engine.games.castle.position import options_from_position
    from tests.castle.helpers import position

    seats = {"Ann": ("order", "thug", ["bag-key", "key-1"]),
             "Ben": ("brotherhood", "doctor", ["dagger"]),
             "Cid": ("order", "priest", ["whip"]), "Dora": ("brotherhood", "bodyguard", ["gloves"])}
    options = {**options_from_position(position(seats, ordered=False, active="Ann")),
               "physical": True}
    data = record("castle", options, [
        C.Trade(player="Ann", to="Ben", item="bag-key"), C.Accept(player="Ben", item="dagger"),
        C.Choose(player="Ann", option="draw"), C.Draw(player="Ann", item="key-2", reporter="Rita")])
    path = tmp_path / "castle.devlog"
    path.write_bytes(data)
    out = run("audit", path, "--chance", "--json")
    assert out.exit_code == 0, out.output
    chance = json.loads(out.stdout.splitlines()[-1])["chance"]
    assert chance["games"] == 1 and chance["draws"] == 1
    assert [t["name"] for t in chance["tests"]["castle"]] == ["own relic"]
    group = next(g for g in chance["groups"] if g["family"] == "referee x seat")
    assert group["group"] == "Rita x Ann" and group["observed"] == 1
    assert group["expected"] == pytest.approx(1 / 8) and group["p"] == pytest.approx(2 / 8)
    from engine.archive import chance_row

    (draw,) = chance_row(str(path))["chance"].draws
    assert (draw.reported, draw.probability, draw.left) == ("key-2", 2 / 16, 16)


def test_alpha_outside_0_1_is_a_usage_error_and_nothing_is_written(tmp_path):
    path = tmp_path / "small.devlog"
    path.write_bytes(small_game())
    out = run("audit", path, "--chance", "--alpha", "1.5")
    assert out.exit_code == 2 and "--alpha" in out.output and "Traceback" not in out.output
    out = run("audit", path, "--alpha", "0.05")
    assert out.exit_code == 2 and "give --chance too" in out.output
    assert not any(p.name != "small.devlog" for p in tmp_path.iterdir())


def test_the_audit_groups_draws_without_a_reporter_as_not_named():
    draw = ReportedDraw("g", 3, "Anna", None, "devil", 9 / 48, 48,
                        (Score("devils", 1.0, 9 / 48, 9 / 48 * 39 / 48),))
    result = audit([GameDraws("g", "k", True, TESTS, (draw,))])
    assert {g.group for g in result.groups} == {"not named x Anna", "not named", "Anna", "g"}
    # one success in one trial of 9/48: p = 2 * 9/48
    assert all(g.p == pytest.approx(18 / 48) for g in result.groups)
    assert result.ok and result.to_json()["correction"] == "weighted Holm"


@pytest.mark.slow
def test_a_small_power_run_flags_the_cheating_referee_and_spares_fair_archives():
    """benchmarks/bench_chance_power.py at a small size: 6 trials of the club archive (three
    referees, 50 games each, Rita turning 20% of Ann's devils into other coals).  The seeds are
    fixed, so the run is the same every time; the benchmark measured about 98% power at 50
    games (benchmarks/RESULTS.md), so 5 of 6 is a floor that still fails a blind audit."""
    from benchmarks.bench_chance_power import measure

    got = measure(trials=6, fair_trials=6, jobs=1, bias=0.2, p_draw=0.75, seed=3, sizes=(50,))
    assert got["power"][50] >= 5 / 6
    assert got["fair_no_flag"] >= 5 / 6
    assert got["mean_z_at_max"] < -3.7


def test_a_tournament_bundles_table_is_one_table_across_rounds(tmp_path):
    """Two games a manifest.json lists at table 1 of rounds 1 and 2 (engine/tournament/bundle.py)
    are one table: its group holds the 3 + 3 draws of both."""
    games = tmp_path / "cup" / "games"
    games.mkdir(parents=True)
    logs = []
    for round_ in (1, 2):
        data = small_game()
        path = games / f"r{round_}.devlog"
        path.write_bytes(data)
        game = json.loads(run("verify", path, "--json").stdout)["game"]
        logs.append({"role": "game", "game": game, "round": round_, "table": 1,
                     "file": f"games/{path.name}"})
    (tmp_path / "cup" / "manifest.json").write_text(json.dumps(
        {"format": "devil-tournament-bundle", "tournament": "cup", "logs": logs}))
    out = run("audit", tmp_path / "cup", "--chance", "--json", "--jobs", "1")
    assert out.exit_code == 0, out.output
    chance = json.loads(out.stdout.splitlines()[-1])["chance"]
    tables = {g["group"]: g["n"] for g in chance["groups"]
              if g["family"] == "table" and g["test"] == "devils"}
    assert tables == {"cup table 1": 6}
