"""Fast simulation: a game played in memory and written once has the bytes a game played
command by command writes; a capped game is marked stopped."""

from __future__ import annotations

import random

import pytest

from engine.bots import make_bot
from engine.replay import verify_bytes
from engine.simulate import play_game, stopped
from engine.store import FileStore


def _bots(kind, players, seed):
    rng = random.Random(seed)
    return {seat: make_bot(kind, "random", random.Random(rng.random())) for seat in range(players)}


def _fix_chance_and_clock(monkeypatch):
    """Game ids, salts and the clock fixed, so two runs of the same commands can be compared
    byte for byte; returns a function that restarts the clock."""
    import engine.chance
    import engine.service
    import engine.simulate
    import engine.store.file
    import engine.store.memory

    clock = iter(())

    def now():
        return next(clock)

    def restart():
        nonlocal clock
        clock = iter(range(1_700_000_000_000, 1_900_000_000_000, 7))

    monkeypatch.setattr(engine.store.file, "now_ms", now)
    monkeypatch.setattr(engine.store.memory, "now_ms", now)
    monkeypatch.setattr(engine.simulate, "now_ms", now)
    monkeypatch.setattr(engine.chance.secrets, "token_hex", lambda n: "ab" * n)
    monkeypatch.setattr(engine.store.protocol, "random_game_id", lambda k: f"{k}-same01")
    return restart


@pytest.mark.parametrize("kind,players", [("atkr", 3), ("castle", 5)])
def test_in_memory_and_durable_games_write_the_same_bytes(tmp_path, monkeypatch, kind, players):
    restart = _fix_chance_and_clock(monkeypatch)
    options = {"players": [f"P{i}" for i in range(players)]}
    fast_store, slow_store = FileStore(str(tmp_path / "fast")), FileStore(str(tmp_path / "slow"))
    restart()
    fast = play_game(fast_store, kind, options, _bots(kind, players, 4), seed=4, max_rounds=30)
    restart()
    slow = play_game(slow_store, kind, options, _bots(kind, players, 4), seed=4, max_rounds=30,
                     durable=True)
    assert fast["game"] == slow["game"] == f"{kind}-same01"
    assert fast["commands"] == slow["commands"] > 10
    fast_bytes = fast_store.log_bytes(fast["game"])
    assert fast_bytes == slow_store.log_bytes(slow["game"])
    assert verify_bytes(fast_bytes).ok
    assert fast_store.secret(fast["game"]) == slow_store.secret(slow["game"]) \
        == {"seed": 4, "salt": "ab" * 16}


def test_a_game_stopped_by_the_cap_is_marked(tmp_path):
    store = FileStore(str(tmp_path))
    result = play_game(store, "castle", {"players": ["A", "B", "C", "D"]}, _bots("castle", 4, 1),
                       seed=1, max_rounds=1)
    assert result["capped"] and not result["over"]
    assert stopped(store, result["game"]) == {"why": "turn cap", "max_rounds": 1,
                                              "rounds": result["rounds"],
                                              "commands": result["commands"]}
    finished = play_game(store, "atkr", {"players": ["A", "B"]}, _bots("atkr", 2, 2), seed=2)
    assert finished["over"] and stopped(store, finished["game"]) is None
