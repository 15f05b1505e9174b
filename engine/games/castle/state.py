"""The state of a Castle of the Devil game and the public questions asked about it.

The state is a plain mutable record that ``evolve`` updates in place.  Seats are 0-based ints.
A value the folding viewer has not seen is ``None`` (an unknown item in a hand, an unknown
society); the same code folds the referee's full stream and a seat's redacted stream.

What happens next is kept on a stack of *frames* (plain dicts), top last:

* ``turn``      ``{seat, done}``: the active player's turn; ``done`` once the action is taken.
* ``limit``     ``{seat}``: the seat gives away items over the hand limit (CASTLE-3.3).
* ``offer``     ``{giver, receiver, item, silent}``: a trade waiting for the receiver (4.2).
* ``effect``    ``{effect, owner, partner, shown}``: an optional trade effect (4.5, 5).
* ``sextant``   ``{owner, direction, done, items}``: everyone picks an item to pass (5.6).
* ``clairvoyant`` ``{seat, pile}``: the Clairvoyant arranges the top of the pile (7.1).
* ``diplomat``  ``{diplomat, target, want, stage, item, silent}``: the forced trade (7.3).
* ``fight``     see :func:`new_fight` (CASTLE-6).

Functions here answer only from public facts (so every fold agrees), unless they say so.
"""

from __future__ import annotations

import copy

import attrs

from .cards import FIGHT_ITEMS, PERMANENT, RELIC

SIDES = ("attacker", "defender", "neutral")


