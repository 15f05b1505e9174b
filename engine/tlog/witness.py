"""Witnesses of a store's transparency log (issue 20.4): C2SP tlog-cosignature ``cosignature/v1``
(Ed25519) and the witness side of C2SP tlog-witness ``add-checkpoint``, with the witness's
state.  The cosigning logic is pure; :class:`WitnessState` is the one part that touches files.

**A cosignature** (https://c2sp.org/tlog-cosignature) is a signed-note signature line ::

    — <witness name> base64(key id (4) || timestamp (8, big endian) || Ed25519 signature (64))

over the message ``"cosignature/v1\\n" + "time <unix seconds>\\n" + <checkpoint body>`` (the
body's final newline included, no signature lines).  The key id is the first 4 bytes of
SHA-256(name || 0x0A || 0x04 || public key); the witness's **verifier key** is written
``<name>+<key id, 8 hex>+<base64(0x04 || public key)>`` (an Ed25519 signed-note key, type
0x01, is accepted too, as the Go implementation does).  Checked against a real cosignature of
the Armored Witness (tests/tlog/test_witness.py).

**add-checkpoint** (https://c2sp.org/tlog-witness): the body is ``old <size>\\n``, the
consistency proof (one base64 hash a line), a blank line, then the checkpoint note.  The witness
answers (:meth:`Witness.add_checkpoint`): 200 and its cosignature line; 400 a malformed request
or an old size above the checkpoint's; 403 no valid signature of the pinned log key; 404 an
origin it does not witness; 409 an old size other than the size it last cosigned (the body is
that size, ``text/x.tlog.size``); 422 a proof that does not verify, or a checkpoint of the size
it last cosigned with another root (a **split view**: both notes are kept as its proof).
"""

from __future__ import annotations

import base64
import binascii
import fcntl
import hashlib
import json
import os
import secrets
import threading
import time as _time

import attrs

from ..errors import DevilError
from . import merkle
from .note import (BadNote, Checkpoint, ED25519, key_hash, parse_checkpoint, parse_verifier_key,
                   split_note)
from .note import leaves as _leaves

#: the signed-note key type of an Ed25519 cosignature/v1 key (tlog-cosignature)
COSIGNATURE_V1 = 0x04
_HEADER = "cosignature/v1\n"
_DASH = "\u2014 "
#: the most consistency-proof lines a request may carry (tlog-witness)
MAX_PROOF = 63
#: the largest add-checkpoint body read (bytes)
MAX_BODY = 64 * 1024


class WitnessMissing(BadNote):
    """A checkpoint without valid cosignatures from enough of the witnesses asked for (exit 3):
    ``missing`` names the witnesses whose cosignature is absent or does not hold."""

    def __init__(self, message: str, missing: list[str]):
        super().__init__(message)
        self.missing = missing


def key_id(name: str, public: bytes) -> bytes:
    """The 4-byte cosignature/v1 key id of the Ed25519 key ``public`` (32 bytes) of the
    witness ``name``: SHA-256(name || 0x0A || 0x04 || public)[:4]."""
    return hashlib.sha256(name.encode() + b"\n" + bytes([COSIGNATURE_V1]) + public).digest()[:4]


def witness_key(name: str, public: bytes) -> str:
    """The witness's verifier key ``name+<key id hex>+base64(0x04 || public)``."""
    return (f"{name}+{key_id(name, public).hex()}+"
            f"{base64.b64encode(bytes([COSIGNATURE_V1]) + public).decode()}")


def check_name(name: str) -> str:
    """``name`` if it may name a witness (signed-note: not empty, no space, no ``+``, at most
    255 bytes); BadNote otherwise."""
    if not name or len(name.encode()) > 255 or "+" in name or any(c.isspace() for c in name):
        raise BadNote(f"{name[:80]!r} cannot name a key: it must be 1 to 255 bytes without "
                      "spaces or '+'")
    return name


def parse_witness_key(text: str) -> tuple[str, bytes]:
    """``(name, public key)`` of a witness's verifier key: type 0x04 (cosignature/v1, its hash
    the key id) or 0x01 (an Ed25519 signed-note key, its hash per signed-note).  BadNote if it
    is malformed or its hash does not match (engine.tlog.note.parse_verifier_key)."""
    return parse_verifier_key(text, {COSIGNATURE_V1: key_id, ED25519: key_hash},
                              "witness key", check_name)


def message(body: str, timestamp: int) -> bytes:
    """The bytes a cosignature/v1 signs: the header line, the time line, the checkpoint body."""
    if not body.endswith("\n"):
        raise ValueError("a checkpoint body ends in a newline")
    return f"{_HEADER}time {timestamp}\n{body}".encode()


