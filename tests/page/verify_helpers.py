"""Helpers of the verify page's tests (issue 20.8): tampered copies of a recording, made from
the format description (tests/tools/helpers: split, rechain), and the page's check run in the
browser on any log's bytes."""

from __future__ import annotations

import base64
import json

from engine.desk.events import DESK_TYPES
from tests.tools.helpers import rechain, split

#: run the page's own check (verify.js) on a log's bytes, in a page that holds the script
CHECK = """([b64, desk]) => {
  const r = DevilVerify.check(DevilVerify.fromBase64(b64), desk);
  return {state: r.state, seq: r.seq, reason: r.reason, draws: r.draws};
}"""


def page_check(page, data: bytes) -> dict:
    """The page's verdict on ``data``, computed in ``page`` (a verify page already open)."""
    return page.evaluate(CHECK, [base64.b64encode(data).decode("ascii"), sorted(DESK_TYPES)])


def python_verdict(data: bytes) -> tuple[bool, int | None, bool]:
    """``devil verify``'s verdict on ``data``: (ok, first bad record, finished)."""
    from engine.replay import verify_bytes

    result = verify_bytes(data)
    return result.ok, result.first_bad_seq, result.finished


def agree(page_result: dict, data: bytes) -> bool:
    """Whether the page's verdict is devil verify's: both pass (the page: verified when verify
    says finished, in progress when not), or both fail naming the same record."""
    ok, seq, finished = python_verdict(data)
    if not ok:
        return page_result["state"] == "failed" and page_result["seq"] == seq
    want = {"verified", "physical", "unrevealed", "ended", "not-checked"} if finished else \
        {"in-progress", "physical"}
    return page_result["state"] in want


def objects(data: bytes) -> tuple[bytes, list[bytes], list[list]]:
    """The header's bytes, each record's bytes and each record decoded (lists)."""
    header, chunks, objs = split(data)
    return header, chunks, [list(o) for o in objs]


def with_event(data: bytes, seq: int, **fields) -> bytes:
    """``data`` with record ``seq``'s event changed (``fields`` set), the chain recomputed."""
    header, _chunks, objs = objects(data)
    objs[seq - 1][4] = {**objs[seq - 1][4], **fields}
    return rechain(header, objs)


def record_ends(data: bytes) -> list[int]:
    """The byte offset just past each record (index 0: the header's end)."""
    header, chunks, _objs = objects(data)
    ends = [len(header)]
    for chunk in chunks:
        ends.append(ends[-1] + len(chunk))
    return ends


def dump(value) -> str:
    return json.dumps(value, sort_keys=True)
