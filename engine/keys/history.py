"""A store's key history (issue 20.5): which key signs now, which signed before, and how the
keys are linked.  No signing here (engine.keys.rotate makes rotations); engine.receipts asks
:func:`current_name` before it loads the key.

Every key is a store-wide private document, created once (``EventStore.put_store_private``,
so two writers cannot both win): the first key ``signing``, the key of rotation ``n``
``signing`` followed by :func:`letters` of ``n`` (``signinga``, ``signingb``, ...).  Rotation
``n`` is the store-wide document ``rotation`` + :func:`letters` of ``n``::

    {"rotation": 1, "number": n, "old": hex | null, "new": hex, "time": ISO 8601 UTC,
     "reason": text, "old_sig": hex | null, "new_sig": hex}

``old``/``new``: the public keys (64 hex digits; ``old`` null when nobody knew it), ``time``
like a receipt's (``2026-12-02T18:30:00.000Z``).  Both signatures are Ed25519 over the one
line (ASCII, no newline)::

    devil-key-rotation|1|<old hex, or ->|<new hex>|<time>

``old_sig`` by the old key: the old key hands over to the new one; null for a rotation made
without the old key (``devil key rotate --lost``), which every check reports as "replaced
without the old key's signature" (a referee decides what the old key's records are worth).
``new_sig`` by the new key: the new key accepts the record.  The first key's public half is
also kept apart, as the document ``publickey`` (``{"public": hex}``, written with the key, or
on the first load of a store older than it), so a key file deleted or swapped for another is
known as such, and a rotation's old key is checked against it.  The key in use is the newest
rotation's (the first key if there is none); the history is read from rotation 1 up to the
first number with no document.
"""

from __future__ import annotations

from typing import Any

from ..errors import DevilError

#: the first key's document, and the prefix of every rotation's
KEY_DOCUMENT, ROTATION_DOCUMENT = "signing", "rotation"
#: the first key's public half, kept apart from it (``{"public": hex}``): a key file deleted
#: or swapped is known by it
PUBLIC_DOCUMENT = "publickey"
FORMAT = 1


class BadRotation(DevilError):
    """A key history whose records do not hold (a signature, a field, a broken chain), or a
    receipt's key that the history does not link to the key given (exit 3)."""

    exit_code = 3


def letters(n: int) -> str:
    """``n`` (1 or more) in bijective base 26 over a..z: 1 -> ``a``, 26 -> ``z``, 27 ->
    ``aa`` (document names are lowercase letters only)."""
    out = ""
    while n > 0:
        n, digit = divmod(n - 1, 26)
        out = chr(ord("a") + digit) + out
    return out


def key_name(generation: int) -> str:
    """The store-wide document holding the key of ``generation`` (0: the first key)."""
    return KEY_DOCUMENT if generation == 0 else KEY_DOCUMENT + letters(generation)


def rotation_name(number: int) -> str:
    """The store-wide document holding rotation ``number`` (1 or more)."""
    return ROTATION_DOCUMENT + letters(number)


def message(old: str | None, new: str, time: str) -> bytes:
    """The line both keys sign: ``devil-key-rotation|1|<old or ->|<new>|<time>``."""
    return f"devil-key-rotation|{FORMAT}|{old or '-'}|{new}|{time}".encode()


def history(store) -> list[dict]:
    """The rotation records of ``store``, oldest first (see the module).  Raises
    :class:`BadRotation` for a record that cannot be read (not checked here:
    :func:`check_chain`)."""
    out: list[dict] = []
    while True:
        name = rotation_name(len(out) + 1)
        try:
            entry = store.store_private(name)
        except (OSError, ValueError) as exc:
            raise BadRotation(f"the store's key rotation {len(out) + 1} ({_where(store, name)}) "
                              f"cannot be read ({exc})") from None
        if entry is None:
            return out
        out.append(entry)


