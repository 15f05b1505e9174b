"""Pairing benchmark (issue 22.1): how good and how fast the score-groups swiss is.

    python -m benchmarks.bench_pairing [--events 56] [--seed 1] [--small 30] [--quick]

1. **Small events** (7 to 9 players, 4 rounds): every round's objective (TOUR-2.5: balance,
   repeats, leaders outside table 1, squared displacement) of score-groups, of its local search
   alone (no exact search) and of the classic pairing, against the optimum found by
   enumerating every seating.
2. **The issue's events** (9 to 39 players, 3 to 7 rounds, 8 table size ranges): each round's
   inputs (standings, who met whom, starts) come from the event played with score-groups
   (places drawn at random); on the same inputs the classic pairing and a long simulated
   annealing (the search baseline: 30,000 random swaps a round, the best kept) are measured.
   Reported: repeated pairs, the sum of squared displacement, and the share of rounds in which
   the leading points group fits at table 1 but is split.
3. **Time**: a 200- and a 1,000-player event of 7 rounds at tables of 4 to 5 through the
   tournament's own rules (engine.tournament.rules.pairing on the folded stream, results
   recorded as events): the slowest round's pairing and the standings (a full ranking).

Ends with one JSON line of the figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import time

from engine.tournament import events as ev
from engine.tournament.pairing import seat, swiss as classic, table_sizes
from engine.tournament.rules import evolve, initial, pairing, setup
from engine.tournament.standings import compute
from engine.tournament.swiss import Problem, _Search, swiss

SIZES = [(4, 5), (3, 4), (4, 4), (3, 5), (5, 6), (3, 3), (5, 5), (4, 6)]
PLACE_POINTS = [6, 4, 2, 1, 0]


def terms_of(problem: Problem, names: list[str], tables: list[list[str]]) -> dict:
    index = {p: i for i, p in enumerate(names)}
    return problem.terms([[index[p] for p in t] for t in tables])


def split(terms: dict, problem: Problem) -> bool | None:
    """Whether the leading group fits at table 1 (else None) and is split."""
    if not any(problem.leader):
        return None
    return terms["leaders"] > 0


def brute(problem: Problem) -> dict:
    """The optimum by enumeration of every seating."""
    labels = [k for k, size in enumerate(problem.sizes) for _ in range(size)]
    best, best_terms = None, None
    for assignment in set(itertools.permutations(labels)):
        tables = [[i for i in range(problem.n) if assignment[i] == k]
                  for k in range(len(problem.sizes))]
        cost = problem.cost(tables)
        if best is None or cost < best:
            best, best_terms = cost, problem.terms(tables)
    assert best_terms is not None
    return best_terms


def annealing(problem: Problem, steps: int, seed: int) -> dict:
    """The search baseline: simulated annealing over swaps from the cut, the best kept."""
    rng = random.Random(seed)
    cut, at = [], 0
    for size in problem.sizes:
        cut.append(list(range(at, at + size)))
        at += size
    search = _Search(problem, cut)
    best_cost, best = search.cost, [list(t) for t in cut]
    if len(cut) < 2:
        return problem.terms(best)
    scale = 2.0 * problem.n  # in displacement units: a repeat is never taken uphill
    for step in range(steps):
        temperature = scale * (1 - step / steps) ** 3 + 0.5
        a, b = rng.randrange(problem.n), rng.randrange(problem.n)
        if search.where[a] == search.where[b]:
            continue
        change = search.delta(a, b)
        if change <= 0 or rng.random() < math.exp(-change / temperature):
            search.swap(a, b, change)
            if search.cost < best_cost:
                best_cost, best = search.cost, [list(t) for t in search.tables]
    return problem.terms(best)


def play(rng, tables, points, met):
    for t in tables:
        order = list(t)
        rng.shuffle(order)
        for place, p in enumerate(order):
            points[p] += PLACE_POINTS[min(place, 4)]
            met.setdefault(p, set()).update(q for q in t if q != p)


def event_rounds(rng: random.Random, n: int, rounds: int, low: int, high: int):
    """Yield each round's inputs of an event played with score-groups."""
    players = [f"P{i}" for i in range(n)]
    points = {p: 0 for p in players}
    met: dict = {}
    firsts: dict = {}
    byes_had: dict = {}
    for round_ in range(1, rounds + 1):
        ranked = sorted(players, key=lambda p: (-points[p], p))
        yield round_, ranked, dict(points), met, firsts, byes_had
        tables, byes, _ = swiss(ranked, low, high, met, points, byes_had, firsts, round_)
        for _, first in seat(tables, firsts, 1, round_):
            firsts[first] = firsts.get(first, 0) + 1
        for b in byes:
            byes_had[b] = byes_had.get(b, 0) + 1
            points[b] += 2
        play(rng, tables, points, met)


