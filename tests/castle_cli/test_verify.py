"""`devil verify` on castle games: the shipped recordings, a doctored one, a game in progress
(draws checked as possible only) and a physical game; through engine.replay and the CLI."""

from __future__ import annotations

import copy
import json
import os
import random

import pytest
from click.testing import CliRunner

from client.cli import cli
from engine.bots import make_bot, play_out
from engine.games.castle import RULES
from engine.replay import batches, open_log, verify_path
from engine.service import GameService
from engine.store import FileStore

REPLAYS = os.path.join(os.path.dirname(__file__), "..", "..", "replays")
#: file -> (players, seed): recorded with `devil simulate castle --players N --games 1
#: --seed S --bot sensible` (docs/commands.md)
SHIPPED = {"castle-3p.devlog": (3, 3), "castle-6p.devlog": (6, 3), "castle-7p.devlog": (7, 3),
           "castle-10p.devlog": (10, 5)}


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_shipped_castle_recording_verifies(name):
    players, seed = SHIPPED[name]
    path = os.path.join(REPLAYS, name)
    result = verify_path(path)
    assert result.ok, (result.first_bad_seq, result.reason)
    assert result.kind == "castle" and result.finished and result.seed_checked
    log = open_log(path)
    assert len(log.names) == players
    last, declared = log.events[-1], log.events[-2]
    assert last.TYPE == "game_ended" and last.reveal.seed == seed
    assert declared.TYPE == "declared" and declared.right  # the sensible bot proves its claim


def rewrite(path, store_dir, doctor):
    """Copy the game at ``path`` into a fresh store command by command (a valid hash chain),
    letting ``doctor(index, event_map)`` change event maps on the way."""
    log = open_log(path)
    store = FileStore(str(store_dir))
    records = log.records
    spans = list(batches(records))
    game = log.header.game
    maps = [copy.deepcopy(r.event) for r in records]
    for i, m in enumerate(maps):
        doctor(i, m)
    start, end = spans[0]
    store.create("castle", game, records[0].actor, maps[start:end], None)
    for start, end in spans[1:]:
        store.append(game, records[start - 1].seq, records[start].actor, records[start].cmd,
                     maps[start:end])
    return store.path(game)


def test_a_doctored_castle_game_fails_at_the_doctored_record(tmp_path):
    path = os.path.join(REPLAYS, "castle-6p.devlog")
    log = open_log(path)
    # the first card drawn with a secret bag (CASTLE-5.1) must be the top of the pile; record
    # another card that was in the pile instead
    index = next(i for i, e in enumerate(log.events)
                 if e.TYPE == "item_drawn" and e.reason == "bag")
    state = RULES.fold(log.events[:index])
    top, other = state.pile[0], state.pile[1]

    def doctor(i, m):
        if i == index:
            m["item"] = other

    bad = rewrite(path, tmp_path / "store", doctor)
    result = verify_path(bad)
    assert not result.ok
    assert result.first_bad_seq == log.records[index].seq
    assert other in result.reason and top in result.reason
    # the untouched copy verifies: the failure is the doctored card, not the rewriting
    clean = rewrite(path, tmp_path / "clean", lambda i, m: None)
    assert verify_path(clean).ok


def test_a_doctored_command_that_was_never_possible(tmp_path):
    path = os.path.join(REPLAYS, "castle-3p.devlog")
    log = open_log(path)
    index = next(i for i, e in enumerate(log.events) if e.TYPE == "trade_offered")
    state = RULES.fold(log.events[:index])
    giver = log.events[index].giver
    foreign = next(c for h in state.hands for c in h if c not in state.hands[giver])

    def doctor(i, m):
        if i == index:
            m["item"] = foreign  # a card the giver does not hold (CASTLE-4.1)

    result = verify_path(rewrite(path, tmp_path / "store", doctor))
    assert not result.ok and result.first_bad_seq == log.records[index].seq
    assert "CASTLE-4.1" in result.reason


def test_a_castle_game_in_progress_verifies_with_its_draws_checked_as_possible(tmp_path):
    service = GameService(FileStore(str(tmp_path)))
    # 7 players: the clairvoyant and the diplomat are dealt often; play 3 rounds of turns with
    # random bots that never declare, so the games are still in progress
    for seed in (11, 12):
        loaded = service.create("castle", {"players": [f"P{i}" for i in range(7)],
                                           "variants": ["smuggling"]}, seed=seed)
        rng = random.Random(seed)
        bots = {s: NoDeclaring(make_bot("castle", "random", random.Random(rng.random())))
                for s in range(7)}
        result = play_out(service, loaded.game, bots, max_rounds=3)
        assert not result["over"] and result["capped"] and result["commands"] > 20
        check = verify_path(service.store.path(loaded.game))
        assert check.ok, (check.first_bad_seq, check.reason)
        assert not check.finished and not check.seed_checked
        assert any("possible only" in c for c in check.checks)


class NoDeclaring:
    """A bot that chooses as ``bot`` does among the legal commands other than declarations."""

    def __init__(self, bot):
        self.bot = bot

    def choose(self, state, seat, legal):
        return self.bot.choose(state, seat, [c for c in legal if type(c).__name__ != "Declare"]
                               or legal)


def test_devil_verify_on_a_physical_castle_game(tmp_path):
    from tests.castle_cli.test_cli import FOUR, SCRIPT, write_deal

    runner = CliRunner()
    store = tmp_path / "store"

    def devil(*args, code=0):
        result = runner.invoke(cli, ["--store", str(store), *map(str, args)])
        assert result.exit_code == code, (args, result.output)
        return result

    path, _ = write_deal(tmp_path, "four.json", FOUR, top=["key-1", "goblet-1"])
    game = json.loads(devil("new", "castle", "--deal", path, "--first", "Ann",
                            "--json").stdout)["game"]
    for who, args, command in SCRIPT:
        devil("submit", game, json.dumps(command), "--as", who)
    data = json.loads(devil("verify", game, "--json").stdout)
    assert data["ok"] and data["physical"] and not data["finished"]
    assert data["commands"] == 1 + len(SCRIPT)  # the setup and every scripted command
    text = devil("verify", os.path.join(REPLAYS, "castle-7p.devlog")).stdout
    assert text.startswith("OK") and "re-derived from the revealed seed" in text
