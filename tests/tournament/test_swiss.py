"""The score-groups swiss (TOUR-2.5 to 2.9, engine.tournament.swiss): its objective equals a
brute-force optimum over every seating of small events, the issue's leader kept at table 1 by
hand, start counts within one over simulated events, clubs apart in round 1, the switch that
allows repeats, and tournaments recorded before it still pairing the classic way."""

from __future__ import annotations

import itertools
import random

from click.testing import CliRunner

from client.cli import cli
from engine.tournament.pairing import seat, swiss as classic, table_sizes
from engine.tournament.swiss import swiss
from tests.scale import examples
from tests.tournament.helpers import organiser


def brute_force(ranked, points, sizes, met, firsts):
    """The least (balance, repeats, leaders, displacement) over every seating, written from
    the rules' text (docs/tournaments.md TOUR-2.5 to 2.8), not from the engine."""
    n = len(ranked)
    group = {}
    for i, p in enumerate(ranked):
        same = [j for j, q in enumerate(ranked) if points[q] == points[p]]
        group[p] = (min(same), max(same))
    starts = list(itertools.accumulate([0] + sizes))
    fewest = min(firsts.get(p, 0) for p in ranked)
    low = {p for p in ranked if firsts.get(p, 0) == fewest}
    leaders = [p for p in ranked if points[p] == points[ranked[0]]]
    best = None
    # every assignment of positions to tables (tables are told apart by their ranges)
    labels = [k for k, size in enumerate(sizes) for _ in range(size)]
    for assignment in set(itertools.permutations(labels)):
        tables = [[ranked[i] for i in range(n) if assignment[i] == k] for k in range(len(sizes))]
        balance = sum(1 for t in tables if (len(low & set(t)) == 0 if len(low) >= len(sizes)
                                            else len(low & set(t)) > 1))
        rep = sum(1 for t in tables for a, b in itertools.combinations(t, 2) if b in met.get(a, ()))
        out = (sum(1 for p in leaders if p not in tables[0])
               if len(leaders) <= sizes[0] else 0)
        disp = 0
        for k, t in enumerate(tables):
            lo, hi = starts[k], starts[k + 1] - 1
            for p in t:
                g_lo, g_hi = group[p]
                disp += max(0, lo - g_hi, g_lo - hi) ** 2
        key = (balance, rep, out, disp)
        best = key if best is None or key < best else best
    return best


def play(rng, tables, points, met):
    """Every table played: places shuffled, 6,4,2,1,0 by place."""
    for t in tables:
        order = list(t)
        rng.shuffle(order)
        for place, p in enumerate(order):
            points[p] += [6, 4, 2, 1, 0][min(place, 4)]
            met.setdefault(p, set()).update(q for q in t if q != p)


def test_small_events_reach_the_brute_force_optimum():
    rng = random.Random(22)
    checked = 0
    for event in range(examples(6)):
        n, low, high = rng.choice([(8, 4, 4), (9, 4, 5), (7, 3, 4), (8, 3, 5)])
        players = [f"P{i}" for i in range(n)]
        points = {p: 0 for p in players}
        met: dict = {}
        firsts: dict = {}
        for round_ in range(1, 5):
            ranked = sorted(players, key=lambda p: (-points[p], p))
            tables, byes, terms = swiss(ranked, low, high, met, points, {}, firsts,
                                        seed=event * 10 + round_)
            assert byes == []
            sizes = table_sizes(n, low, high)
            assert [len(t) for t in tables] == sizes
            want = brute_force(ranked, points, sizes, met, firsts)
            assert (terms["balance"], terms["repeats"], terms["leaders"],
                    terms["displacement"]) == want, (event, round_, tables)
            checked += 1
            for _, first in seat(tables, firsts, 1, round_):
                firsts[first] = firsts.get(first, 0) + 1
            play(rng, tables, points, met)
    assert checked == examples(6) * 4


LETTERS = "ABCDEFGHIJKLMNOP"
#: the issue's kind of event: A leads on 12 alone; B, C, D (9 each) are the three A has met
POINTS = dict(zip(LETTERS, [12, 9, 9, 9, 7, 7, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2]))


