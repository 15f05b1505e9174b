"""The archive's audit report (issue 23.6): one JSON document of sections of tables, drawn by
the archive page (engine.web.pages.archive_html, ``devil audit PATH... --html OUT.html``).
Game-agnostic: it reads the rows of :func:`engine.archive.audit_row` (the kind's audit as
JSON) and takes any further sections ready-made, so a ledger's totals or a test of chance is
added by passing its sections in (docs/tools.md, "The archive report").

The document::

    {"format": FORMAT, "title": str, "generated": ISO 8601 UTC time,
     "summary": {"games", "finished", "in_progress", "damaged", "failed", "skipped"},
     "sections": [section, ...],
     "games": [{"path", "game", "kind", "status", "events", "ok", "first_bad_seq", "reason"}]}

A section (:func:`section`)::

    {"id": str (letters, digits, "-" or "_"), "heading": str, "note": str | None,
     "columns": [{"key": str, "label": str, "numeric": bool}],
     "rows": [{key: str | int | float | bool | None | a list or map of them}],
     "verdict": "ok" | "failed" | None}

Money is an integer number of chips (a multiple of 10 in the kinds with a bank).
"""

from __future__ import annotations

import re
from typing import Iterable

#: the version of the document (``format``)
FORMAT = "devil-audit-report/1"
#: how many games the "bank down the most" section lists
EXTREMES = 10
VERDICTS = (None, "ok", "failed")
_ID = re.compile(r"[A-Za-z0-9_-]+\Z")


def column(key: str, label: str, numeric: bool = False) -> dict:
    """One column of a section: ``{"key", "label", "numeric"}`` (numeric columns are
    right-aligned and sort as numbers)."""
    return {"key": key, "label": label, "numeric": bool(numeric)}


def section(id: str, heading: str, columns: list, rows: list, note: str | None = None,
            verdict: str | None = None) -> dict:
    """A section of the report (the module docstring's shape), checked by
    :func:`check_section`; ``columns`` are :func:`column` maps (or ``(key, label[, numeric])``
    tuples).  Raises ValueError naming what is wrong."""
    cols = [c if isinstance(c, dict) else column(*c) for c in columns]
    made = {"id": id, "heading": heading, "note": note, "columns": cols,
            "rows": [dict(row) for row in rows], "verdict": verdict}
    check_section(made)
    return made


def check_section(value) -> None:
    """Raise ValueError (naming the section and the fault) unless ``value`` is a section of the
    module docstring's shape: an id of letters, digits, ``-`` or ``_``; a heading; columns with
    a key, a label and ``numeric`` a bool; rows that are maps (a key no column names is
    allowed and not drawn); verdict ``"ok"``, ``"failed"`` or None."""
    if not isinstance(value, dict):
        raise ValueError(f"a report section is a map, not {type(value).__name__}")
    name = value.get("id")
    if not isinstance(name, str) or not _ID.match(name):
        raise ValueError(f"a report section's id must be letters, digits, - or _: {name!r}")
    for key in ("heading", "columns", "rows"):
        if key not in value:
            raise ValueError(f"report section {name!r} has no {key!r}")
    if not isinstance(value["heading"], str):
        raise ValueError(f"report section {name!r}: the heading is not text")
    if value.get("note") is not None and not isinstance(value["note"], str):
        raise ValueError(f"report section {name!r}: the note is not text")
    if value.get("verdict") not in VERDICTS:
        raise ValueError(f"report section {name!r}: verdict {value.get('verdict')!r} is not "
                         "'ok', 'failed' or None")
    if not isinstance(value["columns"], list) or not value["columns"]:
        raise ValueError(f"report section {name!r} has no columns")
    for col in value["columns"]:
        if (not isinstance(col, dict) or not isinstance(col.get("key"), str)
                or not isinstance(col.get("label"), str)
                or not isinstance(col.get("numeric"), bool)):
            raise ValueError(f"report section {name!r}: a column needs a key, a label and "
                             f"numeric true or false: {col!r}")
    if not isinstance(value["rows"], list) or not all(isinstance(r, dict) for r in value["rows"]):
        raise ValueError(f"report section {name!r}: rows must be a list of maps")


def _players(row: dict) -> str | None:
    money = row.get("final_money")
    if not isinstance(money, dict):
        return None
    return ", ".join(f"{name} {amount}" for name, amount in money.items())


