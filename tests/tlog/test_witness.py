"""cosignature/v1 and tlog-witness against published bytes (issue 20.4), then the witness's
decisions on a real store's checkpoints.

Vectors, none made by this code:

* two real cosignatures of Armored Witness devices on a checkpoint of the Pixel binary
  transparency log, published in the README of github:transparency-dev/witness (and
  transparency-dev/distributor), the devices' keys from transparency-dev/distributor's
  config/witnesses-prod.yaml; the distributor's README gives their times, 2025-02-05T00:03:56Z
  and 00:03:49Z (1738713836 and 1738713829 Unix seconds);
* c2sp.org/tlog-cosignature's example: the signed message of ``time 1679315147`` and the
  cosignature line of witness.example.com/w1 (its timestamp bytes are that time);
* c2sp.org/tlog-witness's example add-checkpoint body (old 20852014, four proof lines);
* the Wit1 test key of transparency-dev/formats witness/witness_test.go (a signed-note key,
  type 0x01, whose hash 55ee4561 the Go code computes).
"""

from __future__ import annotations

import base64

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.tlog import note, witness

PIXEL = ("developers.google.com/android/binary_transparency/0\n611\n"
         "2GZ1zmS5VkfUZmn2ZyR4KZXwHLD+xnwBIWzql/cD50w=\n")
PIXEL_NOTE = PIXEL + (
    "\n\u2014 pixel_transparency_log csh42zBFAiAd3Y1FwqNTt5RglY0uG7heC6Yu1gEbXXPYmZ7LdOILMAIhAIt"
    "68PnR/3TADAaC7hvrSHbpziV7TmpIwOUydLmcjyTQ\n"
    "\u2014 ArmoredWitness-small-breeze nRq5UQAAAABnoqrsRIofXn68vTohcAm2KG4ACGyRPNePUk02BSWD0WKV"
    "5ElejTk5Z+Tm3GmJ5j/etA+fkL9XuaQsnTyZbr437sF4AQ==\n"
    "\u2014 ArmoredWitness-autumn-wood qZb5XQAAAABnoqrl57G9CblEl3lwwuqzbaJvVMqNiZCbYZseYT1YZHYmls"
    "3CmT1wxZ1fNgM4RxHuUxjAwcI2ghTx6R5aCg+L0DGPBA==\n")
BREEZE = "ArmoredWitness-small-breeze+7b3ada3a+AQAWYpUjfGGPQiWOgt6sLWap0P9rVOe+Ofu2uNZbO4FD"
AUTUMN = "ArmoredWitness-autumn-wood+863571a5+AesIVCbad7gbU07JnA6YfZD0qg4B1c8xF4ISdnt9vjip"
SOFA = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
WIT1_SKEY = "PRIVATE+KEY+Wit1+55ee4561+AeadRiG7XM4XiieCHzD8lxysXMwcViy5nYsoXURWGrlE"
WIT1_VKEY = "Wit1+55ee4561+AVhZSmQj9+SoL+p/nN0Hh76xXmF7QcHfytUrI1XfSClk"


def test_real_armored_witness_cosignatures_verify_with_their_times():
    for key, when in ((BREEZE, 1738713836), (AUTUMN, 1738713829)):
        name, public = witness.parse_witness_key(key)  # the published 0x01 form
        assert witness.cosigned_at(PIXEL_NOTE, name, public) == when
        # the key id is over 0x04 (tlog-cosignature), not the vkey's signed-note hash
        assert witness.key_id(name, public) != bytes.fromhex(key.split("+")[1])
        # the 0x04 verifier key form names the same key, and is accepted back
        assert witness.parse_witness_key(witness.witness_key(name, public)) == (name, public)
    assert witness.key_id("ArmoredWitness-small-breeze",
                          witness.parse_witness_key(BREEZE)[1]).hex() == "9d1ab951"
    found = witness.check_witnessed(PIXEL_NOTE, [BREEZE, AUTUMN])
    assert [f["witness"] for f in found] == ["ArmoredWitness-small-breeze",
                                             "ArmoredWitness-autumn-wood"]
    changed = PIXEL_NOTE.replace("\n611\n", "\n612\n")  # another tree: no cosignature holds
    with pytest.raises(witness.WitnessMissing, match="0 of the 2 witnesses, 1 required") as got:
        witness.check_witnessed(changed, [BREEZE, AUTUMN], 1)
    assert got.value.missing == ["ArmoredWitness-small-breeze", "ArmoredWitness-autumn-wood"]


