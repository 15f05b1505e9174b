"""Replay, verify and audit: the shared commands on recorded games (docs/tools.md).
Loaded by client.cli when named.

They take ``PATH|GAME``: an existing .devlog file (no store needed), else a game id (or a
unique part of one) in the local store.  ``audit`` runs the kind's own audit (the ``audit``
hook of its GameRules) and renders it with the kind's client part.
"""

from __future__ import annotations

import click

from engine.errors import UsageError

from .files import log_file, write_new
from .options import json_option
from .output import emit, renderer_for


# -- replay ------------------------------------------------------------------------------------
@click.command()
@click.argument("source", metavar="PATH|GAME")
@click.option("--as", "as_name", metavar="NAME",
              help="Show only what this player knew at each moment (default: the referee).")
@click.option("--to", "to_seq", type=int, metavar="SEQ",
              help="Stop after this sequence number (1 is the game's first event; past the "
                   "last one is refused, naming it).")
@click.option("--step", is_flag=True, help="Wait for a key between events (q quits).")
@click.option("--events-only", is_flag=True, help="One line per event, without the table.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), metavar="OUT.html",
              help="Write the replay page instead: one self-contained HTML file (slider, step "
                   "buttons, event list) that opens offline; with --as, only what that player "
                   "knew is in it.")
@click.option("--force", is_flag=True, help="Overwrite the --html file if it exists.")
@json_option
@click.pass_obj
def replay(obj, source, as_name, to_seq, step, events_only, html_path, force, as_json):
    """Walk a recorded game event by event, showing the table after each.

    Works on any .devlog file, without a store.  With --as, every event and every table is what
    that player saw at that moment: other players' bets stay sealed until they are revealed.

    \b
    Examples:
      devil replay GAME.devlog --as Anna --to 30
      devil replay GAME.devlog --html dispute.html --as Ben   (the page, for Ben, to mail)
    """
    from engine.errors import LogDamaged
    from engine.game import REFEREE
    from engine.replay import load_bytes, open_log, steps, verify_bytes, verify_path, view_at

    found, archive = sources_of(obj, [source])
    if archive:  # a folder: replay steps through one game, so name one of its games
        shown = ", ".join(item.path for item in found[:3]) + (", ..." if len(found) > 3 else "")
        raise UsageError(f"replay takes one game, and {source} is a folder of {len(found)} "
                         f"game(s) ({shown}): name one file or game id; `devil verify "
                         f"{source}` checks them all")
    source_log = found[0]
    # a damaged log is stepped through up to its first bad record, then reported (exit 3)
    check = (verify_path(source_log.path) if source_log.data is None
             else verify_bytes(source_log.data, source_log.label))
    if not check.ok and check.first_bad_seq == 0:
        raise LogDamaged(0, check.reason, source_log.label)
    log = (open_log(source_log.path) if source_log.data is None
           else load_bytes(source_log.data, source_log.label))
    _check_to(to_seq, log)
    if not check.ok:
        last_good = check.first_bad_seq - 1
        to_seq = last_good if to_seq is None else min(to_seq, last_good)
    names = log.names
    viewer = REFEREE
    if as_name is not None:
        from engine.seats import seat_named

        viewer = seat_named(names, as_name)
        as_name = names[viewer]  # as the game spells it (--as anna finds Anna)
    if html_path is not None:
        _write_replay_html(log, viewer, to_seq, html_path, force, as_json)
        if not check.ok:
            raise LogDamaged(check.first_bad_seq, check.reason, source_log.label)
        return
    render = renderer_for(log.header.kind)
    to_map = log.rules.events.to_map
    from .desk import voided_line

    final = log.desk  # a record voided by any correction in the log is shown struck through
    out = []
    for item in steps(log, viewer, to_seq):
        view = view_at(log, item.state, viewer, item.record.seq)
        mark = final.mark(item.record.seq) if final is not None else None
        if item.desk is not None:  # the voids and disputes as they stood at this step
            view.update(item.desk.summary(names))
        if as_json:
            out.append({"seq": item.record.seq, "event": to_map(item.event), "view": view,
                        "voided": mark is not None,
                        **({"void": mark} if mark is not None else {})})
            continue
        click.echo(f"#{item.record.seq:<5} " + voided_line(render.describe(item.event, names),
                                                          mark))
        if not events_only and view.get("phase") != "setup":  # no table before round 1
            click.echo(render.table(view, as_name))
            click.echo("")
        if step:
            click.echo("-- any key for the next event, q to quit --", err=True)
            try:
                key = click.getchar()
            except OSError:  # no terminal to read a key from (input piped, no /dev/tty)
                raise UsageError("--step waits for a key between events: it needs a terminal "
                                 "(leave it out, or use --to SEQ)") from None
            if key in ("q", "Q", "\x03", "\x04"):
                break
    if as_json:
        emit({"game": log.header.game, "kind": log.header.kind, "as": as_name, "steps": out,
              **(final.summary(names) if final is not None else {})})
    if not check.ok:
        raise LogDamaged(check.first_bad_seq, check.reason, source_log.label)


