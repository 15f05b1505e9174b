"""The .devlog file: torn tails, damage detection, and concurrent appends (engine.log, store)."""

import os

import msgpack
import pytest

from tests.procs import context as writer_context

from engine.errors import ConcurrencyConflict, LogDamaged
from engine.log import LogWriter, encode_records, link_of, read_path, scan
from engine.service import GameService
from engine.store import FileStore


def make_log(path, commands=((0, "c1", 2), (1, None, 1), (0, "c3", 3)), created=None):
    """A log with one command per item ``(actor, command id, number of events)``.
    Returns the byte offset where each command's records start, and the file length."""
    writer = LogWriter.create(str(path), "atkr", "atkr-test01", created=created)
    starts = []
    for index, (actor, cmd, count) in enumerate(commands):
        starts.append(os.path.getsize(path))
        writer.append(actor, cmd, [{"type": "t", "i": index, "k": k} for k in range(count)], ts=5)
    os.close(writer.fd)
    return starts, os.path.getsize(path)


def record_spans(data):
    """(seq, start, end) of every object in a good log: the header is seq 0."""
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(data)
    spans, start = [], 0
    for seq, _ in enumerate(unpacker):
        spans.append((seq, start, unpacker.tell()))
        start = unpacker.tell()
    return spans


def test_a_clean_log_reads_back_in_order(tmp_path):
    path = tmp_path / "g.devlog"
    make_log(path)
    result = read_path(str(path))
    assert [(r.seq, r.actor, r.cmd, r.left) for r in result.records] == [
        (1, 0, "c1", 1), (2, 0, "c1", 0), (3, 1, None, 0), (4, 0, "c3", 2), (5, 0, "c3", 1),
        (6, 0, "c3", 0)]
    assert result.records[3].event == {"type": "t", "i": 2, "k": 0}
    assert result.torn == 0 and result.header.kind == "atkr"


def test_the_link_covers_the_previous_link_and_the_record(tmp_path):
    path = tmp_path / "g.devlog"
    make_log(path)
    data = path.read_bytes()
    spans = record_spans(data)
    previous = bytes(8)
    for seq, start, end in spans:
        assert data[end - 10:end - 8] == b"\xc4\x08"
        assert link_of(previous, data[start:end - 10]) == data[end - 8:end]
        previous = data[end - 8:end]


def test_torn_tail_is_cut_on_open_and_every_acknowledged_command_kept(tmp_path):
    path = tmp_path / "atkr-test01.devlog"
    starts, size = make_log(path)
    original = path.read_bytes()
    last_start = starts[-1]
    # a crash anywhere while the last command (3 records) was being written
    for cut in range(last_start + 1, size):
        path.write_bytes(original[:cut])
        store = FileStore(str(tmp_path))
        # the 2 acknowledged commands are read; the torn tail is cut by the next append
        assert [r.seq for r in store.read("atkr-test01").records] == [1, 2, 3]
        assert os.path.getsize(path) == cut
        store.append("atkr-test01", 3, 0, None, [{"type": "after"}])
        assert path.read_bytes()[:last_start] == original[:last_start]
        assert os.path.getsize(path) < size + 40
        assert [r.seq for r in read_path(str(path)).records] == [1, 2, 3, 4]


def test_a_reader_ignores_a_torn_tail_without_cutting_it(tmp_path):
    path = tmp_path / "g.devlog"
    starts, size = make_log(path)
    path.write_bytes(path.read_bytes()[:size - 4])
    assert [r.seq for r in read_path(str(path)).records] == [1, 2, 3]
    assert os.path.getsize(path) == size - 4


def log_ending_in(tmp_path, last_byte):
    """A made log (fixed ``created``) whose final link ends in ``last_byte``."""
    for created in range(1_700_000_000_000, 1_700_000_010_000):
        path = tmp_path / f"g{created}.devlog"
        make_log(path, created=created)
        data = path.read_bytes()
        if data[-1] == last_byte:
            return data
        path.unlink()
    raise AssertionError("no created time gives that last byte")  # 1 in 256 each: unreachable


@pytest.mark.parametrize("last_byte", [0x5A, 0x00], ids=["link-ends-5a", "link-ends-nul"])
def test_a_flipped_byte_anywhere_is_reported_at_its_record(tmp_path, last_byte):
    """A final link that ends in a NUL byte must not make damage in the last command look like
    a torn write followed by zero-fill (that would silently drop an acknowledged command)."""
    data = log_ending_in(tmp_path, last_byte)
    for seq, start, end in record_spans(data):
        for offset in range(start, end):
            for bit in (0x01, 0x80):
                damaged = bytearray(data)
                damaged[offset] ^= bit
                with pytest.raises(LogDamaged) as info:
                    scan(bytes(damaged))
                assert info.value.seq == seq, (offset, bit, info.value.reason)


