"""The ``devil`` command line (Click).  No game rules here: it builds command objects, hands them
to the client API (client.api: the local service, or a server) and renders what comes back.

The shared commands live here (submit, show, log, export, games, and the groups new, play and
simulate); replay and verify in client.cmd_tools, audit in client.cmd_audit; serve and watch
in client.cmd_service;
each game kind's commands in client.games.<kind>.  Commands are imported only when named (or
listed by ``--help``), and the heavy parts (the service, the HTTP client and server, the
games) only inside command bodies, so ``devil --help`` starts fast.

Exit codes: 0 done; 1 refused by the rules; 2 usage error (bad option, unknown game, malformed
command); 3 damaged log or failed check; 4 not allowed; 5 store unavailable; 70 internal error;
130 aborted.
"""

from __future__ import annotations

import click

from engine.games import KINDS

from .context import Context, token_seat
from .files import log_file, read_json_text
from .group import DevilGroup
from .options import (as_option, game_value, id_option, json_option, seat_entropy_option,
                      store_option)
from .output import damage_lines, emit, renderer_for
from .submit import submit_command
from .games import examples

DEFAULT_STORE = click.get_app_dir("devil")

_TITLES = " and ".join(f"'{title}'" for title in KINDS.values())
_EXAMPLES = "\n".join(f"  {line}" for line in examples())
HELP = f"""devil: play, record and check {_TITLES}.

Every bet, draw, trade and payout is an event in a tamper-evident log (one .devlog file
per game in the store folder).  Start a game, then give each player's commands:

\b
{_EXAMPLES}
  devil verify GAME                  (check a record: chain, seed, every rule)

Exit codes: 0 done, 1 refused by the rules (the message names the rule), 2 usage error,
3 damaged log or failed check, 4 not allowed, 5 store (database) unavailable, 6 tournament
verify: verified but the key not pinned, 7 verify: a receipt's record was voided, 70 internal
error (a bug), 130 aborted.
"""

#: shared commands defined in other modules, imported when named
LAZY = {"replay": "client.cmd_tools:replay", "verify": "client.cmd_tools:verify",
        "audit": "client.cmd_audit:audit", "serve": "client.cmd_service:serve",
        "watch": "client.cmd_service:watch", "referee": "client.cmd_service:referee",
        "import": "client.cmd_store:import_",
        "db": "client.cmd_store:db", "aside": "client.cmd_store:aside",
        "key": "client.cmd_keys:key", "receipts": "client.cmd_receipts:receipts",
        "checkpoint": "client.cmd_tlog:checkpoint", "prove": "client.cmd_tlog:prove",
        "witness": "client.cmd_witness:witness",
        "sit": "client.cmd_seating:sit",
        "correct": "client.cmd_desk:correct", "dispute": "client.cmd_desk:dispute",
        "ruling": "client.cmd_desk:ruling", "disputes": "client.cmd_desk:disputes",
        "replace": "client.cmd_desk:replace", "takeback": "client.cmd_takeback:takeback",
        "amend": "client.cmd_amend:amend",
        "tournament": "client.cmd_tournament:tournament"}


@click.group(cls=DevilGroup, lazy=LAZY, with_kinds=True, help=HELP,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--store", envvar="DEVIL_STORE", default=DEFAULT_STORE, show_default=True,
              metavar="DIR|URL", help="Where games live: a folder of .devlog files, or a "
              "postgresql:// URL shared by many service nodes (env DEVIL_STORE).")
@click.option("--server", envvar="DEVIL_SERVER", metavar="URL",
              help="Play against a `devil serve` service instead of the local store "
                   "(env DEVIL_SERVER).")
@click.option("--token", envvar="DEVIL_TOKEN", metavar="TOKEN",
              help="Bearer token for --server: a seat's, the referee's or a spectator's "
                   "(env DEVIL_TOKEN).")
