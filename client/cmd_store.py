"""Commands on the store itself: `devil import` (a .devlog into the store) and `devil db`
(the PostgreSQL store's schema).  Loaded by client.cli when named."""

from __future__ import annotations

import click

from engine.errors import UsageError

from .files import read_json_file
from .group import DevilGroup
from .options import json_option
from .output import emit


@click.command("import")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--secret", "secret_path", type=click.Path(dir_okay=False, exists=True),
              metavar="FILE", help="The game's secret seed written by `devil export "
              "--secret`: it must match the commitment in the game's first event.")
@json_option
@click.pass_obj
def import_(obj, path, secret_path, as_json):
    """Add a recorded game (a .devlog file) to the store, byte for byte.

    The file is checked first (as `devil verify` does: format, hash chain, every command
    re-decided); a game whose id is already in the store
    is refused, and nothing is written.  `devil export GAME -o FILE` then `devil --store OTHER
    import FILE` moves a game between stores (a folder, or a postgresql:// database): the
    exported file is byte-identical to the imported one.  `--store` is devil's own option, so
    it comes before `import`.  A digital game's secret seed is not in its log until the game
    ends: `devil export GAME -o FILE --secret SFILE` and `import FILE --secret SFILE` move it
    too, so an unfinished digital game draws on in its new store.

    \b
    Example:
      devil --store postgresql://devil@db/devil import GAME.devlog
    """
    from engine.log import read_bytes

    if obj.server:
        raise UsageError("import writes to a local store (--store), not to --server")
    from engine.errors import LogDamaged
    from engine.replay import verify_bytes

    store = obj.client.service.store
    data = read_bytes(path)
    # the chain alone is not enough: a log re-chained around an impossible event would be
    # stored, then crash whatever shows it; only a log `devil verify` accepts is imported
    checked = verify_bytes(data, path)
    if not checked.ok and not checked.torn:
        raise LogDamaged(checked.first_bad_seq or 0, f"{checked.reason} (`devil verify` "
                         "refuses it, so it is not imported)", path)
    secret = _read_secret(secret_path, checked) if secret_path else None
    from engine.receipts import Signer

    Signer.of(store)  # the key before the game: a store holding games never makes one (20.5)
    game = store.import_log(data, secret)
    if secret_path:  # a game with seat entropy draws on only with every seat's value
        from engine.entropy import put_seat_documents

        put_seat_documents(store, game, read_json_file(secret_path))
    if checked.finished:  # this store seals the finished record it accepted (engine.receipts)
        from engine.receipts import seal_stream

        seal_stream(store, game)
    if as_json:
        emit({"game": game, "bytes": len(data), "store": store.location()})
        return
    click.echo(f"{game}: {len(data)} bytes imported into {store.location()}")


def _read_secret(path: str, checked) -> dict:
    """The secret seed in ``path`` (from `devil export --secret`), checked against the game it
    is imported with: the same game id, and a seed that hashes to the game's commitment."""
    from engine.chance import SeededChance
    from engine.jsonsafe import loads

    with open(path, "rb") as handle:
        document = loads(handle.read(), path)
    secret = document.get("secret") if isinstance(document, dict) else None
    if not isinstance(secret, dict) or document.get("game") != checked.game:
        raise UsageError(f"{path} is not the secret of {checked.game} (devil export --secret "
                         "writes it)")
    try:
        chance = SeededChance(secret["seed"], secret["salt"])
    except (KeyError, TypeError, ValueError):
        raise UsageError(f"{path} holds no seed and salt") from None
    if chance.commitment != checked.commitment:
        raise UsageError(f"the seed in {path} does not match {checked.game}'s commitment")
    return {"seed": chance.seed, "salt": chance.salt}


@click.group(cls=DevilGroup)
def db():
    """The PostgreSQL store's schema: create it, upgrade it, say where it stands."""


def _url(obj, url: str | None) -> str:
    url = url or obj.store_dir
    if not url.startswith(("postgresql://", "postgres://")):
        raise UsageError(f"{url!r} is not a postgresql:// URL (give one, or --store URL)")
    return url


@db.command("init")
@click.argument("url", required=False, metavar="[URL]")
@json_option
@click.pass_obj
def db_init(obj, url, as_json):
    """Create devil's tables in a PostgreSQL database (URL, default --store); run again, it
    changes nothing.

    \b
    Example:
      devil db init postgresql://devil@localhost/devil
    """
    from engine.store.postgres.connections import safe_url
    from engine.store.postgres.schema import init

    url = _url(obj, url)
    before, after = init(url)
    _report(safe_url(url), before, after, as_json)


@db.command("upgrade")
@click.argument("url", required=False, metavar="[URL]")
@json_option
@click.pass_obj
def db_upgrade(obj, url, as_json):
    """Bring devil's tables in a PostgreSQL database up to this version's schema (every
    service node refuses an older schema and names this command).

    \b
    Example:
      devil db upgrade postgresql://devil@localhost/devil
    """
    from engine.store.postgres.connections import safe_url
    from engine.store.postgres.schema import upgrade

    url = _url(obj, url)
    before, after = upgrade(url)
    _report(safe_url(url), before, after, as_json)


def _report(url: str, before, after, as_json: bool) -> None:
    if as_json:
        emit({"url": url, "schema_before": before, "schema": after})
    elif before == after:
        click.echo(f"{url}: schema version {after}, up to date")
    else:
        click.echo(f"{url}: schema version {before or 'none'} -> {after}")


@click.command()
@click.argument("game")
@click.option("--acknowledge", "file", metavar="FILE",
              help="Mark this set-aside piece as seen by the referee (it then leaves the views).")
@click.option("--by", default="the referee", show_default=True, metavar="WHO",
              help="Who acknowledges (recorded with the time).")
@json_option
@click.pass_obj
def aside(obj, game, file, by, as_json):
    """List what the store could not read as records of GAME, or acknowledge a piece.

    Bytes after the last complete command (a write cut short by a crash, or a damaged end) are
    never deleted: the next writer moves them to a file beside the log, and every view
    mentions them until the referee acknowledges them here.

    \b
    Examples:
      devil aside k3f9qz
      devil aside k3f9qz --acknowledge GAME.20261201T101500Z-at-4096.aside --by Rita
    """
    if obj.server:
        raise UsageError("aside reads the local store (--store), not --server")
    store = obj.client.service.store
    game = store.resolve(game)
    if file is not None:
        entry = store.acknowledge_aside(game, file, by)
        if as_json:
            emit(entry)
        else:
            click.echo(f"{file}: acknowledged by {by}")
        return
    pieces = store.damage(game)
    if as_json:
        emit(pieces)
        return
    if not pieces:
        click.echo(f"{game}: nothing set aside or unread")
    for piece in pieces:
        where = piece["file"] or "(still at the end of the log; the next writer sets it aside)"
        click.echo(f"{piece['size']} bytes from byte {piece['offset']}: {where}"
                   + (f", set aside {piece['time']}" if piece.get("time") else ""))
