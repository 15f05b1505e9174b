"""``devil audit ... --html OUT.html``: the pages an audit writes as one self-contained file
each (engine.web.pages): one game's audit page (verdict, money chart, the ledger payout by
payout), or an archive's report (engine.report: summary, sections of tables, the games).
Both open offline: their data is inlined and they load nothing.  Written by the one policy
of every file a command writes (client.files.write_new: refused if it exists, unless
``--force``)."""

from __future__ import annotations

from typing import Iterable

import click

from .files import write_new


def write_game_page(log, result, path: str, force: bool, quiet: bool) -> dict:
    """The audit page of one game (``result``: its kind's audit of ``log``) to ``path``;
    ``{"html": path, "transfers": n}``.  Raises UsageError if ``path`` exists and not
    ``force``, or for an audit that draws no chart (nothing is written then)."""
    from engine.web.pages import audit_data, audit_html

    data = audit_data(log, result)
    write_new(path, audit_html(data, f"{data['title']} {data['game']} audit"), force)
    if not quiet:
        click.echo(f"wrote {path}: the audit page of {data['game']} (chart and ledger, "
                   f"{len(data['ledger'])} transfers; opens offline)", err=True)
    return {"html": path, "transfers": len(data["ledger"])}


def write_archive_report(rows: list[dict], path: str, force: bool, quiet: bool,
                         extra: Iterable[dict] = ()) -> dict:
    """One report of an archive's audit ``rows`` (engine.archive.audit_row), with the
    sections ``extra`` after the built-in ones (engine.report.archive_report), to ``path``;
    ``{"html": path, "sections": n}``.  Raises UsageError if ``path`` exists and not
    ``force``."""
    from engine.report import archive_report
    from engine.web.pages import archive_html

    document = archive_report(rows, extra)
    write_new(path, archive_html(document), force)
    if not quiet:
        click.echo(f"wrote {path}: the report of {len(rows)} games, "
                   f"{len(document['sections'])} sections (opens offline)", err=True)
    return {"html": path, "sections": len(document["sections"])}
