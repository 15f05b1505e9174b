"""A digital game's chance after a correction (DESK-6): the stream goes on, it never rewinds.

A correction returns the game to an earlier state, and the kind's labels for its draws are
counted in that state (the coal number, the deal): without more, the draw after a correction
would be the voided one again, and a correction would be a way to choose a draw.  So after
the n-th correction (the ``epoch`` recorded in the ``corrected`` event) every label is
prefixed with ``("epoch", n)``; before the first correction labels are unchanged.  Whatever a
chance (:class:`engine.chance.SeededChance`, or the strict refold's scripted answers) derives
from a label, it derives from the prefixed label: docs/log-format.md gives the recipe.
"""

from __future__ import annotations

from typing import Any


class Continued:
    """``chance`` with every label prefixed by ``("epoch", epoch)``; the same interface
    (``randbelow``, ``shuffled``, ``pick``, ``reveal``, ``commitment``)."""

    def __init__(self, chance, epoch: int):
        self._chance = chance
        self._epoch = epoch

    def randbelow(self, n: int, *label: Any) -> int:
        return self._chance.randbelow(n, "epoch", self._epoch, *label)

    def shuffled(self, items, *label: Any) -> list:
        return self._chance.shuffled(items, "epoch", self._epoch, *label)

    def pick(self, counts, *label: Any) -> int:
        return self._chance.pick(counts, "epoch", self._epoch, *label)

    @property
    def base(self):
        """The chance without the epoch (a duplicate round's order ignores corrections)."""
        return self._chance

    def __getattr__(self, name: str):  # reveal, commitment, seed ...
        return getattr(self._chance, name)


def continued(chance, epoch: int):
    """``chance`` as a game draws from it after ``epoch`` corrections (itself for 0 or None)."""
    if chance is None or not epoch:
        return chance
    return Continued(chance, epoch)