@click.version_option(package_name="devil", prog_name="devil")
@click.pass_context
def cli(ctx: click.Context, store: str, server: str | None, token: str | None):
    ctx.obj = Context(store, server, token)


# -- groups with one subcommand per game kind (client.games.<kind>.GROUP_COMMANDS) -------------
@cli.group(cls=DevilGroup, slot="new")
@seat_entropy_option
def new():
    """Create a game and print its id."""


@cli.group(cls=DevilGroup, slot="play", invoke_without_command=True, no_args_is_help=True)
@click.option("--resume", "resume_game", metavar="GAME", callback=game_value,
              help="Continue an interrupted game of any kind from the store, with the people "
                   "and bots it was started with.")
@click.option("--bot", "bot_specs", multiple=True, metavar="NAME=KIND",
              help="With --resume: a seat a bot takes over from now on (repeat).")
@click.option("--reporter", "--referee", "reporter", metavar="NAME",
              help="With --resume of a physical game: who reports the draws typed here "
                   "(default: env DEVIL_REFEREE).")
@store_option
@click.pass_context
def play(ctx, resume_game, bot_specs, reporter):
    """Play a whole game at one terminal: people and bots mixed.

    Between two people the screen is cleared and the program waits until the terminal is
    passed on.  `devil play --resume GAME` continues an interrupted game.
    """
    if ctx.invoked_subcommand is not None:
        if resume_game is not None or bot_specs or reporter is not None:
            raise click.UsageError("give --resume (and its --bot, --reporter) without a kind "
                                   "(devil play --resume GAME) "
                                   "or after it (devil play KIND --resume GAME)")
        return
    if resume_game is None:  # pragma: no cover - no_args_is_help answers a bare `devil play`
        raise click.UsageError("name a kind (devil play KIND ...) or --resume GAME")
    from .play import kind_of

    command = ctx.command.get_command(ctx, kind_of(ctx.obj, resume_game))
    if command is None:
        raise click.UsageError(f"{resume_game}: its kind has no `devil play`")
    ctx.invoke(command, resume_game=resume_game, bot_specs=bot_specs, reporter=reporter)


@cli.group(cls=DevilGroup, slot="simulate")
def simulate():
    """Let bots play many recorded games and summarise them."""


# -- commands of any game ----------------------------------------------------------------------
@cli.command()
@click.argument("game")
@click.argument("command")
@as_option
@id_option
@json_option
@click.pass_obj
def submit(obj, game, command, as_name, command_id, as_json):
    """Submit any command as a JSON object (docs/commands.md lists them all).

    \b
    Example:
      devil submit GAME '{"type": "bet", "amount": 60}' --as Anna
    """
    data = read_json_text(command, "the command", param_hint="COMMAND")
    if not isinstance(data, dict):
        raise click.BadParameter("a command is a JSON object with a \"type\"",
                                 param_hint="COMMAND")
    submit_command(obj, game, data, as_name, command_id, as_json)


# -- reading -----------------------------------------------------------------------------------
def reader(obj: Context, source: str):
    """``(client, game)`` for a reading command: a FileClient on ``source`` when it is a
    .devlog file (no store, no server), else the context's client and the game id it
    resolves ``source`` to."""
    path = log_file(source)
    if path is not None:
        from .api import FileClient

        client = FileClient(path)
        return client, client.resolve(source)
    return obj.client, obj.client.resolve(source)


@cli.command()
@click.argument("game", metavar="GAME|PATH")
@click.option("--as", "as_name", metavar="NAME",
              help="Show only what this player sees (default: the referee's full view).")
