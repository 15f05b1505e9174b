"""A statistical audit of reported chance across an archive: ``devil audit PATH... --chance``
(docs/chance-audit.md).  No game kind is named here.

In a physical game the referee reports every draw, and the log holds the report.  A kind's
``chance`` hook (GameRules.chance) walks one recorded game and gives every reported draw as a
:class:`ReportedDraw`: who drew (the seat's name), who reported it (``reporter``, None when
not named), the exact probability of what was reported given what was left, and one
:class:`Score` per test the kind declares (:class:`ChanceTest`): the observed score ``x`` of
the draw, and its mean and variance given what was left at that moment.

For each group of draws (per referee, per table, per seat, per referee x seat) and each test,
the score statistic is ``U = sum(x_i - mean_i)``, ``V = sum var_i`` and ``z = U / sqrt(V)``.
``U`` is a martingale under the null hypothesis that every reported draw was a fair draw from
what the log says was left (each increment has mean 0 given the past, whatever the players
chose to do), so ``z`` is approximately standard normal under any stopping rule.  A binary test
(a 0/1 indicator, e.g. "a devil was reported") gets the exact two-sided p-value of the
Poisson-binomial distribution of ``sum x_i`` with the draws' own probabilities (dynamic
programming) while a group has at most :data:`EXACT_MAX` draws, and the normal approximation
with a continuity correction beyond that (then ``V`` is in the hundreds); any other test the
normal p-value of ``z``.

All the p-values of one audit are corrected together by the weighted Holm procedure
(:func:`holm`): each family of :data:`FAMILIES` has its share of alpha, split among its group
tests in proportion to the tests' own weights (``ChanceTest.weight``, declared by the kind);
the family-wise error rate (any group flagged in a fair archive) is at most ``alpha``.
"""

from __future__ import annotations

import math
from typing import Iterable

import attrs

#: a draw whose reporter is not named is grouped under this name
NOT_NAMED = "not named"
#: the families of groups and their shares of alpha (weighted Holm): the referee x seat family
#: answers the stated threat (a referee favouring one player), so it gets half
FAMILIES: tuple[tuple[str, float], ...] = (
    ("referee x seat", 1 / 2), ("referee", 1 / 6), ("seat", 1 / 6), ("table", 1 / 6))
#: the largest group whose binary tests get the exact Poisson-binomial p-value
EXACT_MAX = 1000
#: how many of a failing group's draws are named (those that weigh most)
HEAVIEST = 5
DEFAULT_ALPHA = 0.01


@attrs.frozen
class ChanceTest:
    """One test a kind declares: ``name`` (e.g. ``"devils"``), ``text`` (what it measures, one
    sentence), ``rule`` (the rule id of the contents it tests against), ``binary`` (its
    scores are 0/1 indicators: exact Poisson-binomial p-values) and ``weight`` (its share of
    a family's alpha relative to the kind's other tests: a positive number, fixed in advance)."""

    name: str
    text: str
    rule: str
    binary: bool = False
    weight: float = 1.0

    def to_json(self) -> dict:
        return {"name": self.name, "text": self.text, "rule": self.rule, "binary": self.binary,
                "weight": self.weight}


@attrs.frozen
class Score:
    """One draw's part in test ``test``: the observed score ``x``, its ``mean`` and ``var``
    given what was left (for a binary test ``x`` is 0 or 1 and ``mean`` its probability)."""

    test: str
    x: float
    mean: float
    var: float


@attrs.frozen
class ReportedDraw:
    """One reported draw of a physical game: ``game`` (id), ``seq`` (its record), ``seat`` (the
    name of the player who drew: who benefits or suffers), ``reporter`` (the referee's name, or
    None), ``reported`` (what was reported, as text), ``probability`` (its exact probability
    given ``left``, what was left to draw from: a fraction in 0..1) and its ``scores``."""

    game: str
    seq: int
    seat: str
    reporter: str | None
    reported: str
    probability: float
    left: int
    scores: tuple[Score, ...] = ()

    def to_json(self) -> dict:
        return {"game": self.game, "seq": self.seq, "seat": self.seat,
                "reporter": self.reporter, "reported": self.reported,
                "probability": round(self.probability, 6), "left": self.left}


@attrs.frozen
class GameDraws:
    """What a kind's ``chance`` hook gives of one game: ``game``, ``kind``, whether it is
    ``physical`` (a digital game's draws are skipped: verify checks them exactly), the
    ``tests`` the kind declares and the reported ``draws`` in log order."""

    game: str
    kind: str
    physical: bool
    tests: tuple[ChanceTest, ...]
    draws: tuple[ReportedDraw, ...] = ()


