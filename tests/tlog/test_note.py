"""C2SP signed-note and tlog-checkpoint against the specification's example (the PeterNeumann
key and note of c2sp.org/signed-note and golang.org/x/mod/sumdb/note): Ed25519 is
deterministic, so signing the example text must give the published note byte for byte."""

import base64

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.tlog import note

VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
TEXT = ("If you think cryptography is the answer to your problem,\n"
        "then you don't know what your problem is.\n")
NOTE = (TEXT + "\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FF"
        "YC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n")


def _private():
    raw = base64.b64decode(SKEY.split("+", 4)[4])
    assert raw[0] == 1
    return Ed25519PrivateKey.from_private_bytes(raw[1:])


def test_the_specifications_key_and_note():
    name, public = note.parse_verifier_key(VKEY)
    assert name == "PeterNeumann"
    assert note.verifier_key(name, public) == VKEY
    assert note.key_hash(name, public).hex() == "c74f20a3"
    assert note.sign_note(TEXT, "PeterNeumann", _private()) == NOTE
    assert note.open_note(NOTE, name, public) == TEXT


def test_a_changed_note_or_another_key_fails():
    name, public = note.parse_verifier_key(VKEY)
    with pytest.raises(note.BadNote, match="does not hold"):
        note.open_note(NOTE.replace("cryptography", "cryptographY"), name, public)
    with pytest.raises(note.BadNote, match="no signature by EnochRoot"):
        note.open_note(NOTE, "EnochRoot", public)
    with pytest.raises(note.BadNote, match="hash does not match"):
        note.parse_verifier_key(VKEY.replace("c74f20a3", "c74f20a4"))


def test_a_checkpoint_body_is_the_c2sp_text():
    # c2sp.org/tlog-checkpoint's example body: origin, size, base64 root
    text = ("example.com/behind-the-sofa\n20852163\n"
            "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n")
    checkpoint = note.parse_checkpoint(text)
    assert (checkpoint.origin, checkpoint.size) == ("example.com/behind-the-sofa", 20852163)
    assert base64.b64encode(checkpoint.root).decode() == \
        "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I="
    assert checkpoint.body() == text
    for bad in ("o\n012\n" + text.split("\n")[2] + "\n", "o\n3\nAAAA\n", "o\n3\n"):
        with pytest.raises(note.BadNote):
            note.parse_checkpoint(bad)
