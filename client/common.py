"""What every ``devil`` command shares: the context, the error handling, the one ``--json``
option, the submit path, and how a kind's commands are found.

Every command module (client.cli, client.cmd_tools, client.cmd_service, client.games.<kind>)
imports this module and nothing else of the client's command layer, so there is no import
cycle.  It imports only click and engine.errors at import time; the service, the store, the
HTTP client and the games are imported by the commands that need them, so ``devil --help``
stays fast.

A game kind's client package (``client.games.<kind>``, the kind registered in
:mod:`engine.games`) is a light manifest; see :mod:`client.games`.
"""

from __future__ import annotations

import importlib
import json
import os
import sys

import click

from engine.errors import DevilError, IllegalCommand, UsageError


class Context:
    """What every command shares: the store folder, the server and token (or None), whether
    the output (and errors) are JSON, and the client API (client.api), made on first use."""

    def __init__(self, store: str, server: str | None = None, token: str | None = None):
        self.store_dir = store
        self.server = server
        # a token pasted with a trailing newline or blank is still the token
        self.token = token.strip() if isinstance(token, str) else token
        self.json = False
        self._client = None

    def use_store(self, store: str) -> None:
        """``--store`` given after the subcommand (:func:`store_option`): the store to use.
        UsageError if a store was opened already (a group's option before it needed one)."""
        if store == self.store_dir:
            return
        if self._client is not None:
            raise UsageError(f"--store {store} comes too late here: the store "
                             f"{self.store_dir} is open already; give it first "
                             f"(devil --store {store} ...)")
        self.store_dir = store

    @property
    def client(self):
        """The API the commands use (client.api): local, or remote with --server."""
        if self._client is None:
            if self.server:
                from .remote import RemoteClient
                check_token(self.token)
                self._client = RemoteClient(self.server, self.token)
            else:
                from engine.service import GameService
                from engine.store import open_store

                from .api import LocalClient
                self._client = LocalClient(GameService(open_store(self.store_dir)))
        return self._client


def check_token(token: str | None) -> None:
    """UsageError (exit 2) for a token no HTTP header can carry: a token is printable ASCII
    without spaces (the service's are ``GAME.`` and URL-safe base64).  The message names the
    first bad character and its position, never the token (a secret)."""
    if not token:
        return
    for position, char in enumerate(token, 1):
        if not "!" <= char <= "~":
            what = {"\n": "a line break", "\r": "a carriage return", "\t": "a tab",
                    " ": "a space"}.get(char, f"the character {char!r}" if char.isprintable()
                                        else f"the control character U+{ord(char):04X}")
            raise UsageError(f"the token (--token / DEVIL_TOKEN) has {what} at character "
                             f"{position} of {len(token)}: a token is printable ASCII without "
                             "spaces; copy it again (surrounding blanks and line breaks are "
                             "dropped by themselves)")


def load_attr(spec: str):
    """The object a ``"package.module:attr"`` string names (imported now)."""
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr)


class DevilGroup(click.Group):
    """A group that loads commands on first use and turns errors into a message on stderr (and
    JSON on stdout with ``--json``) and a meaningful exit code.

    ``lazy``: ``{name: "module:attr"}`` of commands imported only when named (or listed by
    ``--help``).  ``slot``: for a group whose subcommands are one per game kind (``new``,
    ``play``, ``simulate``), the key of the kinds' manifests (``GROUP_COMMANDS[slot]``).
    ``with_kinds``: add every kind's top-level ``COMMANDS`` (the root group).
    """

    def __init__(self, *args, lazy: dict | None = None, slot: str | None = None,
                 with_kinds: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})
        self.slot = slot
        self.with_kinds = with_kinds
        self._loaded: set[str] = set()

    def _specs(self) -> dict[str, str]:
        from .games import group_commands, kind_commands

        specs = dict(self.lazy)
        if self.slot is not None:
            specs.update(group_commands(self.slot))
        if self.with_kinds:
            for name, spec in kind_commands().items():
                if (name in self.commands and name not in self._loaded) or name in specs:
                    raise RuntimeError(f"two commands are called {name!r}")  # pragma: no cover
                specs[name] = spec
        return specs

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self._specs()})

    def get_command(self, ctx: click.Context, name: str):
        command = self.commands.get(name)
        if command is not None:
            return command
        spec = self.lazy.get(name)
        if spec is None:
            spec = self._specs().get(name)
        if spec is None:
            return None
        command = load_attr(spec)
        self.commands[name] = command
        self._loaded.add(name)
        return command

    def invoke(self, ctx: click.Context):
        raw = [*getattr(ctx, "_protected_args", []), *ctx.args]  # before Click consumes them
        try:
            return super().invoke(ctx)
        except DevilError as exc:
            fail(ctx, exc.message, exc.exit_code, getattr(exc, "rule", None))
        except click.UsageError as exc:
            if "--json" in raw and not getattr(exc, "_shown", False):
                exc._shown = True
                click.echo(json.dumps({"ok": False, "error": exc.format_message(), "rule": None,
                                       "exit": exc.exit_code}))
            raise
        except (click.exceptions.Abort, KeyboardInterrupt):
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
            fail(ctx, f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), 2, None)
        except Exception as exc:  # a bug: say so plainly, keep the traceback for DEVIL_DEBUG=1
            if os.environ.get("DEVIL_DEBUG"):
                raise
            fail(ctx, f"internal error ({type(exc).__name__}: {exc}); this is a bug in devil; "
                      "run again with DEVIL_DEBUG=1 for the details", 70, None)


