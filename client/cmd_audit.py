"""``devil audit``: each kind's own audit of recorded games, one ledger across an archive,
the regulator's record (client.record), the offline pages (client.audit_html) and the chance
audit (client.chance) (docs/tools.md).  Loaded by client.cli when named."""

from __future__ import annotations

import click

from engine.errors import UsageError

from .cmd_tools import _archive, jobs_option, sources_of
from .files import write_new
from .options import json_option
from .output import emit

# -- audit -------------------------------------------------------------------------------------
@click.command()
@click.argument("sources", nargs=-1, required=True, metavar="PATH|GAME...")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also write the ledger to FILE as CSV: every transfer of every game, each "
                   "game's totals, then the totals of the archive, each tournament and each "
                   "player, and the --top games (refused if FILE exists, unless --force).")
@click.option("--top", "top", type=click.IntRange(0), default=5, show_default=True,
              metavar="N", help="Many games: rank this many by the kind's extreme (the bank's "
                                "lowest balance: where it was down the most).")
@click.option("--chart", "chart_path", type=click.Path(dir_okay=False), metavar="OUT.png|svg",
              help="Also draw every player's money and the bank's balance round by round, "
                   "the kind's marked rounds shaded (one game; the format from the name).")
@click.option("--record", "record_path", type=click.Path(), metavar="FILE",
              help="Write the regulator's record of every game instead (docs/record.md): "
                   "rules and engine versions, start and end, money, bets, draws, payouts, "
                   "pacts, every choice with its phase; .csv or .json by the name.")
@click.option("--record-format", type=click.Choice(["csv", "json"], case_sensitive=False),
              help="The --record file's format, whatever its name.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), metavar="OUT.html",
              help="Also write one HTML file that opens offline: for one game its audit page "
                   "(the verdict, the money chart and the ledger payout by payout); for many "
                   "games or a folder one report of them all (the games, damaged files and "
                   "failed audits, money per game, the games where the bank was down the most).")
@click.option("--force", is_flag=True,
              help="Overwrite the --csv / --chart / --html / --record file if it exists.")
@click.option("--finished", "need_finished", is_flag=True,
              help="Also fail (exit 3) unless the game is finished.")
@click.option("--chance", "chance", is_flag=True,
              help="Also test the draws referees reported in physical games against what was "
                   "left at each draw, per referee, table, seat and referee x seat "
                   "(docs/chance-audit.md); exit 3 when a group fails.")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              metavar="P",
              help="With --chance: the level a group fails at, after the correction for the "
                   "number of groups (weighted Holm; default 0.01).")
@jobs_option
@json_option
@click.pass_context
def audit(ctx, sources, csv_path, top, chart_path, force, need_finished, jobs, as_json,
          record_path=None, record_format=None, html_path=None, chance=False, alpha=None):
    """Audit recorded games with their kind's own checks (a game with a bank: its ledger).

    With --chance, also a statistical audit of the chance referees reported across the
    physical games named (digital games are skipped: verify checks their draws exactly): for
    every reported draw the exact probability of what was reported given what was left; per
    referee, table, seat and referee x seat a score test (z, p), corrected together; failing
    groups are named with the draws that weigh most (docs/chance-audit.md).  With --json its
    result is one more JSON line, {"chance": ...}.

    The ledger lists every bet, the highest total, every payout and loss with its rule id and
    payer, every pact payment and who covered it; each player's money from the start through
    every transfer; the most the bank was ever down.  Payouts are re-derived from the bets and
    draws: a recorded payout that differs is reported with its sequence number, and the exit
    code is 3.  A kind without an audit is a usage error (exit 2), unless --chance: then the
    chance audit is the output.

    Many files or folders: every game on every core, a line each, then the totals (money at
    the start and end, bets, what the bank paid and won, pact payments, the bank's lowest
    balance; per player by name; per tournament for a bundle's games), the --top games where
    the bank was down the most, and the summary line.  --csv FILE: ONE ledger of every game,
    streamed as the games come and put in place at the end (a damaged game is named, exit 3,
    and left out; the rest are written).

    \b
    With --record FILE, every game's regulator's record instead (any kind: money and rounds
    where the game has a bank), in one CSV (a row per fact) or JSON file; written only if
    every game verifies, exit 3 naming the first that does not.

    \b
    Examples:
      devil audit replays/GAME.devlog --csv ledger.csv
      devil audit replays/GAME.devlog --chart money.svg   (or money.png)
      devil audit replays/GAME.devlog --html audit.html   (the chart beside the ledger)
      devil audit archive/ --csv ledger.csv --top 10   (one CSV of every game, totals last)
      devil audit archive/ --json    (a JSON line per game with its transfers, then a summary
                                      line with the totals: docs/tools.md)
      devil audit archive/ --record record.csv     (or record.json; docs/record.md)
      devil audit archive/ --html report.html      (one offline report of every game)
      devil audit archive/ --chance --alpha 0.001  (the reported draws tested, per referee...)
    """
    if alpha is not None and not chance:
        raise UsageError("--alpha is the level of the chance audit: give --chance too")
    ledger = (sources, csv_path, top, chart_path, force, need_finished, jobs, as_json, record_path,
              record_format, html_path)
    if not chance:
        _audit_ledger(ctx, *ledger)
        return
    from .chance import lines, run_chance

    failed = False
    report: dict = {}  # an archive's --html report waits for the chance audit's sections
    try:
        _audit_ledger(ctx, *ledger, chance=True, report=report)
    except click.exceptions.Exit as exc:
        if exc.exit_code != 3:
            raise
        failed = True
    result = run_chance(sources_of(ctx.obj, sources)[0], jobs, 0.01 if alpha is None else alpha)
    if as_json:
        emit({"chance": result.to_json()})
    else:
        for line in lines(result):
            click.echo(line)
    if report:
        from engine.report import chance_sections

        report["write"](chance_sections(result.to_json()))
    if failed or not result.ok:
        ctx.exit(3)


