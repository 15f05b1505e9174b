"""What only the file store has: a damaged end set aside (never deleted), private files.

Issue 9.1: zeroing the end of the last acknowledged record, or cutting a finished game's last
bytes, must never let a later writer delete what was there.
"""

from __future__ import annotations

import os
import stat

import pytest

from engine.errors import UsageError
from engine.service import GameService
from engine.store import FileStore


def _game(tmp_path):
    store = FileStore(str(tmp_path / "store"))
    service = GameService(store)
    game = service.create("atkr", {"players": ["Anna", "Ben"], "first": "Anna",
                                   "physical": True}).game
    service.submit(game, {"type": "bet", "player": "Anna", "amount": 60})
    return store, service, game


def test_a_zeroed_last_record_is_set_aside_by_the_next_append_never_deleted(tmp_path):
    store, service, game = _game(tmp_path)
    path = store.path(game)
    original = open(path, "rb").read()
    last = store.head(game)
    assert last.seq == 3  # Anna's bet, acknowledged
    damaged = original[:-9] + bytes(9)
    with open(path, "wb") as handle:
        handle.write(damaged)
    fresh = FileStore(store.root)
    # a reader cannot take the bet as a record: it is not folded, and it is reported
    assert fresh.head(game).seq == 2
    report = fresh.damage(game)
    assert len(report) == 1 and report[0]["file"] is None
    cut_at = report[0]["offset"]
    assert report[0]["size"] == len(damaged) - cut_at
    # the next writer (Ben's bet) sets the bytes aside before it appends
    GameService(fresh).submit(game, {"type": "bet", "player": "Ben", "amount": 0})
    asides = [n for n in os.listdir(store.root) if n.endswith(".aside")]
    assert len(asides) == 1 and f"-at-{cut_at}." in asides[0]
    kept = open(os.path.join(store.root, asides[0]), "rb").read()
    assert damaged[:cut_at] + kept == damaged  # nothing lost: log prefix + set-aside bytes
    assert stat.S_IMODE(os.stat(os.path.join(store.root, asides[0])).st_mode) == 0o600
    report = fresh.damage(game)
    assert [(r["file"], r["offset"], r["size"]) for r in report] == \
        [(asides[0], cut_at, len(damaged) - cut_at)]
    # every view mentions it until the referee acknowledges it
    for viewer in (None, 0, 1, -1):
        assert GameService(FileStore(store.root)).view(game, viewer)["damage"] == report
    entry = fresh.acknowledge_aside(game, asides[0], "referee Rita")
    assert entry["acknowledged"]["by"] == "referee Rita"
    assert fresh.damage(game) == []
    assert "damage" not in GameService(FileStore(store.root)).view(game)
    with pytest.raises(UsageError, match="not set aside"):
        fresh.acknowledge_aside(game, "nothing.aside", "x")


def test_a_cut_finished_game_keeps_its_cut_bytes_aside(tmp_path):
    store, service, game = _game(tmp_path)
    path = store.path(game)
    original = open(path, "rb").read()
    with open(path, "wb") as handle:
        handle.write(original[:-30])
    fresh = FileStore(store.root)
    before = fresh.head(game).seq
    fresh.append(game, before, -1, None, [])  # a writer that writes nothing still sets aside
    asides = [n for n in os.listdir(store.root) if n.endswith(".aside")]
    assert len(asides) == 1
    kept = open(os.path.join(store.root, asides[0]), "rb").read()
    assert open(path, "rb").read() + kept == original[:-30]


def test_a_new_store_is_private_to_its_owner(tmp_path):
    store, service, game = _game(tmp_path)
    assert stat.S_IMODE(os.stat(store.root).st_mode) == 0o700
    for name in os.listdir(store.root):
        assert stat.S_IMODE(os.stat(os.path.join(store.root, name)).st_mode) & 0o077 == 0, name
    assert store.warnings() == []
    os.chmod(store.root, 0o755)
    os.chmod(store.path(game), 0o644)
    warnings = store.warnings()
    assert len(warnings) == 2
    assert "open to other users (mode 0755" in warnings[0]
    assert f"{game}.devlog" in warnings[1]


