"""GameService keeps each game's folds and advances them; snapshots are never trusted.

The service's state must always equal a fresh fold of the log, and a seat's state the fold of
that seat's redacted stream, however the service got there: incrementally, across processes
(another instance appending), or from a snapshot.
"""

from __future__ import annotations

import pickle
import random

import attrs
import pytest

from engine import service as service_module
from engine.service import snapshots
from engine.bots import make_bot, play_out
from engine.game import PUBLIC, REFEREE
from engine.service import GameService
from engine.store import FileStore, MemoryStore


def _as_data(state):
    return attrs.asdict(state, recurse=True)


def _fresh_views(service: GameService, game: str) -> dict:
    """Every viewer's view computed from scratch: the fold of its redacted stream."""
    loaded = GameService(FileStore(service.store.root)).load(game)
    rules = loaded.rules
    out = {REFEREE: rules.view(rules.fold(loaded.events), REFEREE)}
    for viewer in [PUBLIC, *range(len(rules.seats(loaded.state)))]:
        out[viewer] = rules.view(rules.fold(rules.redact(e, viewer) for e in loaded.events), viewer)
    return out


def _views(service: GameService, game: str) -> dict:
    loaded = service.load(game)
    out = {}
    for viewer in [REFEREE, PUBLIC, *range(len(loaded.rules.seats(loaded.state)))]:
        view = service.view(game, viewer)
        assert view.pop("game") == game and view.pop("version") == loaded.version
        out[viewer] = view
    return out


def _play(service, kind, players, seed, max_commands=100_000):
    options = {"players": [f"P{i}" for i in range(players)]}
    game = service.create(kind, options, seed=seed).game
    rng = random.Random(seed)
    bots = {seat: make_bot(kind, "random", rng) for seat in range(players)}
    play_out(service, game, bots, max_commands=max_commands)
    return game


@pytest.mark.parametrize("kind,players", [("atkr", 4), ("castle", 6)])
def test_kept_folds_equal_fresh_folds_of_the_log(tmp_path, kind, players):
    service = GameService(FileStore(str(tmp_path)))
    game = _play(service, kind, players, seed=11, max_commands=300)
    assert _views(service, game) == _fresh_views(service, game)


def test_appends_by_another_instance_are_read_incrementally(tmp_path):
    ours = GameService(FileStore(str(tmp_path)))
    game = ours.create("atkr", {"players": ["Anna", "Ben"], "first": "Anna",
                                "physical": True}).game
    theirs = GameService(FileStore(str(tmp_path)))
    ours.submit(game, {"type": "bet", "player": "Anna", "amount": 10})
    theirs.submit(game, {"type": "bet", "player": "Ben", "amount": 0})
    # ours decided from version 2 at most; the store refuses a stale append, ours reads and
    # decides again, so Anna's draw follows Ben's bet
    ours.submit(game, {"type": "draw", "player": "Anna", "coal": 25})
    loaded = ours.load(game)
    # ATKR-3.2: the bets are revealed with the last bet; ATKR-4.1: then Anna draws
    assert [e.TYPE for e in loaded.events] == ["game_created", "round_started", "bet_placed",
                                               "bet_placed", "bets_revealed", "coal_drawn"]
    # a coal drawn from the real box is reported by the referee (ATKR-9.3): actor -1
    assert [r.actor for r in loaded.records[2:]] == [0, 1, 1, -1]
    assert _views(ours, game) == _views(theirs, game) == _fresh_views(ours, game)


def test_a_snapshot_is_written_and_a_cold_load_starts_from_it(tmp_path, monkeypatch):
    monkeypatch.setattr(service_module.snapshots, "SNAPSHOT_EVERY", 40)
    store = FileStore(str(tmp_path))
    service = GameService(store)
    game = _play(service, "castle", 5, seed=3, max_commands=200)
    version = service.load(game).version
    assert version > 80
    snap = pickle.loads(snapshots.unseal(store, game, store.snapshot(game)))
    assert version - 40 < snap["seq"] <= version
    cold = GameService(FileStore(str(tmp_path)))
    loaded = cold.load(game)
    assert loaded.base == snap["seq"]  # started from the snapshot, not from event 1
    assert _views(cold, game) == _fresh_views(service, game)
    # the whole log is still there for whoever reads it
    assert len(loaded.events) == version and loaded.base == 0


def test_a_snapshot_whose_link_does_not_match_is_ignored_and_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setattr(service_module.snapshots, "SNAPSHOT_EVERY", 40)
    store = FileStore(str(tmp_path))
    service = GameService(store)
    game = _play(service, "atkr", 3, seed=5, max_commands=150)
    snap = pickle.loads(snapshots.unseal(store, game, store.snapshot(game)))
    # a snapshot whose folds are wrong (the referee's money doubled) and whose link is not the
    # log's link at its position: it must not be believed
    bad_state = snap["folds"][REFEREE][0]
    bad_state.money = [m * 2 for m in bad_state.money]
    snap["link"] = bytes(8)
    store.save_snapshot(game, snapshots.seal(store, game, pickle.dumps(snap)))
    cold = GameService(FileStore(str(tmp_path)))
    loaded = cold.load(game)
    assert loaded.base == 0  # folded from the log's start
    assert _views(cold, game) == _fresh_views(service, game)
    rebuilt = pickle.loads(snapshots.unseal(store, game, store.snapshot(game)))
    assert rebuilt["seq"] == loaded.version
    assert rebuilt["link"] == store.head(game).link


