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
    ``"flag"`` (CLOCK-6); ``deadline``: ms since the header's ``created`` when a tournament
    round's time runs out (CLOCK-10, TOUR-8.5: the game is then adjudicated), None (left out of
    the map, so older logs keep their bytes) for none.  A game may have a deadline and neither
    a base nor a move time."""

    TYPE: ClassVar[str] = "clock_set"
    OMIT_NONE: ClassVar[tuple[str, ...]] = ("deadline",)
    base: int | None
    increment: int
    move: int | None
    on_timeout: str
    deadline: int | None = None


@tagged
class ClockExpired:
    """Seat ``seat``'s time ran out at ``due`` (ms since the header's ``created``; the record
    is stamped at or after it): ``limit`` is ``"clock"`` (its remaining time, CLOCK-3) or
    ``"move"`` (the move time, CLOCK-4); ``action`` is the game's ``on_timeout``.  With
    ``"act"`` the kind's timeout command's events follow in the same command (CLOCK-5).
    ``limit`` ``"round"``: the tournament round's time ran out (CLOCK-10; ``seat`` -1, ``action``
    ``"adjudicate"``, ``due`` the control's ``deadline``), followed in the same command by the
    desk's ``adjudicated`` (DESK-8) by the kind's house rule."""

    TYPE: ClassVar[str] = "clock_expired"
    seat: int
    limit: str
    action: str
    due: int


CLOCK_CLASSES = frozenset({ClockSet, ClockExpired})
