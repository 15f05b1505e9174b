"""What the standings show of adjudicated tables and amended results (TOUR-8.3, TOUR-9.1,
9.4): marks on the players' rows and notes under the table, from the tournament's state
(engine.tournament.rules.TournamentState; the events are engine.tournament.amend's)."""

from __future__ import annotations

from ..log import iso_time


def marks(state) -> dict[str, dict[str, list[int]]]:
    """player -> ``{"adjudicated": [rounds], "amended": [rounds]}``: the rounds in which the
    player's table was ended at time (TOUR-8.3) or had its result amended (TOUR-9.1); only
    the keys that have a round, only players who have one (a stream without either gives
    {}, so standings published before stay equal)."""
    out: dict[str, dict[str, list[int]]] = {}

    def mark(round_: int, table: int, key: str) -> None:
        for name in state.tables[round_][table - 1].players:
            rounds = out.setdefault(name, {}).setdefault(key, [])
            if round_ not in rounds:
                rounds.append(round_)

    for (round_, table), result in sorted(state.results.items()):
        if result.adjudicated is not None:
            mark(round_, table, "adjudicated")
    for amendment in state.amendments:
        mark(amendment.round, amendment.table, "amended")
    for extra in out.values():
        for rounds in extra.values():
            rounds.sort()
    return out


def notes(state) -> list[str]:
    """Sentences for under the standings: each adjudicated table (the rule, forced or at
    time) and each amendment (why; which later rounds were paired with the old standings and
    stand, TOUR-9.4)."""
    out = []
    for (round_, table), result in sorted(state.results.items()):
        if result.adjudicated is None:
            continue
        at = state.adjudicated.get((round_, table))
        when = "" if at is None else (" before time, as the referee's call" if at.forced
                                       and (at.ends is None or at.at < at.ends)
                                       else f" at time ({iso_time(at.at, 0)})")
        out.append(f"round {round_}, table {table}: adjudicated{when} by {result.adjudicated}"
                   + ("" if at is None else f": {at.reason}"))
    for a in state.amendments:
        stand = ""
        if a.standing:
            rounds = ", ".join(str(r) for r in a.standing)
            stand = (f"; round{'s' if len(a.standing) > 1 else ''} {rounds} had been paired "
                     "with the old result and stand")
        out.append(f"round {a.round}, table {a.table}: result amended ({a.reason}): read again "
                   f"from {a.game} at record {a.seq}, replacing the one read at record "
                   f"{a.was_seq}{stand}")
    return out
