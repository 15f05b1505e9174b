"""Authenticated tournament bundles (issue 20.7, TOUR-6.10 to 6.16, docs/trust.md "A bundle
against its operator"): each test is one attack of the issue, done as filed, and what refuses it.

The cup in every test (hand-worked, as tests/tournament/helpers.quick_atkr's docstring shows):
8 players at two tables of one round.  Table 1: A ends with 2000, B 900, D and C 600 each;
table 2: E 2000, F 1800, H 900, G 600.  Points 6,4,2,1,0 (TOUR-3.1, 3.2): A 6, B 4, C and D
1.5 each; E 6, F 4, H 2, G 0.  A and E are level on every tiebreak (opponents' points 4 + 1.5 +
1.5 = 7 and 4 + 2 + 1 = 7, money 2000, one win), so the seeded draw ranks them (E first).
E with a -20 penalty has -14 points: A, the only one left on 6, wins.

Before this work every attack verified (exit 0); the commit that adds this file says so.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest
from click.testing import CliRunner

from client.cli import cli
from engine.receipts import Signer
from engine.store import FileStore
from engine.tournament.bundle import write

from .helpers import fixed, organiser, quick_atkr

#: "verified, but the key is not pinned" (docs/commands.md, TOUR-6.13)
UNPINNED = 6


def _cup(root: str):
    d = organiser(FileStore(os.path.join(root, "store")))
    t = d.create(fixed(list("ABCDEFGH"), rounds=1, game="atkr", options={"physical": True}))
    d.pair(t, seating=[list("ABCD"), list("EFGH")], games=False)
    g1 = quick_atkr(d.service, list("ABCD"), {"A": 600, "B": 300, "C": 0, "D": 0})
    g2 = quick_atkr(d.service, list("EFGH"), {"E": 600, "F": 600, "G": 0, "H": 300})
    d.attach(t, g1)
    d.attach(t, g2)
    d.close_round(t)
    return d, t, g1, g2


@pytest.fixture(scope="module")
def cup(tmp_path_factory):
    """The cup and its bundle, made once: tests change copies only (``own_cup`` for the
    store)."""
    root = tmp_path_factory.mktemp("cup")
    d, t, g1, g2 = _cup(str(root))
    out = str(root / "cup")
    write(d.store, t, out)
    key = Signer.of(d.store).public
    return {"store": d.store.root, "t": t, "g1": g1, "g2": g2, "out": out, "key": key}


@pytest.fixture
def own_cup(cup, tmp_path):
    """A copy of the cup's store and bundle that a test may change."""
    shutil.copytree(cup["store"], tmp_path / "store")
    shutil.copytree(cup["out"], tmp_path / "cup")
    shutil.copy(cup["out"] + ".zip", tmp_path / "cup.zip")
    store = str(tmp_path / "store")
    return {**cup, "store": store, "out": str(tmp_path / "cup"),
            "organiser": organiser(FileStore(store))}


def run(*args, code: int | None = None):
    got = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in got.output and "internal error" not in got.output, got.output
    if code is not None:
        assert got.exit_code == code, got.output
    return got


def _manifest(folder: str) -> dict:
    with open(os.path.join(folder, "manifest.json")) as handle:
        return json.load(handle)


def _reman(src: str, dst: str, edit) -> str:
    shutil.copytree(src, dst)
    manifest = _manifest(dst)
    edit(manifest)
    with open(os.path.join(dst, "manifest.json"), "w") as handle:
        json.dump(manifest, handle)
    return dst


# -- the pin ---------------------------------------------------------------------------------

def test_the_stream_is_sealed_when_the_tournament_finishes(cup):
    """8 records: tournament_created, round_paired, game_attached and result_recorded for each
    table, round_closed, tournament_finished; the last one sealed by the store (TOUR-6.10)."""
    seal = FileStore(cup["store"]).private(cup["t"], "seal")
    assert (seal["game"], seal["seq"], seal["key"]) == (cup["t"], 8, cup["key"])
    stream = _manifest(cup["out"])["logs"][0]
    assert stream["role"] == "tournament" and stream["seal"] == seal and stream["seq"] == 8


