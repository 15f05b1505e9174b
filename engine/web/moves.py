"""The legal commands of one seat as the shapes a page draws controls from (issue 25.1):
``GET /games/{id}/moves``, with the ``window`` the seat is asked in (engine.web.autopass: the page's
auto-pass, PAGE-20).  Game-agnostic: the shapes are built from the kind's own
``legal_commands`` hook (the service's ``legal_of``), keeping the commands the seat may send
itself (the kind's ``acting_seat``), grouped by command type.

A shape is ``{"type": the command's tag, "fixed": {field: value} (the same in every legal
command of that type: the seat's own ``player``), "inputs": [{"name": field, "values": [every
legal value, in the kind's order]}], "options": [{field: value} of the inputs, one per legal
command] (only when two or more fields vary: the page offers only the combinations that are
legal)}``.  A type with one legal command has no inputs: one button; a bet of any amount up to
the seat's money is one shape whose one input lists the amounts.

In a game with seat entropy (engine.entropy) a seat that has not given its value yet has the
one shape ``{"type": "seat_entropy", "fixed": {"player"}, "inputs": [{"name": "value",
"random": 32}]}``: the page fills ``value`` with 32 random bytes of its own (64 hex digits,
SEAT-2), never the server.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Route

from ..game import PUBLIC, REFEREE
from .autopass import WINDOW_SCHEMA, window_of
from .errors import ApiError
from .jsonout import JSONResponse


def shapes(commands: list[dict]) -> list[dict]:
    """The shapes (see the module docstring) of ``commands``, a seat's legal commands as maps,
    in the order their types first appear.  Pure; [] for no commands."""
    groups: dict[str, list[dict]] = {}
    for command in commands:
        groups.setdefault(str(command.get("type")), []).append(command)
    out = []
    for tag, group in groups.items():
        fields: list[str] = []
        for command in group:
            fields.extend(key for key in command if key != "type" and key not in fields)
        fixed, varying = {}, []
        for field in fields:
            values = [command.get(field) for command in group]
            if all(value == values[0] for value in values):
                fixed[field] = values[0]
            else:
                varying.append(field)
        inputs = []
        for field in varying:
            values = []
            for command in group:
                value = command.get(field)
                if value not in values:
                    values.append(value)
            inputs.append({"name": field, "values": values})
        shape: dict = {"type": tag, "fixed": fixed, "inputs": inputs}
        if len(varying) > 1:
            shape["options"] = [{field: command.get(field) for field in varying}
                                for command in group]
        out.append(shape)
    return out


def seating_shapes(view: dict, name: str) -> list[dict]:
    """The seat-entropy shape for seat ``name`` while ``view`` (the seat's view) is seating and
    the seat has not given its value; [] otherwise."""
    if view.get("phase") != "seating":
        return []
    for player in view.get("players") or []:
        if player.get("name") == name and not player.get("entropy_given"):
            return [{"type": "seat_entropy", "fixed": {"player": name},
                     "inputs": [{"name": "value", "random": 32}]}]
    return []


def moves_answer(service, game: str, viewer) -> dict:
    """``{"game", "version", "seat": name, "moves": [shape]}`` for ``viewer`` (a seat index),
    from one load of ``game`` by ``service`` (engine.service.GameService)."""
    loaded = service.load(game)
    rules = loaded.rules
    names = rules.seats(loaded.state)
    view = service.view_of(loaded, viewer)
    moves = seating_shapes(view, names[viewer])
    window = None
    if not moves:
        to_map = rules.commands.to_map
        legal = service.legal_of(loaded, viewer)
        # only what the seat may send itself: a coal of a physical game is the referee's to
        # report (the kind's acting_seat says None), though the seat's legal list names it
        moves = shapes([to_map(command) for command in legal
                        if rules.acting_seat(loaded.state, command) == viewer])
        window = window_of(rules, view, legal)  # the page's auto-pass (PAGE-20)
    return {"game": game, "version": loaded.version, "seat": names[viewer], "moves": moves,
            "window": window}


def routes(api) -> list[Route]:
    """``GET /games/{game}/moves[?as=NAME]`` on ``api`` (engine.web.app.Api): a seat's token
    (or the referee's with ``as``) gets that seat's shapes; a spectator, or the referee
    without ``as``, is refused (400: legal commands belong to a seat)."""

    async def get_moves(request: Request) -> JSONResponse:
        role = api.authenticate(request)
        game = await api.game_for(request, role)
        names = await api.players(game)
        viewer = api.viewer_for(role, names, request.query_params.get("as"))
        if viewer is REFEREE or viewer == PUBLIC:
            raise ApiError(400, "legal commands belong to a seat: a spectator has none, and "
                                "the referee gives ?as=NAME", 2)
        answer = await api.now(game, moves_answer, api.service, game, viewer)
        return JSONResponse(answer, headers={"Cache-Control": "no-store"})

    return [Route("/games/{game}/moves", get_moves, methods=["GET"])]


def openapi_paths(_op, _json, game: dict, as_: dict, errors: dict) -> dict:
    """This module's path for engine.web.openapi, made with its helpers ``_op`` and ``_json``
    and its ``game`` and ``as`` parameters and ``errors`` responses (given, not imported:
    openapi imports this module)."""
    shape = {"type": "object", "properties": {
        "type": {"type": "string"}, "fixed": {"type": "object"},
        "inputs": {"type": "array", "items": {"type": "object", "properties": {
            "name": {"type": "string"}, "values": {"type": "array"},
            "random": {"type": "integer", "description": "bytes the client draws itself"}}}},
        "options": {"type": "array", "items": {"type": "object"}}}}
    return {"/games/{game}/moves": {"get": _op(
        "A seat's legal commands now, grouped by type as the controls a page draws: fixed "
        "fields, inputs with every legal value, the legal combinations when two or more vary "
        "(engine.web.moves)",
        "a seat's token (its own); the referee's with ?as=NAME; not the spectator's",
        {"200": _json({"type": "object", "properties": {
            "game": {"type": "string"}, "version": {"type": "integer"},
            "seat": {"type": "string"}, "moves": {"type": "array", "items": shape},
            "window": WINDOW_SCHEMA}},
            "The shapes."), **errors}, [game, as_])}}
