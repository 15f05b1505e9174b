"""``devil receipts``: the receipts a client kept (engine.receipts, client.receipts; ``devil
key`` is client.cmd_keys).  Loaded by client.cli when named."""

from __future__ import annotations

import click

from .options import json_option
from .output import emit


@click.command()
@click.argument("game")
@json_option
@click.pass_obj
def receipts(obj, game, as_json):
    """List the receipts this client kept for GAME, one per accepted command.

    Each is the game, the sequence number and chain link of the command's last record and its
    time, signed by the service.  They live in the client's config folder ($DEVIL_CONFIG, else
    the platform's; one file per game, mode 0600).  Check a log against one with `devil verify
    FILE --receipt R` (R: a receipt as JSON, a file holding one, or its sequence number here).
    With --json: the list of receipt maps.

    \b
    Examples:
      devil receipts k3f9qz
      devil verify k3f9qz.devlog --receipt 17       (the receipt of record 17, kept here)
    """
    from .receipts import kept

    entries = kept(game)
    if as_json:
        emit(entries)
        return
    for entry in entries:
        click.echo(f"#{entry['seq']:<5} link {entry['link']}  {entry['time']}  "
                   f"key {entry['key'][:16]}...  ({entry.get('from', '?')})")