def _audited(rows: list[dict]) -> list[dict]:
    """The rows whose game was audited (not damaged, not of a kind without an audit)."""
    from .archive import DAMAGED, SKIPPED

    return [row for row in rows if row.get("status") not in (DAMAGED, SKIPPED)]


def game_list(rows: list[dict]) -> list[dict]:
    """Every game of the archive with its status, as the document's ``games``: ``[{"path",
    "game", "kind", "status", "events", "ok", "first_bad_seq", "reason"}]`` (a damaged file
    with its first bad record, None where it is not known)."""
    keys = ("path", "game", "kind", "status", "events", "ok", "first_bad_seq", "reason")
    return [{key: row.get(key) for key in keys} for row in rows]


def money_section(rows: list[dict]) -> dict | None:
    """Per game, its money and the bank's figures (from an audit row's ``start_money``,
    ``final_money``, ``bank_balance``, ``bank_max_deficit``); None when no audited game has
    them.  Verdict "failed" if an audited game's payouts differ from the rules, else "ok"."""
    audited = [row for row in _audited(rows) if isinstance(row.get("final_money"), dict)]
    if not audited:
        return None
    out = []
    for row in audited:
        money = row["final_money"]
        start = row.get("start_money")
        out.append({"game": row.get("game"), "path": row.get("path"), "status": row["status"],
                    "ok": row.get("ok"), "players": _players(row),
                    "start": start * len(money) if isinstance(start, int) else None,
                    "end": sum(money.values()), "bank": row.get("bank_balance"),
                    "bank_low": -row["bank_max_deficit"]
                    if isinstance(row.get("bank_max_deficit"), int) else None})
    failed = any(row.get("ok") is False for row in audited)
    return section("money", "Money per game", [
        column("game", "game"), column("status", "status"), column("players", "money at the end"),
        column("start", "players' money at the start", True),
        column("end", "players' money at the end", True),
        column("bank", "bank at the end", True), column("bank_low", "bank's lowest", True),
        column("path", "file")], out,
        note="money in chips; the bank starts at 0 and is negative while it is down",
        verdict="failed" if failed else "ok")


def extremes_section(rows: list[dict], count: int = EXTREMES) -> dict | None:
    """The ``count`` audited games in which the bank was down the most (``bank_max_deficit``,
    largest first; ties by file name), ranked; None when no audited game has the figure."""
    audited = [row for row in _audited(rows) if isinstance(row.get("bank_max_deficit"), int)]
    if not audited:
        return None
    ranked = sorted(audited, key=lambda row: (-row["bank_max_deficit"], str(row.get("path"))))
    out = [{"rank": index, "game": row.get("game"), "deficit": row["bank_max_deficit"],
            "bank": row.get("bank_balance"), "events": row.get("events"),
            "path": row.get("path")} for index, row in enumerate(ranked[:count], 1)]
    return section("bank-down", "Games where the bank was down the most", [
        column("rank", "rank", True), column("game", "game"),
        column("deficit", "bank down at most", True), column("bank", "bank at the end", True),
        column("events", "events", True), column("path", "file")], out,
        note=f"the {len(out)} of {len(audited)} audited games with the largest amount the bank "
             "was ever down")


def problems_section(rows: list[dict]) -> dict:
    """The games that are damaged (with their first bad record) or whose audit failed: verdict
    "failed" if there are any, else "ok"."""
    from .archive import DAMAGED

    bad = [row for row in rows
           if row.get("status") == DAMAGED or row.get("ok") is False]
    out = [{"path": row.get("path"), "game": row.get("game"), "status": row.get("status"),
            "first_bad_seq": row.get("first_bad_seq"), "reason": row.get("reason")}
           for row in bad]
    return section("problems", "Damaged files and failed audits", [
        column("path", "file"), column("game", "game"), column("status", "status"),
        column("first_bad_seq", "first bad record", True), column("reason", "why")], out,
        note="a damaged file cannot be read past its first bad record; a failed audit has a "
             "recorded payout that differs from the one re-derived from the rules",
        verdict="failed" if out else "ok")


