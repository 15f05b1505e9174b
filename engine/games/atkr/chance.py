"""atkr's part of the chance audit (the ``chance`` hook, GameRules.chance; the statistics are
engine.chance_audit's, docs/chance-audit.md): every coal a referee reported in a physical
game, with the exact probability of what was reported given what was left in the furnace.

The furnace is followed from the log itself, independently of ``evolve``: 48 coals at the
start (ATKR-1.1: 2x100, 3x75, 7x50, 9x25, 9x20, 9x10, 9 devils), one fewer of the reported
kind at every ``coal_drawn``, all 48 again at every ``furnace_refilled`` (ATKR-7.1).  A
corrected game is walked as corrected (the records in force: engine.desk voids).

Two tests (engine.chance_audit.ChanceTest), weighing 3 : 1 in the correction:

* ``devils`` (binary): was the coal a devil?  Its probability is devils left / coals left.
* ``values``: given that a coal was not a devil, its value; mean and variance are those of a
  coal drawn at random among the non-devils left (only draws that reported a non-devil while
  at least two values were left count).
"""

from __future__ import annotations

from typing import Iterable

from ...chance_audit import ChanceTest, GameDraws, ReportedDraw, Score
from . import events as ev
from .state import COAL_COUNTS, COAL_KINDS, KIND_INDEX, coal_name

#: the devils test weighs 3 to the values test's 1 in each family's share of alpha
#: (engine.chance_audit): a devil decides a turn (a bust, ATKR-4.4) and is the draw the
#: threat the audit exists for turns on (a referee telling a favoured player "no devil");
#: a value reported high is the smaller, secondary screen
TESTS = (
    ChanceTest("devils", "a devil reported as often as the devils left in the furnace give "
               "(devils left / coals left at each draw)", "ATKR-1.1", binary=True, weight=3.0),
    ChanceTest("values", "the value of a coal that was not a devil, against the values of the "
               "non-devils left in the furnace", "ATKR-1.1", weight=1.0),
)
_DEVIL = KIND_INDEX[ev.DEVIL]


def coal_scores(furnace: list[int] | tuple[int, ...], coal: int) -> tuple[Score, ...]:
    """The scores of reporting ``coal`` (its value, 0 a devil) from ``furnace`` (counts per
    kind in :data:`engine.games.atkr.state.COAL_KINDS` order, the coal still in it): the
    devil indicator with probability devils / left, and, for a non-devil with at least two
    values left among the non-devils, its value with the mean and variance of a non-devil
    drawn at random.  Example: the full furnace and a devil: ``Score("devils", 1, 9/48,
    9/48 * 39/48)``."""
    left = sum(furnace)
    p = furnace[_DEVIL] / left
    scores = [Score("devils", 1.0 if coal == ev.DEVIL else 0.0, p, p * (1.0 - p))]
    if coal != ev.DEVIL:
        others = left - furnace[_DEVIL]
        mean = sum(value * count for value, count in zip(COAL_KINDS, furnace)) / others
        var = sum(count * (value - mean) ** 2
                  for value, count in zip(COAL_KINDS, furnace) if value != ev.DEVIL) / others
        if var > 0:
            scores.append(Score("values", float(coal), mean, var))
    return tuple(scores)


def walk(game: str, events: Iterable, seqs: Iterable[int]) -> GameDraws:
    """The reported coals of one game's events (in force, in log order, each with its record's
    sequence number in ``seqs``): a :class:`engine.chance_audit.GameDraws`; a digital game
    gives none (``physical`` False)."""
    names: list[str] = []
    physical = False
    furnace = list(COAL_COUNTS)
    draws: list[ReportedDraw] = []
    for event, seq in zip(events, seqs):
        t = type(event)
        if t is ev.CoalDrawn:
            if not physical:
                continue
            index = KIND_INDEX[event.coal]
            left = sum(furnace)
            draws.append(ReportedDraw(game, seq, names[event.seat], event.reporter,
                                      coal_name(event.coal), furnace[index] / left, left,
                                      coal_scores(furnace, event.coal)))
            furnace[index] -= 1
        elif t is ev.FurnaceRefilled:  # ATKR-7.1: all 48 back in
            furnace = list(COAL_COUNTS)
        elif t is ev.GameCreated:
            names, physical = list(event.players), bool(event.physical)
            furnace = list(COAL_COUNTS)
    return GameDraws(game, "atkr", physical, TESTS, tuple(draws))


def chance(log) -> GameDraws:
    """The chance hook: :func:`walk` over a recorded game (an engine.replay.LoadedLog, its
    voids applied: ``log.effective()``)."""
    return walk(log.header.game, log.events, (record.seq for record in log.records))
