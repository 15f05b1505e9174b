"""Die Kutschfahrt zur Teufelsburg (Castle of the Devil): the rules engine as a pure decider.

Rules: docs/rules/castle.md (rule ids CASTLE-n.m); house rules and the deal format:
docs/castle-rules.md.  Modules: ``cards`` (the components), ``events``, ``commands``,
``state`` (state and public questions), ``options`` (options, deal, ``setup``), ``position``
(position files, ``devil new castle --position``), ``rules`` (checks), ``decide``, ``evolve``,
``view`` (view, redact, legal_commands), ``rebuild`` (``command_for`` for the strict refold of
``devil verify``), ``bots``, ``record`` (its part of the regulator's record, ``devil audit
--record``), ``chance`` (the reported pile draws, ``devil audit --chance``).
``game_created.rules`` names the rules text (options.RULES_VERSIONS):
logs recorded before the corrected text keep its behaviour (``State.r2`` False).
"""

from __future__ import annotations

from ...game import GameRules
from . import clock as _clock
from .commands import COMMANDS
from .decide import acting_seat, decide
from .events import EVENTS
from .evolve import evolve, initial
from .options import setup
from .rebuild import command_for
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


def summary(state) -> dict:
    """Where the game stands (GameRules.summary): phase (``setup``, ``turn``, the open
    decision such as ``fight``, or ``over``), round (the turn number; castle has no rounds),
    turn (whose turn, a name or None), winners (names) and a one-line ``text`` such as
    ``"turn 7: Ben to play (fight)"``."""
    names = list(state.players)
    winners = [names[s] for s in state.winners] if state.winners else []
    if state.over:
        phase = "over"
    elif not state.dealt:
        phase = "setup"
    else:
        phase = state.top["kind"] if state.top else "turn"
    turn = None if state.active is None or state.over else names[state.active]
    if state.over:
        text = (f"over after turn {state.turn}, won by {', '.join(winners)}" if winners
                else f"over after turn {state.turn}, nobody won")
    elif phase == "setup":
        text = "setting up"
    else:
        text = f"turn {state.turn}" + (f": {turn} to play" if turn else "")
        if phase != "turn":
            text += f" ({phase})"
    return {"phase": phase, "round": state.turn, "round_name": "turn", "turn": turn,
            "winners": winners, "text": text}


def revealed(state) -> dict | None:
    """The seed and salt revealed by the last event of a digital game, or None."""
    return None if state.seed is None else {"seed": state.seed, "salt": state.salt}


def notes(state) -> list[str]:
    """What ``devil verify`` reports about the setup: the rules text the game was recorded
    under, and whether it started from a position (GameRules.notes)."""
    from .options import OLD_RULES
    old = state.rules == OLD_RULES
    out = [f"rules text {state.rules}" + (" (recorded before the rules were corrected, "
                                         "replayed under that text)" if old else "")]
    if state.position:
        out.append(f"starts from a position (a game already under way, turn "
                   f"{state.first_turn}): its cards were checked like a deal")
    if state.dealt and not state.physical:
        return out
    if state.dealt and state.physical and state.rules != OLD_RULES:
        out.append("physical game: every card drawn from a pile known only as a set was "
                   "reported and checked to be in it (CASTLE-7.1)")
    return out


def record(log) -> dict | None:
    """The kind's part of the regulator's record (:func:`engine.games.castle.record.record`)."""
    from .record import record as build
    return build(log)


def bots() -> dict:
    """``{name: bot class}`` (engine.games.castle.bots), imported on first use."""
    from .bots import BOTS
    return BOTS


def chance(log):
    """The reported pile draws of a recorded game (:func:`engine.games.castle.chance.chance`,
    for ``devil audit --chance``)."""
    from .chance import chance as walk
    return walk(log)


def takeback_barrier(event) -> str | None:
    """What ``event`` does that no takeback crosses (DESK-12.3;
    :func:`engine.games.castle.takeback.barrier`)."""
    from .takeback import barrier
    return barrier(event)


RULES = GameRules(
    kind="castle", title="Castle of the Devil", events=EVENTS, commands=COMMANDS,
    setup=setup, initial=initial, evolve=evolve, decide=decide, view=view, redact=redact,
    legal_commands=legal_commands, acting_seat=acting_seat, is_over=is_over, seats=seats,
    physical=physical, min_players=3, max_players=10, players_rule="CASTLE-2.8",
    command_for=command_for, summary=summary,
    commitment=lambda state: state.commitment, seed_chosen=lambda state: state.seed_chosen,
    revealed=revealed, bots=bots, audit=None, notes=notes, record=record, chance=chance,
    takeback_barrier=takeback_barrier,
    to_move=_clock.to_move,
    timeout=_clock.timeout,
)


def _with_placings(rules: GameRules) -> GameRules:
    """RULES with the tournament hook (engine.games.castle.placings) and the desk's
    ``amend`` hook (engine.games.castle.amend, DESK-9)."""
    import attrs

    from .amend import amend
    from .placings import adjudicated, placings
    return attrs.evolve(rules, placings=placings, adjudicated=adjudicated, amend=amend)


RULES = _with_placings(RULES)


def _with_windows(rules: GameRules) -> GameRules:
    """RULES with the auto-pass hook: the hidden-card windows (engine.games.castle.windows,
    CASTLE-6.10, CASTLE-H3)."""
    import attrs

    from .windows import window
    return attrs.evolve(rules, window=window)


RULES = _with_windows(RULES)
