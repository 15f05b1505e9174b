"""`devil play` shares its store: a command given from another terminal (another `devil bet`
on the same game) while the game is played at one keyboard is read before the next prompt,
and a command refused because the game moved on meanwhile shows the new table and goes on.

Driven through a real pseudo-terminal (tests.tools.test_one_terminal), the other terminal the
test process itself running `devil` commands on the same store (another process than the one
at the keyboard).
"""

from __future__ import annotations

import re

from click.testing import CliRunner

from client.cli import cli
from engine.replay import verify_path
from engine.service import GameService
from engine.store import FileStore

from .test_one_terminal import BET, DRAW, PASS_ON, drive, spawn


def other_terminal(store, *args):
    """`devil ARGS` on ``store`` from this test process (Click's runner): another process than
    the `devil play` on the pseudo-terminal, as another terminal is; its exit code and output."""
    return CliRunner().invoke(cli, [*map(str, args)], env={
        "DEVIL_STORE": str(store), "DEVIL_SERVER": None, "DEVIL_TOKEN": None})


def start(store):
    child = spawn(store, "play", "atkr", "--player", "Anna", "--player", "Ben", "--seed", 3,
                  "--first", "Anna", "--max-rounds", 1)
    child.expect(r"Game (atkr-[a-z0-9]+)")
    game = child.match.group(1)
    child.expect(PASS_ON)
    assert child.match.group(1) == "Anna"
    child.sendline("")
    child.expect(BET)
    return child, game


def bets(store, game) -> dict[str, int]:
    """The bets of round 1 in the log, as the referee holds them."""
    loaded = GameService(FileStore(str(store))).load(game)
    names = loaded.rules.seats(loaded.state)
    out, rounds = {}, 0
    for event in loaded.events:
        rounds += event.TYPE == "round_started"
        if event.TYPE == "bet_placed" and rounds == 1:
            out[names[event.seat]] = event.amount
    return out


def test_a_bet_from_another_terminal_is_read_and_a_refused_one_shows_the_new_table(tmp_path):
    child, game = start(tmp_path)
    # while Anna is asked, her bet of 60 is given from another terminal ...
    done = other_terminal(tmp_path, "bet", game, "60", "--as", "Anna")
    assert done.exit_code == 0, done.output
    # ... so the 40 she types is refused: a bet is final (ATKR-3.2); the new table is shown
    # (her 60 on the table, 200 - 60 = 140 left) and the terminal goes on to Ben
    child.sendline("40")
    child.expect(PASS_ON)
    shown = child.before.replace("\r\n", "\n")
    assert child.match.group(1) == "Ben", shown
    assert "Anna bets 60" in shown and "moved on" in shown and "ATKR-3.2" in shown
    assert re.search(r"\*\s+Anna\s+140\s+60\b", shown), shown
    assert "You have 200" not in shown.split("moved on", 1)[1]
    child.sendline("")
    child.expect(BET)
    assert child.match.group(1) == "Ben"
    child.sendline("20")
    text, _ = drive(child, {"bet": "20"})
    assert child.exitstatus == 0, text[-2000:]
    assert bets(tmp_path, game) == {"Anna": 60, "Ben": 20}
    assert verify_path(str(tmp_path / f"{game}.devlog")).ok


def test_a_stop_from_another_terminal_hands_the_turn_on(tmp_path):
    child, game = start(tmp_path)
    child.sendline("70")
    child.expect(PASS_ON)
    child.sendline("")
    child.expect(BET)
    child.sendline("30")
    # every bet is in (ATKR-3.2): phase 2, Anna draws first (the start player, ATKR-4.1)
    child.expect(PASS_ON)
    assert child.match.group(1) == "Anna"
    child.sendline("")
    child.expect(DRAW)
    assert child.match.group(1) == "Anna"
    # from another terminal she draws her first coal (compulsory, ATKR-4.2; seed 3's first
    # coal is a 10, not a devil) and stops (ATKR-4.3): the turn is Ben's (ATKR-4.1)
    for command in ("draw", "stop"):
        done = other_terminal(tmp_path, command, game, "--as", "Anna")
        assert done.exit_code == 0, done.output
    # the "d" typed here is refused (the turn is Ben's now): shown, and play goes on to Ben
    child.sendline("d")
    child.expect(PASS_ON)
    shown = child.before.replace("\r\n", "\n")
    assert child.match.group(1) == "Ben", shown
    assert "Anna stops" in shown and "moved on" in shown
    child.sendline("")
    text, asked = drive(child, {"bet": "10"})
    assert child.exitstatus == 0, text[-2000:]
    assert "nobody can act" not in text and asked[0] == ("Ben", "draw")
    assert bets(tmp_path, game) == {"Anna": 70, "Ben": 30}
    assert verify_path(str(tmp_path / f"{game}.devlog")).ok