def _audit_ledger(ctx, sources, csv_path, top, chart_path, force, need_finished, jobs, as_json,
                  record_path=None, record_format=None, html_path=None, chance=False,
                  report=None):
    """The ledger part of ``devil audit`` (each kind's own audit, or the record; exit 3 when
    it fails).  ``chance``: the chance audit follows, so one game of a kind without a ledger
    is no error.  ``report`` (a dict, with ``chance``): an archive's --html report is not
    written here but left in it as ``report["write"](extra_sections)``."""
    if record_path is not None or record_format is not None:
        from .record import record_audit

        record_audit(ctx, lambda: sources_of(ctx.obj, sources)[0], record_path, record_format,
                     csv_path or chart_path or html_path, force, jobs, as_json, need_finished)
        return
    from engine.archive import audit_row
    from engine.replay import load_bytes, open_log

    from .games import audit_renderer

    chart_format = None
    if chart_path is not None:
        chart_format = chart_path.rsplit(".", 1)[-1].lower() if "." in chart_path else ""
        if chart_format not in ("png", "svg"):
            raise UsageError(f"--chart writes .png or .svg, not {chart_path!r}: name the file "
                             "money.png or money.svg")
    import os

    for path in (csv_path, chart_path, html_path):  # refuse before the work, as write_new would
        if path is not None and not force and os.path.exists(path):
            raise UsageError(f"{path} exists already; give a new file name or --force")
    items, archive = sources_of(ctx.obj, sources)
    if archive:
        if chart_path:
            raise UsageError("--chart takes one game; audit many with --csv or --json")
        import functools

        from .ledger import archive_sink

        sink = archive_sink(sources, top, csv_path, force, as_json)
        after = None
        if html_path is not None:
            from engine.report import ledger_sections

            from .audit_html import write_archive_report

            def after(rows):  # the report: the games, the ledger's totals (and the chance's)
                def write(extra=()):
                    write_archive_report(rows, html_path, force, as_json,
                                         ledger_sections(sink.ledger.to_json()) + list(extra))
                if report is not None:
                    report["write"] = write
                else:
                    write()
        task = functools.partial(audit_row, transfers=True) if csv_path or as_json \
            else audit_row
        _archive(ctx, items, task, jobs, as_json, "auditing", need_finished, sink, after)
        return
    source = items[0]
    log = open_log(source.path) if source.data is None else load_bytes(source.data, source.label)
    rules = log.rules
    render = audit_renderer(rules.kind)
    if (rules.audit is None or render is None) and chance:
        return  # the chance audit (client.chance) is all there is to say of this game
    if rules.audit is None or render is None:
        raise UsageError(f"{rules.title} ({rules.kind}) games have no audit; `devil verify` "
                         "checks any recorded game")
    try:
        result = rules.audit(log.effective())  # a corrected game is audited as corrected
    except Exception as exc:  # an impossible event the audit cannot follow: name its record
        from engine.errors import LogDamaged
        from engine.replay import verify_bytes, verify_path

        check = verify_path(source.path) if source.data is None \
            else verify_bytes(source.data, source.label)
        if check.ok and isinstance(exc, UsageError):  # a sound log with nothing to audit yet
            raise                                     # (a game still seating): exit 2
        raise LogDamaged(check.first_bad_seq or 0,
                         check.reason or f"the audit cannot follow this log ({exc!r})",
                         source.label) from None
    totals = result.totals() if hasattr(result, "totals") else None
    if csv_path:
        from .ledger import write_one

        write_one(csv_path, force, top, source.label, log, result, as_json)
    if chart_path:
        _write_chart(result, rules, chart_path, chart_format, force)
        if not as_json:
            click.echo(f"wrote {chart_path}: the money chart ({chart_format})", err=True)
    if html_path:
        from .audit_html import write_game_page

        write_game_page(log, result, html_path, force, as_json)
    finished = bool(result.finished)
    failed = not result.ok or (need_finished and not finished)
    voided = log.desk.summary().get("voided", []) if log.desk is not None else []
    if as_json:
        data = result.to_json()
        data["finished"] = finished
        if totals is not None:  # the same totals as a row of many games' ledger
            data.update(totals=totals["totals"], players=totals["players"])
        if voided:
            data["voided"] = voided  # the records this audit leaves out (engine.desk)
        emit(data)
    else:
        text = render.text(result)
        if failed and result.ok:
            text = "FAILED: the game is not finished, as --finished requires\n" + text
        click.echo(text)
        from .desk import desk_lines

        granted = [t for t in (log.desk.summary().get("takebacks", []) if log.desk is not None
                               else []) if t["state"] == "granted"]  # DESK-12.6's voids
        for line in desk_lines({"voided": voided, "takebacks": granted}):
            click.echo(f"{line} (left out of this audit)")
    if failed:
        ctx.exit(3)


def _write_chart(result, rules, path: str, chart_format: str, force: bool) -> None:
    """The audit's money chart (its ``chart()`` spec, drawn by engine.chart) to ``path``."""
    from engine import chart

    spec = getattr(result, "chart", None)
    if spec is None:
        raise UsageError(f"the audit of {rules.title} games draws no chart")
    spec = spec()
    write_new(path, chart.svg(spec) if chart_format == "svg" else chart.png(spec), force)