def add(total: dict, terms: dict, problem: Problem) -> None:
    total["repeats"] += terms["repeats"]
    total["displacement"] += terms["displacement"]
    fits = split(terms, problem)
    if fits is not None:
        total["fits"] += 1
        total["split"] += int(fits)


def measure(args) -> dict:
    rng = random.Random(args.seed)
    out: dict = {}
    # 1. small events against brute force
    names = ("score-groups", "local search only", "classic")
    small = {k: {"rounds": 0, "optimal": 0, "repeats": 0, "displacement": 0} for k in names}
    optimum = {"repeats": 0, "displacement": 0}
    for event in range(args.small):
        n, low, high = rng.choice([(8, 4, 4), (9, 4, 5), (7, 3, 4), (8, 3, 5), (9, 3, 3)])
        for round_, ranked, points, met, firsts, byes_had in event_rounds(rng, n, 4, low, high):
            seated = [p for p in ranked]
            sizes = table_sizes(n, low, high)
            if sizes is None:
                continue
            problem = Problem(seated, points, sizes, met, firsts)
            best = brute(problem)
            key = lambda t: (t["balance"], t["repeats"], t["leaders"], t["displacement"])  # noqa: E731
            optimum["repeats"] += best["repeats"]
            optimum["displacement"] += best["displacement"]
            for name in names:
                if name == "classic":
                    tables, _ = classic(ranked, low, high, met, points, byes_had)
                else:
                    tables, _, _ = swiss(ranked, low, high, met, points, byes_had, firsts,
                                         event * 10 + round_, exact=name == "score-groups")
                got = terms_of(problem, seated, tables)
                row = small[name]
                row["rounds"] += 1
                row["optimal"] += int(key(got) == key(best))
                row["repeats"] += got["repeats"]
                row["displacement"] += got["displacement"]
    out["small"] = {"optimum": optimum, **small}
    # 2. the events against a long annealing
    large = {k: {"rounds": 0, "repeats": 0, "displacement": 0, "fits": 0, "split": 0}
             for k in ("score-groups", "annealing", "classic")}
    seconds = {"score-groups": 0.0, "annealing": 0.0, "classic": 0.0}
    for event in range(args.events):
        low, high = SIZES[event % len(SIZES)]
        n = rng.randint(9, 39)
        while table_sizes(n, low, high) is None and n < 40:
            n += 1
        rounds = rng.randint(3, 7)
        for round_, ranked, points, met, firsts, byes_had in event_rounds(rng, n, rounds, low,
                                                                          high):
            t0 = time.perf_counter()
            tables, byes, _ = swiss(ranked, low, high, met, points, byes_had, firsts, round_)
            seconds["score-groups"] += time.perf_counter() - t0
            seated = [p for p in ranked if p not in set(byes)]
            sizes = [len(t) for t in tables]
            problem = Problem(seated, points, sizes, met, firsts)
            add(large["score-groups"], terms_of(problem, seated, tables), problem)
            t0 = time.perf_counter()
            old, _ = classic(ranked, low, high, met, points, byes_had)
            seconds["classic"] += time.perf_counter() - t0
            add(large["classic"], terms_of(problem, seated, old), problem)
            t0 = time.perf_counter()
            add(large["annealing"], annealing(problem, args.steps, event * 100 + round_),
                problem)
            seconds["annealing"] += time.perf_counter() - t0
            for row in large.values():
                row["rounds"] += 1
    for name, row in large.items():
        row["split_share"] = round(row["split"] / row["fits"], 3) if row["fits"] else None
        row["seconds"] = round(seconds[name], 2)
    out["issue_events"] = {"events": args.events, **large}
    # 3. time through the rules, 200 and 1,000 players
    out["time"] = {str(n): timed(n, 7, args.seed) for n in (200, 1000)}
    return out


