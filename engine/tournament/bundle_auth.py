"""Authenticated tournament bundles (issue 20.7; docs/tournaments.md "The bundle", TOUR-6.10
to TOUR-6.16; docs/trust.md "A bundle against its operator").

A version-2 bundle (engine.tournament.bundle writes the files) adds to its manifest:

* the tournament stream's ``seal`` (engine.receipts: the store's Ed25519 signature on the
  stream's head when the bundle was written; the final record of a finished tournament, the
  one the service sealed when it finished) beside every finished game's seal (TOUR-6.10);
* ``tlog``: the store's signed checkpoint (engine.tlog.note, a C2SP signed note) at the time of
  writing, its ``origin``, ``size``, ``root`` (hex) and ``key`` (the signed-note verifier key),
  and in every log's entry ``tlog``: ``{"index", "proof"}``, the leaf of the log's head
  (engine.tlog.leaves) and its RFC 6962 inclusion proof under that checkpoint (TOUR-6.10).

:func:`check` verifies them against the key the reader pins (``--key``), or, unpinned, against
the manifest's own ``key`` (integrity only: anyone can re-sign a whole bundle with a key of
their own, TOUR-6.13); :func:`check_old` compares the bundle with a checkpoint or an earlier
bundle kept by an auditor (TOUR-6.15).  No I/O here but :func:`old_from_bundle`, which reads
a bundle's files through engine.tournament.bundle.Reader.
"""

from __future__ import annotations

import re
from typing import Callable

from ..errors import UsageError

VERSION = 2
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def is_key(value) -> bool:
    """Whether ``value`` is a public key as a manifest names it: 64 lowercase hex digits."""
    return isinstance(value, str) and _HEX64.match(value) is not None


def parse_pin(text: str) -> str:
    """The public key (64 hex digits) the reader pins, from ``--key``'s text (the caller reads
    a file first): 64 hex digits, ``devil key --json`` output, a C2SP verifier key
    ``name+hash+base64`` as `devil checkpoint` prints it, or ``devil checkpoint --json`` output
    (its ``key``).  UsageError (TOUR-6.12) otherwise."""
    import json

    from ..receipts import parse_key
    from ..tlog.note import BadNote, parse_verifier_key

    text = text.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("public"), str):
            text = data["public"]
        elif isinstance(data, dict) and isinstance(data.get("key"), str):
            text = data["key"]
    try:
        if "+" in text:
            return parse_verifier_key(text)[1].hex()
        return parse_key(text)
    except (BadNote, UsageError) as exc:
        raise UsageError(f"TOUR-6.12: --key is neither 64 hex digits (`devil key`) nor a "
                         f"verifier key name+hash+base64 (`devil checkpoint --json`): "
                         f"{exc.message}") from None


def _head_of(data: bytes) -> tuple[int, bytes, str]:
    """``(seq, link, time)`` of a log's last record (the header's for an empty log)."""
    from ..log import iso_time, scan

    scanned = scan(data)
    if not scanned.records:
        return 0, scanned.header.link, iso_time(scanned.header.created, 0)
    last = scanned.records[-1]
    return last.seq, last.link, iso_time(scanned.header.created, last.ts)


def stream_seal(store, tournament: str, data: bytes, finished: bool) -> dict:
    """The seal of the tournament stream ``data`` at its head (TOUR-6.10): the one the store
    keeps if it names this head, else one signed now (kept too when the tournament is
    finished: the one the service makes when the last round closes)."""
    from ..receipts import Signer, seal_of

    kept = seal_of(store, tournament)
    if kept is not None:
        return kept
    seq, link, time = _head_of(data)
    seal = Signer.of(store).seal(tournament, seq, link, time)
    if finished:
        store.put_private(tournament, "seal", seal, replace=True)
    return seal


def authenticate(store, manifest: dict, logs: list[bytes]) -> None:
    """Add TOUR-6.10's fields to ``manifest`` (its ``logs`` in the order of ``logs``, their
    bytes): the stream's seal, the store's checkpoint and each head's leaf and inclusion
    proof (``"tlog": null`` for a head the store's log lacks: written before it kept one)."""
    from ..receipts import Signer
    from ..tlog import log as tlog, merkle
    from ..tlog.leaves import entry as leaf_entry

    stream = manifest["logs"][0]
    stream["seal"] = stream_seal(store, stream["game"], logs[0], bool(manifest["finished"]))
    if not tlog.has_tlog(store):
        return
    wanted = [leaf_entry(e["game"], e["seq"], bytes.fromhex(e["link"]))
              for e in manifest["logs"]]
    for _attempt in range(2):  # a head written just now may add its leaf a moment later
        kept = tlog.tree(store)
        size = len(kept)
        index = {leaf: i for i, leaf in enumerate(store.tlog_entries(0, size))}
        if all(w in index for w in wanted):
            break
    signed = tlog.checkpoint(store, Signer.of(store), size)
    for entry, want in zip(manifest["logs"], wanted):
        at = index.get(want)
        entry["tlog"] = None if at is None else {
            "index": at, "proof": [p.hex() for p in merkle.inclusion_proof(kept, at, size)]}
    manifest["tlog"] = signed


