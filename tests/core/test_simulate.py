"""Fast simulation: a game played in memory and written once has the bytes a game played
command by command writes; a capped game is marked stopped."""

from __future__ import annotations

import random

import pytest

from engine.bots import make_bot
from engine.replay import verify_bytes
from engine.simulate import play_game, stopped
from engine.store import FileStore, MemoryStore


def _bots(kind, players, seed, bot="random", **params):
    rng = random.Random(seed)
    return {seat: make_bot(kind, bot, random.Random(rng.random()), **params)
            for seat in range(players)}


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


@pytest.mark.parametrize("kind,players,bot", [("atkr", 3, "random"), ("atkr", 3, "cautious"),
                                             ("castle", 5, "random"), ("castle", 5, "sensible")])
def test_in_memory_and_durable_games_write_the_same_bytes(tmp_path, monkeypatch, kind, players,
                                                          bot):
    """The fast loop (engine.simulate.simulate: one referee fold, lazy legal commands, a seat
    folded only for a bot that reads it) makes the bots choose what engine.bots.play_out
    through the service makes them choose: the same game, byte for byte."""
    restart = _fix_chance_and_clock(monkeypatch)
    options = {"players": [f"P{i}" for i in range(players)]}
    fast_store, slow_store = FileStore(str(tmp_path / "fast")), FileStore(str(tmp_path / "slow"))
    restart()
    fast = play_game(fast_store, kind, options, _bots(kind, players, 4, bot), seed=4,
                     max_rounds=30)
    restart()
    slow = play_game(slow_store, kind, options, _bots(kind, players, 4, bot), seed=4,
                     max_rounds=30, durable=True)
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


class _Recording:
    """A bot that records every command it gives (``log``: ``(seat, command)``), reading the
    state exactly when the bot it wraps does."""

    def __init__(self, bot, log):
        self.bot, self.log = bot, log
        self.reads_state = getattr(bot, "reads_state", True)

    def choose(self, state, seat, legal):
        command = self.bot.choose(state, seat, legal)
        self.log.append((seat, command))
        return command


@pytest.mark.parametrize("kind,players,bot,params", [
    ("atkr", 4, "random", {}), ("atkr", 3, "cautious", {"samples": 20}),
    ("castle", 6, "sensible", {})])
def test_a_simulated_game_is_the_same_game_replayed_through_the_service(
        tmp_path, monkeypatch, kind, players, bot, params):
    """Every byte of a simulated log (header, records, times, the hash chain) is what the
    service writes when its commands are submitted to it one by one; its secret and seal name
    the same final record; `devil verify` passes on it."""
    from click.testing import CliRunner

    from client.cli import cli
    from engine.service import GameService

    restart = _fix_chance_and_clock(monkeypatch)
    options = {"players": [f"P{i}" for i in range(players)]}
    commands: list = []
    bots = {seat: _Recording(b, commands)
            for seat, b in _bots(kind, players, 9, bot, **params).items()}
    fast_store = FileStore(str(tmp_path / "fast"))
    restart()
    fast = play_game(fast_store, kind, options, bots, seed=9, max_rounds=40)
    assert fast["commands"] == len(commands) > 30

    restart()
    service = GameService(FileStore(str(tmp_path / "service")))
    game = service.create(kind, options, seed=9).game
    for seat, command in commands:
        service.submit(game, command, actor=seat)
    assert game == fast["game"]
    data = fast_store.log_bytes(game)
    assert data == service.store.log_bytes(game)
    assert fast_store.secret(game) == service.store.secret(game) == {"seed": 9, "salt": "ab" * 16}
    assert fast_store.head(game) == service.store.head(game)
    if fast["over"]:  # each store signs with its own key; both seal the same final record
        ours, theirs = fast_store.private(game, "seal"), service.store.private(game, "seal")
        assert {k: ours[k] for k in ("seq", "link", "time")} \
            == {k: theirs[k] for k in ("seq", "link", "time")}
    assert fast["over"] == service.load(game).rules.is_over(service.state(game))
    path = tmp_path / "fast" / f"{game}.devlog"
    run = CliRunner().invoke(cli, ["verify", str(path)])
    assert run.exit_code == 0, run.output
    assert verify_bytes(data).ok


