"""Finals after the Swiss rounds (docs/tournaments.md, TOUR-10).

``--final-table N`` (``final_table`` in TournamentCreated; 0: no final) and ``--final-tables
K`` (``final_tables``, default 1): after the last Swiss round closes the tournament is not
finished; the next ``pair`` seats the top ``N * K`` active players of the Swiss standings
(TOUR-10.2: the standings' own order, so ties at the cut line are decided by the tiebreaks and
then the seeded draw) at K final tables of N, cut by the snake method (TOUR-10.3).  The final
round is round ``rounds + 1``; its points do not count in the Swiss standings.  When it closes
the tournament finishes, ranked by the final placing (TOUR-10.4): the finalists first, by
their place at their final table, then everyone else by Swiss rank.

Nothing here knows a game: the final tables are played and read like any other table.  It
imports neither the standings nor the pairing (they import it): the Swiss ranking is passed in.
"""

from __future__ import annotations

MAX_FINAL_TABLES = 16
#: the new tournament's options this module reads
OPTIONS = ("final_table", "final_tables")


def check(options: dict, low: int, high: int) -> tuple[int, int]:
    """``(final_table, final_tables)`` from the new tournament's options: ``final_table`` 0
    (no final) or a table size from ``low`` to ``high``; ``final_tables`` 1 to
    :data:`MAX_FINAL_TABLES`, only with a final table.  Raises UsageError (TOUR-10.1)."""
    from ..errors import UsageError

    size = options.get("final_table", 0)
    count = options.get("final_tables", 1)
    if size is None:
        size = 0
    if count is None:
        count = 1
    if type(size) is not int or size != 0 and not low <= size <= high:
        raise UsageError(f"a final table seats {low} to {high} players, like every table "
                         f"(TOUR-10.1), not {size!r}")
    if type(count) is not int or not 1 <= count <= MAX_FINAL_TABLES:
        raise UsageError(f"final tables are 1 to {MAX_FINAL_TABLES} (TOUR-10.1), not {count!r}")
    if count > 1 and not size:
        raise UsageError("--final-tables needs --final-table N: the players at each final "
                         "table (TOUR-10.1)")
    return size, count


def has_final(created) -> bool:
    """Whether the tournament ends with a final round (TOUR-10.1)."""
    return bool(getattr(created, "final_table", 0))


def last_round(created) -> int:
    """The number of the tournament's last round: ``rounds``, or ``rounds + 1`` (the final)."""
    return created.rounds + (1 if has_final(created) else 0)


def is_final(created, round_: int) -> bool:
    """Whether round ``round_`` is the final round (TOUR-10.2)."""
    return has_final(created) and round_ == created.rounds + 1


def check_add(state) -> None:
    """A late registration once the Swiss rounds are over: refused, IllegalCommand TOUR-10.2
    (the final is for the players of the Swiss rounds)."""
    from ..errors import IllegalCommand

    created = state.created
    if has_final(created) and state.round >= created.rounds:
        raise IllegalCommand("TOUR-10.2", f"the {created.rounds} Swiss round(s) have been "
                             "paired: nobody registers for the final alone")


def snake(seeds: list[str], tables: int) -> list[list[str]]:
    """``seeds`` (best first) dealt to ``tables`` tables by the snake method (TOUR-10.3): the
    first row of seeds left to right, the next right to left, and so on; 8 seeds at 2 tables:
    table 1 seeds 1, 4, 5, 8 and table 2 seeds 2, 3, 6, 7.  Each table lists its players by
    seed, best first."""
    out: list[list[str]] = [[] for _ in range(tables)]
    for index, name in enumerate(seeds):
        row, col = divmod(index, tables)
        out[col if row % 2 == 0 else tables - 1 - col].append(name)
    return out


def pairing(state, round_: int, swiss: list[str], repeats
            ) -> tuple[list[tuple[list[str], str]], list[str], int]:
    """The final round's tables: ``([(seat order, first), ...], byes, repeats)``, as
    engine.tournament.rules.pairing answers, from ``swiss`` (every player by Swiss rank:
    engine.tournament.standings.compute, where the final never counts) and ``repeats(tables,
    met)`` (engine.tournament.pairing.repeats).  The top ``final_table * final_tables`` active
    players by Swiss rank (dropped players are passed over), dealt by :func:`snake`; at each
    table the players sit in seed order and the best seed starts (TOUR-10.3).  Nobody has a
    bye: the others do not play the final.  Raises IllegalCommand (TOUR-10.2) when too few
    active players are left."""
    from ..errors import IllegalCommand

    created = state.created
    size, count = created.final_table, created.final_tables
    live = set(state.active(round_, checked=False))  # no check-in for the final (TOUR-10.2)
    ranked = [p for p in swiss if p in live]
    need = size * count
    if len(ranked) < need:
        raise IllegalCommand("TOUR-10.2", f"the final needs {need} active players "
                             f"({count} table(s) of {size}); {len(ranked)} are left")
    tables = snake(ranked[:need], count)
    return [(list(t), t[0]) for t in tables], [], repeats(tables, state.met())


def final_ranking(state, swiss: list[str]) -> list[str]:
    """The tournament's ranking with a final (TOUR-10.4), from ``swiss`` (every player by Swiss
    rank): the finalists first, ordered by their place at their final table, equal places (at
    different tables, or tied at one) by Swiss rank; then everyone else by Swiss rank.  Before
    every final table has its result (or without a final): ``swiss``."""
    created = state.created
    final = created.rounds + 1
    tables = state.tables.get(final)
    if not tables or any((final, n) not in state.results for n in range(1, len(tables) + 1)):
        return swiss
    rank = {p: i for i, p in enumerate(swiss)}
    placed: list[tuple[int, int, str]] = []
    for number, table in enumerate(tables, 1):
        result = state.results[(final, number)]
        placed.extend((place, rank[name], name) for place, name in zip(result.places,
                                                                        table.players))
    finalists = [name for _, _, name in sorted(placed)]
    seen = set(finalists)
    return finalists + [p for p in swiss if p not in seen]


def annotate(state, rows: list[dict]) -> list[dict]:
    """The standings rows (engine.tournament.standings.rows, in Swiss order) of a tournament
    with a final: each row gains ``swiss_rank`` (its Swiss place), ``finalist`` (seated at a
    final table), ``final_table`` and ``final_place`` (its table and place there, None until
    that table's result is recorded); once every final table has its result the rows are in
    the final order (TOUR-10.4) and ``rank`` is the final placing.  Rows of a tournament
    without a final are returned as they are."""
    created = state.created
    if not has_final(created):
        return rows
    final = created.rounds + 1
    seats: dict[str, tuple[int, int | None]] = {}
    for number, table in enumerate(state.tables.get(final, []), 1):
        result = state.results.get((final, number))
        for seat, name in enumerate(table.players):
            seats[name] = (number, None if result is None else result.places[seat])
    by_name = {}
    for row in rows:
        row["swiss_rank"] = row["rank"]
        table, place = seats.get(row["player"], (None, None))
        row["finalist"] = row["player"] in seats
        row["final_table"] = table
        row["final_place"] = place
        by_name[row["player"]] = row
    out = [by_name[name] for name in final_ranking(state, [r["player"] for r in rows])]
    for rank, row in enumerate(out, 1):
        row["rank"] = rank
    return out


def round_label(created, round_: int) -> str:
    """How a round is named for people: ``round 2``, or ``the final`` (TOUR-10)."""
    return "the final" if is_final(created, round_) else f"round {round_}"
