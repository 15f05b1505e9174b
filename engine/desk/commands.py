"""The desk's commands, as tagged maps like every game command (``devil submit``, ``POST
/games/{id}/commands``):

* ``{"type": "correct", "to": SEQ, "reason": TEXT, "dispute": N|null}`` (the referee;
  DESK-1, 2, 3, 10.2)
* ``{"type": "dispute", "player": NAME, "seq": SEQ, "text": TEXT}`` (a seat; DESK-4)
* ``{"type": "ruling", "dispute": N, "upheld": BOOL, "reason": TEXT, "to": SEQ|null,
  "remedy": "correct"|"amend"|"none"|null}`` (the referee; DESK-5, DESK-10.1)
* ``{"type": "replace_seat", "seat": NAME, "bot": KIND, "reason": TEXT}`` (the referee;
  DESK-7): a bot plays the seat from now on
* ``{"type": "return_seat", "seat": NAME, "reason": TEXT}`` (the referee; DESK-11): the seat
  is its player's again, the bot stops
* ``{"type": "takeback", "player": NAME}``, ``{"type": "takeback_answer", "consent": BOOL,
  "player": NAME}``, ``{"type": "takeback_decision", "allowed": BOOL, "reason": TEXT}`` (a
  seat, another seat, the referee; DESK-12, engine.desk.takeback)
* ``{"type": "amend", "seq": SEQ, "fields": {FIELD: VALUE}, "reason": TEXT, "dispute":
  N|null}`` (the referee; DESK-9): one recorded command given again with fields changed
* ``{"type": "adjudicate", "reason": TEXT, "rule": RULE}`` (the referee; DESK-8: the game
  ends at time, placed by its kind's ``adjudicated`` hook)

``player`` on ``correct`` and ``ruling`` names the seat that tried to give it (the local
``--as``, a seat's token): only the referee may, so it is refused (DESK-1, exit 4).
"""

from __future__ import annotations

from typing import Any, ClassVar


from ..codec import Registry, tagged


@tagged
class Correct:
    """Return the game to its state after record ``to`` (DESK-2)."""

    TYPE: ClassVar[str] = "correct"
    to: int
    reason: str
    player: str | None = None
    #: the dispute it answers (DESK-10.2)
    dispute: int | None = None


@tagged
class Dispute:
    """``player`` disputes record ``seq`` (DESK-4)."""

    TYPE: ClassVar[str] = "dispute"
    seq: int
    text: str
    player: str | None = None


@tagged
class Ruling:
    """The referee's answer to dispute ``dispute`` (DESK-5), with a correction to ``to`` when
    given (only when upheld)."""

    TYPE: ClassVar[str] = "ruling"
    dispute: int
    upheld: bool
    reason: str
    to: int | None = None
    player: str | None = None
    #: an upheld ruling's remedy (DESK-10.1): "correct" (with ``to``), "amend" or "none"
    remedy: str | None = None


@tagged
class ReplaceSeat:
    """Seat ``seat`` (a player's name) is played by bot ``bot`` from now on, for ``reason``
    (the referee only; DESK-7).  ``{"type": "replace_seat", "seat": NAME, "bot": KIND,
    "reason": TEXT}``."""

    TYPE: ClassVar[str] = "replace_seat"
    seat: str
    bot: str
    reason: str
    player: str | None = None


@tagged
class AdjudicateGame:
    """End the game at time (DESK-8): its kind's ``adjudicated`` hook places the players by
    ``rule`` (the kind's house rule id); ``reason``: why (a tournament's round time ran out)."""

    TYPE: ClassVar[str] = "adjudicate"
    reason: str
    rule: str
    player: str | None = None


@tagged
class ReturnSeat:
    """Seat ``seat`` (a player's name), played by a bot since ``replace_seat``, is its
    player's again, for ``reason`` (the referee only; DESK-11).  ``{"type": "return_seat",
    "seat": NAME, "reason": TEXT}``."""

    TYPE: ClassVar[str] = "return_seat"
    seat: str
    reason: str
    player: str | None = None


@tagged
class AmendRecord:
    """Replace one recorded fact (DESK-9): the game command holding record ``seq`` is given
    again with ``fields`` changed (a map of the kind's command fields, e.g. ``{"coal": 50}``
    or ``{"amount": 40}``; which may change is the kind's ``amend`` hook's), for ``reason``;
    every later command still legal is re-applied.  ``dispute``: the dispute it answers
    (DESK-10.2).  ``{"type": "amend", "seq": SEQ, "fields": {...}, "reason": TEXT,
    "dispute": N|null}``."""

    TYPE: ClassVar[str] = "amend"
    seq: int
    fields: dict[str, Any]
    reason: str
    dispute: int | None = None
    player: str | None = None


from .takeback import COMMANDS as TAKEBACK_COMMANDS  # noqa: E402 (DESK-12: its own module)

COMMANDS = Registry("desk command", [Correct, Dispute, Ruling, ReplaceSeat, AdjudicateGame,
                                     ReturnSeat, AmendRecord, *TAKEBACK_COMMANDS])
#: the tags of the desk's commands
COMMAND_TYPES = frozenset(COMMANDS.by_type)
