"""The bundle (TOUR-6): verifies with nothing but its files; a removed, altered, swapped or
cut-off game is named."""

import json
import os
import shutil
import zipfile

import pytest

from engine.tournament.bundle import merkle_root, verify, write
from engine.store import FileStore

from .helpers import fixed, organiser, quick_atkr

import hashlib


def test_merkle_root_is_rfc_6962():
    h = lambda b: hashlib.sha256(b).digest()  # noqa: E731
    a, b, c = b"a", b"b", b"c"
    la, lb, lc = h(b"\0a"), h(b"\0b"), h(b"\0c")
    assert merkle_root([a]) == la
    assert merkle_root([a, b]) == h(b"\1" + la + lb)
    # three leaves: split at 2, the largest power of two below 3
    assert merkle_root([a, b, c]) == h(b"\1" + h(b"\1" + la + lb) + lc)
    assert merkle_root([]) == h(b"")


@pytest.fixture
def bundle(tmp_path):
    d = organiser(FileStore(str(tmp_path / "store")))
    t = d.create(fixed(list("ABCDEFGH"), rounds=1, game="atkr", options={"physical": True}))
    d.pair(t, seating=[list("ABCD"), list("EFGH")], games=False)
    g1 = quick_atkr(d.service, list("ABCD"), {"A": 600, "B": 300, "C": 0, "D": 0})
    g2 = quick_atkr(d.service, list("EFGH"), {"E": 600, "F": 600, "G": 0, "H": 300})
    d.attach(t, g1)
    d.attach(t, g2)
    d.close_round(t)
    out = str(tmp_path / "cup")
    write(d.store, t, out)
    return out, t, g1, g2


def test_a_bundle_verifies_offline_folder_and_zip(bundle):
    out, t, g1, g2 = bundle
    for path in (out, out + ".zip"):
        result = verify(path)
        assert result["ok"], result["problems"]
        assert result["games"] == 2 and result["tournament"] == t
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    assert [e["game"] for e in manifest["logs"]] == [t, g1, g2]
    # each finished game's seal (issue 13.2): its final record, signed by the store's key
    from engine.receipts import check_signature, public_key

    key = public_key(FileStore(os.path.join(os.path.dirname(out), "store")))
    assert manifest["key"] == key and manifest["files"] == {}
    for entry in manifest["logs"][1:]:
        assert check_signature(entry["seal"], "seal", key)["seq"] == entry["seq"]
        assert entry["seal"]["link"] == entry["link"]
    logs = [open(os.path.join(out, e["file"]), "rb").read() for e in manifest["logs"]]
    assert manifest["merkle"]["root"] == merkle_root(logs).hex()


def test_one_byte_changed_in_one_game_names_that_game(bundle):
    out, t, g1, g2 = bundle
    path = os.path.join(out, "games", f"{g2}.devlog")
    data = bytearray(open(path, "rb").read())
    data[200] ^= 0x01
    open(path, "wb").write(bytes(data))
    result = verify(out)
    assert not result["ok"]
    assert any(f"game {g2} (round 1, table 2) was altered" in p for p in result["problems"])
    assert not any(g1 in p for p in result["problems"])


def test_a_removed_swapped_or_cut_off_game_is_named(bundle, tmp_path):
    out, t, g1, g2 = bundle
    removed = str(tmp_path / "removed")
    shutil.copytree(out, removed)
    os.remove(os.path.join(removed, "games", f"{g1}.devlog"))
    assert any(f"game {g1} (round 1, table 1) is missing" in p for p in verify(removed)["problems"])

    swapped = str(tmp_path / "swapped")
    shutil.copytree(out, swapped)
    a, b = (os.path.join(swapped, "games", f"{g}.devlog") for g in (g1, g2))
    da, db = open(a, "rb").read(), open(b, "rb").read()
    open(a, "wb").write(db)
    open(b, "wb").write(da)
    problems = verify(swapped)["problems"]
    assert any(f"game {g1} (round 1, table 1) was swapped: games/{g1}.devlog holds {g2}" in p
               for p in problems)

    cut = str(tmp_path / "cut")
    shutil.copytree(out, cut)
    from engine.log import scan
    path = os.path.join(cut, "games", f"{g2}.devlog")
    data = open(path, "rb").read()
    records = scan(data).records
    # cut the log after its first command: it verifies as far as it goes, but is not finished
    end = _offset_after(data, 2)
    open(path, "wb").write(data[:end])
    problems = verify(cut)["problems"]
    assert any(f"game {g2} (round 1, table 2) is not finished" in p for p in problems), problems
    assert records


def _offset_after(data: bytes, seq: int) -> int:
    import msgpack

    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(data)
    unpacker.unpack()
    for _ in range(seq):
        unpacker.unpack()
    return unpacker.tell()


