"""``devil sit``: a seat gives its random value to a game with seat entropy (engine.entropy,
client.seating).  Loaded by client.cli when named."""

from __future__ import annotations

import click

from .context import token_seat
from .options import json_option
from .submit import submit_command


@click.command()
@click.argument("game")
@click.option("--as", "as_name", metavar="NAME",
              help="The seat sitting down (with --server and a seat's token: that seat).")
@click.option("--all", "every", is_flag=True,
              help="Every seat still waiting (the local console only: over HTTP each seat sits "
                   "with its own token).")
@json_option
@click.pass_obj
def sit(obj, game, as_name, every, as_json):
    """Give a seat's entropy to a game with seat entropy (every digital game on `devil serve`;
    locally `devil new --seat-entropy`, which sits every seat of the console at once).

    The game's draws come from the server's committed seed mixed with one random value from
    every seat, so neither the server nor any seat can choose them.  This makes the seat's
    value (32 random bytes), keeps it in the client's config folder until the game reveals it,
    and sends it; only its commitment (a SHA-256) is recorded until the end.  The game starts
    (the deal, the start player) when the last seat is in.  Sitting again with the same value
    records nothing (SEAT-2: one value per seat).

    \b
    Examples:
      devil --server http://127.0.0.1:8350 --token SEAT-TOKEN sit k3f9qz
      DEVIL_SERVER=http://127.0.0.1:8350 DEVIL_TOKEN=SEAT-TOKEN devil sit k3f9qz
    """
    from engine.errors import UsageError

    from .seating import value_for

    client = obj.client
    game = client.resolve(game)
    if every:
        names = client.view(game, None).get("waiting_for")
        if names is None:
            raise UsageError(f"{game} is not waiting for any seat's entropy")
    else:
        if as_name is None:
            as_name = token_seat(obj, game)
        if as_name is None:
            raise click.UsageError("--as NAME is required (with --server, a seat's token stands "
                                   "for its seat)")
        names = [as_name]
    for name in names:
        submit_command(obj, game, {"type": "seat_entropy", "value": value_for(game, name)},
                       name, None, as_json)
