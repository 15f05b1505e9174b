"""The submit path every game command shares: a command map given as a seat (``--as``, or a
seat's token), its answer printed (one line per event and a hint, or the answer as JSON:
engine.answers) and its receipt kept; a new game's id and first events printed."""

from __future__ import annotations

import click

from engine.errors import IllegalCommand, UsageError

from .context import Context, token_seat
from .output import emit, renderer_for


def print_created(obj: Context, created: dict, as_json: bool, show_deal: bool = False) -> None:
    """Print a new game's id (stdout) and its first events (stderr), or JSON.

    The first events are printed as the whole table may see them (a spectator's view:
    locally the PUBLIC stream, over ``--server`` the spectator token the service just
    handed out), so whoever creates a game never sees its deal by accident.  ``show_deal``
    (the referee asked, ``--show-deal``) prints them as the referee sees them instead (every
    society, profession and item) and, with ``as_json``, adds them to the JSON as ``events``
    (tagged event maps with their ``seq``)."""
    from .receipts import keep

    keep(created.get("receipt"), obj.server or obj.store_dir)
    client = obj.client
    if as_json:
        if show_deal:
            created = {**created, "events": [{"seq": entry["seq"], **entry["event"]}
                                             for entry in client.events(created["game"], None)]}
        emit(created)
        return
    click.echo(created["game"])
    render = renderer_for(created["kind"])
    entries = (client.events(created["game"], None) if show_deal
               else client.public_events(created["game"]))
    for entry in entries:
        click.echo("  " + render.describe_map(entry["event"], created["players"]), err=True)
    for seat, token in (created.get("tokens") or {}).items():
        click.echo(f"  token for {seat}: {token}", err=True)


def submit_command(obj: Context, game: str, command: dict, as_name: str | None, command_id,
                   as_json: bool) -> None:
    """Submit ``command`` (a tagged map) to ``game`` as ``as_name`` and print what it caused
    (one line per event and a hint, or the client's answer as JSON).  Raises click.UsageError
    when no player is named, UsageError when ``--as`` and the command's player differ; the
    engine's errors (IllegalCommand, NotAllowed, ...) pass through."""
    if as_name is None and "player" not in command:
        as_name = token_seat(obj, obj.client.resolve(game))
        if as_name is None and command.get("type") in ("correct", "ruling", "amend"):
            pass  # the referee's desk: given by the referee, for no player (client.cmd_desk)
        elif as_name is None:
            raise click.UsageError("--as NAME is required (with --server, a seat's token "
                                   "stands for its seat; the referee names the player)")
    client = obj.client
    game = client.resolve(game)
    if as_name is not None or isinstance(command.get("player"), str):
        # `--as anna` for Anna: the name as the game spells it (engine.seats); a name that
        # matches nobody is left for the rules to refuse, citing their rule
        from engine.seats import player_named

        names = client.players(game)
        if as_name is not None:
            as_name = player_named(names, as_name)
        if isinstance(command.get("player"), str):
            command = {**command, "player": player_named(names, command["player"])}
    if as_name is not None and command.get("player", as_name) != as_name:
        raise UsageError(f"--as {as_name} does not match the command's player "
                         f"{command['player']!r}")
    try:
        result = client.submit(game, command, as_name, command_id)
    except IllegalCommand as exc:
        # a seat's first command in a game with seat entropy carries its value: give it, then
        # the command again (still refused, SEAT-1, while other seats are waiting)
        from .seating import sit_first

        if exc.rule != "SEAT-1" or not sit_first(obj, game, as_name or command.get("player"),
                                                 as_json):
            raise
        result = client.submit(game, command, as_name, command_id)
    print_answer(obj, game, result, command_id, as_json)


def print_answer(obj: Context, game: str, result: dict, command_id, as_json: bool) -> None:
    """Keep the receipt of a submitted command's answer (client.receipts) and print the answer:
    one line per event and a hint, or the answer as JSON.  ``game``: the resolved id."""
    from .receipts import keep

    client = obj.client
    keep(result.get("receipt"), obj.server or obj.store_dir)
    if as_json:
        emit(result)
        return
    # the answer carries the game's kind and players (engine.answers.submit_answer): nothing
    # more is asked of the store to print it
    names = result.get("players") or client.players(game)
    render = renderer_for(result.get("kind") or client.kind(game))
    if result["repeated"]:
        click.echo(f"(command {command_id} was already applied; nothing new recorded)"
                   if command_id is not None else "(already recorded; nothing new recorded)")
    for event in result["events"]:
        click.echo(f"#{event['seq']:<4} {render.describe_map(event, names)}")
    hint = render.next_hint(result["view"])
    if hint:
        click.echo(hint)
