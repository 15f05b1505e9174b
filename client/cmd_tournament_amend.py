"""``devil tournament adjudicate`` and ``devil tournament amend``: a table ended at time and a
result read again after the referee's desk corrected its game (docs/tournaments.md, "Time
limits and amended results"; TOUR-8, TOUR-9).  :data:`COMMANDS` are added to the
``tournament`` group by client.cmd_tournament; the engine (engine.tournament.adjudicate)
decides, this module parses and prints."""

from __future__ import annotations

import click

from .options import json_option
from .output import emit


def _points(text: str) -> str:
    from engine.tournament.standings import fraction, show

    return show(fraction(text))


def _result_lines(r: dict) -> None:
    measure = [k for k in r if k not in ("players", "places", "points", "winners")][0]
    for seat in sorted(range(len(r["players"])), key=lambda s: (r["places"][s], s)):
        click.echo(f"  {r['places'][seat]}. {r['players'][seat]:<16} {measure} "
                   f"{r[measure][seat]:>6}  points {_points(r['points'][seat])}")


def _remote(organiser, tid: str, body: dict) -> dict:
    return organiser._command(tid, body)  # POST /tournaments/{t}/commands


def _organiser(obj):
    """The organiser: the local store's, or with --server the service's (the token is the
    organiser key), as client.cmd_tournament's (which imports this module)."""
    if obj.server:
        from .tournament_remote import RemoteOrganiser

        return RemoteOrganiser(obj.client)
    from engine.tournament.organiser import Organiser

    return Organiser(obj.client.service)


@click.command("adjudicate")
@click.argument("tournament_id", metavar="T")
@click.argument("table", type=click.IntRange(1))
@click.option("--reason", required=True, metavar="TEXT", help="Why (recorded in the game's log "
              "and the tournament stream; required).")
@click.option("--force", is_flag=True, help="The referee's call before the round time ran out "
              "(or in a tournament without one): recorded as forced.")
@json_option
@click.pass_obj
def adjudicate(obj, tournament_id, table, reason, force, as_json):
    """End TABLE's game of the open round at time and record its result (TOUR-8).

    Allowed once the round time (`new --round-time MINUTES`, counted from the round's
    pairing) has run out; before, it is refused naming when it runs out (TOUR-8.1), unless
    --force (the referee's call, recorded as forced).  The referee's `adjudicated` record is
    appended to the game's log (DESK-8: nothing more is played), and the game's kind places
    the players by its house rule for a game ended at time (docs/house-rules.md: by money as
    it stood when the last round was settled, the round in progress abandoned; or a draw,
    every seat sharing the table's places' points).  The standings mark the table's
    players (`adjudicated r2`).

    \b
    Example:
      devil tournament adjudicate T 3 --reason "round time over"
      devil tournament adjudicate T 3 --force --reason "player taken ill; referee's call"
    """
    organiser = _organiser(obj)
    tid = organiser.resolve(tournament_id)
    if getattr(organiser, "remote", False):
        result = _remote(organiser, tid, {"type": "adjudicate", "table": table,
                                          "reason": reason, "force": force})
    else:
        from engine.tournament.adjudicate import adjudicate as run

        result = {"tournament": tid, **run(organiser, tid, table, reason, force=force)}
    if as_json:
        emit(result)
        return
    how = "as the referee's call" if result["forced"] else "at time"
    click.echo(f"table {result['table']} of round {result['round']} ({result['game']}) "
               f"adjudicated {how} by {result['rule']}")
    _result_lines(result["result"])


@click.command("amend")
@click.argument("tournament_id", metavar="T")
@click.argument("table", type=click.IntRange(1))
@click.option("--round", "round_", type=click.IntRange(1), metavar="N",
              help="The round of the table (default: the last paired).")
@click.option("--reason", required=True, metavar="TEXT", help="Why (recorded; required).")
@json_option
@click.pass_obj
def amend(obj, tournament_id, table, round_, reason, as_json):
    """Take TABLE's corrected result after its game was corrected or ruled on at the desk.

    The game's log must have a correction (`devil correct`, or `devil ruling --uphold --to`)
    after the record its result was read at (TOUR-9.2), verify and be finished again
    (TOUR-9.3).  The stream records `result_amended`: the old result stays, struck through,
    the new one counts for points and tiebreaks (TOUR-9.1); rounds paired meanwhile stand,
    and the standings say so (TOUR-9.4).  Once the tournament is finished nothing is amended
    (TOUR-5.3).

    \b
    Example:
      devil correct GAME --to 21 --reason "Cleo bet 600, not 200"
      (... the referee records the rest of the game again ...)
      devil tournament amend T 2 --round 1 --reason "Cleo's bet corrected at the desk"
    """
    organiser = _organiser(obj)
    tid = organiser.resolve(tournament_id)
    if getattr(organiser, "remote", False):
        body = {"type": "amend", "table": table, "reason": reason}
        if round_ is not None:
            body["round"] = round_
        result = _remote(organiser, tid, body)
    else:
        from engine.tournament.adjudicate import amend as run

        result = {"tournament": tid, **run(organiser, tid, table, reason, round_=round_)}
    if as_json:
        emit(result)
        return
    was = result["was"]
    click.echo(f"table {result['table']} of round {result['round']} ({result['game']}): result "
               f"amended ({result['reason']})")
    click.echo(f"  was (read at record {was['seq']}): places "
               + " ".join(map(str, was["places"])) + ", points "
               + " ".join(_points(p) for p in was["points"]))
    click.echo(f"  now (read at record {result['seq']}):")
    _result_lines(result["result"])
    if result["standing"]:
        rounds = ", ".join(str(r) for r in result["standing"])
        click.echo(f"  round(s) {rounds} were paired with the old result and stand (TOUR-9.4)")


#: the commands client.cmd_tournament adds to the ``tournament`` group
COMMANDS = (adjudicate, amend)
