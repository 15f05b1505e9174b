"""The seat's page's auto-pass and window hold (issue 25.4; PAGE-20 to PAGE-24).

A seat may let its page pass for it in every window where it has nothing it could use; what
the other seats observe must not depend on its hand (the kind's rule for its windows).  So the
page holds: with the switch on, every answer the seat gives in such a window leaves its page no
earlier than the table's **window hold** H after the page saw the ask, and the auto-pass leaves
exactly at H.  An auto-pass and a quick pass by hand are then the same record (the seat's own
``window_passed``, sent with a fresh command id by the same page) at the same moment.

This module is the service's part, all of it off the command path (no store read, no
statement: a command is decided as before):

* :func:`window_of`: the ``window`` field of ``GET /games/{id}/moves`` (engine.web.moves), from
  the kind's ``window`` hook (GameRules.window; a kind without it has none): the window the
  seat is asked in, its rule ids, the seat's pass command as a map and ``nothing_to_use``.
* ``GET /pages/autopass.json``: the table's settings for the page, ``{"hold_ms", "kinds",
  "rules"}`` (``kinds``: those with windows, where the page shows its switch);
  ``hold_ms`` is ``devil serve --window-hold SECONDS`` (default 3 s, PAGE-22), the same for
  every seat's page this server serves.
* ``GET /pages/autopass.js``: the page's module (the switch, the hold and its countdown),
  served with every live page's files (engine.web.pages.assets).

The service does not enforce the hold (PAGE-22): an answer sent early tells the table only
about the sender's own hand, which is the sender's to give away, as at the physical table; the
hold is the seat's protection of its own secret, not the table's against it.
"""

from __future__ import annotations


from starlette.requests import Request
from starlette.routing import Route

from .jsonout import JSONResponse

#: the table's window hold by default, ms (PAGE-22): long enough to read the table and answer
#: by hand, short enough that a fight with every window held stays a fight
HOLD_MS = 3000
#: the hold's bounds, ms (PAGE-22): below half a second the page's own latency would tell; above
#: half a minute the game stalls
HOLD_MIN_MS, HOLD_MAX_MS = 500, 30000
#: the rule ids the page's switch and hold cite
RULES = ["PAGE-20", "PAGE-21", "PAGE-22", "PAGE-23", "PAGE-24"]


def hold_ms(seconds: float | None) -> int:
    """The window hold in ms for ``seconds`` (None: :data:`HOLD_MS`); raises ValueError
    (PAGE-22) outside 0.5 to 30 s."""
    if seconds is None:
        return HOLD_MS
    ms = round(float(seconds) * 1000)
    if not HOLD_MIN_MS <= ms <= HOLD_MAX_MS:
        raise ValueError(f"PAGE-22: the window hold is 0.5 to 30 seconds, not {seconds}")
    return ms


def kinds_with_windows() -> list[str]:
    """The kinds whose rules name windows (their ``window`` hook, GameRules): the page shows
    its switch only in their games."""
    from ..game import rules_for
    from ..games import kinds

    return [kind for kind in kinds() if rules_for(kind).window is not None]


def window_of(rules, view: dict, legal: list) -> dict | None:
    """The ``window`` of a seat's moves answer: None, or ``{"stage": the fight's stage (a
    step, never a card), "rules": [rule ids], "pass": the seat's pass command as a map,
    "nothing_to_use": bool}`` (the kind's ``window`` hook on the seat's own ``view`` and
    ``legal`` commands; see GameRules)."""
    hook = getattr(rules, "window", None)
    if hook is None:
        return None
    found = hook(view, legal)
    if found is None:
        return None
    return {"stage": found["stage"], "rules": list(found["rules"]),
            "pass": rules.commands.to_map(found["pass"]),
            "nothing_to_use": bool(found["nothing_to_use"])}


def routes(api) -> list[Route]:
    """``GET /pages/autopass.json`` on ``api`` (engine.web.app.Api, whose ``window_hold_ms``
    is the table's hold).  Registered before the table page's ``/pages/{name}``, which
    serves ``autopass.js`` with every live page's files (engine.web.pages.assets)."""
    from .pages.assets import HEADERS

    async def settings(request: Request) -> JSONResponse:
        return JSONResponse({"hold_ms": api.window_hold_ms, "kinds": kinds_with_windows(),
                             "rules": RULES}, headers=HEADERS)

    return [Route("/pages/autopass.json", settings, methods=["GET"])]


def openapi_paths(_op, _json) -> dict:
    """This module's paths for engine.web.openapi, made with its helpers ``_op`` and
    ``_json``."""
    return {
        "/pages/autopass.json": {"get": _op(
            "The table's window hold for the seat's page (PAGE-22): every answer the page "
            "holds in a window leaves no earlier than hold_ms after the ask (engine.web.autopass)",
            "anyone", {"200": _json({"type": "object", "properties": {
                "hold_ms": {"type": "integer"},
                "kinds": {"type": "array", "items": {"type": "string"}},
                "rules": {"type": "array", "items": {"type": "string"}}}}, "The settings.")},
            secured=False)},
        "/pages/autopass.js": {"get": _op(
            "The seat's page's auto-pass module (a plain ES module; PAGE-20 to PAGE-24)",
            "anyone", {"200": {"description": "The file.", "content": {"text/javascript": {
                "schema": {"type": "string"}}}}}, secured=False)},
    }


#: the ``window`` field of the moves answer, for engine.web.moves's OpenAPI schema
WINDOW_SCHEMA = {"type": ["object", "null"], "description": (
    "the window a pass could tell something in (the kind's rules), for the page's auto-pass "
    "(PAGE-20): its stage of the fight (public: a step, never a card) and rules, the seat's "
    "pass command, and whether the pass is the seat's only legal command"), "properties": {
        "stage": {"type": "string"}, "rules": {"type": "array", "items": {"type": "string"}},
        "pass": {"type": "object"}, "nothing_to_use": {"type": "boolean"}}}
