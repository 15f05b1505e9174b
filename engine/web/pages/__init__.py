"""The referee's pages (issue 13.4, 13.5): the replay page and the audit page, as data and as
one self-contained HTML file each.  Game-agnostic: every kind is shown through its own hooks.

* :func:`replay_data` walks a recorded game as one viewer saw it (:func:`engine.replay.steps`:
  for a seat, the fold of that seat's *redacted* stream, so the page's data never holds a value
  the seat was not shown) and gives every step's event, rule ids, the view after it and,
  given a ``texts`` provider (the CLI's words for the kind, client.page), a sentence and the
  text table.
* :func:`audit_data` runs the kind's audit hook and its result's ``chart()`` (the money of every
  account round by round: :mod:`engine.chart`) and ``ledger_rows()`` (every transfer with the
  balances it leaves).
* :func:`archive_html` draws an archive's report (:mod:`engine.report`: sections of tables).
* :func:`replay_html` / :func:`audit_html` put a page together from the package's assets
  (``replay.html``, ``audit.html``, ``page.css``, ``page.js``): with the data inlined it is a
  file that opens offline (``devil replay FILE --html``); without, the page asks the server for
  its data with the token the user gives it (``devil serve``: :mod:`engine.web.pages.routes`).

``texts(kind)`` (optional) answers ``(describe, table)``: ``describe(event, names) -> str`` and
``table(view, you) -> str``; the engine never imports the client, so the CLI passes it in.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any, Callable

from ...game import PUBLIC, REFEREE
from ...log import REFEREE_ACTOR, iso_time

#: a rule id as the rules documents write them (``KIND-3.1``, ``KIND-11.2``)
RULE_ID = re.compile(r"\b[A-Z]{2,}-\d+(?:\.\d+)*\b")

#: the version of the data a page reads (``format`` of replay_data and audit_data)
FORMAT = 1

Texts = Callable[[str], "tuple[Callable, Callable] | None"]


def viewer_label(viewer, names: list[str]) -> str:
    """``"referee"``, ``"spectator"`` or the seat's name."""
    if viewer is REFEREE:
        return "referee"
    if viewer == PUBLIC:
        return "spectator"
    return names[viewer]


