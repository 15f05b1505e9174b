"""The transparency log against an operator who holds the store and its key (issue 20.3):
each test is one attack, and what catches it without a receipt or a seal.

The stream in every test: a creation of 2 events (records 1-2), then commands of 1, 2 and 1
events (records 3, 4-5, 6): leaves (game, 2), (game, 3), (game, 5), (game, 6).
"""

from __future__ import annotations

import os

import pytest

from engine.receipts import Signer
from engine.store import FileStore
from engine.tlog import log as tlog
from engine.tlog.note import BadNote

GAME = "atkr-threat1"


def _stream(tmp_path):
    store = FileStore(str(tmp_path / "store"))
    signer = Signer.of(store)  # made first: a store holding games never makes one (20.5)
    store.create("atkr", GAME, -1, [{"type": "a"}, {"type": "b"}], created=1)
    store.append(GAME, 2, 0, "c3", [{"type": "c"}])
    cut = os.path.getsize(store.path(GAME))  # the log ends after record 3 here
    store.append(GAME, 3, 0, "c4", [{"type": "d"}, {"type": "e"}])
    store.append(GAME, 5, 0, "c6", [{"type": "f"}])
    return store, signer, cut


def _cut(store, cut):
    with open(store.path(GAME), "r+b") as handle:
        handle.truncate(cut)


def test_a_sound_store_extends_its_checkpoint_and_has_no_findings(tmp_path):
    store, signer, _ = _stream(tmp_path)
    old = tlog.checkpoint(store, signer)
    store.append(GAME, 6, 0, "c7", [{"type": "g"}])
    new = tlog.checkpoint(store, signer)
    assert (old["size"], new["size"]) == (4, 5)
    proof = tlog.prove_consistency(store, 4, 5)
    heads = tlog.check_consistent(old["checkpoint"], new["checkpoint"], proof, new["key"])
    assert [h.size for h in heads] == [4, 5]
    report = tlog.audit(FileStore(store.root), old["checkpoint"], old["key"])
    assert report == {"leaves": 5, "games": 1, "findings": [], "extends": True}


def test_a_game_cut_back_is_named_at_the_first_record_cut(tmp_path):
    store, signer, cut = _stream(tmp_path)
    old = tlog.checkpoint(store, signer)
    _cut(store, cut)  # records 4-6 gone; the seal and receipts play no part
    report = tlog.audit(FileStore(store.root), old["checkpoint"], old["key"])
    assert report["extends"] is True  # the log itself was left alone
    assert [(f["game"], f["seq"]) for f in report["findings"]] == [(GAME, 4)]
    assert report["findings"][0]["reason"].startswith("cut: leaf 2 shows record 5")


def test_a_game_cut_and_extended_again_with_the_stores_own_key_is_named(tmp_path):
    store, signer, cut = _stream(tmp_path)
    old = tlog.checkpoint(store, signer)
    _cut(store, cut)
    again = FileStore(store.root)  # the operator, through the store, with its key
    again.append(GAME, 3, 0, "x4", [{"type": "other"}, {"type": "other"}, {"type": "other"}])
    new = tlog.checkpoint(again, Signer.of(again))
    # the log is append-only, so the new checkpoint does extend the old one ...
    tlog.check_consistent(old["checkpoint"], new["checkpoint"],
                          tlog.prove_consistency(again, 4, 5), old["key"])
    # ... but its old leaves name the fork: record 5 (leaf 2) is not what the game holds,
    # while record 3 (leaf 1) still is, so the game differs from record 4 on
    report = tlog.audit(again, old["checkpoint"], old["key"])
    assert [(f["game"], f["seq"]) for f in report["findings"]] == [(GAME, 4)]
    assert "changed or forked after record 3" in report["findings"][0]["reason"]


