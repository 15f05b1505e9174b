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

``texts(kind)`` (optional) answers ``(describe, table, party, setup)`` (client.page.texts; the
last two may be left out or None): ``describe(event, names) -> str``, ``table(view, you) ->
str``, ``party(event_map) -> str | None`` (who a fact a command caused on its own is by, e.g.
"bank"; else "service") and ``setup(event_map, names) -> [[label, text]] | None`` (the first
event as facts a newcomer reads); the engine never imports the client, so the CLI passes it in.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any, Callable

from ...game import PUBLIC, REFEREE
from ...log import REFEREE_ACTOR, iso_time

#: a rule id as the rules documents write them (``KIND-3.1``, ``KIND-11.2``, ``KIND-6.8a``);
#: ASCII word boundaries, as page.js's copy of it has (the page marks the ids in a sentence)
RULE_ID = re.compile(r"\b[A-Z]{2,}-\d+(?:\.\d+)*[a-z]?\b", re.ASCII)

#: the version of the data a page reads (``format`` of replay_data and audit_data)
FORMAT = 1

Texts = Callable[[str], "tuple | None"]


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


def follow_ons(records) -> set[int]:
    """The sequence numbers of the records a command wrote after its first (``left`` of the
    record before still above 0, docs/log-format.md): facts the rules caused on their own
    (a payout after the last stop, the next turn), not the command's own act."""
    out = set()
    before = 0
    for record in records:
        if before > 0:
            out.add(record.seq)
        before = record.left
    return out


def actor_label(record, names: list[str], follow_on: bool, party: str | None = None
                ) -> str | None:
    """Who a record's line names as its actor: for a command's own record the seat that
    submitted it (its name) or ``"referee"`` (actor -1: the referee, and the game's creation);
    for a fact the command caused on its own (``follow_on``) ``party`` (the kind's word, e.g.
    a bank, ``"bank"``) or ``"service"``; None for an actor the game does not have."""
    if follow_on:
        return party or "service"
    if record.actor == REFEREE_ACTOR:
        return "referee"
    return names[record.actor] if 0 <= record.actor < len(names) else None


def _words(texts: Texts | None, kind: str) -> tuple:
    """``(describe, table, party, setup)`` of ``texts(kind)`` (client.page.texts; an older
    provider's ``(describe, table)`` too), each None where not given."""
    words = texts(kind) if texts is not None else None
    words = tuple(words or ())
    return (words + (None,) * 4)[:4]


def replay_data(log, viewer=REFEREE, texts: Texts | None = None, to: int | None = None,
                voids: dict | None = None) -> dict:
    """The replay page's data: the game ``log`` (an :class:`engine.replay.LoadedLog`) event by
    event as ``viewer`` (REFEREE, a seat index or PUBLIC) saw it.

    ``{"format", "game", "kind", "title", "players": [names], "as": label (viewer_label),
    "over": bool, "steps": [{"seq", "actor" (:func:`actor_label`: a name, "referee", "service",
    the kind's party such as "bank", or None), "by": what the actor is ("seat", "referee", or
    "rules": a fact the command caused on its own), "time" (ISO 8601 UTC), "type", "text",
    "rules": [rule ids], "event": the event's map as the viewer saw it, "setup"?: the first
    event's ``[[label, text]]`` (the kind's words), "view": the kind's view after it (the first
    step) or "patch": how it differs from the previous step's (:func:`view_patch`),
    "table": text or None, "voided"?: True, "reason"?: str}]}``; :func:`expand` gives every
    step its whole view back.  A seat's steps are the events of its redacted stream only; events
    it never saw are left out.  ``voided``/``reason`` are present only for events a correction
    voided.  ``texts``: see the module's docstring.
    """
    from ...replay import steps, view_at

    rules = log.rules
    names = log.names
    describe, table, party, setup = _words(texts, log.header.kind)
    you = None if viewer is REFEREE or viewer == PUBLIC else names[viewer]
    to_map = rules.events.to_map
    voids = _voids(log) if voids is None else dict(voids)
    follow = follow_ons(log.records)
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
        follow_on = record.seq in follow
        actor = actor_label(record, names, follow_on,
                            party(event_map) if party is not None and follow_on else None)
        step = {"seq": record.seq, "actor": actor,
                "by": ("rules" if follow_on else "referee" if record.actor == REFEREE_ACTOR
                       else "seat"),
                "time": iso_time(created, record.ts),
                "type": event_map.get("type"), "text": text, "rules": rule_ids(event_map, text),
                "event": event_map,
                "table": table(view, you) if table and view.get("phase") != "setup" else None}
        facts = setup(event_map, names) if setup is not None else None
        if facts:
            step["setup"] = [[str(label), str(value)] for label, value in facts]
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


