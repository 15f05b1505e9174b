"""Swiss pairing of multiplayer tables (TOUR-2): sizes, byes, and repeated opponents no more
than a simple greedy seating gives, over random events."""

import random

import pytest

from engine.tournament.pairing import bye_count, repeats, swiss, table_sizes
from tests.scale import examples


def test_tables_as_equal_as_possible_largest_first():
    assert table_sizes(22, 4, 5) == [5, 5, 4, 4, 4]  # the example
    assert table_sizes(20, 4, 5) == [5, 5, 5, 5]
    assert table_sizes(12, 6, 6) == [6, 6]
    assert table_sizes(7, 4, 5) is None and bye_count(7, 4, 5) == 2  # 5 seated, 2 byes
    assert bye_count(11, 4, 4) == 3 and bye_count(3, 4, 5) is None


def baseline(ranked, sizes, met):
    """The simple greedy baseline, written independently of the engine: fill the tables in
    order; each seat takes the best-ranked remaining player who has met nobody already at
    the table, else the one who met the fewest."""
    left = list(ranked)
    tables = []
    for size in sizes:
        table = []
        for _ in range(size):
            scores = [sum(1 for m in table if m in met.get(p, ())) for p in left]
            table.append(left.pop(scores.index(min(scores))))
        tables.append(table)
    return tables


def random_event(rng: random.Random, n: int, rounds: int, low: int, high: int):
    players = [f"P{i}" for i in range(n)]
    met: dict[str, set] = {}
    points = {p: 0 for p in players}
    byes_had: dict[str, int] = {}
    for round_ in range(rounds):
        ranked = sorted(players, key=lambda p: (-points[p], p))
        tables, byes = swiss(ranked, low, high, met, points, byes_had)
        seated = [p for t in tables for p in t]
        # every active player exactly once, a table or a bye
        assert sorted(seated + byes) == sorted(players)
        assert len(set(seated)) == len(seated)
        assert all(low <= len(t) <= high for t in tables)
        assert len(byes) == bye_count(n, low, high)
        sizes = [len(t) for t in tables]
        assert sizes == table_sizes(len(seated), low, high)
        rest = [p for p in ranked if p not in byes]
        assert repeats(tables, met) <= repeats(baseline(rest, sizes, met), met)
        for p in byes:
            byes_had[p] = byes_had.get(p, 0) + 1
        for t in tables:
            for p in t:
                met.setdefault(p, set()).update(q for q in t if q != p)
                points[p] += rng.choice([0, 1, 2, 4, 6])


def test_random_events_small():
    rng = random.Random(2024)
    for _ in range(examples(3)):
        random_event(rng, rng.randint(30, 60), 4, *rng.choice([(4, 5), (3, 4), (4, 4)]))


@pytest.mark.slow
def test_random_events_large():
    rng = random.Random(7)
    for _ in range(examples(20)):
        random_event(rng, rng.randint(30, 200), rng.randint(3, 8),
                     *rng.choice([(4, 5), (3, 4), (4, 4), (5, 6), (3, 6)]))


def test_swiss_keeps_leaders_together_and_gives_byes_to_the_bottom():
    players = [f"P{i}" for i in range(11)]
    points = {p: 11 - i for i, p in enumerate(players)}
    tables, byes = swiss(players, 4, 4, {}, points, {})
    assert tables == [players[0:4], players[4:8]]
    assert set(byes) == {"P8", "P9", "P10"}
    # a player who had a bye is passed over for the next one
    tables, byes = swiss(players, 4, 4, {}, points, {"P10": 1})
    assert set(byes) == {"P7", "P8", "P9"}


def test_seats_balanced_across_rounds():
    from engine.tournament.pairing import seat

    # A has started fewest games, so A starts; B sat last before and C first: B sits early now
    out = seat([["C", "B", "A"]], {"B": 1, "C": 1}, seed=1, round_=2,
               places={"A": [0.0], "B": [1.0], "C": [0.0]})
    assert out == [(["A", "B", "C"], "A")]


def test_round_two_of_a_small_swiss_by_hand():
    """8 players at tables of 4 after round 1 (tables ABCD and EFGH), points A 6, E 6, B 4,
    F 4, C 2, G 2, D 1, H 1.  The standings cut: A E B F at table 1, C G D H at table 2, with
    the repeats A-B, E-F, C-D, G-H.  A new table of 4 holds k players of ABCD and 4 - k of
    EFGH, so it repeats C(k, 2) + C(4 - k, 2) >= 2 pairs (k = 2): 4 in all is the least, no
    swap lowers it, and the cut stands, leaders at table 1."""
    met = {p: set("ABCD") - {p} for p in "ABCD"}
    met.update({p: set("EFGH") - {p} for p in "EFGH"})
    points = dict(A=6, E=6, B=4, F=4, C=2, G=2, D=1, H=1)
    ranked = list("AEBFCGDH")
    tables, byes = swiss(ranked, 4, 4, met, points, {})
    assert tables == [list("AEBF"), list("CGDH")] and byes == []
    assert repeats(tables, met) == 4