def _check_to(to_seq: int | None, log) -> None:
    """UsageError (exit 2) for a ``--to`` no record has: before the first (sequence numbers
    start at 1, the game's first event) or past the last (named)."""
    if to_seq is None:
        return
    last = log.records[-1].seq if log.records else 0
    if to_seq < 1:
        raise UsageError(f"--to {to_seq}: a game's records are numbered from 1 (its first "
                         f"event) to {last}; give --to 1 to {last}")
    if to_seq > last:
        raise UsageError(f"--to {to_seq} is past the end of {log.header.game}: its last "
                         f"record is #{last} (`--to {last}`, or leave --to out)")


def _write_replay_html(log, viewer, to_seq, path: str, force: bool, as_json: bool) -> None:
    """The replay page of ``log`` for ``viewer`` (up to ``to_seq``), data inlined, to
    ``path`` (engine.web.pages)."""
    from engine.web.pages import replay_data, replay_html

    from .page import texts

    data = replay_data(log, viewer, texts, to=to_seq)
    write_new(path, replay_html(data, f"{data['game']} replay ({data['as']})"), force)
    if as_json:
        emit({"game": data["game"], "kind": data["kind"], "as": data["as"], "html": path,
              "events": len(data["steps"])})
    else:
        click.echo(f"wrote {path}: the replay of {data['game']} as {data['as']}, "
                   f"{len(data['steps'])} events (opens offline)", err=True)


# -- checking one or many recorded games --------------------------------------------------------
class Source:
    """One recorded game named on the command line: a .devlog ``path``, or a ``game`` in the
    local store (``data``: its bytes, ``damage``: what the store could not read as records)."""

    def __init__(self, label: str, path: str | None = None, data: bytes | None = None,
                 damage: list | None = None):
        self.label, self.path, self.data, self.damage = label, path, data, damage or []


def sources_of(obj, names) -> tuple[list[Source], bool]:
    """The games ``names`` name (files, folders searched for *.devlog, game ids in the local
    store) and whether they make an archive (more than one, or a folder)."""
    import os

    from engine.archive import expand

    out, archive = [], len(names) > 1
    for name in names:
        if os.path.isdir(name):
            archive = True
            out += [Source(path, path) for path in expand([name])]
            continue
        path = log_file(name)
        if path is not None:
            out.append(Source(path, path))
            continue
        if obj.server:
            raise UsageError(f"{name} is not a file; with --server, export the game first "
                             f"(`devil export {name} -o {name}.devlog` with the referee's "
                             "token): replay, verify and audit read files")
        store = obj.client.service.store
        game = store.resolve(name)
        out.append(Source(store.location(game), None, store.log_bytes(game), store.damage(game)))
        for warning in store.warnings():  # a store others may read (issue 9.6)
            click.echo(f"warning: {warning}", err=True)
    return out, archive