def test_pinned_to_the_stores_key_a_bundle_verifies_exit_0(cup, tmp_path):
    out = run("tournament", "verify", cup["out"], "--key", cup["key"], code=0).output
    assert f"ok: pinned: every seal and the checkpoint are signed by key {cup['key']}" in out
    assert out.endswith(f"verified: {cup['t']}\n")
    # the key as the C2SP verifier key `devil checkpoint --json` prints, and from a file
    checkpoint = json.loads(run("--store", cup["store"], "checkpoint", "--json",
                                code=0).output)
    run("tournament", "verify", cup["out"] + ".zip", "--key", checkpoint["key"], code=0)
    keyfile = tmp_path / "key.txt"
    keyfile.write_text(cup["key"] + "\n")
    data = json.loads(run("tournament", "verify", cup["out"], "--key", keyfile, "--json",
                          code=0).output)
    assert (data["ok"], data["pinned"], data["key"], data["version"]) == (
        True, True, cup["key"], 2)
    # files holding `devil key --json` or `devil checkpoint --json` output
    for name, args in (("key.json", ("key", "--json")), ("seen.json", ("checkpoint", "--json"))):
        held = tmp_path / name
        held.write_text(run("--store", cup["store"], *args, code=0).output)
        run("tournament", "verify", cup["out"], "--key", held, code=0)


def test_without_key_it_checks_integrity_and_says_the_key_is_not_pinned_exit_6(cup):
    got = run("tournament", "verify", cup["out"], code=UNPINNED)
    assert (f"key {cup['key']} found in the bundle is NOT pinned: pass --key to check who "
            "signed it") in got.output
    data = json.loads(run("tournament", "verify", cup["out"], "--json", code=UNPINNED).output)
    assert (data["ok"], data["pinned"], data["key"]) == (True, False, cup["key"])


def test_a_tournament_in_the_store_is_pinned_to_the_stores_own_key(cup):
    run("--store", cup["store"], "tournament", "verify", cup["t"], code=0)


def test_a_malformed_key_is_a_usage_error(cup):
    got = run("tournament", "verify", cup["out"], "--key", "not-a-key", code=2)
    assert got.output.startswith("error: TOUR-6.12:")


# -- the attacks of issue 20 -----------------------------------------------------------------

def _fresh_signer() -> Signer:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Signer(Ed25519PrivateKey.generate().private_bytes_raw().hex())


def _resign(manifest: dict, signer: Signer, checkpoint: bool) -> None:
    """Every seal signed again by ``signer``, its key in the manifest; with ``checkpoint``
    the checkpoint too (the attacker holds everything but the store's key)."""
    for entry in manifest["logs"]:
        seal = entry.get("seal")
        if seal is not None:
            entry["seal"] = signer.seal(seal["game"], seal["seq"], bytes.fromhex(seal["link"]),
                                        seal["time"])
    manifest["key"] = signer.public
    if checkpoint and "tlog" in manifest:
        from engine.tlog.note import split_note, verifier_key

        text, _ = split_note(manifest["tlog"]["checkpoint"])
        origin = text.split("\n")[0]
        manifest["tlog"]["checkpoint"] = signer.note(text, origin)
        manifest["tlog"]["key"] = verifier_key(origin, bytes.fromhex(signer.public))


def test_every_seal_resigned_with_a_fresh_key_put_in_the_manifest(cup, tmp_path):
    fresh = _fresh_signer()
    forged = _reman(cup["out"], str(tmp_path / "forged"), lambda m: _resign(m, fresh, False))
    # the checkpoint is still the store's: the manifest's key did not sign it (TOUR-6.11)
    got = run("tournament", "verify", forged, code=3)
    assert "FAILED: TOUR-6.11: the checkpoint (manifest field tlog.checkpoint) is not signed " \
           f"by key {fresh.public}" in got.output
    # the whole bundle re-signed, the checkpoint too: it holds together, so without a pin it
    # says whose key it found and that nobody vouched for it (exit 6, never 0) ...
    whole = _reman(cup["out"], str(tmp_path / "whole"), lambda m: _resign(m, fresh, True))
    got = run("tournament", "verify", whole, code=UNPINNED)
    assert f"key {fresh.public} found in the bundle is NOT pinned" in got.output
    # ... and pinned to the store's key it fails, naming every game and the stream
    got = run("tournament", "verify", whole, "--key", cup["key"], code=3)
    assert (f"FAILED: TOUR-6.11: manifest field key is {fresh.public}, not the pinned key "
            f"{cup['key']}") in got.output
    for game, label in ((cup["g1"], "round 1, table 1"), (cup["g2"], "round 1, table 2")):
        assert (f"FAILED: TOUR-6.11: game {game} ({label}): sealed by key {fresh.public}, "
                "not the pinned key") in got.output
    assert (f"FAILED: TOUR-6.11: the tournament stream {cup['t']}: sealed by key "
            f"{fresh.public}, not the pinned key") in got.output
    assert "FAILED: TOUR-6.11: the checkpoint (manifest field tlog.checkpoint) is not signed " \
           f"by key {cup['key']}" in got.output


