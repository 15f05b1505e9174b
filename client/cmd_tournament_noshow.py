"""``devil tournament checkin|forfeit|swap|unpair``: no-shows and the organiser's overrides
(TOUR-7; docs/tournaments.md, "No-shows, forfeits and overrides").  Registered onto the
``tournament`` group by :func:`register`.  No rules here: engine.tournament.noshow decides,
engine.tournament.noshow_ops reads the tables' games; with ``--server`` the same operation
goes to the service (``POST /tournaments/{t}/commands``)."""

from __future__ import annotations

import click

from .options import json_option
from .output import emit


def _do(obj, tournament_id: str, body: dict) -> dict:
    """Run one operation locally or on the server; the answer (events as maps)."""
    if obj.server:
        from .tournament_remote import RemoteOrganiser

        remote = RemoteOrganiser(obj.client)
        tid = remote.resolve(tournament_id)
        return remote._command(tid, body)
    from engine.tournament.noshow_ops import run
    from engine.tournament.organiser import Organiser

    organiser = Organiser(obj.client.service)
    tid = organiser.resolve(tournament_id)
    return run(organiser, tid, body["type"], body)


reason_option = click.option("--reason", required=True, metavar="TEXT",
                             help="Why (recorded with the event; required).")


@click.command("checkin")
@click.argument("tournament_id", metavar="T")
@click.argument("player")
@json_option
@click.pass_obj
def checkin(obj, tournament_id, player, as_json):
    """Check PLAYER in for the next round to be paired (TOUR-7.1).

    Only in a tournament created with `new --check-in`: then `pair` seats only the players
    checked in for that round; the others are not paired and score nothing that round (no
    bye). A check-in counts for one round: check everyone in again before each round.

    \b
    Example:
      devil tournament checkin T Anna
    """
    answer = _do(obj, tournament_id, {"type": "checkin", "player": player})
    if as_json:
        emit(answer)
        return
    event = answer["events"][0]
    click.echo(f"{event['player']} checked in for round {event['round']}")


@click.command("forfeit")
@click.argument("tournament_id", metavar="T")
@click.argument("player")
@reason_option
@click.option("--bot", metavar="KIND", help="The bot that plays the seat if the game has begun "
              "(default: the game's sensible, else cautious, else random bot).")
@json_option
@click.pass_obj
def forfeit(obj, tournament_id, player, reason, bot, as_json):
    """PLAYER gives up their seat in the open round (a no-show, or leaving mid-game).

    If the table's game has no command yet and the game seats one player fewer, the table is
    made again without PLAYER: a new game is created and attached (TOUR-7.2; the old game
    stays in the store, attached to nothing). Otherwise a bot plays PLAYER's seat from now
    on, recorded in the game's log as the referee's act (TOUR-7.3, DESK-7), and the round
    closes once the game ends. Either way PLAYER takes the points of the last place of the
    table as paired, the others are placed among themselves, and PLAYER is dropped from the
    later rounds.

    \b
    Examples:
      devil tournament forfeit T Ben --reason "did not turn up"
      devil tournament forfeit T Ben --reason "left the hall" --bot random
    """
    body = {"type": "forfeit", "player": player, "reason": reason}
    if bot is not None:
        body["bot"] = bot
    answer = _do(obj, tournament_id, body)
    if as_json:
        emit(answer)
        return
    where = f"table {answer['table']} of round {answer['round']}"
    if answer["remade"]:
        made = f"; new game {answer['game']}" if answer["game"] else \
            "; attach the referee's log for it"
        click.echo(f"{player} forfeits at {where}: the table is made again as "
                   f"{', '.join(answer['players'])}{made}")
    else:
        click.echo(f"{player} forfeits at {where}: the bot {answer['bot']!r} plays the seat "
                   f"in {answer['game']}")
    for game, tokens in (answer.get("tokens") or {}).items():
        for who, token in tokens.items():
            click.echo(f"  {game} token for {who}: {token}")
    click.echo(f"  {player} takes the last place's points and is not paired again")


@click.command("swap")
@click.argument("tournament_id", metavar="T")
@click.argument("first")
@click.argument("second")
@reason_option
@json_option
@click.pass_obj
def swap(obj, tournament_id, first, second, reason, as_json):
    """Swap FIRST's and SECOND's seats in the open round (TOUR-7.4).

    Only before either table's game has a command. Each seat keeps its place (the start
    player's seat stays the start); the tables' games are made again for their new players
    (the old ones stay in the store, attached to nothing).

    \b
    Example:
      devil tournament swap T Anna Ben --reason "same club at table 3"
    """
    answer = _do(obj, tournament_id, {"type": "swap", "first": first, "second": second,
                                      "reason": reason})
    if as_json:
        emit(answer)
        return
    click.echo(f"round {answer['round']}: {first} and {second} swapped")
    for row in answer["tables"]:
        seats = "  ".join(f"{p}*" if p == row["first"] else p for p in row["players"])
        game = f"   {row['game']}" if row["game"] else ""
        click.echo(f"  table {row['table']:<3} {seats}{game}")


@click.command("unpair")
@click.argument("tournament_id", metavar="T")
@reason_option
@json_option
@click.pass_obj
def unpair(obj, tournament_id, reason, as_json):
    """Undo the open round's pairing (TOUR-7.5), to pair it again with `pair`.

    Only before any of the round's games has a command, and with no result or forfeit in it.
    The round's games stay in the store, attached to nothing; check-ins for the round stand.

    \b
    Example:
      devil tournament drop T Carl --reason "went home"
      devil tournament unpair T --reason "paired before Carl's drop"
      devil tournament pair T
    """
    answer = _do(obj, tournament_id, {"type": "unpair", "reason": reason})
    if as_json:
        emit(answer)
        return
    games = f"; {len(answer['games'])} game(s) detached" if answer["games"] else ""
    click.echo(f"round {answer['round']} unpaired{games}: pair it again with `devil tournament "
               "pair`")


def register(group) -> None:
    """Add the commands to the ``tournament`` click group."""
    for command in (checkin, forfeit, swap, unpair):
        group.add_command(command)
