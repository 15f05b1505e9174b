"""The transparency log over HTTP (engine.tlog): anyone may read it.

* ``GET /checkpoint``: the latest signed checkpoint as the C2SP note (text/plain), or with
  ``?format=json`` as ``{"checkpoint", "origin", "size", "root", "key"}``;
* ``GET /checkpoint/consistency?old=N[&new=M]``: ``{"old", "new", "proof"}``;
* ``GET /checkpoint/inclusion?game=G&seq=S&link=L``: ``{"checkpoint", "index", "proof"}``.

With ``devil serve --witness URL`` (engine/web/cosigning.py) the checkpoint notes carry the
witnesses' cosignatures kept for their size, the header ``Devil-Witnessed-By`` names those
witnesses (``none`` if none), the JSON adds ``"witnessed_by"`` and (``/checkpoint``)
``"witnesses"``: each witness's state; ``GET /checkpoint?witnessed=1`` is the newest checkpoint
any witness cosigned (404 before the first).
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from ..errors import DevilError
from .jsonout import JSONResponse


def tlog_routes(api) -> list[Route]:
    """The routes of the transparency log on ``api`` (engine.web.app.Api: its store and
    service's signer)."""

    def ask(what: str, params: dict) -> dict:
        from ..tlog.log import answer

        return answer(api.store, api.service.signer(), what, params)

    async def handle(request: Request, what: str) -> Response:
        try:
            data = await run_in_threadpool(ask, what, dict(request.query_params))
        except DevilError as exc:
            status = 404 if "no leaf" in str(exc) else 400
            return JSONResponse({"error": exc.message, "code": exc.exit_code}, status_code=status)
        cosigning = getattr(api, "cosigning", None)
        headers = {}
        if cosigning is not None and what in ("checkpoint", "inclusion"):  # issue 20.4
            if what == "checkpoint" and request.query_params.get("witnessed"):
                data = cosigning.witnessed() or {"error": "no witness has cosigned a checkpoint "
                                                          "of this log yet", "code": 2}
                if "error" in data:
                    return JSONResponse(data, status_code=404)
            else:
                data = cosigning.attach(data)
            if what == "checkpoint":
                data["witnesses"] = cosigning.status()
            headers["Devil-Witnessed-By"] = ", ".join(data["witnessed_by"]) or "none"
        if what == "checkpoint" and request.query_params.get("format") != "json":
            return PlainTextResponse(data["checkpoint"], headers=headers)
        return JSONResponse(data, headers=headers)

    async def get_checkpoint(request: Request) -> Response:
        return await handle(request, "checkpoint")

    async def get_consistency(request: Request) -> Response:
        return await handle(request, "consistency")

    async def get_inclusion(request: Request) -> Response:
        return await handle(request, "inclusion")

    return [Route("/checkpoint", get_checkpoint, methods=["GET"]),
            Route("/checkpoint/consistency", get_consistency, methods=["GET"]),
            Route("/checkpoint/inclusion", get_inclusion, methods=["GET"])]
