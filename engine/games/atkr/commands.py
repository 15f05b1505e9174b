"""What a player (or the referee) asks of an Auf Teufel komm raus game.

As JSON: ``{"type": "bet", "player": "Anna", "amount": 60}``,
``{"type": "draw", "player": "Anna"}`` (digital), ``{"type": "draw", "player": "Anna",
"coal": 25}`` (physical; ``"devil"`` or 0 for a devil), ``{"type": "stop", "player": "Anna"}``.
"""

from __future__ import annotations

from typing import ClassVar


from ...codec import Registry, tagged


@tagged
class Bet:
    """Bet ``amount`` (a multiple of 10, 0 to all of one's money) in phase 1 (ATKR-3.1)."""

    TYPE: ClassVar[str] = "bet"
    player: str
    amount: int


@tagged
class Draw:
    """Draw one coal (ATKR-4.2).  ``coal`` is given only, and always, in a physical game
    (ATKR-9.3): 10, 20, 25, 50, 75, 100, or 0 for a devil.  ``reporter``: who reports the coal
    in a physical game (a referee's name, recorded in the event; refused in a digital game)."""

    TYPE: ClassVar[str] = "draw"
    OMIT_NONE: ClassVar[tuple[str, ...]] = ("reporter",)
    player: str
    coal: int | None = None
    reporter: str | None = None


@tagged
class Stop:
    """Stop drawing and lay out the coals (ATKR-4.3)."""

    TYPE: ClassVar[str] = "stop"
    player: str


COMMANDS = Registry("atkr command", [Bet, Draw, Stop])
