"""Fuzz: .devlog bytes (issue 4c).  Real logs mutated (bit flips, truncations, insertions,
deletions, repeated ranges, and event, record and header fields changed with the hash chain
recomputed by engine.log so that only the rules can catch them) are read by every reader:
engine.log.scan, engine.replay.verify_bytes, load_bytes and fold_bytes, and imported into a
FileStore and loaded by the service.  Only LogDamaged / UsageError (or success) may come out,
never another exception, never a hang; and no import changes another stored game."""

from __future__ import annotations

import glob
import os

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import DevilError, LogDamaged, UsageError
from engine.log import encode_header, encode_records, scan
from engine.replay import fold_bytes, load_bytes, verify_bytes
from engine.service import GameService
from engine.store import FileStore, MemoryStore

from .conftest import StoredGameChanged, case, fuzz_settings
from .strategies import INTEGERS, JSON, TEXT

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _short_games() -> list[bytes]:
    """Short logs of both kinds (a few commands), so most mutations land near something."""
    from tests.fuzz.test_commands import played

    out = []
    for kind, players, physical, steps in (("atkr", 2, False, 12), ("atkr", 3, True, 9),
                                           ("castle", 3, False, 10), ("castle", 4, False, 4)):
        service, game = played(kind, players, physical, 7, steps)
        out.append(service.store.log_bytes(game))
    return out


LOGS = _short_games() + [open(path, "rb").read() for path in sorted(
    glob.glob(os.path.join(ROOT, "replays", "*.devlog"))) if os.path.getsize(path) < 20_000]


def rechained(data: bytes, edit) -> bytes:
    """``data`` rebuilt by engine.log after ``edit(header, commands)`` changed its parts:
    ``header`` a dict (kind, game, created), ``commands`` a list of dicts (actor, cmd, ts,
    events); every link is recomputed."""
    result = scan(data)
    header = {"kind": result.header.kind, "game": result.header.game,
              "created": result.header.created}
    commands, current = [], None
    for record in result.records:
        if current is None:
            current = {"actor": record.actor, "cmd": record.cmd, "ts": record.ts, "events": []}
        current["events"].append(record.event)
        if record.left == 0:
            commands.append(current)
            current = None
    edit(header, commands)
    out = bytearray(encode_header(header["kind"], header["game"], header["created"]))
    link, seq = bytes(out[-8:]), 1
    for command in commands:
        if not command["events"]:
            continue
        data, links = encode_records(link, seq, command["actor"], command["cmd"], command["ts"],
                                     command["events"])
        out += data
        link, seq = links[-1], seq + len(command["events"])
    return bytes(out)


@st.composite
def field_edits(draw, data: bytes):
    """An edit of the parts of a log (for :func:`rechained`)."""
    what = draw(st.sampled_from(["event", "event", "event", "drop-field", "type", "record",
                                 "move", "drop", "header"]))
    count = len(scan(data).records)
    index = draw(st.integers(0, max(0, count - 1)))
    value = draw(st.one_of(JSON, INTEGERS, TEXT))
    choice = draw(st.integers(0, 1000))
    other = draw(st.sampled_from(["atkr", "castle", "zzz", "Atkr", ""]))

    def edit(header, commands):
        events = [(c, i) for c in commands for i in range(len(c["events"]))]
        if what == "header":
            key = ("kind", "game", "created")[choice % 3]
            header[key] = (other if key == "kind" else
                           f"{other}-{choice}" if key == "game" and choice % 2 else value)
            if key == "created" and type(value) is not int:
                header[key] = choice * 10**12
            return
        if not events:
            return
        command, at = events[index % len(events)]
        event = dict(command["events"][at])
        fields = sorted(event)
        if what == "event":
            event[fields[choice % len(fields)]] = value
        elif what == "drop-field":
            del event[fields[choice % len(fields)]]
        elif what == "type":
            event["type"] = other if choice % 2 else value
        elif what == "record":
            key = ("actor", "cmd", "ts")[choice % 3]
            command[key] = {"actor": choice % 12 - 2, "cmd": value if isinstance(value, str)
                            else None, "ts": choice * 1000}[key]
        elif what == "move":
            command["events"].insert(choice % (len(command["events"]) + 1),
                                     command["events"].pop(at))
            return
        elif what == "drop":
            del command["events"][at]
            return
        command["events"][at] = event

    return edit