def current_name(store) -> tuple[str, list[dict]]:
    """The document of the key ``store`` signs with now and the history that says so."""
    entries = history(store)
    return key_name(len(entries)), entries


def first_public(store) -> str | None:
    """The first key's public half kept apart (``publickey``), or None when the store has
    none (a store older than it) or it cannot be read."""
    try:
        document = store.store_private(PUBLIC_DOCUMENT)
    except (OSError, ValueError):
        return None
    public = document.get("public") if isinstance(document, dict) else None
    return public if _hex32(public) else None


def holds_signed_records(store) -> bool:
    """Whether ``store`` holds anything its key signed or will be asked to answer for: a game
    (its receipts, its seal) or a leaf of its transparency log (its checkpoints)."""
    size = getattr(store, "tlog_size", None)
    return bool((size is not None and size() > 0) or store.games())


def _where(store, name: str) -> str:
    path = getattr(store, "store_private_path", None)
    if path is not None:
        return path(name)
    return f"the store's private document {name!r} in {store.location()}"


def _verify(public_hex: str, sig_hex: Any, data: bytes) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex)).verify(
            bytes.fromhex(str(sig_hex)), data)
    except (InvalidSignature, ValueError, TypeError):
        return False
    return True


def _hex32(value: Any) -> bool:
    try:
        return isinstance(value, str) and len(bytes.fromhex(value)) == 32 and value == value.lower()
    except ValueError:
        return False


def check_entry(entry: Any, number: int) -> str | None:
    """Rotation ``number``'s record checked alone: its fields, the new key's signature and,
    unless made without it, the old key's.  Returns None, or the sentence saying what fails."""
    if not isinstance(entry, dict) or entry.get("rotation") != FORMAT:
        return f"rotation {number} is not a devil key rotation (\"rotation\": {FORMAT})"
    old, new, time = entry.get("old"), entry.get("new"), entry.get("time")
    if entry.get("number") != number or not _hex32(new) or not isinstance(time, str) \
            or not (old is None or _hex32(old)) or not isinstance(entry.get("reason"), str):
        return f"rotation {number} is malformed (number, old, new, time or reason)"
    new = str(new)
    line = message(old, new, time)
    if not _verify(new, entry.get("new_sig"), line):
        return f"rotation {number} is not signed by its new key {new[:16]}..."
    if entry.get("old_sig") is not None:
        if old is None or not _verify(old, entry["old_sig"], line):
            return (f"rotation {number}'s old-key signature does not hold: it was not signed "
                    f"by the key it replaces ({str(old)[:16]}...)")
    return None


def check_chain(entries: list[dict], first: str | None = None) -> None:
    """Every record of ``entries`` holds (:func:`check_entry`) and each rotation's old key is
    the key the one before it made (``first``: the first key, when known; a rotation may name
    no old key only when nobody knew it).  Raises :class:`BadRotation` naming the first that
    fails."""
    before = first
    for number, entry in enumerate(entries, 1):
        wrong = check_entry(entry, number)
        if wrong is None and before is not None and entry["old"] != before:
            wrong = (f"rotation {number} replaces key {str(entry['old'])[:16]}..., but the key "
                     f"then in use was {before[:16]}...: the chain is broken")
        if wrong is not None:
            raise BadRotation(f"the key history does not hold: {wrong}")
        before = entry["new"]


def lost(entry: dict) -> bool:
    """Whether a rotation was made without the old key's signature (``--lost``)."""
    return entry.get("old_sig") is None


def describe(entry: dict) -> str:
    """One line of ``devil key --history``."""
    how = ("replaced WITHOUT the old key's signature (--lost: a referee decides)" if lost(entry)
           else "signed by the old key and the new")
    old = f"{entry['old'][:16]}..." if entry.get("old") else "(unknown)"
    return (f"#{entry['number']} {entry['time']}  {old} -> {entry['new'][:16]}...  {how}; "
            f"reason: {entry['reason']}")