def archive_report(rows: list[dict], extra: Iterable[dict] = (), title: str | None = None,
                   generated: str | None = None) -> dict:
    """The report document (the module docstring's shape) of an archive's audit rows (
    :func:`engine.archive.run` with :func:`engine.archive.audit_row`): the summary
    (:func:`engine.archive.summarize`), the sections "problems", "money" and "bank-down" (the
    latter two where the audits give the figures), then every section of ``extra`` in its
    order (each checked by :func:`check_section`; an item with a ``report_sections()`` method,
    such as another tool's result, gives its list of sections), and the games.
    ``generated``: an ISO 8601 time (default now, UTC).  Raises ValueError for a malformed
    extra section or two sections with one id."""
    import datetime

    from .archive import summarize

    sections = [problems_section(rows)]
    sections += [s for s in (money_section(rows), extremes_section(rows)) if s is not None]
    for item in extra:
        hook = getattr(item, "report_sections", None)  # a result that knows its sections
        for made in (hook() if callable(hook) else [item]):
            check_section(made)
            sections.append(made)
    ids = [s["id"] for s in sections]
    doubled = sorted({i for i in ids if ids.count(i) > 1})
    if doubled:
        raise ValueError(f"two report sections share the id {doubled[0]!r}")
    if generated is None:
        generated = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    summary = summarize(rows)
    return {"format": FORMAT,
            "title": title or f"Audit of {summary['games']} games",
            "generated": generated, "summary": summary, "sections": sections,
            "games": game_list(rows)}


def ledger_sections(ledger: dict) -> list[dict]:
    """The sections of an archive's ledger (``engine.ledger.ArchiveLedger.to_json()``: kind ->
    ``{"games", "totals", "players", "tournaments", "top"}``): per kind its totals, its
    players' totals (by name across games) and its tournaments' totals, each total named as
    the kind's audit names it.  Names no game term."""
    out: list[dict] = []
    for kind in sorted(ledger):
        block = ledger[kind]
        totals = block.get("totals") or {}
        out.append(section(f"totals-{kind}", f"Totals of {block.get('games', 0)} {kind} games",
                           [("total", "total"), ("value", "value", True)],
                           [{"total": name, "value": value} for name, value in totals.items()],
                           note="added up from every audited game's own totals "
                                "(the lowest balances are minimums)"))
        players = block.get("players") or {}
        names = sorted({key for values in players.values() for key in values})
        if players:
            out.append(section(f"players-{kind}", f"Players ({kind}), by name across games",
                               [("player", "player")] + [(k, k, True) for k in names],
                               [{"player": p, **v} for p, v in players.items()]))
        tournaments = block.get("tournaments") or {}
        if tournaments:
            keys = sorted({k for t in tournaments.values() for k in (t.get("totals") or {})})
            out.append(section(f"tournaments-{kind}", f"Tournaments ({kind})",
                               [("tournament", "tournament"), ("games", "games", True)]
                               + [(k, k, True) for k in keys],
                               [{"tournament": t.get("name") or tid, "games": t.get("games"),
                                 **(t.get("totals") or {})} for tid, t in tournaments.items()]))
    return out


def chance_sections(chance: dict) -> list[dict]:
    """The sections of a chance audit (``engine.chance_audit.ChanceAudit.to_json()``): every
    group's test (verdict failed when one fails) and the draws that weigh most in the groups
    that fail."""
    columns = [("family", "group by"), ("group", "group"), ("test", "test"), ("n", "draws", True),
               ("observed", "observed", True), ("expected", "expected", True),
               ("z", "z", True), ("p", "p", True), ("p_adjusted", "adjusted p", True),
               ("failed", "fails")]
    groups = [{key: g.get(key) for key, *_ in columns} for g in chance.get("groups", [])]
    out = [section("chance", "Chance audit: the reported draws against what was left",
                   columns, groups,
                   note=f"{chance.get('games', 0)} physical games, {chance.get('draws', 0)} "
                        f"reported draws; {chance.get('correction', 'corrected')} at alpha "
                        f"{chance.get('alpha')}",
                   verdict="ok" if chance.get("ok") else "failed")]
    heavy = []
    for group in chance.get("failed", []):
        for draw in group.get("heaviest", []):
            heavy.append({"group": f"{group.get('family')} {group.get('group')}",
                          "test": group.get("test"),
                          **{k: v for k, v in draw.items() if not isinstance(v, (dict, list))}})
    if heavy:
        keys = sorted({k for row in heavy for k in row} - {"group", "test"})
        out.append(section("chance-heaviest", "The draws that weigh most in the failing groups",
                           [("group", "group"), ("test", "test")] + [(k, k) for k in keys],
                           heavy, verdict="failed"))
    return out
