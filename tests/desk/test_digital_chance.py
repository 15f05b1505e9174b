"""A digital game's chance never rewinds (DESK-6): after a correction the draws go on with the
stream (labels prefixed with the correction's epoch), so the draw after a correction is a new
one, and a log that replays the voided draw instead fails verify against the revealed seed."""

from __future__ import annotations

import hashlib
import random

from engine.bots import make_bot, play_out
from engine.errors import IllegalCommand
from engine.replay import verify_bytes
from engine.service import GameService
from engine.store import MemoryStore

from ..tools.helpers import rechain, split


def _draw_and_correct(seed: int):
    """A 2-seat digital game (seed ``seed``): bets, Anna draws once, the referee corrects back
    to before the draw, Anna draws again.  ``(service, game, voided coal, new coal)``."""
    svc = GameService(MemoryStore())
    game = svc.create("atkr", {"players": ["Anna", "Ben"], "first": "Anna"}, seed=seed).game
    svc.submit(game, {"type": "bet", "player": "Anna", "amount": 60})
    svc.submit(game, {"type": "bet", "player": "Ben", "amount": 40})
    before = svc.load(game).version
    first = svc.submit(game, {"type": "draw", "player": "Anna"}).events[0]
    svc.submit(game, {"type": "correct", "to": before, "reason": "Anna's hand slipped"})
    assert svc.state(game).draws == 0 and svc.state(game).furnace == [2, 3, 7, 9, 9, 9, 9]
    again = svc.submit(game, {"type": "draw", "player": "Anna"}).events[0]
    return svc, game, first.coal, again.coal


def test_the_draw_after_a_correction_is_a_new_one_and_verify_rederives_it():
    # with the stream rewound, every seed would draw the voided coal again: it never does here
    for seed in range(1, 40):
        svc, game, voided, new = _draw_and_correct(seed)
        if new != voided:
            break
    else:
        raise AssertionError("39 corrections all drew the voided coal again: chance rewound")
    assert new != voided
    # both draws were coal number 0 of the game (the correction returned the count to 0):
    # only the epoch tells them apart
    records = svc.store.read(game, after=0).records
    drawn = [r for r in records if r.event["type"] == "coal_drawn"]
    assert [r.event["coal"] for r in drawn[:2]] == [voided, new]
    bots = {s: make_bot("atkr", "cautious", random.Random(seed + s)) for s in range(2)}
    assert play_out(svc, game, bots)["over"]
    data = svc.store.log_bytes(game)
    check = verify_bytes(data)
    assert check.ok, check.reason
    assert check.finished and check.seed_checked  # every draw re-derived from the seed

    # both draws re-derived here from the revealed seed with nothing but hashlib, by the
    # recipe of docs/log-format.md: coal 0 of a full furnace, label "draw|0" before the
    # correction and "epoch|1|draw|0" after it
    seed = svc.store.read(game, after=0).records[-1].event["seed"]

    def coal(label: str) -> int:
        digest = hashlib.sha256(f"{seed}|{label}".encode()).digest()
        r = int.from_bytes(digest[:8], "big") % 48
        for kind, count in zip((100, 75, 50, 25, 20, 10, 0), (2, 3, 7, 9, 9, 9, 9)):
            if r < count:
                return kind
            r -= count
        raise AssertionError("unreachable")

    assert (coal("draw|0"), coal("epoch|1|draw|0")) == (voided, new)

    # a log that replays the voided draw after the correction (re-chained) fails
    header, _chunks, objs = split(data)
    index = next(i for i, o in enumerate(objs) if o[0] == drawn[1].seq)
    objs[index][4] = {**objs[index][4], "coal": voided}
    bad = verify_bytes(rechain(header, objs))
    assert not bad.ok and bad.first_bad_seq == drawn[1].seq
    assert "does not match the revealed seed" in bad.reason

    # a correction whose epoch was edited (re-chained) fails: the desk re-decides it
    header, _chunks, objs = split(data)
    index = next(i for i, o in enumerate(objs) if o[4]["type"] == "corrected")
    objs[index][4] = {**objs[index][4], "epoch": 0}
    bad = verify_bytes(rechain(header, objs))
    assert not bad.ok and bad.first_bad_seq == objs[index][0]
    assert "referee's desk gives corrected(to=" in bad.reason


def test_a_finished_digital_game_cannot_be_corrected():
    svc, game, _, _ = _draw_and_correct(3)
    bots = {s: make_bot("atkr", "cautious", random.Random(s)) for s in range(2)}
    assert play_out(svc, game, bots)["over"]
    version = svc.load(game).version
    try:
        svc.submit(game, {"type": "correct", "to": 3, "reason": "too late"})
    except IllegalCommand as exc:
        assert exc.rule == "DESK-3" and "seed is revealed" in exc.message
    else:
        raise AssertionError("a finished digital game was corrected")
    assert svc.load(game).version == version