def fail(ctx: click.Context, message: str, code: int, rule: str | None):
    """Report an error: ``{"ok": false, "error", "rule", "exit"}`` on stdout when the command
    was given ``--json``, ``error: MESSAGE`` on stderr always; exit with ``code``."""
    obj = ctx.find_object(Context)
    if obj is not None and obj.json:
        click.echo(json.dumps({"ok": False, "error": message, "rule": rule, "exit": code}))
    click.echo(f"error: {message}", err=True)
    ctx.exit(code)


def json_option(f):
    """The ``--json`` flag (the one definition every command uses): the command prints JSON,
    and its errors print as JSON on stdout too.  The value is passed as ``as_json``.  Every
    command with ``--json`` also takes ``--store`` after its name (:func:`store_option`)."""
    def callback(ctx, param, value):
        obj = ctx.find_object(Context)
        if value and obj is not None:
            obj.json = True
        return value
    return store_option(click.option("--json", "as_json", is_flag=True, expose_value=True,
                                     callback=callback, is_eager=True,
                                     help="Print JSON for scripts instead of text.")(f))


def game_value(ctx: click.Context, param, value):
    """Callback of an option that takes a game id (``--resume GAME``): an option typed where
    the id belongs is not taken for one (`devil play --resume --help` shows the help; any
    other ``-x`` is a usage error naming it), since no game id starts with ``-``."""
    if isinstance(value, str) and value.startswith("-"):
        if value in ctx.help_option_names or value in ("-h", "--help"):
            click.echo(ctx.get_help(), color=ctx.color)
            ctx.exit(0)
        raise click.BadParameter(f"give a game id, not the option {value!r} (game ids never "
                                 "start with '-')", ctx=ctx, param=param)
    return value


def store_option(f):
    """``--store DIR|URL`` after a subcommand (``devil show GAME --store DIR``), the same as
    devil's own ``--store`` before it (which it overrides); not passed to the command, it sets
    :attr:`Context.store_dir` before the command opens the store."""
    def callback(ctx, param, value):
        obj = ctx.find_object(Context)
        if value is not None and obj is not None:
            obj.use_store(value)
    return click.option("--store", "store_after", metavar="DIR|URL", expose_value=False,
                        is_eager=True, callback=callback,
                        help="Where games live (as `devil --store`, which it overrides): a "
                             "folder of .devlog files or a postgresql:// URL.")(f)


SEAT_ENTROPY_HELP = ("Chance nobody can choose: the digital game starts once every seat gave a "
                     "random value (`devil sit`); every draw mixes the server's seed with them.  "
                     "Locally the console sits every seat at once.")


def seat_entropy_option(f):
    """``--seat-entropy`` on a kind's ``new`` command (also taken by the ``new`` group, before
    the kind): the client creates the game with seat entropy (engine.entropy)."""
    def callback(ctx, param, value):
        obj = ctx.find_object(Context)
        if value and obj is not None:
            obj.client.seat_entropy = True
    return click.option("--seat-entropy", is_flag=True, expose_value=False, callback=callback,
                        help=SEAT_ENTROPY_HELP)(f)


def write_new(path: str, text: "str | bytes", force: bool) -> None:
    """Write ``text`` (or bytes) to ``path``; UsageError if it exists and not ``force`` (the
    one policy of every command that writes a file: export, audit --csv / --chart, replay
    --html, tournament standings --csv / --html)."""
    binary = isinstance(text, bytes)
    try:
        with open(path, ("w" if force else "x") + ("b" if binary else ""),
                  **({} if binary else {"newline": "", "encoding": "utf-8"})) as handle:
            handle.write(text)
    except FileExistsError:
        raise UsageError(f"{path} exists already; give a new file name or --force") from None


def emit(data) -> None:
    """Print ``data`` as one line of JSON."""
    click.echo(json.dumps(data, indent=None, sort_keys=False))


