"""A store's signing key rotated (issue 20.5, ``devil key rotate``): a new key, and the
rotation record that links it to the old one (engine.keys.history: the documents and the
signed line).

Three ways, one record each:

* the store's key is there: it signs the rotation (``devil key rotate --reason TEXT``);
* the key is missing or damaged but a copy of it is kept elsewhere: the copy signs it
  (``--old-key FILE``: the key file, or its 64 hex digits of private key);
* the key is lost: the rotation is recorded without the old key's signature (``--lost``),
  and every check that meets it says so (a referee decides).

The new key is kept first (its document is created once, so of two rotations at once one
wins and the other is refused), then the record; a rotation cut short between the two is
finished by the next, which takes the key already kept.  Stop ``devil serve`` before a
rotation and start it again after: a running service keeps the key it loaded.
"""

from __future__ import annotations

import datetime
import json

from ..errors import ConcurrencyConflict, UsageError
from ..receipts import Signer, SigningKeyDamaged, key_location, parse_key
from .history import (PUBLIC_DOCUMENT, check_chain, current_name, first_public, history,
                      key_name, message, rotation_name)


def now_iso() -> str:
    """Now, as a receipt's time: ISO 8601 UTC with milliseconds (``...T18:30:00.000Z``)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def private_of(text: str) -> Signer:
    """An old key given to ``--old-key``: a key file's contents (``{"private": hex, ...}``)
    or 64 hex digits of private key.  Raises UsageError."""
    text = text.strip()
    try:
        value = json.loads(text).get("private") if text.startswith("{") else text
        return Signer(str(value))
    except (ValueError, AttributeError, TypeError):
        raise UsageError("--old-key is neither a signing key file (`.devil-signing.json`, "
                         "{\"private\": ...}) nor 64 hex digits of private key") from None


def _kept_public(store, name: str) -> str | None:
    """The public key the store knows for its first key (no rotation yet): the first key's
    public half kept apart (``publickey``), else the key document ``name`` if it can be read,
    else the key of a seal a game keeps; None when nothing tells."""
    for read in (lambda: store.store_private(PUBLIC_DOCUMENT)["public"],
                 lambda: Signer(str(store.store_private(name)["private"])).public):
        try:
            return parse_key(str(read()))
        except (OSError, ValueError, KeyError, TypeError, UsageError):
            continue
    for game in store.games():
        try:
            seal = store.private(game, "seal")
            if isinstance(seal, dict):
                return parse_key(str(seal.get("key")))
        except (OSError, ValueError, UsageError):
            continue
    return None


def rotate(store, reason: str, *, old_key: str | None = None, lost: bool = False,
           old_public: str | None = None, time: str | None = None) -> dict:
    """Rotate ``store``'s signing key for ``reason`` and return the rotation record kept
    (engine.keys.history's fields).

    ``old_key``: the old key's private key (``--old-key``'s text: :func:`private_of`), else
    the store's own key signs; ``lost``: record the rotation without the old key's signature
    (refused while the store's key can be loaded); ``old_public``: with ``lost``, the old
    public key when the store cannot tell it (no earlier rotation, the key file gone);
    ``time``: default now.  Raises UsageError for a bad request (no reason, a copy that is not
    the store's key, ``lost`` with the key there), SigningKeyDamaged when the store's key is
    needed and cannot be loaded, BadRotation when the history does not hold,
    ConcurrencyConflict when another rotation came first."""
    reason = (reason or "").strip()
    if not reason:
        raise UsageError("a rotation needs a reason (--reason TEXT): it is kept in the record")
    if lost and old_key is not None:
        raise UsageError("--lost is for a key nobody has; with --old-key the old key signs")
    name, entries = current_name(store)
    check_chain(entries, first_public(store))
    known = entries[-1]["new"] if entries else _kept_public(store, name)
    if lost:
        try:
            Signer.of(store)
        except SigningKeyDamaged:
            pass
        else:
            raise UsageError(f"the store's key ({key_location(store, name)}) is there and "
                             "sound: rotate without --lost, and it signs the rotation")
        if old_public is not None:
            old_public = parse_key(old_public)
            if known is not None and old_public != known:
                raise UsageError(f"--old-public {old_public[:16]}... is not the store's key "
                                 f"({known[:16]}...)")
        old_signer, old = None, known or old_public
    else:
        old_signer = private_of(old_key) if old_key is not None else Signer.of(store)
        if known is not None and old_signer.public != known:
            raise UsageError(f"--old-key is key {old_signer.public[:16]}..., not the store's "
                             f"({known[:16]}...): nothing was recorded")
        old = old_signer.public
    number = len(entries) + 1
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    fresh = Ed25519PrivateKey.generate()
    kept = store.put_store_private(key_name(number), {
        "version": 1, "algorithm": "ed25519", "private": fresh.private_bytes_raw().hex(),
        "public": fresh.public_key().public_bytes_raw().hex()})
    new_signer = Signer(str(kept["private"]))  # another rotation's key, if it was cut short
    when = time or now_iso()
    line = message(old, new_signer.public, when)
    entry = {"rotation": 1, "number": number, "old": old, "new": new_signer.public,
             "time": when, "reason": reason,
             "old_sig": old_signer.sign_bytes(line) if old_signer is not None else None,
             "new_sig": new_signer.sign_bytes(line)}
    recorded = store.put_store_private(rotation_name(number), entry)
    if recorded != entry:
        raise ConcurrencyConflict(f"another rotation {number} was recorded first (at "
                                  f"{recorded.get('time')}): see `devil key --history`")
    check_chain(history(store), first_public(store))
    return entry
