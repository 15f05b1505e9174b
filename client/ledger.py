"""The archive's ledger as ``devil audit`` writes and prints it (engine.ledger adds it up):
the CSV streamed to a temporary file beside FILE and renamed into place at the end, the JSON
rows, and the totals as text (each kind's words from its audit renderer's ``totals_text``,
client.games.<kind>.audit; else the totals' own names)."""

from __future__ import annotations

import csv
import os

import click

from engine.errors import UsageError


class LedgerCsv:
    """The ledger CSV being written: rows go to a hidden temporary file beside ``path``;
    :meth:`commit` renames it to ``path`` (refusing, unless ``force``, a file that appeared
    meanwhile), :meth:`discard` removes it, so ``path`` is never half written."""

    def __init__(self, path: str, force: bool) -> None:
        from engine.ledger import COLUMNS

        self.path, self.force = path, force
        folder, name = os.path.split(os.path.abspath(path))
        self.temp = os.path.join(folder, f".{name}.{os.getpid()}.part")
        try:
            self.handle = open(self.temp, "x", newline="", encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {path}: {exc.strerror}") from None
        self.writer = csv.writer(self.handle, lineterminator="\n")
        self.writer.writerow(COLUMNS)

    def write(self, records) -> None:
        self.writer.writerows(records)

    def commit(self) -> None:
        self.handle.close()
        try:
            if self.force:
                os.replace(self.temp, self.path)
            else:
                os.link(self.temp, self.path)  # fails if the name was taken meanwhile
                os.unlink(self.temp)
        except FileExistsError:
            self.discard()
            raise UsageError(f"{self.path} exists already; give a new file name or --force"
                             ) from None

    def discard(self) -> None:
        self.handle.close()
        try:
            os.unlink(self.temp)
        except FileNotFoundError:
            pass


class LedgerSink:
    """What the audit of many games hands each row to, in path order: the row's transfers and
    totals are written to the CSV (if any) and added to ``ledger`` (engine.ledger
    .ArchiveLedger); for JSON the transfers become objects, else they are dropped."""

    def __init__(self, ledger, csv_file: LedgerCsv | None, as_json: bool = False) -> None:
        #: quiet: the rows are printed as JSON (no "wrote" line, the transfers as objects)
        self.ledger, self.csv, self.quiet = ledger, csv_file, as_json

    def row(self, row: dict) -> None:
        from engine.ledger import transfer_maps, transfer_records

        tournament = self.ledger.tournament(row)
        if tournament is not None:
            row["tournament"] = tournament
        if self.csv is not None:
            self.csv.write(transfer_records(row, tournament))
            self.csv.write(self.ledger.game_records(row))
        self.ledger.add(row)
        if self.quiet and "transfers" in row:  # printed as JSON
            row["transfers"] = transfer_maps(row)

    def finish(self) -> None:
        """Write the totals rows and put the CSV in place."""
        if self.csv is not None:
            self.csv.write(self.ledger.total_records())
            self.csv.commit()
            if not self.quiet:
                games = sum(part.all.games for part in self.ledger.kinds.values())
                click.echo(f"wrote {self.csv.path}: the ledger of {games} game(s) as CSV",
                           err=True)

    def discard(self) -> None:
        if self.csv is not None:
            self.csv.discard()


def archive_sink(sources, top: int, csv_path: str | None, force: bool, as_json: bool
                 ) -> LedgerSink:
    """The sink of ``devil audit PATH...``: an archive's ledger (engine.ledger), the games of
    every tournament bundle among ``sources`` grouped, and the CSV at ``csv_path`` (if
    given)."""
    from engine.ledger import ArchiveLedger, tournaments_of

    ledger = ArchiveLedger(top, *tournaments_of(sources))
    return LedgerSink(ledger, LedgerCsv(csv_path, force) if csv_path else None, as_json)


def write_one(csv_path: str, force: bool, top: int, label: str, log, result,
              as_json: bool) -> None:
    """The ledger CSV of one audited game (``result``, of ``log``): the same rows as an
    archive's.  UsageError if the kind's audit gives no totals."""
    from engine.ledger import ArchiveLedger

    if not hasattr(result, "totals"):
        raise UsageError(f"the audit of {log.rules.title} games gives no ledger to write")
    sink = LedgerSink(ArchiveLedger(top), LedgerCsv(csv_path, force), as_json)
    sink.row({"path": label, "kind": log.rules.kind, "game": log.header.game,
              "status": "finished" if result.finished else "in progress", **result.totals(),
              "transfers": result.transfer_rows()})
    sink.finish()


def ledger_text(ledger) -> list[str]:
    """The ledger's totals as lines of text, per kind (its renderer's ``totals_text(block,
    names)`` if it has one), then a warning for any game counted twice."""
    from .games import audit_renderer

    lines: list[str] = []
    for kind, block in ledger.to_json().items():
        render = audit_renderer(kind)
        words = getattr(render, "totals_text", None)
        lines += (words(block) if words is not None else _plain(kind, block)).splitlines()
    if ledger.repeated:
        shown = ", ".join(sorted(set(ledger.repeated))[:5])
        lines.append(f"warning: {len(ledger.repeated)} game(s) were given twice and are "
                     f"counted each time ({shown})")
    return lines


def _plain(kind: str, block: dict) -> str:
    def pairs(values: dict) -> str:
        return ", ".join(f"{name} {value}" for name, value in values.items())

    lines = [f"Ledger of {block['games']} {kind} games: {pairs(block['totals'])}"]
    lines += [f"  {name}: {pairs(values)}" for name, values in block["players"].items()]
    for tid, group in block["tournaments"].items():
        lines.append(f"Tournament {tid} ({group['name']}): {group['games']} games: "
                     f"{pairs(group['totals'])}")
    top = block["top"]
    if top["games"]:
        lines.append(f"Top {len(top['games'])} by {top['total']} ({top['order']} first):")
        lines += [f"  {g['rank']}. {g['value']}  {g['game']}  {g['path']}" for g in top["games"]]
    return "\n".join(lines)
