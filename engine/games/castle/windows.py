"""Castle of the Devil's windows that could reveal a hidden card, for a seat's auto-pass
(CASTLE-6.10, CASTLE-H3, issue 25.4).

``window(view, legal)`` says whether the seat whose ``view`` (engine.games.castle.view.view,
the seat's own) and ``legal`` commands (its ``legal_commands``) these are is asked now in one
of the fight's hidden-card windows, and whether it has anything it could use there:

* the windows: the priest window (CASTLE-6.2), the duel window (6.5, castle-2006-r2), the
  hypnotist's window after a support (6.4), the ability round (6.5) and the doctor's window
  (6.7): every window CASTLE-6.10 asks with a pass among its answers.
* not windows: the support round (6.3: attacker, defender or neutral is always a public
  decision, never "nothing to decide"), the priest's payment, the winner's choice and take
  (6.2, 6.8), trades, offers, effects and the turn's action (a pass there is the turn's
  action, CASTLE-8.1).

Pure: reads the view map and the command objects only.
"""

from __future__ import annotations

from . import commands as cmd

#: window (the fight's ``stage``) -> the rule that opens it; each is asked by CASTLE-6.10
WINDOWS = {"priest": "CASTLE-6.2", "duel": "CASTLE-6.5", "hypnotist": "CASTLE-6.4",
           "abilities": "CASTLE-6.5", "doctor": "CASTLE-6.7"}


def window(view: dict, legal: list) -> dict | None:
    """``{"stage": the window (a fight stage of WINDOWS), "rules": [its rule, "CASTLE-6.10"],
    "pass": the seat's Pass command, "nothing_to_use": bool}`` when the seat of ``view`` is
    asked in a hidden-card window now; None otherwise (not asked, another stage, no fight).

    ``nothing_to_use`` is True when the pass is the seat's only legal command: no item and no
    profession of its own could be used in this window (the rules' own check: a priest
    stopping the fight, a dagger the attacker may show, ...).  A seat that has something it
    could use but passes is, to everyone else, the same pass (CASTLE-6.10)."""
    fight = view.get("fight")
    if not fight or fight.get("stage") not in WINDOWS:
        return None
    passes = [c for c in legal if isinstance(c, cmd.Pass)]
    if not passes:  # not asked: a seat the game does not wait for has no legal command
        return None
    stage = fight["stage"]
    return {"stage": stage, "rules": [WINDOWS[stage], "CASTLE-6.10"], "pass": passes[0],
            "nothing_to_use": len(legal) == len(passes)}
