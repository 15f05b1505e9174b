"""Swiss that keeps score groups (docs/tournaments.md, TOUR-2.5 to TOUR-2.9).

The seating of a round is the one of least **cost**, compared in this order (a lexicographic
objective; every term is a whole number):

1. ``balance`` (TOUR-2.8): tables that break the start balance.  With ``L`` the seated
   players who have started fewest games: when ``L`` has at least as many players as there
   are tables, every table needs one of them; otherwise no table may hold two.  So each table's
   start player (the one who has started fewest, :func:`engine.tournament.pairing.seat`) keeps
   every player's count of starts within one of everyone else's over an event in which every
   player plays every round.  Such a seating always exists, so this term is 0 in the answer.
2. ``repeats`` (TOUR-2.5): pairs at a table who met before (0 with ``allow_repeats``).
3. ``clubs`` (TOUR-2.9): in round 1 with ``avoid_same_club`` only, pairs at a table of one
   non-empty ``club`` attribute.
4. ``leaders`` (TOUR-2.7): when the leading points group (the seated players on the most
   points) fits at table 1, how many of it sit elsewhere.
5. ``displacement`` (TOUR-2.6): the sum over the seated players of the square of the gap
   between the player's **points range** (the positions, 0 first, that the players on the
   player's points hold in the standing order of the seated players) and the **table range**
   (the positions that the player's table covers when the standing order is cut into the
   tables: table 1 the first ``sizes[0]``, ...); 0 when the two ranges overlap.

The search (TOUR-2.5): the cut of the standing order into the tables (displacement 0), then
swaps of two players of two tables while a swap lowers the cost (the best swap for each
player with any cost of their own, in standing order, until none lowers it; in events of more
than 12 tables a player looks 2 tables either way, 8 when in a repeat, a club clash or at a
table that breaks the balance); the same from the cut with the leading group held at table 1,
then free, the cheaper kept; then kicks: a seeded swap of a player who has cost with a player
one or two tables away, followed by the same descent, undone when the cost is higher (a fixed
number of kicks, never a clock: the same stream always gives the same seating).  Events of at
most :data:`EXACT` possible seatings are then searched exhaustively (a branch and bound from
the best found), so on them the answer is optimal.
Every draw comes from the tournament's public seed and the round.
"""

from __future__ import annotations

import math
from typing import Iterable

from .pairing import bye_count, table_sizes

#: the pairing algorithms a tournament records (TournamentCreated.pairing)
GROUPS, CLASSIC = "score-groups", "classic"
PAIRINGS = (GROUPS, CLASSIC)
#: events with at most this many seatings (n! / product of the tables' sizes!) are searched
#: exhaustively
EXACT = 60000
#: how many tables either way a player in a repeat, a club clash or a table that breaks the
#: balance looks in events of more than 12 tables (others look 2 either way; smaller events:
#: every table)
FAR_REACH = 8
#: kicks of the iterated local search: KICKS_WORK / seated players, within MIN..MAX
KICKS_WORK, KICKS_MIN, KICKS_MAX = 4000, 10, 100


def settings(options: dict, fmt: str) -> dict:
    """The pairing settings of a new tournament from its create options (``pairing``:
    :data:`GROUPS` (default) or :data:`CLASSIC`; ``allow_repeats``, ``avoid_same_club``:
    booleans, default false), checked; the TournamentCreated fields.  Raises UsageError."""
    from ..errors import UsageError

    pairing = options.get("pairing", GROUPS)
    if pairing not in PAIRINGS:
        raise UsageError(f"the pairing is one of {', '.join(PAIRINGS)}, not {pairing!r}")
    out = {"pairing": pairing}
    for key in ("allow_repeats", "avoid_same_club"):
        value = options.get(key, False)
        if not isinstance(value, bool):
            raise UsageError(f"{key} is true or false, not {value!r}")
        if value and (fmt != "swiss" or pairing != GROUPS):
            raise UsageError(f"{key.replace('_', '-')} is a setting of the {GROUPS} swiss "
                             "pairing (the fixed format's seating is the organiser's; the "
                             "classic pairing has none)")
        out[key] = value
    return out


def recorded(created) -> dict:
    """The create options that give ``created``'s pairing settings again (command_for)."""
    return {"pairing": created.pairing, "allow_repeats": created.allow_repeats,
            "avoid_same_club": created.avoid_same_club}


