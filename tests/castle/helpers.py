"""Helpers for the castle tests: build games from a deal, play commands, check invariants."""

from __future__ import annotations

import copy
import random

from engine.errors import IllegalCommand
from engine.games.castle import RULES
from engine.games.castle import commands as C
from engine.games.castle import events as E
from engine.games.castle.cards import PROFESSIONS
from engine.games.castle.options import in_play
from engine.game import PUBLIC

NAMES = ["Ann", "Ben", "Cid", "Dora", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo"]


def make_deal(seats: list[tuple[str, str, list[str]]], pile: list[str] | None = None,
              set_aside: str | None = None, beginner: bool = False) -> dict:
    """A deal map from ``[(society, profession, items), ...]`` in seat order.

    ``pile`` gives the top of the item pile; every other item in play follows in canonical
    order.  The profession pile holds the remaining professions in canonical order."""
    n = len(seats)
    names = NAMES[:n]
    playing, _ = in_play(n, beginner)
    dealt = [c for _, _, items in seats for c in items]
    top = list(pile or [])
    rest = [c for c in playing if c not in dealt and c not in top]
    profs = [p for _, p, _ in seats]
    deal = {"seats": {names[i]: {"society": s, "profession": p, "items": list(items)}
                      for i, (s, p, items) in enumerate(seats)},
            "item_pile": top + rest, "pile_ordered": True,
            "profession_pile": [p for p in PROFESSIONS if p not in profs]}
    if n % 2:
        deal["set_aside"] = set_aside
    return deal


class Game:
    """A game folded from a deal (or, with ``opts``, from a complete options map such as a
    position file's, engine.games.castle.position); ``play`` submits commands through
    RULES.decide."""

    def __init__(self, deal: dict | None = None, n: int | None = None, chance=None,
                 opts: dict | None = None, **options):
        if opts is not None:
            self.names = list(opts["players"])
        else:
            n = n or len(deal["seats"])
            self.names = NAMES[:n]
            opts = {"players": self.names, "first": self.names[0], "deal": deal}
        opts = dict(opts)
        opts.update(options)
        self.chance = chance
        self.events = RULES.setup(opts, chance)
        self.state = RULES.fold(self.events)

    def seat(self, name: str) -> int:
        return self.names.index(name)

    def do(self, command) -> list:
        before = copy.deepcopy(self.state)
        new = RULES.decide(self.state, command, self.chance)
        assert self.state == before, "decide mutated the state"
        self.events += new
        self.state = RULES.fold(new, self.state)
        return new

    def play(self, *commands) -> list:
        out = []
        for c in commands:
            out += self.do(c)
        return out

    def refused(self, command) -> IllegalCommand:
        before = copy.deepcopy(self.state)
        try:
            RULES.decide(self.state, command, self.chance)
        except IllegalCommand as exc:
            assert self.state == before
            return exc
        raise AssertionError(f"{command} was accepted")

    def hand(self, name: str) -> list:
        return sorted(self.state.hands[self.seat(name)])

    def view(self, viewer):
        return RULES.view(self.state, viewer)

    def seat_view(self, seat):
        """The view computed from the seat's redacted stream alone."""
        st = RULES.fold(RULES.redact(e, seat) for e in self.events)
        return RULES.view(st, seat)

    def legal(self, name: str) -> list:
        return RULES.legal_commands(self.state, self.seat(name))

    def waiting(self) -> list:
        return self.view(None)["waiting_for"]

    def last(self, cls):
        return [e for e in self.events if isinstance(e, cls)]

    def pass_fight(self, until_stage: str | None = None):
        """Everyone asked in a fight window passes (support windows: neutral) until the fight
        reaches ``until_stage`` or ends."""
        for _ in range(200):
            f = self.state.fight()
            if f is None or f["stage"] == until_stage:
                return
            who = self.names[f["ask"]]
            if f["stage"] == "support":
                self.do(C.Support(player=who, side="neutral"))
            else:
                self.do(C.Pass(player=who))
        raise AssertionError("fight did not move")


# --- invariants -------------------------------------------------------------------------------

def check_cards(state) -> None:
    """Every item in play is in exactly one place (a hand or the pile)."""
    playing, removed = in_play(state.n, state.beginner)
    places = [c for h in state.hands for c in h] + list(state.pile)
    assert sorted(places) == sorted(playing), (sorted(places), sorted(playing))
    profs = [p for p in state.professions] + list(state.prof_pile)
    assert sorted(profs) == sorted(PROFESSIONS)


def check_counts(state) -> None:
    for s in range(state.n):
        assert state.count(s) >= 1, f"seat {s} holds no item"
    if not any(f["kind"] == "limit" for f in state.stack) and not state.over:
        over = [s for s in range(state.n) if state.count(s) > state.limit]
        assert not over, f"seats {over} over the limit with no give-away pending"


#: fields that name a card publicly: announced effects (CASTLE-4.5), items shown in a fight
#: (5.15), the diplomat's demanded kind, items removed from the game (2.5), declined effects
PUBLIC_FIELDS = {"offered_named", "returned_named", "effect", "kind", "removed", "power", "reason",
                 "source"}


def _cards_in(obj) -> set:
    """Every string in a nested event map, except the public-name fields."""
    out = set()
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if k not in PUBLIC_FIELDS:
                out |= _cards_in(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            out |= _cards_in(v)
    return out


ITEM_IDS = set(in_play(5, False)[0]) | {"black-pearl", "coat"}


def check_privacy(events: list) -> None:
    """A seat's redacted stream never names an item it has not been shown: each item id in a
    redacted event is in the seat's hand before or after it, or in its knowledge facts, or was
    laid open by a declaration."""
    n = len(events[0].players)
    full = RULES.initial()
    for e in events:
        before = [list(h) for h in full.hands] if full.hands else [[] for _ in range(n)]
        full = RULES.evolve(full, e)
        for seat in range(n):
            red = RULES.redact(e, seat)
            body = RULES.events.to_map(red)
            named = _cards_in(body) & ITEM_IDS
            if not named or isinstance(e, (E.Declared,)):
                continue
            allowed = set(before[seat]) | set(full.hands[seat])
            for fact in full.knowledge.get(seat, []):
                allowed |= _cards_in(fact["value"])
            assert named <= allowed, (seat, type(e).__name__, named - allowed)
        pub = RULES.events.to_map(RULES.redact(e, PUBLIC))
        if not isinstance(e, E.Declared):
            assert not (_cards_in(pub) & ITEM_IDS) - {"bag"}, (type(e).__name__, pub)


def check_views(events: list, state) -> None:
    """Each seat's view and legal commands from its redacted stream equal those computed from
    the referee's state; the public view too."""
    for seat in list(range(state.n)) + [PUBLIC]:
        st = RULES.fold(RULES.redact(e, seat) for e in events)
        assert RULES.view(st, seat) == RULES.view(state, seat), seat
        if seat >= 0:
            assert RULES.legal_commands(st, seat) == RULES.legal_commands(state, seat), seat


def check_codec(events: list) -> None:
    for e in events:
        m = RULES.events.to_map(e)
        assert RULES.events.from_map(m) == e


def random_game(n: int, rng: random.Random, chance, max_turns: int = 60, check_every: int = 1,
                variants=None, beginner: bool = False, options=None):
    """Play a random legal game: at each step a waiting seat, a command type and a command are
    picked at random from ``legal_commands`` (the type first, so declarations do not swamp the
    choice).  Checks invariants after each command.  Returns (events, state)."""
    players = NAMES[:n]
    opts = {"players": players, "variants": variants or [], "beginner": beginner}
    opts.update(options or {})
    events = RULES.setup(opts, chance)
    state = RULES.fold(events)
    steps = 0
    while not RULES.is_over(state) and state.turn <= max_turns:
        view = RULES.view(state, None)
        waiting = view["waiting_for"]
        assert waiting, "nobody to act"
        seat = players.index(rng.choice(waiting))
        cmds = RULES.legal_commands(state, seat)
        assert cmds, f"{players[seat]} must act but has no legal command"
        kinds = sorted({type(c).__name__ for c in cmds})
        # keep games going: declare rarely
        weights = [0.05 if k == "Declare" else 1.0 for k in kinds]
        k = rng.choices(kinds, weights)[0]
        c = rng.choice([c for c in cmds if type(c).__name__ == k])
        new = RULES.decide(state, c, chance)
        assert new
        for e in new:
            state = RULES.evolve(state, e)
            check_cards(state)
            for s in range(state.n):
                assert state.count(s) >= 1
        events += new
        check_counts(state)
        steps += 1
        if check_every and steps % check_every == 0:
            check_views(events, state)
    return events, state


# --- common positions -------------------------------------------------------------------------

def from_position(data: dict, chance=None, **options) -> Game:
    """A game started from the position file map ``data`` (docs/castle-rules.md)."""
    from engine.games.castle.position import options_from_position
    return Game(opts=options_from_position(data), chance=chance, **options)


def position(seats: dict, pile=None, ordered: bool = True, active: str | None = None,
             set_aside=None, **extra) -> dict:
    """A position file map: ``seats`` {name: (society, profession, items[, used])}; ``pile``
    the item pile (None: every item in play not in a hand, as a set unless ``ordered``)."""
    out = {"seats": {}, "pile_ordered": ordered}
    for name, entry in seats.items():
        soc, prof, items = entry[:3]
        seat = {"profession": prof, "items": list(items)}
        if isinstance(soc, list):
            seat["society_cards"] = soc
        else:
            seat["society"] = soc
        if len(entry) > 3:
            seat["profession_used"] = entry[3]
        out["seats"][name] = seat
    if pile is None and ordered:
        held = [c for entry in seats.values() for c in entry[2]]
        playing, _ = in_play(len(seats), extra.get("beginner", False))
        pile = [c for c in playing if c not in held]
    if pile is not None:
        out["item_pile"] = list(pile)
    if active:
        out["active"] = active
    if set_aside:
        out["set_aside"] = set_aside
    out.update(extra)
    return out

def game(seats, pile=None, set_aside=None, chance=None, **options) -> Game:
    """A game from ``[(society, profession, items), ...]`` (see make_deal); Ann starts."""
    return Game(make_deal(seats, pile, set_aside, options.get("beginner", False)),
                chance=chance, **options)


def end_turn_by_passing(g: Game, until: str) -> None:
    """Everyone passes their turn until it is ``until``'s turn."""
    for _ in range(20):
        if g.view(None)["turn"] == until and g.state.top["kind"] == "turn":
            return
        g.do(C.Pass(player=g.view(None)["turn"]))
    raise AssertionError("never reached")


def tie_fight(g: Game, attacker: str, defender: str) -> list:
    """``attacker`` attacks ``defender`` and everybody passes: a 1:1 tie (CASTLE-6.6)."""
    out = g.do(C.Attack(player=attacker, defender=defender))
    g.pass_fight()
    return out