def test_simulated_games_are_reproducible_from_a_seed(monkeypatch):
    """The same seed, the same bots' choices: the same logs (the clock fixed), in both kinds."""
    from client.games.atkr.simulate import simulate_games as atkr
    from client.games.castle.simulate import simulate_games as castle
    from engine.service import GameService
    from engine.store import MemoryStore

    import engine.store.protocol

    restart = _fix_chance_and_clock(monkeypatch)
    runs = []
    for _ in range(2):
        restart()
        ids = iter(range(100))
        monkeypatch.setattr(engine.store.protocol, "random_game_id",
                            lambda k, ids=ids: f"{k}-g{next(ids):04d}")
        service = GameService(MemoryStore(), sign=False)
        a = atkr(service, 4, 2, "random", 3, 500)
        c = castle(service, 5, 2, "sensible", 3, 60)
        runs.append([service.store.log_bytes(g) for g in a["game_ids"] + c["game_ids"]])
        assert a["finished"] == 2 and a["events"] > 200
    assert runs[0] == runs[1]
    assert len(set(runs[0])) == 4


@pytest.mark.parametrize("physical", [False, True])
def test_lazy_legal_choices_are_the_legal_commands_a_seat_knows(physical):
    """atkr's legal_choices on the referee's state is, for every seat after every command of
    random games, the list legal_commands gives from the seat's own fold (what a simulation
    relies on to fold no seat for a bot that reads only its legal commands)."""
    from engine.chance import SeededChance
    from engine.fold import Fold
    from engine.game import rules_for

    rules = rules_for("atkr")
    for game in range(3):
        rng = random.Random(game)
        chance = None if physical else SeededChance(game, "ab" * 16)
        options = {"players": ["A", "B", "C", "D"][:2 + game], "physical": physical,
                   "seed_chosen": not physical}
        events = rules.setup(options, chance)
        referee = Fold(rules).advance(events)
        seats = [Fold(rules, seat).advance(events) for seat in range(2 + game)]
        checked = 0
        while not rules.is_over(referee.state) and referee.state.round < 25:
            acting = []
            for seat, fold in enumerate(seats):
                lazy = rules.legal_choices(referee.state, seat)
                full = rules.legal_commands(fold.state, seat)
                assert list(lazy) == full and len(lazy) == len(full)
                assert [lazy[i] for i in range(len(lazy))] == full
                if full:
                    assert lazy[-1] == full[-1] and lazy[1:3] == full[1:3]
                    acting.append((seat, full))
                checked += 1
            assert acting
            seat, legal = acting[0]
            events = rules.decide(referee.state, rng.choice(legal), chance)
            referee.advance(events)
            for fold in seats:
                fold.advance(events)
        assert checked > 100


@pytest.mark.slow
@pytest.mark.parametrize("kind,bot,players", [
    *[("atkr", bot, n) for bot in ("random", "cautious") for n in range(2, 7)],
    *[("castle", bot, n) for bot in ("random", "sensible") for n in range(3, 11)]])
def test_many_simulated_games_are_the_service_s_games(monkeypatch, kind, bot, players):
    """At every size and with every bot, 5 games: the simulation's bytes are those of
    engine.bots.play_out through GameService.submit (on a MemoryStore)."""
    from engine.bots import play_out
    from engine.service import GameService
    from engine.simulate import simulate

    restart = _fix_chance_and_clock(monkeypatch)
    options = {"players": [f"P{i}" for i in range(players)]}
    params = {"samples": 20} if bot == "cautious" else {}
    for seed in range(5):
        restart()
        fast = simulate(kind, options, _bots(kind, players, seed, bot, **params), seed=seed,
                        max_rounds=40)
        restart()
        service = GameService(MemoryStore(), sign=False)
        game = service.create(kind, options, seed=seed).game
        slow = play_out(service, game, _bots(kind, players, seed, bot, **params), max_rounds=40)
        assert fast.data == service.store.log_bytes(game)
        assert fast.result["commands"] == slow["commands"]
        assert verify_bytes(fast.data).ok
