"""The clocks at the command line (CLOCK-1, CLOCK-6, CLOCK-8): ``devil new --clock``, the clock
line of ``show``, ``--json``'s clocks, a bad time control (exit 2) and a flagged seat's command
(exit 1, nothing recorded)."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from client.cli import cli
from engine.clock import ClockExpired
from engine.store.file import FileStore


def run(store, *args):
    return CliRunner().invoke(cli, ["--store", str(store), *args])


def test_new_with_a_clock_show_and_a_flagged_seat(tmp_path):
    bad = run(tmp_path, "new", "atkr", "--player", "Anna", "--player", "Ben", "--clock", "20x")
    assert bad.exit_code == 2 and "CLOCK-1" in bad.output
    made = run(tmp_path, "new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
               "--seed", "3", "--clock", "20m+10s", "--move-time", "2m", "--on-timeout", "flag")
    assert made.exit_code == 0, made.output
    game = made.output.split()[0]
    shown = run(tmp_path, "show", game)
    assert shown.exit_code == 0, shown.output
    line = next(x for x in shown.output.splitlines() if x.startswith("CLOCKS"))
    assert re.fullmatch(r"CLOCKS \(20m\+10s, 2m a move, on timeout: flag\): >Anna 19:5\d\.\d "
                        r"\(move 1:5\d\.\d\)  >Ben 19:5\d\.\d \(move 1:5\d\.\d\)", line), line
    view = json.loads(run(tmp_path, "show", game, "--json").output)
    assert view["clocks"]["control"]["base"] == 1_200_000
    # Anna bets at once, so only Ben's clock runs on (CLOCK-2), and his move time runs out at
    # 2 min: the record the service makes then (CLOCK-6).  (Had Anna not bet, her move time
    # would run out a few ms later, as soon as the machine is slow to send Ben's bet.)
    assert run(tmp_path, "bet", game, "0", "--as", "Anna").exit_code == 0
    store = FileStore(str(tmp_path))
    flag = {"type": ClockExpired.TYPE, "seat": 1, "limit": "move", "action": "flag",
            "due": 120_000}
    head = store.head(game).seq
    store.append(game, head, -1, None, [flag], 120_000)
    refused = run(tmp_path, "bet", game, "0", "--as", "Ben")
    assert refused.exit_code == 1 and "CLOCK-6" in refused.output
    assert store.head(game).seq == head + 1  # nothing more recorded
    listed = run(tmp_path, "log", game).output
    assert "Ben's move time ran out at 2:00.0 into the game: flagged for the referee" in listed
    # his 20 min less the 2 min his move ran (from the clock_set record, a few ms in)
    shown = run(tmp_path, "show", game).output
    assert re.search(r" Ben 18:0\d\.\d flagged$", shown.splitlines()[-1]), shown