def choose_byes(ranked: list[str], low: int, high: int, byes_had: dict[str, int]) -> list[str]:
    """The players who sit out (TOUR-2.3): the fewest possible, the lowest ranked of those with
    the fewest byes so far, in standing order.  ValueError when nobody can be seated."""
    leave = bye_count(len(ranked), low, high)
    if leave is None:
        raise ValueError(f"{len(ranked)} active players cannot fill one table of {low} to {high}")
    if not leave:
        return []
    bottom_up = list(reversed(ranked))
    order = sorted(range(len(bottom_up)), key=lambda i: (byes_had.get(bottom_up[i], 0), i))
    chosen = {bottom_up[i] for i in order[:leave]}
    return [p for p in ranked if p in chosen]


class _Rng:
    """splitmix64: a small generator whose output depends on nothing but its seed (the same
    on every Python), for the kicks."""

    def __init__(self, seed: int):
        self.state = seed & (2**64 - 1)

    def below(self, n: int) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & (2**64 - 1)
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
        return (z ^ (z >> 31)) % n


class Problem:
    """One round's seating problem, players as positions ``0..n-1`` in standing order.

    ``ranked``: the seated players, best first; ``points``: name -> points; ``sizes``: the
    tables' sizes (table 1 first); ``met``: name -> everyone they sat with; ``firsts``: name
    -> games started; ``clubs``: name -> club (only for round 1 with avoid_same_club);
    ``avoid_repeats``: count repeats (else they cost nothing)."""

    def __init__(self, ranked: list[str], points: dict, sizes: list[int], met: dict,
                 firsts: dict, clubs: dict | None = None, avoid_repeats: bool = True):
        n = self.n = len(ranked)
        self.names = list(ranked)
        self.sizes = list(sizes)
        index = {p: i for i, p in enumerate(ranked)}
        self.met = [frozenset(index[q] for q in met.get(p, ()) if q in index) if avoid_repeats
                    else frozenset() for p in ranked]
        club_of = clubs or {}
        groups: dict[str, list[int]] = {}
        for i, p in enumerate(ranked):
            club = (club_of.get(p) or "").strip().casefold()
            if club:
                groups.setdefault(club, []).append(i)
        self.club: list[frozenset[int]] = [frozenset() for _ in range(n)]
        for members in groups.values():
            for i in members:
                self.club[i] = frozenset(j for j in members if j != i)
        # points ranges: equal points stand together in the standing order
        lo, hi = list(range(n)), list(range(n))
        start = 0
        for i in range(1, n + 1):
            if i == n or points.get(ranked[i]) != points.get(ranked[start]):
                for j in range(start, i):
                    lo[j], hi[j] = start, i - 1
                start = i
        tlo, thi, at = [], [], 0
        for size in sizes:
            tlo.append(at)
            thi.append(at + size - 1)
            at += size
        self.disp = [[max(0, tlo[k] - hi[i], lo[i] - thi[k]) ** 2 for k in range(len(sizes))]
                     for i in range(n)]
        lead = hi[0] + 1 if n else 0
        self.leader = [i < lead and lead <= sizes[0] for i in range(n)]
        counts = [firsts.get(p, 0) for p in ranked]
        low = min(counts) if counts else 0
        self.low = [c == low for c in counts]
        self.need = "one" if sum(self.low) >= len(sizes) else "at most one"
        # weights of the lexicographic objective: each term outweighs every later one
        self.w_lead = n * n * n + 1
        self.w_club = self.w_lead * (n + 1)
        self.w_rep = self.w_club * (n * n + 1)
        self.w_bal = self.w_rep * (n * n + 1)

    def bad_table(self, lows: int) -> int:
        """1 when a table with ``lows`` fewest-started players breaks the balance, else 0."""
        return int(lows == 0) if self.need == "one" else int(lows > 1)

    def terms(self, tables: list[list[int]]) -> dict:
        """The objective's terms of ``tables`` (positions): ``{"balance", "repeats", "clubs",
        "leaders", "displacement"}``."""
        out = {"balance": 0, "repeats": 0, "clubs": 0, "leaders": 0, "displacement": 0}
        for k, table in enumerate(tables):
            out["balance"] += self.bad_table(sum(self.low[i] for i in table))
            for x, i in enumerate(table):
                out["repeats"] += sum(1 for j in table[x + 1:] if j in self.met[i])
                out["clubs"] += sum(1 for j in table[x + 1:] if j in self.club[i])
                out["displacement"] += self.disp[i][k]
                out["leaders"] += int(self.leader[i] and k != 0)
        return out

    def cost(self, tables: list[list[int]]) -> int:
        """The terms as one number (each weighted above every later one)."""
        t = self.terms(tables)
        return (t["balance"] * self.w_bal + t["repeats"] * self.w_rep + t["clubs"] * self.w_club
                + t["leaders"] * self.w_lead + t["displacement"])


