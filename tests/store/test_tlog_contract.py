"""The transparency-log part of the store contract (engine/store/tlog.py, engine.tlog.leaves):
every write adds one leaf, the game's head after it, before the write is acknowledged; leaves
are only ever added; another instance (another process) sees them.  PostgreSQL keeps no log
yet: its tests skip, saying so."""

from __future__ import annotations

import threading

import pytest

from engine.tlog import merkle
from engine.tlog.leaves import entry, parse

GAME = "atkr-tlogcon1"


def _need(store):
    if not hasattr(store, "tlog_hashes"):
        pytest.skip("this store keeps no transparency log yet (engine/tlog/log.py has_tlog)")


def test_every_write_adds_the_games_head_as_one_leaf(store):
    _need(store)
    first = store.create("atkr", GAME, -1, [{"type": "a"}, {"type": "b"}], created=1)
    appended = store.append(GAME, 2, 0, "c1", [{"type": "c"}, {"type": "d"}, {"type": "e"}])
    store.append(GAME, 5, 0, "c2", [])  # nothing written: no leaf
    assert store.tlog_size() == 2
    assert store.tlog_entries() == [entry(GAME, 2, first[-1].link),
                                    entry(GAME, 5, appended[-1].link)]
    assert parse(store.tlog_entries()[1]).seq == 5
    assert store.tlog_hashes() == [merkle.leaf_hash(e) for e in store.tlog_entries()]
    # an import is one write: one leaf, the imported game's head
    from engine.store import MemoryStore

    elsewhere = MemoryStore()
    made = elsewhere.create("atkr", "atkr-tlogcon2", -1, [{"type": "a"}] * 3, created=1)
    assert store.import_log(elsewhere.log_bytes("atkr-tlogcon2")) == "atkr-tlogcon2"
    assert store.tlog_entries()[2:] == [entry("atkr-tlogcon2", 3, made[-1].link)]


def test_a_refused_append_adds_no_leaf(store):
    _need(store)
    store.create("atkr", GAME, -1, [{"type": "a"}], created=1)
    with pytest.raises(Exception):
        store.append(GAME, 7, 0, "late", [{"type": "x"}])
    assert store.tlog_size() == 1


def test_another_instance_sees_the_leaves_and_many_writers_lose_none(kind, store):
    _need(store)
    games = [f"atkr-tlogw{i}x" for i in range(4)]
    for game in games:
        store.create("atkr", game, -1, [{"type": "a"}], created=1)

    def write(game):
        for n in range(10):
            store.append(game, n + 1, 0, f"c{n}", [{"type": "x"}])
    threads = [threading.Thread(target=write, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    other = kind.again(store)
    leaves = [parse(e) for e in other.tlog_entries()]
    assert len(leaves) == 4 + 40
    for game in games:  # each game's leaves in the order of its records, its head last
        seqs = [leaf.seq for leaf in leaves if leaf.game == game]
        assert seqs == list(range(1, 12))
        assert [leaf.link for leaf in leaves if leaf.game == game][-1] == other.head(game).link
