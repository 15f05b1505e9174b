"""The events and commands of a tournament stream (kind ``tournament``; docs/tournaments.md).

Points are exact fractions written as text (``"6"``, ``"5/2"``, ``"-1"``): players tied for
places share those places' points equally, which can give halves or thirds.  Players are
named by their registered names; tables are numbered from 1 within a round.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from ..codec import Registry, tagged
from . import noshow_events as _noshow


@tagged
class PairedTable:
    """One table of a round: ``players`` in seat order, ``first`` the start player."""

    players: list[str]
    first: str


# -- events ----------------------------------------------------------------------------------
@tagged
class TournamentCreated:
    """The first event: every setting of the event.

    ``game``: the game kind; ``options``: the games' options (every table's game must have
    exactly these); ``format``: ``swiss`` or ``fixed``; ``points``: points by place (place 1
    first; places past the end score 0); ``bye_points``: a bye's points (fraction text);
    ``rounds``; ``table_min``/``table_max``: allowed table sizes; ``tiebreaks``: their order
    (``opponents``, ``measure`` (money or score), ``wins``; a seeded draw always last);
    ``players``: registered in order; ``seed``: the public seed of every draw (round 1's
    order, seats, first players, the final draw tiebreak); ``attributes``: name -> the
    player's attributes from a players file's further columns (``{"club": "Köln", "rating":
    "1500"}``, text, in the file's column order; only players who have any, in registration
    order; a stream recorded before attributes existed has none); ``final_table``: the
    players at each final table after the Swiss rounds (0: no final; TOUR-10),
    ``final_tables``: how many final tables (a top cut); ``duplicate``: every table of a
    round draws from the round's committed furnace order (TOUR-11); ``check_in``: only
    checked-in players are paired (TOUR-7.1).  ``pairing``: the swiss algorithm,
    ``score-groups`` (TOUR-2.5 to 2.9, engine.tournament.swiss) or ``classic``
    (TOUR-2.10, engine.tournament.pairing: every stream recorded before the field existed);
    ``allow_repeats``: score-groups does not avoid repeated opponents; ``avoid_same_club``:
    round 1 avoids two players of one club at a table (TOUR-2.9)."""

    TYPE: ClassVar[str] = "tournament_created"
    name: str
    game: str
    options: dict[str, Any]
    format: str
    points: list[int]
    bye_points: str
    rounds: int
    table_min: int
    table_max: int
    tiebreaks: list[str]
    players: list[str]
    seed: int
    attributes: dict[str, dict[str, str]] = attrs.field(factory=dict)
    #: only checked-in players are paired (TOUR-7.1); a stream recorded before has False
    check_in: bool = False
    final_table: int = 0
    final_tables: int = 1
    duplicate: bool = False
    pairing: str = "classic"
    allow_repeats: bool = False
    avoid_same_club: bool = False


@tagged
class PlayerAdded:
    """A late registration: ``player`` plays from round ``round`` on."""

    TYPE: ClassVar[str] = "player_added"
    player: str
    round: int


@tagged
class PlayerDropped:
    """``player`` leaves: not paired from round ``round`` on; their results stay."""

    TYPE: ClassVar[str] = "player_dropped"
    player: str
    round: int
    reason: str


@tagged
class RoundPaired:
    """Round ``round``'s seating: ``tables`` (table 1 first), ``byes`` (players not seated, each
    scoring the bye points), ``repeats`` (pairs at a table who met before); ``furnace``: in a
    duplicate tournament, the commitment to the round's furnace seed (64 hex; TOUR-11.2)."""

    TYPE: ClassVar[str] = "round_paired"
    round: int
    tables: list[PairedTable]
    byes: list[str]
    repeats: int
    furnace: str = ""


@tagged
class GameAttached:
    """Table ``table`` of round ``round`` is played as ``game`` (its log's header ``created``,
    ms since 1970)."""

    TYPE: ClassVar[str] = "game_attached"
    round: int
    table: int
    game: str
    created: int


