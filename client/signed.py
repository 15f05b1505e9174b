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
    if "seal" in data and "receipt" not in data:  # a seal signs the game's end, not a receipt
        raise UsageError(f"{text.strip()[:80]} is a seal (\"seal\": {data['seal']!r}), not a "
                         "receipt: give it with `devil verify FILE --seal SFILE` (checked "
                         "against the log's last record), not --receipt")
    return data


def _history(obj, history_path: str | None) -> list[dict]:
    """The key history old signatures are checked against: ``--history FILE`` (`devil key
    --history --json`), else the server's or the local store's (engine.keys.history)."""
    from engine.keys.history import history, history_of

    if history_path is not None:  # a file that is no key history is a bad input (exit 2)
        from engine.keys.history import BadRotation

        try:
            return history_of(_load_json(_read_text(history_path, "the key history"),
                                         "the key history"))
        except BadRotation as exc:
            raise UsageError(f"--history {history_path}: {exc.message}") from None
    if obj is None:
        return []
    if getattr(obj, "server", None):  # the server's (GET /key/history)
        return history_of(obj.client.key_history())
    service = getattr(obj.client, "service", None)
    return history(service.store) if service is not None else []


def _key_for(document: dict, key: str | None, entries: list[dict]) -> tuple[str | None,
                                                                             str | None]:
    """The key to check ``document``'s signature with, and a note when it is an earlier key of
    the history (engine.keys.history.signed_by); ``(None, None)`` without ``--key``."""
    if key is None:
        return None, None
    from engine.keys.history import BadRotation, signed_by
    from engine.receipts import BadSignature

    named = str(document.get("key", "")).lower()
    try:
        note = signed_by(named, key, entries)
    except BadRotation as exc:
        if not entries:  # no history: "signed by key X, not by the key given" (check_signature)
            return key, None
        raise BadSignature(exc.message, document.get("seq")) from None
    return (key, None) if note is None else (named, note)


def check_signed(obj, source, result, receipts, key_text, seal_path,
                 history_path: str | None = None) -> list[dict]:
    """Add the receipt and seal checks to ``result`` (an engine.replay.Verification), marking
    it failed (first bad record and reason) at the first that does not hold.  A receipt or
    seal signed by an earlier key of the store's key history (``--history FILE``, else the
    local store's) is accepted with ``--key`` the current key, and named (issue 20.5).
    Returns each receipt's standing (engine.desk.standing: in force, or voided by which
    record, how, when, by whom, why; issue 20.6)."""
    from engine.desk.amend import receipt_note
    from engine.log import scan
    from engine.receipts import (BadSignature, check_receipt_in, check_seal_of, check_signature,
                                 parse_key)

    from engine.desk.standing import standing, standing_text

    key = parse_key(_read_text(key_text, "the key")) if key_text else None
    entries = _history(obj, history_path) if key is not None else []
    standings: list[dict] = []
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
        return standings
    data = source.data
    if data is None:
        with open(source.path, "rb") as handle:
            data = handle.read()
    scanned = scan(data, source.label)
    records = scanned.records
    try:
        for receipt in parsed:
            used, older = _key_for(receipt, key, entries)
            check_signature(receipt, "receipt", used)
            result.checks.append(check_receipt_in(records, result.game, receipt)
                                 + ("" if key else "; signature checked by the key it names "
                                    "(give --key to check whose key that is)"))
            if older is not None:
                result.checks.append("receipt: " + older)
            found = standing(records, receipt["seq"], scanned.header.created)
            if found["verdict"] == "voided":  # by whom: the seats' names
                from engine.replay import load_bytes

                found = standing(records, receipt["seq"], scanned.header.created,
                                 load_bytes(data, source.label).names)
            standings.append(found)
            result.checks.append(standing_text(found))
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
                    if used is None or used == key:
                        raise BadSignature(exc.message, receipt["seq"]) from None
                    try:  # proved before the rotation: the old key signed the checkpoint
                        result.checks.append(check_inclusion(receipt, bytes.fromhex(used)))
                    except BadNote as again:
                        raise BadSignature(again.message, receipt["seq"]) from None
        if seal is not None or key is not None:
            if seal is not None:
                used, older = _key_for(seal, key, entries)
                check_signature(seal, "seal", used)
                if older is not None:
                    result.checks.append("seal: " + older)
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
    return standings
