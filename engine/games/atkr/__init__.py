"""Auf Teufel komm raus (Zoch, 2013), as a decider.  Rules: docs/rules/atkr.md (ATKR-n.m).

Parts: ``events`` (facts), ``commands``, ``state`` (the fold's record, coals, track),
``options`` (new-game options and first events), ``decide``, ``evolve``, ``view``
(view, redact, legal commands), ``rebuild`` (the command a batch of events came from, for
verify), ``bots``.
"""

from ...game import GameRules
from .commands import COMMANDS
from .decide import decide
from .events import EVENTS
from .evolve import evolve, initial
from .options import setup
from .rebuild import command_for
from .state import PHASE_OVER
from .view import acting_seat, legal_commands, redact, view

RULES = GameRules(
    kind="atkr",
    title="Auf Teufel komm raus",
    events=EVENTS,
    commands=COMMANDS,
    setup=setup,
    initial=initial,
    evolve=evolve,
    decide=decide,
    view=view,
    redact=redact,
    legal_commands=legal_commands,
    acting_seat=acting_seat,
    is_over=lambda state: state.phase == PHASE_OVER,
    seats=lambda state: list(state.players),
    physical=lambda state: state.physical,
    command_for=command_for,
)

__all__ = ["RULES"]