def test_the_leader_stays_at_table_one_by_hand():
    """16 players at tables of 4, in points order A B C D E F G H I ... P, points 12, 9, 9,
    9, 7, 7, 7, 6, 5, ... (the rest one group each); A has met B, C and D, nobody else met.
    Table ranges: table 1 positions 0-3, table 2 4-7, 3 8-11, 4 12-15.  Points ranges: A 0,
    B C D 1-3, E F G 4-6, then one position each.
    A at table 1 costs no repeat only with three players from positions 4 on: E, F, G are the
    cheapest (their range 4-6 is 1 from table 1's 0-3: 1 each, 3 in all; H is 4 away: 16).
    B, C, D then sit outside table 1: at least 1 each; at table 2 they are 1 away, with H (in
    range: 0).  Everything else as cut: 0.  Displacement 3 + 3 = 6, no repeat, the leader at
    table 1; A anywhere else costs 16 alone.  So the seating is A E F G | B C D H | I J K L |
    M N O P.  The classic pairing moves A instead: its first swap takes A (3 repeats at the
    cut) to table 2 for E."""
    ranked = list(LETTERS)
    met = {"A": set("BCD"), **{p: {"A"} for p in "BCD"}}
    tables, byes, terms = swiss(ranked, 4, 4, met, POINTS, {}, {}, seed=5)
    assert tables == [list("AEFG"), list("BCDH"), list("IJKL"), list("MNOP")] and byes == []
    assert terms == {"balance": 0, "repeats": 0, "clubs": 0, "leaders": 0, "displacement": 6}
    old, _ = classic(ranked, 4, 4, met, POINTS, {})
    assert "A" not in old[0]


def test_repeats_allowed_seat_by_points_alone():
    """The same event with --allow-repeats: the cut (displacement 0) is the answer, A with
    the three it met."""
    met = {"A": set("BCD"), **{p: {"A"} for p in "BCD"}}
    tables, _, terms = swiss(list(LETTERS), 4, 4, met, POINTS, {}, {}, seed=5,
                             avoid_repeats=False)
    assert tables == [list("ABCD"), list("EFGH"), list("IJKL"), list("MNOP")]
    assert terms["repeats"] == 0 and terms["displacement"] == 0  # repeats are not counted


def test_start_counts_stay_within_one_over_simulated_events():
    """TOUR-2.8: every player plays every round (sizes that need no bye), so after every
    round the starts of any two players differ by at most one."""
    rng = random.Random(8)
    for _ in range(examples(8)):
        low, high = rng.choice([(4, 4), (3, 4), (4, 5), (3, 5)])
        n = rng.choice([k for k in range(8, 21) if table_sizes(k, low, high)])
        players = [f"P{i}" for i in range(n)]
        points = {p: 0 for p in players}
        met: dict = {}
        firsts: dict = {}
        for round_ in range(1, rng.randint(3, 7) + 1):
            ranked = sorted(players, key=lambda p: (-points[p], p))
            tables, byes, terms = swiss(ranked, low, high, met, points, {}, firsts, seed=round_)
            assert terms["balance"] == 0 and byes == []
            for _, first in seat(tables, firsts, 3, round_):
                firsts[first] = firsts.get(first, 0) + 1
            counts = [firsts.get(p, 0) for p in players]
            assert max(counts) - min(counts) <= 1, (n, low, high, round_, counts)
            play(rng, tables, points, met)


def test_round_one_keeps_clubs_apart():
    """Round 1 with avoid_same_club: 8 players at 2 tables of 4.  Two clubs of 2 can be split
    (0 pairs); a club of 5 cannot: 3 + 2 at the two tables is C(3,2) + C(2,2) = 4 pairs, the
    least (4 + 1 would be 6)."""
    ranked = list("ABCDEFGH")
    points = {p: 0 for p in ranked}
    clubs = {"A": "Köln", "B": "Köln", "C": "Bonn", "D": "Bonn", "E": ""}
    tables, _, terms = swiss(ranked, 4, 4, {}, points, {}, {}, seed=1, clubs=clubs)
    assert terms["clubs"] == 0
    assert all(len({clubs[p] for p in t if clubs.get(p)}) == len([p for p in t if clubs.get(p)])
               for t in tables)
    five = {p: "X" for p in "ABCDE"}
    _, _, terms = swiss(ranked, 4, 4, {}, points, {}, {}, seed=1, clubs=five)
    assert terms["clubs"] == 4


def run(store, *args):
    return CliRunner().invoke(cli, ["--store", store, "tournament", *args])


def test_avoid_same_club_from_a_players_file_end_to_end(tmp_path):
    """`new --avoid-same-club` with a players file whose club column puts Anna and Ben, and
    Cleo and Dora, in one club each: round 1's two tables of 4 split both pairs; the setting
    is recorded (show --json) and the stream verifies strictly."""
    import json

    path = tmp_path / "players.csv"
    path.write_text("name,club\nAnna,Köln\nBen,Köln\nCleo,Bonn\nDora,Bonn\nEmil,\nFay,\n"
                    "Gus,\nHal,\n", encoding="utf-8")
    store = str(tmp_path / "store")
    got = run(store, "new", "Cup", "--game", "atkr", "--rounds", "2", "--table-size", "4-4",
              "--seed", "9", "--players-file", str(path), "--avoid-same-club", "--json")
    assert got.exit_code == 0, got.output
    t = json.loads(got.output)["tournament"]
    paired = json.loads(run(store, "pair", t, "--no-games", "--json").output)
    for row in paired["tables"]:
        assert not {"Anna", "Ben"} <= set(row["players"])
        assert not {"Cleo", "Dora"} <= set(row["players"])
    view = json.loads(run(store, "show", t, "--json").output)
    assert (view["pairing"], view["avoid_same_club"], view["allow_repeats"]) == (
        "score-groups", True, False)
    verified = CliRunner().invoke(cli, ["--store", store, "verify", t])
    assert verified.exit_code == 0 and "pairings recomputed" in verified.output


