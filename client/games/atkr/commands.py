"""Auf Teufel komm raus commands: ``devil new atkr``, ``bet``, ``draw``, ``stop``.

Each builds the JSON command object ``devil submit`` accepts (docs/commands.md) and submits it
through client.submit.submit_command; no rules here.
"""

from __future__ import annotations

import click

from engine.games import players_text

from ...options import (id_option, json_option, reporter_name, reporter_option,
                        seat_entropy_option)
from ...clocks import clock_options
from ...submit import print_created, submit_command
from .. import described


@click.command("atkr")
@click.option("--player", "players", multiple=True, required=True, metavar="NAME",
              help=f"A player, {players_text('atkr')} in seat order (repeat the option).")
@click.option("--first", metavar="NAME", help="Start player of round 1 (default: drawn).")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), help="Fix the digital furnace's "
              "seed, for tests and demos: the game is reproducible, and so predictable to anyone "
              "who guesses the seed. Leave it out for real play (a secret 64-bit seed).")
@click.option("--physical", is_flag=True, help="Played with the box: the referee reports "
              "each coal with `draw --coal`.")
@click.option("--ring", type=int, help="Ring capacity of the furnace (house rule, default 16).")
@click.option("--track", metavar="LABELS", help="Money track labels (house rule, default "
              "0-50,200,300,500,700,1000,1300,1600).")
@seat_entropy_option
@clock_options
@json_option
@click.pass_obj
@described("atkr")
def new_atkr(obj, players, first, seed, physical, ring, track, as_json):
    """A new {title} game.

    \b
    Examples:
      devil new atkr --player Gordon --player Pella --player Lucy --player Saul --first Gordon
      devil new atkr --player Gordon --player Pella --clock 20m+10s --move-time 2m
        (a Fischer clock per seat; on a timeout the seat bets 0 or stops: ATKR-H2)
    """
    options = {"players": list(players), "first": first, "physical": physical}
    if ring is not None:
        options["ring"] = ring
    if track is not None:
        options["track"] = track
    print_created(obj, obj.client.create("atkr", options, seed), as_json)


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("game")
@click.argument("amount", type=int)
@click.option("--as", "as_name", metavar="NAME", help="The player betting (with --server "
              "and a seat's token: that seat).")
@id_option
@json_option
@click.pass_obj
@described("atkr")
def bet(obj, game, amount, as_name, command_id, as_json):
    """Place a secret bet ({title}, phase 1).

    AMOUNT is a multiple of 10 from 0 to all of the player's money.  Nobody sees a bet until
    every player with money has bet (ATKR-3.2).

    \b
    Example:
      devil bet k3f9qz 60 --as Anna
    """
    submit_command(obj, game, {"type": "bet", "amount": amount}, as_name, command_id, as_json)


COAL_CHOICES = ["10", "20", "25", "50", "75", "100", "devil"]


@click.command()
@click.argument("game")
@click.option("--as", "as_name", metavar="NAME", help="The player drawing (with --server "
              "and a seat's token: that seat).")
@click.option("--coal", type=click.Choice(COAL_CHOICES, case_sensitive=False),
              help="Physical games only: the coal the player drew from the box (devil in any "
              "case).")
@reporter_option
@id_option
@json_option
@click.pass_obj
@described("atkr")
def draw(obj, game, as_name, coal, reporter, command_id, as_json):
    """Draw a coal from the furnace ({title}, phase 2).

    In a digital game the furnace draws; in a physical game give the coal drawn with --coal,
    and who reported it with --reporter (or env DEVIL_REFEREE): the event records the name,
    and `devil log`, `replay` and `verify` show it (ATKR-9.3; refused in a digital game).

    \b
    Examples:
      devil draw k3f9qz --as Anna
      devil draw k3f9qz --as Anna --coal devil      (a physical game)
      devil draw k3f9qz --as Anna --coal 25 --reporter Rita
      DEVIL_REFEREE=Rita devil draw k3f9qz --as Ben --coal 10
    """
    command: dict = {"type": "draw"}
    if coal is not None:
        command["coal"] = 0 if coal.lower() == "devil" else int(coal)
    # the environment's referee reports a physical draw only (one with --coal)
    reporter = reporter_name(reporter, reported=coal is not None)
    if reporter is not None:
        command["reporter"] = reporter
    submit_command(obj, game, command, as_name, command_id, as_json)


@click.command()
@click.argument("game")
@click.option("--as", "as_name", metavar="NAME", help="The player stopping (with --server "
              "and a seat's token: that seat).")
@id_option
@json_option
@click.pass_obj
@described("atkr")
def stop(obj, game, as_name, command_id, as_json):
    """Stop drawing and lay out your coals ({title}, phase 2).

    At least one coal must be drawn first (ATKR-4.2).  The last stop of a round settles the
    bets, prizes, pawns and pacts at once.

    \b
    Example:
      devil stop k3f9qz --as Anna
    """
    submit_command(obj, game, {"type": "stop"}, as_name, command_id, as_json)