def test_a_tournament_simulated_in_an_unrelated_store(cup, tmp_path):
    other = str(tmp_path / "other")
    report = run("--store", other, "tournament", "simulate", "--game", "atkr", "--players", "3",
                 "--rounds", "1", "--table-size", "3-3", "--seed", "5", "--json", code=0)
    t = json.loads(report.output.strip().splitlines()[-1])["tournament"]
    run("--store", other, "tournament", "bundle", t, tmp_path / "sim", code=0)
    run("tournament", "verify", tmp_path / "sim", code=UNPINNED)  # it holds together ...
    got = run("tournament", "verify", tmp_path / "sim", "--key", cup["key"], code=3)
    other_key = Signer.of(FileStore(other)).public
    assert f"manifest field key is {other_key}, not the pinned key {cup['key']}" in got.output
    assert f"the tournament stream {t}: sealed by key {other_key}, not the pinned key" \
        in got.output


def test_a_game_not_in_the_stores_log_is_named(cup, tmp_path):
    """A game's head that is not the leaf its proof claims (a log from another store, put in
    with this store's seal, or a proof borrowed from another game) is named (TOUR-6.14)."""
    def borrow(manifest):
        games = [e for e in manifest["logs"] if e["role"] == "game"]
        games[0]["tlog"] = dict(games[1]["tlog"])
    forged = _reman(cup["out"], str(tmp_path / "forged"), borrow)
    got = run("tournament", "verify", forged, "--key", cup["key"], code=3)
    assert (f"FAILED: TOUR-6.14: game {cup['g1']} (round 1, table 1) is not in the store's "
            "log: its head") in got.output
    assert cup["g2"] + " (round 1, table 2) is not in" not in got.output


def _offset_after(data: bytes, seq: int) -> int:
    import msgpack

    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(data)
    unpacker.unpack()
    for _ in range(seq):
        unpacker.unpack()
    return unpacker.tell()


def test_the_stream_cut_before_the_last_close_round_and_closed_again(own_cup, tmp_path):
    """The operator cuts the stream before the last close-round (records 7 and 8:
    round_closed, tournament_finished), adds a -20 penalty for the leader E and closes again,
    through the store, so the new end is sealed and in the log with the store's own key."""
    t, store = own_cup["t"], FileStore(own_cup["store"])
    assert _manifest(own_cup["out"])["standings"][0]["player"] == "E"
    path = store.path(t)
    with open(path, "rb") as handle:
        data = handle.read()
    with open(path, "r+b") as handle:
        handle.truncate(_offset_after(data, 6))
    d = organiser(FileStore(own_cup["store"]))
    d.adjust(t, "E", "-20", "late")
    d.close_round(t)
    forged = str(tmp_path / "forged")
    write(d.store, t, forged)
    assert _manifest(forged)["standings"][0]["player"] == "A"  # another winner
    # the bundle alone holds together: every seal and proof is the store's own ...
    run("tournament", "verify", forged, "--key", own_cup["key"], code=0)
    # ... but whoever kept the first bundle holds the store's signed word for the old end
    got = run("--store", own_cup["store"], "tournament", "verify", forged, "--key",
              own_cup["key"], "--checkpoint", own_cup["out"], code=3)
    assert (f"FAILED: TOUR-6.15: the tournament stream {t} was cut and written again after "
            "record 6: the checkpoint kept shows record 8 with link") in got.output
    assert "ok: TOUR-6.15: the checkpoint of" in got.output  # the log itself: append-only
    data = json.loads(run("--store", own_cup["store"], "tournament", "verify", forged, "--key",
                          own_cup["key"], "--checkpoint", own_cup["out"] + ".zip", "--json",
                          code=3).output)
    assert data["ok"] is False and data["pinned"] is True
    # a bare checkpoint kept from then: the store's own leaves name the old end
    seen = tmp_path / "seen.checkpoint"
    seen.write_text(_manifest(own_cup["out"])["tlog"]["checkpoint"])
    got = run("--store", own_cup["store"], "tournament", "verify", forged, "--key",
              own_cup["key"], "--checkpoint", seen, code=3)
    assert (f"FAILED: TOUR-6.15: the tournament stream {t} was cut and written again after "
            "record 6: leaf ") in got.output and "of the store's log shows record 8" in got.output


