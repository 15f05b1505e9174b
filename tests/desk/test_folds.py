"""Voids in every fold (docs/architecture.md): the service's incremental referee and per-seat
folds, a cold load, a load from a snapshot, the file reader and the fast fold all agree after
a correction; a seat's stream carries the correction, and a voided hidden bet stays hidden."""

from __future__ import annotations

import json
import re

import pytest

import engine.service as service_module
from client.api import FileClient
from engine.game import PUBLIC, REFEREE
from engine.replay import fold_bytes, load_bytes, steps
from engine.service import GameService
from engine.store import FileStore

from .helpers import log_json, ok


def _corrected_game(svc: GameService) -> str:
    """A physical game: Anna bets 60 (sealed), the referee corrects it away (she meant 70),
    Anna bets 70, Ben 40, the bets are revealed and Anna draws a 25."""
    game = svc.create("atkr", {"players": ["Anna", "Ben"], "first": "Anna",
                               "physical": True}).game
    before = svc.load(game).version
    svc.submit(game, {"type": "bet", "player": "Anna", "amount": 60})
    # every fold is asked for once before the correction, so each is advanced, not built anew
    for viewer in (REFEREE, 0, 1, PUBLIC):
        svc.view(game, viewer)
    svc.submit(game, {"type": "correct", "to": before, "reason": "Anna said 70, not 60"})
    svc.submit(game, {"type": "bet", "player": "Anna", "amount": 70})
    svc.submit(game, {"type": "bet", "player": "Ben", "amount": 40})
    svc.submit(game, {"type": "draw", "player": "Anna", "coal": 25})
    return game


def _views(svc: GameService, game: str) -> dict:
    return {viewer: svc.view(game, viewer) for viewer in (REFEREE, 0, 1, PUBLIC)}


def test_every_fold_applies_the_voids(tmp_path, monkeypatch):
    monkeypatch.setattr(service_module.snapshots, "SNAPSHOT_EVERY", 3)  # snapshots along the way
    store = FileStore(str(tmp_path / "store"))
    svc = GameService(store)
    game = _corrected_game(svc)
    warm = _views(svc, game)
    anna = warm[REFEREE]["players"][0]
    assert (anna["bet"], anna["money"], anna["coals"]) == (70, 130, [25])
    assert warm[1]["players"][0]["bet"] == 70  # revealed with every bet (ATKR-3.2)
    assert all(v["voided"] == [{"from": 3, "to": 3, "by": 4, "reason": "Anna said 70, not 60",
                                "epoch": 1}] for v in warm.values())
    assert store.snapshot(game)  # a snapshot taken after the correction
    from_snapshot = GameService(FileStore(str(tmp_path / "store")))
    cold = from_snapshot.load(game)
    assert cold.base > 4 and cold.desk.voided == {3: 4}  # started from the snapshot, voids in it
    assert _views(from_snapshot, game) == warm
    store_again = FileStore(str(tmp_path / "store"))
    store_again.save_snapshot(game, b"")  # no snapshot: the log folded from the start
    assert _views(GameService(store_again), game) == warm

    path = str(tmp_path / "store" / f"{game}.devlog")
    reader = FileClient(path)
    for viewer, name in ((REFEREE, None), (1, "Ben")):
        view = reader.view(game, name)
        assert {k: v for k, v in view.items() if k not in ("damage",)} == \
            {k: v for k, v in warm[viewer].items() if k not in ("damage",)}
    data = open(path, "rb").read()
    _, state, count = fold_bytes(data)
    assert count == 8 and state.money[0] == 130 and state.bets == [70, 40]
    log = load_bytes(data)
    last = list(steps(log, 1))[-1]
    assert last.state.bets == [70, 40] and [v.by for v in last.desk.voids] == [4]


def test_a_seat_stream_carries_the_correction_and_the_voided_bet_stays_sealed(tmp_path):
    store = tmp_path / "store"
    svc = GameService(FileStore(str(store)))
    game = _corrected_game(svc)
    ben = log_json(store, game, "--as", "Ben")
    voided = [e for e in ben if "voided" in e]
    assert [(e["seq"], e["event"]) for e in voided] == \
        [(3, {"type": "bet_placed", "seat": 0, "amount": None})]  # never shown to Ben
    assert voided[0]["voided"] == {"by": 4, "reason": "Anna said 70, not 60"}
    assert ben[3]["event"] == {"type": "corrected", "to": 2, "reason": "Anna said 70, not 60",
                               "epoch": 1}
    text = ok(store, "log", game, "--as", "Ben")
    assert "#3    ~~Anna places a sealed bet~~  [VOID by #4: Anna said 70, not 60]" in text
    assert not re.search(r"\b60\b", text.replace("not 60", ""))  # Ben never saw the 60
    replay = json.loads(ok(store, "replay", str(store / f"{game}.devlog"), "--as", "Ben",
                           "--json"))
    assert [s["seq"] for s in replay["steps"] if s["voided"]] == [3]
    assert all(s["event"].get("amount") != 60 for s in replay["steps"])
    assert replay["voided"][0]["by"] == 4
    assert not re.search(r"\b60\b", json.dumps([s["view"] for s in replay["steps"]])
                         .replace("not 60", ""))


@pytest.mark.parametrize("viewer", [0, 1])
def test_the_seat_fold_equals_the_fold_of_its_redacted_stream(tmp_path, viewer):
    svc = GameService(FileStore(str(tmp_path / "store")))
    game = _corrected_game(svc)
    from engine.desk.voids import desk_of, surviving

    loaded = svc.load(game)
    rules = loaded.rules  # folded here by hand: the records in force, redacted for the seat
    expected = rules.initial()
    for _, event in surviving(loaded.records, loaded.events, desk_of(loaded.records,
                                                                      loaded.events)):
        shown = rules.redact(event, viewer)
        if shown is not None:
            expected = rules.evolve(expected, shown)
    assert svc.state(game, viewer) == expected


def test_a_snapshot_from_before_a_correction_is_folded_on_with_the_voids(tmp_path, monkeypatch):
    monkeypatch.setattr(service_module.snapshots, "SNAPSHOT_EVERY", 3)
    root = str(tmp_path / "store")
    first = GameService(FileStore(root))
    game = first.create("atkr", {"players": ["Anna", "Ben"], "first": "Anna",
                                 "physical": True}).game
    first.submit(game, {"type": "bet", "player": "Anna", "amount": 60})  # snapshot at 3
    # another process corrects the game (its append is below the snapshot threshold)
    other = GameService(FileStore(root))
    other.submit(game, {"type": "correct", "to": 2, "reason": "she meant 70"})
    fresh = GameService(FileStore(root))
    loaded = fresh.load(game)
    # started from the snapshot at 3, then read the log before it to fold again without #3
    assert (loaded.snapshot_seq, loaded.base, loaded.desk.voided) == (3, 0, {3: 4})
    assert fresh.state(game).bets == [None, None] and fresh.state(game, 1).bet_in == [False, False]
    # and the first service, whose folds include the bet, folds the correction it did not write
    assert first.state(game).bets == [None, None] and first.view(game, 0)["voided"][0]["by"] == 4
