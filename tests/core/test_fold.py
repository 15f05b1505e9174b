"""engine.replay.fold_bytes, the one-pass fold for archives, agrees with scan + evolve."""

import pathlib

import pytest

from engine.errors import LogDamaged
from engine.log import scan
from engine.replay import fold_bytes, load_bytes

REPLAYS = pathlib.Path(__file__).resolve().parents[2] / "replays"


def fold_of(loaded, count):
    state = loaded.rules.initial()
    for event in loaded.events[:count]:
        state = loaded.rules.evolve(state, event)
    return state


@pytest.mark.parametrize("name", ["atkr-4p-cautious-seed104.devlog", "castle-3p.devlog"])
def test_fold_bytes_gives_the_state_of_folding_every_event(name):
    data = (REPLAYS / name).read_bytes()
    loaded = load_bytes(data)
    header, state, count = fold_bytes(data)
    assert header == loaded.header
    assert count == len(loaded.events) == loaded.records[-1].seq
    assert state == fold_of(loaded, count)


def test_fold_bytes_drops_a_zero_filled_torn_tail_as_scan_does():
    """A crash in the middle of the last command's write, then zero-fill to the block's end:
    the command was never acknowledged, so the fold stops before it."""
    data = (REPLAYS / "atkr-4p-cautious-seed104.devlog").read_bytes()
    loaded = load_bytes(data)
    # the last command's records run left = k, ..., 0 after the previous command's left = 0
    first_of_last = max(r.seq for r in loaded.records[:-1] if r.left == 0) + 1
    assert loaded.records[first_of_last - 1].left > 0  # the last command wrote several records
    for cut in range(len(data) - 40, len(data)):
        damaged = data[:cut] + bytes(64)
        assert len(scan(damaged).records) == first_of_last - 1
        header, state, count = fold_bytes(damaged)
        assert count == first_of_last - 1
        assert state == fold_of(loaded, count)


def test_fold_bytes_reports_damage_at_the_record_scan_names():
    data = bytearray((REPLAYS / "atkr-4p-cautious-seed104.devlog").read_bytes())
    middle = len(data) // 2
    data[middle] ^= 0x01
    with pytest.raises(LogDamaged) as by_scan:
        scan(bytes(data))
    with pytest.raises(LogDamaged) as by_fold:
        fold_bytes(bytes(data))
    assert by_fold.value.seq == by_scan.value.seq > 0
