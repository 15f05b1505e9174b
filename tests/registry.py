"""The registered game kinds, for the suites that run once per game.

The one place the tests learn which games exist: if the registry moves, change this import.
"""

from engine.game import KINDS, rules_for

__all__ = ["kinds", "rules_for"]


def kinds() -> list[str]:
    """Every registered game kind, sorted (stable test ids)."""
    return sorted(KINDS)