@attrs.define
class State:
    """A game in progress (see the module docstring).  ``knowledge[seat]`` lists the facts that
    seat learned privately (CASTLE-11.1), dicts ``{about, what, value, reason, turn}``."""

    players: list = attrs.field(factory=list)
    first: int = 0
    beginner: bool = False
    variants: list = attrs.field(factory=list)
    house: dict = attrs.field(factory=dict)
    limit: int = 5
    physical: bool = False
    commitment: str | None = None
    seed_chosen: bool = False
    #: the rules text (options.RULES_VERSIONS); ``castle-2006`` keeps the old behaviour
    rules: str = "castle-2006"
    #: the game started from a position (``game_created.position``)
    position: bool = False
    #: the number of the first turn (a position's ``turn``; 1 otherwise)
    first_turn: int = 1
    #: how many cards at the top of the item pile are in a known order (public); the rest
    #: is known only as a set (a physical game, CASTLE-7.1): a draw from it is reported
    pile_known: int = 0
    #: advanced-3p (CASTLE-10.4): each seat's three society cards (None entries: unknown)
    society_cards: list | None = None
    societies: list = attrs.field(factory=list)
    professions: list = attrs.field(factory=list)
    prof_used: list = attrs.field(factory=list)
    prof_known: list = attrs.field(factory=list)
    society_known: list = attrs.field(factory=list)
    drinks: list = attrs.field(factory=list)
    hands: list = attrs.field(factory=list)
    pile: list = attrs.field(factory=list)
    prof_pile: list = attrs.field(factory=list)
    set_aside: str | None = None
    removed: list = attrs.field(factory=list)
    bags_turned: bool = False
    dealt: bool = False
    active: int | None = None
    turn: int = 0
    stack: list = attrs.field(factory=list)
    knowledge: dict = attrs.field(factory=dict)
    revealed: dict = attrs.field(factory=dict)
    declaration: dict | None = None
    winners: list | None = None
    points: dict | None = None
    over: bool = False
    #: the seed reveal of a finished digital game (``game_ended``), read by ``devil verify``
    seed: int | None = None
    salt: str | None = None

    @property
    def n(self) -> int:
        return len(self.players)

    def copy(self) -> "State":
        """An independent copy (what ``copy.deepcopy`` gives, much faster: knowledge facts and
        revealed hands are never changed once recorded, so they are shared)."""
        return attrs.evolve(
            self, players=list(self.players), variants=list(self.variants),
            house=dict(self.house), societies=list(self.societies),
            professions=list(self.professions), prof_used=list(self.prof_used),
            prof_known=[set(x) for x in self.prof_known],
            society_known=[set(x) for x in self.society_known], drinks=list(self.drinks),
            hands=[list(h) for h in self.hands], pile=list(self.pile),
            prof_pile=list(self.prof_pile), removed=list(self.removed),
            society_cards=None if self.society_cards is None else [
                list(x) for x in self.society_cards],
            stack=copy.deepcopy(self.stack),
            knowledge={k: list(v) for k, v in self.knowledge.items()},
            revealed=dict(self.revealed),
            declaration=None if self.declaration is None else dict(self.declaration),
            winners=None if self.winners is None else list(self.winners),
            points=None if self.points is None else dict(self.points))

    def __deepcopy__(self, memo) -> "State":
        return self.copy()

    def __setstate__(self, state) -> None:
        """Unpickle (a service snapshot): a field the pickled state lacks (a snapshot written
        before the field was added, e.g. ``rules``) gets its default, so an old snapshot loads
        as a game recorded then (``castle-2006``)."""
        if isinstance(state, tuple):  # (dict, slots) as pickle gives it for slotted classes
            merged: dict = {}
            for part in state:
                merged.update(part or {})
            state = merged
        for field in attrs.fields(type(self)):
            if field.name in state:
                value = state[field.name]
            elif isinstance(field.default, attrs.Factory):  # type: ignore[arg-type]  # stubs: Factory is a class
                value = field.default.factory()
            else:
                value = field.default
            object.__setattr__(self, field.name, value)
        if "pile_known" not in state:  # the old text had no pile known only as a set
            object.__setattr__(self, "pile_known", len(self.pile))

    @property
    def r2(self) -> bool:
        """True under the corrected rules text (``castle-2006-r2``), False for old logs."""
        return self.rules != "castle-2006"

    @property
    def round(self) -> int:
        """How many times the turn has gone round the table (1 during the first n turns; 0
        before the deal).  ``engine.bots.play_out`` caps games by it (``max_rounds``)."""
        return 0 if self.turn <= 0 or not self.players else (self.turn - 1) // self.n + 1

    def seat(self, name: str) -> int:
        return self.players.index(name)

    def count(self, seat: int) -> int:
        return len(self.hands[seat])

    @property
    def top(self) -> dict | None:
        return self.stack[-1] if self.stack else None

    def fight(self) -> dict | None:
        for frame in reversed(self.stack):
            if frame["kind"] == "fight":
                return frame
        return None

    def left(self, seat: int) -> int:
        """The next seat clockwise (CASTLE-2.8: seat order is clockwise)."""
        return (seat + 1) % self.n

    def right(self, seat: int) -> int:
        return (seat - 1) % self.n

    def clockwise_from(self, seat: int) -> list[int]:
        """All seats, starting with ``seat``, clockwise."""
        return [(seat + i) % self.n for i in range(self.n)]


def new_fight(attacker: int, defender: int, n: int) -> dict:
    """A fight frame (CASTLE-6).  ``stage`` is one of priest, support, hypnotist, abilities,
    count, doctor, tie, choice, take, priest-payment; ``ask`` the seat whose window it is;
    ``queue`` the seats still to ask in the current priest/support/doctor window."""
    return {
        "kind": "fight", "attacker": attacker, "defender": defender, "stage": "priest",
        "ask": None, "queue": [], "sides": [None] * n, "hypnotised": None, "duel": None,
        "last_supporter": None, "uses": [], "passed": [], "result": None, "priest": None,
        "loser_items": None,
    }


def role(fight: dict, seat: int) -> str:
    """``attacker``, ``defender``, ``attacker-supporter``, ``defender-supporter`` or ``neutral``.

    Voided support (hypnotist 6.4, duelist 6.5) counts as neutral."""
    if seat == fight["attacker"]:
        return "attacker"
    if seat == fight["defender"]:
        return "defender"
    side = fight["sides"][seat]
    if side in ("attacker", "defender") and seat != fight["hypnotised"] and fight["duel"] is None:
        return side + "-supporter"
    return "neutral"


