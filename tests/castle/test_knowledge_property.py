"""CASTLE-11.1 as a property: after every event of random bot games, at every player count and
with every variant, a seat's view (computed from its own redacted stream) and the event as
that seat sees it name no hidden card the seat was not granted.

Granted to a seat: its own dealt cards (``cards_dealt``), every value of its knowledge facts
(each private look and each card received face down, 11.1), and what is public (effect names
announced, items shown in a fight, the diplomat's demanded kind, cards laid open by a
declaration, removed items, used professions).  Another seat's society or profession may be
shown only with a knowledge fact about it (or once public).

The default run plays a few short games; ``-m slow`` plays 1,000 (times DEVIL_TEST_SCALE).
"""

from __future__ import annotations

import random
import time

import pytest

from engine.chance import SeededChance
from engine.games.castle import RULES
from engine.games.castle import events as E
from engine.games.castle.bots import RandomBot, SensibleBot
from engine.games.castle.state import waiting_for
from engine.games.castle.cards import ALL_ITEMS

from ..scale import SCALE
from .helpers import NAMES

ITEMS = set(ALL_ITEMS)
#: keys whose values are public names (or the grant itself), never a hidden card
PUBLIC_KEYS = {"offered_named", "returned_named", "effect", "kind", "removed", "power", "reason",
               "source", "want", "knowledge", "options", "declaration", "revealed", "phase"}


def cards_in(obj, out: set) -> set:
    """The item ids in a nested map/list, skipping PUBLIC_KEYS."""
    stack = [obj]
    while stack:
        x = stack.pop()
        t = type(x)
        if t is str:
            if x in ITEMS:
                out.add(x)
        elif t is dict:
            stack.extend(v for k, v in x.items() if k not in PUBLIC_KEYS)
        elif t is list or t is tuple:
            stack.extend(x)
    return out


class Checker:
    """Checks every seat after every event (``on_event`` of ``bots.self_play``)."""

    def __init__(self, n: int):
        self.n = n
        self.events = 0
        self.public: set = set()
        self.dealt: list = [[] for _ in range(n)]

    def granted(self, seat_state, seat: int) -> set:
        out = set(self.dealt[seat]) | self.public
        for fact in seat_state.knowledge.get(seat, []):
            cards_in(fact["value"], out)
        return out

    def __call__(self, event, state, seats) -> None:
        self.events += 1
        if isinstance(event, E.CardsDealt):
            self.dealt = [list(h) for h in event.hands]
        if isinstance(event, E.Declared):
            for r in event.revealed:
                self.public |= set(r.items)
        for seat in range(self.n):
            mine = seats[seat]
            granted = self.granted(mine, seat)
            shown = cards_in(RULES.events.to_map(RULES.redact(event, seat)), set())
            assert shown <= granted, (seat, event.TYPE, shown - granted)
            view = RULES.view(mine, seat)
            seen = cards_in(view, set())
            assert seen <= granted, (seat, event.TYPE, seen - granted)
            facts = mine.knowledge.get(seat, [])
            for other, p in enumerate(view["players"]):
                if other == seat or other in mine.revealed:
                    continue
                name = p["name"]
                if p["society"] is not None:
                    assert any(f["about"] == name and f["what"] == "society" for f in facts), \
                        (seat, name, "society", event.TYPE)
                if p["profession"] is not None and not p["profession_used"]:
                    assert any(f["about"] == name and f["what"] == "profession" for f in facts), \
                        (seat, name, "profession", event.TYPE)
                for k, card in enumerate(p.get("society_cards") or []):
                    if card is not None:
                        assert any(f["about"] == name and f["what"] == f"society-card-{k + 1}"
                                   for f in facts)


class Patient(RandomBot):
    """A random bot that declares only when nothing else is legal (so games run long enough
    for hand limits, sextants, fights and draws to happen)."""

    def choose(self, state, seat, legal):
        return super().choose(state, seat, [c for c in legal if c.TYPE != "declare"] or legal)


def play(index: int, rounds: int) -> int:
    """Game ``index``: 3 to 10 players in turn, every variant (advanced-3p on odd 3-player
    games), the beginner game every third game; random and sensible bots mixed."""
    n = 3 + index % 8
    variants = ["smuggling", "prophecy", "scoring"]
    if n == 3 and index % 16 < 8:
        variants.append("advanced-3p")
    rng = random.Random(index)
    bots = {s: (SensibleBot if (s + index) % 4 == 0 else Patient)(rng=random.Random(index * 31 + s))
            for s in range(n)}
    checker = Checker(n)
    options = {"players": NAMES[:n], "variants": variants, "beginner": index % 3 == 0}
    chance = SeededChance(index, "11.1")
    state = RULES.initial()
    seats = [RULES.initial() for _ in range(n)]

    def apply(batch):
        nonlocal state
        for e in batch:
            state = RULES.evolve(state, e)
            for s in range(n):
                seats[s] = RULES.evolve(seats[s], RULES.redact(e, s))
            checker(e, state, seats)

    apply(RULES.setup(options, chance))
    while not state.over and state.round <= rounds:
        seat = rng.choice(waiting_for(state))
        legal = RULES.legal_commands(seats[seat], seat)
        apply(RULES.decide(state, bots[seat].choose(seats[seat], seat, legal), chance))
    return checker.events


def test_castle_11_1_views_and_streams_hold_only_what_knowledge_grants():
    events = sum(play(i, rounds=1) for i in range(8))
    assert events > 400


@pytest.mark.slow
def test_castle_11_1_a_thousand_random_bot_games():
    start = time.perf_counter()
    games = 1000 * SCALE
    events = sum(play(10_000 + i, rounds=3) for i in range(games))
    print(f"\n{games} castle games, {events} events checked in {time.perf_counter() - start:.1f} s")
    assert events > games * 20