class _Search:
    """The local search's state: ``where[i]`` the table of position i, ``tables`` the members."""

    def __init__(self, problem: Problem, tables: list[list[int]], pinned: frozenset = frozenset()):
        self.p = problem
        #: positions that stay where they are (the leaders, in the second start)
        self.pinned = pinned
        #: the swaps made, for undoing a kick that did not pay
        self.journal: list[tuple[int, int, int]] = []
        self.tables = [list(t) for t in tables]
        self.where = [0] * problem.n
        for k, table in enumerate(self.tables):
            for i in table:
                self.where[i] = k
        self.lows = [sum(problem.low[i] for i in t) for t in self.tables]
        #: bad[i][k]: how many at table k position i met (or shares a club with: those pairs
        #: weigh problem.w_club, repeats w_rep)
        self.bad = [[0] * len(self.tables) for _ in range(problem.n)]
        for i in range(problem.n):
            row = self.bad[i]
            for j in problem.met[i]:
                row[self.where[j]] += problem.w_rep
            for j in problem.club[i]:
                row[self.where[j]] += problem.w_club
        self.cost = problem.cost(self.tables)
        #: positions sitting with someone they met or of their club
        self.clash = {i for i in range(problem.n) if self.conflicted(i)}

    def own(self, i: int) -> bool:
        """Whether position i carries any cost of its own (only such players' swaps can lower
        the cost: a swap of two players without any never does)."""
        p = self.p
        k = self.where[i]
        if p.disp[i][k] or (p.leader[i] and k):
            return True
        if p.bad_table(self.lows[k]):
            return True
        return self.bad[i][k] > 0

    def delta(self, a: int, b: int) -> int:
        """The change of cost if a and b (at different tables) swap."""
        p = self.p
        i, j = self.where[a], self.where[b]
        bad = self.bad
        pair = (p.w_rep if b in p.met[a] else 0) + (p.w_club if b in p.club[a] else 0)
        clash = bad[a][j] - bad[a][i] + bad[b][i] - bad[b][j] - 2 * pair
        d = p.disp[a][j] - p.disp[a][i] + p.disp[b][i] - p.disp[b][j]
        lead = 0
        if p.leader[a] != p.leader[b] and (i == 0 or j == 0):
            moved_out = p.leader[a] if i == 0 else p.leader[b]
            lead = 1 if moved_out else -1
        bal = 0
        if p.low[a] != p.low[b]:
            shift = 1 if p.low[b] else -1  # table i gains a fewest-started player or loses one
            bal = (p.bad_table(self.lows[i] + shift) - p.bad_table(self.lows[i])
                   + p.bad_table(self.lows[j] - shift) - p.bad_table(self.lows[j]))
        return bal * p.w_bal + clash + lead * p.w_lead + d

    def swap(self, a: int, b: int, change: int) -> None:
        """Swap a and b (at different tables); ``change``: the delta (kept in the journal)."""
        self.journal.append((a, b, change))
        i, j = self.where[a], self.where[b]
        ta, tb = self.tables[i], self.tables[j]
        ta[ta.index(a)] = b
        tb[tb.index(b)] = a
        self.where[a], self.where[b] = j, i
        if self.p.low[a] != self.p.low[b]:
            shift = 1 if self.p.low[b] else -1
            self.lows[i] += shift
            self.lows[j] -= shift
        self.cost += change
        p = self.p
        for x, old, new in ((a, i, j), (b, j, i)):
            for y in p.met[x]:
                self.bad[y][old] -= p.w_rep
                self.bad[y][new] += p.w_rep
            for y in p.club[x]:
                self.bad[y][old] -= p.w_club
                self.bad[y][new] += p.w_club
        for x in (*ta, *tb):
            if self.conflicted(x):
                self.clash.add(x)
            else:
                self.clash.discard(x)

    def candidates(self, a: int, reach: int | None) -> Iterable[int]:
        k = self.where[a]
        count = len(self.tables)
        if reach is None or reach * 2 + 1 >= count:
            span: Iterable[int] = range(count)
        else:
            span = range(max(0, k - reach), min(count, k + reach + 1))
        pinned = self.pinned
        for t in span:
            if t != k:
                yield from (b for b in self.tables[t] if b not in pinned)

    def conflicted(self, a: int) -> bool:
        """Whether position a sits with someone they met (or of their club)."""
        return self.bad[a][self.where[a]] > 0

    def descend(self, reach: int | None, work: Iterable[int] | None = None) -> None:
        """Best swap for each player with cost of their own, until no swap lowers the cost:
        from ``work`` (every player when None), and after each swap the players of the tables
        within ``reach`` of either table changed, and every player in a repeat or a club
        clash (who look FAR_REACH tables either way; the others within ``reach``)."""
        p = self.p
        count = len(self.tables)
        pending = [a for a in range(p.n) if self.own(a)] if work is None else sorted(set(work))
        while pending:
            queued: set[int] = set()
            for a in pending:
                if a in self.pinned:
                    continue
                far = a in self.clash or bool(p.bad_table(self.lows[self.where[a]]))
                best, best_b = 0, -1
                for b in self.candidates(a, (None if reach is None else FAR_REACH) if far
                                         else reach):
                    change = self.delta(a, b)
                    if change < best:
                        best, best_b = change, b
                if best_b < 0:
                    continue
                i, j = self.where[a], self.where[best_b]
                self.swap(a, best_b, best)
                # a swap whose value changed has a player at a changed table (its other
                # player may be anywhere within reach of it, or anywhere when in a clash)
                queued.update(self.tables[i])
                queued.update(self.tables[j])
                if reach is not None and reach * 2 + 1 < count:
                    for k in {*range(max(0, i - reach), min(count, i + reach + 1)),
                              *range(max(0, j - reach), min(count, j + reach + 1))}:
                        queued.update(x for x in self.tables[k] if self.own(x))
                queued.update(self.clash)
            pending = sorted(queued)