def test_the_specifications_message_line_and_request_body():
    assert witness.message(SOFA, 1679315147) == (
        b"cosignature/v1\ntime 1679315147\nexample.com/behind-the-sofa\n20852163\n"
        b"CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n")
    line = ("\u2014 witness.example.com/w1 jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXE"
            "hZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==")
    assert witness.signature_lines("junk\n" + line + "\n") == [line]
    blob = base64.b64decode(line.rsplit(" ", 1)[1])
    assert int.from_bytes(blob[4:12], "big") == 1679315147  # the example's time line
    body = ("old 20852014\nPlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=\n"
            "jrJZDmY8Y7SyJE0MWLpLozkIVMSMZcD5kvuKxPC3swk=\n"
            "5+pKlUdi2LeF/BcMHBn+Ku6yhPGNCswZZD1X/6QgPd8=\n"
            "/6WVhPs2CwSsb5rYBH5cjHV/wSmA79abXAwhXw3Kj/0=\n\n" + SOFA + "\n\u2014 x AAAA\n")
    old, proof, got = witness.parse_request(body.encode())
    assert (old, len(proof), got) == (20852014, 4, SOFA + "\n\u2014 x AAAA\n")
    assert witness.request_body(old, proof, got) == body.encode()
    for bad in (b"old 012\n\n" + SOFA.encode(), b"old 1\nAAAA\n\n" + SOFA.encode(),
                b"new 1\n\n", b"old 1\n" + SOFA.encode(),
                b"old 1\n" + b"".join([base64.b64encode(bytes(32)) + b"\n"] * 64) + b"\n"):
        with pytest.raises(witness.BadRequest):
            witness.parse_request(bad)


def test_a_cosignature_made_here_verifies_under_the_go_test_key():
    raw = base64.b64decode(WIT1_SKEY.split("+", 4)[4])
    private = Ed25519PrivateKey.from_private_bytes(raw[1:])
    public = private.public_key().public_bytes_raw()
    assert note.verifier_key("Wit1", public) == WIT1_VKEY  # the Go test's vkey, hash 55ee4561
    line = witness.cosign(SOFA, "Wit1", private, 1679315147)
    blob = base64.b64decode(line.split(" ")[2])
    assert blob[:4] == witness.key_id("Wit1", public) and len(blob) == 76
    assert blob[4:12] == (1679315147).to_bytes(8, "big")
    signed = SOFA + "\n" + line
    assert witness.cosigned_at(signed, *witness.parse_witness_key(WIT1_VKEY)) == 1679315147
    # a cosignature is not a log signature: signed-note's 0x01 check does not take it
    with pytest.raises(note.BadNote, match="no signature by Wit1"):
        note.open_note(signed, "Wit1", public)


def test_k_of_n_counts_only_valid_cosignatures_of_the_keys_named():
    keys = [Ed25519PrivateKey.generate() for _ in range(3)]
    names = ["w.example/a", "w.example/b", "w.example/c"]
    vkeys = [witness.witness_key(n, k.public_key().public_bytes_raw())
             for n, k in zip(names, keys)]
    signed = SOFA + "\n" + witness.cosign(SOFA, names[0], keys[0], 100) \
        + witness.cosign(SOFA, names[1], keys[1], 101)
    # a line under c's name made with a's key: c's key id, a's signature: does not hold
    forged = witness.cosign(SOFA, names[2], keys[0], 102)
    blob = bytearray(base64.b64decode(forged.split(" ")[2]))
    blob[:4] = witness.key_id(names[2], keys[2].public_key().public_bytes_raw())
    signed += f"\u2014 {names[2]} {base64.b64encode(bytes(blob)).decode()}\n"
    assert [f["time"] for f in witness.check_witnessed(signed, vkeys, 2)] == [100, 101]
    with pytest.raises(witness.WitnessMissing, match="2 of the 3 witnesses, 3 required; "
                                                     "missing: w.example/c"):
        witness.check_witnessed(signed, vkeys)
    with pytest.raises(ValueError):
        witness.check_witnessed(signed, vkeys, 4)
    with pytest.raises(witness.WitnessMissing, match="1 of the 2 witnesses, 2 required"):
        witness.check_witnessed(signed, [vkeys[0], vkeys[0], vkeys[2]])  # a key twice: once
    with pytest.raises(note.BadNote, match="hash does not match"):
        witness.parse_witness_key(vkeys[0].replace(vkeys[0].split("+")[1], "00000000"))
