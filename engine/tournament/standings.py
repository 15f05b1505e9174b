"""Points and standings of a tournament: a fold of its stream (docs/tournaments.md, TOUR-3).

Points are :class:`fractions.Fraction` (exact: tied players share places' points equally).
"""

from __future__ import annotations

import hashlib
from fractions import Fraction

#: the tiebreaks a tournament may order (a seeded draw always comes last)
TIEBREAKS = ("opponents", "measure", "wins")


def fraction(text) -> Fraction:
    """``text`` (``"5/2"``, ``"3"``, ``-1``, ``"2.5"``) as a Fraction; ValueError if it is not
    one."""
    if isinstance(text, bool):
        raise ValueError(f"{text!r} is not a number of points")
    value = Fraction(str(text).strip())
    if value.denominator > 1000 or abs(value) > 10**6:
        raise ValueError(f"{text!r} is not a sensible number of points")
    return value


def show(value: Fraction) -> str:
    """Points for people: ``6``, ``2.5``, ``2.33`` (thirds are rounded for display only)."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return text


def number(value: Fraction):
    """Points for JSON: an int when whole, else a float with at most 4 decimals."""
    return value.numerator if value.denominator == 1 else round(float(value), 4)


def scale_at(scale: list[int], place: int) -> int:
    """The points of ``place`` (1-based); places past the end of the scale score 0 (TOUR-3.1)."""
    return scale[place - 1] if 1 <= place <= len(scale) else 0


def table_points(scale: list[int], places: list[int], share: bool,
                 own: list[int] | None = None) -> list[Fraction]:
    """Each seat's points from its place (TOUR-3.1, 3.2).

    ``share``: seats tied for a place share the points of the places they span equally
    (two tied for 2nd on 6,4,2,1,0: (4+2)/2 = 3 each); otherwise each takes its place's points.
    ``own``: the game's own points (a personal score) replace the scale (TOUR-3.3).
    """
    if own is not None:
        return [Fraction(int(v)) for v in own]
    out = []
    for place in places:
        if share:
            tied = places.count(place)
            out.append(Fraction(sum(scale_at(scale, place + i) for i in range(tied)), tied))
        else:
            out.append(Fraction(scale_at(scale, place)))
    return out


def draw_key(seed: int, *label) -> int:
    """A seeded draw: the same seed and label always give the same number (SHA-256)."""
    text = "|".join(str(part) for part in (seed, *label))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


class Totals:
    """One player's totals (see :func:`compute`)."""

    __slots__ = ("player", "points", "played", "byes", "opponents", "opponents_points", "wins",
                 "measure", "dropped", "by_round", "draw")

    def __init__(self, player: str, draw: int):
        self.player = player
        self.points = Fraction(0)
        self.played = 0
        self.byes = 0
        self.opponents: list[str] = []  # once per meeting
        self.opponents_points = Fraction(0)
        self.wins = 0
        self.measure = 0
        self.dropped = False
        self.by_round: dict[int, Fraction] = {}
        self.draw = draw

    def add(self, round_: int, points: Fraction) -> None:
        self.points += points
        self.by_round[round_] = self.by_round.get(round_, Fraction(0)) + points


def won(state, round_: int, table: int, name: str, result) -> bool:
    """Whether ``name`` won table ``table`` of round ``round_`` for the wins tiebreak
    (TOUR-3.4): a winner of its ``result``, unless they forfeited there and a bot played their
    seat on (TOUR-7.3: the bot's win is not the player's)."""
    return name in result.winners and name not in state.forfeits.get((round_, table), ()) \
        and name not in (getattr(result, "bots", None) or ())  # TOUR-13.1: the bot's win


def compute(state) -> list[Totals]:
    """Every registered player's totals, ranked (TOUR-3.4): points, then the tiebreaks in the
    tournament's order (opponents' points: each opponent's total counted once per meeting;
    the measure: total money or personal score; wins), then a seeded draw.
    Dropped players keep their place in the list, marked."""
    created = state.created
    seed = created.seed
    totals = {name: Totals(name, draw_key(seed, "tiebreak", name)) for name in state.players}
    bye = Fraction(created.bye_points)
    for round_, names in state.byes.items():
        for name in names:
            totals[name].add(round_, bye)
            totals[name].byes += 1
    for (round_, _table), result in state.results.items():
        if round_ > created.rounds:  # the final (TOUR-10.4): not a Swiss point
            continue
        names = state.tables[round_][_table - 1].players
        for seat, name in enumerate(names):
            t = totals[name]
            t.add(round_, Fraction(result.points[seat]))
            t.played += 1
            t.measure += result.values[seat]
            if won(state, round_, _table, name, result):
                t.wins += 1
            t.opponents.extend(n for n in names if n != name)
    for adjustment in state.adjustments:
        totals[adjustment.player].add(adjustment.round, Fraction(adjustment.points))
    for name in state.dropped:
        totals[name].dropped = True
    for t in totals.values():
        t.opponents_points = sum((totals[o].points for o in t.opponents), Fraction(0))
    order = list(created.tiebreaks)

    dup: dict = {}
    if "duplicate" in order:  # TOUR-11.5
        from .duplicate import scores
        dup = scores(state)

    def key(t: Totals):
        parts: list[Fraction | int] = [-t.points]
        for tiebreak in order:
            parts.append(-(t.opponents_points if tiebreak == "opponents"
                           else t.measure if tiebreak == "measure"
                           else dup.get(t.player, 0) if tiebreak == "duplicate" else t.wins))
        parts.append(t.draw)
        return parts

    return sorted(totals.values(), key=key)


def rows(state, measure: str) -> list[dict]:
    """The standings as JSON rows: ``{"rank", "player", "points", "played", "byes",
    "opponents_points", "wins", <measure>, "dropped", "by_round": {round: points}}``, and
    ``"adjudicated"`` / ``"amended"``: [rounds] for a player whose table was ended at time or
    had its result amended (engine.tournament.amend.marks; absent otherwise); ``"bot"`` /
    ``"returned"``: [rounds] a bot played the player's seat to the end or for a while
    (TOUR-13, engine.tournament.botseats)."""
    from .marks import marks

    marked = marks(state)  # "adjudicated" / "amended": [rounds], only where there are any
    from .botseats import marks as bot_marks

    for name, extra in bot_marks(state).items():  # "bot" / "returned" (TOUR-13)
        marked.setdefault(name, {}).update(extra)
    out = []
    for rank, t in enumerate(compute(state), 1):
        out.append({"rank": rank, "player": t.player, "points": number(t.points),
                    "points_exact": str(t.points), "played": t.played, "byes": t.byes,
                    "opponents_points": number(t.opponents_points), "wins": t.wins,
                    measure: t.measure, "dropped": t.dropped,
                    "by_round": {str(r): number(p) for r, p in sorted(t.by_round.items())},
                    **marked.get(t.player, {})})
    from . import duplicate, finals

    return finals.annotate(state, duplicate.annotate(state, out))
