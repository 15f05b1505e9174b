"""The desk's events (docs/log-format.md, "Events of the referee's desk"), in every kind's log.

All of them are public: every seat's stream carries them whole.
"""

from __future__ import annotations

from typing import Any, ClassVar


from ..codec import tagged
from .clock_events import CLOCK_CLASSES


@tagged
class Corrected:
    """The referee returns the game to its state after record ``to`` (DESK-2).

    The game's records with ``to < seq <`` this record's seq that no earlier correction voided
    are voided by this one.  ``reason``: why (shown with every voided record).  ``epoch``: how
    many corrections the log holds up to and including this one (1 for the first); a digital
    game's later draws are labelled with it (DESK-6).
    """

    TYPE: ClassVar[str] = "corrected"
    to: int
    reason: str
    epoch: int


@tagged
class DisputeRaised:
    """Seat ``seat`` disputes record ``about`` (DESK-4); ``dispute`` numbers the log's
    disputes from 1; ``text`` is the complaint."""

    TYPE: ClassVar[str] = "dispute_raised"
    dispute: int
    about: int
    seat: int
    text: str


@tagged
class RulingGiven:
    """The referee's ruling on dispute ``dispute`` (DESK-5): ``upheld`` or rejected, with a
    ``reason``; ``to`` is the record a correction returns the game to (a ``corrected`` record
    follows in the same command), or None."""

    TYPE: ClassVar[str] = "ruling_given"
    dispute: int
    upheld: bool
    reason: str
    to: int | None = None


@tagged
class SeatReplaced:
    """The referee hands seat ``seat`` to bot ``bot`` (a bot name of the game's kind,
    engine.bots) from this record on, with a ``reason`` (DESK-7): the service plays that
    seat's commands whenever it may act, from the seat's own view (engine.service.autoplay).
    A tournament's forfeit records it (TOUR-7.3)."""

    TYPE: ClassVar[str] = "seat_replaced"
    seat: int
    bot: str
    reason: str


@tagged
class Adjudicated:
    """The referee ends the game at time (DESK-8; a tournament's ``adjudicate``, TOUR-8.2):
    nothing more is played, and the game is finished with the result its kind's
    ``adjudicated`` hook gives (engine.games.<kind>.placings).  ``reason``: why; ``rule``: the
    rule that places the players (the kind's house rule id, docs/house-rules.md)."""

    TYPE: ClassVar[str] = "adjudicated"
    reason: str
    rule: str


#: the desk's event classes and their tags; the clocks' (engine.clock: ``clock_set``,
#: ``clock_expired``, CLOCK-1 to 9) are the service's acts and fold the same way
DESK_CLASSES: frozenset[Any] = frozenset(
    {Corrected, DisputeRaised, RulingGiven, SeatReplaced, Adjudicated, *CLOCK_CLASSES})
DESK_TYPES = frozenset(cls.TYPE for cls in DESK_CLASSES)
CORRECTED = Corrected.TYPE


def register(registry) -> None:
    """Add the desk's event classes to a kind's event :class:`engine.codec.Registry` (called
    for every kind by :class:`engine.game.GameRules`), so every reader of a log decodes and
    encodes them.  ValueError if the kind already uses one of the desk's tags for its own."""
    for cls in DESK_CLASSES:
        known = registry.by_type.get(cls.TYPE)
        if known is None:
            registry.by_type[cls.TYPE] = cls
        elif known is not cls:
            raise ValueError(f"{registry.name}: the tag {cls.TYPE!r} belongs to the referee's "
                             "desk (engine.desk)")