@json_option
@click.pass_obj
def show(obj, game, as_name, as_json):
    """Show the table of a game, as the referee or as one player sees it.

    GAME is a game id (or a unique part of one), or the path of a .devlog file (read
    directly: no store needed).  With --as, also what that player may do now.  In the table,
    > marks whose turn it is and * the player you are looking as.

    \b
    Examples:
      devil show k3f9qz                 (the referee: everything)
      devil show k3f9qz --as Ben --json
      devil show saved/k3f9qz.devlog --as Ben
    """
    from_file = log_file(game) is not None
    client, game = reader(obj, game)
    if as_name is None and not from_file:
        as_name = token_seat(obj, game)
    if as_name is not None:  # as the game spells it (--as anna finds Anna): the * marks it
        from engine.seats import seat_named

        players = client.players(game)
        as_name = players[seat_named(players, as_name, where=game)]
    view = client.view(game, as_name)
    legal = client.legal(game, as_name) if as_name is not None else None
    if as_json:
        if legal is not None:
            view["legal"] = legal
        emit(view)
        return
    render = renderer_for(view["kind"])
    click.echo(render.table(view, as_name))
    from .desk import desk_lines

    for line in desk_lines(view):  # corrections' voids and open disputes
        click.echo(line)
    from .clocks import clock_line

    if clock_line(view.get("clocks")):  # each seat's remaining time (CLOCK-8)
        click.echo(clock_line(view.get("clocks")))
    for line in damage_lines(view.get("damage")):
        click.echo(line)
    if legal is not None:
        click.echo(f"{as_name} may: {render.summarize_legal(legal)}")


@cli.command()
@click.argument("game", metavar="GAME|PATH")
@click.option("--as", "as_name", metavar="NAME",
              help="Only what this player saw (default: the referee's full log).")
@json_option
@click.pass_obj
def log(obj, game, as_name, as_json):
    """List a game's events, one per line, with sequence numbers.

    GAME is a game id (or a unique part of one), or the path of a .devlog file (read
    directly: no store needed).

    \b
    Examples:
      devil log k3f9qz
      devil log k3f9qz --as Ben         (Ben's stream: other seats' secrets sealed)
      devil log saved/k3f9qz.devlog --json
    """
    client, game = reader(obj, game)
    entries = client.events(game, as_name)
    if as_json:
        emit(entries)
        return
    names = client.players(game)
    render = renderer_for(client.kind(game))
    from .desk import entry_line

    for entry in entries:  # a voided record struck through, with its correction's reason
        click.echo(entry_line(render, entry, names))
    service = getattr(client, "service", None)  # the local store's games: their damage too
    if service is not None:
        for line in damage_lines(service.store.damage(game)):
            click.echo(line)


@cli.command()
@click.argument("game")
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False, writable=True),
              required=True, help="Where to write the .devlog file (refused if it exists, "
              "unless --force).")
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
@click.option("--secret", "secret_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also write the game's secret seed to FILE (mode 0600), for `devil import "
                   "--secret`: an unfinished digital game then draws on in its new store.  "
                   "Whoever reads FILE can predict every draw: keep it private.")
@click.option("--seal", "seal_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also write the finished game's signed seal to FILE (JSON), for `devil verify "
                   "--key PUB --seal FILE` (verify also finds OUTPUT.seal.json by itself).")