def _label(entry: dict) -> str:
    if entry.get("role") == "game":
        return f"game {entry.get('game')} (round {entry.get('round')}, table {entry.get('table')})"
    return f"the tournament stream {entry.get('game')}"


def check(manifest: dict, seen: list[dict], pin: str | None, complete: bool = True,
          history: list[dict] | None = None) -> dict:
    """Check a bundle's authentication (TOUR-6.11, 6.13, 6.14).  ``seen``: the logs that read
    and verified, each ``{"entry": manifest entry, "data": bytes, "finished": bool}``;
    ``pin``: the key the reader pinned (64 hex digits) or None; ``complete``: whether every
    log of the bundle verified (else no line says that all of them hold).  Pinned, the store's
    key history (``history``, else the manifest's ``key_history``) is followed: a key the
    pinned key handed over to by a signed rotation, or one it replaced, is trusted too
    (engine.keys.history.vouched; a ``--lost`` rotation links nothing).  Returns ``{"problems",
    "checks", "pinned", "key", "keys", "version", "authenticated", "checkpoint"}`` (``key``
    the key the checkpoint was checked with, None if there was none to use; ``keys`` every
    key trusted; ``checkpoint`` the opened engine.tlog.note.Checkpoint or None)."""
    version = manifest.get("version")
    found = manifest.get("key") if is_key(manifest.get("key")) else None
    out: dict = {"problems": [], "checks": [], "pinned": pin is not None,
                 "key": pin or found, "keys": [k for k in (pin or found,) if k],
                 "version": version, "authenticated": False, "checkpoint": None}
    problems = out["problems"]
    if version == 1:
        out["checks"].append("version 1: unauthenticated: the bundle holds no checkpoint and its "
                             "tournament stream is not sealed (TOUR-6.13); write it again "
                             "for version 2")
        return out
    if version != VERSION:
        problems.append(f"TOUR-6.11: manifest field version is {version!r}: this devil reads "
                        "versions 1 and 2")
        return out
    if "key" not in manifest:
        problems.append("TOUR-6.11: manifest field key is missing: a version 2 bundle names "
                        "the store's public key (64 hex digits)")
    elif found is None:
        problems.append(f"TOUR-6.11: manifest field key is not 64 hex digits "
                        f"({str(manifest.get('key'))[:80]!r})")
    keys: dict[str, str | None] = {}
    if pin is not None:
        keys = _vouched(pin, manifest, history, problems, out["checks"])
        if found is not None and found not in keys:
            problems.append(f"TOUR-6.11: manifest field key is {found}, not the pinned key "
                            f"{pin}" + ("" if len(keys) == 1 else " nor a key the key history "
                                        "links to it by a signed rotation"))
        elif found is not None and found != pin:
            out["checks"].append(f"key: the bundle is signed by {keys[found]}")
    trusted = (found if found in keys else pin) if pin is not None else found
    if trusted is None:
        return out
    keys = keys or {trusted: None}
    out["key"], out["keys"] = trusted, list(keys)
    whose = "the pinned key" if pin else "the manifest's key"
    for item in seen:
        problem = _seal_problem(item, keys, whose)
        if problem is not None:
            problems.append(f"TOUR-6.11: {_label(item['entry'])}: {problem}")
    head = _checkpoint(manifest, trusted, pin is not None, problems)
    out["checkpoint"] = head
    if head is not None:
        _inclusions(seen, head, problems, out["checks"] if complete else [])
    if not problems:
        out["authenticated"] = complete
        if pin is not None and complete:
            out["checks"].append(f"pinned: every seal and the checkpoint are signed by key "
                                 f"{pin}" + ("" if len(keys) == 1 else
                                            " or a key its key history links to it"))
    return out


