"""The regulator's record of recorded games: ``devil audit PATH... --record FILE``
(docs/record.md, field by field).

One record holds, per game: its identifier, kind and rules version, the engine version that
recorded it (the log header's ``engine``; "not recorded" for older logs), start and end
(ms since the Unix epoch, UTC, and ISO 8601), the players, the strict check of
``devil verify`` (engine.replay.verify_bytes), every record of the log in order as a *choice*
(seq, time, actor, what was recorded, the phase it belongs to, voided or not), the result, and
the last link of its hash chain (so a copy of the log can be checked against the record).
What a kind adds (money at start and end, totals bet and paid, each round's facts) comes from
its ``record`` hook (GameRules.record); this module only assembles and writes, and names no
kind.

Shapes:

* :func:`record_row` (a task for :func:`engine.archive.run`): ``path -> {"path", "status",
  "game", "kind", "first_bad_seq", "reason", "record"}`` where ``record`` is one game's object
  (:func:`game_record`) or None for a damaged log.
* :func:`document`: ``{"format": "devil-record", "version": 1, "written": {"ms", "utc"},
  "engine_version", "games": [game objects]}``; :func:`json_text` and :func:`csv_text` write
  it (the CSV in a long format: one row per fact, :data:`COLUMNS`, a ``record_type`` column).

Money is an integer number of chips, a multiple of 10; times are ms since the Unix epoch (UTC).
"""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING, Any, Iterator

from . import __version__ as ENGINE_VERSION
from .errors import DevilError
from .log import REFEREE_ACTOR, iso_time

if TYPE_CHECKING:  # pragma: no cover
    from .replay import LoadedLog

FORMAT = "devil-record"
VERSION = 1
#: what the record says where the log does not hold the fact (the engine version of a log
#: written before it was recorded)
NOT_RECORDED = "not recorded"
#: the actor of the referee's records (and the game's own setup) in the record
REFEREE_NAME = "referee"
#: the columns of the CSV, in order (docs/record.md)
COLUMNS = ("game", "record_type", "round", "seq", "time_ms", "time_utc", "actor", "player",
           "name", "value", "amount", "from", "to", "rule", "phase", "cmd", "voided")
#: the keys of a kind's round facts that become CSV columns as they are
_FACT_KEYS = frozenset(COLUMNS) - {"game", "record_type", "round", "time_ms", "time_utc"}
#: the file formats, by extension
FORMATS = ("csv", "json")


class RecordRefused(DevilError):
    """No record was written because a game named fails a check (a damaged log, or one not
    finished when ``--finished`` asks): exit 3, a failed check."""

    exit_code = 3


def moment(ms: int) -> dict:
    """``{"ms": ms, "utc": ISO 8601}`` of a time in ms since the Unix epoch (UTC)."""
    return {"ms": ms, "utc": iso_time(ms, 0)}


def record_row(path: str, data: bytes | None = None) -> dict:
    """The record of the .devlog at ``path`` (or of its bytes ``data``, ``path`` naming
    them): a row for :func:`engine.archive.run` (module level, picklable).

    ``status`` is "finished", "in progress" or "damaged" (then ``first_bad_seq`` and
    ``reason`` say why and ``record`` is None: a log that does not verify gets no record)."""
    from .archive import DAMAGED, FINISHED, IN_PROGRESS
    from .log import read_bytes
    from .replay import load_bytes, verify_bytes

    try:
        if data is None:
            data = read_bytes(path)
        check = verify_bytes(data, path)
        if not check.ok:
            return {"path": path, "status": DAMAGED, "first_bad_seq": check.first_bad_seq,
                    "reason": check.reason, "game": check.game, "kind": check.kind,
                    "record": None}
        log = load_bytes(data, path)
    except DevilError as exc:
        return {"path": path, "status": DAMAGED, "first_bad_seq": getattr(exc, "seq", None),
                "reason": getattr(exc, "reason", exc.message), "game": None, "kind": None,
                "record": None}
    game = game_record(log, path, check.to_json())
    return {"path": path, "status": FINISHED if game["finished"] else IN_PROGRESS,
            "first_bad_seq": None, "reason": None, "game": game["game"], "kind": game["kind"],
            "record": game}


