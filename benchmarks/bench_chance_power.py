"""The chance audit's power, measured (issue 23.5; docs/chance-audit.md).

    python -m benchmarks.bench_chance_power [--trials 100] [--fair-trials 100] [--jobs 2]
                                            [--p-draw 0.75] [--bias 0.2] [--seed 1]
                                            [--out FILE] [--summarize FILE]

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
    """One physical game's events, decided by the engine's ``decide`` and folded by its fold;
    every seat plays the ``random`` bot's policy (engine.games.atkr.bots.RandomBot: a bet of a
    random multiple of 10 up to 100 or its money, then after each coal that was not a devil
    another draw with probability ``p_draw``), inlined so that no legal-command list is built;
    the coals come from the true furnace (the log's), reported by ``referee``, who turns a devil
    drawn by ``favoured`` into a non-devil left with probability ``bias`` (module doc).
    ``commands``: a list the game's commands are appended to (to record it as a log)."""
    from engine.fold import Fold
    from engine.games.atkr import RULES
    from engine.games.atkr.commands import Bet, Draw, Stop
    from engine.games.atkr.state import COAL_KINDS, KIND_INDEX, PHASE_BET

    rules = RULES
    events = rules.setup({"players": names, "first": first, "physical": True}, None)
    fold = Fold(rules).advance(events)
    devil = KIND_INDEX[0]
    kinds = range(len(COAL_KINDS))
    decide = rules.decide
    state = fold.state
    while state.phase != "over" and state.round <= max_rounds:
        if state.phase == PHASE_BET:
            seat = next(s for s in range(len(names)) if not state.bet_in[s])
            top = min(state.money[seat], 100)
            command = Bet(names[seat], rng.randrange(0, top + 1, 10))
        else:
            seat = state.turn
            if state.coals[seat] and rng.random() >= p_draw:
                command = Stop(names[seat])
            else:
                furnace = state.furnace
                index = rng.choices(kinds, weights=furnace)[0]
                if index == devil and names[seat] == favoured and rng.random() < bias:
                    others = [c if k != devil else 0 for k, c in enumerate(furnace)]
                    if sum(others):
                        index = rng.choices(kinds, weights=others)[0]
                command = Draw(names[seat], COAL_KINDS[index], referee)
        new = decide(state, command, None)
        if commands is not None:
            commands.append(command)
        fold.advance(new)
        events.extend(new)
        state = fold.state
    return events


def referee_games(seed: int, referee: str, games: int, bias: float, p_draw: float) -> list:
    """The :class:`engine.chance_audit.GameDraws` of ``games`` games at ``referee``'s table,
    played from ``seed`` (the cheat only for Rita, and only with ``bias`` > 0)."""
    from engine.games.atkr.chance import walk

    rng = random.Random(seed)
    names = REFEREES[referee]
    out = []
    for g in range(games):
        cheat = referee == CHEAT and bias > 0
        events = play_physical(rng, names, names[g % len(names)], referee,
                               FAVOURED if cheat else None, bias if cheat else 0.0, p_draw)
        out.append(walk(f"{referee}-{seed}-{g}", events, range(1, len(events) + 1)))
    return out


def _verdict(games_by_referee: dict, n: int) -> tuple[bool, bool, float | None]:
    """(the cheat flagged, any group failed, the z of Rita x Ann's devils) of the audit of the
    first ``n`` games of every referee."""
    from engine.chance_audit import audit

    result = audit([g for games in games_by_referee.values() for g in games[:n]], 0.01)
    names = {(g.family, g.group) for g in result.failed}
    flagged = bool(names & {("referee", CHEAT), ("referee x seat", f"{CHEAT} x {FAVOURED}")})
    z = next((g.z for g in result.groups if g.family == "referee x seat"
              and g.group == f"{CHEAT} x {FAVOURED}" and g.test == "devils"), None)
    return flagged, bool(names), z


def trial(args: tuple) -> dict:
    """Trial ``index`` (``(index, seed, bias, p_draw, sizes, biased)``): Sam's and Tom's 50
    games, Rita's fair 50 and, when ``biased``, Rita's 50 with the cheat; the fair archive
    (Rita fair, Sam, Tom) audited at 50 games, the biased one (Rita cheating, the same Sam and
    Tom) at every size.  The two archives share Sam's and Tom's games: each is a whole archive
    of its own, so each rate is measured without bias."""
    index, seed, bias, p_draw, sizes, biased = args
    base = seed * 1_000_000 + index * 10
    top = max(sizes)
    others = {r: referee_games(base + k, r, top, 0.0, p_draw)
              for k, r in enumerate(REFEREES) if r != CHEAT}
    fair = {CHEAT: referee_games(base + 5, CHEAT, top, 0.0, p_draw), **others}
    _, fair_failed, _ = _verdict(fair, top)
    out: dict = {"fair_failed": fair_failed, "games": 3 * top}
    if biased:
        cheat = {CHEAT: referee_games(base + 6, CHEAT, top, bias, p_draw), **others}
        verdicts = {n: _verdict(cheat, n) for n in sizes}
        out.update(flagged={n: v[0] for n, v in verdicts.items()},
                   failed={n: v[1] for n, v in verdicts.items()},
                   z={n: v[2] for n, v in verdicts.items()},
                   favoured_draws=sum(1 for g in cheat[CHEAT] for d in g.draws
                                      if d.seat == FAVOURED),
                   games=4 * top)
    return out


def measure(trials: int, fair_trials: int, jobs: int, bias: float, p_draw: float, seed: int,
            sizes=SIZES, out: str | None = None) -> dict:
    """Run the trials on ``jobs`` processes (the first ``trials`` give a biased and a fair
    archive each, the rest up to ``fair_trials`` a fair one); the rates (module doc).
    ``out``: a file each trial's result is appended to as a JSON line as it ends (a long run
    cut short keeps what it measured: ``--summarize FILE``)."""
    count = max(trials, fair_trials)
    work = [(i, seed, bias, p_draw, tuple(sizes), i < trials) for i in range(count)]
    start = time.perf_counter()
    got = []

    def keep(result: dict) -> None:
        got.append(result)
        if out is not None:
            with open(out, "a") as handle:
                handle.write(json.dumps(result) + "\n")
        print(f"trial {len(got)}/{count} done, {time.perf_counter() - start:.0f} s",
              file=sys.stderr, flush=True)

    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            for result in pool.map(trial, work):
                keep(result)
    else:
        for item in work:
            keep(trial(item))
    return rates(got, sizes, bias, p_draw, time.perf_counter() - start)


def rates(got: list, sizes=SIZES, bias: float = 0.2, p_draw: float = 0.75,
          seconds: float = 0.0) -> dict:
    """The figures of trial results (:func:`trial`'s maps, e.g. read back from ``--out``)."""
    sizes = tuple(int(n) for n in sizes)
    for t in got:  # JSON turned the sizes into strings
        for key in ("flagged", "failed", "z"):
            if key in t:
                t[key] = {int(n): v for n, v in t[key].items()}
    biased = [t for t in got if "flagged" in t]
    fair = got
    top = max(sizes)
    power = {n: sum(t["flagged"][n] for t in biased) / max(1, len(biased)) for n in sizes}
    fair_ok = sum(not t["fair_failed"] for t in fair) / max(1, len(fair))
    needed = next((n for n in sizes if power[n] >= 0.9), None)
    zs = [t["z"][top] for t in biased if t["z"][top] is not None]
    return {"trials": len(biased), "fair_trials": len(fair), "bias": bias, "p_draw": p_draw,
            "power": power, "fair_no_flag": fair_ok, "games_needed_for_90": needed,
            "mean_z_at_max": sum(zs) / len(zs) if zs else None,
            "favoured_draws_per_game": (sum(t["favoured_draws"] for t in biased)
                                        / max(1, len(biased) * top)),
            "other_flags_in_biased": sum(t["failed"][top] and not t["flagged"][top]
                                         for t in biased),
            "games_played": sum(t["games"] for t in got), "seconds": round(seconds, 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--fair-trials", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--bias", type=float, default=0.2)
    parser.add_argument("--p-draw", type=float, default=0.75)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", metavar="FILE", help="append each trial's result to FILE")
    parser.add_argument("--summarize", metavar="FILE",
                        help="print the figures of the trials in FILE (from --out) and stop")
    args = parser.parse_args(argv)
    if args.summarize:
        with open(args.summarize) as handle:
            got = rates([json.loads(line) for line in handle if line.strip()], SIZES,
                        args.bias, args.p_draw)
    else:
        got = measure(args.trials, args.fair_trials, args.jobs, args.bias, args.p_draw,
                      args.seed, out=args.out)
    for n, rate in got["power"].items():
        print(f"power at {n} games per referee: {rate:.0%} of {got['trials']} biased trials "
              f"flag {CHEAT} (x {FAVOURED})")
    print(f"fair archives with no group flagged: {got['fair_no_flag']:.1%} of "
          f"{got['fair_trials']} (target at least 99%); biased archives where another group "
          f"than {CHEAT}'s failed: {got['other_flags_in_biased']}")
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
