"""The referee's page for a physical game (issue 25.2): ``GET /games/{id}/referee`` in
``devil serve``, and the files it loads.  Game-agnostic: the page asks the API for everything
(engine.web.games: the summary, the referee's view, the event long poll, commands with command
ids; engine.web.refmoves: every seat's commands and chance reports as shapes) and words every
kind's events from the language catalogues the seat's page uses (``i18n/<lang>.json``, whose
``referee`` section holds this page's words and each kind's report labels).

* ``GET /games/{id}/referee``: the page (HTML holding no game data).  The referee's token is in
  the address's fragment (``#token=...``), which a browser never sends to a server or in a
  Referer; the page's script sends it in the Authorization header only.  Any other token is
  refused by the API the page asks (PAGE-15) and the page says so.
* its files, ``referee.js`` (the plain ES module), ``referee.css`` and ``words.js`` (the module
  it shares with the seat's page: the catalogue's words, the API, the controls), are served at
  ``GET /pages/{name}`` with every live page's files (engine.web.pages.assets); the older
  ``GET /pages/referee/{name}`` serves the same files.

Every answer carries engine.web.pages.assets.HEADERS (the same Content-Security-Policy as the
seat's page: this origin's script, style and API only, nothing inline, no framing; no referrer,
no caching).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from . import assets

#: the files the referee's page loads (every live page's files are engine.web.pages.assets')
FILES = {name: assets.FILES[name] for name in ("referee.js", "words.js", "referee.css")}


def routes(api) -> list[Route]:
    """The page's routes (``api``: engine.web.app.Api; the page itself needs none of it)."""

    async def referee_page(request: Request) -> Response:
        return assets.page_answer("referee.html")

    async def static(request: Request) -> Response:
        return assets.file_answer(request.path_params["name"])

    return [Route("/games/{game}/referee", referee_page, methods=["GET"]),
            Route("/pages/referee/{name}", static, methods=["GET"])]


def openapi_paths(_op) -> dict:
    """This module's paths for engine.web.openapi, made with its helper ``_op``."""
    def page(summary: str, media: str, params: list) -> dict:
        return {"get": _op(summary, "anyone", {
            "200": {"description": "The file.", "content": {
                kind: {"schema": {"type": "string"}} for kind in media.split()}},
            "404": {"$ref": "#/components/responses/NotFound"}}, params, secured=False)}

    game = {"name": "game", "in": "path", "required": True, "schema": {"type": "string"}}
    name = {"name": "name", "in": "path", "required": True, "schema": {"type": "string"},
            "description": "one of: " + ", ".join(sorted(FILES))}
    return {
        "/games/{game}/referee": page(
            "The referee's page of a physical game (the referee's token): every seat's "
            "commands, the chance reports (a coal from what is left in the furnace, a card "
            "from the pile), corrections, disputes and rulings. HTML holding no game data; it "
            "reads the token from #token=... and sends it in the Authorization header only",
            "text/html", [game]),
        "/pages/referee/{name}": page("The referee page's script, its helpers or its style",
                                      "text/javascript text/css", [name]),
    }
