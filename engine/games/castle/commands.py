"""What players ask for in a Castle of the Devil game.  Every command names its ``player``.

One command per kind of decision; which ones are accepted now depends on the game's pending
decision (see ``decide``).  ``pass`` means "I do nothing": the turn's action on one's own turn
(CASTLE-8.1), or letting a fight window go by (CASTLE-6.2, 6.4, 6.5, 6.7).
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from ...codec import Registry, tagged


@tagged
class Pass:
    """Pass the turn (CASTLE-8.1) or a fight window."""

    TYPE: ClassVar[str] = "pass"
    player: str


@tagged
class Trade:
    """Offer ``item`` to ``to`` (CASTLE-4.1); ``silent`` keeps its effect unnamed (smuggling,
    10.1)."""

    TYPE: ClassVar[str] = "trade"
    player: str
    to: str
    item: str
    silent: bool = False


@tagged
class Accept:
    """Accept the offered item and give back ``item`` (CASTLE-4.2); ``silent``: smuggling (10.1)."""

    TYPE: ClassVar[str] = "accept"
    player: str
    item: str
    silent: bool = False


@tagged
class Refuse:
    """Refuse the offered item (CASTLE-4.2)."""

    TYPE: ClassVar[str] = "refuse"
    player: str


@tagged
class Attack:
    """Attack ``defender`` (CASTLE-6.1)."""

    TYPE: ClassVar[str] = "attack"
    player: str
    defender: str


@tagged
class Support:
    """Declare support in a fight: ``side`` is ``attacker``, ``defender`` or ``neutral``
    (CASTLE-6.3)."""

    TYPE: ClassVar[str] = "support"
    player: str
    side: str


@tagged
class Use:
    """Use an item (its id) or one's profession (its name) in a fight window (CASTLE-6).

    ``target``: the winner named by the poison-mixer (a player name); otherwise None.
    """

    TYPE: ClassVar[str] = "use"
    player: str
    power: str
    target: str | None = None


@tagged
class Declare:
    """Declare victory (CASTLE-9): ``kind`` ``society`` (naming ``allies``), ``prophecy``
    (naming the opponents who hold their relics, 10.2) or ``coat-of-arms`` (alone, 9.5)."""

    TYPE: ClassVar[str] = "declare"
    player: str
    kind: str = "society"
    allies: list[str] = attrs.field(factory=list)


@tagged
class Give:
    """Give ``item`` to ``to``: hand-limit give-away (CASTLE-3.3), paying a priest (6.2), the
    Diplomat's hand-over and give-back (7.3), the item passed by a sextant (5.6).
    ``silent``: smuggling, for the diplomat's trade only (10.1)."""

    TYPE: ClassVar[str] = "give"
    player: str
    item: str
    to: str
    silent: bool = False


@tagged
class Choose:
    """An effect or fight choice (CASTLE-5, 6.8): ``option`` as offered by ``legal_commands``:
    ``draw``/``look``/``swap``/``skip`` (effects), a profession name or ``skip`` (coat),
    ``left``/``right``/``skip`` (sextant), ``look``/``take`` (the fight winner)."""

    TYPE: ClassVar[str] = "choose"
    player: str
    option: str


@tagged
class Take:
    """The fight winner takes ``item`` from the loser, giving back ``give_back`` when it was
    the loser's last item (CASTLE-6.8b); ``item`` None: takes nothing (r2 rules: "may take")."""

    TYPE: ClassVar[str] = "take"
    player: str
    item: str | None = None
    give_back: str | None = None


@tagged
class Draw:
    """Report the card ``player`` drew from a pile whose order the engine does not know (a
    physical game, CASTLE-7.1): the bag's draw (5.1) or the tie draw (6.6).  Refused if that
    card is not in the pile.  ``reporter``: who reports the card (a referee's name, recorded
    in the event)."""

    TYPE: ClassVar[str] = "draw"
    OMIT_NONE: ClassVar[tuple[str, ...]] = ("reporter",)
    player: str
    item: str
    reporter: str | None = None


@tagged
class Clairvoyant:
    """Use the Clairvoyant on one's own turn: look through the item pile (CASTLE-7.1)."""

    TYPE: ClassVar[str] = "clairvoyant"
    player: str


@tagged
class Arrange:
    """The Clairvoyant puts ``top`` (two pile items, top first) on the shuffled rest
    (CASTLE-7.1)."""

    TYPE: ClassVar[str] = "arrange"
    player: str
    top: list[str]


@tagged
class Diplomat:
    """Use the Diplomat on one's own turn: demand an item of ``kind`` from ``target``
    (CASTLE-7.3)."""

    TYPE: ClassVar[str] = "diplomat"
    player: str
    target: str
    kind: str


COMMAND_CLASSES = [Pass, Trade, Accept, Refuse, Attack, Support, Use, Declare, Give, Choose,
                   Take, Clairvoyant, Arrange, Diplomat, Draw]

COMMANDS = Registry("castle command", COMMAND_CLASSES)
