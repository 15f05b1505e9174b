"""Two rows of docs/trust.md's threat table through the CLI, with the exit codes the table
gives (the engine-level tests are tests/tlog/test_threats.py).

The game: atkr, Anna and Ben, physical, ring 47, Anna first.  Its creation writes records 1-2
(leaf 0), Anna's bet record 3 (leaf 1), Ben's bet records 4-5 (the round's bets are in, the
round's draw begins: leaf 2, Ben's receipt is for record 5).
"""

from __future__ import annotations

import json
import os

from click.testing import CliRunner

from client.cli import cli
from engine.store import FileStore
from tests.tlog.test_threats_keys import _devil  # the CLI on tmp_path's store


def _game_to_record_5(devil, tmp_path):
    """The game, the log's size after record 3, and the checkpoint seen after record 5."""
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                 "--physical", "--ring", 47).split("\n")[0].strip()
    devil("bet", game, 200, "--as", "Anna")
    cut = os.path.getsize(FileStore(str(tmp_path / "s")).path(game))
    devil("bet", game, 200, "--as", "Ben")
    seen = tmp_path / "seen.json"
    seen.write_text(devil("checkpoint", "--json"))
    assert json.loads(seen.read_text())["size"] == 3
    return game, cut, seen


def test_a_game_cut_and_extended_again_with_the_stores_own_key_fails_exit_3(tmp_path):
    devil = _devil(tmp_path)
    game, cut, seen = _game_to_record_5(devil, tmp_path)
    (receipt,) = [r for r in json.loads(devil("receipts", game, "--json")) if r["seq"] == 5]
    store = FileStore(str(tmp_path / "s"))
    with open(store.path(game), "r+b") as handle:
        handle.truncate(cut)                       # back to record 3 ...
    devil("bet", game, 100, "--as", "Ben")         # ... and another bet, through the store
    # the log still extends (it is append-only), but leaf 2 no longer matches the game
    out = devil("verify", "--consistent", seen, code=3)
    assert out.startswith("FAILED: the checkpoints are consistent, but the store's games no "
                          "longer match its log (1 finding)")
    assert f"{game} record 4: changed or forked after record 3: leaf 2 shows record 5" in out
    # Ben's receipt of record 5 names the change offline
    log = tmp_path / "g.devlog"
    devil("export", game, "-o", log)
    out = devil("verify", log, "--receipt", json.dumps(receipt), code=3)
    assert out.startswith(f"FAILED {log}: record 5: record 5's link is ")
    assert "the log was changed at or before that record" in out


def test_a_game_put_in_from_another_store_is_named_exit_3(tmp_path):
    devil = _devil(tmp_path)
    _, _, seen = _game_to_record_5(devil, tmp_path)
    other = CliRunner().invoke(cli, ["--store", str(tmp_path / "o"), "new", "atkr", "--player",
                                     "Xena", "--player", "Yan"])
    slipped = other.output.split("\n")[0].strip()
    data = (tmp_path / "o" / f"{slipped}.devlog").read_bytes()
    (tmp_path / "s" / f"{slipped}.devlog").write_bytes(data)
    out = devil("verify", "--consistent", seen, code=3)
    assert (f"{slipped} record 1: no leaf names it: written before the store kept a log, or "
            "put in the store behind its back") in out