def test_an_earlier_checkpoint_the_bundle_extends_holds(own_cup, tmp_path):
    seen = tmp_path / "seen.json"
    seen.write_text(run("--store", own_cup["store"], "checkpoint", "--json", code=0).output)
    d = own_cup["organiser"]
    quick_atkr(d.service, list("ABCD"), {"A": 600, "B": 300, "C": 0, "D": 0})  # the log grows
    later = str(tmp_path / "later")
    write(d.store, own_cup["t"], later)
    got = run("--store", own_cup["store"], "tournament", "verify", later, "--key",
              own_cup["key"], "--checkpoint", seen, code=0)
    assert "ok: TOUR-6.15: the checkpoint of" in got.output
    assert "every leaf of the bundle's logs is a record of them" in got.output
    # a checkpoint of a log rewritten (leaves cut back and written again) does not extend it
    with open(os.path.join(own_cup["store"], ".devil-tlog"), "rb") as handle:
        lines = handle.read().splitlines(keepends=True)
    bad = tmp_path / "bad-store"
    shutil.copytree(own_cup["store"], bad)
    with open(bad / ".devil-tlog", "wb") as handle:
        handle.write(b"".join(lines[:-1]) + b"devil-leaf|1|atkr-zzzz99|1|0011223344556677\n"
                     + lines[-1])
    got = run("--store", bad, "tournament", "verify", later, "--key", own_cup["key"],
              "--checkpoint", seen, code=3)
    assert "FAILED: TOUR-6.15: the bundle's checkpoint of" in got.output
    assert "does not extend the kept one of" in got.output
    # another store is not asked for the proof of this log
    elsewhere = tmp_path / "elsewhere"
    FileStore(str(elsewhere)).create("atkr", "atkr-else01", -1, [{"type": "a"}], created=1)
    got = run("--store", elsewhere, "tournament", "verify", later, "--key", own_cup["key"],
              "--checkpoint", seen, code=3)
    assert "could not be fetched" in got.output and "it keeps no log, not devil.store/" \
        in got.output


def test_a_version_1_bundle_kept_is_no_checkpoint(cup, tmp_path):
    def downgrade(manifest):
        manifest["version"] = 1
        manifest.pop("tlog")
    old = _reman(cup["out"], str(tmp_path / "v1"), downgrade)
    got = run("--store", cup["store"], "tournament", "verify", cup["out"], "--checkpoint", old,
              code=2)
    assert got.output.startswith("error: TOUR-6.15: ") and "holds no checkpoint" in got.output
    got = run("tournament", "verify", cup["out"], "--checkpoint", tmp_path / "nosuch.json",
              code=2)
    assert got.output == (f"error: TOUR-6.15: --checkpoint {tmp_path / 'nosuch.json'}: no such "
                          "file, bundle or checkpoint\n")


def test_the_stores_key_replaced(own_cup, tmp_path):
    """The operator moves the signing key aside: the store no longer makes a new one silently
    (issue 20.5: SigningKeyDamaged); replaced on purpose without the old key (`devil key rotate
    --lost`), every bundle after it is signed by a key the readers did not pin (docs/trust.md)."""
    from engine.receipts import SigningKeyDamaged

    os.remove(os.path.join(own_cup["store"], ".devil-signing.json"))
    store = FileStore(own_cup["store"])
    with pytest.raises(SigningKeyDamaged, match="rotate"):
        Signer.of(store)
    run("--store", own_cup["store"], "key", "rotate", "--lost", "--reason", "the key was lost",
        code=0)
    store = FileStore(own_cup["store"])
    fresh = Signer.of(store).public
    assert fresh != own_cup["key"]
    write(store, own_cup["t"], str(tmp_path / "after"))
    got = run("tournament", "verify", tmp_path / "after", "--key", own_cup["key"], code=3)
    assert f"manifest field key is {fresh}, not the pinned key {own_cup['key']}" in got.output
    # the seals the store kept are still the old key's and hold; its checkpoint is the new's
    assert "FAILED: TOUR-6.11: the checkpoint (manifest field tlog.checkpoint) is not signed " \
           f"by key {own_cup['key']} (pinned)" in got.output
    assert "sealed by key" not in got.output


