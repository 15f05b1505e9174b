"""The ``devil`` command line (Click).  No game rules here: it builds command objects, hands them
to :class:`engine.service.GameService` and renders what comes back.

Exit codes: 0 done; 1 refused by the rules; 2 usage error (bad option, unknown game, malformed
command); 3 damaged log; 4 not allowed.
"""

from __future__ import annotations

import json
import os
import sys

import click

from engine.errors import DevilError, UsageError
from engine.service import GameService
from engine.store import FileStore

from .api import LocalClient
from .render import renderer_for

DEFAULT_STORE = click.get_app_dir("devil")


class Context:
    """What every command shares: the store folder, the service, whether output is JSON."""

    def __init__(self, store: str, server: str | None = None, token: str | None = None):
        self.store_dir = store
        self.server = server
        self.token = token
        self.json = False
        self._client = None

    @property
    def client(self):
        """The API the commands use (client.api): local, or remote with --server."""
        if self._client is None:
            if self.server:
                from .remote import RemoteClient
                self._client = RemoteClient(self.server, self.token)
            else:
                self._client = LocalClient(GameService(FileStore(self.store_dir)))
        return self._client


class DevilGroup(click.Group):
    """A group that turns engine errors into a message on stderr and a meaningful exit code."""

    def invoke(self, ctx: click.Context):
        raw = [*getattr(ctx, "_protected_args", []), *ctx.args]  # before Click consumes them
        try:
            return super().invoke(ctx)
        except DevilError as exc:
            _fail(ctx, exc.message, exc.exit_code, getattr(exc, "rule", None))
        except click.UsageError as exc:
            if "--json" in raw and not getattr(exc, "_shown", False):
                exc._shown = True
                click.echo(json.dumps({"ok": False, "error": exc.format_message(), "rule": None,
                                       "exit": exc.exit_code}))
            raise
        except click.exceptions.Abort:
            # Ctrl-C, or the input ran out at a prompt: not a refusal (1), so 130 as shells do
            click.echo("Aborted.", err=True)
            ctx.exit(130)
        except (click.exceptions.Exit, click.ClickException):
            raise
        except BrokenPipeError:
            # the reader went away (`devil log GAME | head`): the command itself succeeded
            sys.stdout = open(os.devnull, "w")
            ctx.exit(0)
        except OSError as exc:
            _fail(ctx, f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), 2, None)
        except Exception as exc:  # a bug: say so plainly, keep the traceback for DEVIL_DEBUG=1
            if os.environ.get("DEVIL_DEBUG"):
                raise
            _fail(ctx, f"internal error ({type(exc).__name__}: {exc}); this is a bug in devil; "
                       "run again with DEVIL_DEBUG=1 for the details", 70, None)


def _fail(ctx: click.Context, message: str, code: int, rule: str | None):
    obj = ctx.find_object(Context)
    if obj is not None and obj.json:
        click.echo(json.dumps({"ok": False, "error": message, "rule": rule, "exit": code}))
    click.echo(f"error: {message}", err=True)
    ctx.exit(code)


def json_option(f):
    """The ``--json`` flag; setting it also makes errors print as JSON on stdout."""
    def callback(ctx, param, value):
        if value:
            ctx.find_object(Context).json = True
        return value
    return click.option("--json", "as_json", is_flag=True, expose_value=True, callback=callback,
                        is_eager=True, help="Print JSON for scripts instead of text.")(f)


def emit(data) -> None:
    """Print ``data`` as one line of JSON."""
    click.echo(json.dumps(data, indent=None, sort_keys=False))


@click.group(cls=DevilGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--store", envvar="DEVIL_STORE", default=DEFAULT_STORE, show_default=True,
              type=click.Path(file_okay=False), help="Folder of game logs (env DEVIL_STORE).")
@click.option("--server", envvar="DEVIL_SERVER", metavar="URL",
              help="Play against a `devil serve` service instead of the local store "
                   "(env DEVIL_SERVER).")
@click.option("--token", envvar="DEVIL_TOKEN", metavar="TOKEN",
              help="Bearer token for --server: a seat's, the referee's or a spectator's "
                   "(env DEVIL_TOKEN).")
@click.version_option(package_name="devil", prog_name="devil")
@click.pass_context
def cli(ctx: click.Context, store: str, server: str | None, token: str | None):
    """devil: play, record and check 'Auf Teufel komm raus' and 'Castle of the Devil'.

    Every bet, draw, trade and payout is an event in a tamper-evident log (one .devlog file
    per game in the store folder).  Start a game, then give each player's commands:

    \b
      devil new atkr --player Anna --player Ben --first Anna
      devil bet GAME 60 --as Anna        (GAME: the id printed by `new`, or its end)
      devil bet GAME 0 --as Ben
      devil draw GAME --as Anna
      devil show GAME --as Anna          (the table as Anna sees it, and what she may do)
      devil log GAME
      devil new castle --player Ann --player Ben --player Cid
      devil verify GAME                  (check a record: chain, seed, every rule)

    Exit codes: 0 done, 1 refused by the rules (the message names the rule), 2 usage error,
    3 damaged log or failed check, 4 not allowed, 70 internal error (a bug), 130 aborted.
    """
    ctx.obj = Context(store, server, token)


