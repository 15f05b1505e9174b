"""Small defects of issue 20 found in review, each through the CLI on a real file store: a
file given to --history that is no key history is a usage error (exit 2, docs/commands.md's
exit codes: a bad input, not a failed check); a seal given to --receipt is refused naming
--seal; a witness asked about a log it does not pin says how to pin it; one leaf is "1 leaf".

The game is atkr, Anna and Ben, physical, ring 47 (tests/tlog/test_witness_cli_web.py): its
creation writes records 1 and 2, one leaf; the castle game is the guide's deal
(docs/examples/castle-three.json), Ann declaring for the order wrongly: record 5 ends it and
its seal names record 5 (tests/tlog/test_threats_keys.py)."""

from __future__ import annotations

import json


from tests.tlog.test_threats_keys import DEAL, _devil  # the CLI on tmp_path's store


def _atkr(devil) -> str:
    return devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                 "--physical", "--ring", 47).split("\n")[0].strip()


def test_a_history_file_that_is_no_key_history_is_a_usage_error(tmp_path):
    devil = _devil(tmp_path)
    game = _atkr(devil)
    log = tmp_path / "g.devlog"
    devil("export", game, "-o", log)
    key = devil("key").strip()
    old = tmp_path / "old.json"
    old.write_text(devil("checkpoint", "--json"))
    for name, text in [("map", '{"a": 1}'), ("list", "[1, 2]"), ("number", '{"history": 5}'),
                       ("text", "not json")]:
        bad = tmp_path / f"{name}.json"
        bad.write_text(text)
        out = devil("verify", log, "--key", key, "--receipt", 2, "--history", bad, code=2)
        assert f"--history {bad}: a key history is" in out or "is not JSON" in out, out
        assert not out.startswith(("OK", "FAILED"))  # refused before any check ran
        out = devil("verify", "--consistent", old, "--history", bad, code=2)
        assert "NOT consistent" not in out
    # a real history (`devil key --history --json`, no rotation) is taken
    good = tmp_path / "history.json"
    good.write_text(devil("key", "--history", "--json"))
    assert json.loads(good.read_text())["history"] == []
    assert devil("verify", log, "--key", key, "--receipt", 2, "--history", good
                 ).startswith("OK ")


def test_a_seal_given_as_a_receipt_is_refused_naming_seal(tmp_path):
    devil = _devil(tmp_path)
    game = devil("new", "castle", "--deal", DEAL, "--first", "Ann").splitlines()[0].strip()
    devil("declare", game, "--as", "Ann")
    log, seal = tmp_path / "c.devlog", tmp_path / "c.seal.json"
    devil("export", game, "-o", log, "--seal", seal)
    assert json.loads(seal.read_text())["seq"] == 5
    key = devil("key").strip()
    out = devil("verify", log, "--key", key, "--receipt", seal, code=2)
    assert 'is a seal ("seal": 2), not a receipt' in out and "--seal SFILE" in out
    assert "FAILED" not in out
    out = devil("prove", seal, code=2)
    assert "is a seal" in out
    # as --seal it holds: record 5 is the log's last
    out = devil("verify", log, "--key", key, "--seal", seal)
    assert out.startswith("OK ") and "seal: the final record 5 is the one sealed" in out


def test_a_witness_asked_about_a_log_it_does_not_pin_says_how_to_pin_it(tmp_path):
    devil = _devil(tmp_path)
    _atkr(devil)
    state = tmp_path / "w"
    devil("witness", "init", "--state", state, "--name", "w.example/1")
    first = tmp_path / "first.json"
    first.write_text(devil("checkpoint", "--json"))
    log_key = json.loads(first.read_text())["key"]
    out = devil("witness", "cosign", "--state", state, "--from", first, code=3)
    assert out.startswith("REFUSED (404): this witness does not witness the log devil.store/")
    assert "pin it with --log VKEY" in out and '"key" of `devil checkpoint --json`' in out
    assert json.loads(devil("witness", "status", "--state", state, "--json"))["logs"] == []
    out = devil("witness", "cosign", "--state", state, "--from", first, "--log", log_key)
    assert "OK: cosigned 1 leaf of devil.store/" in out


def test_one_leaf_is_a_leaf(tmp_path):
    devil = _devil(tmp_path)
    _atkr(devil)
    first = tmp_path / "first.json"
    first.write_text(devil("checkpoint", "--json"))
    assert json.loads(first.read_text())["size"] == 1
    out = devil("verify", "--split-view", first, first)
    assert out.startswith("OK: the same tree (1 leaf of devil.store/")
    out = devil("verify", "--consistent", first, first)
    assert "the checkpoint of 1 leaf extends the one of 1 leaf" in out
    assert "1 leaf of 1 game checked against their games" in out
