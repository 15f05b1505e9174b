"""Keys are identities, and a receipt says whether its record still stands (issue 20, items 5
and 6): one test per threat of docs/trust.md ("Keys and standing"), through the CLI on a real
file store.

The castle game of every standing test is the guide's deal (docs/examples/castle-three.json:
Ann order, priest, bag-key and key-1; Ben and Cid brotherhood), a physical game: record 1 the
new game, 2 the deal, 3 "Turn 1: Ann's turn" (the creation's receipt is record 3).  Ann
declares for the order naming nobody: she holds 2 keys of the 3 the order needs (CASTLE-9.2),
so the declaration is wrong and the brotherhood wins: record 4 the declaration, record 5
"Game over. Winners: Ben, Cid" (its receipt is record 5).  The referee then corrects back to
record 3 (DESK-2; a physical game may be corrected after its end, DESK-3): record 6 voids
records 4 and 5.
"""

from __future__ import annotations

import json
import os
import pathlib

from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from client.cli import cli
from engine.log import scan
from engine.receipts import BadSignature, Signer, check_seal_of, check_signature
from engine.store import FileStore

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEAL = ROOT / "docs" / "examples" / "castle-three.json"


def _devil(tmp_path):
    runner = CliRunner()

    def run(*args, code=0):
        result = runner.invoke(cli, ["--store", str(tmp_path / "s"), *map(str, args)])
        assert result.exit_code == code, (args, result.output)
        return result.output
    return run


def _store(tmp_path) -> str:
    return str(tmp_path / "s")


def _castle_over(devil) -> str:
    """The castle game up to record 5, "Game over. Winners: Ben, Cid"; its id."""
    game = devil("new", "castle", "--deal", DEAL, "--first", "Ann").splitlines()[0].strip()
    out = devil("declare", game, "--as", "Ann")
    assert "Game over. Winners: Ben, Cid" in out
    return game


def _receipt(devil, game: str, seq: int) -> dict:
    (found,) = [r for r in json.loads(devil("receipts", game, "--json")) if r["seq"] == seq]
    return found


# -- item 6: standing, not just inclusion ---------------------------------------------------

def test_the_receipt_of_the_winners_says_voided_after_a_correction(tmp_path):
    devil = _devil(tmp_path)
    game = _castle_over(devil)
    devil("correct", game, "--to", 3, "--reason", "Ann misread her cards")
    log = tmp_path / "g.devlog"
    devil("export", game, "-o", log)
    key = devil("key").strip()
    # the record is still in the log (the receipt's inclusion holds) but no longer stands:
    # record 6 (the correction, by the referee) voided records 4 and 5
    out = devil("verify", log, "--key", key, "--receipt", 5, code=7)
    assert out.startswith(f"VOIDED {log}: castle game {game}")
    assert "receipt: record 5 with link" in out and "is in the log" in out
    assert ("standing: record 5 was VOIDED by record 6 (correction, DESK-2, at ") in out
    assert "by the referee, reason 'Ann misread her cards')" in out
    data = json.loads(devil("verify", log, "--key", key, "--receipt", 5, "--json", code=7))
    (standing,) = data["standing"]
    assert data["verdict"] == "voided" and data["ok"] is True
    assert {k: standing[k] for k in ("seq", "verdict", "by", "how", "rule", "actor", "reason",
                                     "dispute")} == {
        "seq": 5, "verdict": "voided", "by": 6, "how": "correction", "rule": "DESK-2",
        "actor": "the referee", "reason": "Ann misread her cards", "dispute": None}
    records = scan(log.read_bytes()).records
    assert records[5].event["type"] == "corrected"  # record 6, as worked out above
    # the creation's receipt (record 3) stands: a separate verdict, exit 0
    out = devil("verify", log, "--key", key, "--receipt", 3)
    assert out.startswith("OK ") and "standing: record 3 is IN FORCE" in out
    both = json.loads(devil("verify", log, "--receipt", 3, "--receipt", 5, "--json", code=7))
    assert [s["verdict"] for s in both["standing"]] == ["in force", "voided"]


