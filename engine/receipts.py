"""Signed receipts and seals (issue 13.2): what a seat holds to prove what the log contained.

A hash chain shows an edit, but not that its end was cut off.  So the service signs:

* a **receipt** for every accepted command: the game, the sequence number and the link of the
  command's last record, and that record's time.  A log cut before the receipt's record (or
  changed at or before it) no longer holds ``seq`` with ``link``: ``devil verify FILE --receipt
  R`` fails.
* a **seal** when a game ends: the same fields for the game's final record.  ``devil verify
  --key PUB`` reports a finished game whose seal is missing, wrong, or names another end.

Signatures are Ed25519 (the ``cryptography`` package) over one line of text, so a third party
can check them with any Ed25519 library::

    devil-receipt|1|<game>|<seq>|<link hex>|<time>      (a receipt)
    devil-seal|1|<game>|<seq>|<link hex>|<time>         (a seal)

``time`` is the record's time, ISO 8601 UTC with milliseconds (``2026-12-01T19:47:08.123Z``).
A receipt or seal is the JSON map ``{"receipt"|"seal": 1, "game", "seq", "link", "time",
"key", "sig"}`` (``link``, ``key`` and ``sig`` in lowercase hex; ``key`` the signer's public
key, 32 bytes).

The signing key is the store's, created on first use and kept as the store-wide private
document ``"signing"`` (the file store: ``<folder>/.devil-signing.json``, mode 0600), so every
node serving one store signs with the same key.  ``devil key`` prints the public key.  A key
is never silently replaced: once the store holds a game or a leaf, a missing key is an error,
and a new key comes only by a rotation (engine.keys: ``devil key rotate``), after which the
key is the document the newest rotation names (``signinga``, ...).
"""

from __future__ import annotations

from typing import Any

from .errors import DevilError, UsageError

#: the store-wide private document holding the signing key
KEY_DOCUMENT = "signing"
FORMAT = 1


class BadSignature(DevilError):
    """A receipt or seal whose signature, key or fields do not hold, or a log that does not
    hold what it signed (exit 3).  ``seq``: the first record of the log that fails, if any."""

    exit_code = 3

    def __init__(self, message: str, seq: int | None = None):
        super().__init__(message)
        self.seq = seq


class SigningKeyDamaged(DevilError):
    """The store's signing key document cannot be read or is not an Ed25519 key (exit 3): the
    service answers no command without a receipt, so it records nothing and `devil serve`
    does not start.  Checked before anything is appended (:meth:`Signer.of`)."""

    exit_code = 3


def key_location(store, name: str = KEY_DOCUMENT) -> str:
    """Where ``store`` keeps its signing key (the document ``name``: engine.keys.history), for
    messages: the file store's file, else the store-wide private document of the store's
    location."""
    path = getattr(store, "store_private_path", None)
    if path is not None:
        return path(name)
    return f"the store's private document {name!r} in {store.location()}"


#: how to go on when the key is gone or damaged (issue 20.5: a key is never silently replaced)
ROTATE_HINT = ("Put back a good copy of that file, or rotate to a new key: `devil key rotate "
               "--old-key COPY --reason TEXT` (COPY: a copy of the old key file, which signs the "
               "rotation) or, if the old key is lost, `devil key rotate --lost --reason TEXT` "
               "(recorded as a key replaced without the old key's signature)")


def _damaged(store, reason: str, name: str = KEY_DOCUMENT) -> SigningKeyDamaged:
    return SigningKeyDamaged(
        f"the store's signing key ({key_location(store, name)}) {reason}: nothing was "
        "recorded, and no command can be until it is repaired. " + ROTATE_HINT)


#: the seal's format with the voided records (issue 20.6); receipts and old seals are FORMAT
SEAL_VOIDS = 2


def _message(what: str, game: str, seq: int, link: str, time: str,
             voids: str | None = None) -> bytes:
    if voids is not None:  # a seal of format 2: the voided records' ranges signed too
        return f"devil-{what}|{SEAL_VOIDS}|{game}|{seq}|{link}|{time}|{voids}".encode()
    return f"devil-{what}|{FORMAT}|{game}|{seq}|{link}|{time}".encode()


