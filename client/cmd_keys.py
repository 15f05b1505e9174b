"""``devil key``, ``devil key --history`` and ``devil key rotate``: the store's signing key as
an identity (engine.keys, issue 20.5).  Loaded by client.cli when named."""

from __future__ import annotations

import click

from .options import json_option
from .output import emit


@click.group(invoke_without_command=True)
@click.option("--history", "show_history", is_flag=True,
              help="List the key's rotations, oldest first, each checked (signed by the old "
                   "key and the new, or plainly made without the old key).")
@json_option
@click.pass_context
def key(ctx, show_history, as_json):
    """Print the public key that signs receipts, seals and checkpoints (Ed25519, 64 hex digits).

    Locally: the store's key, created on first use and kept private beside the games (mode
    0600); once the store holds a game it is never made again: a missing key is an error
    (exit 3) that says how to rotate.  With --server: the server's.  Give it to `devil verify
    --key` to check a game's seal and receipts.  With --json: {"algorithm", "public"}.

    \b
    With --history: every rotation (its number, time, old and new key, reason, and whether
    the old key signed it); --json: {"public", "history": [rotation records]} (what `devil
    verify --history FILE` takes to check receipts signed by an older key; a file there that
    is not such output exits 2).  A history that does not hold (a forged rotation) exits 3;
    so does a missing key, after the listing.

    \b
    Examples:
      devil key
      devil --server http://127.0.0.1:8350 key --json > devil-key.json
      devil key --history
      devil key --history --json > devil-keys.json
      devil key rotate --reason "yearly rotation"
    """
    if ctx.invoked_subcommand is not None:
        return
    obj = ctx.obj
    if not show_history:
        data = obj.client.key()
        if as_json:
            emit(data)
            return
        click.echo(data["public"])
        return
    from engine.keys.history import check_chain, describe
    from engine.receipts import SigningKeyDamaged

    data = obj.client.key_history()
    check_chain(data["history"])
    if as_json:
        emit(data)
        if data.get("problem"):
            ctx.exit(3)
        return
    click.echo(f"key now: {data['public'] or 'NONE (see below)'}")
    if not data["history"]:
        click.echo("no rotation: this is the store's first key")
    for entry in data["history"]:
        click.echo(describe(entry))
    if data.get("problem"):  # listed first: it helps decide how to rotate
        raise SigningKeyDamaged(data["problem"])


@key.command()
@click.option("--reason", required=True, metavar="TEXT", help="Why (kept in the record).")
@click.option("--old-key", "old_key", type=click.Path(dir_okay=False, exists=True),
              metavar="FILE",
              help="A copy of the old key file (or a file of its 64 hex digits of private key), "
                   "when the store's own is missing or damaged: it signs the rotation.")
@click.option("--lost", is_flag=True,
              help="The old key is lost: record the rotation WITHOUT its signature (every check "
                   "says so; a referee decides what the old key's records are worth).")
@click.option("--old-public", "old_public", metavar="PUB",
              help="With --lost: the old public key (`devil key` as published) when the store "
                   "no longer knows it.")
@json_option
@click.pass_obj
def rotate(obj, reason, old_key, lost, old_public, as_json):
    """Replace the store's signing key by a new one, with a signed rotation record.

    The record {"number", "old", "new", "time", "reason", "old_sig", "new_sig"} is signed by
    the old key and the new over `devil-key-rotation|1|OLD|NEW|TIME` (docs/log-format.md), and
    kept beside the store's key; receipts, seals and checkpoints signed by the old key still
    verify, naming the old key and when it was rotated.  The old key signs: the store's own,
    or with --old-key a copy of it.  With --lost nobody signs for the old key and the record
    says so.  Local stores only; stop `devil serve` first (it keeps the key it loaded).  With
    --json: the rotation record.

    \b
    Examples:
      devil key rotate --reason "yearly rotation"
      devil key rotate --old-key backup/.devil-signing.json --reason "key file deleted"
      devil key rotate --lost --reason "disk lost; key not backed up"
    """
    from engine.errors import UsageError
    from engine.keys.history import describe
    from engine.keys.rotate import rotate as do_rotate

    if obj.server:
        raise UsageError("a key is rotated where the store is (--store), not over --server")
    if old_public is not None and not lost:
        raise UsageError("--old-public goes with --lost (otherwise the old key names itself)")
    text = None
    if old_key is not None:
        try:
            with open(old_key) as handle:
                text = handle.read(1 << 16)
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read --old-key {old_key}: {exc}") from None
    entry = do_rotate(obj.client.service.store, reason, old_key=text, lost=lost,
                      old_public=old_public)
    if as_json:
        emit(entry)
        return
    click.echo(describe(entry))
    click.echo(f"key now: {entry['new']}")
