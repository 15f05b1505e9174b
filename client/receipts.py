"""The receipts a CLI client keeps (issue 13.2).

Every accepted command's answer carries a signed receipt (engine.receipts).  The client keeps
each one in its config folder, one JSON line per receipt::

    <config>/receipts/<game>.jsonl      (folder 0700, file 0600)

``<config>`` is ``$DEVIL_CONFIG`` if set, else the platform's config folder for devil
(``click.get_app_dir("devil")``, e.g. ``~/.config/devil``).  A receipt proves the log held
that record: ``devil verify FILE --receipt R`` fails on a log cut before it.
"""

from __future__ import annotations

import json
import os
import re

import click

_GAME = re.compile(r"^[a-z]+-[a-z0-9]{4,32}$")


def config_dir() -> str:
    """The client's config folder: ``$DEVIL_CONFIG``, else ``click.get_app_dir("devil")``."""
    return os.environ.get("DEVIL_CONFIG") or click.get_app_dir("devil")


def _folder(name: str) -> str:
    path = os.path.join(config_dir(), name)
    os.makedirs(path, mode=0o700, exist_ok=True)
    return path


def _append_line(path: str, entry: dict) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, (json.dumps(entry, sort_keys=True) + "\n").encode())
    finally:
        os.close(fd)


def keep(receipt: dict | None, where: str) -> None:
    """Keep ``receipt`` (a signed receipt map, or None: nothing) with ``where`` (the store or
    server it came from).  A receipt that cannot be kept (a read-only home) is reported on
    stderr; the command stays done."""
    if not receipt or not _GAME.match(str(receipt.get("game", ""))):
        return
    if "://" in where and "@" in where:  # a database URL: never keep its password
        scheme, _, rest = where.partition("://")
        where = f"{scheme}://{rest.rpartition('@')[2]}"
    try:
        path = os.path.join(_folder("receipts"), f"{receipt['game']}.jsonl")
        _append_line(path, {**receipt, "from": where})
    except OSError as exc:
        click.echo(f"warning: the receipt could not be kept in {config_dir()}: {exc.strerror}",
                   err=True)


def kept(game: str) -> list[dict]:
    """The receipts kept for ``game`` (an id, or a unique beginning or end of one), oldest
    first, one per record (a repeated command's receipt once).  UsageError if none match."""
    from engine.errors import DevilError, UsageError
    from engine.store.protocol import resolve_id

    folder = os.path.join(config_dir(), "receipts")
    try:
        games = sorted(name[:-6] for name in os.listdir(folder) if name.endswith(".jsonl"))
    except FileNotFoundError:
        games = []
    try:
        game = resolve_id(game, games, f"the receipts kept in {folder}")
    except DevilError as exc:
        raise UsageError(exc.message + "; receipts are kept for the commands this client "
                         "submitted (devil new, bet, trade ..., over --server too); `devil play` "
                         "and `devil simulate` keep none: check their logs with the store's "
                         "seal, `devil verify GAME --key \"$(devil key)\"`") from None
    out, seen = [], set()
    with open(os.path.join(folder, f"{game}.jsonl")) as handle:
        for line in handle:
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # a line cut by a crash: the others stand
            if not isinstance(entry, dict):
                continue  # not a receipt (a hand edit): the others stand
            key = (entry.get("seq"), entry.get("link"))
            if key not in seen:
                seen.add(key)
                out.append(entry)
    return out

