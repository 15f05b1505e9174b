"""The ``devil`` command line (Click).  No game rules here: it builds command objects, hands them
to :class:`engine.service.GameService` and renders what comes back.

Exit codes: 0 done; 1 refused by the rules; 2 usage error (bad option, unknown game, malformed
command); 3 damaged log; 4 not allowed.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import sys

import click

from engine.errors import DevilError
from engine.game import REFEREE
from engine.service import CONSOLE, GameService
from engine.store import FileStore

from .render import renderer_for

DEFAULT_STORE = click.get_app_dir("devil")


class Context:
    """What every command shares: the store folder, the service, whether output is JSON."""

    def __init__(self, store: str):
        self.store_dir = store
        self.json = False
        self._service: GameService | None = None

    @property
    def service(self) -> GameService:
        if self._service is None:
            self._service = GameService(FileStore(self.store_dir))
        return self._service


class DevilGroup(click.Group):
    """A group that turns engine errors into a message on stderr and a meaningful exit code."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except DevilError as exc:
            _fail(ctx, exc.message, exc.exit_code, getattr(exc, "rule", None))
        except OSError as exc:
            _fail(ctx, f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), 2, None)


def _fail(ctx: click.Context, message: str, code: int, rule: str | None):
    obj = ctx.find_object(Context)
    if obj is not None and obj.json:
        click.echo(json.dumps({"ok": False, "error": message, "rule": rule, "exit": code}))
    click.echo(f"error: {message}", err=True)
    ctx.exit(code)


def json_option(f):
    def callback(ctx, param, value):
        if value:
            ctx.find_object(Context).json = True
        return value
    return click.option("--json", "as_json", is_flag=True, expose_value=True, callback=callback,
                        is_eager=True, help="Print JSON for scripts instead of text.")(f)


def emit(data) -> None:
    click.echo(json.dumps(data, indent=None, sort_keys=False))


@click.group(cls=DevilGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--store", envvar="DEVIL_STORE", default=DEFAULT_STORE, show_default=True,
              type=click.Path(file_okay=False), help="Folder of game logs (env DEVIL_STORE).")
@click.version_option(package_name="devil", prog_name="devil")
@click.pass_context
def cli(ctx: click.Context, store: str):
    """devil: play, record and check 'Auf Teufel komm raus' at the command line.

    Every bet, draw and payout is an event in a tamper-evident log (one .devlog file per game
    in the store folder).  Start a game, then give each player's commands:

    \b
      devil new atkr --player Anna --player Ben --seed 7
      devil bet GAME 60 --as Anna        (GAME: the id printed by `new`, or its end)
      devil draw GAME --as Ben
      devil show GAME --as Anna
      devil log GAME

    Exit codes: 0 done, 1 refused by the rules (the message names the rule), 2 usage error,
    3 damaged log, 4 not allowed.
    """
    ctx.obj = Context(store)


# -- new ---------------------------------------------------------------------------------------
@cli.group(cls=DevilGroup)
def new():
    """Create a game and print its id."""


@new.command("atkr")
@click.option("--player", "players", multiple=True, required=True, metavar="NAME",
              help="A player, 2 to 6 in seat order (repeat the option).")
@click.option("--first", metavar="NAME", help="Start player of round 1 (default: drawn).")
@click.option("--seed", type=click.IntRange(min=0), help="Fix the digital furnace's seed "
              "(reproducible games; the seed is still revealed only at the end).")
@click.option("--physical", is_flag=True, help="Played with the box: the referee reports "
              "each coal with `draw --coal`.")
@click.option("--ring", type=int, help="Ring capacity of the furnace (house rule, default 16).")
@click.option("--track", metavar="LABELS", help="Money track labels (house rule, default "
              "0-50,200,300,500,700,1000,1300,1600).")
@json_option
@click.pass_obj
def new_atkr(obj: Context, players, first, seed, physical, ring, track, as_json):
    """A new Auf Teufel komm raus game.

    \b
    Example:
      devil new atkr --player Gordon --player Pella --player Lucy --player Saul --first Gordon
    """
    options = {"players": list(players), "first": first, "physical": physical}
    if ring is not None:
        options["ring"] = ring
    if track is not None:
        options["track"] = track
    loaded = obj.service.create("atkr", options, seed=seed)
    _print_created(obj, loaded, as_json)