def _seatings(sizes: list[int]) -> int:
    total = math.factorial(sum(sizes))
    for size in sizes:
        total //= math.factorial(size)
    return total


def _exact(problem: Problem, best_tables: list[list[int]], best_cost: int
           ) -> tuple[list[list[int]], int]:
    """Branch and bound over every seating (positions placed in order, each at a table with a
    free seat); a seating replaces ``best`` only when strictly cheaper.  Every term only grows
    as players are placed, except the balance, which is counted when a table is full."""
    p = problem
    sizes = p.sizes
    tables: list[list[int]] = [[] for _ in sizes]
    lows = [0] * len(sizes)
    best: list = [best_cost, [list(t) for t in best_tables]]

    def place(i: int, cost: int) -> None:
        if cost >= best[0]:
            return
        if i == p.n:
            best[0], best[1] = cost, [list(t) for t in tables]
            return
        for k, table in enumerate(tables):
            if len(table) == sizes[k]:
                continue
            add = p.disp[i][k] + (p.w_lead if p.leader[i] and k else 0)
            for j in table:
                if j in p.met[i]:
                    add += p.w_rep
                if j in p.club[i]:
                    add += p.w_club
            low = p.low[i]
            lows[k] += low
            full = len(table) + 1 == sizes[k]
            if p.need == "at most one" and lows[k] > 1:
                add += p.w_bal
            elif p.need == "one" and full and lows[k] == 0:
                add += p.w_bal
            table.append(i)
            place(i + 1, cost + add)
            table.pop()
            lows[k] -= low

    place(0, 0)
    return best[1], best[0]


