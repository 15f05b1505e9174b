"""The facts of an Auf Teufel komm raus game (rules: docs/rules/atkr.md).

Seats are 0-based indices in seat order.  Money is an integer, a multiple of 10.  A coal is
its value (10, 20, 25, 50, 75, 100) or 0 for a devil.  Payout events name their rule id.
"""

from __future__ import annotations

from typing import ClassVar


from ...codec import Registry, tagged

DEVIL = 0
#: An account that is not a seat, in payer fields.
BANK = -1


@tagged
class GameCreated:
    """The first event: players (seat order), start player, every option and the seed commitment.

    ``track`` is the list of labelled track values after the lowest space (ATKR-6.1);
    ``track_low`` the upper bound of the lowest space (50 in 0-50).  ``ring`` is the furnace's
    ring capacity (ATKR-7.2).  ``commitment`` is None in a physical game (ATKR-9.3).
    ``start_money`` is 200 (ATKR-1.3); ``goal`` 1600 (ATKR-8.1); ``first_drawn`` tells whether the
    start player was drawn at random (ATKR-1.7).
    """

    TYPE: ClassVar[str] = "game_created"
    players: list[str]
    first: int
    first_drawn: bool
    physical: bool
    ring: int
    track_low: int
    track: list[int]
    start_money: int
    goal: int
    commitment: str | None
    rules: str = "atkr-2013"
    #: the seed was chosen by whoever created the game (reproducible, so predictable to anyone
    #: who knows it), not drawn in secret; set by the service, shown to everyone (issue 9.7)
    seed_chosen: bool = False
    #: True: coals drawn in the shared furnace order of a tournament's duplicate round
    #: (engine.games.atkr.duplicate; TOUR-11), not at random; None (left out of the map, so
    #: a log recorded before keeps its bytes): drawn at random
    duplicate: bool | None = None
    OMIT_NONE: ClassVar[tuple[str, ...]] = ("duplicate",)


@tagged
class RoundStarted:
    """A round begins with ``start`` as start player (ATKR-2, ATKR-2.1)."""

    TYPE: ClassVar[str] = "round_started"
    round: int
    start: int


@tagged
class BetPlaced:
    """A seat's secret bet moves ``amount`` from its money to the table (ATKR-3.1, 3.5).

    Seen only by that seat and the referee; for everyone else ``amount`` is None (ATKR-3.2).
    """

    TYPE: ClassVar[str] = "bet_placed"
    seat: int
    amount: int | None


@tagged
class BetsRevealed:
    """All bets are in and shown together (ATKR-3.2); ``bets`` in seat order (0 = no bet)."""

    TYPE: ClassVar[str] = "bets_revealed"
    bets: list[int]


@tagged
class CoalDrawn:
    """``seat`` drew ``coal`` from the furnace (ATKR-4.2); 0 is a devil (a bust, ATKR-4.4).

    ``reporter``: in a physical game, who reported the coal (the referee's name, from a named
    referee token or given at the command line; ATKR-9.3); None when no name was given, and
    always in a digital game, where the furnace draws (left out of the map while None)."""

    TYPE: ClassVar[str] = "coal_drawn"
    OMIT_NONE: ClassVar[tuple[str, ...]] = ("reporter",)
    seat: int
    coal: int
    reporter: str | None = None


@tagged
class Stopped:
    """``seat`` stopped and laid out its coals (ATKR-4.3)."""

    TYPE: ClassVar[str] = "stopped"
    seat: int


@tagged
class PactPaid:
    """``payer`` (a seat, or -1 for the bank) pays ``amount`` to pact holder ``to`` after
    ``drawer`` drew a devil (ATKR-4.5, ATKR-6.5)."""

    TYPE: ClassVar[str] = "pact_paid"
    drawer: int
    payer: int
    to: int
    amount: int
    rule: str = "ATKR-6.5"


@tagged
class BetWon:
    """``seat``'s bet won: its ``stake`` comes back from the table and the bank pays ``win``
    (the stake once, ATKR-5.3, or twice for the highest bet, ATKR-5.5)."""

    TYPE: ClassVar[str] = "bet_won"
    seat: int
    stake: int
    win: int
    rule: str


@tagged
class BetLost:
    """``seat``'s ``stake`` goes from the table to the bank (ATKR-5.4)."""

    TYPE: ClassVar[str] = "bet_lost"
    seat: int
    stake: int
    rule: str = "ATKR-5.4"


@tagged
class PrizePaid:
    """The bank pays ``seat`` a prize: highest total (ATKR-5.6) or most coals (ATKR-5.7)."""

    TYPE: ClassVar[str] = "prize_paid"
    seat: int
    amount: int
    rule: str


@tagged
class PawnsPlaced:
    """Phase 4 (ATKR-6.1, 6.2): each seat's track space index and the seats now in the pact.

    Space 0 is the lowest (e.g. 0-50); even indices are labelled spaces, odd ones the
    in-between spaces.  ``pact_money`` is the money of each pact holder, in ``pacts`` order
    (public, ATKR-6.4).
    """

    TYPE: ClassVar[str] = "pawns_placed"
    spaces: list[int]
    pacts: list[int]
    pact_money: list[int]


@tagged
class FurnaceRefilled:
    """All 48 coals go back into the furnace (ATKR-7.1); ``left`` coals were in it."""

    TYPE: ClassVar[str] = "furnace_refilled"
    left: int


@tagged
class GameEnded:
    """The game is over (ATKR-8): ``winners`` (seats tied for the most money share the win),
    each seat's final ``money``, and the seed revealed (``None`` in a physical game)."""

    TYPE: ClassVar[str] = "game_ended"
    winners: list[int]
    money: list[int]
    seed: int | None
    salt: str | None


EVENTS = Registry("atkr event", [GameCreated, RoundStarted, BetPlaced, BetsRevealed, CoalDrawn,
                                 Stopped, PactPaid, BetWon, BetLost, PrizePaid, PawnsPlaced,
                                 FurnaceRefilled, GameEnded])
