"""The facts of a Castle of the Devil game (rules: docs/rules/castle.md).

Players are named by their seat index (int, 0-based, seat order of ``game_created``), so
that ``redact`` can tell a viewer's own facts without the state.  A field that a
viewer may not see is ``None`` in the redacted form of the event (see ``view.redact``); the
docstring of each event says who sees what (its audience).
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from ...codec import Registry, tagged


@tagged
class Reveal:
    """The seed reveal of a digital game (engine.chance.SeededChance.reveal)."""

    seed: int
    salt: str


@tagged
class GameCreated:
    """First event (public): players in seat order, start player and every option and house rule.

    ``house`` holds the switchable house rules (docs/castle-rules.md); ``commitment`` is the
    chance commitment, None in a physical game; ``first_drawn`` tells whether the start player
    was drawn (CASTLE-2.8).
    """

    TYPE: ClassVar[str] = "game_created"
    players: list[str]
    first: int
    first_drawn: bool
    beginner: bool
    variants: list[str]
    house: dict[str, bool]
    hand_limit: int
    physical: bool
    deal_given: bool
    commitment: str | None
    rules: str = "castle-2006"
    #: the seed was chosen by whoever created the game (reproducible, so predictable to anyone
    #: who knows it), not drawn in secret; set by the service, shown to everyone (issue 9.7)
    seed_chosen: bool = False
    #: the game starts from a position (a game already under way, ``--position``); the
    #: position's cards are in ``cards_dealt``
    position: bool = False


@tagged
class CardsDealt:
    """The deal (CASTLE-2.1 to 2.6).  Lists are in seat order; piles top first.

    Audience: each seat sees its own society, profession and items; drinks (2.3) and the sizes
    of everything are public; the piles and the set-aside card are hidden (None entries).
    ``removed`` lists the items taken out of the game (2.5, 2.6), public.
    """

    TYPE: ClassVar[str] = "cards_dealt"
    societies: list[str | None]
    professions: list[str | None]
    hands: list[list[str | None]]
    drinks: list[bool]
    item_pile: list[str | None]
    profession_pile: list[str | None]
    set_aside: str | None
    removed: list[str]
    #: public: False when the item pile is known only as a set (a physical game: each card
    #: drawn is reported, CASTLE-7.1); ``item_pile`` is then in the box's order
    pile_ordered: bool = True
    #: advanced-3p (CASTLE-10.4): each seat's three society cards (a seat sees its own)
    society_cards: list[list[str | None]] | None = None
    #: a position: which professions are used, face up (public)
    professions_used: list[bool] | None = None
    #: public: the pile given as a set was shuffled by chance (a digital game from a position)
    pile_shuffled: bool = False


@tagged
class TurnStarted:
    """``player`` is now the active player (CASTLE-3.1); ``turn`` counts from 1.  Public."""

    TYPE: ClassVar[str] = "turn_started"
    player: int
    turn: int


@tagged
class TurnPassed:
    """The active player passes (CASTLE-8.1).  Public."""

    TYPE: ClassVar[str] = "turn_passed"
    player: int


@tagged
class TradeOffered:
    """``giver`` offers ``item`` face down to ``receiver`` (CASTLE-4.1).

    ``item`` and ``silent`` (smuggling, CASTLE-10.1) are seen by giver and receiver only.
    """

    TYPE: ClassVar[str] = "trade_offered"
    giver: int
    receiver: int
    item: str | None
    silent: bool | None


@tagged
class TradeRefused:
    """The receiver gives the offered item back (CASTLE-4.2, 4.4).  ``item``: giver and receiver."""

    TYPE: ClassVar[str] = "trade_refused"
    giver: int
    receiver: int
    item: str | None


@tagged
class TradeCompleted:
    """A completed trade (CASTLE-4.2, 7.3): ``offered`` goes giver -> receiver, ``returned`` back.

    ``offered``/``returned`` are seen by the two partners only.  ``offered_named`` /
    ``returned_named`` are public: the effect name announced for each card (``"bag"`` for a
    secret bag, CASTLE-5.1) or None when nothing is named (no effect, broken mirror 4.7,
    smuggling 10.1).  A named card's effect belongs to the one who gave it away (4.5).
    ``diplomat`` marks the Diplomat's forced trade, where the target is the giver (7.3).
    """

    TYPE: ClassVar[str] = "trade_completed"
    giver: int
    receiver: int
    offered: str | None
    returned: str | None
    offered_named: str | None
    returned_named: str | None
    diplomat: bool = False


@tagged
class HandLimitExceeded:
    """``player`` holds ``excess`` items over the hand limit and must give them away
    (CASTLE-3.3).  Public."""

    TYPE: ClassVar[str] = "hand_limit_exceeded"
    player: int
    excess: int


@tagged
class ItemGiven:
    """``item`` goes face down from ``giver`` to ``receiver`` without any effect (CASTLE-4.8).

    ``reason``: ``"hand-limit"`` (3.3), ``"priest"`` (6.2).  ``item``: giver and receiver only.
    """

    TYPE: ClassVar[str] = "item_given"
    giver: int
    receiver: int
    item: str | None
    reason: str


@tagged
class ItemDrawn:
    """``player`` draws the top item of the pile (CASTLE-5.1 bag, 6.6 tie).  ``item``: the
    drawer only.  ``reporter``: in a physical game whose pile is known only as a set, who
    reported the card (CASTLE-7.1: the referee's name, from a named referee token or given at
    the command line); None otherwise (left out of the map while None).  Public."""

    TYPE: ClassVar[str] = "item_drawn"
    OMIT_NONE: ClassVar[tuple[str, ...]] = ("reporter",)
    player: int
    item: str | None
    reason: str
    reporter: str | None = None


@tagged
class DrawAwaited:
    """``player`` draws from the pile, whose order the engine does not know (a physical game,
    CASTLE-7.1): the game waits for the card to be reported (the ``draw`` command).  ``reason``:
    ``"bag"`` (5.1) or ``"tie"`` (6.6).  Public."""

    TYPE: ClassVar[str] = "draw_awaited"
    player: int
    reason: str


@tagged
class EffectDeclined:
    """``player`` does not use the optional effect ``effect`` (CASTLE-4.6).  Public."""

    TYPE: ClassVar[str] = "effect_declined"
    player: int
    effect: str


@tagged
class ItemsSeen:
    """``viewer`` looks at all of ``owner``'s items (CASTLE-5.2, 6.8b, 7.3; knowledge 11.1).

    ``items`` is seen by ``viewer`` and ``owner``; ``reason`` is public (privilege, fight,
    diplomat).
    """

    TYPE: ClassVar[str] = "items_seen"
    viewer: int
    owner: int
    items: list[str] | None
    reason: str


@tagged
class SocietySeen:
    """``viewer`` looks at ``owner``'s society card (CASTLE-5.3, 6.8a).  ``society``: viewer
    and owner."""

    TYPE: ClassVar[str] = "society_seen"
    viewer: int
    owner: int
    society: str | None
    reason: str
    #: advanced-3p (CASTLE-10.4): which of the owner's three cards (0-2, chosen by the viewer,
    #: public); ``society`` is then that one card, not the owner's society
    card: int | None = None


@tagged
class ProfessionSeen:
    """``viewer`` looks at ``owner``'s profession (CASTLE-6.8a).  ``profession``: viewer and
    owner."""

    TYPE: ClassVar[str] = "profession_seen"
    viewer: int
    owner: int
    profession: str | None
    reason: str


@tagged
class ProfessionsSwapped:
    """Tome (CASTLE-5.4): ``first`` and ``second`` swap professions, both face down and unused.

    After the swap ``first`` holds ``first_now`` and ``second`` holds ``second_now``; both are
    seen by the two of them only.
    """

    TYPE: ClassVar[str] = "professions_swapped"
    first: int
    second: int
    first_now: str | None
    second_now: str | None


@tagged
class ProfessionPileSeen:
    """Coat (CASTLE-5.5): ``player`` looks through the profession pile.  ``pile``: that player
    only."""

    TYPE: ClassVar[str] = "profession_pile_seen"
    player: int
    pile: list[str] | None


@tagged
class ProfessionExchanged:
    """Coat (CASTLE-5.5): ``player`` takes ``taken`` from the pile and puts ``returned`` in.

    Both are seen by ``player`` only; the new profession is face down and unused.
    """

    TYPE: ClassVar[str] = "profession_exchanged"
    player: int
    taken: str | None
    returned: str | None


@tagged
class SextantTurned:
    """Sextant (CASTLE-5.6): ``player`` chose ``direction`` (``left``/``right``).  Public."""

    TYPE: ClassVar[str] = "sextant_turned"
    player: int
    direction: str


@tagged
class SextantItemChosen:
    """``player`` chose the item to pass (sealed until all are in).  ``item``: that player only."""

    TYPE: ClassVar[str] = "sextant_item_chosen"
    player: int
    item: str | None


@tagged
class SextantPassed:
    """Everyone passes their chosen item to the neighbour on ``direction`` (CASTLE-5.6).

    ``items`` in seat order: what each seat passed; a seat sees its own and the one it receives.
    """

    TYPE: ClassVar[str] = "sextant_passed"
    direction: str
    items: list[str | None]


@tagged
class ClairvoyantUsed:
    """``player`` uses the Clairvoyant (CASTLE-7.1) and looks through the item pile (top first).

    ``pile``: that player only (7.2); the use is public.
    """

    TYPE: ClassVar[str] = "clairvoyant_used"
    player: int
    pile: list[str] | None


@tagged
class PileArranged:
    """The Clairvoyant put ``top`` on the shuffled rest (CASTLE-7.1); ``pile`` is the new pile.

    The player sees the cards it put on top (rest None); others see only the size.
    """

    TYPE: ClassVar[str] = "pile_arranged"
    player: int
    pile: list[str | None]
    #: public: how many top cards are in a known order (a physical game under the r2 rules:
    #: the top ones, the rest known only as a set, CASTLE-7.1); None: the whole pile
    known: int | None = None


@tagged
class DiplomatUsed:
    """``player`` uses the Diplomat (CASTLE-7.3) demanding an item of ``kind`` from ``target``.

    ``holds`` (public) tells whether the target holds one: if so the target must hand one
    over; if not the target shows all items to the diplomat and the diplomat's turn ends.
    """

    TYPE: ClassVar[str] = "diplomat_used"
    player: int
    target: int
    kind: str
    holds: bool


@tagged
class DiplomatItemChosen:
    """The Diplomat's target ``player`` chose ``item`` to hand over.  ``item``: target and
    diplomat."""

    TYPE: ClassVar[str] = "diplomat_item_chosen"
    player: int
    diplomat: int
    item: str | None
    silent: bool | None = None


@tagged
class BagsTurned:
    """The item pile is empty: the bags are now a key and a goblet (CASTLE-9.3).  Public."""

    TYPE: ClassVar[str] = "bags_turned"


@tagged
class AttackDeclared:
    """``attacker`` attacks ``defender`` (CASTLE-6.1).  Public."""

    TYPE: ClassVar[str] = "attack_declared"
    attacker: int
    defender: int


@tagged
class SupportDeclared:
    """``player`` supports ``side`` (``attacker``/``defender``/``neutral``) (CASTLE-6.3).
    Public."""

    TYPE: ClassVar[str] = "support_declared"
    player: int
    side: str


@tagged
class PowerUsed:
    """``player`` shows an item or uses a profession in a fight (CASTLE-5.9-5.13, 6.2, 6.4,
    6.5, 6.7).

    ``power`` is the item id or the profession; ``target`` the hypnotised player or the winner
    named by the poison-mixer.  Public (a used profession is face up, 6.9).
    """

    TYPE: ClassVar[str] = "power_used"
    player: int
    power: str
    target: int | None = None


@tagged
class WindowPassed:
    """``player`` does not act in the fight window ``window`` (priest, hypnotist, abilities,
    doctor).  Public."""

    TYPE: ClassVar[str] = "window_passed"
    player: int
    window: str


@tagged
class CountPart:
    """One part of a fight's count (CASTLE-6.6): ``side`` (attacker/defender) gets ``value``
    (1 or 0) from ``source``: ``"side"`` (the side's own 1), ``"support"`` (a supporter), or
    the item or profession used; ``player`` the seat it came from.  ``void`` says why it does
    not count (``"hypnotist"`` 6.4, ``"duel"`` 6.5, ``"no-bonus"``: duelist_bonus off), else
    None."""

    side: str
    source: str
    player: int | None
    value: int
    void: str | None = None


@tagged
class FightCounted:
    """The count (CASTLE-6.6): totals, ``winner`` (a seat, None on a tie) and how it was decided;
    ``parts`` (r2 rules) every +1 and where it came from, the voided ones marked.  Public."""

    TYPE: ClassVar[str] = "fight_counted"
    attacker_total: int
    defender_total: int
    winner: int | None
    by_poison_mixer: bool
    by_poison_ring: bool
    parts: list[CountPart] | None = None


@tagged
class FightTied:
    """A tie stands (CASTLE-6.6): the attacker drew ``item`` (None if the pile was empty or hidden).

    ``drew`` is public; ``item`` is seen by the attacker only.
    """

    TYPE: ClassVar[str] = "fight_tied"
    attacker: int
    drew: bool
    item: str | None


@tagged
class FightChoiceMade:
    """The winner chose ``look`` or ``take`` (CASTLE-6.8).  Public."""

    TYPE: ClassVar[str] = "fight_choice_made"
    player: int
    loser: int
    choice: str


@tagged
class ItemTaken:
    """The winner takes ``item`` from the loser, giving back ``given_back`` if it was the last
    (CASTLE-6.8b).

    Items seen by winner and loser only.
    """

    TYPE: ClassVar[str] = "item_taken"
    winner: int
    loser: int
    item: str | None
    given_back: str | None
    #: public: False when the winner takes nothing (CASTLE-6.8b: "may take")
    took: bool = True


@tagged
class Revealed:
    """One player's cards laid open in a declaration (CASTLE-9.2)."""

    player: int
    society: str
    profession: str
    items: list[str]
    drink: bool
    #: advanced-3p: the three society cards (CASTLE-10.4)
    society_cards: list[str] | None = None


@tagged
class Fault:
    """What made a declaration wrong (CASTLE-9.2, 9.4, 9.5, 10.2): ``fault`` is one of
    ``enemy-ally`` (a named player is of the other society), ``ally-without-relic``,
    ``relics-missing`` (fewer than three), ``drink-not-counted`` (the declarer's society is
    not the smaller one, 9.4), ``holder-not-named`` / ``not-a-holder`` (prophecy); ``player``
    the seat concerned (or None); ``text`` one sentence."""

    fault: str
    player: int | None
    text: str


@tagged
class Declared:
    """A declaration (CASTLE-9, 10.2): ``kind`` is ``society``, ``prophecy`` or ``coat-of-arms``.

    ``allies`` are the players named; ``revealed`` the cards laid open (public); ``right``
    whether the claim holds; ``winning_society`` the society that wins (None for a solo
    coat-of-arms win).
    """

    TYPE: ClassVar[str] = "declared"
    player: int
    kind: str
    allies: list[int]
    revealed: list[Revealed]
    right: bool
    winning_society: str | None
    #: r2 rules: why a wrong claim is wrong (empty when right)
    faults: list[Fault] = attrs.field(factory=list)


@tagged
class GameEnded:
    """The last event (public): ``winners`` (names), ``points`` (scoring variant, else None) and
    the seed reveal (None in a physical game)."""

    TYPE: ClassVar[str] = "game_ended"
    winners: list[int]
    points: dict[str, int] | None
    reveal: Reveal | None


EVENT_CLASSES = [
    GameCreated, CardsDealt, TurnStarted, TurnPassed, TradeOffered, TradeRefused, TradeCompleted,
    HandLimitExceeded, ItemGiven, ItemDrawn, DrawAwaited, EffectDeclined, ItemsSeen, SocietySeen,
    ProfessionSeen, ProfessionsSwapped, ProfessionPileSeen, ProfessionExchanged, SextantTurned,
    SextantItemChosen, SextantPassed, ClairvoyantUsed, PileArranged, DiplomatUsed,
    DiplomatItemChosen, BagsTurned, AttackDeclared, SupportDeclared, PowerUsed, WindowPassed,
    FightCounted, FightTied, FightChoiceMade, ItemTaken, Declared, GameEnded,
]

EVENTS = Registry("castle event", EVENT_CLASSES)
