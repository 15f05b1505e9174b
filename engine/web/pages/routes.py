"""The pages' routes in ``devil serve`` (mounted by engine.web.app.create_app; docs/service.md):

* ``GET /games/{id}/replay``: the replay page (HTML; holds no game data: it reads the token
  from its address's fragment, ``#token=...``, never sent to the server, or asks for it);
* ``GET /games/{id}/replay/data[?as=NAME]``: its data (:func:`engine.web.pages.replay_data`) for
  the bearer token: a seat's token gets the steps of its own redacted stream only, the
  spectator's the public stream, the referee's everything (or, with ``as``, one seat's);
* ``GET /games/{id}/audit``, ``GET /games/{id}/audit/data``: the audit page and its data (the
  kind's audit and money chart; the referee's only: an audit reads every sealed bet).

Each page's Content-Security-Policy allows its one script (page.js) by hash and nothing else
(engine.web.csp); errors are the API's JSON errors (401 without a token, 403 for a token of
another game or a seat asking for the audit, 400 for a kind without an audit).
"""

from __future__ import annotations

import gzip
import json

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from ...errors import NotAllowed
from .. import csp
from . import audit_data, audit_html, page_script, replay_data, replay_html

#: the data answers' headers: no caching of game data, no referrer (the token is in the
#: fragment, which browsers never send; belt and braces)
HEADERS = {"Cache-Control": "no-store", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
           "X-Content-Type-Options": "nosniff"}


def page_headers() -> dict[str, str]:
    """A served page's headers (engine.web.csp.page_headers): its one script, page.js, allowed
    by hash, and fetching its data from this server (``connect-src 'self'``)."""
    return csp.page_headers([page_script()], connect=True)


def routes(api, texts=None) -> list[Route]:
    """The page routes for ``api`` (an engine.web.app.Api); ``texts``: see engine.web.pages."""

    async def loaded_log(game: str):
        """The game's log as of now (read holding the game's lock; decoded outside it, so a
        long replay does not hold up the game's commands)."""
        from ...replay import load_bytes

        data = await api.call(game, api.store.log_bytes, game)
        return await run_in_threadpool(load_bytes, data, game)

    def replay_for(log, viewer, choose: bool) -> dict:
        data = replay_data(log, viewer, texts)
        if choose:
            data["choose"] = list(data["players"])
        return data

    def answer(request: Request, data: dict) -> Response:
        """``data`` as JSON, gzipped when the client takes it (a long game's replay is
        megabytes of JSON that packs ten to one)."""
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        headers = dict(HEADERS, Vary="Accept-Encoding")
        if len(body) > 4096 and "gzip" in request.headers.get("accept-encoding", ""):
            body = gzip.compress(body, 6)
            headers["Content-Encoding"] = "gzip"
        return Response(body, media_type="application/json", headers=headers)

    async def replay_page(request: Request) -> Response:
        return HTMLResponse(replay_html(None, "devil replay"), headers=page_headers())

    async def replay_json(request: Request) -> Response:
        role = api.authenticate(request)
        game = await api.game_for(request, role)
        names = await api.call(game, api.names, game)
        viewer = api.viewer_for(role, names, request.query_params.get("as"))
        log = await loaded_log(game)
        return answer(request, await run_in_threadpool(replay_for, log, viewer, role.is_referee))

    async def audit_page(request: Request) -> Response:
        return HTMLResponse(audit_html(None, "devil audit"), headers=page_headers())

    async def audit_json(request: Request) -> Response:
        role = api.authenticate(request)
        game = await api.game_for(request, role)
        if not role.is_referee:
            raise NotAllowed("the audit reads every bet, sealed ones too: it is the referee's "
                             "(a seat or spectator reads the replay: GET /games/{id}/replay)")
        log = await loaded_log(game)
        return answer(request, await run_in_threadpool(audit_data, log))

    return [
        Route("/games/{game}/replay", replay_page, methods=["GET"]),
        Route("/games/{game}/replay/data", replay_json, methods=["GET"]),
        Route("/games/{game}/audit", audit_page, methods=["GET"]),
        Route("/games/{game}/audit/data", audit_json, methods=["GET"]),
    ]
