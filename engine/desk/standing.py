"""Whether a record still stands (issue 20.6): what ``devil verify --receipt`` says of a
receipt's record beyond "it is in the log", and the voids a seal covers.

A receipt proves that its record was in the log; a later correction (DESK-2), amendment
(DESK-9) or granted takeback (DESK-12.6) can void it while it stays in the log.  These helpers
read the voids from a log's raw records (:class:`engine.log.Record`, events as tagged maps),
decoding only the desk's records, and build the same :class:`engine.desk.state.Desk` every
fold builds (:func:`engine.desk.voids.desk_of`).
"""

from __future__ import annotations

from typing import Any

from ..codec import Registry
from ..errors import LogDamaged
from .events import DESK_CLASSES, DESK_TYPES, Amended, Corrected
from .state import Desk
from .takeback import TakebackGranted
from .voids import desk_of

_DESK = Registry("desk", DESK_CLASSES)


def desk_of_records(records: list) -> Desk:
    """The :class:`Desk` of a log's raw ``records`` (only the desk's records are decoded).
    Raises LogDamaged for a desk record that cannot be decoded or a correction that is not
    before itself."""
    from ..codec import CodecError

    desk_records, events = [], []
    for record in records:
        event = record.event
        if isinstance(event, dict) and event.get("type") in DESK_TYPES:
            try:
                events.append(_DESK.from_map(event))
            except CodecError as exc:
                raise LogDamaged(record.seq, f"a desk record cannot be read ({exc})") from None
            desk_records.append(record)
    return desk_of(desk_records, events)


def voided_seqs(records: list) -> list[int]:
    """The sequence numbers of every record the log's desk voided, ascending."""
    return sorted(desk_of_records(records).voided)


def voids_text(seqs: list[int]) -> str:
    """``seqs`` (ascending) as ranges: ``[3, 4, 5, 9]`` -> ``"3-5,9"``; ``""`` for none (what
    a seal of format 2 signs, docs/log-format.md)."""
    parts: list[str] = []
    start = prev = None
    for seq in seqs + [None]:  # type: ignore[list-item]  # None closes the last range
        if seq is not None and prev is not None and seq == prev + 1:
            prev = seq
            continue
        if start is not None:
            parts.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = seq
    return ",".join(parts)


_HOW = {Corrected: ("correction", "DESK-2"), Amended: ("amendment", "DESK-9"),
        TakebackGranted: ("takeback", "DESK-12.6")}


def standing(records: list, seq: int, created: int = 0,
             names: list[str] | None = None) -> dict[str, Any]:
    """Whether record ``seq`` of the log's raw ``records`` stands.

    ``{"seq", "verdict": "in force"}`` (with ``"by"``, ``"reapplied"``: the record it was
    re-applied as, ``"rule": "DESK-9.3"`` when an amendment voided the record but re-applied
    its command unchanged), or ``{"seq", "verdict": "voided", "by": the voiding
    record's seq, "how": "correction" | "amendment" | "takeback", "rule": "DESK-2" |
    "DESK-9" | "DESK-12.6", "time": ISO 8601 UTC (``created``: the header's time, ms), "actor":
    who recorded it (a seat's name, or "the referee"), "reason", "dispute": the dispute it
    answers or None}``."""
    from ..log import iso_time

    desk = desk_of_records(records)
    by = desk.voided.get(seq)
    if by is None:
        return {"seq": seq, "verdict": "in force"}
    record = records[by - 1]
    event = _DESK.from_map(record.event)
    how, rule = _HOW.get(type(event), ("correction", "DESK-2"))
    if type(event) is Amended:  # a later command the amendment re-applied stands, moved
        first = seq
        while first > 1 and records[first - 2].left:
            first -= 1
        for of, at in event.reapplied:
            if of == first:
                return {"seq": seq, "verdict": "in force", "by": by, "reapplied": at,
                        "rule": "DESK-9.3"}
    actor = record.actor
    who = (names[actor] if names and 0 <= actor < len(names)
           else "the referee" if actor < 0 else f"seat {actor}")
    return {"seq": seq, "verdict": "voided", "by": by, "how": how, "rule": rule,
            "time": iso_time(created, record.ts), "actor": who,
            "reason": getattr(event, "reason", ""), "dispute": getattr(event, "dispute", None)}


def standing_text(found: dict) -> str:
    """One line of ``devil verify --receipt`` for :func:`standing`'s answer."""
    if found["verdict"] == "in force":
        if found.get("reapplied") is not None:
            return (f"standing: record {found['seq']} is IN FORCE as record "
                    f"{found['reapplied']}: the amendment at record {found['by']} re-applied its "
                    "command unchanged (DESK-9.3)")
        return (f"standing: record {found['seq']} is IN FORCE (no correction, amendment or "
                "takeback voided it)")
    dispute = f", answering dispute {found['dispute']} (DESK-10)" if found.get("dispute") else ""
    return (f"standing: record {found['seq']} was VOIDED by record {found['by']} "
            f"({found['how']}, {found['rule']}{dispute}, at {found['time']}, by "
            f"{found['actor']}, reason {found['reason']!r})")
