"""Each game kind's part of the CLI: ``client.games.<kind>`` for every kind registered in
:mod:`engine.games`.

A kind's package ``__init__`` is a light manifest (it imports nothing heavy) with:

* ``COMMANDS``: ``{name: "module:attr"}``: the kind's top-level commands (``devil NAME``);
* ``GROUP_COMMANDS``: ``{group: "module:attr"}``: its subcommand of a shared group, named by
  the kind (``new``, ``play``, ``simulate``: ``devil new KIND`` ...);
* ``AUDIT``: the module that renders the kind's audit (``text(result) -> str``, and
  optionally ``totals_text(block) -> str``: its part of many games' ledger, engine.ledger;
  the ledger's CSV is the shared client.ledger's), or None when the kind has no audit;
* ``EXAMPLES``: lines for ``devil --help``.

and the modules those name, plus ``render`` (the text renderer: client.output.renderer_for).
The shared CLI (client.cli) finds them through these functions; it never names a kind.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Callable

from engine.errors import UsageError
from engine.games import KINDS, players_text


def manifest(kind: str) -> ModuleType:
    """The manifest package ``client.games.<kind>``; UsageError for an unknown kind."""
    if kind not in KINDS:
        raise UsageError(f"unknown game kind {kind!r} (known: {', '.join(sorted(KINDS))})")
    return importlib.import_module(f"{__name__}.{kind}")


def part(kind: str, name: str) -> ModuleType:
    """The module ``client.games.<kind>.<name>`` (e.g. ``render``); a stream that is not a
    game (engine.game.STREAMS: a tournament) has only its renderer, client.<kind>_render."""
    from engine.game import STREAMS

    if kind in STREAMS and name == "render":
        return importlib.import_module(f"client.{kind}_render")
    manifest(kind)
    return importlib.import_module(f"{__name__}.{kind}.{name}")


def kind_commands() -> dict[str, str]:
    """Every kind's top-level commands: ``{name: "module:attr"}``."""
    out: dict[str, str] = {}
    for kind in KINDS:
        for name, spec in getattr(manifest(kind), "COMMANDS", {}).items():
            if name in out:
                raise RuntimeError(f"two game kinds define the command {name!r}")
            out[name] = spec
    return out


def group_commands(group: str) -> dict[str, str]:
    """The subcommands of the shared group ``group``, one per kind that has one:
    ``{kind: "module:attr"}``."""
    out = {}
    for kind in KINDS:
        spec = getattr(manifest(kind), "GROUP_COMMANDS", {}).get(group)
        if spec is not None:
            out[kind] = spec
    return out


def audit_renderer(kind: str) -> ModuleType | None:
    """The module rendering ``kind``'s audit (``text``, ``totals_text``), or None if it has
    none."""
    name = getattr(manifest(kind), "AUDIT", None)
    return None if name is None else importlib.import_module(name)


def described(kind: str):
    """A decorator for a kind's command: its docstring (the command's help) with ``{title}``
    and ``{players}`` ("2 to 6") filled in from the registry's light copy of the kind's RULES
    (:data:`engine.games.KINDS`, :data:`engine.games.PLAYERS`), so no help text writes them
    again.  Put it below the click decorators (click reads the docstring)."""
    facts = {"{title}": KINDS[kind], "{players}": players_text(kind)}

    def fill(function):
        text = function.__doc__
        for key, value in facts.items():
            text = text.replace(key, value)
        function.__doc__ = text
        return function
    return fill


def examples() -> list[str]:
    """Every kind's example lines for ``devil --help``."""
    return [line for kind in KINDS for line in getattr(manifest(kind), "EXAMPLES", [])]


def describer_table() -> tuple[dict, "Callable[[type], Callable]"]:
    """``(table, describes)`` for a kind's ``describe`` module: ``table`` maps an event class
    to its describer, filled by the ``@describes(EventClass)`` decorator on each."""
    table: dict = {}

    def describes(event_type: type):
        def register(function):
            table[event_type] = function
            return function
        return register

    return table, describes
