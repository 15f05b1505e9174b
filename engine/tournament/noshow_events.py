"""The events and commands of check-in, forfeits and the organiser's overrides (TOUR-7;
docs/tournaments.md, "No-shows, forfeits and overrides").  Registered in
:data:`engine.tournament.events.EVENTS` and ``COMMANDS``; decided in
:mod:`engine.tournament.noshow`."""

from __future__ import annotations

from typing import ClassVar

from ..codec import tagged


# -- events ----------------------------------------------------------------------------------
@tagged
class PlayerCheckedIn:
    """``player`` is present for round ``round`` (the next to be paired; TOUR-7.1).  A check-in
    counts for that round only."""

    TYPE: ClassVar[str] = "player_checked_in"
    player: str
    round: int


@tagged
class PlayerForfeited:
    """``player`` forfeits their seat at table ``table`` of round ``round`` (TOUR-7.2, 7.3),
    for ``reason``.  ``remade``: the table is made again without them (its game had no command
    yet; its old game is detached and stays in the store, attached to nothing); otherwise
    ``bot`` (a bot name of the game's kind) plays their seat from then on, recorded in the
    game's log (``seat_replaced``, DESK-7).  Either way they take the points of the table's
    last place (TOUR-7.3)."""

    TYPE: ClassVar[str] = "player_forfeited"
    round: int
    table: int
    player: str
    reason: str
    remade: bool
    bot: str = ""


@tagged
class SeatsSwapped:
    """The organiser swaps the seats of ``first`` and ``second`` in round ``round``
    (TOUR-7.4), for ``reason``; the tables they sit at lose their games (re-created)."""

    TYPE: ClassVar[str] = "seats_swapped"
    round: int
    first: str
    second: str
    reason: str


@tagged
class RoundUnpaired:
    """The organiser undoes round ``round``'s pairing (TOUR-7.5), for ``reason``: its tables,
    byes and attached games are gone from the stream's state (the games stay in the store);
    the round is paired again with ``pair``."""

    TYPE: ClassVar[str] = "round_unpaired"
    round: int
    reason: str


# -- commands --------------------------------------------------------------------------------
@tagged
class CheckIn:
    """Check ``player`` in for the next round to be paired (TOUR-7.1)."""

    TYPE: ClassVar[str] = "checkin"
    player: str


@tagged
class Forfeit:
    """``player`` forfeits their seat in the open round (TOUR-7.2, 7.3): ``remake`` the table
    without them, or hand the seat to ``bot``.  The organiser (engine.tournament.noshow_ops)
    chooses from the table's game."""

    TYPE: ClassVar[str] = "forfeit"
    player: str
    reason: str
    remake: bool
    bot: str = ""


@tagged
class Swap:
    """Swap the seats of ``first`` and ``second`` in the open round (TOUR-7.4)."""

    TYPE: ClassVar[str] = "swap"
    first: str
    second: str
    reason: str


@tagged
class Unpair:
    """Undo round ``round``'s pairing (TOUR-7.5)."""

    TYPE: ClassVar[str] = "unpair"
    round: int
    reason: str


EVENT_CLASSES = [PlayerCheckedIn, PlayerForfeited, SeatsSwapped, RoundUnpaired]
COMMAND_CLASSES = [CheckIn, Forfeit, Swap, Unpair]