def test_the_referee_lists_and_acknowledges_set_aside_bytes_from_the_cli(tmp_path):
    import json

    from click.testing import CliRunner

    from client.cli import cli

    store, service, game = _game(tmp_path)
    path = store.path(game)
    data = open(path, "rb").read()
    with open(path, "wb") as handle:
        handle.write(data[:-20])
    GameService(FileStore(store.root)).submit(game, {"type": "bet", "player": "Ben", "amount": 0})

    def devil(*args, code=0):
        result = CliRunner().invoke(cli, ["--store", store.root, *args], catch_exceptions=False)
        assert result.exit_code == code, result.output
        return result.stdout

    pieces = json.loads(devil("aside", game, "--json"))
    assert len(pieces) == 1 and pieces[0]["size"] == len(data) - 20 - pieces[0]["offset"]
    assert "damage" in json.loads(devil("show", game, "--json"))
    for command in (["show", game], ["show", game, "--as", "Ben"], ["log", game]):
        assert f"DAMAGE: {pieces[0]['size']} bytes from byte {pieces[0]['offset']}" in \
            devil(*command)
    assert devil("verify", game, code=3).startswith("FAILED")  # unacknowledged damage
    # the listing says so too, in text and JSON, until it is acknowledged
    assert f"{pieces[0]['size']} damaged bytes set aside" in devil("games")
    assert json.loads(devil("games", "--json"))[0]["damage"][0]["size"] == pieces[0]["size"]
    devil("aside", game, "--acknowledge", pieces[0]["file"], "--by", "Rita")
    assert "damaged bytes" not in devil("games")
    assert "damage" not in json.loads(devil("games", "--json"))[0]
    assert json.loads(devil("aside", game, "--json")) == []
    assert "damage" not in json.loads(devil("show", game, "--json"))
    assert "DAMAGE" not in devil("show", game) + devil("log", game)
    assert devil("verify", game).startswith("OK")


def test_verify_warns_about_a_store_others_may_read(tmp_path):
    from click.testing import CliRunner

    from client.cli import cli

    store, service, game = _game(tmp_path)
    os.chmod(store.root, 0o755)
    result = CliRunner().invoke(cli, ["--store", store.root, "verify", game],
                                catch_exceptions=False)
    assert result.exit_code == 0
    assert "warning: the store folder" in result.stderr and "chmod 700" in result.stderr


def test_a_reader_that_found_nothing_set_aside_sees_what_another_writer_sets_aside(tmp_path):
    """issue 21: damage() skips reading the absent set-aside document while the log is as it
    was when nothing was found; another store (another process) setting bytes aside always
    shortens the log, so the next damage() of the first store reports them."""
    store, service, game = _game(tmp_path)
    watcher = FileStore(store.root)
    assert watcher.damage(game) == [] and watcher.damage(game) == []  # the second: no read
    path = store.path(game)
    with open(path, "ab") as handle:  # a torn write: half a record
        handle.write(b"\x92\x01")
    torn = watcher.damage(game)
    assert [(r["file"], r["size"]) for r in torn] == [(None, 2)]  # still in the log
    other = FileStore(store.root)  # the next writer sets the two bytes aside
    GameService(other).submit(game, {"type": "bet", "player": "Ben", "amount": 0})
    asides = [n for n in os.listdir(store.root) if n.endswith(".aside")]
    assert len(asides) == 1
    assert [(r["file"], r["size"]) for r in watcher.damage(game)] == [(asides[0], 2)]
    other.acknowledge_aside(game, asides[0], "referee Rita")
    # acknowledged by another process: the log did not change, so the watcher may still show
    # it (never less than there is); its own store sees the acknowledgement at once
    assert other.damage(game) == []
    watcher.acknowledge_aside(game, asides[0], "referee Rita")
    assert watcher.damage(game) == []
