"""The desk belongs to no game: a digital game of every registered kind, played a little by
its bots, is corrected, played on and verified, and every seat's view shows the void."""

from __future__ import annotations

import copy
import random

import pytest

from engine.bots import Table, make_bot
from engine.game import REFEREE, rules_for
from engine.games import KINDS
from engine.replay import verify_bytes
from engine.service import GameService
from engine.store import MemoryStore

PLAYERS = {kind: ["Ann", "Ben", "Cid", "Dee"] for kind in KINDS}


def _play(svc, game, commands, rng):
    """Let random bots give ``commands`` commands (fewer if the game ends)."""
    table = Table(svc, game)
    bots = {s: make_bot(svc.load(game).header.kind, "random", random.Random(rng.random()))
            for s in range(len(table.names))}
    for _ in range(commands):
        if table.over():
            return
        seat = table.waiting()[0]
        table.submit(seat, bots[seat].choose(table.states[seat], seat, table.legal(seat)))


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_correction_in_every_kind(kind):
    rules = rules_for(kind)
    svc = GameService(MemoryStore())
    game = svc.create(kind, {"players": PLAYERS[kind]}, seed=11).game
    rng = random.Random(5)
    _play(svc, game, 4, rng)
    loaded = svc.load(game)
    setup_end = 1 + loaded.records[0].left
    if loaded.version == setup_end:
        pytest.fail("the bots gave no command")
    before = copy.deepcopy(svc.state(game, REFEREE))
    at_setup = rules.fold(loaded.events[:setup_end])
    svc.submit(game, {"type": "correct", "to": setup_end, "reason": "start again"})
    assert svc.state(game, REFEREE) == at_setup != before
    for seat in range(len(PLAYERS[kind])):
        view = svc.view(game, seat)
        assert view["voided"][0]["from"] == setup_end + 1
    _play(svc, game, 4, rng)
    check = verify_bytes(svc.store.log_bytes(game))
    assert check.ok, check.reason
