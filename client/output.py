"""What commands print: one line of JSON, a kind's renderer (with the desk's and the seating
stage's events), the lines about bytes the store set aside."""

from __future__ import annotations

import json

import click


def emit(data) -> None:
    """Print ``data`` as one line of JSON."""
    click.echo(json.dumps(data, indent=None, sort_keys=False))


def renderer_for(kind: str):
    """The renderer module of game ``kind`` (``client.games.<kind>.render``): ``describe(event,
    names)``, ``describe_map(map, names)``, ``table(view, you)``, ``summarize_legal(maps)``,
    ``next_hint(view)``.  UsageError for an unknown kind."""
    from .desk import DeskAware
    from .games import part
    from .seating import Renderer

    # the referee's desk's events read in every kind, and the seating stage of seat entropy
    return Renderer(DeskAware(part(kind, "render")))


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
