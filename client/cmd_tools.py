"""Replay and verify: the shared commands on recorded games (docs/tools.md; ``audit`` is
client.cmd_audit, which shares the archive walk here).
Loaded by client.cli when named.

They take ``PATH|GAME``: an existing .devlog file (no store needed), else a game id (or a
unique part of one) in the local store.
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

    from engine.replay.clocks import timeline

    from .clocks import clock_line

    final = log.desk  # a record voided by any correction in the log is shown struck through
    clocks = timeline(log)  # each seat's time as the live game showed it (CLOCK-8)
    out = []
    for item in steps(log, viewer, to_seq):
        view = view_at(log, item.state, viewer, item.record.seq)
        mark = final.mark(item.record.seq) if final is not None else None
        if item.desk is not None:  # the voids and disputes as they stood at this step
            view.update(item.desk.summary(names, item.record.seq))  # a lapsed takeback too
        if item.record.seq in clocks:
            view["clocks"] = clocks[item.record.seq]
        if as_json:
            out.append({"seq": item.record.seq, "event": to_map(item.event), "view": view,
                        "voided": mark is not None,
                        **({"void": mark} if mark is not None else {})})
            continue
        click.echo(f"#{item.record.seq:<5} " + voided_line(render.describe(item.event, names),
                                                          mark))
        if not events_only and view.get("phase") != "setup":  # no table before round 1
            click.echo(render.table(view, as_name))
            if clock_line(view.get("clocks")):
                click.echo(clock_line(view.get("clocks")))
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
              **(final.summary(names, len(log.records), viewer) if final is not None else {})})
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
             need_finished: bool, sink=None, after=None) -> None:
    """Run ``task`` (engine.archive) over every source on ``jobs`` cores with a progress bar
    (stderr); print one line (or JSON line, as each game comes) per game and a summary line;
    exit 3 if a requested check failed (``need_finished``: a game in progress fails too).
    ``sink`` (client.ledger.LedgerSink): given every row in path order; its totals are
    printed before the summary line (JSON: the summary's ``ledger``).  ``after(rows)``, if
    given, is called with every row before the summary is printed (``audit --html``: the
    report)."""
    import sys

    from engine.archive import imap, summarize

    paths = [source.path for source in sources if source.path is not None]
    try:
        with click.progressbar(length=len(sources), label=f"{label} {len(sources)} games",
                               file=sys.stderr) as bar:
            found = imap(task, paths, jobs)
            rows = []
            for source in sources:  # games in the store are read through it, in this process
                row = next(found) if source.path is not None \
                    else task(source.label, source.data)
                bar.update(1)
                if source.damage and row["status"] != "damaged":
                    row.update(status="damaged", ok=False, damage=source.damage,
                               reason="; ".join(_damage_lines(source.damage)))
                if sink is not None:
                    sink.row(row)
                if as_json:
                    emit(row)
                row.pop("transfers", None)  # written: not held for the whole archive
                rows.append(row)
        if sink is not None:
            sink.finish()
    except BaseException:
        if sink is not None:
            sink.discard()
        raise
    summary = summarize(rows)
    if after is not None:
        after(rows)
    for row in rows:
        if as_json:
            continue
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
        emit({"summary": summary, "ok": line.startswith("OK"),
              **({"ledger": sink.ledger.to_json(), "repeated": sink.ledger.repeated}
                 if sink is not None else {})})
    else:
        if sink is not None:
            from .ledger import ledger_text

            for text in ledger_text(sink.ledger):
                click.echo(text)
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
                   "`devil receipts GAME`); fails on a log cut before it.  Repeatable.  A seal "
                   "goes to --seal (given here it is refused, exit 2).")
@click.option("--key", "key_text", metavar="PUB",
              help="Pin the service's public key (`devil key`: 64 hex digits, or a file "
                   "holding them or `devil key --json`): receipts, a proved receipt's checkpoint "
                   "and the seal must be signed by it, and a finished game must have its seal. "
                   "Without it a seal or receipt is checked by the key it names, reported NOT "
                   "pinned (TOUR-6.16).")
@click.option("--seal", "seal_path", type=click.Path(dir_okay=False, exists=True), metavar="FILE",
              help="The game's seal (`devil export --seal`); default: FILE.seal.json beside the "
                   "log, or the store's for a game in the local store.")
@click.option("--history", "history_path", type=click.Path(dir_okay=False, exists=True),
              metavar="FILE",
              help="The store's key history (`devil key --history --json`): with --key the "
                   "current key, receipts and seals signed by an earlier key of it are accepted "
                   "and named; many files: each seal of a key it links to --key by rotations "
                   "signed by both keys (default: the server's or local store's history).")
@click.option("--consistent", is_flag=True,
              help="SOURCES are checkpoints OLD [NEW] (`devil checkpoint`; NEW default: the "
                   "store's now): prove NEW extends OLD, and name any game cut, edited or "
                   "forked since.")
@click.option("--witness", "witnesses", multiple=True, metavar="VKEY",
              help="A witness's verifier key (`devil witness init`; or a file holding it): the "
                   "checkpoint (of a proved --receipt, the NEW of --consistent, or SOURCE as a "
                   "checkpoint file) must carry its valid cosignature.  Repeatable.")
@click.option("--witnesses-required", "witnesses_required", type=int, metavar="K",
              help="How many of the --witness keys must have cosigned (default: all).")
@click.option("--split-view", "split_view", is_flag=True,
              help="SOURCES are two checkpoints A B of one size (or a witness's split-view "
                   "proof): both signed by the log (--key), different roots prove a split view "
                   "(printed, exit 3).")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), metavar="OUT.html",
              help="Also write one self-contained page that re-checks the hash chain, the seed "
                   "commitment, every seat's entropy and every draw in the browser, offline, "
                   "beside this verdict (one game).")
@click.option("--force", is_flag=True, help="Overwrite the --html file if it exists.")
@jobs_option
@json_option
@click.pass_context
def verify(ctx, sources, need_finished, jobs, as_json, receipts=(), key_text=None,
           seal_path=None, consistent=False, witnesses=(), witnesses_required=None,
           split_view=False, html_path=None, force=False, history_path=None):
    """Check recorded games: format, hash chain, seed, and a strict re-fold.

    Every command is rebuilt from its events and decided again: it must give exactly the
    recorded events (every draw re-derived from the revealed seed, every payout from the
    rules).  One game: what holds, or the first bad record and why.  Many files or folders
    (searched for *.devlog): every game on every core, a line each, then a summary (N finished
    and verified, N in progress, N damaged).  The first line says FAILED whenever a requested
    check fails.  Exit 0 if everything holds, 3 if not.

    \b
    With --receipt, the log must hold each receipt's record (same sequence number and link):
    a log cut before it, or changed at or before it, fails.  It also says whether the record
    still stands: "in force", or "voided" by a later correction (DESK-2), amendment (DESK-9) or
    takeback (DESK-12.6), naming that record, when, by whom and why; a voided receipt exits 7
    (--json: "standing").  With --key, the game's seal (its signed final record, and the
    voided records it covers) is checked: a finished game without one, or with one that names
    another end, other voids or another key, fails.  A receipt or seal signed by an earlier
    key of the store (a rotation, `devil key --history`) is accepted and named.

    \b
    Exit 0 everything holds (every receipt's record in force), 2 a bad input (an option, a
    file that is not what it should be), 3 a check fails, 7 the log and its signatures hold
    but a receipt's record was voided.

    \b
    Examples:
      devil verify replays/GAME.devlog
      devil verify k3f9qz.devlog --key "$(devil key)" --receipt 17
      devil verify k3f9qz --finished --json
      devil verify archive/ --finished --jobs 2      (one line per game, then a summary)
      devil verify --consistent seen.json            (the store still extends a checkpoint)
      devil verify seen.checkpoint --witness "$W1" --witness "$W2" --witnesses-required 1
      devil verify --split-view a.checkpoint b.checkpoint --key LOGKEY
      devil verify replays/GAME.devlog --html check.html   (the page re-checks it offline)
    """
    if html_path is not None and (consistent or split_view or len(sources) != 1):
        raise UsageError("--html writes the page of one game: name one file or game id")
    if split_view:  # issue 20.4: two signed checkpoints of one size, two roots
        from .cmd_witness import split_view as check_split

        return check_split(ctx, sources, key_text, as_json)
    if witnesses or witnesses_required is not None:
        from .cmd_witness import is_checkpoint_file, verify_checkpoint, witness_keys

        witness_list, witnesses_required = witness_keys(witnesses, witnesses_required)
        if not consistent and not receipts:
            if len(sources) != 1 or not is_checkpoint_file(sources[0]):
                raise UsageError("--witness checks a checkpoint: give a checkpoint file, a "
                                 "proved --receipt, or --consistent OLD [NEW]")
            return verify_checkpoint(ctx, sources[0], key_text, witness_list,
                                     witnesses_required, as_json)
        witnesses = tuple(witness_list)
    if consistent:
        from .cmd_tlog import consistent as check

        if witnesses:
            return check(ctx, sources, key_text, as_json,
                         witnessed=(list(witnesses), witnesses_required),
                         history_path=history_path)
        return check(ctx, sources, key_text, as_json, history_path=history_path)
    from engine.archive import verify_row

    if key_text is not None and not key_text.strip():  # e.g. --key "$(devil key)" that failed
        raise UsageError("--key is empty: give the public key (`devil key`: 64 hex digits) or "
                         "a file holding it")
    items, archive = sources_of(ctx.obj, sources)
    if archive and html_path is not None:
        raise UsageError(f"--html writes the page of one game, and {sources[0]} is a folder: "
                         "name one file or game id")
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

            from engine.keys.history import vouched

            from .signed import _history

            pin = parse_key(_read_text(key_text, "the key"))
            # a seal of a key the store's key history links to the pinned one holds too
            task = functools.partial(sealed_verify_row, key=pin,
                                     keys=vouched(pin, _history(ctx.obj, history_path)))
        _archive(ctx, items, task, jobs, as_json, "verifying", need_finished)
        return
    source = items[0]
    result = _verify_one(source)
    damage = _damage_lines(source.damage)
    if receipts or key_text or seal_path or _sidecar_seal(source):
        from .signed import check_signed

        standings = check_signed(ctx.obj, source, result, receipts, key_text, seal_path,
                                 history_path)
    else:
        standings = []
    if witnesses and receipts:  # each proved receipt's checkpoint cosigned (issue 20.4)
        from .cmd_witness import check_receipts

        check_receipts(ctx.obj, result, receipts, list(witnesses), witnesses_required)
    from .seating import check_kept

    check_kept(result, lambda: source.data if source.data is not None else _read(source.path))
    failed = not result.ok or bool(damage) or (need_finished and not result.finished)
    written = None
    if html_path is not None:
        from .verify_html import write_page

        written = write_page(source, result, html_path, force)
    voided = any(found["verdict"] == "voided" for found in standings)
    if as_json:
        data = result.to_json()
        if html_path is not None:
            data["html"] = html_path if written else None
        data["path"] = source.label
        data["damage"] = source.damage
        data["ok"] = not failed
        data["pinned"] = bool(key_text)  # TOUR-6.16: --key checked the seal and receipts
        if standings:  # each receipt's record: in force, or voided (issue 20.6)
            data["standing"] = standings
            data["verdict"] = voided and "voided" or "in force"
        emit(data)
    else:
        state = "finished" if result.finished else "in progress (not finished)"
        head = "FAILED" if failed else "VOIDED" if voided else "OK"
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
    if written:
        click.echo(f"wrote {html_path}: the page re-checks the chain, the seed and every draw "
                   "in the browser (opens offline)", err=True)
    elif html_path is not None:
        click.echo(f"no page written: {source.label} is not a devil log (its header, record 0, "
                   "is damaged), so there is no game to show", err=True)
    if failed:
        ctx.exit(3)
    if voided:
        ctx.exit(7)  # a receipt's record no longer stands (issue 20.6)


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _sidecar_seal(source: Source) -> bool:
    """Whether a seal sits beside the log file (FILE.seal.json): then verify checks it."""
    import os

    return source.path is not None and os.path.isfile(source.path + ".seal.json")
