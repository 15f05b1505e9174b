"""The hot routes: a game's commands, view, events and stream, past Starlette's layers
(issue 21).

A seat's every move is ``POST /games/{id}/commands`` and each of the game's watchers is woken
on ``GET /games/{id}/stream`` or ``/events``.  Through Starlette each request passes five
layers (the server-error and exception middleware, :class:`engine.web.csp.PageHeaders`, the
router's walk over every route, the endpoint wrapper), each with its own ``send`` wrapper per
message.  :class:`HotRoutes` answers exactly these four routes itself, with the same endpoint
functions of :mod:`engine.web.games`, the same error handlers (:data:`engine.web.errors.
HANDLERS`, looked up as Starlette does) and the same headers (:func:`engine.web.csp.
finish_headers`), so its answers are the router's byte for byte (tests/service/
test_hot_routes.py).  Anything else, including another method on these paths, a path with
more or fewer parts, or a server mounted under a root path, goes through Starlette as before.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from starlette._exception_handler import _lookup_exception_handler
from starlette.exceptions import HTTPException
from starlette.requests import Request

from .csp import finish_headers

Endpoint = Callable[[Request], Awaitable]

_PREFIX = "/games/"


class HotRoutes:
    """``(method, last part) -> endpoint`` for paths ``/games/{game}/{last part}``.

    ``handlers``: the app's exception handlers (``{exception class: handler}``, as given to
    Starlette); the one for ``Exception`` answers what no other handles (a 500), exactly as
    Starlette's ServerErrorMiddleware does: sent without the pages' headers, then raised again
    for the server's log."""

    def __init__(self, endpoints: dict[tuple[str, str], Endpoint], handlers: dict):
        self.endpoints = dict(endpoints)
        self.handlers = {k: v for k, v in handlers.items() if k not in (500, Exception)}
        self.server_error = handlers.get(Exception) or handlers.get(500)

    def match(self, scope) -> "tuple[Endpoint, str] | None":
        """The endpoint and the game's path part for an HTTP ``scope`` this answers, else
        None."""
        if scope.get("root_path"):
            return None  # mounted under a prefix: the router knows how to strip it
        path = scope["path"]
        if not path.startswith(_PREFIX):
            return None
        game, slash, last = path[len(_PREFIX):].partition("/")
        if not game or not slash or "/" in last:
            return None
        endpoint = self.endpoints.get((scope["method"], last))
        return None if endpoint is None else (endpoint, game)

    async def serve(self, app, endpoint: Endpoint, game: str, scope, receive, send) -> None:
        """Answer one request with ``endpoint`` (``app``: the Starlette app, as the router
        would put it in the scope)."""
        scope["app"] = app
        scope.setdefault("router", app.router)
        scope["endpoint"] = endpoint
        scope["path_params"] = {"game": game}
        started = False

        async def sending(message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = dict(message, headers=finish_headers(message.get("headers", [])))
            await send(message)

        request = Request(scope, receive, sending)
        try:
            try:
                response = await endpoint(request)
                await response(scope, receive, sending)
            except Exception as exc:
                handler: Any = None
                if isinstance(exc, HTTPException):
                    handler = self.handlers.get(exc.status_code)
                if handler is None:
                    handler = _lookup_exception_handler(self.handlers, exc)
                if handler is None:
                    raise
                if started:
                    raise RuntimeError("Caught handled exception, but response already "
                                       "started.") from exc
                answer = await handler(request, exc)
                if answer is not None:
                    await answer(scope, receive, sending)
                exc.__traceback__ = None
        except Exception as exc:
            if self.server_error is None:
                raise
            if not started:  # as Starlette's ServerErrorMiddleware: the raw send, then raise
                answer = await self.server_error(Request(scope), exc)
                await answer(scope, receive, send)
            raise
