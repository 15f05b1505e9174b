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
    OMIT_NONE: ClassVar[tuple[str, ...]] = ("dispute",)
    to: int
    reason: str
    epoch: int
    #: the dispute this correction answers (DESK-10.2), or None (left out of the map)
    dispute: int | None = None


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
    follows in the same command), or None.  ``remedy`` (DESK-10.1): what an upheld ruling
    does about it: ``"correct"`` (the correction to ``to``), ``"amend"`` (an amendment citing
    the dispute follows, DESK-9) or ``"none"`` (no change: the reason says why); None for a
    rejected dispute, and for an upheld one recorded before DESK-10 (left out of the map)."""

    TYPE: ClassVar[str] = "ruling_given"
    OMIT_NONE: ClassVar[tuple[str, ...]] = ("remedy",)
    dispute: int
    upheld: bool
    reason: str
    to: int | None = None
    remedy: str | None = None


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


@tagged
class SeatReturned:
    """The referee returns seat ``seat`` to its player (DESK-11, ``devil replace GAME SEAT
    --back``): the bot that played it since ``seat_replaced`` stops; ``reason``: why."""

    TYPE: ClassVar[str] = "seat_returned"
    seat: int
    reason: str


@tagged
class Amended:
    """The referee amends one recorded fact (DESK-9): the game command whose records hold
    record ``about`` (it begins after record ``to``) is replaced by ``command`` (the kind's
    command as a tagged map), for ``reason``.  Like a correction to ``to``, this voids every
    game record in force from ``to + 1`` on (``epoch`` counts the corrections and amendments
    so far, DESK-6); the records that follow it in the same command are the replacement's
    events and then each later command re-applied, in order: ``reapplied`` lists ``[of,
    at]``, the first record of the original command and the first of its re-applied records
    (the replacement itself begins at the record after this one).  ``voided`` lists ``[of,
    seat]`` of each later command that no longer fits (seat -1: the referee's), ``why`` the
    refusal of each (a rule id first).  ``dispute``: the dispute it answers (DESK-10.2).
    Every viewer sees it, the replacement and the refusals of other seats' commands reduced
    (engine.desk.amend.shown_to)."""

    TYPE: ClassVar[str] = "amended"
    OMIT_NONE: ClassVar[tuple[str, ...]] = ("dispute",)
    about: int
    to: int
    command: dict[str, Any]
    reason: str
    epoch: int
    reapplied: list[list[int]]
    voided: list[list[int]]
    why: list[str]
    #: the seat whose command was amended (-1: the referee's), who alone sees the
    #: replacement whole (engine.desk.amend.shown_to, DESK-9.5)
    seat: int
    dispute: int | None = None


from .takeback import EVENTS as TAKEBACK_EVENTS  # noqa: E402 (DESK-12: its own module)

#: the desk's event classes and their tags; the clocks' (engine.clock: ``clock_set``,
#: ``clock_expired``, CLOCK-1 to 9) are the service's acts and fold the same way
DESK_CLASSES: frozenset[Any] = frozenset(
    {Corrected, DisputeRaised, RulingGiven, SeatReplaced, Adjudicated, SeatReturned, Amended,
     *TAKEBACK_EVENTS, *CLOCK_CLASSES})
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
