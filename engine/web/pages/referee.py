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
* ``GET /pages/referee/{name}``: ``referee.js`` (the plain ES module), ``words.js`` (the
  catalogue's helpers it imports: events in plain words with their rule ids) and
  ``referee.css``; served from the package (no build step, no CDN).

Every answer carries engine.web.pages.table's ``HEADERS`` (the same Content-Security-Policy:
this origin's script, style and API only, nothing inline, no framing; no referrer, no caching).
"""

from __future__ import annotations

from importlib import resources

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..errors import ApiError
from .table import HEADERS

#: the files the referee's page loads: name -> media type
FILES = {"referee.js": "text/javascript; charset=utf-8",
         "words.js": "text/javascript; charset=utf-8",
         "referee.css": "text/css; charset=utf-8"}


def _asset(name: str) -> bytes:
    return resources.files(__package__).joinpath(name).read_bytes()


def routes(api) -> list[Route]:
    """The page's routes (``api``: engine.web.app.Api; the page itself needs none of it)."""

    async def referee_page(request: Request) -> Response:
        return Response(_asset("referee.html"), media_type="text/html; charset=utf-8",
                        headers=HEADERS)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in FILES:
            raise ApiError(404, f"no referee page file {name!r} (there are: "
                                f"{', '.join(sorted(FILES))})")
        return Response(_asset(name), media_type=FILES[name], headers=HEADERS)

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