def _damage_lines(damage: list) -> list[str]:
    lines = []
    for piece in damage:
        where = (f"set aside in {piece['file']} at {piece['time']}" if piece.get("file")
                 else "still at the end of the log")
        lines.append(f"{piece['size']} bytes from byte {piece['offset']} could not be read as "
                     f"records: {where}; not acknowledged by the referee")
    return lines


def _verify_one(source: Source):
    from engine.replay import verify_bytes, verify_path

    if source.data is None:
        assert source.path is not None  # a Source is a path or a store's bytes
        return verify_path(source.path)
    return verify_bytes(source.data, source.label)


def _archive(ctx, sources: list[Source], task, jobs: int | None, as_json: bool, label: str,
             need_finished: bool, after=None) -> None:
    """Run ``task`` (engine.archive) over every source on ``jobs`` cores with a progress bar;
    print one line (or JSON line) per game and a summary line; exit 3 if a requested check
    failed (``need_finished``: a game in progress fails too).  ``after(rows)``, if given, is
    called with every row before the summary is printed (``audit --html``: the report)."""
    import sys

    from engine.archive import run, summarize

    paths = [source.path for source in sources if source.path is not None]
    with click.progressbar(length=len(sources), label=f"{label} {len(sources)} games",
                           file=sys.stderr) as bar:
        found = iter(run(task, paths, jobs, on_row=lambda row: bar.update(1)))
        rows = []
        for source in sources:  # games in the store are read through it, in this process
            row = next(found) if source.path is not None else task(source.label, source.data)
            if source.path is None:
                bar.update(1)
            if source.damage and row["status"] != "damaged":
                row.update(status="damaged", ok=False, damage=source.damage,
                           reason="; ".join(_damage_lines(source.damage)))
            rows.append(row)
    summary = summarize(rows)
    if after is not None:
        after(rows)
    for row in rows:
        if as_json:
            emit(row)
        elif row["status"] == "damaged":
            click.echo(f"BAD  {row['path']}: record {row.get('first_bad_seq')}: {row['reason']}")
        elif row["status"] == "no audit":
            click.echo(f"SKIP {row['path']}: {row['reason']}")
        elif row.get("ok") is False:
            click.echo(f"FAILED {row['path']}: {row.get('reason') or 'see the single report'}")
        elif need_finished and row["status"] == "in progress":
            click.echo(f"UNFINISHED {row['path']}: {row.get('kind')} {row.get('game')}, "
                       f"{row.get('events')} events, in progress (--finished)")
        else:
            click.echo(f"OK   {row['path']}: {row.get('kind')} {row.get('game')}, "
                       f"{row.get('events')} events, {row['status']}")
    line = _summary_line(summary, need_finished)
    if as_json:
        emit({"summary": summary, "ok": line.startswith("OK")})
    else:
        click.echo(line)
    if not line.startswith("OK"):
        ctx.exit(3)


def _summary_line(summary: dict, need_finished: bool) -> str:
    failed = (summary["damaged"] + summary["failed"]
              + (summary["in_progress"] if need_finished else 0))
    head = "FAILED" if failed else "OK"
    return (f"{head}: {summary['games']} games: {summary['finished']} finished and verified, "
            f"{summary['in_progress']} in progress, {summary['damaged']} damaged"
            + (f", {summary['failed']} failed" if summary["failed"] else "")
            + (f", {summary['skipped']} without an audit" if summary.get("skipped") else ""))


jobs_option = click.option("--jobs", type=click.IntRange(1), metavar="N",
                           help="Worker processes for many games (default: the core count).")


@click.command()
@click.argument("sources", nargs=-1, required=True, metavar="PATH|GAME...")
@click.option("--finished", "need_finished", is_flag=True,
              help="Also fail (exit 3) unless the game is finished: its last event ends it "
                   "(and reveals the seed).")
