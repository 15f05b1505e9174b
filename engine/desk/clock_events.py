"""The clocks' two events (engine.clock, CLOCK-1 to CLOCK-9), registered with the desk's
(engine.desk.events.DESK_CLASSES): public, in every kind's log, never given to a kind's
``evolve``."""

from __future__ import annotations

from typing import ClassVar

from ..codec import tagged

#: what a timeout does (CLOCK-5, CLOCK-6)
ACT, FLAG = "act", "flag"


@tagged
class ClockSet:
    """The game's time control (CLOCK-1), recorded once, as the command right after the game's
    first: ``base`` ms on each seat's clock (None: no total clock), ``increment`` ms added after
    each of a seat's moves (Fischer, CLOCK-3), ``move`` ms for any one move (None: no limit per
    move, CLOCK-4), ``on_timeout``: ``"act"`` (the kind's timeout action, CLOCK-5) or
    ``"flag"`` (CLOCK-6)."""

    TYPE: ClassVar[str] = "clock_set"
    base: int | None
    increment: int
    move: int | None
    on_timeout: str


@tagged
class ClockExpired:
    """Seat ``seat``'s time ran out at ``due`` (ms since the header's ``created``; the record
    is stamped at or after it): ``limit`` is ``"clock"`` (its remaining time, CLOCK-3) or
    ``"move"`` (the move time, CLOCK-4); ``action`` is the game's ``on_timeout``.  With
    ``"act"`` the kind's timeout command's events follow in the same command (CLOCK-5)."""

    TYPE: ClassVar[str] = "clock_expired"
    seat: int
    limit: str
    action: str
    due: int


CLOCK_CLASSES = frozenset({ClockSet, ClockExpired})