def test_a_receipt_of_a_bet_taken_back_says_voided_by_the_takeback(tmp_path):
    """atkr, Anna, Ben, Cleo: records 1-2 the new game; Anna's bet 3, Ben's bet 4 (his
    receipt); Ben asks to take it back (5), Anna consents (6), Cleo consents (7) and the
    takeback is granted in Cleo's command (8, DESK-12.6): record 4 is void."""
    devil = _devil(tmp_path)
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--player", "Cleo",
                 "--first", "Anna").splitlines()[0].strip()
    devil("bet", game, 60, "--as", "Anna")
    devil("bet", game, 40, "--as", "Ben")
    devil("takeback", game, "--as", "Ben")
    devil("takeback", game, "--as", "Anna", "--consent")
    devil("takeback", game, "--as", "Cleo", "--consent")
    data = json.loads(devil("verify", game, "--receipt", 4, "--json", code=7))
    (standing,) = data["standing"]
    assert {k: standing[k] for k in ("by", "how", "rule", "actor", "reason")} == {
        "by": 8, "how": "takeback", "rule": "DESK-12.6", "actor": "Cleo",
        "reason": "taken back by Ben with every seat's consent (DESK-12.4)"}
    assert "standing: record 3 is IN FORCE" in devil("verify", game, "--receipt", 3)


def _castle_corrected_and_over_again(devil) -> str:
    """The game above, corrected (record 6), then Ann declares again, wrong again: record 7
    the declaration, record 8 "Game over": finished, sealed with records 4-5 voided."""
    game = _castle_over(devil)
    devil("correct", game, "--to", 3, "--reason", "Ann misread her cards")
    assert "Game over. Winners: Ben, Cid" in devil("declare", game, "--as", "Ann")
    return game


def test_a_seal_covers_the_voids_and_one_with_a_void_cut_or_added_fails(tmp_path):
    devil = _devil(tmp_path)
    game = _castle_corrected_and_over_again(devil)
    log, seal_file = tmp_path / "g.devlog", tmp_path / "g.devlog.seal.json"
    devil("export", game, "-o", log, "--seal", seal_file)
    seal = json.loads(seal_file.read_text())
    assert seal["seal"] == 2 and seal["seq"] == 8 and seal["voided"] == "4-5"
    key = devil("key").strip()
    # the signed line, checked by hand with the public key (docs/log-format.md)
    line = (f"devil-seal|2|{game}|8|{seal['link']}|{seal['time']}|4-5").encode()
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(key)).verify(bytes.fromhex(seal["sig"]),
                                                                  line)
    out = devil("verify", log, "--key", key)
    assert "seal: the final record 8 is the one sealed" in out
    assert "with the voided records 4-5" in out
    # the voids altered in the seal file: the signature no longer holds
    for voids in ("", "4", "4-6"):
        seal_file.write_text(json.dumps({**seal, "voided": voids}))
        out = devil("verify", log, "--key", key, code=3)
        assert "the seal's signature does not hold" in out
    # a seal signed by the store's own key over other voids (the operator): caught by the log
    records = scan(log.read_bytes()).records
    signer = Signer.of(FileStore(_store(tmp_path)))
    forged = signer.seal(game, 8, records[-1].link, seal["time"], [4])
    check_signature(forged, "seal", key)  # the signature holds ...
    try:  # ... but the log voids 4 and 5
        check_seal_of(records, game, True, forged)
        raise AssertionError("a seal naming other voids was accepted")
    except BadSignature as exc:
        assert "covers the voided records 4, the log voids 4-5" in exc.message
    # a seal of format 1 (before voids were signed) still verifies
    old = signer.seal(game, 8, records[-1].link, seal["time"])
    assert old["seal"] == 1 and "voided" not in old
    seal_file.write_text(json.dumps(old))
    assert "seal: the final record 8 is the one sealed" in devil("verify", log, "--key", key)


# -- item 5: keys are identities ------------------------------------------------------------

