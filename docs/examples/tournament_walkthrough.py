"""The commands of docs/tournaments.md, run for real: prints each command and what it
printed, for pasting into the walk-through.  Run from the repository:

    python docs/examples/tournament_walkthrough.py

Every table is played with the box and recorded by its referee as a physical game
(``devil new KIND --physical``, then ``bet``, ``draw --coal``, ``stop``), in the short pattern
of tests/tournament/helpers.py: quick_atkr.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tempfile

ROOT = tempfile.mkdtemp(prefix="devil-walkthrough-")
ENV = dict(os.environ, DEVIL_STORE=os.path.join(ROOT, "store"), COLUMNS="100")
SHOWN: list[str] = []


def run(cmd: str, show: bool = True, code: int = 0) -> str:
    result = subprocess.run(shlex.split(cmd), cwd=ROOT, env=ENV, capture_output=True, text=True)
    out = result.stdout + result.stderr
    if result.returncode != code:
        raise SystemExit(f"{cmd} -> {result.returncode}\n{out}")
    if show:
        SHOWN.append(f"$ {cmd}\n{out}")
    return result.stdout


def record(players: list[str], bets2: dict[str, int], show: bool) -> str:
    """A referee records a physical game: see tests/tournament/helpers.py quick_atkr."""
    args = " ".join(f"--player {p}" for p in players)
    game = run(f"devil new atkr --physical {args} --first {players[0]}", show).strip()
    short = game.split("-")[1]
    lines = 0
    for bets, coals in (({p: 200 for p in players}, ["100", "100"]),
                        (bets2, ["75", "75", "75"] + ["50"] * 7 + ["25"])):
        for p in players:
            run(f"devil bet {short} {bets[p]} --as {p}", show and lines < 2)
            lines += 1
        view = json.loads(run(f"devil show {short} --json", False))
        start = players.index(view["turn"]) if isinstance(view.get("turn"), str) else None
        order = players[start:] + players[:start] if start is not None else players
        for p in order:
            if p == players[0]:
                for c in coals:
                    run(f"devil draw {short} --as {p} --coal {c}", False)
                run(f"devil stop {short} --as {p}", False)
            else:
                run(f"devil draw {short} --as {p} --coal devil", False)
    if show:
        SHOWN.append("(... the rest of the game, one command per bet, coal and stop ...)\n")
        run(f"devil show {short}", True)
    return game


def main() -> None:
    with open(os.path.join(ROOT, "players.txt"), "w") as handle:
        handle.write("# Spring Cup, registered players\nAnna\nBen\nCleo\nDora\nEmil\nFay\nGus\n"
                     "Hal\nIda\n")
    t = run("devil tournament new 'Spring Cup' --game atkr --players-file players.txt "
            "--rounds 2 --table-size 4-5 --physical --seed 2026").strip().splitlines()[0]
    short = t.split("-")[1]
    run(f"devil tournament pair {short} --no-games")
    first = True
    for round_ in (1, 2):
        view = json.loads(run(f"devil tournament show {short} --json", False))
        tables = view["paired"][-1]["tables"]
        for table in tables:
            names = table["players"]
            bets = {p: [600, 300, 0, 600, 0][i % 5] for i, p in enumerate(names)}
            game = record(names, bets, first)
            path = f"table{round_}-{table['table']}.devlog"
            run(f"devil export {game} -o {path}", first)
            run(f"devil tournament attach {short} {path}", True)
            first = False
        if round_ == 1:
            run(f"devil tournament close-round {short}")
            run(f"devil tournament drop {short} Ida --reason 'left after round 1'")
            run(f"devil tournament add {short} Jo")
            run(f"devil tournament penalty {short} Ben -1 --reason 'late for round 2'")
            run(f"devil tournament pair {short} --no-games")
            run(f"devil tournament close-round {short}", code=1)
            run(f"devil tournament pair {short} --no-games", code=1)
    run(f"devil tournament show {short}")
    run(f"devil tournament close-round {short}")
    run(f"devil tournament standings {short} --html standings.html --csv standings.csv")
    run(f"devil tournament bundle {short} spring-cup")
    key = run("devil key").strip()  # the organiser publishes it: the pin (TOUR-6.12)
    run(f"devil tournament verify spring-cup.zip --key {key}")
    victim = sorted(os.listdir(os.path.join(ROOT, "spring-cup", "games")))[0]
    path = os.path.join(ROOT, "spring-cup", "games", victim)
    data = bytearray(open(path, "rb").read())
    data[300] ^= 0x01
    open(path, "wb").write(bytes(data))
    SHOWN.append(f"(one byte of spring-cup/games/{victim} changed)\n")
    run(f"devil tournament verify spring-cup --key {key}", code=3)
    run(f"devil verify {t}")
    print("\n".join(SHOWN))


if __name__ == "__main__":
    main()
