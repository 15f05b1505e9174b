"""Bots for Auf Teufel komm raus.  A bot sees only its own seat's redacted state and answers with
one of the seat's legal commands (engine.bots runs them through GameService.submit).

* ``random``: a random legal command: a bet of a random multiple of 10 from 0 up to
  ``max_bet`` (default 100) or all its money if less; draws again with probability ``p_draw``
  (default 0.6), else stops.  (Uniform bets over all one's money make games that practically
  never end: nobody reaches 1600.)
* ``cautious``: draws while the chance of a devil on the next draw is at most ``threshold``
  (default 0.2), and stops as soon as it passes it (after the compulsory first coal); bets a
  ``share`` (default 0.8) of the expected highest total of the round, estimated by playing the
  round out many times against the furnace as it stands (every seat playing cautiously).
"""

from __future__ import annotations

import random

from .commands import Bet, Draw, Stop
from .state import COAL_KINDS, KIND_INDEX, PHASE_BET, PHASE_DRAW, State
from .events import DEVIL

_DEVIL_INDEX = KIND_INDEX[DEVIL]


class RandomBot:
    """A random legal command (see the module docstring), chosen by ``rng``.  It reads only
    ``legal`` (a list, or the lazy :class:`engine.games.atkr.view.Choices`), never the state
    (``reads_state = False``: a simulation need not fold its seat, engine.simulate)."""

    kind = "random"
    reads_state = False

    def __init__(self, rng: random.Random | None = None, max_bet: int = 100,
                 p_draw: float = 0.6):
        self.rng = rng or random.Random()
        self.max_bet = max_bet
        self.p_draw = p_draw

    def choose(self, state: State | None, seat: int, legal):
        if not legal:
            return None
        rng = self.rng
        bets = getattr(legal, "bets", None)
        if bets is not None:  # the lazy choices: the top bet without building every bet
            return Bet(legal.player, rng.randrange(0, min(bets[-1], self.max_bet) + 1, 10))
        if type(legal[0]) is Bet:
            top = max(c.amount for c in legal)
            return Bet(legal[0].player, rng.randrange(0, min(top, self.max_bet) + 1, 10))
        draws = [c for c in legal if type(c) is Draw]
        stop = [c for c in legal if type(c) is Stop]
        if draws and (not stop or rng.random() < self.p_draw):
            return rng.choice(draws)
        return stop[0] if stop else rng.choice(legal)


def devil_chance(furnace) -> float:
    """The chance that the next coal drawn from ``furnace`` (counts per kind) is a devil."""
    left = sum(furnace)
    return furnace[_DEVIL_INDEX] / left if left else 0.0


def expected_highest_total(furnace, players: int, threshold: float, rng: random.Random,
                           samples: int = 200) -> float:
    """The mean highest coal total of a round drawn from ``furnace`` by ``players`` cautious
    players (each stops once the devil chance passes ``threshold``); a Monte Carlo estimate."""
    bag = [kind for kind, count in zip(COAL_KINDS, furnace) for _ in range(count)]
    if not bag:
        return 0.0
    total_h = 0
    for _ in range(samples):
        pool = bag[:]
        rng.shuffle(pool)
        devils = furnace[_DEVIL_INDEX]
        best = 0
        for _player in range(players):
            total = 0
            while pool:
                coal = pool.pop()
                if coal == DEVIL:
                    devils -= 1
                    total = 0
                    break
                total += coal
                if pool and devils / len(pool) > threshold:
                    break
            best = max(best, total)
            if not pool:
                break
        total_h += best
    return total_h / samples


class CautiousBot:
    """Stops when the devil chance passes ``threshold``; bets ``share`` of the expected highest
    total (never more than it has)."""

    kind = "cautious"

    def __init__(self, rng: random.Random | None = None, threshold: float = 0.2,
                 share: float = 0.8, samples: int = 200):
        self.rng = rng or random.Random()
        self.threshold = threshold
        self.share = share
        self.samples = samples
        self._cache: dict = {}

    def choose(self, state: State, seat: int, legal: list):
        if not legal:
            return None
        name = state.players[seat]
        if state.phase == PHASE_BET:
            key = (tuple(state.furnace), state.n)
            if key not in self._cache:
                self._cache[key] = expected_highest_total(state.furnace, state.n, self.threshold,
                                                          self.rng, self.samples)
            target = int(self._cache[key] * self.share) // 10 * 10
            amount = max(0, min(state.money[seat], target))
            return Bet(name, amount)
        if state.phase == PHASE_DRAW:
            can_stop = any(isinstance(c, Stop) for c in legal)
            if can_stop and devil_chance(state.furnace) > self.threshold:
                return Stop(name)
            draws = [c for c in legal if isinstance(c, Draw)]
            if draws:
                if state.physical:  # the referee reports coals; a bot cannot draw for real
                    return self.rng.choice(draws)
                return draws[0]
            return legal[0]
        return legal[0]


BOTS = {"random": RandomBot, "cautious": CautiousBot}