def _vouched(pin: str, manifest: dict, history: list[dict] | None, problems: list[str],
             checks: list[str]) -> dict[str, str | None]:
    """The keys ``pin`` vouches for through ``history`` or the manifest's ``key_history``
    (engine.keys.history.vouched): ``{pin: None}`` alone when there is none, or it does not
    hold (a problem added)."""
    from ..keys.history import BadRotation, history_of, vouched

    given = history if history is not None else manifest.get("key_history")
    if given is None:
        return {pin: None}
    try:
        keys = vouched(pin, history_of(given) if history is None else given)
    except BadRotation as exc:
        where = "--history" if history is not None else "manifest field key_history"
        problems.append(f"TOUR-6.11: {where}: {exc.message}")
        return {pin: None}
    skipped = [e for e in history_of(given) if e.get("old_sig") is None]
    if skipped and len(keys) == 1:
        checks.append(f"key: rotation {skipped[0]['number']} was made WITHOUT the old key's "
                      "signature (--lost): the key after it is not trusted from the pinned "
                      "key (a referee decides)")
    return keys


def _seal_problem(item: dict, keys: dict[str, str | None], whose: str) -> str | None:
    """What is wrong with one log's seal in a version-2 manifest, or None."""
    from ..log import scan
    from ..receipts import BadSignature, check_seal_of, check_signature

    entry, stream = item["entry"], item["entry"].get("role") != "game"
    seal = entry.get("seal")
    needed = stream or item["finished"]
    if seal is None:
        if not needed:
            return None  # a game still running in an unfinished tournament
        return ("manifest field seal is null: a version 2 bundle seals the stream" if stream
                else "manifest field seal is null for a finished game")
    named = str(seal.get("key")).lower()
    if named not in keys:
        return f"sealed by key {seal.get('key')}, not {whose}" + (
            "" if len(keys) == 1 else " nor a key its key history links to it")
    try:
        check_signature(seal, "seal", named)
        check_seal_of(scan(item["data"]).records, entry.get("game"), needed, seal)
    except BadSignature as exc:
        return f"its seal does not hold: {exc.message}"
    return None


def _checkpoint(manifest: dict, trusted: str, pinned: bool, problems: list[str]):
    """The bundle's checkpoint opened with ``trusted``, or None (a problem added)."""
    from ..tlog.note import BadNote, open_checkpoint

    tlog = manifest.get("tlog")
    note = tlog.get("checkpoint") if isinstance(tlog, dict) else None
    if not isinstance(note, str):
        problems.append("TOUR-6.11: manifest field tlog.checkpoint is missing: a version 2 "
                        "bundle holds the store's signed checkpoint")
        return None
    try:
        return open_checkpoint(note, bytes.fromhex(trusted))
    except BadNote as exc:
        problems.append(f"TOUR-6.11: the checkpoint (manifest field tlog.checkpoint) is not "
                        f"signed by key {trusted}{' (pinned)' if pinned else ''}: {exc.message}")
        return None


def _inclusions(seen: list[dict], head, problems: list[str], checks: list[str]) -> None:
    """Every log's head is a leaf of the checkpoint ``head`` (TOUR-6.14)."""
    from ..tlog import merkle
    from ..tlog.leaves import Leaf

    bad = 0
    for item in seen:
        entry = item["entry"]
        seq, link, _ = _head_of(item["data"])
        leaf = Leaf(str(entry.get("game")), seq, link)
        proof = entry.get("tlog")
        try:
            index = proof["index"]
            hashes = [bytes.fromhex(p) for p in proof["proof"]]
            ok = type(index) is int and merkle.verify_inclusion(leaf.hash(), index, head.size,
                                                                hashes, head.root)
        except (KeyError, TypeError, ValueError, AttributeError):
            index, ok = None, False
        if not ok:
            bad += 1
            problems.append(f"TOUR-6.14: {_label(entry)} is not in the store's log: its head "
                            f"(record {seq}, link {link.hex()}) is not leaf {index} of "
                            f"{head.origin}'s checkpoint of {head.size} leaves (a log from "
                            "another store, or written behind the store's back)")
    if not bad:
        checks.append(f"TOUR-6.14: every log's head is a leaf of {head.origin}'s checkpoint of "
                      f"{head.size} leaves (inclusion proofs checked)")