def test_key_deleted_and_every_seal_nulled(cup, tmp_path):
    def strip(manifest):
        del manifest["key"]
        for entry in manifest["logs"]:
            entry["seal"] = None
    forged = _reman(cup["out"], str(tmp_path / "forged"), strip)
    got = run("tournament", "verify", forged, code=3)
    assert "FAILED: TOUR-6.11: manifest field key is missing" in got.output
    got = run("tournament", "verify", forged, "--key", cup["key"], code=3)
    assert (f"FAILED: TOUR-6.11: game {cup['g1']} (round 1, table 1): manifest field seal is "
            "null for a finished game") in got.output
    assert (f"FAILED: TOUR-6.11: the tournament stream {cup['t']}: manifest field seal is "
            "null") in got.output


@pytest.mark.parametrize("value", [5, None, "", "ab" * 31, "zz" * 32, ["ab" * 32]])
def test_a_key_that_is_not_64_hex_digits_fails_naming_the_field(cup, tmp_path, value):
    def set_key(manifest):
        manifest["key"] = value
    forged = _reman(cup["out"], str(tmp_path / "forged"), set_key)
    got = run("tournament", "verify", forged, code=3)
    assert "FAILED: TOUR-6.11: manifest field key is not 64 hex digits" in got.output


def test_a_version_1_bundle_is_read_and_reported_unauthenticated(cup, tmp_path):
    def downgrade(manifest):
        manifest["version"] = 1
        manifest.pop("tlog")
        for entry in manifest["logs"]:
            entry.pop("tlog")
            if entry["role"] == "tournament":
                entry.pop("seal")
    old = _reman(cup["out"], str(tmp_path / "v1"), downgrade)
    got = run("tournament", "verify", old, "--key", cup["key"], code=UNPINNED)
    assert "version 1: unauthenticated" in got.output
    assert got.output.endswith(f"verified, NOT authenticated (version 1): {cup['t']}\n")
    # downgraded with its key and seals stripped: pinned, the finished games' seals are missed
    def strip(manifest):
        downgrade(manifest)
        del manifest["key"]
        for entry in manifest["logs"]:
            entry["seal"] = None
    got = run("tournament", "verify", _reman(cup["out"], str(tmp_path / "v1s"), strip),
              "--key", cup["key"], code=3)
    assert "has no seal" in got.output


# -- devil verify of one game ---------------------------------------------------------------

def test_devil_verify_of_a_game_pinned_to_another_key_fails(cup, tmp_path):
    g1 = cup["g1"]
    log = tmp_path / "g1.devlog"
    run("--store", cup["store"], "export", g1, "-o", log, "--seal", str(log) + ".seal.json",
        code=0)
    got = run("verify", log, code=0)  # the seal beside it, checked by the key it names
    assert (f"key {cup['key']} found in the seal is NOT pinned: pass --key to check who signed "
            "it") in got.output
    run("verify", log, "--key", cup["key"], code=0)
    got = run("verify", log, "--key", _fresh_signer().public, code=3)
    assert "not by the key given" in got.output


def test_an_unfinished_tournament_verifies_pinned(tmp_path):
    """Round 1 open: table 1's game played out and its result recorded (stream records 1 to 4:
    created, paired, attached, result), table 2 without a game yet.  The stream is sealed at
    its head as of the bundle (TOUR-6.10) without keeping that seal: the tournament goes on."""
    d = organiser(FileStore(str(tmp_path / "store")))
    t = d.create(fixed(list("ABCDEFGH"), rounds=1, game="atkr", options={"physical": True}))
    d.pair(t, seating=[list("ABCD"), list("EFGH")], games=False)
    d.attach(t, quick_atkr(d.service, list("ABCD"), {"A": 600, "B": 300, "C": 0, "D": 0}))
    write(d.store, t, str(tmp_path / "open"))
    manifest = _manifest(str(tmp_path / "open"))
    assert manifest["finished"] is False and manifest["logs"][0]["seal"]["seq"] == 4
    assert d.store.private(t, "seal") is None
    key = Signer.of(d.store).public
    got = run("tournament", "verify", tmp_path / "open", "--key", key, code=0)
    assert "ok: the tournament is not finished (round 1 of 1)" in got.output


# -- a key rotated since the pin (issue 20.5: the key history followed) ----------------------