@click.option("--receipt", "receipts", multiple=True, metavar="R",
              help="Also prove the log holds this receipt's record (R: a receipt as JSON, a "
                   "file holding one, or a sequence number among the receipts this client kept: "
                   "`devil receipts GAME`); fails on a log cut before it.  Repeatable.")
@click.option("--key", "key_text", metavar="PUB",
              help="The service's public key (`devil key`: 64 hex digits, or a file holding "
                   "them or `devil key --json`): receipts and the seal must be signed by it, and "
                   "a finished game must have its seal.")
@click.option("--seal", "seal_path", type=click.Path(dir_okay=False, exists=True), metavar="FILE",
              help="The game's seal (`devil export --seal`); default: FILE.seal.json beside the "
                   "log, or the store's for a game in the local store.")
@jobs_option
@json_option
@click.pass_context
def verify(ctx, sources, need_finished, jobs, as_json, receipts=(), key_text=None,
           seal_path=None):
    """Check recorded games: format, hash chain, seed, and a strict re-fold.

    Every command is rebuilt from its events and decided again: it must give exactly the
    recorded events (every draw re-derived from the revealed seed, every payout from the
    rules).  One game: what holds, or the first bad record and why.  Many files or folders
    (searched for *.devlog): every game on every core, a line each, then a summary (N finished
    and verified, N in progress, N damaged).  The first line says FAILED whenever a requested
    check fails.  Exit 0 if everything holds, 3 if not.

    \b
    With --receipt, the log must hold each receipt's record (same sequence number and link):
    a log cut before it, or changed at or before it, fails.  With --key, the game's seal (its
    signed final record) is checked: a finished game without one, or with one that names
    another end or another key, fails.

    \b
    Examples:
      devil verify replays/GAME.devlog
      devil verify k3f9qz.devlog --key "$(devil key)" --receipt 17
      devil verify k3f9qz --finished --json
      devil verify archive/ --finished --jobs 2      (one line per game, then a summary)
    """
    from engine.archive import verify_row

    if key_text is not None and not key_text.strip():  # e.g. --key "$(devil key)" that failed
        raise UsageError("--key is empty: give the public key (`devil key`: 64 hex digits) or "
                         "a file holding it")
    items, archive = sources_of(ctx.obj, sources)
    if archive:
        if receipts or seal_path:
            raise UsageError("--receipt and --seal check one game; name one file or game "
                             "(--key checks every file's FILE.seal.json)")
        task = verify_row
        if key_text and any(item.path is None for item in items):
            raise UsageError("--key with many games reads .devlog files and the FILE.seal.json "
                             "beside each: export the games first (`devil export GAME -o FILE "
                             "--seal FILE.seal.json`)")
        if key_text:  # every file's seal beside it (devil export --seal FILE.seal.json)
            import functools

            from engine.archive import sealed_verify_row
            from engine.receipts import parse_key

            from .signed import _read_text

            task = functools.partial(sealed_verify_row,
                                     key=parse_key(_read_text(key_text, "the key")))
        _archive(ctx, items, task, jobs, as_json, "verifying", need_finished)
        return
    source = items[0]
    result = _verify_one(source)
    damage = _damage_lines(source.damage)
    if receipts or key_text or seal_path or _sidecar_seal(source):
        from .signed import check_signed

        check_signed(ctx.obj, source, result, receipts, key_text, seal_path)
    from .seating import check_kept

    check_kept(result, lambda: source.data if source.data is not None else _read(source.path))
    failed = not result.ok or bool(damage) or (need_finished and not result.finished)
    if as_json:
        data = result.to_json()
        data["path"] = source.label
        data["damage"] = source.damage
        data["ok"] = not failed
        emit(data)
    else:
        state = "finished" if result.finished else "in progress (not finished)"
        head = "FAILED" if failed else "OK"
        if result.ok:
            click.echo(f"{head} {source.label}: {result.kind} game {result.game}, "
                       f"{result.events} events, {state}")
            for check in result.checks:
                click.echo(f"  - {check}")
            for line in damage:
                click.echo(f"  - {line}")
            if need_finished and not result.finished:
                click.echo("  - not finished, as --finished requires (its end may have been cut "
                           "off)")
        else:
            where = "" if result.first_bad_seq is None else f"record {result.first_bad_seq}: "
            click.echo(f"FAILED {source.label}: {where}{result.reason}")
            for check in result.checks:
                click.echo(f"  - {check}")
            for line in damage:
                click.echo(f"  - {line}")
    if failed:
        ctx.exit(3)


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _sidecar_seal(source: Source) -> bool:
    """Whether a seal sits beside the log file (FILE.seal.json): then verify checks it."""
    import os

    return source.path is not None and os.path.isfile(source.path + ".seal.json")


