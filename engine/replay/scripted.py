"""Chance for the strict refold of a game whose seed is still secret: the recorded draws
answered back, each checked to have been possible."""

from __future__ import annotations


class ChanceMismatch(Exception):
    """A recorded chance answer that could not have been drawn (e.g. no such coal left)."""


class ScriptedChance:
    """Chance that answers from a list of recorded answers, checking each one was possible.

    Used where the seed is not known (a game in progress): the draws are checked to be
    possible, not re-derived.  ``reveal`` returns what the log revealed (or raises if nothing).
    """

    def __init__(self, answers: list, commitment: str | None, revealed: dict | None = None):
        self.answers = list(answers)
        self.commitment = commitment
        self._revealed = revealed

    def _next(self):
        if not self.answers:
            raise ChanceMismatch("the command drew more by chance than the log records")
        return self.answers.pop(0)

    def randbelow(self, n: int, *label) -> int:
        value = self._next()
        if not (type(value) is int and 0 <= value < n):
            raise ChanceMismatch(f"{value!r} cannot be drawn below {n} "
                                 f"({'|'.join(map(str, label))})")
        return value

    def pick(self, counts, *label) -> int:
        index = self._next()
        if not (type(index) is int and 0 <= index < len(counts) and counts[index] > 0):
            raise ChanceMismatch(f"that piece was no longer there to draw "
                                 f"({'|'.join(map(str, label))})")
        return index

    def shuffled(self, items, *label) -> list:
        perm = self._next()
        if sorted(perm) != list(range(len(items))):
            raise ChanceMismatch(f"not a shuffle of {len(items)} items "
                                 f"({'|'.join(map(str, label))})")
        return [items[i] for i in perm]

    def reveal(self) -> dict:
        if self._revealed is None:
            raise ChanceMismatch("the game ends here but its seed was never revealed")
        return dict(self._revealed)