@attrs.define
class GroupTest:
    """One test of one group: ``family`` (see :data:`FAMILIES`), ``group`` (its name),
    ``test``; ``n`` draws, observed and expected sums, ``u``, ``v``, ``z``, the raw two-sided
    ``p`` (``exact``: Poisson-binomial) and ``p_adjusted`` (weighted Holm), ``failed``
    (``p_adjusted <= alpha``) and, once failed, the draws that weigh most (``heaviest``:
    ``(draw, its part of u)``, in the direction of ``u``)."""

    family: str
    group: str
    test: str
    n: int
    observed: float
    expected: float
    u: float
    v: float
    z: float
    p: float
    exact: bool
    weight: float = 0.0
    p_adjusted: float = 1.0
    failed: bool = False
    heaviest: list = attrs.field(factory=list)

    def to_json(self) -> dict:
        return {"family": self.family, "group": self.group, "test": self.test, "n": self.n,
                "observed": round(self.observed, 6), "expected": round(self.expected, 6),
                "u": round(self.u, 6), "v": round(self.v, 6), "z": round(self.z, 4),
                "p": self.p, "exact": self.exact, "weight": self.weight,
                "p_adjusted": self.p_adjusted, "failed": self.failed,
                "heaviest": [{**d.to_json(), "weight": round(w, 6)} for d, w in self.heaviest]}


@attrs.define
class ChanceAudit:
    """The audit of an archive's reported chance: ``alpha`` (after correction), the tests
    (by kind), every group's tests (:class:`GroupTest`, sorted by adjusted p), the games
    counted and ``skipped`` (``[(game or path, reason)]``), and ``draws`` counted."""

    alpha: float
    tests: dict = attrs.field(factory=dict)
    groups: list = attrs.field(factory=list)
    games: int = 0
    draws: int = 0
    skipped: list = attrs.field(factory=list)

    @property
    def ok(self) -> bool:
        return not any(g.failed for g in self.groups)

    @property
    def failed(self) -> list:
        return [g for g in self.groups if g.failed]

    def to_json(self) -> dict:
        """``{"ok", "alpha", "correction", "families", "tests", "games", "draws", "skipped",
        "failed", "groups"}``: ``failed`` the failing groups' tests, ``groups`` every one
        (:meth:`GroupTest.to_json`; ``heaviest`` only for those that fail)."""
        return {"ok": self.ok, "alpha": self.alpha, "correction": "weighted Holm",
                "families": {name: weight for name, weight in FAMILIES},
                "tests": {kind: [t.to_json() for t in tests] for kind, tests in self.tests.items()},
                "games": self.games, "draws": self.draws,
                "skipped": [{"game": g, "reason": r} for g, r in self.skipped],
                "failed": [g.to_json() for g in self.failed],
                "groups": [g.to_json() for g in self.groups]}


# -- distributions ----------------------------------------------------------------------------
def normal_two_sided(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def poisson_binomial(probabilities: Iterable[float]):
    """The distribution of the number of successes among independent trials with these
    success ``probabilities``: a numpy array ``pmf`` with ``pmf[k] = P(K = k)``, ``k = 0..n``
    (dynamic programming, one pass per trial)."""
    import numpy as np

    ps = [float(p) for p in probabilities]
    pmf = np.zeros(len(ps) + 1)
    pmf[0] = 1.0
    for i, p in enumerate(ps, 1):
        pmf[1:i + 1] = pmf[1:i + 1] * (1.0 - p) + pmf[0:i] * p
        pmf[0] *= 1.0 - p
    return pmf


def poisson_binomial_two_sided(probabilities: Iterable[float], k: int) -> float:
    """The exact two-sided p-value of ``k`` successes: ``min(1, 2 min(P(K <= k), P(K >= k)))``
    under :func:`poisson_binomial` (the doubled smaller tail)."""
    pmf = poisson_binomial(probabilities)
    low, high = float(pmf[:k + 1].sum()), float(pmf[k:].sum())
    return min(1.0, 2.0 * min(low, high))


# -- the correction -------------------------------------------------------------------------
def holm(pvalues: list[float], weights: list[float]) -> list[float]:
    """Weighted Holm adjusted p-values (Holm 1979): hypotheses sorted by ``p / w``; the j-th
    is adjusted to ``max over k <= j of min(1, p_k / w_k * (sum of the weights of the k-th and
    every later one))``.  Rejecting where the adjusted p is at most alpha keeps the
    family-wise error rate at most alpha for any dependence.  ``weights`` are positive (they
    need not add up to 1: they are used relative to their sum)."""
    total = sum(weights)
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i] / weights[i])
    adjusted = [1.0] * len(pvalues)
    remaining, running = total, 0.0
    for i in order:
        value = min(1.0, pvalues[i] / weights[i] * remaining)
        running = max(running, value)
        adjusted[i] = running
        remaining -= weights[i]
    return adjusted