def test_a_log_rewritten_with_the_game_is_caught_by_the_earlier_checkpoint(tmp_path):
    store, signer, cut = _stream(tmp_path)
    old = tlog.checkpoint(store, signer)
    _cut(store, cut)
    with open(os.path.join(store.root, ".devil-tlog"), "r+b") as handle:
        lines = handle.read().split(b"\n")
        handle.seek(0)
        handle.truncate(len(lines[0]) + len(lines[1]) + 2)  # leaves (game, 2) and (game, 3)
    again = FileStore(store.root)
    again.append(GAME, 3, 0, "x4", [{"type": "o"}, {"type": "o"}])
    again.append(GAME, 5, 0, "x6", [{"type": "o"}])
    new = tlog.checkpoint(again, Signer.of(again))
    assert new["size"] == old["size"] == 4  # same size, signed by the same key
    with pytest.raises(BadNote, match="does not extend the one of 4 leaves"):
        tlog.check_consistent(old["checkpoint"], new["checkpoint"],
                              tlog.prove_consistency(again, 4, 4), old["key"])
    report = tlog.audit(again, old["checkpoint"], old["key"])
    assert report["extends"] is False and report["findings"] == []


def test_a_deleted_game_and_a_game_slipped_in_are_named(tmp_path):
    store, signer, _ = _stream(tmp_path)
    other = FileStore(str(tmp_path / "elsewhere"))
    other.create("atkr", "atkr-slipped", -1, [{"type": "a"}], created=1)
    os.link(other.path("atkr-slipped"), os.path.join(store.root, "atkr-slipped.devlog"))
    report = tlog.audit(FileStore(store.root))
    assert [(f["game"], f["seq"]) for f in report["findings"]] == [("atkr-slipped", 1)]
    os.remove(store.path(GAME))
    report = tlog.audit(FileStore(store.root))
    assert [(f["game"], f["seq"]) for f in report["findings"]] == [
        ("atkr-slipped", 1), (GAME, 2)]
    assert "cannot be read" in report["findings"][1]["reason"]


def test_a_proved_receipt_checks_offline_and_a_changed_proof_does_not(tmp_path):
    store, signer, _ = _stream(tmp_path)
    record = store.read(GAME).records[4]  # record 5: leaf 2
    receipt = signer.receipt(GAME, 5, record.link, "2026-01-01T00:00:00.000Z")
    proved = tlog.prove_receipt(store, signer, receipt)
    assert proved["tlog"]["index"] == 2 and len(proved["tlog"]["proof"]) == 2  # tree of 4
    public = bytes.fromhex(signer.public)
    assert "is leaf 2 of" in tlog.check_inclusion(proved, public)
    bad = {**proved, "tlog": {**proved["tlog"], "index": 3}}
    with pytest.raises(BadNote, match="does not hold"):
        tlog.check_inclusion(bad, public)
    with pytest.raises(BadNote, match="no signature"):
        tlog.check_inclusion(proved, bytes(32))
    with pytest.raises(tlog.LogRewritten, match="no leaf for record 4"):
        tlog.prove_receipt(store, signer, {**receipt, "seq": 4})


def test_records_appended_behind_the_stores_back_are_named(tmp_path):
    store, signer, _ = _stream(tmp_path)
    elsewhere = FileStore(str(tmp_path / "copy"))
    elsewhere.import_log(store.log_bytes(GAME))
    elsewhere.append(GAME, 6, 0, "sneak", [{"type": "x"}, {"type": "y"}])
    with open(store.path(GAME), "wb") as handle:  # records 7-8 added, no leaf for them
        handle.write(elsewhere.log_bytes(GAME))
    report = tlog.audit(FileStore(store.root))
    assert [(f["game"], f["seq"]) for f in report["findings"]] == [(GAME, 7)]
    assert report["findings"][0]["reason"].startswith("records 7 to 8 have no leaf")


def test_a_leaf_line_torn_by_a_crash_is_ignored_then_cut_by_the_next_write(tmp_path):
    store, signer, _ = _stream(tmp_path)
    path = os.path.join(store.root, ".devil-tlog")
    with open(path, "ab") as handle:
        handle.write(b"devil-leaf|1|atkr-threat1|7|00")  # no newline: a write cut short
    reopened = FileStore(store.root)
    assert reopened.tlog_size() == 4
    reopened.append(GAME, 6, 0, "c7", [{"type": "g"}])
    with open(path, "rb") as handle:
        lines = handle.read().split(b"\n")
    assert len(lines) == 6 and lines[-1] == b""
    assert lines[4].startswith(b"devil-leaf|1|atkr-threat1|7|")
    assert tlog.audit(reopened)["findings"] == []
