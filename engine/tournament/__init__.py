"""Tournaments (issue 11; docs/tournaments.md): an event stream of kind ``tournament`` in the
same store as the games, with the same record format, hash chain and ``devil verify``.

Parts: ``events`` (facts and commands), ``rules`` (setup, decide, evolve, command_for: the
decider), ``pairing`` (swiss seating of multiplayer tables), ``standings`` (points and
tiebreaks, a fold), ``organiser`` (the organiser's operations: games created and results read
from verified logs), ``bundle`` (the bundle and its offline check), ``roster`` (players files),
``simulate`` (bots play a whole event).  It names no game kind: a game's result comes from its
kind's ``placings`` hook.
"""

from __future__ import annotations

from ..game import GameRules
from . import events as ev
from .rules import command_for, decide, evolve, initial, setup
from .standings import rows

KIND = "tournament"


def view(state, viewer=None) -> dict:
    """The tournament as everyone sees it (nothing in it is hidden): settings, players and
    their ``attributes`` (name -> {column: value}, from a players file), round, tables, games,
    results and standings."""
    created = state.created
    if created is None:
        return {"kind": KIND}
    rounds = []
    for number in sorted(state.tables):
        tables = []
        for index, table in enumerate(state.tables[number], 1):
            result = state.results.get((number, index))
            tables.append({"table": index, "players": list(table.players), "first": table.first,
                           "game": state.games.get((number, index)),
                           "result": None if result is None else {
                               "places": list(result.places), "points": list(result.points),
                               result.measure: list(result.values),
                               "winners": list(result.winners)}})
        rounds.append({"round": number, "closed": state.closed >= number, "tables": tables,
                       "byes": list(state.byes.get(number, []))})
    from .noshow import view as noshow_view
    from .rules import measure_of

    measure = measure_of(state)
    return {"kind": KIND, "name": created.name, "game": created.game,
            "options": dict(created.options), "format": created.format,
            "points": list(created.points), "bye_points": created.bye_points,
            "rounds": created.rounds, "table_size": [created.table_min, created.table_max],
            "tiebreaks": list(created.tiebreaks), "seed": created.seed,
            "final_table": created.final_table, "final_tables": created.final_tables,
            "duplicate": created.duplicate,
            "pairing": created.pairing, "allow_repeats": created.allow_repeats,
            "avoid_same_club": created.avoid_same_club,
            "round": state.round, "closed": state.closed, "finished": state.finished,
            "players": list(state.players), "dropped": sorted(state.dropped),
            "attributes": {p: dict(a) for p, a in state.attributes.items()},
            "paired": rounds, "standings": rows(state, measure), **noshow_view(state)}


def summary(state) -> dict:
    """The one-line summary of ``devil games``."""
    created = state.created
    if created is None:
        return {"phase": "setup", "round": 0, "turn": None, "winners": [], "text": "setting up"}
    if state.finished:
        phase, text = "over", f"finished after {created.rounds} rounds, won by {state.ranking[0]}"
    elif state.round == 0:
        phase, text = "registration", f"{len(state.players)} registered, round 1 not paired"
    elif state.closed == state.round:
        phase, text = "between rounds", f"round {state.round} of {created.rounds} closed"
    else:
        done = sum(1 for (r, _t) in state.results if r == state.round)
        phase = "playing"
        text = (f"round {state.round} of {created.rounds}: {done} of "
                f"{len(state.tables[state.round])} tables done")
    if state.round > created.rounds and not state.finished:  # TOUR-10: the final
        text = text.replace(f"round {state.round} of {created.rounds}", "the final")
    text = f"{created.name!r}, {len(state.players)} players, {created.game}: {text}"
    return {"phase": phase, "round": state.round, "turn": None,
            "winners": state.ranking[:1] if state.finished else [], "text": text}


RULES = GameRules(
    kind=KIND, title="Tournament", events=ev.EVENTS, commands=ev.COMMANDS, setup=setup,
    initial=initial, evolve=evolve, decide=decide, view=view, redact=lambda event, viewer: event,
    legal_commands=lambda state, seat: [], acting_seat=lambda state, command: None,
    is_over=lambda state: state.finished, seats=lambda state: [],  # no seats: nobody plays it
    physical=lambda state: True, command_for=command_for, summary=summary)

__all__ = ["RULES", "KIND"]
