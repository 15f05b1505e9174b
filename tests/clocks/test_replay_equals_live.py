"""``replay`` of a game with clocks shows, at every event, the remaining times the live game
showed then (CLOCK-8), and ``verify`` re-derives them (CLOCK-3 to CLOCK-7).

Games are played by random seats through the service, whose clock the test moves on by random
steps (from nothing to longer than the move time), with timeouts recorded as the service
records them: before a command, and by the server's tick (CLOCK-9) at random moments.  After
every step that recorded something, the live service's clocks are kept; the log is then
replayed from its bytes alone and its clocks at that record must be the same.
"""

from __future__ import annotations

import random

import pytest

from engine.clock import control
from engine.errors import IllegalCommand
from engine.replay import load_bytes, verify_bytes
from engine.replay.clocks import timeline
from engine.service import GameService
from engine.store.memory import MemoryStore

from .test_clocks import Time

CONTROLS = [("1m+5s", "30s", "act"), ("2m+2s", None, "act"), (None, "20s", "act"),
            ("1m+5s", "30s", "flag"), ("90s", None, "flag")]


def play(kind: str, players: list[str], number: int, steps: int) -> dict:
    """One game played as the module doc says; what was checked."""
    rng = random.Random(f"clocks|{kind}|{number}")
    clock, move, on_timeout = CONTROLS[number % len(CONTROLS)]
    time = Time()
    service = GameService(MemoryStore(), sign=False, clock=time)
    game = service.create(kind, {"players": players}, seed=number,
                          clock=control(clock, move, on_timeout)).game
    live: dict = {}
    timeouts = idle = 0
    for _ in range(steps):
        loaded = service.load(game)
        if loaded.rules.is_over(loaded.state):
            break
        head = loaded.head.seq
        time.at += rng.randint(0, 45_000) if rng.random() < 0.1 else rng.randint(0, 3_000)
        if rng.random() < 0.15:
            service.apply_timeouts(game)  # the server's tick
        else:
            seats = [s for s in range(len(players)) if service.legal(game, s)]
            if seats:
                seat = rng.choice(seats)
                legal = service.legal(game, seat)
                command = legal[rng.randrange(min(len(legal), 6))]  # small bets, early choices
                try:
                    service.submit(game, command, actor=seat)
                except IllegalCommand as exc:  # its time ran out, or the timeouts moved on
                    assert exc.rule in ("CLOCK-6", "CLOCK-7") or exc.rule.startswith(
                        kind.upper()), exc
            else:
                service.apply_timeouts(game)
        loaded = service.load(game)
        if loaded.head.seq != head:
            live[loaded.head.seq] = service.clocks(game)
            idle = 0
        else:
            idle += 1
            if idle > 40:  # every seat that may move is flagged: the referee's turn
                break
    data = service.store.log_bytes(game)
    replayed = timeline(load_bytes(data, game))
    for seq, shown in live.items():
        assert replayed[seq] == shown, (game, seq)
    if live:
        timeouts = sum(s["timeouts"] for s in live[max(live)]["seats"])
    check = verify_bytes(data)
    assert check.ok, (game, check.first_bad_seq, check.reason)
    last = max(replayed)
    assert check.clocks == replayed[last]
    return {"records": len(live), "timeouts": timeouts}


@pytest.mark.parametrize("number", [2, 5])
def test_replay_shows_the_live_clocks_atkr(number):
    done = play("atkr", ["Anna", "Ben", "Cleo"], number, 150)
    assert done["records"] > 80 and done["timeouts"] > 10, done


def test_replay_shows_the_live_clocks_castle():
    done = play("castle", ["Anna", "Ben", "Cleo", "Dora"], 2, 60)
    assert done["records"] > 40 and done["timeouts"] >= 1, done


@pytest.mark.slow
def test_replay_shows_the_live_clocks_in_100_games():
    total = {"records": 0, "timeouts": 0}
    for number in range(100):
        kind, players = (("castle", ["Anna", "Ben", "Cleo", "Dora"]) if number % 10 == 9
                         else ("atkr", ["Anna", "Ben", "Cleo"][: 2 + number % 2]))
        done = play(kind, players, number, 400 if kind == "atkr" else 120)
        for key in total:
            total[key] += done[key]
    assert total["timeouts"] > 100 and total["records"] > 5000, total
