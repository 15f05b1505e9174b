"""Castle of the Devil's part of the regulator's record (GameRules.record; engine.record
assembles and writes it, docs/record.md says every field).

The game has no bank and no stakes: its record carries no money (``money`` None) and no
rounds (``rounds`` []); every move of every player is a *choice* of the common record, with the
phase it leaves the game in (the kind's summary: ``turn``, an open decision such as ``fight``
or ``trade``, ``over``).  This part gives the rules text (``game_created.rules``, e.g.
``"castle-2006-r2"``), every option of the first event (start player, variants, the
beginner deal, house rules, hand limit, physical, a given deal, a position), and the result's
points (the scoring variant) and the declaration that ended the game (CASTLE-9, 10.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import events as ev

if TYPE_CHECKING:  # pragma: no cover
    from ...replay import LoadedLog


def record(log: "LoadedLog") -> dict | None:
    """The kind's part of the record of ``log``: ``{"rules_version", "setup", "money": None,
    "rounds": [], "result": {"points", "declaration"}, "audit": None}``, or None when the log
    holds no ``game_created`` yet."""
    created = next((e for e in log.events if type(e) is ev.GameCreated), None)
    if created is None:
        return None
    names = list(created.players)
    effective = log.effective()
    ended = next((e for e in reversed(effective.events) if type(e) is ev.GameEnded), None)
    declared = next((e for e in reversed(effective.events) if type(e) is ev.Declared), None)
    declaration = None
    if declared is not None:
        declaration = {"player": names[declared.player], "kind": declared.kind,
                       "allies": [names[s] for s in declared.allies], "right": declared.right,
                       "winning_society": declared.winning_society}
    return {"rules_version": created.rules,
            "setup": {"first": names[created.first], "first_drawn": created.first_drawn,
                      "beginner": created.beginner, "variants": list(created.variants),
                      "house": dict(created.house), "hand_limit": created.hand_limit,
                      "physical": created.physical, "deal_given": created.deal_given,
                      "position": created.position, "seed_chosen": created.seed_chosen},
            "money": None,
            "rounds": [],
            "result": {"points": None if ended is None or ended.points is None
                       else dict(ended.points),
                       "declaration": declaration},
            "audit": None}