def packed(value) -> bytes:
    """``value`` as msgpack (nil for what msgpack cannot write, such as 2**64)."""
    try:
        return msgpack.packb(value, use_bin_type=True)
    except (OverflowError, TypeError, ValueError):
        return b"\xc0"


@st.composite
def mutated_logs(draw):
    data = draw(st.sampled_from(LOGS))
    how = draw(st.sampled_from(["flip", "flips", "cut", "insert", "delete", "repeat", "zeros",
                                "field", "field", "field"]))
    size = len(data)
    at = draw(st.integers(0, size - 1))
    if how == "flip":
        return data[:at] + bytes([data[at] ^ (1 << draw(st.integers(0, 7)))]) + data[at + 1:]
    if how == "flips":
        out = bytearray(data)
        for _ in range(draw(st.integers(2, 8))):
            out[draw(st.integers(0, size - 1))] = draw(st.integers(0, 255))
        return bytes(out)
    if how == "cut":
        return data[:at]
    if how == "insert":
        return data[:at] + draw(st.one_of(st.binary(min_size=1, max_size=40), st.builds(
            packed, JSON))) + data[at:]
    if how == "delete":
        return data[:at] + data[at + draw(st.integers(1, 200)):]
    if how == "repeat":
        end = min(size, at + draw(st.integers(1, 400)))
        return data[:end] + data[at:end] + data[end:]
    if how == "zeros":
        return data[:at] + bytes(draw(st.integers(1, 600)))
    try:
        return rechained(data, draw(field_edits(data)))
    except (TypeError, ValueError, OverflowError):  # a value msgpack cannot write: skip
        return data


@pytest.fixture(scope="module")
def file_store(tmp_path_factory):
    """A FileStore holding one game that no import may change."""
    root = str(tmp_path_factory.mktemp("fuzz-store"))
    service = GameService(FileStore(root))
    game = service.create("atkr", {"players": ["Anna", "Ben"]}, seed=3).game
    return root, game, open(os.path.join(root, f"{game}.devlog"), "rb").read()


READERS = {"scan": scan, "verify_bytes": verify_bytes, "load_bytes": load_bytes,
           "fold_bytes": fold_bytes}


@given(data=mutated_logs())
@fuzz_settings()
def test_readers_answer_damage_or_a_log(data):
    for name, read in READERS.items():
        with case(f"devlog {name}"):
            try:
                read(data)
            except (LogDamaged, UsageError):
                pass


@given(data=mutated_logs())
@fuzz_settings(scale=0.5)
def test_an_import_is_refused_or_a_game_the_service_can_read(file_store, data):
    root, kept, kept_bytes = file_store
    with case("devlog import (FileStore)"):
        for store in (FileStore(root), MemoryStore()):
            try:  # as `devil import` does (client/cmd_store.py): verified, then imported
                checked = verify_bytes(data)
                if not checked.ok and not checked.torn:
                    continue
                game = store.import_log(data)
            except (LogDamaged, UsageError):
                continue
            try:
                service = GameService(store)
                service.load(game)
                service.view(game)
                service.stream(game)
            except DevilError:
                pass
            finally:
                if isinstance(store, FileStore):
                    for path in glob.glob(os.path.join(root, f"{game}.*")) + glob.glob(
                            os.path.join(root, f".{game}.*")):
                        os.remove(path)
        if open(os.path.join(root, f"{kept}.devlog"), "rb").read() != kept_bytes:
            raise StoredGameChanged(f"importing a mutated log changed {kept}")