def test_switches_are_checked_and_old_streams_pair_classic():
    """A switch of the score-groups pairing with the fixed format is refused (usage); a
    tournament created without a pairing (as before the setting) is recorded as classic and
    pairs exactly as engine.tournament.pairing.swiss does."""
    import pytest

    from engine.errors import UsageError

    desk = organiser()
    names = [f"P{i}" for i in range(9)]
    base = {"name": "Cup", "game": "atkr", "rounds": 2, "table_size": [4, 5],
            "players": names, "seed": 4}
    with pytest.raises(UsageError, match="avoid-same-club is a setting of the score-groups"):
        desk.create({**base, "format": "fixed", "avoid_same_club": True})
    with pytest.raises(UsageError, match="the pairing is one of score-groups, classic"):
        desk.create({**base, "pairing": "dutch"})
    t = desk.create({**base, "pairing": "classic"})
    state = desk.state(t)
    assert state.created.pairing == "classic"
    paired = desk.pair(t, games=False)
    from engine.tournament.standings import draw_key

    ranked = sorted(names, key=lambda p: draw_key(4, "order", p))
    tables, _ = classic(ranked, 4, 5, {}, {p: 0 for p in names}, {})
    assert sorted(map(sorted, (r["players"] for r in paired["tables"]))) == sorted(
        map(sorted, tables))


def test_the_switches_over_http_and_refusals_on_the_command_line(tmp_path):
    """POST /tournaments takes pairing, allow_repeats and avoid_same_club (recorded, shown);
    a bad value is a 400 naming the field and creates nothing.  On the command line a switch
    of score-groups with the classic pairing is a usage error (exit 2), no traceback."""
    from starlette.testclient import TestClient

    from engine.store import MemoryStore
    from engine.web import create_app

    auth = {"Authorization": "Bearer k"}
    store = MemoryStore()
    with TestClient(create_app(store, "k")) as http:
        settings = {"name": "Net cup", "game": "atkr", "rounds": 1, "table_size": [4, 4],
                    "players": list("ABCDEFGH"), "seed": 3, "allow_repeats": True,
                    "attributes": {"A": {"club": "X"}, "B": {"club": "X"}},
                    "avoid_same_club": True}
        made = http.post("/tournaments", json=settings, headers=auth)
        assert made.status_code == 201, made.text
        t = made.json()["tournament"]
        shown = http.get(f"/tournaments/{t}", headers=auth).json()
        assert (shown["pairing"], shown["allow_repeats"], shown["avoid_same_club"]) == (
            "score-groups", True, True)
        paired = http.post(f"/tournaments/{t}/commands", json={"type": "pair", "games": False},
                           headers=auth).json()
        assert not any({"A", "B"} <= set(row["players"]) for row in paired["tables"])
        bad = http.post("/tournaments", json={**settings, "allow_repeats": "yes"},
                        headers=auth)
        assert bad.status_code == 400 and "allow_repeats is true or false" in bad.text
    store_dir = str(tmp_path / "store")
    got = run(store_dir, "new", "Cup", "--game", "atkr", "--rounds", "1", "--player", "A",
              "--player", "B", "--player", "C", "--player", "D", "--table-size", "4-4",
              "--pairing", "classic", "--allow-repeats")
    assert got.exit_code == 2, got.output
    assert "allow-repeats is a setting of the score-groups swiss pairing" in got.output
    assert "Traceback" not in got.output


def test_a_stream_recorded_before_the_setting_is_classic_and_verifies(tmp_path):
    """tests/tournament/old_streams (recorded before the pairing setting): its first event has
    no pairing field, it reads as classic, and `devil verify` re-decides its pairings."""
    import json
    import os
    import zipfile

    from engine.log import scan
    from engine.store import FileStore

    old = os.path.join(os.path.dirname(__file__), "old_streams", "cup-before-attributes.zip")
    with zipfile.ZipFile(old) as archive:
        name = next(n for n in archive.namelist() if n.startswith("tournament-"))
        stream = archive.read(name)
    assert "pairing" not in scan(stream).records[0].event
    store = str(tmp_path / "store")
    FileStore(store).import_log(stream)
    t = name[:-len(".devlog")]
    assert json.loads(run(store, "show", t, "--json").output)["pairing"] == "classic"
    verified = CliRunner().invoke(cli, ["--store", store, "verify", t])
    assert verified.exit_code == 0 and "pairings recomputed" in verified.output
