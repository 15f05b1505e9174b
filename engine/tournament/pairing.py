"""Seating a round of multiplayer tables (docs/tournaments.md, TOUR-2).

Swiss, the classic pairing (TOUR-2.10; engine.tournament.swiss has the score-groups one):
the active players in standing order (round 1: a seeded draw) are cut into tables as equal
as possible within the allowed sizes, the largest first (22 players at 4 to 5: 5, 5, 4, 4,
4), leading players at table 1; players who cannot be seated get byes (the lowest
ranked who have had the fewest).  Then swaps between tables remove repeated opponents, first
between players on equal points, then between neighbouring tables, then anywhere.  The same
swaps run from a simple greedy seating too, and the seating with fewer repeats is taken (the
standings cut on a tie), so a round never repeats more opponents than that greedy seating.
Every choice is a function of the stream: anyone can recompute a round's pairing.
"""

from __future__ import annotations

from .standings import draw_key


def table_sizes(count: int, low: int, high: int) -> list[int] | None:
    """Sizes of tables seating exactly ``count`` players within ``low``..``high``, as few
    tables as possible, as equal as possible, larger first; None if impossible."""
    if count <= 0:
        return None
    tables = -(-count // high)
    if tables * low > count:
        return None
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def bye_count(count: int, low: int, high: int) -> int | None:
    """The fewest players to leave out so the rest can be seated; None if nobody can be."""
    for byes in range(count):
        if table_sizes(count - byes, low, high) is not None:
            return byes
    return None


def repeats(tables: list[list[str]], met: dict[str, set]) -> int:
    """Pairs at a table who met before."""
    total = 0
    for table in tables:
        for i, a in enumerate(table):
            seen = met.get(a)
            if seen:
                total += sum(1 for b in table[i + 1:] if b in seen)
    return total


def greedy(ranked: list[str], sizes: list[int], met: dict[str, set]) -> list[list[str]]:
    """The simple greedy seating: fill tables in order; each seat takes the best-ranked
    remaining player who has met nobody at the table yet (else the one who met fewest)."""
    remaining = list(ranked)
    tables = []
    for size in sizes:
        table: list[str] = []
        while len(table) < size:
            best, best_count = 0, None
            for index, name in enumerate(remaining):
                seen = met.get(name, ())
                count = sum(1 for m in table if m in seen)
                if best_count is None or count < best_count:
                    best, best_count = index, count
                    if count == 0:
                        break
            table.append(remaining.pop(best))
        tables.append(table)
    return tables


def improve(tables: list[list[str]], met: dict[str, set], points: dict, budget: int = 4000
            ) -> list[list[str]]:
    """Swap players between tables while a swap lowers the repeats (see the module doc).
    ``budget`` bounds the swaps tried (each sweep is linear in the players)."""
    tables = [list(t) for t in tables]
    empty: set = set()

    def clash(name, table, without):
        seen = met.get(name, empty)
        return sum(1 for m in table if m != without and m in seen)

    for mode in ("group", "adjacent", "any"):
        improved = True
        while improved and budget > 0:
            improved = False
            for ti, table in enumerate(tables):
                for a in list(table):
                    here = clash(a, table, a)
                    if not here:
                        continue
                    if mode == "adjacent":
                        others = [tj for tj in (ti - 1, ti + 1) if 0 <= tj < len(tables)]
                    else:
                        others = [tj for tj in range(len(tables)) if tj != ti]
                    best = None
                    pa = points.get(a)
                    for tj in others:
                        other = tables[tj]
                        for b in other:
                            if mode == "group" and points.get(b) != pa:
                                continue
                            budget -= 1
                            delta = (clash(b, table, a) - here
                                     + clash(a, other, b) - clash(b, other, b))
                            if delta < 0 and (best is None or delta < best[0]):
                                best = (delta, tj, b)
                    if best is not None:
                        _, tj, b = best
                        table[table.index(a)] = b
                        tables[tj][tables[tj].index(b)] = a
                        improved = True
    return tables


def seat(tables: list[list[str]], firsts: dict[str, int], seed: int, round_: int,
         places: dict[str, list[float]] | None = None) -> list[tuple[list[str], str]]:
    """Seat order and start player of each table, balanced across rounds: the player who has
    started fewest games starts (a seeded draw among equals) and sits first; the others sit
    in order of how late they sat so far (``places``: name -> each earlier seat as a fraction
    of the way round the table, 0 first, 1 last), the one who sat earliest before now last,
    a seeded draw among equals.  Returns ``[(players in seat order, first), ...]``."""
    places = places or {}
    out = []
    for number, table in enumerate(tables, 1):
        first = min(table, key=lambda p: (firsts.get(p, 0),
                                          draw_key(seed, round_, number, "first", p)))

        def lateness(p):
            seen = places.get(p)
            mean = sum(seen) / len(seen) if seen else 0.5
            return (-mean, draw_key(seed, round_, number, "seat", p))

        rest = sorted((p for p in table if p != first), key=lateness)
        out.append(([first, *rest], first))
    return out


def swiss(ranked: list[str], low: int, high: int, met: dict[str, set], points: dict,
          byes_had: dict[str, int]) -> tuple[list[list[str]], list[str]]:
    """``(tables, byes)`` for players in standing order (see the module doc).  Raises
    ValueError when not even one table can be seated."""
    leave = bye_count(len(ranked), low, high)
    if leave is None:
        raise ValueError(f"{len(ranked)} active players cannot fill one table of {low} to {high}")
    byes: list[str] = []
    if leave:
        bottom_up = list(reversed(ranked))
        order = sorted(range(len(bottom_up)), key=lambda i: (byes_had.get(bottom_up[i], 0), i))
        byes = [bottom_up[i] for i in order[:leave]]
    seated = [p for p in ranked if p not in set(byes)]
    sizes = table_sizes(len(seated), low, high)
    assert sizes is not None  # bye_count left a number of players that tables can seat
    cut, start = [], 0
    for size in sizes:
        cut.append(seated[start:start + size])
        start += size
    best = improve(cut, met, points)
    if repeats(best, met):
        other = improve(greedy(seated, sizes, met), met, points)
        if repeats(other, met) < repeats(best, met):
            best = other
    return best, [p for p in ranked if p in set(byes)]
