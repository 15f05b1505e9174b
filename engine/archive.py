"""Archives: many recorded games checked at once, on every core.

``devil verify PATH...`` and ``devil audit PATH...`` take files and folders; this module finds
the .devlog files (:func:`expand`), runs one check per file in a pool of worker processes
(:func:`run`, or :func:`imap` to take the rows one by one in path order as they come), and
adds the results up (:func:`summarize`; the audits' money: engine.ledger).  A check is a
module-level function ``path -> row`` (picklable), where a row is a JSON-able dict with at
least ``path`` and ``status``: ``"finished"`` (verified and finished), ``"in progress"``
(verified, not finished) or ``"damaged"`` (with ``first_bad_seq`` and ``reason``).  No game
kind is named here.
"""

from __future__ import annotations

import os
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Iterable, Iterator

from .errors import DevilError, UsageError

FINISHED = "finished"
IN_PROGRESS = "in progress"
DAMAGED = "damaged"
#: an audit of a game whose kind has none
SKIPPED = "no audit"
#: files handed to a worker at a time (amortises the pool's overhead over small games)
CHUNK = 8
#: chunks in flight per worker process (:func:`imap`)
AHEAD = 4


def expand(sources: Iterable[str]) -> list[str]:
    """The .devlog files named by ``sources``: files as given, folders searched recursively
    for ``*.devlog`` (sorted).  Raises UsageError for a path that does not exist or a folder
    with no .devlog in it."""
    found: list[str] = []
    for source in sources:
        if os.path.isdir(source):
            inside = []
            for folder, dirs, files in os.walk(source):
                dirs.sort()
                inside += [os.path.join(folder, name) for name in sorted(files)
                           if name.endswith(".devlog")]
            if not inside:
                raise UsageError(f"no .devlog files in {source}")
            found += inside
        elif os.path.isfile(source):
            found.append(source)
        else:
            raise UsageError(f"no such file or folder: {source}")
    return found


def verify_row(path: str, data: bytes | None = None) -> dict:
    """Verify one .devlog (engine.replay.verify_path; or its bytes ``data``, ``path`` naming
    them): a row for :func:`run`."""
    from .replay import verify_bytes, verify_path

    try:
        result = verify_path(path) if data is None else verify_bytes(data, path)
    except DevilError as exc:
        return {"path": path, "status": DAMAGED, "first_bad_seq": None, "reason": exc.message,
                "game": None, "kind": None, "events": 0}
    row = result.to_json()
    row["path"] = path
    row["status"] = DAMAGED if not result.ok else FINISHED if result.finished else IN_PROGRESS
    return row


def sealed_verify_row(path: str, data: bytes | None = None, *, key: str,
                      keys: dict[str, str | None] | None = None) -> dict:
    """:func:`verify_row` and the game's seal (``path + ".seal.json"``, from `devil export
    --seal`) checked against the public ``key`` (engine.receipts): a finished game without
    its seal, or with a seal of another key or another end, is a damaged row.  ``keys``: the
    keys the store's key history links to ``key`` (engine.keys.history.vouched), each with
    the sentence saying how: a seal of one of them holds, and the row says which.  Use with
    ``functools.partial(sealed_verify_row, key=KEY, keys=KEYS)``."""
    import json

    from .log import read_bytes, scan
    from .receipts import BadSignature, check_seal_of, check_signature

    if data is None:
        try:
            data = read_bytes(path)
        except DevilError:
            return verify_row(path)  # the same unreadable file, reported as verify_row does
    row = verify_row(path, data)
    if row["status"] == DAMAGED:
        return row
    try:
        try:
            with open(path + ".seal.json") as handle:
                seal = json.load(handle)
        except FileNotFoundError:
            seal = None
        except (OSError, ValueError) as exc:
            raise BadSignature(f"the seal beside the log cannot be read ({exc})") from None
        if seal is not None:
            named = str(seal.get("key", "")).lower() if isinstance(seal, dict) else ""
            linked = keys.get(named) if keys and named != key else None
            check_signature(seal, "seal", named if linked else key)
            if linked:
                row["checks"].append("seal: signed by " + linked)
        row["checks"].append(check_seal_of(scan(data, path).records, row["game"],
                                           row["finished"], seal))
    except BadSignature as exc:
        row.update(status=DAMAGED, ok=False, first_bad_seq=exc.seq, reason=exc.message)
    return row


