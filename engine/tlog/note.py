"""C2SP signed notes (https://c2sp.org/signed-note) with Ed25519, and C2SP tlog-checkpoint
bodies (https://c2sp.org/tlog-checkpoint).  No I/O.

A **note** is UTF-8 text ending in a newline, a blank line, then signature lines
``— <key name> <base64(key hash || signature)>\\n`` (an em dash U+2014 and a space).  The
signature is Ed25519 over the text (everything before the blank line, its final newline
included).  The key hash is the first 4 bytes of SHA-256(key name || 0x0A || 0x01 || public
key); a **verifier key** is written ``<name>+<key hash, 8 hex digits>+<base64(0x01 || public
key)>``.

A **checkpoint** is a note whose text is three lines: the log's origin, the tree size in
decimal, and the base64 tree head (RFC 6962 root), then optional extension lines.
"""

from __future__ import annotations

import base64
import binascii
import hashlib

import attrs

from ..errors import DevilError

#: the algorithm byte of an Ed25519 key in signed-note
ED25519 = 0x01
_DASH = "\u2014 "


def leaves(n: int) -> str:
    """``"1 leaf"``, ``"4 leaves"``: a tree's size in words."""
    return f"{n} leaf" if n == 1 else f"{n} leaves"


class BadNote(DevilError):
    """A note or checkpoint that is malformed, or whose signature does not hold (exit 3)."""

    exit_code = 3


def key_hash(name: str, public: bytes) -> bytes:
    """The 4-byte key hash of the Ed25519 key ``public`` (32 bytes) named ``name``."""
    return hashlib.sha256(name.encode() + b"\n" + bytes([ED25519]) + public).digest()[:4]


def verifier_key(name: str, public: bytes) -> str:
    """The signed-note verifier key text ``name+hash+base64(0x01||public)``."""
    return f"{name}+{key_hash(name, public).hex()}+" \
           f"{base64.b64encode(bytes([ED25519]) + public).decode()}"


def parse_verifier_key(text: str, hashes=None, what: str = "verifier key",
                       check=None) -> tuple[str, bytes]:
    """``(name, public key)`` of a verifier key; BadNote if it is malformed or its hash does
    not match its name and key.  ``hashes`` maps each accepted key type byte to its hash
    function ``(name, public) -> 4 bytes`` (default: Ed25519, type 0x01, :func:`key_hash`);
    ``what`` names the key in the messages, and ``check`` (if given) is called on the name
    first (a witness key: engine.tlog.witness.parse_witness_key)."""
    hashes = {ED25519: key_hash} if hashes is None else hashes
    parts = text.strip().split("+", 2)
    if len(parts) != 3:
        raise BadNote(f"{text.strip()[:80]!r} is not a {what} (name+hash+key)")
    name, hash_hex, material = parts
    try:
        raw = base64.b64decode(material, validate=True)
        want = bytes.fromhex(hash_hex)
    except (binascii.Error, ValueError):
        raise BadNote(f"{text.strip()[:80]!r} is not a {what} (bad hex or base64)") from None
    label = what if check is None else f"{what} {name}"
    if check is not None:
        check(name)
    if len(raw) != 33 or raw[0] not in hashes:
        types = " or ".join(f"0x{t:02x}" for t in hashes)
        raise BadNote(f"the {label} is not an Ed25519 key (type {types}, 32 bytes)")
    if hashes[raw[0]](name, raw[1:]) != want:
        raise BadNote(f"the {label}'s hash does not match its name and key")
    return name, raw[1:]


def sign_note(text: str, name: str, private) -> str:
    """The note of ``text`` (ending in a newline) signed by ``private`` (an
    ``Ed25519PrivateKey``) under the key name ``name``."""
    if not text.endswith("\n") or "\n\n" in text:
        raise ValueError("a note's text ends in a newline and has no blank line")
    public = private.public_key().public_bytes_raw()
    sig = private.sign(text.encode())
    blob = base64.b64encode(key_hash(name, public) + sig).decode()
    return f"{text}\n{_DASH}{name} {blob}\n"


def split_note(note: str) -> tuple[str, list[tuple[str, bytes, bytes]]]:
    """``(text, [(key name, key hash, signature)])`` of a note; BadNote if malformed."""
    text, sep, rest = note.partition("\n\n")
    if not sep or not rest.endswith("\n"):
        raise BadNote("not a signed note: no blank line before the signatures, or no final "
                      "newline")
    text += "\n"
    signatures = []
    for line in rest[:-1].split("\n"):
        if not line.startswith(_DASH):
            raise BadNote(f"not a signature line: {line[:80]!r}")
        name, _, blob = line[len(_DASH):].rpartition(" ")
        try:
            raw = base64.b64decode(blob, validate=True)
        except binascii.Error:
            raise BadNote(f"a signature line's base64 is malformed: {line[:80]!r}") from None
        if not name or len(raw) < 5:
            raise BadNote(f"a signature line is malformed: {line[:80]!r}")
        signatures.append((name, raw[:4], raw[4:]))
    return text, signatures


def open_note(note: str, name: str, public: bytes) -> str:
    """The text of ``note`` once a signature by ``public`` under ``name`` holds on it;
    BadNote naming what fails (malformed, no signature by that key, a signature that does not
    hold)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    text, signatures = split_note(note)
    want = key_hash(name, public)
    mine = [sig for n, h, sig in signatures if n == name and h == want]
    if not mine:
        raise BadNote(f"the note carries no signature by {name}+{want.hex()} (signed by: "
                      f"{', '.join(f'{n}+{h.hex()}' for n, h, _ in signatures)})")
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(mine[0], text.encode())
    except (InvalidSignature, ValueError):
        raise BadNote(f"the signature by {name} does not hold: the note was changed, or not "
                      "signed by that key") from None
    return text


@attrs.frozen
class Checkpoint:
    """A tree head: ``origin`` (the log's name), ``size`` (leaves), ``root`` (32 bytes),
    ``extensions`` (further lines, each without its newline)."""

    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    def body(self) -> str:
        """The C2SP tlog-checkpoint text: origin, size, base64 root, extensions, a newline
        after each."""
        lines = [self.origin, str(self.size), base64.b64encode(self.root).decode(),
                 *self.extensions]
        return "".join(line + "\n" for line in lines)


def parse_checkpoint(text: str) -> Checkpoint:
    """The :class:`Checkpoint` of a checkpoint note's text (BadNote if malformed: a size that
    is not a decimal without leading zeros, a root that is not base64 of 32 bytes)."""
    lines = text.split("\n")
    if len(lines) < 4 or lines[-1] != "" or not lines[0]:
        raise BadNote("a checkpoint is an origin, a tree size and a root, a line each")
    origin, size, root_b64 = lines[0], lines[1], lines[2]
    if not (size.isascii() and size.isdigit()) or (size != "0" and size.startswith("0")):
        raise BadNote(f"the checkpoint's tree size {size[:40]!r} is not a decimal number")
    try:
        root = base64.b64decode(root_b64, validate=True)
    except binascii.Error:
        root = b""
    if len(root) != 32:
        raise BadNote("the checkpoint's root is not base64 of 32 bytes")
    return Checkpoint(origin, int(size), root, tuple(lines[3:-1]))


def open_checkpoint(note: str, public: bytes, name: str | None = None) -> Checkpoint:
    """The checkpoint of a signed checkpoint note, once the signature by ``public`` under its
    origin (or ``name``) holds; BadNote otherwise."""
    text, _ = split_note(note)
    checkpoint = parse_checkpoint(text)
    open_note(note, name or checkpoint.origin, public)
    return checkpoint