#: data larger than this (characters of JSON) is inlined packed (gzip, then base64): a long
#: game's replay is megabytes of JSON that packs ten to one; page.js unpacks it
#: (DecompressionStream) before drawing exactly what the JSON would have drawn
PACK_ABOVE = 256 * 1024
#: the element holding a page's data: a data block, never run (CSP does not apply to it)
DATA_ID = "devil-data"
JSON_TYPE = "application/json"
PACKED_TYPE = "application/x-devil-gzip-base64"


def script_json(data) -> str:
    """``data`` as JSON safe inside an HTML ``<script>`` element (no ``</script>``, no
    ``<!--``: every ``<``, ``>`` and ``&`` is escaped)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def data_block(data) -> str:
    """The page's data element: ``<script type="application/json" id="devil-data">`` with
    :func:`script_json` (``null``: the page asks its server), or, above :data:`PACK_ABOVE`,
    the same JSON gzipped (no timestamp: the same data makes the same bytes) and base64'd in
    a block of type :data:`PACKED_TYPE`.  :func:`page_data` reads either back."""
    text = "null" if data is None else script_json(data)
    if len(text) <= PACK_ABOVE:
        return f'<script type="{JSON_TYPE}" id="{DATA_ID}">{text}</script>'
    import base64
    import gzip

    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    packed = base64.b64encode(gzip.compress(raw, 9, mtime=0)).decode("ascii")
    return f'<script type="{PACKED_TYPE}" id="{DATA_ID}">{packed}</script>'


def page_data(html: str):
    """The data a page made by :func:`replay_html`, :func:`audit_html` or
    :func:`archive_html` holds (None for a served page that asks for it), unpacked as page.js
    unpacks it.  ValueError for a text without the data element."""
    found = re.search(r'<script type="([^"]+)" id="' + DATA_ID + r'">(.*?)</script>', html,
                      re.S)
    if found is None:
        raise ValueError("no page data in this text (not a page of engine.web.pages?)")
    kind, body = found.groups()
    if kind == PACKED_TYPE:
        import base64
        import gzip

        return json.loads(gzip.decompress(base64.b64decode(body)).decode("utf-8"))
    return json.loads(body)


def page_script() -> str:
    """page.js, the one script of every page here (inline: its hash is in the page's
    Content-Security-Policy, engine.web.csp)."""
    return _asset("page.js")


def _page(template: str, title: str, data: dict | None, scripts: tuple[str, ...] = (),
          connect: bool | None = None) -> str:
    """A page from ``template`` with its parts filled in one pass (a title or data holding
    ``{{js}}`` stays text).  ``scripts``: further inline scripts (their texts) put before
    ``</body>`` and allowed by the page's own policy; ``connect``: the page fetches from its
    server (default: when it holds no data)."""
    from html import escape

    from ..csp import policy

    js = page_script()
    every = (js, *scripts)
    parts = {"title": escape(title), "css": _asset("page.css"), "js": js,
             "data": data_block(data),
             # a policy holds no '"', '<' or '&' (its hashes are base64): safe in the attribute
             "csp": policy(every, data is None if connect is None else connect, meta=True),
             "scripts": "".join(f"<script>{text}</script>" for text in scripts)}
    return re.sub(r"\{\{(\w+)\}\}", lambda m: parts[m.group(1)], _asset(template))


def replay_html(data: dict | None = None, title: str = "replay", scripts: tuple[str, ...] = (),
                connect: bool | None = None) -> str:
    """The replay page: with ``data`` (replay_data) inlined, a self-contained file (no request
    of any kind when opened; a long game's data packed: :func:`data_block`); without, a page
    that fetches ``<its URL>/data`` from the server with the token in its address's fragment
    (``#token=...``) or typed into it.  ``scripts``, ``connect``: as ``_page`` (a live page's
    poll, engine.web.tournament_print).  Its own Content-Security-Policy is in a ``<meta>``;
    a server sends the same as a header (:func:`engine.web.csp.page_headers`)."""
    return _page("replay.html", title, data, scripts, connect)


def audit_html(data: dict | None = None, title: str = "audit") -> str:
    """The audit page (money chart and the audit's verdict), as :func:`replay_html`."""
    return _page("audit.html", title, data)


def archive_html(document: dict) -> str:
    """The archive report (engine.report.archive_report's document: summary, sections, games)
    as one self-contained HTML file: the document inlined, drawn by page.js, sortable and
    filterable tables; no request of any kind when opened (docs/tools.md)."""
    return _page("archive.html", str(document.get("title") or "audit report"), document)
