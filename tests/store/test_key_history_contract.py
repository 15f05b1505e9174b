"""The key history (engine.keys, issue 20.5) on every store (tests/store/conftest.py: file,
memory, PostgreSQL on the session's throwaway cluster): a rotation is kept through the store
protocol's create-once documents (so of two rotations of one number the first wins: the
contract's own test of those documents), seen by another instance (another node)."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from engine.keys.history import check_chain, history, key_name, rotation_name, signed_by
from engine.keys.rotate import rotate
from engine.receipts import Signer, SigningKeyDamaged

T1, T2 = "2026-12-02T18:00:00.000Z", "2026-12-02T19:00:00.000Z"


def test_a_rotation_is_kept_and_every_node_signs_with_the_new_key(store, kind):
    first = Signer.of(store)  # an empty store makes its first key
    store.create("atkr", "atkr-keys1", -1, [{"type": "a"}], created=1)
    entry = rotate(store, "yearly", time=T1)
    assert (entry["number"], entry["old"], entry["time"]) == (1, first.public, T1)
    line = f"devil-key-rotation|1|{first.public}|{entry['new']}|{T1}".encode()
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(first.public)).verify(
        bytes.fromhex(entry["old_sig"]), line)
    other = kind.again(store) if kind.shared else store
    assert history(other) == [entry]
    assert Signer.of(other).public == entry["new"] != first.public
    assert store.store_private(rotation_name(1)) == entry
    assert store.store_private(key_name(1))["public"] == entry["new"]
    second = rotate(other, "again", time=T2)
    check_chain(history(store), first.public)
    assert [e["number"] for e in history(store)] == [1, 2]
    assert signed_by(first.public, second["new"], history(store)).startswith(
        f"signed by key {first.public[:16]}..., an earlier key of this store, rotated at {T1}")


def test_a_rotation_cut_short_is_finished_by_the_next_and_a_bad_record_stops_signing(store):
    first = Signer.of(store)
    store.create("atkr", "atkr-keys2", -1, [{"type": "a"}], created=1)
    # a rotation that kept its new key and then stopped (a crash): the next takes that key
    made = Signer("11" * 32)
    store.put_store_private(key_name(1), {"version": 1, "algorithm": "ed25519",
                                          "private": "11" * 32, "public": made.public})
    assert Signer.of(store).public == first.public  # no record yet: the old key signs
    entry = rotate(store, "finished", time=T1)
    assert entry["new"] == made.public and entry["old"] == first.public
    # another rotation 1 by a node that read the history before: refused, nothing replaced
    store.put_store_private(key_name(2), {"version": 1, "algorithm": "ed25519",
                                          "private": "22" * 32,
                                          "public": Signer("22" * 32).public})
    store.put_store_private(rotation_name(2), {**entry, "number": 2, "time": T2})
    with pytest.raises(SigningKeyDamaged, match="rotation 2"):  # and a bad record stops it
        Signer.of(store)


def test_a_missing_key_in_a_store_with_games_is_never_made_again(store):
    store.create("atkr", "atkr-keys3", -1, [{"type": "a"}], created=1)  # no key made first
    with pytest.raises(SigningKeyDamaged, match="is missing, but the store holds"):
        Signer.of(store)
    assert store.store_private(key_name(0)) is None
    with pytest.raises(SigningKeyDamaged):
        rotate(store, "no key, not lost")  # the store's own key must sign
    entry = rotate(store, "never had one", lost=True, time=T1)
    assert entry["old"] is None and entry["old_sig"] is None
    assert Signer.of(store).public == entry["new"]
