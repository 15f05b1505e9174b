"""How a finished Auf Teufel komm raus game places its players, for tournaments
(``GameRules.placings``; read by engine.tournament)."""

from __future__ import annotations


def places_by(values: list[int]) -> list[int]:
    """1-based places by ``values``, highest first; equal values share the better place
    (``[900, 1600, 900, 400]`` -> ``[2, 1, 2, 4]``)."""
    return [1 + sum(1 for other in values if other > value) for value in values]


def placings(state) -> dict:
    """The players placed by final money (ATKR-8.2: the most money wins; tied players share
    the places they span, and so share those places' points equally).  See
    ``GameRules.placings`` for the map's shape; money is an integer, a multiple of 10."""
    money = [int(m) for m in state.money]
    return {"places": places_by(money), "share": True, "points": None, "measure": "money",
            "values": money, "winners": sorted(int(s) for s in state.winners)}


#: the house rule an adjudicated game is placed by (docs/house-rules.md)
ADJUDICATION_RULE = "ATKR-H1"


def adjudicated(rules, events: list) -> dict:
    """The players of a game the referee ended at time (DESK-8) placed by ATKR-H1: by money as
    it stood when the last round was settled, i.e. when the round in progress began (its
    ``round_started``).  The round in progress is abandoned: its bets go back to their owners
    and what it moved (a devil's-pact payment, a bet won or lost) is undone.  Ties share as in
    :func:`placings`; the most money wins.  ``events``: the kind's events in force (voids
    applied, no desk records); ``rules``: the kind's GameRules (to fold them)."""
    state = rules.initial()
    settled: list[int] | None = None
    for event in events:
        state = rules.evolve(state, event)
        if getattr(type(event), "TYPE", None) == "round_started":
            settled = [int(m) for m in state.money]
    money = settled if settled is not None else [int(m or 0) for m in state.money]
    best = max(money) if money else 0
    return {"places": places_by(money), "share": True, "points": None, "measure": "money",
            "values": money, "winners": [s for s, m in enumerate(money) if m == best],
            "rule": ADJUDICATION_RULE}