def signed_by(named: str, pinned: str, entries: list[dict]) -> str | None:
    """Whether key ``named`` (hex), which signed a receipt, seal or checkpoint, is ``pinned``
    (the key the auditor trusts, usually the store's current one) or an earlier key linked
    to it by ``entries`` (checked with :func:`check_chain` first).  None when it is
    ``pinned``; else a sentence naming the key and when it was rotated (and whether the
    rotation carries the old key's signature).  Raises :class:`BadRotation` when the history
    does not link ``named`` to ``pinned``."""
    named, pinned = named.lower(), pinned.lower()
    if named == pinned:
        return None
    check_chain(entries)
    ends = [i for i, e in enumerate(entries) if e["new"] == pinned]
    if not ends:
        raise BadRotation(f"signed by key {named[:16]}..., not by the key given "
                          f"({pinned[:16]}...), and the key history names no rotation to the "
                          "key given (pass the store's `devil key --history --json`)")
    for index in range(ends[-1], -1, -1):
        entry = entries[index]
        if entry.get("old") == named:
            return (f"signed by key {named[:16]}..., an earlier key of this store, rotated "
                    f"at {entry['time']} (rotation {entry['number']}, " + (
                        "replaced WITHOUT the old key's signature: a referee decides"
                        if lost(entry) else "signed by the old key") + f"; reason: "
                    f"{entry['reason']})")
        if entry.get("old") is None:
            break  # the chain was started again without knowing the key before
    raise BadRotation(f"signed by key {named[:16]}..., which is neither the key given "
                      f"({pinned[:16]}...) nor an earlier key of its history")


def vouched(pin: str, entries: list[dict]) -> dict[str, str | None]:
    """The keys the pinned key ``pin`` (hex) vouches for through the key history ``entries``
    (checked with :func:`check_chain` first; BadRotation if it does not hold): ``pin`` itself
    (``None``) and every key linked to it by rotations signed by both keys, each with a
    sentence saying how.  Forward, a rotation the trusted key signed (``old_sig``) makes the
    next key trusted; backward, a trusted key's ``new_sig`` names the key it replaced.  A
    rotation made without the old key's signature (``--lost``) links nothing: the pinned
    key did not hand over (what a bundle or many-file ``verify --key`` follows)."""
    pin = pin.lower()
    out: dict[str, str | None] = {pin: None}
    if not entries:
        return out
    check_chain(entries)
    # forward: from the pinned key to each key a signed rotation handed over to
    start = next((i for i, e in enumerate(entries) if e.get("old") == pin), None)
    if start is not None:
        for entry in entries[start:]:
            if lost(entry):
                break
            out.setdefault(entry["new"], f"key {entry['new'][:16]}..., the pinned key's "
                           f"successor: rotation {entry['number']} at {entry['time']}, "
                           f"signed by the key before it (reason: {entry['reason']})")
    # backward: from the pinned key to the keys it (and each before it) replaced, signed
    ends = [i for i, e in enumerate(entries) if e["new"] == pin]
    if ends:
        for entry in reversed(entries[:ends[-1] + 1]):
            if lost(entry) or entry.get("old") is None:
                break
            out.setdefault(entry["old"], f"key {entry['old'][:16]}..., an earlier key of the "
                           f"pinned key's store: rotation {entry['number']} at "
                           f"{entry['time']}, signed by the old key (reason: "
                           f"{entry['reason']})")
    return out


def history_of(data: Any) -> list[dict]:
    """A history given to ``devil verify --history FILE``: ``devil key --history --json``
    output (``{"public", "history": [...]}``) or the bare list.  Raises BadRotation."""
    if isinstance(data, dict):
        data = data.get("history")
    if not isinstance(data, list) or not all(isinstance(e, dict) for e in data):
        raise BadRotation("a key history is `devil key --history --json` output (a map with "
                          "\"history\": [...]) or its list of rotations")
    return data
