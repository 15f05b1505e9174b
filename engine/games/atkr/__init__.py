"""Auf Teufel komm raus (Zoch, 2013), as a decider.  Rules: docs/rules/atkr.md (ATKR-n.m).

Parts: ``events`` (facts), ``commands``, ``state`` (the fold's record, coals, track),
``options`` (new-game options and first events), ``decide``, ``evolve``, ``view``
(view, redact, legal commands), ``rebuild`` (the command a batch of events came from, for
verify), ``bots``, ``audit`` (the bank's ledger, for ``devil audit``), ``record`` (its part of
the regulator's record, ``devil audit --record``), ``chance`` (the reported coals, for
``devil audit --chance``).
"""

from ...game import GameRules
from . import clock as _clock
from .commands import COMMANDS
from .decide import decide
from .events import EVENTS
from .evolve import evolve, initial
from .options import setup
from .rebuild import command_for
from .state import PHASE_OVER
from .view import acting_seat, choices, legal_commands, redact, view

_PHASES = {"setup": "setting up", "bet": "bets", "draw": "pulling coals"}


def summary(state) -> dict:
    """Where the game stands (GameRules.summary): phase, round, turn (a name or None),
    winners (names) and a one-line ``text`` such as ``"round 3, pulling coals: Ben to play"``."""
    names = list(state.players)
    winners = [names[s] for s in state.winners]
    turn = names[state.turn] if state.turn is not None and state.phase != PHASE_OVER else None
    if state.phase == PHASE_OVER:
        text = f"over after round {state.round}, won by {', '.join(winners)}"
    else:
        text = f"round {state.round}, {_PHASES.get(state.phase, state.phase)}"
        if turn is not None:
            text += f": {turn} to play"
    return {"phase": state.phase, "round": state.round, "turn": turn, "winners": winners,
            "text": text}


def revealed(state) -> dict | None:
    """The seed and salt revealed by the last event of a digital game, or None."""
    return None if state.seed is None else {"seed": state.seed, "salt": state.salt}


def bots() -> dict:
    """``{name: bot class}`` (engine.games.atkr.bots), imported on first use."""
    from .bots import BOTS
    return BOTS


def chance(log):
    """The reported coals of a recorded game (:func:`engine.games.atkr.chance.chance`)."""
    from .chance import chance as walk
    return walk(log)


def audit(log):
    """The bank's ledger of a recorded game (:func:`engine.games.atkr.audit.audit`)."""
    from .audit import audit as run
    return run(log)


def record(log) -> dict | None:
    """The kind's part of the regulator's record (:func:`engine.games.atkr.record.record`)."""
    from .record import record as build
    return build(log)


def takeback_barrier(event) -> str | None:
    """What ``event`` does that no takeback crosses (DESK-12.3;
    :func:`engine.games.atkr.takeback.barrier`)."""
    from .takeback import barrier
    return barrier(event)


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
    legal_choices=choices,
    acting_seat=acting_seat,
    is_over=lambda state: state.phase == PHASE_OVER,
    seats=lambda state: list(state.players),
    physical=lambda state: state.physical,
    min_players=2,
    max_players=6,
    players_rule="ATKR-1.6",
    command_for=command_for,
    summary=summary,
    commitment=lambda state: state.commitment,
    seed_chosen=lambda state: state.seed_chosen,
    revealed=revealed,
    bots=bots,
    audit=audit,
    chance=chance,
    record=record,
    duplicate="duplicate",
    seed_shared=lambda state: bool(getattr(state, "duplicate", False)),
    notes=lambda state: notes(state),
    takeback_barrier=takeback_barrier,
    to_move=_clock.to_move,
    timeout=_clock.timeout,
)


def notes(state) -> list[str]:
    """What ``devil verify`` says of a duplicate game's draws (engine.games.atkr.duplicate)."""
    from .duplicate import NOTE

    return [NOTE] if state.duplicate else []

__all__ = ["RULES"]


def _with_placings(rules: GameRules) -> GameRules:
    """RULES with the tournament hook (engine.games.atkr.placings) and the desk's
    ``amend`` hook (engine.games.atkr.amend, DESK-9)."""
    import attrs

    from .amend import amend
    from .placings import adjudicated, placings
    return attrs.evolve(rules, placings=placings, adjudicated=adjudicated, amend=amend)


RULES = _with_placings(RULES)