def audit_row(path: str, data: bytes | None = None, *, transfers: bool = False) -> dict:
    """Audit one .devlog (or its bytes ``data``) with its kind's audit hook: a row for
    :func:`run` (``ok`` False when a recorded payout differs from the rules; ``status``
    "damaged" when the log cannot be read; "no audit" for a kind without one).

    When the audit's result has ``totals()`` (engine.ledger: ``{"totals", "players",
    "lowest", "top"}``) those four keys are in the row too; with ``transfers`` (use
    ``functools.partial(audit_row, transfers=True)``), also ``transfers``: the result's
    ``transfer_rows()`` (``[[round, seq, rule, payer, payee, amount]]``), for the ledger's CSV
    and JSON."""
    from .replay import load_bytes, open_log, verify_bytes, verify_path

    log = None
    try:
        log = open_log(path) if data is None else load_bytes(data, path)
        if log.rules.audit is None:
            return {"path": path, "status": SKIPPED, "first_bad_seq": None, "ok": None,
                    "reason": f"{log.rules.title} games have no audit", "game": log.header.game,
                    "kind": log.header.kind}
        result = log.rules.audit(log.effective())  # a corrected game as corrected (engine.desk)
    except UsageError as exc:
        check = verify_path(path) if data is None else verify_bytes(data, path)
        if check.ok and log is not None:  # a sound log with nothing to audit yet (seating)
            return {"path": path, "status": SKIPPED, "first_bad_seq": None, "ok": None,
                    "reason": exc.message, "game": log.header.game, "kind": log.header.kind}
        return {"path": path, "status": DAMAGED, "first_bad_seq": check.first_bad_seq,
                "reason": check.reason or exc.message, "game": None, "kind": None, "ok": False}
    except DevilError as exc:
        return {"path": path, "status": DAMAGED, "first_bad_seq": getattr(exc, "seq", None),
                "reason": exc.message, "game": None, "kind": None, "ok": False}
    except Exception as exc:  # an impossible event the audit cannot follow: find its record
        check = verify_path(path) if data is None else verify_bytes(data, path)
        return {"path": path, "status": DAMAGED, "first_bad_seq": check.first_bad_seq,
                "reason": check.reason or f"the audit cannot follow this log ({exc!r})",
                "game": None, "kind": None, "ok": False}
    row = result.to_json()
    row.update(path=path, kind=log.header.kind, events=len(log.records),
               status=FINISHED if result.finished else IN_PROGRESS)
    if not result.ok:
        row["reason"] = "; ".join(f"record {s}: {r}" for s, r in result.problems)[:500]
    for bulky in ("rounds", "ledger"):
        row.pop(bulky, None)
    totals = getattr(result, "totals", None)
    if totals is not None:
        row.update(totals())
        if transfers:
            row["transfers"] = result.transfer_rows()
    return row


def chance_row(path: str, data: bytes | None = None) -> dict:
    """One .devlog's reported draws for the chance audit (``devil audit --chance``,
    engine.chance_audit): a row for :func:`run` with ``chance``, the kind's
    :class:`engine.chance_audit.GameDraws` (the log with its voids applied), or None with a
    ``reason`` when the game cannot be read or its kind has no ``chance`` hook."""
    from .replay import load_bytes, open_log

    try:
        log = open_log(path) if data is None else load_bytes(data, path)
    except DevilError as exc:
        return {"path": path, "status": DAMAGED, "game": None, "kind": None, "chance": None,
                "reason": f"cannot be read: {exc.message}"}
    game, kind = log.header.game, log.header.kind
    if log.rules.chance is None:
        return {"path": path, "status": SKIPPED, "game": game, "kind": kind, "chance": None,
                "reason": f"{log.rules.title} streams have no chance audit"}
    return {"path": path, "status": FINISHED, "game": game, "kind": kind, "reason": None,
            "chance": log.rules.chance(log.effective())}


