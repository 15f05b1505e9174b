"""The time limit and amended-result commands of docs/tournaments.md ("Time limits and amended
results"), run for real: prints each command and what it printed, for pasting into the
walk-through.  Run from the repository (it waits for a 3-minute round time to run out):

    python docs/examples/tournament_amend_walkthrough.py

Every table is played with the box and recorded by its referee in the game `pair` created
(``bet``, ``draw --coal``, ``stop``), in the short pattern of tests/tournament/helpers.py:
quick_atkr.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tempfile
import time

ROOT = tempfile.mkdtemp(prefix="devil-amend-")
ENV = dict(os.environ, DEVIL_STORE=os.path.join(ROOT, "store"), COLUMNS="100")
SHOWN: list[str] = []
ROUND1 = ["100", "100"]
ROUND2 = ["75", "75", "75"] + ["50"] * 7 + ["25"]


def run(cmd: str, show: bool = True, code: int = 0) -> str:
    result = subprocess.run(shlex.split(cmd), cwd=ROOT, env=ENV, capture_output=True, text=True)
    out = result.stdout + result.stderr
    if result.returncode != code:
        raise SystemExit(f"{cmd} -> {result.returncode}\n{out}")
    if show:
        SHOWN.append(f"$ {cmd}\n{out}")
    return result.stdout


def play_round(game: str, players: list[str], bets: dict[str, int], coals: list[str] | None,
               show: int = 0) -> None:
    """Everyone bets; seat 0 draws ``coals`` and stops, the others draw a devil (None: only
    the bets and the first player's draw)."""
    for index, p in enumerate(players):
        run(f"devil bet {game} {bets[p]} --as {p}", index < show)
    view = json.loads(run(f"devil show {game} --json", False))
    start = players.index(view["turn"])
    for p in players[start:] + players[:start]:
        if coals is None:
            run(f"devil draw {game} --as {p} --coal devil", show > 0)
            return
        if p == players[0]:
            for c in coals:
                run(f"devil draw {game} --as {p} --coal {c}", False)
            run(f"devil stop {game} --as {p}", False)
        else:
            run(f"devil draw {game} --as {p} --coal devil", False)


def main() -> None:
    names = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fay", "Gus", "Hal"]
    with open(os.path.join(ROOT, "players.txt"), "w") as handle:
        handle.write("\n".join(names) + "\n")
    t = run("devil tournament new 'Autumn Cup' --game atkr --players-file players.txt "
            "--rounds 2 --table-size 4-4 --physical --round-time 3 --seed 7").strip()
    short = t.split("-")[1]
    paired = json.loads(run(f"devil tournament pair {short} --json", False))
    run(f"devil tournament show {short}")
    (one, two) = paired["tables"]
    g1, p1 = one["game"], one["players"]
    g2, p2 = two["game"], two["players"]
    wrong = {p1[0]: 600, p1[1]: 600, p1[2]: 200, p1[3]: 0}
    right = {p1[0]: 600, p1[1]: 600, p1[2]: 600, p1[3]: 0}
    play_round(g1, p1, {p: 200 for p in p1}, ROUND1)
    play_round(g1, p1, wrong, ROUND2)
    run(f"devil show {g1}")
    play_round(g2, p2, {p: 200 for p in p2}, ROUND1)
    SHOWN.append(f"(table 2's referee records its round 1; in round 2 the bets are in and "
                 f"{p2[1]} draws when the round time runs out)\n")
    play_round(g2, p2, {p2[0]: 300, p2[1]: 600, p2[2]: 100, p2[3]: 0}, None)
    run(f"devil tournament adjudicate {short} 2 --reason 'round time over'", code=1)
    ends = json.loads(run(f"devil tournament show {short} --json", False))["round_ends"]
    time.sleep(max(0.0, ends / 1000 - time.time()) + 1)
    SHOWN.append("(once the round time has run out)\n")
    run(f"devil tournament adjudicate {short} 2 --reason 'round time over, table 2 in its "
        "round 2'")
    run(f"devil verify {g2}")
    run(f"devil tournament show {short}")
    run(f"devil tournament close-round {short}")
    run(f"devil tournament pair {short}")
    second = json.loads(run(f"devil tournament show {short} --json", False))["paired"][-1]
    SHOWN.append(f"(table 1's referee finds that {p1[2]} bet 600 in the game's round 2, not "
                 "200: record 21 ends its round 1)\n")
    run(f"devil correct {g1} --to 21 --reason '{p1[2]} bet 600 in round 2, not 200'")
    run(f"devil tournament amend {short} 1 --round 1 --reason 'desk correction'", code=1)
    play_round(g1, p1, right, ROUND2)
    SHOWN.append("(the referee records the game's round 2 again)\n")
    run(f"devil tournament amend {short} 1 --round 1 --reason 'bet corrected at the desk'")
    for row in second["tables"]:
        ps = row["players"]
        play_round(row["game"], ps, {p: 200 for p in ps}, ROUND1)
        play_round(row["game"], ps, {ps[0]: 600, ps[1]: 600, ps[2]: 300, ps[3]: 0}, ROUND2)
    SHOWN.append("(round 2's referees record both games)\n")
    run(f"devil tournament show {short}")
    run(f"devil tournament close-round {short}")
    run(f"devil tournament standings {short}")
    run(f"devil tournament bundle {short} autumn-cup")
    key = run("devil key").strip()  # the organiser publishes it: the pin (TOUR-6.12)
    run(f"devil tournament verify autumn-cup.zip --key {key}")
    print("\n".join(SHOWN))


if __name__ == "__main__":
    main()