class Signer:
    """The store's Ed25519 key.  :meth:`of` loads (or, the first time, creates) it."""

    def __init__(self, private_hex: str):
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        self._key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(private_hex))
        self.public = self._key.public_key().public_bytes_raw().hex()

    @classmethod
    def of(cls, store) -> "Signer":
        """The signing key of ``store`` (an EventStore): the key of its newest rotation
        (engine.keys.history), created and kept on first use in a store that holds no game
        and no leaf yet.  Raises :class:`SigningKeyDamaged` if the kept document cannot be
        read or is not a key, if the key history does not hold, or if the key is missing
        from a store that holds records it signed (a key is never silently replaced: the
        message says how to rotate, issue 20.5).
        (The service keeps the signer it loaded: :meth:`engine.service.GameService.signer`.)"""
        from .keys.history import (PUBLIC_DOCUMENT, BadRotation, check_chain, current_name,
                                   first_public, holds_signed_records)

        try:
            name, entries = current_name(store)
            check_chain(entries, first_public(store) if entries else None)
        except BadRotation as exc:
            raise SigningKeyDamaged(f"{exc.message}: nothing was recorded, and no command can "
                                    "be until it is repaired") from None
        try:
            document = store.store_private(name)
        except (OSError, ValueError) as exc:  # not JSON, not a JSON object, unreadable
            raise _damaged(store, f"cannot be read ({exc})", name) from None
        if document is None:
            if entries or holds_signed_records(store):  # never silently replaced (20.5)
                raise _damaged(store, "is missing, but the store holds records it signed "
                                      "(receipts, seals, checkpoints): a new key would not "
                                      "match them", name)
            from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

            key = Ed25519PrivateKey.generate()
            document = store.put_store_private(KEY_DOCUMENT, {
                "version": 1, "algorithm": "ed25519",
                "private": key.private_bytes_raw().hex(),
                "public": key.public_key().public_bytes_raw().hex()})
        try:
            signer = cls(str(document["private"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise _damaged(store, f"is not an Ed25519 key ({type(exc).__name__}: {exc})",
                           name) from None
        if document.get("public") not in (None, signer.public):
            raise _damaged(store, "is not an Ed25519 key (its public key is not its private "
                                  "key's)", name)
        if entries and signer.public != entries[-1]["new"]:
            raise _damaged(store, f"is not the key the store's last rotation made "
                                  f"({entries[-1]['new'][:16]}...)", name)
        if not entries:  # the first key: its public half kept apart knows a swapped file
            try:
                first = store.store_private(PUBLIC_DOCUMENT) or store.put_store_private(
                    PUBLIC_DOCUMENT, {"public": signer.public})
            except (OSError, ValueError) as exc:
                raise _damaged(store, f"cannot be checked: its public half "
                                      f"({key_location(store, PUBLIC_DOCUMENT)}) cannot be "
                                      f"read ({exc})", name) from None
            if first.get("public") != signer.public:
                raise _damaged(store, f"is not the store's key: the store's public key is "
                                      f"{str(first.get('public'))[:16]}... "
                                      f"({key_location(store, PUBLIC_DOCUMENT)})", name)
        return signer

    def _sign(self, what: str, game: str, seq: int, link: bytes, time: str,
              voided: list[int] | None = None) -> dict:
        from .desk.standing import voids_text

        link_hex = link.hex()
        voids = None if voided is None else voids_text(sorted(voided))
        sig = self._key.sign(_message(what, game, seq, link_hex, time, voids)).hex()
        out = {what: FORMAT if voids is None else SEAL_VOIDS, "game": game, "seq": seq,
               "link": link_hex, "time": time, "key": self.public, "sig": sig}
        if voids is not None:
            out["voided"] = voids
        return out

    def receipt(self, game: str, seq: int, link: bytes, time: str) -> dict:
        """A signed receipt for the record ``seq`` (with chain link ``link``, 8 bytes, recorded
        at ``time``, ISO 8601) of ``game``."""
        return self._sign("receipt", game, seq, link, time)

    def seal(self, game: str, seq: int, link: bytes, time: str,
             voided: list[int] | None = None) -> dict:
        """A signed seal: ``seq``/``link`` is the final record of the finished ``game``.  With
        ``voided`` (the sequence numbers of every record the game's desk voided, issue 20.6)
        a seal of format 2, which signs them too (``"voided"``: their ranges, ``"3-5,9"``, ``""``
        for none); without, format 1."""
        return self._sign("seal", game, seq, link, time, voided)

    def sign_bytes(self, data: bytes) -> str:
        """The Ed25519 signature (128 hex digits) of ``data``: a key rotation's line
        (engine.keys.history.message)."""
        return self._key.sign(data).hex()

    def note(self, text: str, name: str) -> str:
        """``text`` as a C2SP signed note signed by this key under the key name ``name``
        (engine.tlog.note: a checkpoint of the store's transparency log)."""
        from .tlog.note import sign_note

        return sign_note(text, name, self._key)


def public_key(store) -> str:
    """The store's public key (64 hex digits), creating the key pair on first use."""
    return Signer.of(store).public


def parse_key(text: str) -> str:
    """A public key given on the command line: 64 hex digits, or ``devil key --json`` output
    (``{"public": ...}``).  Raises UsageError."""
    text = text.strip()
    if text.startswith("{"):
        import json

        try:
            text = str(json.loads(text).get("public", ""))
        except (ValueError, AttributeError):
            raise UsageError("the key is neither 64 hex digits nor `devil key --json` output") \
                from None
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raw = b""
    if len(raw) != 32:
        raise UsageError(f"a public key is 64 hex digits (32 bytes: `devil key`), "
                         f"not {text[:80]!r}")
    return raw.hex()


def check_signature(document: Any, what: str, key: str | None = None) -> dict:
    """``document`` checked as a signed ``what`` (``"receipt"`` or ``"seal"``): its fields and
    its signature, by ``key`` (hex) when given, else by the key it names.  Returns the
    document; raises :class:`BadSignature` naming what fails."""
    formats = (FORMAT, SEAL_VOIDS) if what == "seal" else (FORMAT,)
    if not isinstance(document, dict) or document.get(what) not in formats \
            or type(document.get(what)) is not int:
        raise BadSignature(f"this is not a devil {what} (a JSON map with \"{what}\": {FORMAT}"
                           + (f" or {SEAL_VOIDS}" if what == "seal" else "") + ")")
    voids = document.get("voided") if document[what] == SEAL_VOIDS else None
    try:
        game, seq = document["game"], document["seq"]
        link, time = document["link"], document["time"]
        sig, named = bytes.fromhex(document["sig"]), document["key"]
        if not (isinstance(game, str) and type(seq) is int and seq >= 0 and isinstance(time, str)
                and len(bytes.fromhex(link)) == 8
                and (document[what] == FORMAT or isinstance(voids, str))):
            raise ValueError("a field has the wrong type")
    except (KeyError, TypeError, ValueError) as exc:
        raise BadSignature(f"the {what} is malformed ({exc})") from None
    if key is not None and str(named).lower() != key.lower():
        raise BadSignature(f"the {what} was signed by key {str(named)[:16]}..., not by the key "
                           f"given ({key[:16]}...)")
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(key or str(named)))
        public.verify(sig, _message(what, game, seq, str(link).lower(), time, voids))
    except (InvalidSignature, ValueError):
        raise BadSignature(f"the {what}'s signature does not hold: it was not signed by "
                           f"{'the key given' if key else 'the key it names'}, or a field was "
                           "changed") from None
    return document


def check_receipt_in(records: list, game: str, receipt: dict) -> str:
    """Whether the log's ``records`` (of ``game``) hold the receipt's record: a sentence saying
    so, or :class:`BadSignature` naming why not (another game, a log cut before the record, a
    record whose link differs).  The signature is checked by :func:`check_signature`."""
    if receipt["game"] != game:
        raise BadSignature(f"the receipt is for game {receipt['game']}, this log is {game}")
    seq = receipt["seq"]
    last = records[-1].seq if records else 0
    if seq > last:
        raise BadSignature(f"the log ends at record {last}, before the receipt's record {seq}: "
                           "it was cut off after the receipt was given", last + 1)
    if seq == 0:
        raise BadSignature("a receipt names a record (seq 1 or more), not the header")
    record = records[seq - 1]
    if record.link.hex() != str(receipt["link"]).lower():
        raise BadSignature(f"record {seq}'s link is {record.link.hex()}, the receipt's is "
                           f"{receipt['link']}: the log was changed at or before that record", seq)
    return (f"receipt: record {seq} with link {record.link.hex()} is in the log "
            f"(signed {receipt['time']})")


def check_seal_of(records: list, game: str | None, finished: bool, seal: dict | None) -> str:
    """The seal against the log's end: a sentence, or :class:`BadSignature` for a finished game
    without a seal, or a seal naming another game or another final record."""
    if seal is None:
        if finished:
            raise BadSignature("the game is finished but has no seal: ask the service for it "
                               "(`devil export --seal`), or the log's end may not be the "
                               "one sealed", seq_end(records))
        return "seal: none (the game is not finished; a game is sealed when it ends)"
    if seal["game"] != game:
        raise BadSignature(f"the seal is for game {seal['game']}, this log is {game}")
    last = records[-1] if records else None
    seq = last.seq if last else 0
    if seal["seq"] > seq:
        raise BadSignature(f"the seal's final record is {seal['seq']}, but the log ends at "
                           f"record {seq}: its end was cut off", seq + 1)
    if seal["seq"] < seq:
        raise BadSignature(f"the seal's final record is {seal['seq']}, but the log goes on to "
                           f"record {seq}: records were added after the game was sealed",
                           seal["seq"] + 1)
    if last is None or last.link.hex() != str(seal["link"]).lower():
        raise BadSignature(f"the log's final record {seq} has another link than the sealed one: "
                           "the log was changed", seq)
    if seal.get("seal") == SEAL_VOIDS:  # the voids it covers (issue 20.6)
        from .desk.standing import voided_seqs, voids_text

        try:
            voids = voids_text(voided_seqs(records))
        except DevilError as exc:
            raise BadSignature(f"the log's voids cannot be read ({exc})", seq) from None
        if voids != seal.get("voided"):
            raise BadSignature(f"the seal covers the voided records {seal.get('voided') or 'none'}"
                               f", the log voids {voids or 'none'}: a void was added or cut", seq)
        return (f"seal: the final record {seq} is the one sealed {seal['time']}, with the "
                f"voided records {voids or 'none'}")
    return f"seal: the final record {seq} is the one sealed {seal['time']}"


def seq_end(records: list) -> int:
    """The last sequence number of ``records`` (0 for none)."""
    return records[-1].seq if records else 0


def seal_stream(store, game: str) -> dict:
    """Seal ``game`` in ``store`` at its current head (the caller knows the game is finished:
    :func:`engine.simulate.play_game` after importing a finished game), keep the seal as the
    game's private document ``"seal"`` and return it."""
    from .log import iso_time

    head = store.head(game)
    batch = store.read(game, after=max(0, head.seq - 1))
    last = batch.records[-1]
    from .desk.standing import voided_seqs

    voided = voided_seqs(store.read(game).records)  # the voids it covers (issue 20.6)
    seal = Signer.of(store).seal(game, last.seq, last.link,
                                 iso_time(batch.header.created, last.ts), voided)
    store.put_private(game, "seal", seal, replace=True)
    return seal


def seal_of(store, game: str) -> dict | None:
    """The seal ``store`` keeps for ``game`` if it names the log's current head (its final
    record), else None (not finished, never sealed, or the log moved on since).  What the
    tournament bundle puts beside each game (engine.tournament.bundle); a running service
    seals on demand with :meth:`engine.service.GameService.seal`."""
    kept = store.private(game, "seal")
    if not isinstance(kept, dict):
        return None
    head = store.head(game)
    if kept.get("seq") != head.seq or kept.get("link") != head.link.hex():
        return None
    return kept
