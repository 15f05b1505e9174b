"""The HTTP layer's errors (docs/service.md): what the app and every group of routes answer with,
so that no route module needs the app.

Every error is JSON: ``{"error": message, "rule": rule-or-null, "code": CLI exit code}``
(:func:`error_body`); an engine error's status is :func:`status_of`'s, an :class:`ApiError`
names its own.  :data:`HANDLERS` are the app's exception handlers.
"""

from __future__ import annotations

from typing import Awaitable, Callable

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ..errors import (CodecError, ConcurrencyConflict, DevilError, IllegalCommand, LogDamaged,
                      NotAllowed, StoreUnavailable, UnknownGame, UsageError)
from .jsonout import JSONResponse


class ApiError(Exception):
    """An error answered as JSON with ``status``."""

    def __init__(self, status: int, message: str, code: int = 2, rule: str | None = None,
                 headers: dict | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.rule = rule
        self.headers = headers


def error_body(message: str, code: int, rule: str | None = None) -> dict:
    """The JSON body of every error answer: ``{"error", "rule", "code"}`` (code: the CLI's exit
    code for the same error)."""
    return {"error": message, "rule": rule, "code": code}


def status_of(exc: DevilError) -> int:
    """The HTTP status answering an engine error."""
    if isinstance(exc, StoreUnavailable):
        return 503  # the database went away: nothing taken, try again (Retry-After)
    from ..receipts import SigningKeyDamaged

    if isinstance(exc, SigningKeyDamaged):
        return 503  # the store's key cannot be read: nothing recorded until it is repaired
    if isinstance(exc, IllegalCommand):
        return 409
    if isinstance(exc, NotAllowed):
        return 403
    if isinstance(exc, UnknownGame):
        return 404
    if isinstance(exc, ConcurrencyConflict):
        return 409
    if isinstance(exc, LogDamaged):
        return 500
    if isinstance(exc, (CodecError, UsageError)):
        return 400
    return 400


# -- errors as JSON ---------------------------------------------------------------------------
async def api_error(request: Request, exc: ApiError) -> Response:
    """An :class:`ApiError` as its JSON answer."""
    return JSONResponse(error_body(exc.message, exc.code, exc.rule), status_code=exc.status,
                        headers=exc.headers)


async def devil_error(request: Request, exc: DevilError) -> Response:
    """An engine error as JSON with :func:`status_of`'s status (503: ``Retry-After: 1``)."""
    status = status_of(exc)
    return JSONResponse(error_body(exc.message, exc.exit_code, getattr(exc, "rule", None)),
                        status_code=status,
                        headers={"Retry-After": "1"} if status == 503 else None)


async def http_error(request: Request, exc: HTTPException) -> Response:
    """Starlette's own errors (no such route, a method not allowed) in the same JSON."""
    message = {404: "no such endpoint (see /openapi.json)",
               405: f"method {request.method} is not allowed here (see /openapi.json)"
               }.get(exc.status_code, str(exc.detail))
    return JSONResponse(error_body(message, 2), status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


async def server_error(request: Request, exc: Exception) -> Response:
    """Anything else: a 500 that tells nothing of the inside (the server's log has it)."""
    return JSONResponse(error_body("internal server error (the server's log has the details)",
                                   2), status_code=500)


#: the app's exception handlers (engine.web.app.create_app)
HANDLERS: dict[type[Exception], Callable[..., Awaitable[Response]]] = {
    ApiError: api_error, DevilError: devil_error, HTTPException: http_error,
    Exception: server_error}