def old_from_bundle(reader, path: str) -> dict:
    """What an auditor kept, read from an earlier bundle ``path`` through ``reader`` (an
    engine.tournament.bundle.Reader of it): ``{"note": its checkpoint, "heads": [manifest
    entries], "logs": {game: bytes}, "label"}``.  UsageError (TOUR-6.15) for a bundle without
    a checkpoint (version 1)."""
    from ..jsonsafe import loads

    from ..errors import DevilError

    raw = reader.read("manifest.json")
    try:
        manifest = loads(raw, "manifest.json") if raw is not None else None
    except (DevilError, ValueError):
        manifest = None
    tlog = manifest.get("tlog") if isinstance(manifest, dict) else None
    if not isinstance(manifest, dict) or not isinstance(tlog, dict) \
            or not isinstance(tlog.get("checkpoint"), str):
        raise UsageError(f"TOUR-6.15: {path} holds no checkpoint (a version 1 bundle?): keep "
                         "a version 2 bundle, or a checkpoint (`devil checkpoint --json`)")
    listed = manifest.get("logs")
    heads = [e for e in listed if isinstance(e, dict)] if isinstance(listed, list) else []
    logs = {}
    for e in heads:
        data = reader.read(e["file"]) if isinstance(e.get("file"), str) else None
        if data is not None:
            logs[str(e.get("game"))] = data
    return {"note": tlog["checkpoint"], "heads": heads, "logs": logs, "label": path}


def check_old(head, trusted: str | list[str], old: dict, seen: list[dict],
              consistency: Callable[[str, int, int], tuple[list[str], str]] | None,
              leaves: Callable[[str, int], list[bytes] | None] | None = None) -> dict:
    """The bundle's checkpoint ``head`` against what an auditor kept (TOUR-6.15): ``old`` as
    :func:`old_from_bundle` gives it (or ``{"note"}`` alone for a checkpoint).  The kept
    checkpoint must be signed by ``trusted``, of the same log, and the bundle's must extend it
    (``consistency(origin, old_size, new_size)`` gives the RFC 9162 proof and where it came from;
    UsageError if it cannot).  Each head the kept bundle proved must still be a record of the
    same log in this bundle: a log cut, or cut and written again, is named with the last
    record both hold.  ``leaves(origin, size)``, when it gives them (a local store of that
    log), is the store's first ``size`` leaf entries: they must make the bundle's root, and
    every leaf naming a log of the bundle must be a record of it (what ``devil verify
    --consistent`` audits), so a fork is named from a bare checkpoint too.  Returns
    ``{"problems", "checks"}``."""
    from ..tlog.note import BadNote, open_checkpoint

    problems: list[str] = []
    checks: list[str] = []
    keys = [trusted] if isinstance(trusted, str) else list(trusted)
    kept = None
    for key in keys:  # the pinned key, or one its key history links to it (check)
        try:
            kept = open_checkpoint(old["note"], bytes.fromhex(key))
            break
        except BadNote as exc:
            failure = exc
    if kept is None:
        return {"problems": [f"TOUR-6.15: the checkpoint kept is not signed by key {keys[0]}"
                             + (" nor a key linked to it" if len(keys) > 1 else "")
                             + f": {failure.message}"], "checks": []}
    if kept.origin != head.origin:
        problems.append(f"TOUR-6.15: the checkpoint kept is of {kept.origin}'s log, the "
                        f"bundle's of {head.origin}'s")
    elif kept.size > head.size or (kept.size == head.size and kept.root != head.root):
        problems.append(f"TOUR-6.15: the bundle's checkpoint of {head.size} leaves does not "
                        f"extend the kept one of {kept.size} leaves: the store's log was cut "
                        "or rewritten")
    elif kept.size == head.size:
        checks.append(f"TOUR-6.15: the checkpoint of {head.size} leaves is the kept one")
    else:
        _extends(kept, head, consistency, problems, checks)
    problems.extend(_forks(old, kept, seen))
    entries = leaves(head.origin, head.size) if leaves is not None else None
    if entries is not None:
        named = {p.split(" was cut")[0] for p in problems if " was cut" in p}
        problems.extend(_leaf_audit(head, entries, seen, named, checks))
    if old.get("heads") and not any("TOUR-6.15: " in p and " was cut" in p for p in problems):
        checks.append(f"TOUR-6.15: every log of the kept bundle {old.get('label')} is still "
                      "held by this one, record for record")
    return {"problems": problems, "checks": checks}