def timed(n: int, rounds: int, seed: int) -> dict:
    """Pair ``rounds`` rounds of ``n`` players with the rules (results as events)."""
    rng = random.Random(seed)
    names = [f"Bot{i:04d}" for i in range(n)]
    state = initial()
    for event in setup({"name": "bench", "game": "atkr", "rounds": rounds,
                        "table_size": [4, 5], "players": names, "seed": seed}):
        evolve(state, event)
    worst = 0.0
    standings = 0.0
    for round_ in range(1, rounds + 1):
        t0 = time.perf_counter()
        seated, byes, count = pairing(state, round_)
        worst = max(worst, time.perf_counter() - t0)
        evolve(state, ev.RoundPaired(round=round_, tables=[
            ev.PairedTable(players=p, first=f) for p, f in seated], byes=byes, repeats=count))
        for number, (players, _first) in enumerate(seated, 1):
            places = list(range(1, len(players) + 1))
            rng.shuffle(places)
            points = [str(PLACE_POINTS[p - 1] if p <= 5 else 0) for p in places]
            evolve(state, ev.ResultRecorded(
                round=round_, table=number, game=f"g{round_}-{number}", seq=1, link="0" * 16,
                places=places, values=[100 * (6 - p) for p in places], winners=[
                    players[places.index(1)]], points=points, measure="money", share=True,
                scored=False))
        evolve(state, ev.RoundClosed(round=round_))
        t0 = time.perf_counter()
        compute(state)
        standings = max(standings, time.perf_counter() - t0)
    return {"pair_seconds_max": round(worst, 3), "standings_seconds_max": round(standings, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=56)
    parser.add_argument("--small", type=int, default=30)
    parser.add_argument("--steps", type=int, default=30000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="8 events, 5 small, 3,000 steps")
    args = parser.parse_args()
    if args.quick:
        args.events, args.small, args.steps = 8, 5, 3000
    started = time.perf_counter()
    out = measure(args)
    small = out["small"]
    print(f"small events ({small['score-groups']['rounds']} rounds): optimum "
          f"{small['optimum']['repeats']} repeats, {small['optimum']['displacement']} "
          "displacement")
    for name in ("score-groups", "local search only", "classic"):
        row = small[name]
        print(f"  {name:18} optimal in {row['optimal']}/{row['rounds']} rounds; "
              f"{row['repeats']} repeats, {row['displacement']} displacement")
    large = out["issue_events"]
    print(f"the issue's events ({args.events}, {large['score-groups']['rounds']} rounds):")
    for name in ("score-groups", "annealing", "classic"):
        row = large[name]
        print(f"  {name:12} {row['repeats']:5} repeats, displacement {row['displacement']:7}, "
              f"leading group split in {row['split']}/{row['fits']} rounds where it fits; "
              f"{row['seconds']} s")
    for n, row in out["time"].items():
        print(f"{n} players, 7 rounds: pairing at most {row['pair_seconds_max']} s a round, "
              f"standings {row['standings_seconds_max']} s")
    out["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
