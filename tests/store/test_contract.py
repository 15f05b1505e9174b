"""The EventStore contract (engine/store/protocol.py), run against every store (conftest.py).

What every store must guarantee: an append with an expected version is all or nothing and
refuses a stale version naming both; many writers lose and duplicate nothing; a command id is
used once; reads after a sequence number continue the chain; a waiter wakes on an append made
elsewhere; the bytes of a stream are the .devlog bytes, whichever store holds them.
"""

from __future__ import annotations

import threading
import time

import pytest

from engine.errors import ConcurrencyConflict, UnknownGame, UsageError
from engine.log import ZERO_LINK, link_of, scan
from engine.store import DuplicateCommand, EventStore, Head

GAME = "atkr-contract1"
CREATED = 1_700_000_000_000


def _new(store, game=GAME, events=2):
    return store.create("atkr", game, -1, [{"type": "setup", "k": k} for k in range(events)],
                        {"seed": 7, "salt": "ab"}, created=CREATED)


def test_every_store_is_an_event_store(store):
    assert isinstance(store, EventStore)


def test_create_then_read_gives_the_header_and_the_first_command(store):
    records = _new(store)
    batch = store.read(GAME)
    assert batch.header.kind == "atkr" and batch.header.game == GAME
    assert batch.header.created == CREATED
    assert [r.seq for r in batch.records] == [1, 2] == [r.seq for r in records]
    assert [r.left for r in batch.records] == [1, 0]  # one command: 1 more, then the last
    assert [r.event for r in batch.records] == [{"type": "setup", "k": 0},
                                                {"type": "setup", "k": 1}]
    assert batch.base == Head(0, batch.header.link)
    assert batch.head == Head(2, records[-1].link) == store.head(GAME)
    assert store.exists(GAME) and store.games() == [GAME]
    assert store.secret(GAME) == {"seed": 7, "salt": "ab"}


def test_creating_a_game_twice_is_refused_and_changes_nothing(store):
    _new(store)
    before = store.log_bytes(GAME)
    with pytest.raises(UsageError, match="exists already"):
        _new(store, events=3)
    assert store.log_bytes(GAME) == before


def test_the_links_form_the_chain_of_the_log_format(store):
    records = _new(store)
    store.append(GAME, 2, 0, "c1", [{"type": "bet", "amount": 10}])
    data = store.log_bytes(GAME)
    result = scan(data)
    assert [r.link for r in result.records] == [r.link for r in store.read(GAME).records]
    # the header's link covers the header's bytes from a zero link
    assert result.header.link == link_of(ZERO_LINK, data[:data.index(b"\xc4\x08")])
    assert records[0].link == result.records[0].link


def test_an_append_at_a_stale_version_is_refused_naming_both_versions(store):
    _new(store)
    store.append(GAME, 2, 0, "c1", [{"type": "bet", "amount": 10}])
    before = store.log_bytes(GAME)
    with pytest.raises(ConcurrencyConflict) as info:
        store.append(GAME, 2, 1, "c2", [{"type": "bet", "amount": 20}])
    assert "version 3" in info.value.message and "version 2" in info.value.message
    assert store.log_bytes(GAME) == before and store.head(GAME).seq == 3


def test_an_append_ahead_of_the_stream_is_refused(store):
    _new(store)
    with pytest.raises(ConcurrencyConflict):
        store.append(GAME, 5, 0, None, [{"type": "x"}])
    assert store.head(GAME).seq == 2


def test_a_command_id_is_used_once(store):
    _new(store)
    first = store.append(GAME, 2, 0, "retry-me", [{"type": "a"}, {"type": "b"}])
    assert [r.seq for r in first] == [3, 4] and [r.left for r in first] == [1, 0]
    with pytest.raises(DuplicateCommand):
        store.append(GAME, 4, 0, "retry-me", [{"type": "c"}])
    assert store.command(GAME, "retry-me") == first
    assert store.command(GAME, "never-used") is None
    assert store.head(GAME).seq == 4


def test_read_after_continues_the_chain(store):
    _new(store)
    for i in range(5):
        store.append(GAME, 2 + i, i % 2, f"c{i}", [{"type": "n", "i": i}])
    whole = store.read(GAME).records
    batch = store.read(GAME, after=4)
    assert [r.seq for r in batch.records] == [5, 6, 7]
    assert batch.base == Head(4, whole[3].link)
    assert batch.head == Head(7, whole[-1].link)
    at_head = store.read(GAME, after=7)
    assert at_head.records == [] and at_head.base == at_head.head == Head(7, whole[-1].link)
    beyond = store.read(GAME, after=9)
    assert beyond.records == [] and beyond.base is None


def test_another_instance_sees_appends_made_through_this_one(kind, store):
    _new(store)
    other = kind.again(store)
    assert other.head(GAME).seq == 2
    store.append(GAME, 2, 0, "c1", [{"type": "x"}])
    assert other.head(GAME).seq == 3
    other.append(GAME, 3, 1, "c2", [{"type": "y"}])
    assert [r.event["type"] for r in store.read(GAME, after=2).records] == ["x", "y"]


