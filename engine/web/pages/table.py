"""The seat's page and the spectator's page (issue 25.1, 25.3, 25.6): ``GET /games/{id}/table``
in ``devil serve``, and the few static files it loads.  Game-agnostic: the page asks the API for
everything (engine.web.games: the summary, the view, the event stream by long poll, commands
with command ids; engine.web.moves: the legal commands as shapes) and words every kind's
events and facts from the language catalogues (``i18n/<lang>.json``, one per language).

* ``GET /games/{id}/table``: the page (HTML holding no game data).  The token is in the
  address's fragment (``#token=...``), which a browser never sends to a server or in a
  Referer; the page's script sends it in the Authorization header only.  A seat's token
  shows that seat's table and its controls, the spectator's token the public table (the
  spectator's page), the referee's the whole table.
* ``GET /pages/{name}``: every live page's static files (engine.web.pages.assets: table.js,
  table.css, words.js, the module the pages share, the referee's and the auto-pass's files;
  no build step, no CDN: served from the package); ``GET /pages/table_<kind>.js``: a kind's
  own drawing module (its seat's view, its windows), which table.js imports when the kind's
  catalogue entry names it (``module``).
* ``GET /pages/i18n/{lang}.json``: a language's catalogue (``en``, ``de``; 404 otherwise).

Every answer carries engine.web.pages.assets.HEADERS: a Content-Security-Policy allowing this
origin's script, style and API only (no inline script, no other host, no framing), no referrer,
no caching.
"""

from __future__ import annotations

import re
from importlib import resources

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..errors import ApiError
from . import assets

_LANG = re.compile(r"^[a-z]{2}$")


def languages() -> list[str]:
    """The languages with a catalogue (``i18n/<lang>.json``), sorted."""
    folder = resources.files(__package__).joinpath("i18n")
    return sorted(entry.name[:-5] for entry in folder.iterdir() if entry.name.endswith(".json"))


def routes(api) -> list[Route]:
    """The page's routes (``api``: engine.web.app.Api; the page itself needs none of it)."""

    async def table_page(request: Request) -> Response:
        return assets.page_answer("table.html")

    async def static(request: Request) -> Response:
        return assets.file_answer(request.path_params["name"])

    async def catalogue(request: Request) -> Response:
        lang = request.path_params["lang"]
        if not _LANG.match(lang) or lang not in languages():
            raise ApiError(404, f"no catalogue for language {lang!r} (there are: "
                                f"{', '.join(languages())})")
        return Response(assets.asset("i18n", f"{lang}.json"), media_type="application/json",
                        headers=assets.HEADERS)

    return [Route("/games/{game}/table", table_page, methods=["GET"]),
            Route("/pages/i18n/{lang}.json", catalogue, methods=["GET"]),
            Route("/pages/{name}", static, methods=["GET"])]


def openapi_paths(_op) -> dict:
    """This module's paths for engine.web.openapi, made with its helper ``_op``."""
    def page(summary: str, media: str, params: list) -> dict:
        return {"get": _op(summary, "anyone", {
            "200": {"description": "The file.", "content": {media: {"schema": {
                "type": "string"}}}},
            "404": {"$ref": "#/components/responses/NotFound"}}, params, secured=False)}

    game = {"name": "game", "in": "path", "required": True, "schema": {"type": "string"}}
    lang = {"name": "lang", "in": "path", "required": True, "schema": {"type": "string"},
            "description": "a language code with a catalogue: " + ", ".join(languages())}
    return {
        "/games/{game}/table": page(
            "The seat's page (a seat's token) or the spectator's page (the spectator's token): "
            "HTML holding no game data; it reads the token from #token=... and sends it in the "
            "Authorization header only", "text/html", [game]),
        "/pages/table.js": page("The table page's script (a plain ES module)",
                                "text/javascript", []),
        "/pages/table.css": page("The table page's style", "text/css", []),
        **{f"/pages/{name}": page("A kind's drawing module of the table page (a plain ES "
                                  "module table.js imports)", "text/javascript", [])
           for name in assets.kind_modules()},
        "/pages/i18n/{lang}.json": page("A language's catalogue of the table page's words",
                                        "application/json", [lang]),
    }
