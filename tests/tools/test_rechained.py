"""A re-chained log (a valid hash chain over an impossible event) is damage at its record, never
a crash (issue 9.4): a forger who recomputes every link still cannot make `verify` accept, or
crash on, an event no command can have caused."""

from __future__ import annotations

import copy
import os

import pytest

from engine.errors import LogDamaged
from engine.log import encode_header, encode_records, scan
from engine.replay import batches, open_log, verify_path
from engine.store import FileStore

REPLAYS = os.path.join(os.path.dirname(__file__), "..", "..", "replays")


def rechain(path: str, store_dir, doctor) -> str:
    """The game at ``path`` copied command by command into a new store (a valid chain), with
    ``doctor(index, event_map)`` changing event maps on the way; the new log's path."""
    log = open_log(path)
    store = FileStore(str(store_dir))
    records = log.records
    maps = [copy.deepcopy(r.event) for r in records]
    for index, event_map in enumerate(maps):
        doctor(index, event_map)
    spans = list(batches(records))
    start, end = spans[0]
    game = log.header.game
    store.create(log.header.kind, game, records[0].actor, maps[start:end], None)
    for start, end in spans[1:]:
        store.append(game, records[start - 1].seq, records[start].actor, records[start].cmd,
                     maps[start:end])
    return store.path(game)


def _first(log, type_name):
    return next(i for i, e in enumerate(log.events) if e.TYPE == type_name)


def test_a_bet_of_null_is_damage_at_its_record(tmp_path):
    source = os.path.join(REPLAYS, "atkr-4p-cautious-seed104.devlog")
    index = _first(open_log(source), "bet_placed")

    def doctor(i, m):
        if i == index:
            m["amount"] = None

    result = verify_path(rechain(source, tmp_path, doctor))
    assert not result.ok and result.first_bad_seq == index + 1
    assert "not possible" in result.reason


def test_a_castle_trade_to_seat_99_is_damage_at_its_record(tmp_path):
    source = os.path.join(REPLAYS, "castle-6p.devlog")
    log = open_log(source)
    index = next(i for i, e in enumerate(log.events) if hasattr(e, "receiver"))

    def doctor(i, m):
        if i == index:
            m["receiver"] = 99

    result = verify_path(rechain(source, tmp_path, doctor))
    assert not result.ok
    # the record itself, or the command it belongs to, is named
    command_start = next(s for s, e in batches(log.records) if s <= index < e)
    assert result.first_bad_seq in (index + 1, command_start + 1)


@pytest.mark.parametrize("created,words", [(2**63, "is not a time"), (-5, "is not a time")])
def test_a_header_time_out_of_range_is_damage_at_record_0(tmp_path, created, words):
    header = encode_header("atkr", "atkr-time01", created)
    path = tmp_path / "atkr-time01.devlog"
    path.write_bytes(header)
    result = verify_path(str(path))
    assert not result.ok and result.first_bad_seq == 0 and words in result.reason


def test_a_header_whose_game_id_is_of_another_kind_is_damage(tmp_path):
    header = encode_header("castle", "atkr-wrong1", 1_700_000_000_000)
    with pytest.raises(LogDamaged) as info:
        scan(header)
    assert info.value.seq == 0 and "does not belong to its kind" in info.value.reason


def test_a_record_time_out_of_range_is_damage_at_its_record():
    header = encode_header("atkr", "atkr-time02", 1_700_000_000_000)
    link = scan(header).header.link
    records, _ = encode_records(link, 1, -1, None, 2**62, [{"type": "x"}])
    with pytest.raises(LogDamaged) as info:
        scan(header + records)
    assert info.value.seq == 1 and "wrong type" in info.value.reason


def test_a_map_key_that_is_not_text_is_damage_at_its_record_everywhere(tmp_path):
    """A re-chained log whose event holds a map key that is not a string (msgpack allows it)
    is damage named at its record by every reader, exit 3, never an internal error (cattrs'
    error report could not sort such keys: exit 70, and `devil games` failed for the store)."""
    from click.testing import CliRunner

    from client.cli import cli

    source = os.path.join(REPLAYS, "castle-3p.devlog")
    log = open_log(source)
    index = len(log.records) - 1 - next(i for i, e in enumerate(reversed(log.events))
                                        if e.TYPE == "game_ended")

    def doctor(i, m):
        if i == index:
            m["reveal"] = {1: 2}

    path = rechain(source, tmp_path / "store", doctor)
    result = verify_path(path)
    assert not result.ok and result.first_bad_seq == index + 1
    assert "field name must be text" in result.reason
    runner = CliRunner()
    for args in (["verify", path], ["show", path], ["log", path], ["replay", path]):
        done = runner.invoke(cli, args)
        assert done.exit_code == 3, (args, done.output)
        assert f"record {index + 1}" in done.output + (done.stderr or ""), args
    listed = runner.invoke(cli, ["--store", str(tmp_path / "store"), "games", "--json"])
    assert listed.exit_code == 0 and "field name must be text" in listed.output