# -- new ---------------------------------------------------------------------------------------
@cli.group(cls=DevilGroup)
def new():
    """Create a game and print its id."""


@new.command("atkr")
@click.option("--player", "players", multiple=True, required=True, metavar="NAME",
              help="A player, 2 to 6 in seat order (repeat the option).")
@click.option("--first", metavar="NAME", help="Start player of round 1 (default: drawn).")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), help="Fix the digital furnace's "
              "seed, for tests and demos: the game is reproducible, and so predictable to anyone "
              "who guesses the seed. Leave it out for real play (a secret 64-bit seed).")
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
    print_created(obj, obj.client.create("atkr", options, seed), as_json)


def print_created(obj: Context, created: dict, as_json: bool) -> None:
    """Print a new game's id (stdout) and its first events (stderr), or JSON."""
    if as_json:
        emit(created)
        return
    click.echo(created["game"])
    render = renderer_for(created["kind"])
    for entry in obj.client.events(created["game"], None):
        click.echo("  " + render.describe_map(entry["event"], created["players"]), err=True)
    for seat, token in (created.get("tokens") or {}).items():
        click.echo(f"  token for {seat}: {token}", err=True)


# -- commands of a game ------------------------------------------------------------------------
def token_seat(obj: Context, game: str) -> str | None:
    """With --server: the name of the seat the token belongs to (None for the referee or a
    spectator); locally None."""
    if not obj.server:
        return None
    you = obj.client.whoami(game)
    return you.get("name") if you.get("role") == "seat" else None


def _submit(obj: Context, game: str, command: dict, as_name: str | None, command_id, as_json):
    if as_name is None and "player" not in command:
        as_name = token_seat(obj, obj.client.resolve(game))
        if as_name is None:
            raise click.UsageError("--as NAME is required (with --server, a seat's token "
                                   "stands for its seat; the referee names the player)")
    if as_name is not None and command.get("player", as_name) != as_name:
        raise UsageError(f"--as {as_name} does not match the command's player "
                         f"{command['player']!r}")
    client = obj.client
    game = client.resolve(game)
    result = client.submit(game, command, as_name, command_id)
    if as_json:
        emit(result)
        return
    names = client.players(game)
    render = renderer_for(client.kind(game))
    if result["repeated"]:
        click.echo(f"(command {command_id} was already applied; nothing new recorded)")
    for event in result["events"]:
        click.echo(f"#{event['seq']:<4} {render.describe_map(event, names)}")
    hint = render.next_hint(result["view"])
    if hint:
        click.echo(hint)


as_option = click.option("--as", "as_name", metavar="NAME", help="The player giving the command.")
id_option = click.option("--id", "command_id", metavar="ID", help="A command id for safe retries: "
                         "the same id again returns the first result and records nothing.")


@cli.command(context_settings={"ignore_unknown_options": True})
@click.argument("game")
@click.argument("amount", type=int)
@click.option("--as", "as_name", metavar="NAME", help="The player betting (with --server "
              "and a seat's token: that seat).")
@id_option
@json_option
@click.pass_obj
def bet(obj: Context, game, amount, as_name, command_id, as_json):
    """Place a secret bet (Auf Teufel komm raus, phase 1).

    AMOUNT is a multiple of 10 from 0 to all of the player's money.  Nobody sees a bet until
    every player with money has bet (ATKR-3.2).

    \b
    Example:
      devil bet k3f9qz 60 --as Anna
    """
    _submit(obj, game, {"type": "bet", "amount": amount}, as_name, command_id, as_json)


COAL_CHOICES = ["10", "20", "25", "50", "75", "100", "devil"]


@cli.command()
@click.argument("game")
@click.option("--as", "as_name", metavar="NAME", help="The player drawing (with --server "
              "and a seat's token: that seat).")
@click.option("--coal", type=click.Choice(COAL_CHOICES), help="Physical games only: the coal "
              "the player drew from the box.")