def game_record(log: "LoadedLog", path: str, verified: dict) -> dict:
    """One game's object of the record (docs/record.md, "A game"): the common fields, the
    kind's part (its ``record`` hook; None for a kind without one: no money, no rounds) and
    every record of the log as a choice.  ``verified`` is engine.replay's ``to_json()`` of the
    same bytes."""
    from .replay import steps

    header, rules = log.header, log.rules
    names = log.names
    own = rules.record(log) if rules.record is not None else None
    own = dict(own or {})
    phases = own.pop("phases", {}) or {}
    created = header.created

    def actor_name(actor: int) -> str:
        if actor == REFEREE_ACTOR:
            return REFEREE_NAME
        return names[actor] if 0 <= actor < len(names) else f"seat {actor}"

    desk = log.desk
    choices, state, command = [], None, 0
    starts_command = True
    for step in steps(log):
        record, state = step.record, step.state
        if starts_command:
            command += 1
        starts_command = record.left == 0
        summary = rules.summarize(state)
        mark = desk.mark(record.seq) if desk is not None else None
        event = _plain(record.event)
        choices.append({
            "seq": record.seq, "command": command, "time_ms": created + record.ts,
            "time_utc": iso_time(created, record.ts), "actor": actor_name(record.actor),
            "cmd": record.cmd, "type": event.pop("type", None), "event": event,
            "phase": phases.get(record.seq) or summary.get("phase"),
            "round": summary.get("round"), "voided": mark})
    summary = rules.summarize(state) if state is not None else {"winners": [], "text": ""}
    finished = bool(state is not None and rules.is_over(state))
    last = log.records[-1] if log.records else None
    times = {choice["seq"]: (choice["time_ms"], choice["actor"]) for choice in choices}
    rounds = own.get("rounds") or []
    for item in rounds:  # every fact of a round gets its record's time and actor
        _stamp(item, times)
        for value in item.values():
            if isinstance(value, list):
                for fact in value:
                    if isinstance(fact, dict):
                        _stamp(fact, times)
    result = {"finished": finished, "winners": list(summary.get("winners") or []),
              "text": summary.get("text", "")}
    result.update(own.get("result") or {})
    return {
        "game": header.game, "kind": header.kind, "title": rules.title, "path": path,
        "status": "finished" if finished else "in progress", "finished": finished,
        "rules_version": own.get("rules_version") or NOT_RECORDED,
        "engine_version": header.engine or NOT_RECORDED,
        "setup": own.get("setup") or {},
        "start": moment(created),
        "end": moment(created + (last.ts if last is not None else 0)),
        "players": list(names),
        "physical": bool(state is not None and rules.physical(state)),
        "records": len(log.records),
        "last_seq": last.seq if last is not None else 0,
        "last_link": (last.link if last is not None else header.link).hex(),
        "header_link": header.link.hex(),
        "verified": {"ok": bool(verified.get("ok")), "seed_checked": verified.get("seed_checked"),
                     "seed_chosen": verified.get("seed_chosen"),
                     "checks": list(verified.get("checks") or [])},
        "audit": own.get("audit"),
        "money": own.get("money"),
        "rounds": rounds,
        "result": result,
        "voided": desk.summary(names).get("voided", []) if desk is not None else [],
        "choices": choices,
    }


def _stamp(fact: dict, times: dict) -> None:
    """Add the time and actor of the record ``fact["seq"]`` names (if it names one)."""
    seq = fact.get("seq")
    if seq in times:
        ms, actor = times[seq]
        fact.setdefault("time_ms", ms)
        fact.setdefault("time_utc", iso_time(ms, 0))
        fact.setdefault("actor", actor)


def _plain(value: Any) -> Any:
    """A stored event map made JSON-able (bytes as hex; keys as text)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return value.hex()
    return value


# -- the document and its two files -------------------------------------------------------------
def document(games: list[dict], written_ms: int) -> dict:
    """The whole record: ``{"format", "version", "written", "engine_version", "games"}``."""
    return {"format": FORMAT, "version": VERSION, "written": moment(written_ms),
            "engine_version": ENGINE_VERSION, "games": games}


def json_text(doc: dict) -> str:
    """The record as one JSON document (UTF-8 text, a newline at the end)."""
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def csv_text(doc: dict) -> str:
    """The record as CSV: a header line of :data:`COLUMNS`, then :func:`rows`."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for row in rows(doc):
        writer.writerow({key: cell(row.get(key)) for key in COLUMNS})
    return out.getvalue()