def _print_created(obj: Context, loaded, as_json: bool) -> None:
    names = loaded.rules.seats(loaded.state)
    if as_json:
        emit({"game": loaded.game, "kind": loaded.header.kind, "players": names,
              "path": obj.service.store.path(loaded.game),
              "view": obj.service.view(loaded.game, REFEREE)})
        return
    click.echo(loaded.game)
    render = renderer_for(loaded.header.kind)
    for event in loaded.events:
        click.echo("  " + render.describe(event, names), err=True)


# -- commands of a game ------------------------------------------------------------------------
def _submit(obj: Context, game: str, command: dict, as_name: str | None, command_id, as_json):
    service = obj.service
    game = service.resolve(game)
    loaded = service.load(game)
    rules = loaded.rules
    if as_name is not None:
        service.seat(game, as_name)  # a clear error for an unknown name
        command.setdefault("player", as_name)
    result = service.submit(game, command, actor=CONSOLE, command_id=command_id)
    loaded = service.load(game)
    names = rules.seats(loaded.state)
    viewer = names.index(as_name) if as_name in names else REFEREE
    shown = [(r, rules.redact(e, viewer) if viewer is not REFEREE else e)
             for r, e in zip(result.records, result.events)]
    if as_json:
        emit({"game": game, "repeated": result.repeated,
              "events": [{"seq": r.seq, **rules.events.to_map(e)} for r, e in shown],
              "view": service.view(game, viewer)})
        return
    render = renderer_for(loaded.header.kind)
    if result.repeated:
        click.echo(f"(command {command_id} was already applied; nothing new recorded)")
    for record, event in shown:
        click.echo(f"#{record.seq:<4} {render.describe(event, names)}")
    click.echo(_next_hint(service, game, render))


def _next_hint(service: GameService, game: str, render) -> str:
    view = service.view(game, REFEREE)
    if view["phase"] == "over":
        return "The game is over. `devil show " + game + "` for the final table."
    if view["phase"] == "bet":
        waiting = [p["name"] for p in view["players"] if not p["has_bet"]]
        return "Waiting for bets from: " + ", ".join(waiting)
    if view["phase"] == "draw":
        return f"{view['turn']}'s turn: draw or stop."
    return ""


as_option = click.option("--as", "as_name", metavar="NAME", help="The player giving the command.")
id_option = click.option("--id", "command_id", metavar="ID", help="A command id for safe retries: "
                         "the same id again returns the first result and records nothing.")


@cli.command()
@click.argument("game")
@click.argument("amount", type=int)
@click.option("--as", "as_name", metavar="NAME", required=True, help="The player betting.")
@id_option
@json_option
@click.pass_obj
def bet(obj: Context, game, amount, as_name, command_id, as_json):
    """Place a secret bet (Auf Teufel komm raus, phase 1).

    AMOUNT is a multiple of 10 from 0 to all of the player's money.  Nobody sees a bet until
    every player with money has bet (ATKR-3.2).
    """
    _submit(obj, game, {"type": "bet", "amount": amount}, as_name, command_id, as_json)


COAL_CHOICES = ["10", "20", "25", "50", "75", "100", "devil"]


@cli.command()
@click.argument("game")
@click.option("--as", "as_name", metavar="NAME", required=True, help="The player drawing.")
@click.option("--coal", type=click.Choice(COAL_CHOICES), help="Physical games only: the coal "
              "the player drew from the box.")
@id_option
@json_option
@click.pass_obj
def draw(obj: Context, game, as_name, coal, command_id, as_json):
    """Draw a coal from the furnace (Auf Teufel komm raus, phase 2).

    In a digital game the furnace draws; in a physical game give the coal drawn with --coal.
    """
    command = {"type": "draw"}
    if coal is not None:
        command["coal"] = 0 if coal == "devil" else int(coal)
    _submit(obj, game, command, as_name, command_id, as_json)


@cli.command()
@click.argument("game")
@click.option("--as", "as_name", metavar="NAME", required=True, help="The player stopping.")
@id_option
@json_option
@click.pass_obj
def stop(obj: Context, game, as_name, command_id, as_json):
    """Stop drawing and lay out your coals (Auf Teufel komm raus, phase 2)."""
    _submit(obj, game, {"type": "stop"}, as_name, command_id, as_json)


