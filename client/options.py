"""The options many commands share, each defined once: ``--json`` (which brings ``--store``
after the subcommand), ``--as``, ``--id``, ``--seat-entropy``, a game id typed where an option
is, ``--bot NAME=KIND``, and ``--reporter NAME`` (env ``DEVIL_REFEREE``)."""

from __future__ import annotations

import os

import click

from .context import Context


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


as_option = click.option("--as", "as_name", metavar="NAME", help="The player giving the command.")


id_option = click.option("--id", "command_id", metavar="ID", help="A command id for safe retries: "
                         "the same id again returns the first result and records nothing.")


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


#: the environment variable naming the referee who reports a physical game's draws
REFEREE_ENV = "DEVIL_REFEREE"

REPORTER_HELP = ("Physical games: who reports this draw (a referee's name, 1 to 32 printable "
                 "characters), recorded in the event.  Default: env DEVIL_REFEREE, so a referee "
                 "recording a whole game types it once (this option wins over it).  With "
                 "--server and a named referee token, leave it out: the token's name is "
                 "recorded, another name is refused (exit 4).")


def reporter_option(f):
    """``--reporter NAME`` (alias ``--referee``), the one definition every command that reports
    a draw uses; passed as ``reporter`` (None when not given: see :func:`reporter_name`)."""
    return click.option("--reporter", "--referee", "reporter", metavar="NAME",
                        help=REPORTER_HELP)(f)


def reporter_name(given: str | None, reported: bool = True) -> str | None:
    """The reporter of a draw: ``given`` (``--reporter``) if given, else the environment's
    ``DEVIL_REFEREE`` when the command reports a chance fact (``reported``: a physical draw;
    a digital draw is never given the environment's name, which would be refused), else None.
    The name is checked by the rules (engine.game.check_reporter)."""
    if given is not None:
        return given
    if not reported:
        return None
    return os.environ.get(REFEREE_ENV) or None