def cell(value: Any) -> str:
    """A value as a CSV cell: text as is, integers in decimal, ``true`` / ``false``, empty for
    None, anything else (a list, a map) as compact JSON."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return str(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def rows(doc: dict) -> Iterator[dict]:
    """The long form of the record: one dict per fact, keys among :data:`COLUMNS`
    (docs/record.md, "The CSV")."""
    written = doc["written"]
    yield {"record_type": "record", "name": "format", "value": doc["format"]}
    yield {"record_type": "record", "name": "version", "value": doc["version"]}
    yield {"record_type": "record", "name": "written", "time_ms": written["ms"],
           "time_utc": written["utc"]}
    yield {"record_type": "record", "name": "engine_version", "value": doc["engine_version"]}
    yield {"record_type": "record", "name": "games", "value": len(doc["games"])}
    for game in doc["games"]:
        for row in game_rows(game):
            row["game"] = game["game"]
            yield row


#: the game object's plain facts, in the order the CSV gives them
_GAME_FACTS = ("kind", "title", "path", "status", "rules_version", "engine_version",
               "physical", "records", "last_seq", "last_link", "header_link")


def game_rows(game: dict) -> Iterator[dict]:
    """One game's rows (without the ``game`` column)."""
    for key in _GAME_FACTS:
        yield {"record_type": "game", "name": key, "value": game[key]}
    for key in ("start", "end"):
        yield {"record_type": "game", "name": key, "time_ms": game[key]["ms"],
               "time_utc": game[key]["utc"]}
    for key, value in game["setup"].items():
        yield {"record_type": "game", "name": f"setup.{key}", "value": value}
    for seat, name in enumerate(game["players"]):
        yield {"record_type": "player", "player": name, "value": seat}
    verified = game["verified"]
    yield {"record_type": "check", "name": "verified", "value": verified["ok"]}
    yield {"record_type": "check", "name": "seed_checked", "value": verified["seed_checked"]}
    yield {"record_type": "check", "name": "seed_chosen", "value": verified["seed_chosen"]}
    for sentence in verified["checks"]:
        yield {"record_type": "check", "name": "verify", "value": sentence}
    audit = game["audit"]
    if audit is not None:
        yield {"record_type": "check", "name": "audit", "value": audit["ok"]}
        for problem in audit.get("problems", []):
            yield {"record_type": "check", "name": "audit_problem", "seq": problem["seq"],
                   "value": problem["reason"]}
    money = game["money"]
    if money is not None:
        for key, value in money.items():
            if isinstance(value, dict):  # money of each player (start, end)
                for player, amount in value.items():
                    yield {"record_type": "money", "name": key, "player": player,
                           "amount": amount}
            else:
                yield {"record_type": "money", "name": key, "amount": value}
    for item in game["rounds"]:
        yield from round_rows(item)
    for void in game["voided"]:
        yield {"record_type": "void", "seq": void["by"], "name": f"{void['from']}-{void['to']}",
               "value": void["reason"]}
    for choice in game["choices"]:
        mark = choice["voided"]
        yield {"record_type": "choice", "round": choice["round"], "seq": choice["seq"],
               "time_ms": choice["time_ms"], "time_utc": choice["time_utc"],
               "actor": choice["actor"], "name": choice["type"], "value": choice["event"],
               "phase": choice["phase"], "cmd": choice["cmd"],
               "voided": mark["by"] if mark is not None else None}
    result = game["result"]
    for winner in result.get("winners", []):
        yield {"record_type": "result", "name": "winner", "player": winner}
    for key, value in result.items():
        if key != "winners":
            yield {"record_type": "result", "name": key, "value": value}


def round_rows(item: dict) -> Iterator[dict]:
    """A round's rows: one ``round`` row per plain key (``name`` the key, ``value`` its value),
    then one row per fact of each list (``record_type`` the list's key: bet, draw, ...)."""
    number, seq = item.get("round"), item.get("seq")
    time = {"time_ms": item.get("time_ms"), "time_utc": item.get("time_utc")}
    for key, value in item.items():
        if key in ("round", "seq", "time_ms", "time_utc", "actor") or isinstance(value, list):
            continue
        yield {"record_type": "round", "round": number, "seq": seq, "name": key,
               "value": value, **time}
    for key, value in item.items():
        if not isinstance(value, list):
            continue
        for fact in value:
            row = {k: v for k, v in fact.items() if k in _FACT_KEYS or k in time}
            row.update(record_type=key, round=number)
            yield row
