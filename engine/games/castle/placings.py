"""How a finished Castle of the Devil game places its players, for tournaments
(``GameRules.placings``; read by engine.tournament)."""

from __future__ import annotations


def placings(state) -> dict:
    """Winners and losers (CASTLE-9.2): every winner takes the first place, every loser the
    last place at the table (a table of N players: place N), tied within each group without
    sharing.  With the ``scoring`` variant (CASTLE-10.3) the personal scores are the points
    and the values summed for the tiebreak; without it the score tiebreak counts 0.  See
    ``GameRules.placings`` for the map's shape."""
    names = list(state.players)
    n = len(names)
    winners = sorted(int(s) for s in (state.winners or []))
    places = [1 if seat in winners else n for seat in range(n)]
    scores = state.points
    if scores is not None:
        values = [int(scores.get(name, 0)) for name in names]
        return {"places": [1 + sum(1 for o in values if o > v) for v in values], "share": False,
                "points": values, "measure": "score", "values": values, "winners": winners}
    return {"places": places, "share": False, "points": None, "measure": "score",
            "values": [0] * n, "winners": winners}


#: the house rule an adjudicated game is placed by (docs/house-rules.md)
ADJUDICATION_RULE = "CASTLE-H1"


def adjudicated(rules, events: list) -> dict:
    """A game the referee ended at time (DESK-8) is a draw by CASTLE-H1: nobody wins, every
    seat takes place 1 and they share the points of all the table's places equally (TOUR-3.2:
    at a table of 4 on 6,4,2,1,0, (6 + 4 + 2 + 1) / 4 = 3.25 each), the scoring variant's
    personal scores included (they are not final, so they are not points: the tiebreak's
    score counts 0).  ``events``: the kind's events in force; ``rules``: the kind's GameRules."""
    state = rules.fold(events)
    n = len(state.players)
    return {"places": [1] * n, "share": True, "points": None, "measure": "score",
            "values": [0] * n, "winners": [], "rule": ADJUDICATION_RULE}
