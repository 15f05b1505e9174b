"""``devil audit PATH... --record FILE``: the regulator's record of recorded games, as CSV or
JSON (engine.record builds it; docs/record.md says every field).  Called by the ``audit``
command of client.cmd_tools with the games it was given.

Every game is read on every core (engine.archive.run) with a progress bar on stderr.  Nothing
is written unless every game verifies (and, with ``--finished``, is finished): the file is
written to a temporary file beside FILE and renamed over it only when whole, so a failure
leaves no file and no half of one.
"""

from __future__ import annotations

import os
import sys

import click

from engine.errors import UsageError

from .output import emit


def record_audit(ctx, named, path: str | None, chosen: str | None, other_output, force: bool,
                 jobs: int | None, as_json: bool, need_finished: bool) -> None:
    """``devil audit PATH|GAME... --record FILE [--record-format F]``: the options checked
    before any work (UsageError, exit 2: a missing FILE, another output asked for, a FILE that
    exists or cannot be written, an unknown format), then ``named()`` (the games the command
    names: client.cmd_tools.sources_of, which refuses a missing one) and
    :func:`write_record`."""
    if path is None:
        raise UsageError("--record-format says how to write --record FILE: give --record too")
    if other_output:
        raise UsageError("--record writes its own file: leave out --csv, --chart and --html "
                         "(run the audit again for them)")
    fmt = record_format(path, chosen)
    check_target(path, force)
    items = named()
    write_record(ctx, items, path, fmt, force, jobs, as_json, need_finished)


def record_format(path: str, chosen: str | None) -> str:
    """``"csv"`` or ``"json"``: ``chosen`` (``--record-format``), else FILE's extension;
    UsageError (exit 2) for any other."""
    if chosen is not None:
        return chosen.lower()
    ext = path.rsplit(".", 1)[-1].lower() if "." in os.path.basename(path) else ""
    if ext not in ("csv", "json"):
        raise UsageError(f"--record writes .csv or .json, not {path!r}: name the file "
                         "record.csv or record.json, or give --record-format csv|json")
    return ext


def check_target(path: str, force: bool) -> None:
    """Refuse, before any work, a FILE that exists (without ``--force``), is a folder, or
    whose folder does not exist (UsageError, exit 2)."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise UsageError(f"--record {path} is a folder: name a file in it "
                         f"(e.g. {os.path.join(path, 'record.csv')})")
    if not os.path.isdir(folder):
        raise UsageError(f"cannot write the record to {path}: the folder {folder} does not "
                         "exist")
    if os.path.exists(path) and not force:
        raise UsageError(f"{path} exists already; give a new file name or --force")


def write_whole(path: str, text: str, force: bool) -> None:
    """``text`` (UTF-8) to ``path``, all or nothing: a temporary file in the same folder,
    fsynced, then linked to ``path`` (refused if it appeared meanwhile, unless ``force``:
    then renamed over it).  UsageError if the file cannot be written; no temporary file is
    left behind."""
    import tempfile

    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.",
                                    suffix=".tmp")
    except OSError as exc:
        raise UsageError(f"cannot write the record to {path}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if force:
            os.replace(temp, path)
        else:
            os.link(temp, path)  # fails if the name exists: nothing is overwritten
    except FileExistsError:
        raise UsageError(f"{path} exists already; give a new file name or --force") from None
    except OSError as exc:
        raise UsageError(f"cannot write the record to {path}: {exc.strerror}") from None
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def write_record(ctx, sources: list, path: str, fmt: str, force: bool, jobs: int | None,
                 as_json: bool, need_finished: bool) -> None:
    """The record of ``sources`` (client.cmd_tools.Source: files, or games of the local
    store) written to ``path`` as ``fmt``; one line (or JSON line with ``--json``) saying
    what was written.  RecordRefused (exit 3) when a game does not verify or, with
    ``need_finished``, is not finished: then nothing is written."""
    from engine.archive import DAMAGED, IN_PROGRESS, run
    from engine.log import now_ms
    from engine.record import RecordRefused, csv_text, document, json_text, record_row

    paths = [source.path for source in sources if source.path is not None]
    with click.progressbar(length=len(sources), label=f"recording {len(sources)} games",
                           file=sys.stderr) as bar:
        found = iter(run(record_row, paths, jobs, on_row=lambda row: bar.update(1)))
        rows = []
        for source in sources:  # games in the store are read through it, in this process
            row = next(found) if source.path is not None else record_row(source.label,
                                                                         source.data)
            if source.path is None:
                bar.update(1)
            if source.damage and row["status"] != DAMAGED:
                row.update(status=DAMAGED, reason="bytes at the end of its log could not be "
                           "read as records and are not acknowledged (`devil aside`)",
                           first_bad_seq=None)
            rows.append(row)
    bad = [row for row in rows if row["status"] == DAMAGED]
    if bad:
        row = bad[0]
        where = f"record {row['first_bad_seq']}: " if row.get("first_bad_seq") is not None \
            else ""
        more = f" (and {len(bad) - 1} more damaged)" if len(bad) > 1 else ""
        raise RecordRefused(f"no record written: {row['path']} does not verify: {where}"
                            f"{row['reason']}{more}; `devil verify {row['path']}` says more")
    open_games = [row for row in rows if row["status"] == IN_PROGRESS]
    if need_finished and open_games:
        more = f" (and {len(open_games) - 1} more)" if len(open_games) > 1 else ""
        raise RecordRefused(f"no record written: {open_games[0]['path']} is in progress, and "
                            f"--finished records only finished games{more}")
    doc = document([row["record"] for row in rows], now_ms())
    write_whole(path, csv_text(doc) if fmt == "csv" else json_text(doc), force)
    finished = len(rows) - len(open_games)
    if as_json:
        emit({"record": path, "format": fmt, "games": len(rows), "finished": finished,
              "in_progress": len(open_games), "ok": True})
    else:
        click.echo(f"wrote {path}: the record of {len(rows)} game(s) as {fmt.upper()} "
                   f"({finished} finished, {len(open_games)} in progress)")
