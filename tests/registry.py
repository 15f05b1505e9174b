"""The registered game kinds, for the suites that run once per game.

The one place the tests learn which games exist: if the registry moves, change this import.
A kind's own test folder may list the new-game options the suites also play (its variants):
``tests/<kind>/setups.py`` with ``SETUPS = {name: options}`` (options without ``players``).
"""

import importlib

from engine.game import KINDS, rules_for

__all__ = ["kinds", "rules_for", "setups"]


def kinds() -> list[str]:
    """Every registered game kind, sorted (stable test ids)."""
    return sorted(KINDS)


def setups() -> list[tuple[str, str, dict]]:
    """``(kind, name, options)`` for every kind's plain game (name ``""``, no options) and
    every setup its ``tests/<kind>/setups.py`` lists, sorted by kind (stable test ids)."""
    out = []
    for kind in kinds():
        out.append((kind, "", {}))
        try:
            module = importlib.import_module(f".{kind}.setups", __package__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__package__}.{kind}.setups":
                raise
            continue
        out += [(kind, name, dict(options)) for name, options in module.SETUPS.items()]
    return out
