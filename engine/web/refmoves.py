"""Every seat's legal commands as the referee may submit them (issue 25.2, the referee's page):
``GET /games/{id}/referee/moves``.  Game-agnostic: built from the kind's own hooks
(``legal_commands`` through the service's ``legal_of``, ``acting_seat``, ``decide``,
``physical``) and engine.web.moves' shapes.

At a physical table the referee records what the seats announce (a bet, a draw, a stop: the
seat's own commands, given for it) and reports what chance gave (a coal, a card from the
pile: the commands the kind's ``acting_seat`` says only the referee sends).  A seat's legal
list is worked out from what the seat may know, so it can name chance reports the referee's
whole state rules out (a card named from the pile that is in another seat's hand); in a
physical game each command is therefore also decided against the referee's state, and only
the ones the rules accept are offered (PAGE-16).  A digital game's commands are not
re-decided (its chance is the service's: nothing to report).

The answer: ``{"game", "version", "physical": bool, "over": bool, "seats": [{"seat": name,
"moves": [shape], "reports": [shape]}]}``, one entry per seat in seat order; ``moves`` the
commands the seat announces, ``reports`` the chance reports the referee makes for that seat
(engine.web.moves' shapes: ``{"type", "fixed", "inputs", "options"?}``).  Only the referee's
token (or the organiser key) may ask (PAGE-15, 403 otherwise): a seat's page has its own
``GET /games/{id}/moves``.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Route

from ..errors import DevilError
from .errors import ApiError
from .moves import shapes
from .jsonout import JSONResponse


def _accepted(rules, state, command) -> bool:
    """Whether the kind's ``decide`` accepts ``command`` on ``state`` (the referee's, of a
    physical game: no chance is drawn, nothing is changed: decide never mutates)."""
    try:
        rules.decide(state, command, None)
    except DevilError:
        return False
    return True


def referee_moves(service, game: str) -> dict:
    """The answer of ``GET /games/{game}/referee/moves`` (the module docstring) from one load of
    ``game`` by ``service`` (engine.service.GameService).  Pure apart from that load."""
    loaded = service.load(game)
    rules = loaded.rules
    state = loaded.state
    names = rules.seats(state)
    physical = bool(rules.physical(state))
    # over by the rules, or ended at time by the referee (DESK-8: no game command after it)
    desk = getattr(loaded.referee, "desk", None)
    over = bool(rules.is_over(state)) or getattr(desk, "ended", None) is not None
    to_map = rules.commands.to_map
    seats = []
    for seat, name in enumerate(names):
        announced: list[dict] = []
        reports: list[dict] = []
        for command in ([] if over else service.legal_of(loaded, seat)):
            if physical and not _accepted(rules, state, command):
                continue  # PAGE-16: what the referee's state rules out is not offered
            mine = rules.acting_seat(state, command) == seat
            (announced if mine else reports).append(to_map(command))
        seats.append({"seat": name, "moves": shapes(announced), "reports": shapes(reports)})
    return {"game": game, "version": loaded.version, "physical": physical, "over": over,
            "seats": seats}


def routes(api) -> list[Route]:
    """``GET /games/{game}/referee/moves`` on ``api`` (engine.web.app.Api): the referee's token
    or the organiser key only (PAGE-15: a seat or the spectator is refused, 403)."""

    async def get_referee_moves(request: Request) -> JSONResponse:
        role = api.authenticate(request)
        game = await api.game_for(request, role)
        if not role.is_referee:
            raise ApiError(403, "PAGE-15: every seat's commands are the referee's to see: this "
                                "needs the referee's token (a seat asks GET /games/{id}/moves)",
                           4, rule="PAGE-15")
        answer = await api.now(game, referee_moves, api.service, game)
        return JSONResponse(answer, headers={"Cache-Control": "no-store"})

    return [Route("/games/{game}/referee/moves", get_referee_moves, methods=["GET"])]


def openapi_paths(_op, _json, game: dict, errors: dict) -> dict:
    """This module's path for engine.web.openapi, made with its helpers ``_op`` and ``_json``,
    its ``game`` parameter and ``errors`` responses (given, not imported: openapi imports this
    module)."""
    shape = {"type": "object", "properties": {
        "type": {"type": "string"}, "fixed": {"type": "object"},
        "inputs": {"type": "array", "items": {"type": "object"}},
        "options": {"type": "array", "items": {"type": "object"}}}}
    seat = {"type": "object", "properties": {
        "seat": {"type": "string"},
        "moves": {"type": "array", "items": shape,
                  "description": "what the seat announces (the referee gives it for the seat)"},
        "reports": {"type": "array", "items": shape,
                    "description": "chance reports (a coal, a card from the pile) the rules "
                                   "still allow, PAGE-16"}}}
    return {"/games/{game}/referee/moves": {"get": _op(
        "Every seat's legal commands now as the referee submits them at a physical table: "
        "each seat's announced commands and the chance reports the referee's whole state "
        "allows, as the shapes of /moves (engine.web.refmoves)",
        "the referee's token or the organiser key (PAGE-15)",
        {"200": _json({"type": "object", "properties": {
            "game": {"type": "string"}, "version": {"type": "integer"},
            "physical": {"type": "boolean"}, "over": {"type": "boolean"},
            "seats": {"type": "array", "items": seat}}}, "The shapes per seat."), **errors},
        [game])}}