def seating(problem: Problem, seed: int, exact: bool = True) -> list[list[int]]:
    """The seating of least cost found (module doc): tables of positions, table 1 first, each
    in standing order.  ``exact``: search small events exhaustively (the benchmark turns it
    off to measure the local search alone)."""
    cut, at = [], 0
    for size in problem.sizes:
        cut.append(list(range(at, at + size)))
        at += size
    if len(cut) == 1:
        return cut
    reach = 2 if len(cut) > 12 else None
    search = _Search(problem, cut)
    search.descend(reach)
    leaders = frozenset(i for i in range(problem.n) if problem.leader[i])
    if leaders and search.cost >= problem.w_lead:
        # a second start: the leaders kept at table 1 while the others move, then free
        held = _Search(problem, cut, leaders)
        held.descend(reach)
        held = _Search(problem, held.tables)
        held.descend(reach)
        if held.cost < search.cost:
            search = held
    best_cost, best = search.cost, [list(t) for t in search.tables]
    rng = _Rng(seed)
    kicks = min(KICKS_MAX, max(KICKS_MIN, KICKS_WORK // max(1, problem.n)))
    for _ in range(kicks):
        if best_cost == 0:
            break  # nothing to lower
        costly = [a for a in range(problem.n) if search.own(a)]
        if not costly:
            break
        a = costly[rng.below(len(costly))]
        k = search.where[a]
        near = [t for t in range(max(0, k - 2), min(len(cut), k + 3)) if t != k]
        t = near[rng.below(len(near))]
        b = search.tables[t][rng.below(len(search.tables[t]))]
        i = search.where[a]
        search.journal = []
        search.swap(a, b, search.delta(a, b))
        search.descend(reach, [*search.tables[i], *search.tables[t]])
        if search.cost < best_cost:
            best_cost, best = search.cost, [list(t) for t in search.tables]
        elif search.cost > best_cost:  # undo the kick and its descent
            for x, y, change in reversed(search.journal):
                search.swap(x, y, -change)
    if exact and _seatings(problem.sizes) <= EXACT:
        best, best_cost = _exact(problem, best, best_cost)
    return [sorted(t) for t in best]


def swiss(ranked: list[str], low: int, high: int, met: dict[str, set], points: dict,
          byes_had: dict[str, int], firsts: dict[str, int], seed: int, *,
          clubs: dict[str, str] | None = None, avoid_repeats: bool = True,
          exact: bool = True) -> tuple[list[list[str]], list[str], dict]:
    """``(tables, byes, terms)`` of a round for players in standing order (module doc): the
    byes by TOUR-2.3, the tables (names, each in standing order) of least cost, and the
    objective's terms (:meth:`Problem.terms`).  ``seed``: the draw of the kicks (the
    tournament's seed and the round).  Raises ValueError when not even one table can be
    seated."""
    byes = choose_byes(ranked, low, high, byes_had)
    out = set(byes)
    seated = [p for p in ranked if p not in out]
    sizes = table_sizes(len(seated), low, high)
    assert sizes is not None  # bye_count left a number of players that tables can seat
    problem = Problem(seated, points, sizes, met, firsts, clubs, avoid_repeats)
    tables = seating(problem, seed, exact)
    return ([[seated[i] for i in t] for t in tables], byes, problem.terms(tables))


def pair_state(state, round_: int, ranked: list[str], points: dict, met: dict,
               byes_had: dict[str, int]) -> tuple[list[tuple[list[str], str]], list[str], int]:
    """Round ``round_`` of a ``score-groups`` tournament (engine.tournament.rules.pairing
    dispatches here): ``([(seat order, first), ...], byes, repeats)``, seated by
    :func:`engine.tournament.pairing.seat`.  Raises IllegalCommand (TOUR-2.1) when the active
    players cannot fill a table."""
    from ..errors import IllegalCommand
    from .pairing import repeats, seat
    from .standings import draw_key

    created = state.created
    clubs = None
    if round_ == 1 and created.avoid_same_club:
        clubs = {p: next((v for k, v in a.items() if k.strip().casefold() == "club"), "")
                 for p, a in state.attributes.items()}
    try:
        tables, byes, _terms = swiss(
            ranked, created.table_min, created.table_max, met, points, byes_had, state.firsts,
            draw_key(created.seed, round_, "swiss"), clubs=clubs,
            avoid_repeats=not created.allow_repeats)
    except ValueError as exc:
        raise IllegalCommand("TOUR-2.1", str(exc)) from None
    seated = seat(tables, state.firsts, created.seed, round_, state.places())
    return seated, byes, repeats(tables, met)