# -- the audit -------------------------------------------------------------------------------
def groups_of(draw: ReportedDraw, table: str) -> list[tuple[str, str]]:
    """The ``(family, group)`` pairs a draw belongs to (:data:`FAMILIES`)."""
    referee = draw.reporter if draw.reporter is not None else NOT_NAMED
    return [("referee x seat", f"{referee} x {draw.seat}"), ("referee", referee),
            ("seat", draw.seat), ("table", table)]


def group_test(family: str, group: str, test: ChanceTest, items: list) -> GroupTest | None:
    """The score test of ``test`` on ``items`` (``[(draw, score)]``), or None when it has no
    variance (nothing to test)."""
    v = sum(s.var for _, s in items)
    if v <= 0:
        return None
    observed = sum(s.x for _, s in items)
    expected = sum(s.mean for _, s in items)
    u = observed - expected
    exact = test.binary and len(items) <= EXACT_MAX
    if exact:
        p = poisson_binomial_two_sided([s.mean for _, s in items], int(round(observed)))
        z = u / math.sqrt(v)
    elif test.binary:  # a continuity correction of 1/2 for the count
        z = u / math.sqrt(v)
        p = normal_two_sided(max(0.0, abs(u) - 0.5) / math.sqrt(v))
    else:
        z = u / math.sqrt(v)
        p = normal_two_sided(z)
    return GroupTest(family, group, test.name, len(items), observed, expected, u, v, z, p,
                     exact)


def audit(games: Iterable[GameDraws], alpha: float = DEFAULT_ALPHA,
          tables: dict[str, str] | None = None) -> ChanceAudit:
    """The chance audit of ``games`` (what each kind's ``chance`` hook gave): every group's
    tests, corrected together (:func:`holm`, :data:`FAMILIES`), those with an adjusted p at
    most ``alpha`` failed and given their heaviest draws.  ``tables``: game id -> table name
    (default: each game is its own table).  Digital games are listed in ``skipped``.  Raises
    ValueError for an alpha outside (0, 1)."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha is a probability between 0 and 1, not {alpha}")
    result = ChanceAudit(alpha)
    tables = tables or {}
    # (family, group, kind, test name) -> [(draw, score)]
    buckets: dict[tuple, list] = {}
    declared: dict[tuple, ChanceTest] = {}
    for game in games:
        if not game.physical:
            result.skipped.append((game.game, "a digital game: its draws come from the "
                                              "committed seed, which verify checks exactly"))
            continue
        result.games += 1
        result.tests.setdefault(game.kind, list(game.tests))
        for test in game.tests:
            declared[(game.kind, test.name)] = test
        table = tables.get(game.game, game.game)
        for draw in game.draws:
            result.draws += 1
            pairs = groups_of(draw, table)
            for score in draw.scores:
                for family, group in pairs:
                    buckets.setdefault((family, group, game.kind, score.test), []).append(
                        (draw, score))
    kinds = {key[2] for key in buckets}
    tested: list[tuple[GroupTest, list]] = []
    keys: list[tuple] = []
    for key, items in sorted(buckets.items()):
        family, group, kind, name = key
        one = group_test(family, group if len(kinds) == 1 else f"{group} ({kind})",
                         declared[(kind, name)], items)
        if one is not None:
            tested.append((one, items))
            keys.append(key)
    shares = dict(FAMILIES)
    own = [declared[key[2], key[3]].weight for key in keys]  # each test's weight in its family
    per_family: dict[str, float] = {}
    for (one, _), w in zip(tested, own):
        per_family[one.family] = per_family.get(one.family, 0.0) + w
    for (one, _), w in zip(tested, own):
        one.weight = shares[one.family] * w / per_family[one.family]
    adjusted = holm([one.p for one, _ in tested], [one.weight for one, _ in tested])
    for (one, items), q in zip(tested, adjusted):
        one.p_adjusted = q
        one.failed = q <= alpha
        if one.failed:
            sign = 1.0 if one.u >= 0 else -1.0
            ranked = sorted(items, key=lambda pair: -sign * (pair[1].x - pair[1].mean))
            one.heaviest = [(draw, score.x - score.mean) for draw, score in ranked[:HEAVIEST]]
    result.groups = sorted((one for one, _ in tested),
                           key=lambda g: (g.p_adjusted, g.p, g.family, g.group, g.test))
    return result