def test_a_deleted_key_is_an_error_that_says_how_to_rotate_not_a_new_key(tmp_path):
    devil = _devil(tmp_path)
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben").splitlines()[0].strip()
    key_file = tmp_path / "s" / ".devil-signing.json"
    before = devil("key").strip()
    log = (tmp_path / "s" / f"{game}.devlog").read_bytes()
    key_file.unlink()
    out = devil("key", code=3)
    assert f"the store's signing key ({key_file}) is missing, but the store holds" in out
    assert "devil key rotate --old-key COPY --reason TEXT" in out
    assert "devil key rotate --lost --reason TEXT" in out
    assert not key_file.exists()  # no new key was made
    out = devil("key", "--history", code=3)  # what there is to decide from, then the error
    assert out.startswith("key now: NONE (see below)\nno rotation: this is the store's first")
    assert "is missing, but the store holds" in out
    out = devil("bet", game, 60, "--as", "Anna", code=3)
    assert "nothing was recorded" in out and "Traceback" not in out
    assert (tmp_path / "s" / f"{game}.devlog").read_bytes() == log
    assert not key_file.exists() and before  # still no key: nothing was silently replaced


def test_a_swapped_key_file_is_refused(tmp_path):
    devil = _devil(tmp_path)
    devil("new", "atkr", "--player", "Anna", "--player", "Ben")
    old = devil("key").strip()
    key_file = tmp_path / "s" / ".devil-signing.json"
    other = Ed25519PrivateKey.generate()
    key_file.write_text(json.dumps({
        "version": 1, "algorithm": "ed25519", "private": other.private_bytes_raw().hex(),
        "public": other.public_key().public_bytes_raw().hex()}))
    out = devil("key", code=3)
    assert f"is not the store's key: the store's public key is {old[:16]}..." in out
    assert str(tmp_path / "s" / ".devil-publickey.json") in out


def test_devil_serve_does_not_start_without_its_key(tmp_path):
    devil = _devil(tmp_path)
    devil("new", "atkr", "--player", "Anna", "--player", "Ben")
    (tmp_path / "s" / ".devil-signing.json").unlink()
    out = devil("serve", "--port", 1, code=3)  # refused before it binds
    assert "is missing, but the store holds" in out


def test_an_unreadable_key_is_an_error_that_says_how_to_rotate(tmp_path):
    devil = _devil(tmp_path)
    devil("new", "atkr", "--player", "Anna", "--player", "Ben")
    key_file = tmp_path / "s" / ".devil-signing.json"
    key_file.unlink()
    key_file.mkdir()  # cannot be read as a file (root reads any mode, so not chmod)
    out = devil("key", code=3)
    assert f"the store's signing key ({key_file}) cannot be read" in out
    assert "devil key rotate --old-key COPY" in out


def test_an_empty_store_still_makes_its_first_key(tmp_path):
    devil = _devil(tmp_path)
    key = devil("key").strip()
    assert len(bytes.fromhex(key)) == 32
    assert devil("key", "--history") == f"key now: {key}\nno rotation: this is the store's " \
                                        "first key\n"