as_option = click.option("--as", "as_name", metavar="NAME", help="The player giving the command.")
id_option = click.option("--id", "command_id", metavar="ID", help="A command id for safe retries: "
                         "the same id again returns the first result and records nothing.")


def renderer_for(kind: str):
    """The renderer module of game ``kind`` (``client.games.<kind>.render``): ``describe(event,
    names)``, ``describe_map(map, names)``, ``table(view, you)``, ``summarize_legal(maps)``,
    ``next_hint(view)``.  UsageError for an unknown kind."""
    from .desk import DeskAware
    from .games import part
    from .seating import Renderer

    # the referee's desk's events read in every kind, and the seating stage of seat entropy
    return Renderer(DeskAware(part(kind, "render")))


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


def token_seat(obj: Context, game: str) -> str | None:
    """With --server: the name of the seat the token belongs to (None for the referee or a
    spectator); locally None."""
    if not obj.server:
        return None
    you = obj.client.whoami(game)
    return you.get("name") if you.get("role") == "seat" else None


def submit_command(obj: Context, game: str, command: dict, as_name: str | None, command_id,
                   as_json: bool) -> None:
    """Submit ``command`` (a tagged map) to ``game`` as ``as_name`` and print what it caused
    (one line per event and a hint, or the client's answer as JSON).  Raises click.UsageError
    when no player is named, UsageError when ``--as`` and the command's player differ; the
    engine's errors (IllegalCommand, NotAllowed, ...) pass through."""
    if as_name is None and "player" not in command:
        as_name = token_seat(obj, obj.client.resolve(game))
        if as_name is None and command.get("type") in ("correct", "ruling"):
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


#: the largest JSON file a command reads (a --deal file)
MAX_JSON_FILE = 1024 * 1024


def read_json_text(data: "bytes | str", what: str, param_hint: str | None = None):
    """The JSON value in ``data`` read safely (engine.jsonsafe: UTF-8 only, bounded depth and
    digits, finite numbers); click.BadParameter naming ``what`` otherwise (exit 2)."""
    from engine.jsonsafe import loads

    try:
        return loads(data, what)
    except UsageError as exc:
        raise click.BadParameter(exc.message, param_hint=param_hint) from None


def read_json_file(path: str, param_hint: str | None = None):
    """The JSON value in the file at ``path`` (at most :data:`MAX_JSON_FILE` bytes), read as
    :func:`read_json_text` does; click.BadParameter if it cannot be read or is refused."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_JSON_FILE + 1)
    except OSError as exc:
        raise click.BadParameter(f"cannot read {path}: {exc.strerror}",
                                 param_hint=param_hint) from None
    if len(data) > MAX_JSON_FILE:
        raise click.BadParameter(f"{path} is larger than {MAX_JSON_FILE:,} bytes",
                                 param_hint=param_hint)
    return read_json_text(data, path, param_hint)


def log_file(source: str) -> str | None:
    """``source`` as a .devlog path: the path if it is an existing file, None if it is rather
    a game id; UsageError if it looks like a path (has a folder or ends in .devlog) but no
    such file exists."""
    if os.path.isfile(source):
        return source
    if os.sep in source or source.endswith(".devlog"):
        raise UsageError(f"no such file: {source}")
    return None


def damage_lines(damage: list | None) -> list[str]:
    """Lines about what the store could not read as records of a game (a view's ``damage``):
    every view mentions them until the referee acknowledges them (`devil aside`)."""
    out = []
    for piece in damage or []:
        where = (f"set aside in {piece['file']}" if piece.get("file")
                 else "still at the end of the log")
        out.append(f"DAMAGE: {piece['size']} bytes from byte {piece['offset']} could not be read "
                   f"as records ({where}); the referee acknowledges with `devil aside`")
    return out


def local_service(obj: Context, store_dir: str | None = None):
    """A GameService on ``store_dir``, else on the local store; UsageError with --server
    (play and simulate run locally)."""
    from engine.service import GameService
    from engine.store import open_store

    if store_dir is not None:
        return GameService(open_store(store_dir))
    if obj.server:
        raise UsageError("play and simulate run against the local store, not --server")
    return obj.client.service


def parse_bots(specs) -> dict[str, str]:
    """``--bot NAME=KIND`` options as ``{name: bot kind}``; click.BadParameter if malformed.
    Split at the last ``=``: a player's name may contain one (``--bot 'A=B=cautious'``), a bot
    kind never does."""
    bots = {}
    for spec in specs:
        name, sep, kind = spec.rpartition("=")
        if not sep or not name.strip() or not kind.strip():
            raise click.BadParameter(f"{spec!r}: give a bot as NAME=KIND, e.g. Bot1=cautious",
                                     param_hint="--bot")
        bots[name.strip()] = kind.strip()
    return bots