def test_a_bundle_after_a_signed_rotation_follows_the_key_history(own_cup, tmp_path):
    """The store rotates its key with the old key's signature (`devil key rotate`); a bundle
    written after it has the old key's seals (the games and the stream were sealed before) and
    the new key's checkpoint.  Pinned to the key published before, it verifies: the rotation
    the pinned key signed makes the new key trusted; pinned to the new key, the old seals are
    linked back the same way."""
    old = own_cup["key"]
    run("--store", own_cup["store"], "key", "rotate", "--reason", "yearly", code=0)
    store = FileStore(own_cup["store"])
    new = Signer.of(store).public
    assert new != old
    after = str(tmp_path / "after")
    write(store, own_cup["t"], after)
    manifest = _manifest(after)
    (rotation,) = manifest["key_history"]
    assert (rotation["old"], rotation["new"], manifest["key"]) == (old, new, new)
    assert {e["seal"]["key"] for e in manifest["logs"]} == {old}  # sealed before the rotation
    got = run("tournament", "verify", after, "--key", old, code=0)
    assert (f"key: the bundle is signed by key {new[:16]}..., the pinned key's successor: "
            f"rotation 1 at {rotation['time']}, signed by the key before it (reason: yearly)"
            ) in got.output
    assert (f"pinned: every seal and the checkpoint are signed by key {old} or a key its key "
            "history links to it") in got.output
    run("tournament", "verify", after, "--key", new, code=0)
    # the history cut from the manifest: the pin no longer reaches the new key ...
    bare = _reman(after, str(tmp_path / "bare"), lambda m: m.pop("key_history"))
    got = run("tournament", "verify", bare, "--key", old, code=3)
    assert f"FAILED: TOUR-6.11: manifest field key is {new}, not the pinned key {old}" \
        in got.output
    # ... unless the reader brings it (`devil key --history --json`)
    history = tmp_path / "history.json"
    history.write_text(run("--store", own_cup["store"], "key", "--history", "--json",
                           code=0).output)
    run("tournament", "verify", bare, "--key", old, "--history", history, code=0)
    # an earlier bundle kept (its checkpoint signed by the old key) still compares
    got = run("--store", own_cup["store"], "tournament", "verify", after, "--key", old,
              "--checkpoint", own_cup["out"], code=0)
    assert "is still held by this one, record for record" in got.output


def test_a_forged_key_history_in_a_bundle_is_refused(own_cup, tmp_path):
    """The operator puts in a rotation from the published key to a key of his own, signed by
    his key in the old key's place: the history does not hold, nothing is trusted from it."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    old = own_cup["key"]
    mine = Ed25519PrivateKey.generate()
    mine_public = mine.public_key().public_bytes_raw().hex()
    time = "2026-12-02T18:30:00.000Z"
    line = f"devil-key-rotation|1|{old}|{mine_public}|{time}".encode()
    forged = {"rotation": 1, "number": 1, "old": old, "new": mine_public, "time": time,
              "reason": "routine", "old_sig": mine.sign(line).hex(),
              "new_sig": mine.sign(line).hex()}
    bundle = _reman(own_cup["out"], str(tmp_path / "forged"),
                    lambda m: m.update(key_history=[forged]))
    got = run("tournament", "verify", bundle, "--key", old, code=3)
    assert ("FAILED: TOUR-6.11: manifest field key_history: the key history does not hold: "
            "rotation 1's old-key signature does not hold") in got.output


def test_many_files_verify_key_follows_the_key_history(own_cup, tmp_path):
    """`devil verify FOLDER --key OLD`: the games exported with their seals (the old key's)
    after a rotation verify pinned to the new key, the seal's key linked by the history."""
    old, store = own_cup["key"], own_cup["store"]
    folder = tmp_path / "games"
    folder.mkdir()
    for game in (own_cup["g1"], own_cup["g2"]):
        run("--store", store, "export", game, "-o", folder / f"{game}.devlog", "--seal",
            folder / f"{game}.devlog.seal.json", code=0)
    run("--store", store, "key", "rotate", "--reason", "yearly", code=0)
    new = Signer.of(FileStore(store)).public
    history = tmp_path / "history.json"
    history.write_text(run("--store", store, "key", "--history", "--json", code=0).output)
    none = tmp_path / "none"  # no store: the history comes from --history only
    got = run("--store", none, "verify", folder, "--key", new, code=3)
    assert "BAD" in got.output and f"signed by key {old[:16]}..., not by the key given" \
        in got.output
    got = run("--store", none, "verify", folder, "--key", new, "--history", history, "--json",
              code=0)
    rows = [json.loads(line) for line in got.output.splitlines() if line.startswith("{")]
    linked = [c for r in rows for c in r.get("checks", []) if c.startswith("seal: signed by")]
    assert len(linked) == 2 and all(f"key {old[:16]}..., an earlier key" in c for c in linked)
    run("--store", store, "verify", folder, "--key", old, code=0)  # the store's own history