@cli.command()
@click.argument("game")
@click.argument("command")
@as_option
@id_option
@json_option
@click.pass_obj
def submit(obj: Context, game, command, as_name, command_id, as_json):
    """Submit any command as a JSON object (docs/commands.md lists them all).

    \b
    Example:
      devil submit GAME '{"type": "bet", "amount": 60}' --as Anna
    """
    try:
        data = json.loads(command)
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"not JSON: {exc}", param_hint="COMMAND") from None
    if not isinstance(data, dict):
        raise click.BadParameter("a command is a JSON object with a \"type\"",
                                 param_hint="COMMAND")
    _submit(obj, game, data, as_name, command_id, as_json)


# -- reading -----------------------------------------------------------------------------------
def _viewer(service: GameService, game: str, as_name: str | None):
    return REFEREE if as_name is None else service.seat(game, as_name)


@cli.command()
@click.argument("game")
@click.option("--as", "as_name", metavar="NAME",
              help="Show only what this player sees (default: the referee's full view).")
@json_option
@click.pass_obj
def show(obj: Context, game, as_name, as_json):
    """Show the table of a game, as the referee or as one player sees it."""
    service = obj.service
    game = service.resolve(game)
    viewer = _viewer(service, game, as_name)
    view = service.view(game, viewer)
    legal = service.legal(game, viewer) if viewer is not REFEREE else None
    loaded = service.load(game)
    if as_json:
        if legal is not None:
            view["legal"] = [loaded.rules.commands.to_map(c) for c in legal]
        emit(view)
        return
    render = renderer_for(loaded.header.kind)
    click.echo(render.table(view, as_name))
    if legal is not None:
        click.echo(f"{as_name} may: {render.summarize_legal(legal)}")


def _time(created_ms: int, ts: int) -> str:
    moment = _dt.datetime.fromtimestamp((created_ms + ts) / 1000, tz=_dt.timezone.utc)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


@cli.command()
@click.argument("game")
@click.option("--as", "as_name", metavar="NAME",
              help="Only what this player saw (default: the referee's full log).")
@json_option
@click.pass_obj
def log(obj: Context, game, as_name, as_json):
    """List a game's events, one per line, with sequence numbers."""
    service = obj.service
    game = service.resolve(game)
    viewer = _viewer(service, game, as_name)
    loaded = service.load(game)
    names = loaded.rules.seats(loaded.state)
    pairs = service.stream(game, viewer)
    if as_json:
        emit([{"seq": r.seq, "actor": r.actor, "cmd": r.cmd,
               "time": _time(loaded.header.created, r.ts),
               "event": loaded.rules.events.to_map(e)} for r, e in pairs])
        return
    render = renderer_for(loaded.header.kind)
    for record, event in pairs:
        click.echo(f"#{record.seq:<4} {render.describe(event, names)}")


@cli.command()
@json_option
@click.pass_obj
def games(obj: Context, as_json):
    """List the games in the store."""
    service = obj.service
    rows = []
    for game in service.store.games():
        try:
            view = service.view(game, REFEREE)
        except DevilError as exc:
            rows.append({"game": game, "error": exc.message})
            continue
        rows.append({"game": game, "kind": view["kind"],
                     "players": [p["name"] for p in view["players"]],
                     "phase": view["phase"], "round": view.get("round"),
                     "events": view["version"], "winners": view.get("winners", [])})
    if as_json:
        emit(rows)
        return
    if not rows:
        click.echo(f"no games in {service.store.root}")
    for row in rows:
        if "error" in row:
            click.echo(f"{row['game']}  DAMAGED: {row['error']}")
            continue
        status = ("over, won by " + ", ".join(row["winners"])) if row["phase"] == "over" \
            else f"round {row['round']}, {row['phase']}"
        click.echo(f"{row['game']}  {row['kind']}  {', '.join(row['players'])}  {status}  "
                   f"({row['events']} events)")


def main() -> None:
    """The console script ``devil``."""
    cli(prog_name="devil")


if __name__ == "__main__":  # pragma: no cover
    main()
