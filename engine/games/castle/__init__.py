"""Die Kutschfahrt zur Teufelsburg (Castle of the Devil): the rules engine as a pure decider.

Rules: docs/rules/castle.md (rule ids CASTLE-n.m); house rules and the deal format:
docs/castle-rules.md.  Modules: ``cards`` (the components), ``events``, ``commands``,
``state`` (state and public questions), ``options`` (options, deal, ``setup``), ``rules``
(checks), ``decide``, ``evolve``, ``view`` (view, redact, legal_commands), ``replay``
(``command_for`` for the strict refold of ``devil verify``), ``bots``.
"""

from __future__ import annotations

from ...game import GameRules
from .commands import COMMANDS
from .decide import acting_seat, decide
from .events import EVENTS
from .evolve import evolve, initial
from .options import setup
from .replay import command_for
from .view import legal_commands, redact, view


def is_over(state) -> bool:
    """True once ``game_ended`` is folded."""
    return bool(state.over)


def seats(state) -> list:
    """The player names in seat order."""
    return list(state.players)


def physical(state) -> bool:
    """True when the game was created without chance (a physical game, deal from the options)."""
    return bool(state.physical)


RULES = GameRules(
    kind="castle", title="Die Kutschfahrt zur Teufelsburg", events=EVENTS, commands=COMMANDS,
    setup=setup, initial=initial, evolve=evolve, decide=decide, view=view, redact=redact,
    legal_commands=legal_commands, acting_seat=acting_seat, is_over=is_over, seats=seats,
    physical=physical, command_for=command_for,
)
