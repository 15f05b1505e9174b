"""Commands on the store itself: `devil import` (a .devlog into the store) and `devil db`
(the PostgreSQL store's schema).  Loaded by client.cli when named."""

from __future__ import annotations

import click

from engine.errors import UsageError

from .common import DevilGroup, emit, json_option


@click.command("import")
@click.argument("path", type=click.Path(dir_okay=False))
@json_option
@click.pass_obj
def import_(obj, path, as_json):
    """Add a recorded game (a .devlog file) to the store, byte for byte.

    The file is checked first (as `devil verify` does: format, hash chain, every command
    re-decided); a game whose id is already in the store
    is refused, and nothing is written.  `devil export GAME -o FILE` then `devil --store OTHER
    import FILE` moves a game between stores (a folder, or a postgresql:// database): the
    exported file is byte-identical to the imported one.

    \b
    Example:
      devil --store postgresql://devil@db/devil import atkr-k3f9qz.devlog
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
    game = store.import_log(data)
    if as_json:
        emit({"game": game, "bytes": len(data), "store": store.location()})
        return
    click.echo(f"{game}: {len(data)} bytes imported into {store.location()}")


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
    from engine.store.postgres import init, safe_url

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
    from engine.store.postgres import safe_url, upgrade

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