def test_ten_writers_of_a_hundred_commands_lose_and_duplicate_nothing(kind, store):
    _new(store)
    writers, commands = 10, 100
    errors = []

    def write(worker: int):
        mine = kind.again(store)
        try:
            for i in range(commands):
                while True:
                    try:
                        mine.append(GAME, mine.head(GAME).seq, worker, f"w{worker}-{i}",
                                    [{"type": "x", "w": worker, "i": i, "k": k} for k in range(2)])
                        break
                    except ConcurrencyConflict:
                        continue
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    records = kind.again(store).read(GAME).records
    assert len(records) == 2 + writers * commands * 2
    assert [r.seq for r in records] == list(range(1, len(records) + 1))
    seen = [(r.event["w"], r.event["i"], r.event["k"]) for r in records[2:]]
    assert sorted(seen) == [(w, i, k) for w in range(writers) for i in range(commands)
                            for k in range(2)]
    # a command's two records are never split by another command
    for first, second in zip(records[2::2], records[3::2]):
        assert first.cmd == second.cmd and (first.left, second.left) == (1, 0)
    # each writer's commands stay in the order it gave them
    for w in range(writers):
        order = [r.event["i"] for r in records[2::2] if r.event["w"] == w]
        assert order == list(range(commands))
    assert scan(kind.again(store).log_bytes(GAME)).last_seq == len(records)


def test_a_waiter_wakes_when_another_process_appends(kind, store):
    _new(store)
    writer = kind.append_elsewhere(store, GAME, 0.5)
    started = time.monotonic()
    head = store.wait(GAME, 2, timeout=30)
    waited = time.monotonic() - started
    writer.join()
    assert head.seq == 3
    assert 0.3 < waited < 10
    assert store.command(GAME, "elsewhere")[0].event == {"type": "from_afar"}


def test_a_waiter_gives_up_at_its_timeout(store):
    _new(store)
    started = time.monotonic()
    head = store.wait(GAME, 2, timeout=0.3)
    assert head.seq == 2 and 0.25 < time.monotonic() - started < 5
    assert store.wait(GAME, 1, timeout=10).seq == 2  # already past: no wait


def test_unknown_and_malformed_games(store):
    with pytest.raises(UnknownGame):
        store.read("atkr-nothere")
    with pytest.raises(UnknownGame):
        store.append("atkr-nothere", 0, 0, None, [{"type": "x"}])
    with pytest.raises(UsageError):
        store.read("../etc/passwd")
    assert not store.exists("../etc/passwd") and not store.exists("atkr-nothere")


def test_resolve_names_a_game_by_a_unique_part(store):
    _new(store, "atkr-k3f9qz")
    _new(store, "atkr-k3abcd")
    assert store.resolve("atkr-k3f9qz") == "atkr-k3f9qz"
    assert store.resolve("9qz") == "atkr-k3f9qz"
    with pytest.raises(UnknownGame, match="too short"):
        store.resolve("k3")
    with pytest.raises(UnknownGame, match="several"):
        store.resolve("atkr-k3")
    with pytest.raises(UnknownGame, match="no game"):
        store.resolve("zzzz")


def test_import_then_export_is_byte_identical_and_refuses_a_clash(kind, store, tmp_path):
    _new(store)
    store.append(GAME, 2, 0, "c1", [{"type": "bet", "amount": 10}])
    data = store.log_bytes(GAME)
    other = kind.make(tmp_path / "other")
    assert other.import_log(data, {"seed": 1, "salt": "x"}) == GAME
    assert other.log_bytes(GAME) == data
    assert other.secret(GAME) == {"seed": 1, "salt": "x"}
    with pytest.raises(UsageError, match="exists already"):
        other.import_log(data)
    with pytest.raises(UsageError, match="unfinished write"):
        kind.make(tmp_path / "third").import_log(data[:-3])


def test_the_same_commands_give_the_same_bytes_in_every_store(tmp_path):
    from tests.store.conftest import store_kinds

    outputs = []
    for index, kind in enumerate(store_kinds()):
        store = kind.make(tmp_path / str(index))
        _new(store)
        store.append(GAME, 2, 0, "c1", [{"type": "bet", "amount": 10}], ts=1234)
        store.append(GAME, 3, -1, None, [{"type": "a"}, {"type": "b"}], ts=2345)
        outputs.append(store.log_bytes(GAME))
    assert len(set(outputs)) == 1


def test_private_documents_and_snapshots(store):
    _new(store)
    assert store.private(GAME, "tokens") is None
    store.put_private(GAME, "tokens", {"tokens": {"h": 0}})
    assert store.private(GAME, "tokens") == {"tokens": {"h": 0}}
    with pytest.raises(UsageError):
        store.put_private(GAME, "tokens", {"tokens": {}})
    store.put_private(GAME, "tokens", {"tokens": {}}, replace=True)
    assert store.private(GAME, "tokens") == {"tokens": {}}
    assert store.snapshot(GAME) is None
    store.save_snapshot(GAME, b"one")
    store.save_snapshot(GAME, b"two")
    assert store.snapshot(GAME) == b"two"


def test_private_documents_given_at_creation_are_there_from_the_start(store):
    store.create("atkr", GAME, -1, [{"type": "setup"}], {"seed": 1, "salt": "a"},
                 created=CREATED, private={"tokens": {"tokens": {"abc": "referee"}}})
    assert store.private(GAME, "tokens") == {"tokens": {"abc": "referee"}}
    assert store.secret(GAME) == {"seed": 1, "salt": "a"}
    assert store.damage(GAME) == []


def test_a_store_document_is_kept_once_and_the_first_writer_wins(store, kind):
    """The store's own private documents (the signing key of engine.receipts): created once;
    a second writer (another node) gets the first one's document back, nothing replaced."""
    assert store.store_private("signing") is None
    kept = store.put_store_private("signing", {"private": "aa", "public": "bb"})
    assert kept == {"private": "aa", "public": "bb"}
    other = kind.again(store) if kind.shared else store
    assert other.put_store_private("signing", {"private": "cc", "public": "dd"}) == kept
    assert other.store_private("signing") == kept == store.store_private("signing")
    with pytest.raises(UsageError):
        store.store_private("not a name")