def test_a_rotation_is_signed_by_the_old_key_and_old_receipts_still_verify(tmp_path):
    devil = _devil(tmp_path)
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first",
                 "Anna").splitlines()[0].strip()
    # records 1-2 the new game (atkr, 2 players: its start and round 1); Anna's bet record 3:
    # its receipt is signed by the old key
    devil("bet", game, 60, "--as", "Anna")
    old = devil("key").strip()
    seen = tmp_path / "seen.json"
    seen.write_text(devil("checkpoint", "--json"))  # signed by the old key
    entry = json.loads(devil("key", "rotate", "--reason", "yearly rotation", "--json"))
    new = devil("key").strip()
    assert new != old and entry["old"] == old and entry["new"] == new
    assert entry["number"] == 1 and entry["reason"] == "yearly rotation"
    # both signatures over the documented line, checked by hand
    line = f"devil-key-rotation|1|{old}|{new}|{entry['time']}".encode()
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(old)).verify(
        bytes.fromhex(entry["old_sig"]), line)
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(new)).verify(
        bytes.fromhex(entry["new_sig"]), line)
    history = json.loads(devil("key", "--history", "--json"))
    assert history == {"public": new, "history": [entry]}
    text = devil("key", "--history")
    assert f"#1 {entry['time']}  {old[:16]}... -> {new[:16]}...  signed by the old key and " \
           "the new; reason: yearly rotation" in text
    devil("bet", game, 40, "--as", "Ben")  # records 4-5 (his bet, the bets shown): the new key
    assert _receipt(devil, game, 3)["key"] == old and _receipt(devil, game, 5)["key"] == new
    log = tmp_path / "g.devlog"
    devil("export", game, "-o", log)
    out = devil("verify", log, "--key", new, "--receipt", 3, "--receipt", 5)
    assert out.startswith("OK ")
    assert (f"receipt: signed by key {old[:16]}..., an earlier key of this store, rotated at "
            f"{entry['time']} (rotation 1, signed by the old key; reason: yearly rotation)") in out
    # an auditor away from the store pins the current key and is given the history
    hist = tmp_path / "keys.json"
    hist.write_text(json.dumps(history))
    elsewhere = CliRunner().invoke(cli, ["--store", str(tmp_path / "empty"), "verify", str(log),
                                         "--key", new, "--receipt", json.dumps(
                                             _receipt(devil, game, 3)), "--history", str(hist)])
    assert elsewhere.exit_code == 0 and "an earlier key of this store" in elsewhere.output
    assert not (tmp_path / "empty").exists()  # checking made no store and no key
    without = CliRunner().invoke(cli, ["--store", str(tmp_path / "empty"), "verify", str(log),
                                       "--key", new, "--receipt", json.dumps(
                                           _receipt(devil, game, 3))])
    assert without.exit_code == 3  # no history: another key than the one given
    assert f"the receipt was signed by key {old[:16]}..., not by the key given" in without.output
    # the checkpoint seen before the rotation: the store still extends it, across the keys
    out = devil("verify", "--consistent", seen)
    assert out.startswith("OK: consistent: the checkpoint of 3 leaves extends the one of 2")
    assert f"key: the old checkpoint is signed by key {old[:16]}..., an earlier key" in out
    assert devil("verify", "--consistent", seen, "--key", new).startswith("OK: consistent")


def test_a_copy_of_the_old_key_signs_the_rotation_when_the_stores_is_deleted(tmp_path):
    devil = _devil(tmp_path)
    devil("new", "atkr", "--player", "Anna", "--player", "Ben")
    key_file = tmp_path / "s" / ".devil-signing.json"
    copy = tmp_path / "backup.json"
    copy.write_bytes(key_file.read_bytes())
    old = devil("key").strip()
    key_file.unlink()
    # a copy of another key is refused, and nothing is recorded
    other = tmp_path / "other.json"
    other.write_text(Ed25519PrivateKey.generate().private_bytes_raw().hex())
    out = devil("key", "rotate", "--old-key", other, "--reason", "key file deleted", code=2)
    assert f"not the store's ({old[:16]}...): nothing was recorded" in out
    assert not (tmp_path / "s" / ".devil-rotationa.json").exists()
    entry = json.loads(devil("key", "rotate", "--old-key", copy, "--reason", "key file deleted",
                             "--json"))
    assert entry["old"] == old and entry["old_sig"] is not None
    assert devil("key").strip() == entry["new"]
    assert "signed by the old key and the new" in devil("key", "--history")


def test_a_lost_key_is_replaced_only_as_a_rotation_that_says_so(tmp_path):
    devil = _devil(tmp_path)
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben").splitlines()[0].strip()
    old = devil("key").strip()
    out = devil("key", "rotate", "--lost", "--reason", "x", code=2)  # the key is there
    assert "rotate without --lost" in out
    (tmp_path / "s" / ".devil-signing.json").unlink()
    entry = json.loads(devil("key", "rotate", "--lost", "--reason", "disk lost", "--json"))
    assert entry["old"] == old and entry["old_sig"] is None  # known by its public half
    assert "replaced WITHOUT the old key's signature" in devil("key", "--history")
    log = tmp_path / "g.devlog"
    devil("export", game, "-o", log)
    out = devil("verify", log, "--key", entry["new"], "--receipt", 2)  # the creation's
    assert "replaced WITHOUT the old key's signature: a referee decides" in out