#: role -> items that may be shown in that role (CASTLE-5.9 to 5.13)
ROLE_ITEMS = {
    "attacker": ("dagger", "poison-ring"),
    "defender": ("gloves", "poison-ring"),
    "attacker-supporter": ("casting-knives",),
    "defender-supporter": ("whip",),
    "neutral": (),
}


def shown_items(fight: dict) -> set[str]:
    """The fight items already shown in this fight (each once per fight, CASTLE-5.15)."""
    return {power for _, power, _ in fight["uses"] if power in FIGHT_ITEMS}


def profession_applies(profession: str, fight: dict, seat: int) -> bool:
    """Whether ``profession`` could be used by ``seat`` in the ability round now (CASTLE-6.5)."""
    r = role(fight, seat)
    if seat == fight["hypnotised"]:
        return False
    if profession == "thug":
        return r == "attacker"
    if profession == "grand-master":
        return r == "defender"
    if profession == "bodyguard":
        return r.endswith("-supporter")
    if profession == "duelist":
        return r in ("attacker", "defender") and fight["duel"] is None
    if profession == "poison-mixer":
        return r not in ("attacker", "defender")
    return False


def used_in_fight(fight: dict, seat: int, power: str) -> bool:
    """Whether ``seat`` already used ``power`` (an item or profession) in this fight."""
    return any(s == seat and p == power for s, p, _ in fight["uses"])


def ability_eligible(state: State, fight: dict, seat: int) -> bool:
    """Whether ``seat`` is asked in the ability round (CASTLE-6.5, 6.10), from public facts.

    Asked: anyone whose profession is face down, or is a public permanent profession that
    applies and was not used in this fight; and anyone whose role allows an item not yet shown
    (the table cannot know who holds it).  The hypnotised player is never asked (6.4)."""
    if seat == fight["hypnotised"]:
        return False
    if not state.prof_used[seat]:
        return True
    prof = state.professions[seat]
    if (prof in PERMANENT and profession_applies(prof, fight, seat)
            and not used_in_fight(fight, seat, prof)):
        return True
    shown = shown_items(fight)
    return any(item not in shown for item in ROLE_ITEMS[role(fight, seat)])


def next_ability_seat(state: State, fight: dict, after: int | None) -> int | None:
    """The next seat to ask in the ability round: clockwise after ``after`` (from the attacker
    when None); None when every eligible seat has passed since the last use (CASTLE-6.5)."""
    eligible = [s for s in range(state.n) if ability_eligible(state, fight, s)]
    if not eligible or all(s in fight["passed"] for s in eligible):
        return None
    start = fight["attacker"] if after is None else state.left(after)
    for s in state.clockwise_from(start):
        if s in eligible:
            return s
    return None  # pragma: no cover


def priest_queue(state: State, fight: dict) -> list[int]:
    """CASTLE-6.2, 6.10: every player but the attacker whose profession is face down, clockwise
    from the attacker's left (a public profession is a used one: a spent priest)."""
    a = fight["attacker"]
    return [s for s in state.clockwise_from(state.left(a)) if s != a and not state.prof_used[s]]


def support_queue(state: State, fight: dict) -> list[int]:
    """CASTLE-6.3: every player but attacker and defender, clockwise from the attacker's left."""
    a, d = fight["attacker"], fight["defender"]
    return [s for s in state.clockwise_from(state.left(a)) if s not in (a, d)]


def hypnotist_may(state: State, fight: dict) -> bool:
    """CASTLE-6.4, 6.10: the attacker is asked after a support if nobody is hypnotised yet and
    the attacker's profession is face down or a public hypnotist."""
    a = fight["attacker"]
    if fight["hypnotised"] is not None:
        return False
    return not state.prof_used[a] or state.professions[a] == "hypnotist"


def doctor_queue(state: State, fight: dict) -> list[int]:
    """CASTLE-6.7, 6.10: every player whose profession is face down, clockwise from the attacker
    (not the hypnotised player, who may use nothing in this fight, 6.4)."""
    return [s for s in state.clockwise_from(fight["attacker"])
            if not state.prof_used[s] and s != fight["hypnotised"]]