@pytest.mark.parametrize("garbage", [b"", b"not a pickle", pickle.dumps({"format": 99})])
def test_an_unreadable_snapshot_is_ignored(tmp_path, garbage):
    store = FileStore(str(tmp_path))
    service = GameService(store)
    game = _play(service, "atkr", 2, seed=8, max_commands=60)
    store.save_snapshot(game, garbage)
    cold = GameService(FileStore(str(tmp_path)))
    assert cold.load(game).base == 0
    assert _views(cold, game) == _fresh_views(service, game)


def test_another_games_snapshot_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setattr(service_module.snapshots, "SNAPSHOT_EVERY", 20)
    store = FileStore(str(tmp_path))
    service = GameService(store)
    one = _play(service, "atkr", 3, seed=1, max_commands=80)
    two = _play(service, "atkr", 3, seed=2, max_commands=80)
    # another game's snapshot, sealed as that game's: refused by its seal
    store.save_snapshot(two, store.snapshot(one))
    cold = GameService(FileStore(str(tmp_path)))
    assert cold.load(two).base == 0
    # and sealed for this game (as a store whose key was read would): refused by its contents
    store.save_snapshot(two, snapshots.seal(store, two, snapshots.unseal(store, one,
                                                                         store.snapshot(one))))
    cold = GameService(FileStore(str(tmp_path)))
    assert cold.load(two).base == 0
    assert _views(cold, two) == _fresh_views(service, two)


def test_a_log_replaced_under_a_running_service_is_folded_again(tmp_path):
    store = FileStore(str(tmp_path))
    service = GameService(store)
    game = service.create("atkr", {"players": ["Anna", "Ben"], "first": "Anna",
                                   "physical": True}).game
    before = store.log_bytes(game)
    service.submit(game, {"type": "bet", "player": "Anna", "amount": 10})
    assert service.load(game).version == 3
    # the file is put back as it was (a restore from a backup): the service must not keep
    # folds of records that are no longer in the log
    with open(store.path(game), "wb") as handle:
        handle.write(before)
    assert service.load(game).version == 2
    assert _views(service, game) == _fresh_views(service, game)


def test_the_memory_store_serves_a_whole_game(tmp_path):
    memory = GameService(MemoryStore())
    game = _play(memory, "castle", 4, seed=9, max_commands=120)
    data = memory.store.log_bytes(game)
    files = FileStore(str(tmp_path))
    assert files.import_log(data) == game
    assert files.log_bytes(game) == data
    assert _views(GameService(files), game) == _views(memory, game)


def test_a_snapshot_holding_code_is_ignored_and_never_run(tmp_path):
    store = FileStore(str(tmp_path))
    service = GameService(store)
    game = _play(service, "atkr", 2, seed=8, max_commands=60)
    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    store.save_snapshot(game, snapshots.seal(store, game, pickle.dumps(
        {"format": 2, "game": game, "seq": 1, "link": b"", "header_link": b"",
         "folds": Evil()})))
    cold = GameService(FileStore(str(tmp_path)))
    assert cold.load(game).base == 0
    assert not marker.exists()
    assert _views(cold, game) == _fresh_views(service, game)


def test_a_sealed_snapshot_whose_folds_do_not_hold_is_dropped_for_the_log(tmp_path,
                                                                          monkeypatch):
    """A snapshot with the right seal, seq and links but folds that cannot be built (a desk
    that is not one) or advanced (a state that is not one) is dropped and the log folded from
    the start: no internal error, and the log is not blamed."""
    monkeypatch.setattr(service_module.snapshots, "SNAPSHOT_EVERY", 40)
    store = FileStore(str(tmp_path))
    service = GameService(store)
    game = _play(service, "atkr", 3, seed=5, max_commands=150)
    snap = pickle.loads(snapshots.unseal(store, game, store.snapshot(game)))
    for folds in ({viewer: (state, {"voids": 1}) for viewer, (state, _) in snap["folds"].items()},
                  {viewer: (1, desk) for viewer, (_, desk) in snap["folds"].items()}):
        store.save_snapshot(game, snapshots.seal(store, game, pickle.dumps({**snap,
                                                                            "folds": folds})))
        cold = GameService(FileStore(str(tmp_path)))
        assert cold.load(game).base == 0
        assert _views(cold, game) == _fresh_views(service, game)


def test_an_unsealed_snapshot_is_never_unpickled(tmp_path):
    store = FileStore(str(tmp_path))
    service = GameService(store)
    game = _play(service, "atkr", 2, seed=8, max_commands=60)
    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    store.save_snapshot(game, b"DSN1" + bytes(32) + pickle.dumps(Evil()))
    cold = GameService(FileStore(str(tmp_path)))
    assert cold.load(game).base == 0 and not marker.exists()