def rule_ids(event_map: dict, text: str = "") -> list[str]:
    """The rule ids an event names: string values of its map (at any depth) that are rule ids,
    then any in ``text``; each once, in order."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.extend(RULE_ID.findall(value))
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item)

    walk(event_map)
    found.extend(RULE_ID.findall(text))
    return list(dict.fromkeys(found))


def _voids(log) -> dict:
    """``{seq: reason}`` of the records a correction voided, where the log knows them: its
    referee's desk (``log.desk.mark(seq) -> {"by", "reason"} | None``, engine.desk) or a plain
    ``log.voided`` map; {} otherwise."""
    mark = getattr(getattr(log, "desk", None), "mark", None)
    if mark is not None:
        out = {}
        for record in log.records:
            found = mark(record.seq)
            if found is not None:
                out[record.seq] = found.get("reason", "")
        return out
    voided = getattr(log, "voided", None)
    if callable(voided):
        voided = voided()
    return dict(voided or {})


def replay_data(log, viewer=REFEREE, texts: Texts | None = None, to: int | None = None,
                voids: dict | None = None) -> dict:
    """The replay page's data: the game ``log`` (an :class:`engine.replay.LoadedLog`) event by
    event as ``viewer`` (REFEREE, a seat index or PUBLIC) saw it.

    ``{"format", "game", "kind", "title", "players": [names], "as": label (viewer_label),
    "over": bool, "steps": [{"seq", "actor" (a name, "referee" or None), "time" (ISO 8601
    UTC), "type", "text", "rules": [rule ids], "event": the event's map as the viewer saw it,
    "view": the kind's view after it (the first step) or "patch": how it differs from the
    previous step's (:func:`view_patch`),
    "table": text or None, "voided"?: True, "reason"?: str}]}``; :func:`expand` gives every
    step its whole view back.  A seat's steps are the events of its redacted stream only; events
    it never saw are left out.  ``voided``/``reason`` are present only for events a correction
    voided.
    """
    from ...replay import steps, view_at

    rules = log.rules
    names = log.names
    words = texts(log.header.kind) if texts is not None else None
    describe, table = words if words else (None, None)
    you = None if viewer is REFEREE or viewer == PUBLIC else names[viewer]
    to_map = rules.events.to_map
    voids = _voids(log) if voids is None else dict(voids)
    created = log.header.created
    from ...clock import readings_text
    from ...replay.clocks import timeline

    clocks = timeline(log)  # each seat's time as the live game showed it (CLOCK-8)
    out = []
    item = previous = None
    for item in steps(log, viewer, to):
        record = item.record
        event_map = to_map(item.event)
        # a view is a fresh map at every step (the CLI's replay --json keeps them too), so the
        # previous one can be kept to patch against
        view = view_at(log, item.state, viewer, record.seq)
        desk = getattr(item, "desk", None)  # the voids and disputes as they stood then
        if desk is not None:
            view.update(desk.summary(names))
        if record.seq in clocks:
            view["clocks"] = clocks[record.seq]
        text = describe(item.event, names) if describe else _generic_text(event_map)
        actor = ("referee" if record.actor == REFEREE_ACTOR
                 else names[record.actor] if 0 <= record.actor < len(names) else None)
        step = {"seq": record.seq, "actor": actor, "time": iso_time(created, record.ts),
                "type": event_map.get("type"), "text": text, "rules": rule_ids(event_map, text),
                "event": event_map,
                "table": table(view, you) if table and view.get("phase") != "setup" else None}
        if step["table"] is not None and record.seq in clocks:
            step["table"] += "\n" + str(readings_text(clocks[record.seq]))
        if previous is None:
            step["view"] = view
        else:
            step["patch"] = view_patch(previous, view)
        previous = view
        if record.seq in voids:
            step["voided"] = True
            step["reason"] = str(voids[record.seq] or "")
        out.append(step)
    return {"format": FORMAT, "game": log.header.game, "kind": log.header.kind,
            "title": rules.title, "players": list(names), "as": viewer_label(viewer, names),
            "over": bool(rules.is_over(item.state)) if item is not None else False, "steps": out}


def view_patch(old: dict, new: dict) -> dict:
    """How the map ``new`` differs from ``old``: ``{"=": {key: new value}, "~": {key: patch of
    a map}, "+": {key: items appended to a list}, "-": [keys removed]}`` (empty parts left
    out; ``{}``: the same).  Applied by :func:`apply_patch` (and page.js's ``applyPatch``)."""
    out: dict = {}
    for key, value in new.items():
        if key not in old:
            out.setdefault("=", {})[key] = value
            continue
        was = old[key]
        if was == value:
            continue
        if isinstance(was, dict) and isinstance(value, dict):
            out.setdefault("~", {})[key] = view_patch(was, value)
        elif (isinstance(was, list) and isinstance(value, list) and len(value) > len(was)
              and value[:len(was)] == was):
            out.setdefault("+", {})[key] = value[len(was):]
        else:
            out.setdefault("=", {})[key] = value
    removed = [key for key in old if key not in new]
    if removed:
        out["-"] = removed
    return out


def apply_patch(old: dict, patch: dict) -> dict:
    """The map :func:`view_patch` was given as ``new`` (``old`` is not changed)."""
    new = dict(old)
    for key in patch.get("-", []):
        new.pop(key, None)
    new.update(patch.get("=", {}))
    for key, sub in patch.get("~", {}).items():
        new[key] = apply_patch(old[key], sub)
    for key, items in patch.get("+", {}).items():
        new[key] = list(old[key]) + list(items)
    return new


def expand(data: dict) -> list[dict]:
    """Every step's whole view, in order, from :func:`replay_data`'s ``view`` / ``patch``."""
    views: list[dict] = []
    view: dict | None = None
    for step in data["steps"]:
        if "view" in step:
            view = step["view"]
        else:
            assert view is not None  # the first step holds the whole view
            view = apply_patch(view, step["patch"])
        views.append(view)
    return views


def _generic_text(event_map: dict) -> str:
    body = ", ".join(f"{k}={json.dumps(v)}" for k, v in event_map.items() if k != "type")
    return f"{event_map.get('type')}({body})"


def audit_data(log, result=None) -> dict:
    """The audit page's data: ``{"format", "game", "kind", "title", "ok", "finished",
    "problems": [{"seq", "reason"}], "chart": the chart spec (engine.chart), "svg": the chart
    as SVG (with a ``rect.column`` per point, for the page to light one up), "ledger": every
    transfer in log order}``.

    ``ledger`` is the audit result's ``ledger_rows()`` hook (``[]`` for a kind's audit without
    one): ``[{"round", "seq", "rule", "from", "to", "amount", "from_after", "to_after",
    "bank_after"?}]``, amounts and balances integers (docs/service.md).  ``result``: the
    audit already run on ``log`` (else it is run here).  Raises UsageError for a kind without
    an audit or whose audit draws no chart."""
    from ...chart import svg
    from ...errors import UsageError

    rules = log.rules
    if rules.audit is None:
        raise UsageError(f"{rules.title} games have no audit (and so no money chart); "
                         "`devil verify` checks any recorded game")
    if result is None:
        effective = getattr(log, "effective", None)  # a corrected game is audited as corrected
        result = rules.audit(effective() if effective is not None else log)
    chart = getattr(result, "chart", None)
    if chart is None:
        raise UsageError(f"the audit of {rules.title} games draws no chart")
    spec = chart()
    data = result.to_json()
    rows = getattr(result, "ledger_rows", None)
    return {"format": FORMAT, "game": log.header.game, "kind": log.header.kind,
            "title": rules.title, "ok": bool(result.ok), "finished": bool(data.get("finished")),
            "problems": data.get("problems", []), "chart": spec, "svg": svg(spec, columns=True),
            "ledger": rows() if rows is not None else []}


# -- the HTML ----------------------------------------------------------------------------------
def _asset(name: str) -> str:
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8")


def script_json(data) -> str:
    """``data`` as JSON safe inside an HTML ``<script>`` element (no ``</script>``, no
    ``<!--``: every ``<``, ``>`` and ``&`` is escaped)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _page(template: str, title: str, data: dict | None) -> str:
    from html import escape

    html = _asset(template)
    return (html.replace("{{title}}", escape(title))
            .replace("{{css}}", _asset("page.css"))
            .replace("{{js}}", _asset("page.js"))
            .replace("{{data}}", "null" if data is None else script_json(data)))


def replay_html(data: dict | None = None, title: str = "replay") -> str:
    """The replay page: with ``data`` (replay_data) inlined, a self-contained file (no request
    of any kind when opened); without, a page that fetches ``<its URL>/data`` from the server
    with the token in its address's fragment (``#token=...``) or typed into it."""
    return _page("replay.html", title, data)


def audit_html(data: dict | None = None, title: str = "audit") -> str:
    """The audit page (money chart and the audit's verdict), as :func:`replay_html`."""
    return _page("audit.html", title, data)


def archive_html(document: dict) -> str:
    """The archive report (engine.report.archive_report's document: summary, sections, games)
    as one self-contained HTML file: the document inlined, drawn by page.js, sortable and
    filterable tables; no request of any kind when opened (docs/tools.md)."""
    return _page("archive.html", str(document.get("title") or "audit report"), document)
