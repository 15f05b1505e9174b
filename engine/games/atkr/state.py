"""The state of an Auf Teufel komm raus game, the coal set and the money track.

The state is a plain mutable record that :func:`engine.games.atkr.evolve.evolve` updates in
place.  Money is in integer units (multiples of 10).  Seats are 0-based.
"""

from __future__ import annotations

import attrs

from .events import DEVIL

#: Coal kinds in canonical order (the order chance picks over) and how many of each (ATKR-1.1).
COAL_KINDS: tuple[int, ...] = (100, 75, 50, 25, 20, 10, DEVIL)
COAL_COUNTS: tuple[int, ...] = (2, 3, 7, 9, 9, 9, 9)
KIND_INDEX = {value: index for index, value in enumerate(COAL_KINDS)}
ALL_COALS = sum(COAL_COUNTS)  # 48
START_MONEY = 200  # ATKR-1.3
GOAL = 1600  # ATKR-8.1
PRIZE = 50  # ATKR-5.6, 5.7
PACT_PAYMENT = 50  # ATKR-6.5
DEFAULT_RING = 16  # ATKR-7.2 [house]
DEFAULT_TRACK_LOW = 50  # ATKR-6.1: the lowest space is 0-50
DEFAULT_TRACK = (200, 300, 500, 700, 1000, 1300, 1600)  # ATKR-6.1 [house default]

PHASE_SETUP = "setup"
PHASE_BET = "bet"
PHASE_DRAW = "draw"
PHASE_OVER = "over"


def coal_name(coal: int) -> str:
    """``"devil"`` for 0, else the value as text."""
    return "devil" if coal == DEVIL else str(coal)


def track_space(money: int, low: int, labels: list[int] | tuple[int, ...]) -> int:
    """The track space index of ``money`` (ATKR-6.1).

    Space 0 holds 0..``low``; labelled value ``labels[j]`` is space ``2j + 2``; the space
    between two labels (or between ``low`` and the first label) is the odd index in between;
    the top label's space holds everything from it up.
    Example with the default track: 60 -> 1, 200 -> 2, 310 -> 5, 370 -> 5, 300 -> 4, 1700 -> 14.
    """
    if money <= low:
        return 0
    previous = low
    for j, label in enumerate(labels):
        if money == label:
            return 2 * j + 2
        if previous < money < label:
            return 2 * j + 1
        previous = label
    return 2 * len(labels)


def space_label(space: int, low: int, labels: list[int] | tuple[int, ...]) -> str:
    """A readable name of a track space: ``"0-50"``, ``"200"``, ``"200..300"``, ``"1600+"``."""
    if space == 0:
        return f"0-{low}"
    if space % 2 == 0:
        j = space // 2 - 1
        return f"{labels[j]}+" if j == len(labels) - 1 else str(labels[j])
    j = (space - 1) // 2
    lower = low if j == 0 else labels[j - 1]
    return f"{lower}..{labels[j]}"


@attrs.define
class State:
    """Everything the rules need, as a fold of events sees it.

    Per-seat lists are in seat order.  ``bets[s]`` is the seat's bet this round, ``None`` while
    unknown to this fold (not yet placed, or sealed: see ``bet_in``).  ``money[s]`` is money not
    on the table (``None`` where this fold cannot know it).  ``furnace[k]`` counts coals of kind
    ``COAL_KINDS[k]`` still in the furnace.  ``bank`` is the bank's running balance (it starts at
    0; negative means it has paid out more than it took); ``bank_low`` the lowest it went.
    ``draws`` counts every coal drawn in the game (chance labels derive from it).
    """

    players: list[str] = attrs.field(factory=list)
    first: int = 0
    physical: bool = False
    ring: int = DEFAULT_RING
    track_low: int = DEFAULT_TRACK_LOW
    track: list[int] = attrs.field(factory=lambda: list(DEFAULT_TRACK))
    goal: int = GOAL
    commitment: str | None = None
    seed_chosen: bool = False
    duplicate: bool = False
    phase: str = PHASE_SETUP
    round: int = 0
    start: int = 0
    money: list = attrs.field(factory=list)
    bets: list = attrs.field(factory=list)
    bet_in: list = attrs.field(factory=list)
    table: list = attrs.field(factory=list)
    revealed: bool = False
    coals: list = attrs.field(factory=list)
    busted: list = attrs.field(factory=list)
    stopped: list = attrs.field(factory=list)
    had_turn: list = attrs.field(factory=list)
    turn: int | None = None
    furnace: list = attrs.field(factory=lambda: list(COAL_COUNTS))
    draws: int = 0
    spaces: list = attrs.field(factory=list)
    pacts: list = attrs.field(factory=list)
    bank: int = 0
    bank_low: int = 0
    winners: list = attrs.field(factory=list)
    seed: int | None = None
    salt: str | None = None

    def copy(self) -> "State":
        """A copy whose lists can be changed without touching this one (built slot by slot:
        ``decide`` copies the state for every command, and ``devil verify`` re-decides every
        command of a log)."""
        return _copy(self)

    @property
    def n(self) -> int:
        return len(self.players)

    def left_in_furnace(self) -> int:
        return sum(self.furnace)

    def total(self, seat: int) -> int:
        """The coal total ``seat`` lays out this round (0 if busted, ATKR-4.4)."""
        if self.busted[seat]:
            return 0
        return sum(self.coals[seat])

    def laid_out(self, seat: int) -> bool:
        """Whether ``seat`` lays out coals this round (had coals and did not bust)."""
        return not self.busted[seat] and bool(self.coals[seat])


#: the State fields :meth:`State.copy` copies as lists, and those it shares (immutable values)
_LISTS = ("players", "track", "money", "bets", "bet_in", "table", "busted", "stopped",
          "had_turn", "furnace", "spaces", "pacts", "winners")
_SCALARS = tuple(f.name for f in attrs.fields(State) if f.name not in _LISTS + ("coals",))



def _make_copy():
    """:meth:`State.copy` as one generated function: each field set through its slot, no
    lookup by name (the same fields, the same lists copied, as a loop over the names)."""
    lines = ["def copy(self):", "    other = new(State)"]
    for name in _SCALARS:
        lines.append(f"    set_{name}(other, self.{name})")
    for name in _LISTS:
        lines.append(f"    set_{name}(other, list(self.{name}))")
    lines += ["    set_coals(other, [list(c) for c in self.coals])", "    return other"]
    names = {"new": object.__new__, "State": State}
    names.update({f"set_{name}": getattr(State, name).__set__
                  for name in _SCALARS + _LISTS + ("coals",)})
    exec("\n".join(lines), names)  # noqa: S102 - code made from the field names above
    return names["copy"]


_copy = _make_copy()