@tagged
class ResultRecorded:
    """The result of table ``table``'s game, read from its verified, finished log: ``seq`` and
    ``link`` (hex) are the log's head; per seat (table order): ``places``, ``values`` (the
    ``measure``, e.g. final money), ``points`` (fraction text); ``winners`` (names); ``share``
    and ``scored`` say how the points came from the places (shared ties; the game's own
    points)."""

    TYPE: ClassVar[str] = "result_recorded"
    round: int
    table: int
    game: str
    seq: int
    link: str
    places: list[int]
    values: list[int]
    winners: list[str]
    points: list[str]
    measure: str
    share: bool
    scored: bool


@tagged
class RoundClosed:
    """Round ``round`` is over: every table has its result.  A duplicate round reveals its
    furnace seed and salt (``furnace_seed``, ``furnace_salt``; 0 and "" otherwise: TOUR-11.3)."""

    TYPE: ClassVar[str] = "round_closed"
    round: int
    furnace_seed: int = 0
    furnace_salt: str = ""


@tagged
class PointsAdjusted:
    """A penalty (``points`` below 0) or a correction by the organiser, with its reason; never
    an edit of a result.  ``round``: the round it was given in."""

    TYPE: ClassVar[str] = "points_adjusted"
    player: str
    points: str
    kind: str
    reason: str
    round: int


@tagged
class TournamentFinished:
    """The last round is closed: ``ranking`` (names, first place first)."""

    TYPE: ClassVar[str] = "tournament_finished"
    ranking: list[str]


@tagged
class TournamentPublished:
    """The organiser opened (``public`` true) or closed the tournament's spectator link: while
    open, anyone may follow every table's game as its spectator may, with no token (TOUR-12.1;
    engine.tournament.printing)."""

    TYPE: ClassVar[str] = "tournament_published"
    public: bool


EVENTS = Registry("tournament event", [
    TournamentCreated, PlayerAdded, PlayerDropped, RoundPaired, GameAttached, ResultRecorded,
    RoundClosed, PointsAdjusted, TournamentFinished, TournamentPublished,
    *_noshow.EVENT_CLASSES])


# -- commands --------------------------------------------------------------------------------
@tagged
class Add:
    """Register ``player`` late (from the next round)."""

    TYPE: ClassVar[str] = "add"
    player: str


@tagged
class Drop:
    """``player`` leaves the event (from the next round)."""

    TYPE: ClassVar[str] = "drop"
    player: str
    reason: str = ""


@tagged
class Pair:
    """Pair round ``round``: ``seating`` None (swiss: computed), or the tables in seat order
    (fixed format; seat 0 starts) with ``byes`` the players left out; ``furnace``: a
    duplicate round's commitment (TOUR-11.2)."""

    TYPE: ClassVar[str] = "pair"
    round: int
    seating: list[list[str]] | None = None
    byes: list[str] | None = None
    furnace: str | None = None


@tagged
class Attach:
    """Play table ``table`` of round ``round`` as ``game`` (log created at ``created`` ms)."""

    TYPE: ClassVar[str] = "attach"
    round: int
    table: int
    game: str
    created: int


@tagged
class RecordResult:
    """Record table ``table``'s result: the log's head (``seq``, ``link`` hex) and the game's
    placings (GameRules.placings, seats in table order)."""

    TYPE: ClassVar[str] = "record"
    round: int
    table: int
    game: str
    seq: int
    link: str
    places: list[int]
    values: list[int]
    winners: list[str]
    measure: str
    share: bool
    points: list[int] | None = None


@tagged
class Close:
    """Close round ``round``; a duplicate round reveals its furnace seed and salt (TOUR-11.3)."""

    TYPE: ClassVar[str] = "close"
    round: int
    furnace_seed: int | None = None
    furnace_salt: str | None = None


@tagged
class Adjust:
    """A penalty or correction of ``points`` (fraction text) for ``player``, with a reason."""

    TYPE: ClassVar[str] = "adjust"
    player: str
    points: str
    reason: str
    kind: str = "penalty"


@tagged
class Publish:
    """Open (``public`` true) or close the tournament's spectator link (TOUR-12.1)."""

    TYPE: ClassVar[str] = "publish"
    public: bool = True


COMMANDS = Registry("tournament command", [Add, Drop, Pair, Attach, RecordResult, Close, Adjust,
                                           Publish, *_noshow.COMMAND_CLASSES])