def _extends(kept, head, consistency, problems: list[str], checks: list[str]) -> None:
    from ..tlog import merkle

    if consistency is None:
        problems.append("TOUR-6.15: no store to ask for the consistency proof")
        return
    try:
        proof, where = consistency(head.origin, kept.size, head.size)
        hashes = [bytes.fromhex(p) for p in proof]
    except UsageError as exc:
        problems.append(f"TOUR-6.15: the consistency proof from {kept.size} to {head.size} "
                        f"leaves could not be fetched: {exc.message}")
        return
    except (TypeError, ValueError):
        hashes = []
        where = "?"
    if merkle.verify_consistency(kept.size, head.size, kept.root, head.root, hashes):
        checks.append(f"TOUR-6.15: the checkpoint of {head.size} leaves extends the kept one of "
                      f"{kept.size} leaves (consistency proof from {where})")
    else:
        problems.append(f"TOUR-6.15: the bundle's checkpoint of {head.size} leaves does not "
                        f"extend the kept one of {kept.size} leaves (proof from {where}): the "
                        "store's log was rewritten")


def _forks(old: dict, kept, seen: list[dict]) -> list[str]:
    """Each head the kept bundle proved under ``kept`` that this bundle's log no longer holds."""
    from ..log import scan
    from ..tlog import merkle
    from ..tlog.leaves import Leaf

    now = {str(item["entry"].get("game")): item for item in seen}
    problems = []
    for entry in old.get("heads") or []:
        game = str(entry.get("game"))
        if game not in now:
            continue
        try:
            seq, link = entry["seq"], bytes.fromhex(entry["link"])
            proof = entry["tlog"]
            hashes = [bytes.fromhex(p) for p in proof["proof"]]
            proved = merkle.verify_inclusion(Leaf(game, seq, link).hash(), proof["index"],
                                             kept.size, hashes, kept.root)
        except (KeyError, TypeError, ValueError, AttributeError):
            proved = False
        if not proved:
            continue  # the kept bundle does not prove it: nothing the store signed
        records = scan(now[game]["data"]).records
        label = _label(now[game]["entry"])
        if len(records) >= seq and records[seq - 1].link == link:
            continue
        before = scan(old["logs"][game]).records if game in old.get("logs", {}) else []
        common = 0
        for a, b in zip(before, records):
            if a.link != b.link:
                break
            common = a.seq
        if len(records) < seq and common == len(records):
            problems.append(f"TOUR-6.15: {label} was cut: the checkpoint kept shows record "
                            f"{seq}, the bundle's log ends at record {len(records)}")
        else:
            problems.append(f"TOUR-6.15: {label} was cut and written again after record "
                            f"{common}: the checkpoint kept shows record {seq} with link "
                            f"{link.hex()}, this bundle's log "
                            + (f"has {records[seq - 1].link.hex()}" if len(records) >= seq
                               else f"ends at record {len(records)}"))
    return problems


def _leaf_audit(head, entries: list[bytes], seen: list[dict], named: set[str],
                checks: list[str]) -> list[str]:
    """The store's leaf ``entries`` against the bundle's logs (see :func:`check_old`): a
    problem for each log (not in ``named`` already) some leaf of which it no longer holds."""
    from ..log import scan
    from ..tlog import merkle
    from ..tlog.leaves import parse

    if merkle.root([merkle.leaf_hash(e) for e in entries]) != head.root:
        return [f"TOUR-6.15: the store's first {head.size} leaves do not make the root of the "
                "bundle's checkpoint: the store's log was rewritten"]
    logs = {str(item["entry"].get("game")): item for item in seen}
    records = {game: scan(item["data"]).records for game, item in logs.items()}
    good: dict[str, int] = {}
    problems = []
    done: set[str] = set()
    for index, data in enumerate(entries):
        try:
            leaf = parse(data)
        except ValueError:
            continue
        if leaf.game not in logs or leaf.game in done:
            continue
        got = records[leaf.game]
        if len(got) >= leaf.seq and got[leaf.seq - 1].link == leaf.link:
            good[leaf.game] = leaf.seq
            continue
        done.add(leaf.game)
        label = _label(logs[leaf.game]["entry"])
        if f"TOUR-6.15: {label}" in named:
            continue
        now = (f"has {got[leaf.seq - 1].link.hex()}" if len(got) >= leaf.seq
               else f"ends at record {len(got)}")
        problems.append(f"TOUR-6.15: {label} was cut and written again after record "
                        f"{good.get(leaf.game, 0)}: leaf {index} of the store's log shows "
                        f"record {leaf.seq} with link {leaf.link.hex()}, this bundle's log {now}")
    if not problems:
        checks.append(f"TOUR-6.15: the store's {head.size} leaves make the checkpoint's root, "
                      "and every leaf of the bundle's logs is a record of them")
    return problems
