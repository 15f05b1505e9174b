"""``devil tournament pairings | slips | publish`` and the ``--after`` / ``--explain`` of
``devil tournament standings``: what organisers print and watch (issue 22.9; docs/tournaments.md,
"What organisers print and watch").  Registered on the ``tournament`` group by
client.cmd_tournament (:func:`register`).  The engine (engine.tournament.printing) makes every
output; this module picks local store or service and writes files."""

from __future__ import annotations

from urllib.parse import quote

import click

from .files import write_new
from .options import json_option
from .output import emit


class RemotePrinter:
    """engine.tournament.printing.Printer over HTTP (engine/web/tournament_print.py):
    ``client`` a client.remote.RemoteClient whose token is the organiser key."""

    def __init__(self, client):
        self.client = client

    def _get(self, path: str, **params):
        return self.client._json("GET", path, params=params)

    def pairings(self, tournament: str, round_: int | None = None) -> dict:
        return self._get(f"/tournaments/{quote(tournament)}/pairings", round=round_)

    def standings(self, tournament: str, upto: int | None = None) -> dict:
        t = quote(tournament)
        if upto is not None:
            return self._get(f"/tournaments/{t}/standings/after/{int(upto)}")
        data = self._get(f"/tournaments/{t}/standings")
        data.setdefault("history", self._get(f"/tournaments/{t}/history")["history"])
        data.setdefault("after", None)
        return data

    def explain(self, tournament: str, upto: int | None = None) -> dict:
        return self._get(f"/tournaments/{quote(tournament)}/explain", after=upto)

    def slips_html(self, tournament: str, round_: int | None = None) -> str:
        return self.client._request("GET", f"/tournaments/{quote(tournament)}/slips.html",
                                    params={"round": round_}).text

    def publish(self, tournament: str, public: bool) -> list:
        return self.client._json("POST", f"/tournaments/{quote(tournament)}/publish",
                                 body={"public": public})["events"]


#: what client.cmd_tournament gives :func:`register`: ``organiser(obj)`` (the local or remote
#: organiser) and ``maps(organiser, tid, events)`` (events as maps); given, not imported, so
#: the two modules import in one direction only
_FROM_GROUP: dict = {}


def _printer(obj):
    """``(organiser, printer)``: the local store's, or with --server the service's."""
    organiser = _FROM_GROUP["organiser"](obj)
    if getattr(organiser, "remote", False):
        return organiser, RemotePrinter(obj.client)
    from engine.tournament.printing import Printer

    return organiser, Printer(organiser.service)


def standings_data(obj, tournament_id: str, after: int | None) -> dict:
    """The standings map (with ``history`` and ``after``) for `standings [--after N]`."""
    organiser, printer = _printer(obj)
    return printer.standings(organiser.resolve(tournament_id), after)


def explain(obj, tournament_id: str, after: int | None, as_json: bool) -> None:
    """`standings --explain`: each tiebreak's inputs per player, text or JSON."""
    from engine.tournament.printing import explain_text

    organiser, printer = _printer(obj)
    data = printer.explain(organiser.resolve(tournament_id), after)
    if as_json:
        emit(data)
        return
    click.echo(explain_text(data), nl=False)


def history_text(data: dict) -> None:
    """The history under a text output (nothing when there is none)."""
    from engine.tournament.history import text_lines

    if data.get("history"):
        click.echo("history:")
        for line in text_lines(data["history"]):
            click.echo(f"  {line}")


def register(group: click.Group, organiser, maps) -> None:
    """Add this module's commands to ``group`` (the ``tournament`` group); ``organiser(obj)``
    and ``maps(organiser, tid, events)``: client.cmd_tournament's helpers of those names."""
    _FROM_GROUP.update(organiser=organiser, maps=maps)
    group.add_command(pairings)
    group.add_command(slips)
    group.add_command(publish)


@click.command("pairings")
@click.argument("tournament_id", metavar="T")
@click.option("--round", "round_", type=click.IntRange(1, 50), metavar="N",
              help="The round (default: the last paired).")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write a printable page (one file, print styles: A4, no links).")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write round,table,seat,player,first,game (one row a seat; byes last).")
@click.option("--force", is_flag=True, help="Overwrite an existing --html or --csv file.")
@json_option
@click.pass_obj
def pairings(obj, tournament_id, round_, html_path, csv_path, force, as_json):
    """A round's pairings: each table's players in seat order, the start player (*), the
    table's game, the byes, and the history (late entries, drops, penalties, ...).

    \b
      devil tournament pairings T                  the last paired round, as text
      devil tournament pairings T --round 2 --html r2.html   a page to print and pin up
      devil tournament pairings T --csv r2.csv     for a spreadsheet
    Served: /tournaments/T/pairings.html (updates live)."""
    from engine.tournament.printing import pairings_csv, pairings_html, pairings_text

    organiser, printer = _printer(obj)
    data = printer.pairings(organiser.resolve(tournament_id), round_)
    if html_path:
        write_new(html_path, pairings_html(data), force)
        if not as_json:
            click.echo(f"wrote {html_path}: round {data['round']}'s pairings page", err=True)
    if csv_path:
        write_new(csv_path, pairings_csv(data), force)
        if not as_json:
            click.echo(f"wrote {csv_path}: round {data['round']}'s pairings as CSV", err=True)
    if as_json:
        emit(data)
        return
    click.echo(pairings_text(data), nl=False)
    history_text(data)


@click.command("slips")
@click.argument("tournament_id", metavar="T")
@click.option("--round", "round_", type=click.IntRange(1, 50), metavar="N",
              help="The round (default: the last paired).")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), metavar="OUT",
              required=True, help="The file to write (one slip a page when printed).")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
@json_option
@click.pass_obj
def slips(obj, tournament_id, round_, html_path, force, as_json):
    """Table slips to print: one a table (a page each), with the tournament, round, table,
    game id, the players in seat order with the start player marked, and a line per player
    for place, money or score, and signature.

    \b
      devil tournament slips T --html slips.html   then print it (one page per table)"""
    from engine.tournament.printing import slips_html

    organiser, printer = _printer(obj)
    tid = organiser.resolve(tournament_id)
    if isinstance(printer, RemotePrinter):
        text = printer.slips_html(tid, round_)
        data = printer.pairings(tid, round_)
    else:
        data = printer.pairings(tid, round_)
        text = slips_html(data, printer.measure(tid))
    write_new(html_path, text, force)
    if as_json:
        emit({"tournament": tid, "round": data["round"], "slips": len(data["tables"]),
              "file": html_path})
        return
    click.echo(f"wrote {html_path}: {len(data['tables'])} slips for round {data['round']}")


@click.command("publish")
@click.argument("tournament_id", metavar="T")
@click.option("--off", is_flag=True, help="Close the link again (the pages stop serving games).")
@json_option
@click.pass_obj
def publish(obj, tournament_id, off, as_json):
    """Open the tournament's public spectator link (TOUR-12.1): anyone may then follow every
    table's game at /tournaments/T/watch, as a spectator token would show it (public facts
    only: no hidden card, no sealed bet), and the served standings and pairings pages link each
    table there.  A tournament is not public until its organiser says so; --off closes it.
    Recorded in the stream."""
    organiser, printer = _printer(obj)
    tid = organiser.resolve(tournament_id)
    events = _FROM_GROUP["maps"](organiser, tid, printer.publish(tid, not off))
    if as_json:
        emit({"tournament": tid, "events": events})
        return
    click.echo(f"{tid}: the spectator link is {'closed' if off else 'open'}"
               + ("" if off else f" (/tournaments/{tid}/watch on the service)"))
