"""The chance audit's power, measured (issue 23.5; docs/chance-audit.md).

    python -m benchmarks.bench_chance_power [--trials 100] [--fair-trials 200] [--jobs 2]
                                            [--p-draw 0.75] [--bias 0.2] [--seed 1]

**The archive.**  Three referees, each refereeing its own table of four players (a club's
weekly tables: referee Rita with Ann, Bob, Cat, Dan; Sam with Eve, Fin, Gil, Hal; Tom with
Ivy, Jon, Kai, Lea), 50 physical Auf Teufel komm raus games each (the start player turns from
game to game), the bots playing every choice: ``random`` bots (engine.games.atkr.bots) that
bet a random multiple of 10 up to 100 and draw again with probability ``--p-draw`` (0.75)
after each coal that was not a devil.  The games are played in this process on the engine's
own ``decide`` and fold (no CLI, no store); a "true furnace", the furnace as the log has it,
gives each real draw at random (coals left in proportion to their counts).

**The cheat.**  In a biased archive, Rita favours Ann: when the true draw for Ann is a devil,
with probability ``--bias`` (0.2) she reports instead a coal drawn from what is left among the
non-devils, and the log records that report (``reporter="Rita"``): the devil stays in the
furnace, as if she had slipped it back and pulled out the coal she named, so the furnace in the
log follows the reports.  Ann is told of a devil 20% less often than the furnace would give.

**What is measured.**  Each trial plays a new archive; the audit (engine.chance_audit, the
engine.games.atkr.chance walk of every game's events) runs on the first N games of every
referee, N = 10, 20, 30, 40, 50.  *Power at N*: the share of biased trials in which Rita is
flagged (a failing group naming her: ``referee`` Rita or ``referee x seat`` Rita x Ann) at
alpha 0.01 after the correction.  *Fair*: the share of fair archives (no cheat, 50 games per
referee) in which no group at all fails at 0.01.  Targets (issue 23): power at least 90% within
50 games, fair at least 99%.  Prints both rates, the smallest N reaching 90%, and one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

REFEREES = {"Rita": ["Ann", "Bob", "Cat", "Dan"], "Sam": ["Eve", "Fin", "Gil", "Hal"],
            "Tom": ["Ivy", "Jon", "Kai", "Lea"]}
CHEAT, FAVOURED = "Rita", "Ann"
SIZES = (10, 20, 30, 40, 50)


def play_physical(rng: random.Random, names: list[str], first: str, referee: str,
                  favoured: str | None = None, bias: float = 0.0, p_draw: float = 0.75,
                  max_rounds: int = 300, commands: list | None = None) -> list:
    """One physical game's events, played by random bots on the engine's decide and fold; the
    coals come from the true furnace (the log's), reported by ``referee``, who turns a devil
    drawn by ``favoured`` into a non-devil left with probability ``bias`` (module doc).
    ``commands``: a list the game's commands are appended to (to record it as a log)."""
    from engine.fold import Fold
    from engine.game import rules_for
    from engine.games.atkr.bots import RandomBot
    from engine.games.atkr.commands import Draw
    from engine.games.atkr.state import COAL_KINDS, KIND_INDEX, PHASE_BET

    rules = rules_for("atkr")
    events = rules.setup({"players": names, "first": first, "physical": True}, None)
    fold = Fold(rules).advance(events)
    bots = [RandomBot(rng, p_draw=p_draw) for _ in names]
    devil = KIND_INDEX[0]
    choices, decide = rules.legal_choices, rules.decide
    state = fold.state
    while not rules.is_over(state) and state.round <= max_rounds:
        if state.phase == PHASE_BET:
            seat = next(s for s in range(len(names)) if not state.bet_in[s])
        else:
            seat = state.turn
        command = bots[seat].choose(None, seat, choices(state, seat))
        if type(command) is Draw:
            furnace = state.furnace
            index = rng.choices(range(len(furnace)), weights=furnace)[0]
            if index == devil and names[seat] == favoured and rng.random() < bias:
                others = [c if k != devil else 0 for k, c in enumerate(furnace)]
                if sum(others):
                    index = rng.choices(range(len(furnace)), weights=others)[0]
            command = Draw(names[seat], COAL_KINDS[index], referee)
        new = decide(state, command, None)
        if commands is not None:
            commands.append(command)
        fold.advance(new)
        events.extend(new)
        state = fold.state
    return events


def archive_draws(seed: int, games: int, bias: float, p_draw: float) -> dict:
    """``{referee: [GameDraws per game]}``: one archive (module doc) played from ``seed``."""
    from engine.games.atkr.chance import walk

    rng = random.Random(seed)
    out: dict = {}
    for referee, names in REFEREES.items():
        played = []
        for g in range(games):
            events = play_physical(rng, names, names[g % len(names)], referee,
                                   FAVOURED if referee == CHEAT else None,
                                   bias if referee == CHEAT else 0.0, p_draw)
            played.append(walk(f"{referee}-{seed}-{g}", events, range(1, len(events) + 1)))
        out[referee] = played
    return out


def trial(args: tuple) -> dict:
    """One trial: ``(seed, bias, p_draw, sizes)`` -> which sizes flag the cheat, whether any
    group failed at each size, and the draws of the favoured seat."""
    from engine.chance_audit import audit

    seed, bias, p_draw, sizes = args
    draws = archive_draws(seed, max(sizes), bias, p_draw)
    flagged, any_failed, zs = {}, {}, {}
    for n in sizes:
        result = audit([g for games in draws.values() for g in games[:n]], 0.01)
        names = {(g.family, g.group) for g in result.failed}
        flagged[n] = bool(names & {("referee", CHEAT), ("referee x seat",
                                                        f"{CHEAT} x {FAVOURED}")})
        any_failed[n] = bool(names)
        zs[n] = next((g.z for g in result.groups if g.family == "referee x seat"
                      and g.group == f"{CHEAT} x {FAVOURED}" and g.test == "devils"), None)
    favoured = sum(1 for g in draws[CHEAT] for d in g.draws if d.seat == FAVOURED)
    return {"flagged": flagged, "failed": any_failed, "z": zs, "favoured_draws": favoured,
            "games": sum(len(v) for v in draws.values())}


def measure(trials: int, fair_trials: int, jobs: int, bias: float, p_draw: float, seed: int,
            sizes=SIZES) -> dict:
    """Run the biased and the fair trials on ``jobs`` processes; the rates (module doc)."""
    biased = [(seed * 100_000 + i, bias, p_draw, tuple(sizes)) for i in range(trials)]
    fair = [(seed * 100_000 + 50_000 + i, 0.0, p_draw, (max(sizes),)) for i in range(fair_trials)]
    start = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            got_biased = list(pool.map(trial, biased))
            got_fair = list(pool.map(trial, fair))
    else:
        got_biased = [trial(a) for a in biased]
        got_fair = [trial(a) for a in fair]
    seconds = time.perf_counter() - start
    power = {n: sum(t["flagged"][n] for t in got_biased) / max(1, trials) for n in sizes}
    fair_ok = sum(not t["failed"][max(sizes)] for t in got_fair) / max(1, fair_trials)
    needed = next((n for n in sizes if power[n] >= 0.9), None)
    zs = [t["z"][max(sizes)] for t in got_biased if t["z"][max(sizes)] is not None]
    games = sum(t["games"] for t in got_biased + got_fair)
    return {"trials": trials, "fair_trials": fair_trials, "bias": bias, "p_draw": p_draw,
            "power": power, "fair_no_flag": fair_ok, "games_needed_for_90": needed,
            "mean_z_at_max": sum(zs) / len(zs) if zs else None,
            "favoured_draws_per_game": (sum(t["favoured_draws"] for t in got_biased)
                                        / max(1, trials * max(sizes))),
            "other_flags_in_biased": sum(t["failed"][max(sizes)] and not t["flagged"][max(sizes)]
                                         for t in got_biased),
            "games_played": games, "seconds": round(seconds, 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--fair-trials", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--bias", type=float, default=0.2)
    parser.add_argument("--p-draw", type=float, default=0.75)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    got = measure(args.trials, args.fair_trials, args.jobs, args.bias, args.p_draw, args.seed)
    for n, rate in got["power"].items():
        print(f"power at {n} games per referee: {rate:.0%} of {got['trials']} biased trials "
              f"flag {CHEAT} (x {FAVOURED})")
    print(f"fair archives with no group flagged: {got['fair_no_flag']:.1%} of "
          f"{got['fair_trials']} (target at least 99%)")
    needed = got["games_needed_for_90"]
    print(f"games needed for 90% power: {needed if needed else 'more than 50'} "
          f"(mean z of {CHEAT} x {FAVOURED} at 50: {got['mean_z_at_max']:.2f}; "
          f"{got['favoured_draws_per_game']:.1f} draws of {FAVOURED} a game)")
    print(f"{got['games_played']} games in {got['seconds']} s")
    print(json.dumps(got))
    ok = (needed is not None and got["fair_no_flag"] >= 0.99)
    return 0 if ok else 3


if __name__ == "__main__":
    sys.exit(main())