def bundle_tables(paths: Iterable[str]) -> dict[str, str]:
    """Game id -> table name for the games of tournament bundles among ``paths``: a log listed
    in a ``manifest.json`` (engine.tournament.bundle) in its folder or the one above is at
    ``"<tournament> table <n>"``, the same table in every round.  A manifest that cannot be
    read is ignored (the game is then its own table)."""
    import json

    tables: dict[str, str] = {}
    seen: set[str] = set()
    for path in paths:
        folder = os.path.dirname(os.path.abspath(path))
        for where in (folder, os.path.dirname(folder)):
            manifest = os.path.join(where, "manifest.json")
            if manifest in seen or not os.path.isfile(manifest):
                continue
            seen.add(manifest)
            try:
                with open(manifest, encoding="utf-8") as handle:
                    doc = json.load(handle)
                for entry in doc.get("logs", []):
                    if entry.get("role") == "game" and isinstance(entry.get("table"), int):
                        tables[str(entry["game"])] = (f"{doc.get('tournament')} table "
                                                      f"{entry['table']}")
            except (OSError, ValueError, AttributeError, TypeError):
                continue
    return tables


def _chunk(task: Callable[[str], dict], paths: list[str]) -> list[dict]:
    return [task(path) for path in paths]


def imap(task: Callable[[str], dict], paths: list[str], jobs: int | None = None
         ) -> Iterator[dict]:
    """``task(path)`` for every path, yielded in the order of ``paths`` as soon as each is
    done, on ``jobs`` worker processes (default: every core; 1 runs in this process).  At most
    :data:`AHEAD` chunks per worker are in flight, so an archive of any size holds only a few
    rows at a time (a ledger streams its CSV from them)."""
    jobs = max(1, jobs or os.cpu_count() or 1)
    if jobs == 1 or len(paths) <= 1:
        for path in paths:
            yield task(path)
        return
    size = max(1, min(CHUNK, len(paths) // (jobs * 4) or 1))
    starts = iter(range(0, len(paths), size))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: deque = deque()

        def submit() -> None:
            start = next(starts, None)
            if start is not None:
                pending.append(pool.submit(_chunk, task, paths[start:start + size]))

        for _ in range(jobs * AHEAD):
            submit()
        try:
            while pending:
                rows = pending.popleft().result()
                submit()
                yield from rows
        finally:  # the reader stopped early (an error): drop what has not started
            for future in pending:
                future.cancel()


def run(task: Callable[[str], dict], paths: list[str], jobs: int | None = None,
        on_row: Callable[[dict], None] | None = None) -> list[dict]:
    """``task(path)`` for every path, on ``jobs`` worker processes (default: every core; 1 runs
    in this process).  ``on_row`` is called in this process with each row as it arrives (for a
    progress bar).  Returns the rows in the order of ``paths`` (:func:`imap`)."""
    rows = []
    for row in imap(task, paths, jobs):
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return rows


def summarize(rows: list[dict]) -> dict:
    """``{"games", "finished", "in_progress", "damaged", "failed", "skipped"}`` of
    :func:`run`'s rows; ``failed`` counts rows with ``ok`` False for reasons other than damage
    (an audit whose payouts differ), ``skipped`` games of a kind without an audit."""
    counts = {"games": len(rows), "finished": 0, "in_progress": 0, "damaged": 0, "failed": 0,
              "skipped": 0}
    for row in rows:
        status = row["status"]
        if status == SKIPPED:
            counts["skipped"] += 1
            continue
        if status == DAMAGED:
            counts["damaged"] += 1
        elif status == FINISHED:
            counts["finished"] += 1
        else:
            counts["in_progress"] += 1
        if status != DAMAGED and row.get("ok") is False:
            counts["failed"] += 1
    return counts
