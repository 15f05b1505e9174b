"""Rebuilding the command a batch of recorded events came from (``GameRules.command_for``).

``devil verify`` re-decides every recorded command strictly; the service uses the same hook to
tell a retried command id from a reused one.
"""

from __future__ import annotations

from typing import Any

from . import commands as cmd
from . import events as ev
from .state import KIND_INDEX, PHASE_SETUP, State


def command_for(state: State, events: list) -> tuple[Any, list]:
    """The command (or, for the first batch, the setup options) that produced ``events`` from
    ``state``, and the chance answers ``decide`` drew, in order (a digital draw: the index of
    the coal kind picked; a drawn start player: the seat).  Raises ValueError when ``events``
    cannot have come from one command."""
    first = events[0]
    if state.phase == PHASE_SETUP:
        if type(first) is not ev.GameCreated:
            raise ValueError("a game must begin with game_created")
        options: dict[str, Any] = {
            "players": list(first.players), "physical": first.physical, "ring": first.ring,
            "track": [f"0-{first.track_low}", *first.track]}
        if first.seed_chosen:
            options["seed_chosen"] = True
        if first.duplicate:
            options["duplicate"] = True
        answers = []
        if first.first_drawn:
            answers.append(first.first)
        elif 0 <= first.first < len(first.players):
            options["first"] = first.players[first.first]
        return options, answers
    if not 0 <= getattr(first, "seat", -1) < state.n:
        raise ValueError(f"a command cannot begin with {first.TYPE}")
    name = state.players[first.seat]
    if type(first) is ev.BetPlaced:
        return cmd.Bet(name, first.amount), []  # type: ignore[arg-type]  # None: refused by the re-decide
    if type(first) is ev.CoalDrawn:
        if first.coal not in KIND_INDEX:
            raise ValueError(f"there is no coal {first.coal!r}")
        if state.physical:
            return cmd.Draw(name, first.coal, first.reporter), []
        return cmd.Draw(name), [KIND_INDEX[first.coal]]
    if type(first) is ev.Stopped:
        return cmd.Stop(name), []
    raise ValueError(f"a command cannot begin with {first.TYPE}")
