"""Chance for digital games: a secret seed, its public commitment, and draws derived from it.

The seed is fixed when the game is created; the first event publishes
``commitment = sha256("devil-commit|" + salt + "|" + str(seed))`` (hex) and the last event
reveals ``seed`` and ``salt``.  Every random choice is derived from the seed and a label that
says which choice it is, so ``devil verify`` can re-derive every draw and nobody, the server
included, can steer one after the start.

``randbelow(n, *label)`` takes the first 8 bytes of ``sha256(str(seed) + "|" + "|".join(label))``
as a big-endian integer modulo ``n``.  (The modulo bias is below n / 2**64, under 3e-18 for the
largest n used here.)  This exact recipe is documented in docs/log-format.md so that another tool
can re-derive the draws.

In a game with seat entropy (engine.entropy) the seed material is not ``str(seed)`` but
:func:`mixed_seed` of the seed and every seat's value: the same recipe with another prefix.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any, Sequence


def commitment(seed: int, salt: str) -> str:
    """The public commitment (64 hex digits) to ``seed`` with ``salt`` (32 hex digits)."""
    return hashlib.sha256(f"devil-commit|{salt}|{seed}".encode()).hexdigest()


def mixed_seed(seed: int, values: Sequence[str]) -> str:
    """The seed material of a game with seat entropy (64 hex digits):
    ``sha256("devil-mix|" + str(seed) + "|" + values[0] + "|" + values[1] ...)``."""
    return hashlib.sha256(("devil-mix|" + str(seed) + "".join("|" + v for v in values))
                          .encode()).hexdigest()


class SeededChance:
    """Deterministic chance from a seed.  ``seed`` is a non-negative int; ``salt`` a hex string;
    ``seats``: every seat's value in a game with seat entropy (draws then derive from
    :func:`mixed_seed`), None for a game without."""

    def __init__(self, seed: int, salt: str, seats: Sequence[str] | None = None):
        if not 0 <= seed < 2**64:
            raise ValueError("a seed is a whole number from 0 to 2**64 - 1")
        self.seed = seed
        self.salt = salt
        self.seats = None if seats is None else list(seats)
        self._prefix = (str(seed) if seats is None else mixed_seed(seed, seats)).encode()

    @classmethod
    def fresh(cls, seed: int | None = None) -> "SeededChance":
        """A new chance: ``seed`` as given (for reproducible games) or 64 random bits; a random
        salt."""
        if seed is None:
            seed = secrets.randbits(64)
        return cls(seed, secrets.token_hex(16))

    @property
    def commitment(self) -> str:
        """See :func:`commitment`."""
        return commitment(self.seed, self.salt)

    def reveal(self) -> dict[str, Any]:
        """What the last event publishes: ``{"seed": int, "salt": str}``."""
        return {"seed": self.seed, "salt": self.salt}

    def randbelow(self, n: int, *label: Any) -> int:
        """An integer in ``[0, n)`` derived from the seed and ``label``."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        text = "|".join(str(part) for part in label).encode()
        digest = hashlib.sha256(self._prefix + b"|" + text).digest()
        return int.from_bytes(digest[:8], "big") % n

    def shuffled(self, items: Sequence[Any], *label: Any) -> list[Any]:
        """A Fisher-Yates shuffle of ``items`` (a new list), step i using ``label + (i,)``."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1, *label, i)
            out[i], out[j] = out[j], out[i]
        return out

    def pick(self, counts: Sequence[int], *label: Any) -> int:
        """The index of the kind drawn from a bag holding ``counts[k]`` pieces of kind k.

        Raises ValueError when the bag is empty.
        """
        total = sum(counts)
        r = self.randbelow(total, *label)
        for index, count in enumerate(counts):
            if r < count:
                return index
            r -= count
        raise AssertionError("unreachable")  # pragma: no cover
