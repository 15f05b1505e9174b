"""The engine version in the log's header (docs/log-format.md): written for new games, absent
from logs written before (which still read and verify), and covered by the header's link."""

from __future__ import annotations

import pathlib

import msgpack
import pytest

import engine
from engine.errors import LogDamaged
from engine.log import encode_header, scan
from engine.replay import verify_bytes
from engine.service import GameService
from engine.store import MemoryStore

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_a_new_game_records_the_engine_version_in_its_header():
    service = GameService(MemoryStore())
    game = service.create("atkr", {"players": ["Anna", "Ben"]}, seed=3).game
    data = service.store.log_bytes(game)
    header = msgpack.Unpacker(raw=False)
    header.feed(data)
    keys = header.unpack()
    # the documented order: engine after created, the link last
    assert list(keys) == ["magic", "version", "kind", "game", "created", "engine", "link"]
    assert keys["engine"] == engine.__version__ == "0.1.0"
    assert scan(data).header.engine == "0.1.0"
    assert verify_bytes(data).ok


def test_a_log_written_before_the_version_was_recorded_reads_and_verifies():
    data = (ROOT / "replays" / "atkr-2p-random-seed102.devlog").read_bytes()
    result = scan(data)
    assert result.header.engine is None
    assert verify_bytes(data).ok and verify_bytes(data).finished


def test_the_header_link_covers_the_engine_version():
    data = encode_header("atkr", "atkr-vers01", 1_700_000_000_000, engine="0.1.0")
    edited = data.replace(b"0.1.0", b"0.1.1")
    assert edited != data
    with pytest.raises(LogDamaged, match="edited header") as caught:
        scan(edited)
    assert caught.value.seq == 0


@pytest.mark.parametrize("bad", ["", "x" * 65, "0.1\n0"])
def test_an_engine_version_that_is_not_one_is_damage_at_record_0(bad):
    data = encode_header("atkr", "atkr-vers02", 1_700_000_000_000, engine=bad)
    with pytest.raises(LogDamaged, match="engine version") as caught:
        scan(data)
    assert caught.value.seq == 0


def test_a_header_without_the_engine_is_the_old_bytes():
    old = encode_header("atkr", "atkr-vers03", 1_700_000_000_000, engine=None)
    assert b"engine" not in old and scan(old).header.engine is None