def test_a_removed_record_and_a_reordered_pair_are_reported(tmp_path):
    path = tmp_path / "g.devlog"
    make_log(path)
    data = path.read_bytes()
    spans = record_spans(data)
    pieces = [data[s:e] for _, s, e in spans]
    removed = b"".join(pieces[:3] + pieces[4:])
    with pytest.raises(LogDamaged) as info:
        scan(removed)
    assert info.value.seq == 3
    swapped = b"".join(pieces[:2] + [pieces[3], pieces[2]] + pieces[4:])
    with pytest.raises(LogDamaged) as info:
        scan(swapped)
    assert info.value.seq == 2


def test_an_edited_record_rehashed_from_there_on_is_still_caught_by_the_next_link(tmp_path):
    """Changing record 2 and recomputing only its own link breaks record 3's link."""
    path = tmp_path / "g.devlog"
    make_log(path)
    data = path.read_bytes()
    spans = record_spans(data)
    (_, _, e1), (_, s2, e2) = spans[1], spans[2]
    previous = data[e1 - 8:e1]
    tampered = data[:s2] + encode_records(previous, 2, 0, "c1", 5,
                                          [{"type": "t", "i": 9, "k": 1}])[0] + data[e2:]
    with pytest.raises(LogDamaged) as info:
        scan(tampered)
    assert info.value.seq == 3


def test_stale_expected_version_is_refused(tmp_path):
    path = tmp_path / "atkr-test01.devlog"
    make_log(path)
    store = FileStore(str(tmp_path))
    with pytest.raises(ConcurrencyConflict) as info:
        store.append("atkr-test01", 5, 0, None, [{"type": "x"}])
    assert "version 6" in info.value.message and "version 5" in info.value.message
    store.append("atkr-test01", 6, 0, None, [{"type": "x"}])
    assert read_path(str(path)).last_seq == 7


def _append_many(root, worker, count):
    store = FileStore(root)
    for i in range(count):
        while True:
            try:
                store.append("atkr-test01", store.head("atkr-test01").seq, worker,
                             f"w{worker}-{i}",
                             [{"type": "x", "w": worker, "i": i, "k": k} for k in range(2)])
                break
            except ConcurrencyConflict:
                continue


def test_two_processes_appending_lose_and_duplicate_nothing(tmp_path):
    path = tmp_path / "atkr-test01.devlog"
    make_log(path, commands=())
    count = 150
    context = writer_context()
    procs = [context.Process(target=_append_many, args=(str(tmp_path), w, count)) for w in (0, 1)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    result = read_path(str(path))
    assert [r.seq for r in result.records] == list(range(1, 4 * count + 1))
    seen = [(r.event["w"], r.event["i"], r.event["k"]) for r in result.records]
    assert sorted(seen) == sorted((w, i, k) for w in (0, 1) for i in range(count) for k in (0, 1))
    # each command's two records are adjacent (a command is atomic)
    for first, second in zip(result.records[::2], result.records[1::2]):
        assert first.cmd == second.cmd and (first.left, second.left) == (1, 0)


def _bet_twice(root, game, name, amount):
    service = GameService(FileStore(root))
    for _ in range(3):  # the same command id three times: applied once
        service.submit(game, {"type": "bet", "player": name, "amount": amount},
                       command_id=f"bet-{name}")


def test_concurrent_service_processes_with_retries(tmp_path):
    service = GameService(FileStore(str(tmp_path)))
    names = ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn"]
    game = service.create("atkr", {"players": names, "first": "Anna"}, seed=1).game
    context = writer_context()
    procs = [context.Process(target=_bet_twice, args=(str(tmp_path), game, n, 10 * (i + 1)))
             for i, n in enumerate(names)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    loaded = GameService(FileStore(str(tmp_path))).load(game)
    bets = [e for e in loaded.events if e.TYPE == "bet_placed"]
    assert sorted((b.seat, b.amount) for b in bets) == [(i, 10 * (i + 1)) for i in range(6)]
    assert loaded.events[-1].TYPE == "bets_revealed"
    assert loaded.events[-1].bets == [10, 20, 30, 40, 50, 60]


def test_a_torn_write_followed_by_nul_bytes_is_a_torn_tail(tmp_path):
    """A crash can leave part of the last command and then zeros up to the block's end."""
    path = tmp_path / "atkr-test01.devlog"
    starts, size = make_log(path)
    original = path.read_bytes()
    for cut in range(starts[-1] + 1, size):
        path.write_bytes(original[:cut] + bytes(size - cut + 7))
        result = read_path(str(path))
        assert [r.seq for r in result.records] == [1, 2, 3]
        store = FileStore(str(tmp_path))
        assert [r.seq for r in store.read("atkr-test01").records] == [1, 2, 3]
        store.append("atkr-test01", 3, 0, None, [])  # an append cuts the torn tail first
        assert path.read_bytes() == original[:starts[-1]]