@id_option
@json_option
@click.pass_obj
def draw(obj: Context, game, as_name, coal, command_id, as_json):
    """Draw a coal from the furnace (Auf Teufel komm raus, phase 2).

    In a digital game the furnace draws; in a physical game give the coal drawn with --coal.

    \b
    Examples:
      devil draw k3f9qz --as Anna
      devil draw k3f9qz --as Anna --coal devil      (a physical game)
    """
    command = {"type": "draw"}
    if coal is not None:
        command["coal"] = 0 if coal == "devil" else int(coal)
    _submit(obj, game, command, as_name, command_id, as_json)


@cli.command()
@click.argument("game")
@click.option("--as", "as_name", metavar="NAME", help="The player stopping (with --server "
              "and a seat's token: that seat).")
@id_option
@json_option
@click.pass_obj
def stop(obj: Context, game, as_name, command_id, as_json):
    """Stop drawing and lay out your coals (Auf Teufel komm raus, phase 2).

    At least one coal must be drawn first (ATKR-4.2).  The last stop of a round settles the
    bets, prizes, pawns and pacts at once.

    \b
    Example:
      devil stop k3f9qz --as Anna
    """
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
@cli.command()
@click.argument("game")
@click.option("--as", "as_name", metavar="NAME",
              help="Show only what this player sees (default: the referee's full view).")
@json_option
@click.pass_obj
def show(obj: Context, game, as_name, as_json):
    """Show the table of a game, as the referee or as one player sees it.

    With --as, also what that player may do now.  In the table, > marks whose turn it is
    and * the player you are looking as.

    \b
    Examples:
      devil show k3f9qz                 (the referee: everything)
      devil show k3f9qz --as Ben --json
    """
    client = obj.client
    game = client.resolve(game)
    if as_name is None:
        as_name = token_seat(obj, game)
    view = client.view(game, as_name)
    legal = client.legal(game, as_name) if as_name is not None else None
    if as_json:
        if legal is not None:
            view["legal"] = legal
        emit(view)
        return
    render = renderer_for(view["kind"])
    click.echo(render.table(view, as_name))
    if legal is not None:
        click.echo(f"{as_name} may: {render.summarize_legal(legal)}")


@cli.command()
@click.argument("game")
@click.option("--as", "as_name", metavar="NAME",
              help="Only what this player saw (default: the referee's full log).")
@json_option
@click.pass_obj
def log(obj: Context, game, as_name, as_json):
    """List a game's events, one per line, with sequence numbers.

    \b
    Examples:
      devil log k3f9qz
      devil log k3f9qz --as Ben         (Ben's stream: other seats' bets sealed until revealed)
    """
    client = obj.client
    game = client.resolve(game)
    entries = client.events(game, as_name)
    if as_json:
        emit(entries)
        return
    names = client.players(game)
    render = renderer_for(client.kind(game))
    for entry in entries:
        click.echo(f"#{entry['seq']:<4} {render.describe_map(entry['event'], names)}")


@cli.command()
@click.argument("game")
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False, writable=True),
              required=True, help="Where to write the .devlog file (it must not exist yet).")
@click.pass_obj
def export(obj: Context, game, output):
    """Write a game's full .devlog to a file (with --server: the referee's token).

    The copy is byte for byte the log, so `devil verify`, `audit` and `replay` can check it
    anywhere, without the store or the server.

    \b
    Example:
      devil --server http://127.0.0.1:8350 --token REFEREE-TOKEN export k3f9qz -o k3f9qz.devlog
    """
    client = obj.client
    game = client.resolve(game)
    if obj.server:
        data = client.log_bytes(game)
    else:
        data = client.service.store.log_bytes(game)
    try:
        with open(output, "xb") as handle:
            handle.write(data)
    except FileExistsError:
        raise UsageError(f"{output} exists already; give a new file name") from None
    click.echo(f"{game}: {len(data)} bytes written to {output}")


@cli.command()
@json_option
@click.pass_obj
def games(obj: Context, as_json):
    """List the games in the store."""
    rows = obj.client.games()
    if as_json:
        emit(rows)
        return
    if not rows:
        click.echo(f"no games in {obj.store_dir}")
    for row in rows:
        if "error" in row:
            click.echo(f"{row['game']}  DAMAGED: {row['error']}")
            continue
        status = ("over, won by " + ", ".join(row["winners"])) if row["phase"] == "over" \
            else f"round {row['round']}, {row['phase']}"
        click.echo(f"{row['game']}  {row['kind']}  {', '.join(row['players'])}  {status}  "
                   f"({row['events']} events)")


from . import cmd_castle, cmd_service, cmd_tools  # noqa: E402  (commands of later layers)

cmd_tools.register(cli)
cmd_castle.register(cli)  # after cmd_tools: adds `simulate castle` and `play castle` to its groups
cmd_service.register(cli)


def main() -> None:
    """The console script ``devil``."""
    cli(prog_name="devil")


if __name__ == "__main__":  # pragma: no cover
    main()