def test_a_forged_rotation_is_refused(tmp_path):
    """The operator (or anyone who can write the folder) puts in a rotation to a key of his own
    without the old key: signed by a key that is not the old one, it is refused by every
    reader; a real rotation cannot be moved onto another key either."""
    devil = _devil(tmp_path)
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben").splitlines()[0].strip()
    old = devil("key").strip()
    folder = tmp_path / "s"
    mine = Ed25519PrivateKey.generate()
    mine_public = mine.public_key().public_bytes_raw().hex()
    time = "2026-12-02T18:30:00.000Z"
    line = f"devil-key-rotation|1|{old}|{mine_public}|{time}".encode()
    forged = {"rotation": 1, "number": 1, "old": old, "new": mine_public, "time": time,
              "reason": "routine", "old_sig": mine.sign(line).hex(),  # not the old key's
              "new_sig": mine.sign(line).hex()}
    (folder / ".devil-rotationa.json").write_text(json.dumps(forged))
    (folder / ".devil-signinga.json").write_text(json.dumps(
        {"version": 1, "algorithm": "ed25519", "private": mine.private_bytes_raw().hex(),
         "public": mine_public}))
    for args in (("key",), ("key", "--history"), ("bet", game, 10, "--as", "Anna")):
        out = devil(*args, code=3)
        assert "rotation 1's old-key signature does not hold" in out, args
    # offline: an auditor handed the forged history and the forger's key refuses the receipt
    log = tmp_path / "g.devlog"
    devil("export", game, "-o", log)
    hist = tmp_path / "forged.json"
    hist.write_text(json.dumps({"public": mine_public, "history": [forged]}))
    receipt = _receipt(devil, game, 2)
    out = CliRunner().invoke(cli, ["--store", str(tmp_path / "none"), "verify", str(log),
                                   "--key", mine_public, "--receipt", json.dumps(receipt),
                                   "--history", str(hist)])
    assert out.exit_code == 3 and "old-key signature does not hold" in out.output
    # a whole history of his own, from a key he made up (signed by it, so each record holds
    # alone): it does not start at the store's first key, kept apart (publickey)
    made_up = Ed25519PrivateKey.generate()
    made_up_public = made_up.public_key().public_bytes_raw().hex()
    line = f"devil-key-rotation|1|{made_up_public}|{mine_public}|{time}".encode()
    (folder / ".devil-rotationa.json").write_text(json.dumps({
        **forged, "old": made_up_public, "old_sig": made_up.sign(line).hex(),
        "new_sig": mine.sign(line).hex()}))
    out = devil("key", code=3)
    assert (f"rotation 1 replaces key {made_up_public[:16]}..., but the key then in use was "
            f"{old[:16]}...: the chain is broken") in out
    os.remove(folder / ".devil-rotationa.json")
    os.remove(folder / ".devil-signinga.json")
    assert devil("key").strip() == old  # the store's own key, untouched


def test_the_server_gives_its_key_history_to_anyone(tmp_path):
    from starlette.testclient import TestClient

    from engine.web import create_app

    devil = _devil(tmp_path)
    devil("new", "atkr", "--player", "Anna", "--player", "Ben")
    entry = json.loads(devil("key", "rotate", "--reason", "yearly", "--json"))
    with TestClient(create_app(FileStore(_store(tmp_path)))) as http:
        answer = http.get("/key/history")  # no token: the history proves itself
        assert answer.status_code == 200
        assert answer.json() == {"public": entry["new"], "history": [entry]}
        assert "/key/history" in http.get("/openapi.json").json()["paths"]


def test_a_seal_of_the_old_key_still_verifies_after_a_rotation(tmp_path):
    devil = _devil(tmp_path)
    game = _castle_over(devil)  # finished at record 5, sealed by the first key
    old = devil("key").strip()
    log = tmp_path / "g.devlog"
    devil("export", game, "-o", log, "--seal", tmp_path / "g.devlog.seal.json")
    entry = json.loads(devil("key", "rotate", "--reason", "yearly", "--json"))
    out = devil("verify", log, "--key", entry["new"])
    assert out.startswith("OK ") and "seal: the final record 5 is the one sealed" in out
    assert f"seal: signed by key {old[:16]}..., an earlier key of this store, rotated at " \
           f"{entry['time']} (rotation 1, signed by the old key; reason: yearly)" in out
