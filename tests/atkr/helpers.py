"""A table for rules tests: an in-memory Auf Teufel komm raus game driven through decide/fold."""

from __future__ import annotations

from engine.chance import SeededChance
from engine.game import REFEREE
from engine.games.atkr import RULES
from engine.games.atkr import events as ev
from engine.games.atkr.commands import Bet, Draw, Stop

DEVIL = ev.DEVIL


class Table:
    """A game in memory.  Physical by default, so each test chooses every coal."""

    def __init__(self, players, first=None, physical=True, seed=None, **options):
        self.chance = None if physical else SeededChance(seed or 0, "00")
        opts = {"players": list(players), "first": first, "physical": physical, **options}
        self.events = RULES.setup(opts, self.chance)
        self.state = RULES.fold(self.events)
        self.names = list(players)

    def do(self, command) -> list:
        new = RULES.decide(self.state, command, self.chance)
        self.events.extend(new)
        self.state = RULES.fold(new, self.state)
        return new

    def bet(self, name, amount):
        return self.do(Bet(name, amount))

    def bets(self, **amounts):
        out = []
        for name in self.names:
            if name in amounts:
                out += self.bet(name, amounts[name])
        return out

    def draw(self, name, coal=None):
        return self.do(Draw(name, coal))

    def stop(self, name):
        return self.do(Stop(name))

    def turn(self, name, *coals, stop=True):
        """Draw ``coals`` in order; stop afterwards unless the last was a devil (or told not to)."""
        out = []
        for coal in coals:
            out += self.draw(name, coal)
        if stop and coals and coals[-1] != DEVIL:
            out += self.stop(name)
        return out

    def money(self, name):
        return self.state.money[self.names.index(name)]

    def seat(self, name):
        return self.names.index(name)

    def view(self, viewer=REFEREE):
        state = RULES.fold(RULES.redact(e, viewer) for e in self.events) \
            if viewer is not REFEREE else self.state
        return RULES.view(state, viewer)

    def since(self, index):
        return self.events[index:]


def of_type(events, cls):
    return [e for e in events if isinstance(e, cls)]
