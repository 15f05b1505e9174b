"""Castle's part of the chance audit (the ``chance`` hook, GameRules.chance; the statistics are
engine.chance_audit's, docs/chance-audit.md): every card a referee reported drawn from an item
pile known only as a set (CASTLE-7.1: the ``draw`` command of a physical game, a bag's draw,
5.1, or a tie's, 6.6), with the exact probability of the reported card given the pile's set at
that moment: 1 / cards left for the card itself, count / left for its kind (three keys, three
goblets).

The pile is the referee's fold of the records in force (engine.fold: deal, Clairvoyant's
arrangement, earlier draws), read just before each ``item_drawn`` that answers a
``draw_awaited`` while no card of the pile is in a known order.

One test (engine.chance_audit.ChanceTest): ``own relic`` (binary), whether the card reported
is a relic of the drawer's own society (a key for the Order, a goblet for the Brotherhood,
CASTLE-1.1): what a referee favouring a seat would hand it.
"""

from __future__ import annotations

from ...chance_audit import ChanceTest, GameDraws, ReportedDraw, Score
from . import events as ev
from .cards import RELIC, kind

TESTS = (
    ChanceTest("own relic", "a relic of the drawer's own society reported as often as the "
               "pile's set gives (its relics left / cards left at each draw)", "CASTLE-7.1",
               binary=True),
)


def card_scores(pile: list[str], card: str, society: str | None) -> tuple[float, Score]:
    """``(probability of card's kind, the own-relic score)`` of reporting ``card`` drawn from
    the set ``pile`` (the card still in it) by a seat of ``society`` (None: unknown, p 0).
    Example: a pile of key-1, key-2, tome, coat and a key reported for the Order:
    ``(2/4, Score("own relic", 1, 2/4, 1/4))``."""
    left = len(pile)
    same = sum(1 for c in pile if kind(c) == kind(card))
    relic = RELIC.get(society) if society is not None else None
    relics = sum(1 for c in pile if relic is not None and kind(c) == relic)
    p = relics / left
    x = 1.0 if relic is not None and kind(card) == relic else 0.0
    return same / left, Score("own relic", x, p, p * (1.0 - p))


def chance(log) -> GameDraws:
    """The chance hook: the reported draws of a recorded game (an engine.replay.LoadedLog, its
    voids applied: ``log.effective()``) as :class:`engine.chance_audit.GameDraws`."""
    from ...fold import Fold

    fold = Fold(log.rules)
    draws: list[ReportedDraw] = []
    physical = False
    game = log.header.game
    for record, event in zip(log.records, log.events):
        state = fold.state
        if type(event) is ev.ItemDrawn and physical and getattr(state, "pile", None):
            top = state.top
            if top is not None and top["kind"] == "draw" and state.pile_known == 0 \
                    and event.item is not None:
                pile = list(state.pile)
                society = state.societies[event.player] if state.societies else None
                p, score = card_scores(pile, event.item, society)
                draws.append(ReportedDraw(game, record.seq, state.players[event.player],
                                          event.reporter, event.item, p, len(pile), (score,)))
        fold.advance([event])
        if type(event) is ev.GameCreated:
            physical = bool(getattr(fold.state, "physical", False))
    return GameDraws(game, "castle", physical, TESTS, tuple(draws))
