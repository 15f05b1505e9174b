"""``devil witness serve``: a C2SP tlog-witness over HTTP (a tiny Starlette app, run by uvicorn).

* ``POST /add-checkpoint``: engine.tlog.witness.Witness.add_checkpoint (200 the cosignature
  line; 400, 403, 404, 409 (body: the size last cosigned, ``text/x.tlog.size``), 422);
* ``GET /<origin hash>/checkpoint``: the last checkpoint it cosigned for that log, with the
  log's signature and its own (tlog-witness's monitoring path; 404 if it never cosigned one);
* ``GET /split-views``: the split-view proofs it was shown, as JSON ``[{"origin", "size",
  "key", "first", "second", "seen"}]``;
* ``GET /key``: ``{"name", "key"}``, the witness's verifier key (for people; a log's client
  is given the key, never trusts this).
"""

from __future__ import annotations

import sys

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from ..errors import DevilError
from ..tlog.witness import MAX_BODY, Witness, WitnessState, origin_hash
from .jsonout import JSONResponse


def create_witness_app(state: WitnessState, quiet: bool = False) -> Starlette:
    """The witness's ASGI app on ``state`` (its key and the logs it pins).  Every refusal is
    also written to stderr with its reason, unless ``quiet``."""
    witness = Witness(state)

    async def add_checkpoint(request: Request) -> Response:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return PlainTextResponse(f"the request is larger than {MAX_BODY} bytes\n", 400)
        try:
            answer = await run_in_threadpool(witness.add_checkpoint, body)
        except DevilError as exc:  # its own state unreadable: say so, cosign nothing
            print(f"devil witness: {exc}", file=sys.stderr)
            return PlainTextResponse(f"the witness cannot read its state: {exc}\n", 500)
        handshake = answer.status == 409 and answer.split is None \
            and answer.reason.startswith("the witness last cosigned")  # a client learning the size
        if answer.status != 200 and not handshake and not quiet:
            print(f"devil witness: refused ({answer.status}): {answer.reason}", file=sys.stderr)
        return Response(answer.body, answer.status, media_type=answer.content_type)

    async def monitored(request: Request) -> Response:
        wanted = request.path_params["origin"]
        for origin in state.logs():
            if origin_hash(origin) == wanted:
                latest = await run_in_threadpool(state.latest, origin)
                if latest is not None:
                    return PlainTextResponse(latest["note"])
        return PlainTextResponse("this witness has cosigned no checkpoint of that log\n", 404)

    async def splits(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(state.splits))

    async def key(request: Request) -> Response:
        return JSONResponse({"name": state.name, "key": state.key()})

    return Starlette(routes=[Route("/add-checkpoint", add_checkpoint, methods=["POST"]),
                             Route("/split-views", splits, methods=["GET"]),
                             Route("/key", key, methods=["GET"]),
                             Route("/{origin}/checkpoint", monitored, methods=["GET"])])
