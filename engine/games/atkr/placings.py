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