def cosign(body: str, name: str, private, timestamp: int) -> str:
    """The cosignature line (ending in a newline) of the witness ``name`` with ``private`` (an
    ``Ed25519PrivateKey``) on the checkpoint ``body`` at ``timestamp`` (Unix seconds, 1 to
    2**63 - 1)."""
    if not 0 < timestamp < 1 << 63:
        raise ValueError("a cosignature's timestamp is 1 to 2**63 - 1")
    public = private.public_key().public_bytes_raw()
    sig = private.sign(message(body, timestamp))
    blob = key_id(name, public) + timestamp.to_bytes(8, "big") + sig
    return f"{_DASH}{name} {base64.b64encode(blob).decode()}\n"


def cosigned_at(note: str, name: str, public: bytes) -> int | None:
    """The timestamp of a valid cosignature of ``note``'s body by the witness ``name`` with
    ``public``, or None (none by that name and key id, or none that holds)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    text, signatures = split_note(note)
    want = key_id(name, public)
    verifier = Ed25519PublicKey.from_public_bytes(public)
    for signer, kid, blob in signatures:
        if signer != name or kid != want or len(blob) != 72:
            continue
        timestamp = int.from_bytes(blob[:8], "big")
        if not 0 < timestamp < 1 << 63:
            continue
        try:
            verifier.verify(blob[8:], message(text, timestamp))
        except InvalidSignature:
            continue
        return timestamp
    return None


def check_witnessed(note: str, keys: list[str], required: int | None = None) -> list[dict]:
    """Check that ``note`` carries valid cosignatures of at least ``required`` (default: all)
    of the witnesses ``keys`` (verifier keys).  Returns ``[{"witness", "time"}]`` for those
    that cosigned; WitnessMissing naming the others when too few did."""
    parsed = list(dict.fromkeys(parse_witness_key(k) for k in keys))  # a key named twice: once
    need = len(parsed) if required is None else required
    if not 0 < need <= len(parsed):
        raise ValueError(f"{need} of {len(parsed)} witnesses cannot be required")
    found, missing = [], []
    for name, public in parsed:
        at = cosigned_at(note, name, public)
        if at is None:
            missing.append(name)
        else:
            found.append({"witness": name, "time": at})
    if len(found) < need:
        raise WitnessMissing(
            f"the checkpoint carries valid cosignatures of {len(found)} of the {len(parsed)} "
            f"witnesses, {need} required; missing: {', '.join(missing)}", missing)
    return found


def witnessed_line(note: str, keys: list[str], required: int | None) -> str:
    """A sentence saying which of the witnesses ``keys`` cosigned ``note`` (what `devil verify
    --witness` prints); WitnessMissing if fewer than ``required`` (default: all) did."""
    found = check_witnessed(note, keys, required)
    named = len({parse_witness_key(k) for k in keys})
    need = named if required is None else required
    return (f"witnessed: cosigned by {len(found)} of {named} witnesses ({need} required): "
            + ", ".join(f["witness"] for f in found))


def add_lines(note: str, lines: list[str]) -> str:
    """``note`` with the signature ``lines`` added (each ``— name base64``, with or without its
    newline), a line already there not repeated."""
    have = note.split("\n")
    out = note if note.endswith("\n") else note + "\n"
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith(_DASH) and line not in have:
            out += line + "\n"
            have.append(line)
    return out


def signature_lines(text: str) -> list[str]:
    """The well-formed cosignature/v1 lines of a witness's 200 answer (each ``— name base64``
    of 76 bytes with a timestamp that is not zero); others are left out."""
    lines = []
    for line in text.split("\n"):
        if not line.startswith(_DASH):
            continue
        name, _, blob = line[len(_DASH):].rpartition(" ")
        try:
            raw = base64.b64decode(blob, validate=True)
        except binascii.Error:
            continue
        if name and len(raw) == 76 and int.from_bytes(raw[4:12], "big") > 0:
            lines.append(line)
    return lines


def request_body(old: int, proof: list[bytes], note: str) -> bytes:
    """The add-checkpoint body: ``old <size>``, the proof's hashes in base64, a blank line,
    the checkpoint note."""
    lines = [f"old {old}"] + [base64.b64encode(h).decode() for h in proof]
    return ("\n".join(lines) + "\n\n" + note).encode()


class StateDamaged(DevilError):
    """A witness's folder whose files cannot be read (exit 3): nothing is cosigned."""

    exit_code = 3


class BadRequest(ValueError):
    """An add-checkpoint body that is malformed (HTTP 400)."""