# -- audit -------------------------------------------------------------------------------------
@click.command()
@click.argument("sources", nargs=-1, required=True, metavar="PATH|GAME...")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also write every transfer to FILE as CSV (one game; refused if FILE exists, "
                   "unless --force).")
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
def audit(ctx, sources, csv_path, chart_path, force, need_finished, jobs, as_json,
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
    code is 3.  Many files or folders: every game on every core, a line each and a summary.
    A kind without an audit is a usage error (exit 2), unless --chance: then the chance audit
    is the output.

    \b
    With --record FILE, every game's regulator's record instead (any kind: money and rounds
    where the game has a bank), in one CSV (a row per fact) or JSON file; written only if
    every game verifies, exit 3 naming the first that does not.

    \b
    Examples:
      devil audit replays/GAME.devlog --csv ledger.csv
      devil audit replays/GAME.devlog --chart money.svg   (or money.png)
      devil audit replays/GAME.devlog --html audit.html   (the chart beside the ledger)
      devil audit archive/ --json                  (one JSON line per game, then a summary)
      devil audit archive/ --record record.csv     (or record.json; docs/record.md)
      devil audit archive/ --html report.html      (one offline report of every game)
      devil audit archive/ --chance --alpha 0.001  (the reported draws tested, per referee...)
    """
    if alpha is not None and not chance:
        raise UsageError("--alpha is the level of the chance audit: give --chance too")
    ledger = (sources, csv_path, chart_path, force, need_finished, jobs, as_json, record_path,
              record_format, html_path)
    if not chance:
        _audit_ledger(ctx, *ledger)
        return
    from .chance import lines, run_chance

    failed = False
    try:
        _audit_ledger(ctx, *ledger, chance=True)
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
    if failed or not result.ok:
        ctx.exit(3)


def _audit_ledger(ctx, sources, csv_path, chart_path, force, need_finished, jobs, as_json,
                  record_path=None, record_format=None, html_path=None, chance=False):
    """The ledger part of ``devil audit`` (each kind's own audit, or the record; exit 3 when
    it fails).  ``chance``: the chance audit follows, so one game of a kind without a ledger
    is no error."""
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
        if csv_path or chart_path:
            raise UsageError(f"{'--csv' if csv_path else '--chart'} takes one game; audit many "
                             "with --json")
        after = None
        if html_path is not None:
            from .audit_html import write_archive_report

            def after(rows):
                write_archive_report(rows, html_path, force, as_json)
        _archive(ctx, items, audit_row, jobs, as_json, "auditing", need_finished, after)
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
    if csv_path:
        write_new(csv_path, render.csv(result), force)
        if not as_json:
            click.echo(f"wrote {csv_path}: the ledger as CSV", err=True)
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
        if voided:
            data["voided"] = voided  # the records this audit leaves out (engine.desk)
        emit(data)
    else:
        text = render.text(result)
        if failed and result.ok:
            text = "FAILED: the game is not finished, as --finished requires\n" + text
        click.echo(text)
        from .desk import desk_lines

        for line in desk_lines({"voided": voided}):
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