def count_fight(fight: dict, duelist_bonus: bool = True) -> dict:
    """The count (CASTLE-6.6, 6.5), from the public record of the fight.

    Returns ``{attacker, defender, winner: "attacker"|"defender"|None, mixer, ring, parts}``;
    ``parts`` lists every +1 as ``(side, source, seat, value, void)`` (see events.CountPart):
    the side's own 1, each supporter, each item or profession shown; a voided one (hypnotised
    supporter 6.4, supporters and their bonuses in a duel 6.5, the duelist without
    ``duelist_bonus``) has value 0 and says why."""
    n = len(fight["sides"])
    duel = fight["duel"] is not None
    parts: list[tuple] = [("attacker", "side", fight["attacker"], 1, None),
                          ("defender", "side", fight["defender"], 1, None)]
    for s in range(n):
        side = fight["sides"][s]
        if s in (fight["attacker"], fight["defender"]) or side not in ("attacker", "defender"):
            continue
        void = "duel" if duel else ("hypnotist" if s == fight["hypnotised"] else None)
        parts.append((side, "support", s, 0 if void else 1, void))
    ring = None
    mixer = None
    for seat, power, target in fight["uses"]:
        side = void = None
        if power in ("dagger", "thug"):
            side = "attacker"
        elif power in ("gloves", "grand-master"):
            side = "defender"
        elif power == "casting-knives":
            side, void = "attacker", ("duel" if duel else None)
        elif power == "whip":
            side, void = "defender", ("duel" if duel else None)
        elif power == "bodyguard":
            side = (fight["sides"][seat] if fight["sides"][seat] in ("attacker", "defender")
                    else "attacker")
            void = "duel" if duel else None
        elif power == "duelist":
            side = "attacker" if seat == fight["attacker"] else "defender"
            void = None if duelist_bonus else "no-bonus"
        elif power == "poison-ring":
            ring = "attacker" if seat == fight["attacker"] else "defender"
        elif power == "poison-mixer":
            mixer = target
        if side is not None:
            parts.append((side, power, seat, 0 if void else 1, void))
    att = sum(p[3] for p in parts if p[0] == "attacker")
    dfn = sum(p[3] for p in parts if p[0] == "defender")
    if mixer is not None:
        winner = mixer
    elif att != dfn:
        winner = "attacker" if att > dfn else "defender"
    else:
        winner = ring
    return {"attacker": att, "defender": dfn, "winner": winner,
            "mixer": mixer is not None, "ring": mixer is None and att == dfn and ring is not None,
            "parts": parts}


def duel_queue(state: State, fight: dict) -> list[int]:
    """CASTLE-6.5 (r2), 6.10: after the priest window, before the support round, the attacker
    and the defender are asked whether to call a duel, each if their profession is face down."""
    return [s for s in (fight["attacker"], fight["defender"]) if not state.prof_used[s]]


def waiting_for(state: State) -> list[int]:
    """The seats that must act now (public)."""
    frame = state.top
    if frame is None or state.over:
        return []
    k = frame["kind"]
    if k in ("turn", "limit", "clairvoyant"):
        return [frame["seat"]]
    if k == "offer":
        return [frame["receiver"]]
    if k == "draw":
        return [frame["seat"]]
    if k == "effect":
        return [frame["owner"]]
    if k == "sextant":
        return [s for s in range(state.n) if not frame["done"][s]]
    if k == "diplomat":
        return [frame["target"] if frame["stage"] == "hand" else frame["diplomat"]]
    if k == "fight":
        return [] if frame["ask"] is None else [frame["ask"]]
    return []  # pragma: no cover


def relics_held(state: State, seat: int, relic: str) -> int:
    """How many of ``seat``'s items count as ``relic`` now (CASTLE-9.3); needs the hand known."""
    from .cards import relic_of
    return sum(1 for c in state.hands[seat]
               if c is not None and relic_of(c, state.bags_turned) == relic)


def smaller_society(state: State) -> str | None:
    """The society with one member fewer (odd counts: the set-aside card's, CASTLE-2.2, 9.4)."""
    return state.set_aside


__all__ = ["State", "SIDES", "RELIC", "new_fight", "role", "waiting_for"]