def parse_request(body: bytes) -> tuple[int, list[bytes], str]:
    """``(old size, proof hashes, checkpoint note)`` of an add-checkpoint body; BadRequest if
    it is malformed."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("the body is not UTF-8") from None
    head, sep, note = text.partition("\n\n")
    if not sep:
        raise BadRequest("no blank line between the old size and proof and the checkpoint")
    lines = head.split("\n")
    old = lines[0][4:] if lines[0].startswith("old ") else ""
    if not (old.isascii() and old.isdigit()) or (old != "0" and old.startswith("0")) \
            or len(old) > 19:
        raise BadRequest(f"the first line must be 'old <size>', not {lines[0][:40]!r}")
    if len(lines) - 1 > MAX_PROOF:
        raise BadRequest(f"more than {MAX_PROOF} consistency proof lines")
    proof = []
    for line in lines[1:]:
        try:
            value = base64.b64decode(line, validate=True)
        except binascii.Error:
            value = b""
        if len(value) != 32:
            raise BadRequest(f"a proof line is not base64 of 32 bytes: {line[:60]!r}")
        proof.append(value)
    return int(old), proof, note


@attrs.frozen
class Answer:
    """What the witness answers an add-checkpoint: an HTTP ``status``, its ``body`` text and
    ``content_type``; ``reason`` says why for a person (the body of a 409 is only the size);
    ``split`` is a split-view proof found (``{"origin", "size", "key", "first", "second"}``) or
    None; ``cosigned`` the note with the cosignature added (200 only)."""

    status: int
    body: str
    reason: str
    content_type: str = "text/plain; charset=utf-8"
    split: dict | None = None
    cosigned: str | None = None


def _b64(root: bytes) -> str:
    return base64.b64encode(root).decode()


def _atomic_write(path: str, data: bytes, mode: int = 0o644) -> None:
    """Write ``data`` to ``path`` whole or not at all: a temporary file beside it, fsynced,
    renamed over it, the folder fsynced."""
    folder = os.path.dirname(path) or "."
    tmp = os.path.join(folder, f".{os.path.basename(path)}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    dfd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def origin_hash(origin: str) -> str:
    """The lowercase hex SHA-256 of a log's origin (tlog-witness's monitoring path)."""
    return hashlib.sha256(origin.encode()).hexdigest()


class WitnessState:
    """A witness's folder: its key (``witness.json``, private to its owner: ``{"name",
    "private": 64 hex digits}``), the logs it witnesses (``logs.json``: origin -> the log's
    verifier key), per origin the last checkpoint it cosigned (``logs/<origin hash>.json``:
    ``{"origin", "size", "root": base64, "note"}``), and the split-view proofs it was shown
    (``splits/<origin hash>-<size>-<n>.json``).  Every file is written atomically and fsynced;
    ``lock`` serialises the check and the update of a cosigning across threads and processes
    (a ``devil witness serve`` and a ``devil witness cosign`` on one folder)."""

    def __init__(self, root: str):
        self.root = root
        self._thread_lock = threading.Lock()

    # -- the key ---------------------------------------------------------------------------
    @classmethod
    def init(cls, root: str, name: str) -> "WitnessState":
        """Make a witness's folder with a new Ed25519 key named ``name``; UsageError if it
        already holds one."""
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        from ..errors import UsageError

        check_name(name)
        os.makedirs(os.path.join(root, "logs"), mode=0o700, exist_ok=True)
        os.makedirs(os.path.join(root, "splits"), mode=0o700, exist_ok=True)
        path = os.path.join(root, "witness.json")
        if os.path.exists(path):
            raise UsageError(f"{root} already holds a witness ({cls(root).name}): its key is "
                             "kept, not replaced")
        private = Ed25519PrivateKey.generate().private_bytes_raw().hex()
        _atomic_write(path, json.dumps({"name": name, "private": private}).encode(), 0o600)
        if not os.path.exists(os.path.join(root, "logs.json")):
            _atomic_write(os.path.join(root, "logs.json"), b"{}")
        return cls(root)

    def _document(self) -> dict:
        from ..errors import UsageError

        path = os.path.join(self.root, "witness.json")
        try:
            with open(path) as handle:
                data = json.load(handle)
            bytes.fromhex(data["private"])
            return data
        except FileNotFoundError:
            raise UsageError(f"{self.root} holds no witness: make one with `devil witness init "
                             f"--state {self.root} --name NAME`") from None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise UsageError(f"the witness key {path} cannot be read ({exc})") from None

    @property
    def name(self) -> str:
        """The witness's name (its key name)."""
        return str(self._document()["name"])

    def private(self):
        """The witness's ``Ed25519PrivateKey``."""
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(self._document()["private"]))

    def key(self) -> str:
        """The witness's verifier key (type 0x04)."""
        return witness_key(self.name, self.private().public_key().public_bytes_raw())

    # -- the logs --------------------------------------------------------------------------
    def logs(self) -> dict[str, str]:
        """origin -> the pinned verifier key of each log witnessed."""
        path = os.path.join(self.root, "logs.json")
        try:
            with open(path) as handle:
                return {str(k): str(v) for k, v in dict(json.load(handle)).items()}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, TypeError) as exc:
            raise StateDamaged(f"the witness's pinned logs {path} cannot be read ({exc})") from None

    def pin(self, key: str) -> str:
        """Witness the log whose verifier key is ``key`` (its name is the log's origin, as a
        devil store signs); returns the origin.  UsageError if the origin is pinned to another
        key (a log's key is not replaced behind the witness's back)."""
        from ..errors import UsageError

        origin, _ = parse_verifier_key(key)
        with self._locked():
            logs = self.logs()
            if logs.get(origin, key) != key:
                raise UsageError(f"the witness already pins {origin} to the key {logs[origin]}, "
                                 f"not {key}: a log's key is not replaced")
            if origin not in logs:
                logs[origin] = key.strip()
                _atomic_write(os.path.join(self.root, "logs.json"),
                              json.dumps(logs, indent=1, sort_keys=True).encode())
        return origin

    def latest(self, origin: str) -> dict | None:
        """The last checkpoint cosigned for ``origin`` (``{"origin", "size", "root", "note"}``)
        or None."""
        path = os.path.join(self.root, "logs", origin_hash(origin) + ".json")
        try:
            with open(path) as handle:
                data = dict(json.load(handle))
            base64.b64decode(data["root"], validate=True)
            int(data["size"])
            return data
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, binascii.Error) as exc:
            raise StateDamaged(f"the witness's state {path} cannot be read ({exc}): it was "
                             "changed behind the witness's back; restore it") from None

    def _save_latest(self, origin: str, head: Checkpoint, note: str) -> None:
        data = {"origin": origin, "size": head.size, "root": _b64(head.root), "note": note}
        os.makedirs(os.path.join(self.root, "logs"), mode=0o700, exist_ok=True)
        _atomic_write(os.path.join(self.root, "logs", origin_hash(origin) + ".json"),
                      json.dumps(data).encode())

    def splits(self) -> list[dict]:
        """Every split-view proof kept, oldest first."""
        folder = os.path.join(self.root, "splits")
        found = []
        for entry in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            if entry.endswith(".json"):
                with open(os.path.join(folder, entry)) as handle:
                    found.append(json.load(handle))
        return sorted(found, key=lambda s: s.get("seen", 0))

    def _keep_split(self, proof: dict) -> None:
        folder = os.path.join(self.root, "splits")
        os.makedirs(folder, mode=0o700, exist_ok=True)
        for kept in self.splits():
            if {kept["first"], kept["second"]} == {proof["first"], proof["second"]}:
                return
        stem = f"{origin_hash(proof['origin'])[:16]}-{proof['size']}-{secrets.token_hex(3)}"
        _atomic_write(os.path.join(folder, stem + ".json"), json.dumps(proof, indent=1).encode())

    class _Locked:
        def __init__(self, state: "WitnessState"):
            self.state = state

        def __enter__(self):
            self.state._thread_lock.acquire()
            try:
                self.fd = os.open(os.path.join(self.state.root, "lock"),
                                  os.O_RDWR | os.O_CREAT, 0o600)
                fcntl.flock(self.fd, fcntl.LOCK_EX)
            except BaseException:
                self.state._thread_lock.release()
                raise
            return self

        def __exit__(self, *exc):
            try:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
                os.close(self.fd)
            finally:
                self.state._thread_lock.release()

    def _locked(self) -> "WitnessState._Locked":
        return WitnessState._Locked(self)


