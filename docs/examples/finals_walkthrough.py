"""The finals and duplicate commands of docs/tournaments.md, run for real: prints each command
and what it printed, for pasting into the walk-through.  Run from the repository:

    python docs/examples/finals_walkthrough.py

Part 1, finals (TOUR-10): eight players, one Swiss round of Auf Teufel komm raus at tables of
4 recorded by referees (physical games, the pattern of tests/tournament/helpers.py:
quick_atkr), then a final table of 4.  Part 2, a duplicate round (TOUR-11): eight players at
two digital tables with seat entropy, played by a scripted policy, drawing from one committed
furnace order mixed with every seat's value of both tables (TOUR-11.6).
"""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tournament_walkthrough as walk  # noqa: E402  (run, record, SHOWN, ROOT)

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def finals() -> None:
    run = walk.run
    names = " ".join(f"--player {p}" for p in PLAYERS)
    t = run(f"devil tournament new 'Final Cup' --game atkr {names} --rounds 1 --table-size 4-4 "
            "--format fixed --physical --seed 7 --final-table 4").strip()
    short = t.split("-")[1]
    tables = [["Ann", "Ben", "Cat", "Dan"], ["Fay", "Eve", "Gus", "Hal"]]
    with open(os.path.join(walk.ROOT, "seating.json"), "w") as out:
        json.dump({"tables": tables}, out)
    run(f"devil tournament pair {short} --seating seating.json --no-games")
    bets = [{"Ann": 600, "Ben": 600, "Cat": 200, "Dan": 0},
            {"Fay": 300, "Eve": 600, "Gus": 100, "Hal": 0}]
    for table, bet in zip(tables, bets):
        game = walk.record(table, bet, False)
        run(f"devil tournament attach {short} {game}")
    run(f"devil tournament close-round {short}")
    run(f"devil tournament standings {short}")
    run(f"devil tournament pair {short} --seating seating.json --no-games", code=2)
    run(f"devil tournament pair {short} --no-games")
    game = walk.record(["Ann", "Eve", "Ben", "Fay"], {"Ann": 0, "Eve": 600, "Ben": 300,
                                                      "Fay": 0}, False)
    run(f"devil tournament attach {short} {game}")
    run(f"devil tournament close-round {short}")
    run(f"devil tournament standings {short}")
    run(f"devil tournament pair {short} --no-games", code=1)
    run(f"devil verify {t}")


def duplicate() -> None:
    run = walk.run
    names = " ".join(f"--player {p}" for p in PLAYERS)
    run(f"devil tournament new 'Box Cup' --game castle {names} --rounds 1 --table-size 4-4 "
        "--duplicate", code=2)
    t = run(f"devil tournament new 'Duplicate Cup' --game atkr {names} --rounds 1 "
            "--table-size 4-4 --seed 7 --duplicate").strip()
    short = t.split("-")[1]
    run(f"devil tournament pair {short} --seat-entropy")
    shown = json.loads(run(f"devil tournament show {short} --json", False))
    paired = shown["paired"][0]
    from engine.store.file import FileStore
    from engine.service import GameService

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
    from tests.tournament.test_duplicate import play

    service = GameService(FileStore(os.path.join(walk.ROOT, "store")))
    for row, stop in zip(paired["tables"], (30, 60)):
        play(service, row["game"], stop)  # AssertionError: did not end (tried again below)
    walk.SHOWN.append("(both tables played by a scripted policy: stop at 30 in coals at one, "
                      "at 60 at the other)\n")
    run(f"devil verify {paired['tables'][0]['game']}")
    run(f"devil tournament close-round {short}")
    run(f"devil tournament standings {short}")
    run(f"devil tournament bundle {short} dup-bundle")
    key = run("devil key").strip()  # the organiser publishes it: the pin (TOUR-6.12)
    run(f"devil tournament verify dup-bundle --key {key}")


if __name__ == "__main__":
    finals()
    for _attempt in range(6):  # the seats' values are random: a policy's game may not end
        kept = len(walk.SHOWN)
        try:
            duplicate()
            break
        except AssertionError:
            del walk.SHOWN[kept:]
    else:
        raise SystemExit("no duplicate round ended in 6 attempts: run again")
    print("\n".join(walk.SHOWN))