def test_changed_standings_in_the_manifest_are_caught(bundle, tmp_path):
    out, t, g1, g2 = bundle
    zipped = out + ".zip"
    with zipfile.ZipFile(zipped) as archive:
        files = {n: archive.read(n) for n in archive.namelist()}
    manifest = json.loads(files["manifest.json"])
    manifest["standings"][0]["points"] += 1
    files["manifest.json"] = json.dumps(manifest).encode()
    forged = str(tmp_path / "forged.zip")
    with zipfile.ZipFile(forged, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    assert "the standings recomputed from the stream differ from the published ones" in \
        verify(forged)["problems"]


def test_a_seal_changed_or_signed_by_another_key_is_named(bundle, tmp_path):
    """The games' seals in the manifest (issue 13.2) are checked with the manifest's key."""
    out, t, g1, g2 = bundle
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    manifest["logs"][2]["seal"]["seq"] -= 1  # a seal that names an earlier end
    forged = str(tmp_path / "forged")
    shutil.copytree(out, forged)
    with open(os.path.join(forged, "manifest.json"), "w") as handle:
        json.dump(manifest, handle)
    problems = verify(forged)["problems"]
    assert any(p.startswith(f"TOUR-6.11: game {g2} (round 1, table 2): its seal does not hold: "
                            "the seal's signature does not hold") for p in problems), problems
    assert not any(g1 in p for p in problems)


# -- hardening: a manifest edited consistently (sizes, hashes, heads and the root recomputed) --
def _reman(folder, edit):
    """Apply ``edit`` to the manifest of bundle ``folder`` and recompute what a forger can:
    every entry's size, SHA-256 and head, and the Merkle root."""
    from engine.tournament.bundle import _head

    path = os.path.join(folder, "manifest.json")
    manifest = json.load(open(path))
    edit(manifest)
    logs = []
    for entry in manifest["logs"]:
        data = open(os.path.join(folder, entry["file"]), "rb").read()
        entry.update(bytes=len(data), sha256=hashlib.sha256(data).hexdigest(), **_head(data))
        logs.append(data)
    manifest["merkle"]["root"] = merkle_root(logs).hex()
    json.dump(manifest, open(path, "w"))


def test_a_cut_off_game_relabelled_in_the_manifest_is_named(bundle, tmp_path):
    """A game cut off with its manifest entry no longer a "game" (so the finished check was
    skipped) verified OK: every attached table's log must be finished whatever the entry says."""
    out, t, g1, g2 = bundle
    cut = str(tmp_path / "cut")
    shutil.copytree(out, cut)
    path = os.path.join(cut, "games", f"{g2}.devlog")
    data = open(path, "rb").read()
    open(path, "wb").write(data[:_offset_after(data, 2)])

    def relabel(manifest):
        manifest["logs"][2]["role"] = "other"
        manifest["logs"][2]["seal"] = None

    _reman(cut, relabel)
    result = verify(cut)
    assert not result["ok"]
    assert any(g2 in p for p in result["problems"]), result["problems"]
    assert not any(g1 in p for p in result["problems"])


def test_a_finished_game_whose_seal_was_dropped_is_named(bundle, tmp_path):
    """A seal set to null verified OK, so a rewritten log (hash chains can be recomputed by
    anyone) passed by dropping its seal: a bundle with a key has every finished game's seal."""
    out, t, g1, g2 = bundle
    forged = str(tmp_path / "forged")
    shutil.copytree(out, forged)
    _reman(forged, lambda manifest: manifest["logs"][1].__setitem__("seal", None))
    problems = verify(forged)["problems"]
    assert f"TOUR-6.11: game {g1} (round 1, table 1): manifest field seal is null for a " \
        "finished game" in problems, problems
    assert not any(g2 in p for p in problems)


def test_an_attached_file_never_sealed_is_sealed_in_its_bundle(tmp_path):
    """A game attached from a file (imported, never sealed by the store) gets its seal when the
    bundle is written, so the offline check can require one."""
    d = organiser(FileStore(str(tmp_path / "store")))
    t = d.create(fixed(list("ABCDEFGH"), rounds=1, game="atkr", options={"physical": True}))
    d.pair(t, seating=[list("ABCD"), list("EFGH")], games=False)
    g1 = quick_atkr(d.service, list("ABCD"), {"A": 600, "B": 300, "C": 0, "D": 0})
    g2 = quick_atkr(d.service, list("EFGH"), {"E": 600, "F": 600, "G": 0, "H": 300})
    d.store.put_private(g1, "seal", {"seal": 1, "seq": 0}, replace=True)  # none of its head
    d.attach(t, g1)
    d.attach(t, g2)
    d.close_round(t)
    out = str(tmp_path / "cup")
    manifest = write(d.store, t, out)
    assert manifest["logs"][1]["seal"]["seq"] == manifest["logs"][1]["seq"]
    assert verify(out)["ok"]


@pytest.mark.parametrize("manifest", [
    {"format": "devil-tournament-bundle", "logs": [1]},
    {"format": "devil-tournament-bundle", "logs": {"a": 1}},
    {"format": "devil-tournament-bundle", "logs": [{"game": [1], "file": "x"}]},
    {"format": "devil-tournament-bundle", "logs": [], "merkle": 5},
    {"format": "devil-tournament-bundle", "logs": [{"game": "t", "file": "x", "seal": 7}]},
])
def test_a_malformed_manifest_is_a_usage_error_not_a_crash(bundle, tmp_path, manifest):
    from engine.errors import UsageError

    out, t, g1, g2 = bundle
    forged = str(tmp_path / "forged")
    shutil.copytree(out, forged)
    json.dump(manifest, open(os.path.join(forged, "manifest.json"), "w"))
    with pytest.raises(UsageError, match="manifest.json"):
        verify(forged)


def test_a_bundle_never_overwrites_an_existing_zip(bundle, tmp_path):
    """``bundle T OUT`` checked only the folder OUT: an existing OUT.zip was overwritten."""
    from engine.errors import UsageError
    from engine.tournament.bundle import unpack

    out, t, g1, g2 = bundle
    store = FileStore(os.path.join(os.path.dirname(out), "store"))
    keep = tmp_path / "again.zip"
    keep.write_bytes(b"someone's file")
    with pytest.raises(UsageError, match="again.zip exists"):
        write(store, t, str(tmp_path / "again"))
    with pytest.raises(UsageError, match="again.zip exists"):
        unpack(open(out + ".zip", "rb").read(), str(tmp_path / "again"))
    assert keep.read_bytes() == b"someone's file"
    assert not (tmp_path / "again").exists()


def test_a_bundle_file_too_large_is_refused_without_reading_it(bundle, tmp_path, monkeypatch):
    """A mailed .zip whose member inflates to gigabytes (a zip bomb) was read whole into
    memory by verify; a file over the limit is now a usage error, read no further."""
    from engine.errors import UsageError
    from engine.tournament import bundle as module

    out, t, g1, g2 = bundle
    monkeypatch.setattr(module, "MAX_FILE", 4096)
    big = str(tmp_path / "big.zip")
    with zipfile.ZipFile(out + ".zip") as source, zipfile.ZipFile(big, "w",
                                                                  zipfile.ZIP_DEFLATED) as dest:
        for name in source.namelist():
            data = source.read(name)
            dest.writestr(name, data + b"\0" * 5000 if name.startswith("games/") else data)
    with pytest.raises(UsageError, match="larger than 4096 bytes"):
        verify(big)
    folder = str(tmp_path / "bigfolder")
    shutil.copytree(out, folder)
    with open(os.path.join(folder, "games", f"{g1}.devlog"), "ab") as handle:
        handle.write(b"\0" * 5000)
    with pytest.raises(UsageError, match="larger than 4096 bytes"):
        verify(folder)


def test_a_damaged_zip_is_a_usage_error_not_a_crash(bundle, tmp_path):
    """A byte flipped inside a compressed member raised zlib.error (exit 70)."""
    from engine.errors import UsageError

    out, t, g1, g2 = bundle
    with zipfile.ZipFile(out + ".zip") as archive:
        info = archive.getinfo(f"games/{g1}.devlog")
    data = bytearray(open(out + ".zip", "rb").read())
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    for offset in range(start + 2, start + 40):
        data[offset] ^= 0xFF
    damaged = tmp_path / "damaged.zip"
    damaged.write_bytes(bytes(data))
    with pytest.raises(UsageError, match="cannot be read from the .zip"):
        verify(str(damaged))


def test_games_disputed_after_their_end_attach_and_verify_in_the_bundle(tmp_path):
    """A dispute raised after a game ended (DESK-4) is a desk record in its log: attaching
    such a game, and verifying a bundle where a table's game was disputed after its result
    was taken, folded the desk record as a game event (KeyError, exit 70)."""
    from engine.desk.commands import Dispute

    d = organiser(FileStore(str(tmp_path / "store")))
    t = d.create(fixed(list("ABCDEFGH"), rounds=1, game="atkr", options={"physical": True}))
    d.pair(t, seating=[list("ABCD"), list("EFGH")], games=False)
    g1 = quick_atkr(d.service, list("ABCD"), {"A": 600, "B": 300, "C": 0, "D": 0})
    g2 = quick_atkr(d.service, list("EFGH"), {"E": 600, "F": 600, "G": 0, "H": 300})
    d.service.submit(g1, Dispute(seq=3, text="B's bet was 300, not 200", player="B"))
    d.attach(t, g1)
    d.attach(t, g2)
    d.close_round(t)
    d.service.submit(g2, Dispute(seq=3, text="H says the devil was not drawn", player="H"))
    out = str(tmp_path / "cup")
    write(d.store, t, out)
    result = verify(out)
    assert result["ok"], result["problems"]
    by = {row["player"]: row for row in d.standings(t)["standings"]}
    # places as quick_atkr works them: A 2000 first; E 2000 and F 1800 at table 2
    assert by["A"]["points"] == 6 and by["E"]["points"] == 6 and by["F"]["points"] == 4