class Witness:
    """The witness's logic on a :class:`WitnessState` (``clock``: Unix seconds, for tests)."""

    def __init__(self, state: WitnessState, clock=_time.time):
        self.state = state
        self.clock = clock

    def add_checkpoint(self, body: bytes) -> Answer:
        """Answer one tlog-witness add-checkpoint request (see the module for the statuses).
        The check against the last cosigned checkpoint and its update happen under the state's
        lock, so two requests cannot roll it back."""
        from .note import open_checkpoint

        if len(body) > MAX_BODY:
            return _refuse(400, f"the request is larger than {MAX_BODY} bytes")
        try:
            old, proof, note = parse_request(body)
            head = parse_checkpoint(split_note(note)[0])
        except (BadRequest, BadNote) as exc:
            return _refuse(400, f"malformed request: {exc}")
        key = self.state.logs().get(head.origin)
        if key is None:
            return _refuse(404, f"this witness does not witness the log {head.origin}: pin it "
                                "with --log VKEY (`devil witness serve --log VKEY` or `devil "
                                "witness cosign --log VKEY`; VKEY: the \"key\" of `devil "
                                "checkpoint --json`)")
        name, public = parse_verifier_key(key)
        try:
            open_checkpoint(note, public, name)
        except BadNote as exc:
            return _refuse(403, f"not signed by the log's pinned key {key}: {exc}")
        if old > head.size:
            return _refuse(400, f"the old size {old} is above the checkpoint's size {head.size}")
        with self.state._locked():
            latest = self.state.latest(head.origin)
            have = 0 if latest is None else int(latest["size"])
            have_root = merkle.EMPTY_ROOT if latest is None else base64.b64decode(latest["root"])
            split = None
            if latest is not None and head.size == have and head.root != have_root:
                split = {"origin": head.origin, "size": have, "key": key,
                         "first": latest["note"], "second": note, "seen": int(self.clock())}
                self.state._keep_split(split)
            if split is not None:
                reason = (f"split view: {head.origin} signed two checkpoints of {_leaves(have)}, "
                          f"with roots {_b64(have_root)} (cosigned before) and "
                          f"{_b64(head.root)} (this one); both kept as proof")
                if old != have:  # the spec answers a stale old size so; the proof is kept
                    return Answer(409, f"{have}\n", reason, "text/x.tlog.size", split)
                return _refuse(422, reason, split)
            if head.size < have:
                reason = (f"a smaller tree: the checkpoint has {_leaves(head.size)} (root "
                          f"{_b64(head.root)}), fewer than the {have} (root {_b64(have_root)}) "
                          "this witness cosigned for the log")
                return Answer(409, f"{have}\n", reason, "text/x.tlog.size")
            if old != have:
                return Answer(409, f"{have}\n", f"the witness last cosigned {_leaves(have)} of "
                              f"{head.origin}, not {old}", "text/x.tlog.size")
            if head.size == 0 and head.root != merkle.EMPTY_ROOT:
                return _refuse(422, "a checkpoint of 0 leaves must have the empty tree's root")
            if old == 0 and proof:
                return _refuse(422, "a consistency proof from 0 leaves is empty")
            if not merkle.verify_consistency(old, head.size, have_root, head.root, proof):
                return _refuse(422, f"a fork: the checkpoint of {_leaves(head.size)} (root "
                                    f"{_b64(head.root)}) does not extend the {_leaves(old)} (root "
                                    f"{_b64(have_root)}) this witness cosigned: the consistency "
                                    "proof does not hold")
            timestamp = max(int(self.clock()), 1)
            # the whole note text is signed, extension lines included (tlog-cosignature)
            line = cosign(split_note(note)[0], self.state.name, self.state.private(), timestamp)
            cosigned = add_lines(note, [line])
            self.state._save_latest(head.origin, head, cosigned)  # persisted before answering
        return Answer(200, line, f"cosigned {_leaves(head.size)} of {head.origin}",
                      cosigned=cosigned)


def _refuse(status: int, reason: str, split: dict | None = None) -> Answer:
    return Answer(status, reason + "\n", reason, split=split)


def check_split_view(first: str, second: str, key: str) -> dict:
    """Check that the checkpoint notes ``first`` and ``second`` prove a split view of the log
    whose verifier key is ``key``: both validly signed by it, one origin, one size, two roots.
    Returns ``{"origin", "size", "roots": [base64, base64], "split": bool}`` (``split`` False:
    the same tree twice); BadNote if a signature does not hold or the checkpoints are of two
    logs; ValueError if their sizes differ (that needs a consistency proof, not this)."""
    from .note import open_checkpoint

    name, public = parse_verifier_key(key)
    a, b = open_checkpoint(first, public, name), open_checkpoint(second, public, name)
    if a.origin != b.origin:
        raise BadNote(f"the checkpoints are of two logs: {a.origin} and {b.origin}")
    if a.size != b.size:
        raise ValueError(f"the checkpoints have {a.size} and {b.size} leaves: a split view is "
                         "two of one size (check two sizes with `devil verify --consistent`)")
    return {"origin": a.origin, "size": a.size, "roots": [_b64(a.root), _b64(b.root)],
            "split": a.root != b.root}