@json_option
@click.pass_obj
def export(obj, game, output, force, secret_path, as_json, seal_path=None):
    """Write a game's full .devlog to a file (with --server: the referee's token).

    The copy is byte for byte the log, so `devil verify`, `audit` and `replay` can check it
    anywhere, without the store or the server.  With --json: {"game", "bytes", "path"}.

    \b
    Example:
      devil --server http://127.0.0.1:8350 --token REFEREE-TOKEN export k3f9qz -o k3f9qz.devlog
    """
    from engine.errors import UsageError

    client = obj.client
    game = client.resolve(game)
    if obj.server:
        data = client.log_bytes(game)
    else:
        data = client.service.store.log_bytes(game)
    secret = None
    if secret_path is not None:
        if obj.server:
            raise UsageError("--secret reads the local store: the service never hands out a "
                             "game's secret seed")
        secret = client.service.store.secret(game)
        if secret is None:
            raise UsageError(f"{game} has no secret seed (a physical game) to export")
    seal = None
    if seal_path is not None:
        seal = client.seal(game)
        if seal is None:
            raise UsageError(f"{game} is not finished: a game is sealed when it ends")
    try:
        with open(output, "wb" if force else "xb") as handle:
            handle.write(data)
        if seal is not None:
            import json

            with open(seal_path, "w" if force else "x") as handle:
                json.dump(seal, handle)
        if secret is not None:
            import json
            import os

            flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if force else os.O_EXCL)
            from engine.entropy import seat_documents

            with os.fdopen(os.open(secret_path, flags, 0o600), "w") as handle:
                json.dump({"game": game, "secret": secret,
                           **seat_documents(client.service.store, game)}, handle)
    except FileExistsError as exc:
        raise UsageError(f"{exc.filename} exists already; give a new file name or --force") \
            from None
    if as_json:
        emit({"game": game, "bytes": len(data), "path": output,
              **({"secret": secret_path} if secret is not None else {}),
              **({"seal": seal_path} if seal is not None else {})})
        return
    click.echo(f"{game}: {len(data)} bytes written to {output}"
               + (f"; its secret seed to {secret_path} (keep it private)" if secret else "")
               + (f"; its seal to {seal_path}" if seal else ""))


def _created_text(iso: str) -> str:
    """``2024-05-01T12:30:05.123Z`` -> ``2024-05-01 12:30``."""
    return iso[:16].replace("T", " ")


@cli.command()
@click.option("--kind", type=click.Choice(list(KINDS)), help="Only games of this kind.")
@click.option("--finished/--in-progress", "finished", default=None,
              help="Only finished games, or only games in progress (default: both).")
@json_option
@click.pass_obj
def games(obj, kind, finished, as_json):
    """List the games in the store (with --server: the games the token may see).

    One line per game: its id, kind, players, where it stands (the kind's own summary), when
    it was created (UTC), in progress, finished, or stopped by the turn cap (a simulated game
    its bots did not finish), and its number of events.  A damaged log is listed as DAMAGED
    (left out when filtering); a log whose damaged end was set aside says so until the referee
    acknowledges it (`devil aside`).  With --json, a list of rows: game, kind, title, players,
    created (ISO 8601), finished, stopped (null, or why and when), events, text and summary
    (the kind's map: phase, round, turn, winners, text), and damage (what was set aside) when
    there is any.

    \b
    Examples:
      devil games --in-progress
      devil games --kind KIND --finished --json
    """
    rows = obj.client.games()
    if kind is not None or finished is not None:
        rows = [r for r in rows if "error" not in r
                and (kind is None or r["kind"] == kind)
                and (finished is None or bool(r["finished"]) == finished)]
    if as_json:
        emit(rows)
        return
    if not rows:
        import os

        missing = (not obj.server and "://" not in obj.store_dir
                   and not os.path.isdir(obj.store_dir))
        click.echo(f"no games in {obj.server or obj.store_dir}"
                   + (" that match" if kind is not None or finished is not None else "")
                   + (" (no such folder yet: it is made when a game is created; check --store)"
                      if missing else ""))
    for row in rows:
        if "error" in row:
            click.echo(f"{row['game']}  DAMAGED: {row['error']}")
            continue
        state = "finished" if row["finished"] else "in progress"
        if row.get("stopped"):
            state = f"stopped by the {row['stopped'].get('why', 'turn cap')}"
        if row.get("damage"):  # every listing says so until the referee acknowledges it
            state += f", {sum(piece['size'] for piece in row['damage'])} damaged bytes set aside"
        click.echo(f"{row['game']}  {row['kind']}  {', '.join(row['players'])}  {row['text']}  "
                   f"{_created_text(row['created'])}  {state}  ({row['events']} events)")


def main() -> None:
    """The console script ``devil``."""
    cli(prog_name="devil")


if __name__ == "__main__":  # pragma: no cover
    main()
