"""`devil verify --receipt/--key/--seal`: a verified log checked against what the service
signed (engine.receipts).  Used by client.cmd_tools.verify for one game."""

from __future__ import annotations

import os

from engine.errors import UsageError


def _read_text(value: str, what: str) -> str:
    """``value`` itself, or the contents of the file it names."""
    if os.path.isfile(value):
        try:
            with open(value) as handle:
                return handle.read(1 << 20)
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read {what} {value}: {exc}") from None
    return value


def _load_json(text: str, what: str):
    from engine.jsonsafe import loads

    return loads(text.encode("utf-8"), what)


def receipt_of(text: str, game: str | None) -> dict:
    """A receipt named on the command line: JSON, a file holding it, or a sequence number
    among the receipts this client kept for ``game``."""
    if text.strip().isascii() and text.strip().isdigit():
        from .receipts import kept

        seq = int(text)
        if game is None:
            raise UsageError("a receipt given by number needs a readable game")
        for entry in kept(game):
            if entry.get("seq") == seq:
                return entry
        raise UsageError(f"this client kept no receipt for record {seq} of {game} "
                         "(see `devil receipts GAME`)")
    data = _load_json(_read_text(text, "the receipt"), "the receipt")
    if not isinstance(data, dict):
        raise UsageError("a receipt is a JSON object (`devil receipts GAME --json`)")
    return data


def check_signed(obj, source, result, receipts, key_text, seal_path) -> None:
    """Add the receipt and seal checks to ``result`` (an engine.replay.Verification), marking
    it failed (first bad record and reason) at the first that does not hold."""
    from engine.desk.amend import receipt_note
    from engine.log import scan
    from engine.receipts import (BadSignature, check_receipt_in, check_seal_of, check_signature,
                                 parse_key)

    key = parse_key(_read_text(key_text, "the key")) if key_text else None
    parsed = [receipt_of(text, result.game) for text in receipts]
    seal = None
    if seal_path is not None:
        seal = _load_json(_read_text(seal_path, "the seal"), "the seal")
    elif source.path is not None and os.path.isfile(source.path + ".seal.json"):
        seal = _load_json(_read_text(source.path + ".seal.json", "the seal"), "the seal")
    elif source.path is None:  # a game in the local store: the seal it keeps
        seal = obj.client.service.store.private(result.game, "seal")
    if not result.ok:
        result.checks.append("receipts and seal not checked: the log fails before them")
        return
    data = source.data
    if data is None:
        with open(source.path, "rb") as handle:
            data = handle.read()
    records = scan(data, source.label).records
    try:
        for receipt in parsed:
            check_signature(receipt, "receipt", key)
            result.checks.append(check_receipt_in(records, result.game, receipt)
                                 + ("" if key else "; signature checked by the key it names "
                                    "(give --key to check whose key that is)"))
            note = receipt_note(records, receipt["seq"])  # an amendment re-applied it (DESK-9)
            if note is not None:
                result.checks.append("receipt: " + note)
            if "tlog" in receipt:  # proved (`devil prove`): inclusion, offline (engine.tlog)
                from engine.tlog.log import check_inclusion
                from engine.tlog.note import BadNote

                try:
                    result.checks.append(check_inclusion(receipt, bytes.fromhex(
                        key or receipt["key"])))
                except BadNote as exc:
                    raise BadSignature(exc.message, receipt["seq"]) from None
        if seal is not None or key is not None:
            if seal is not None:
                check_signature(seal, "seal", key)
            result.checks.append(check_seal_of(records, result.game, result.finished, seal)
                                 + ("" if key or seal is None else
                                    "; signature checked by the key it names"))
    except BadSignature as exc:
        result.ok = False
        result.first_bad_seq = exc.seq
        result.reason = exc.message
        result.checks.append("signed: " + exc.message)
    if key is not None and result.ok and (parsed or seal is not None):
        result.checks.append(f"signed by key {key}")
    elif key is None and result.ok and (parsed or seal is not None):  # TOUR-6.16
        what, named = ("seal", seal) if seal is not None else ("receipt", parsed[0])
        result.checks.append(f"key {named.get('key')} found in the {what} is NOT pinned: pass "
                             "--key to check who signed it")
