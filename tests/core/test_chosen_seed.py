"""A chosen seed is visible (issue 9.7): anyone who knows a chosen seed can predict every draw,
so the first event records that the seed was chosen, and every view, `verify` and the replay
say so.  A secret seed says nothing of the kind; the service alone sets the flag."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from client.cli import cli
from engine.chance import SeededChance
from engine.replay import SEED_CHOSEN_NOTE, verify_bytes
from engine.service import GameService
from engine.store import MemoryStore

REPLAYS = os.path.join(os.path.dirname(__file__), "..", "..", "replays")


def test_seed_12345_predicts_every_draw_so_it_is_recorded_as_chosen():
    # anyone can compute the draws of a chosen seed before the game starts
    chance = SeededChance(12345, "00")
    assert [chance.randbelow(6, "x", i) for i in range(3)] == \
        [SeededChance(12345, "ff").randbelow(6, "x", i) for i in range(3)]
    service = GameService(MemoryStore())
    chosen = service.create("atkr", {"players": ["Anna", "Ben"]}, seed=12345)
    secret = service.create("atkr", {"players": ["Anna", "Ben"]})
    assert chosen.events[0].seed_chosen is True
    assert secret.events[0].seed_chosen is False
    for viewer in (None, 0, 1, -1):
        assert service.view(chosen.game, viewer)["seed_chosen"] is True
        assert service.view(secret.game, viewer)["seed_chosen"] is False


@pytest.mark.parametrize("kind,players", [("atkr", ["A", "B"]), ("castle", ["A", "B", "C"])])
def test_a_player_cannot_set_or_hide_the_flag(kind, players):
    service = GameService(MemoryStore())
    hidden = service.create(kind, {"players": players, "seed_chosen": False}, seed=7)
    assert hidden.events[0].seed_chosen is True  # the service says, not the creator
    claimed = service.create(kind, {"players": players, "seed_chosen": True})
    assert claimed.events[0].seed_chosen is False


def test_verify_show_and_replay_say_the_seed_was_chosen(tmp_path):
    store = str(tmp_path / "store")
    runner = CliRunner()

    def devil(*args):
        result = runner.invoke(cli, ["--store", store, *map(str, args)], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.stdout

    game = devil("new", "castle", "--player", "Ann", "--player", "Ben", "--player", "Cid",
                 "--seed", 12345).strip().splitlines()[0]
    assert SEED_CHOSEN_NOTE in devil("show", game)
    assert SEED_CHOSEN_NOTE in devil("show", game, "--as", "Ben")
    assert SEED_CHOSEN_NOTE in devil("verify", game)
    assert SEED_CHOSEN_NOTE in devil("replay", game)
    other = devil("new", "castle", "--player", "Ann", "--player", "Ben", "--player", "Cid"
                  ).strip().splitlines()[0]
    assert SEED_CHOSEN_NOTE not in devil("show", other) + devil("verify", other)


#: logs recorded before seed_chosen existed: the shipped atkr games and the Castle games kept
#: from before the corrected rules (the shipped Castle games were re-made since, issue 10)
OLD_LOGS = os.path.join(os.path.dirname(__file__), "..", "castle_cli", "old_logs")
BEFORE = sorted([os.path.join(REPLAYS, n) for n in os.listdir(REPLAYS) if n.startswith("atkr-")
                 and n.endswith(".devlog")]
                + [os.path.join(OLD_LOGS, n) for n in os.listdir(OLD_LOGS)
                   if n.endswith(".devlog")])


@pytest.mark.parametrize("path", BEFORE, ids=os.path.basename)
def test_logs_recorded_before_the_flag_still_verify(path):
    data = open(path, "rb").read()
    assert b"seed_chosen" not in data  # recorded before the field existed
    result = verify_bytes(data)
    assert result.ok and result.finished and not result.seed_chosen
