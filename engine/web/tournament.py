"""The tournament operations of the HTTP service, for the organiser's key (issue 11;
docs/tournaments.md, docs/service.md).  Mounted by :func:`engine.web.app.create_app`.

* ``POST /tournaments``: a new tournament (the body: the settings of
  :func:`engine.tournament.rules.setup`), 201 ``{"tournament"}``;
* ``POST /tournaments/{t}/commands``: ``{"type": "add"|"drop"|"penalty"|"pair"|"attach"|
  "close-round"|"checkin"|"forfeit"|"swap"|"unpair"|"adjudicate"|"amend", ...}`` (see
  :data:`FIELDS`); ``pair`` creates each table's game and answers with every player's seat
  token (a forfeit's remade table and a swap's tables too, under ``tokens``: game -> name ->
  token);
* ``GET /tournaments/{t}``: the tournament's view with the open round's games;
* ``GET /tournaments/{t}/bundle.zip``: the bundle (engine.tournament.bundle), organiser only;
* ``GET /tournaments/{t}/standings`` (JSON) and ``/standings.html`` (the page with points by
  round as a chart, the history, live: engine.web.tournament_print): public, like a printed
  standings sheet;
* pairings, slips, explain, the public spectator link: engine.web.tournament_print.

Writing needs the organiser key (a server without one refuses: 403).  Errors are the service's
JSON errors; a refusal records nothing.
"""

from __future__ import annotations

import base64
import binascii

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..errors import UsageError
from ..tournament.noshow_ops import FIELDS as NOSHOW_FIELDS
from .auth import keys_equal
from .errors import ApiError
from .jsonout import JSONResponse

#: the fields of each command (besides "type")
FIELDS = {"add": {"player"}, "drop": {"player", "reason"},
          "penalty": {"player", "points", "reason", "correction"},
          "pair": {"seating", "byes", "games", "seat_entropy"}, "attach": {"game", "log", "table"},
          "close-round": set(), **NOSHOW_FIELDS,
          "adjudicate": {"table", "reason", "force"}, "amend": {"table", "round", "reason"}}


class TournamentApi:
    """The endpoints, on the service's :class:`engine.web.app.Api`."""

    def __init__(self, api):
        from ..tournament.organiser import Organiser

        self.api = api
        self.tournaments = Organiser(api.service)

    def organiser(self, request: Request) -> None:
        if not self.api.organiser_key:
            raise ApiError(403, "this server has no organiser key: tournaments are run by the "
                                "organiser (devil serve --organiser-key KEY)", 4)
        token = self.api.bearer(request)
        if token is None:
            raise ApiError(401, "this needs the organiser key (Authorization: Bearer <key>)", 4,
                           headers={"WWW-Authenticate": "Bearer"})
        if not keys_equal(token, self.api.organiser_key):
            raise ApiError(403, "only the organiser may run tournaments (the key given is not "
                                "the organiser key)", 4)

    async def tournament(self, request: Request) -> str:
        return await run_in_threadpool(self.tournaments.resolve, request.path_params["tournament"])

    async def create(self, request: Request) -> Response:
        self.organiser(request)
        body = await self.api.read_json(request)
        tid = await run_in_threadpool(self.tournaments.create, body)
        return JSONResponse({"tournament": tid}, status_code=201)

    async def command(self, request: Request) -> Response:
        self.organiser(request)
        tid = await self.tournament(request)
        body = await self.api.read_json(request)
        kind = body.get("type")
        if kind not in FIELDS:
            raise ApiError(400, f"a tournament command has a \"type\": one of {', '.join(FIELDS)}")
        unknown = set(body) - FIELDS[kind] - {"type"}
        if unknown:
            raise ApiError(400, f"unknown field(s) of {kind}: {', '.join(sorted(unknown))}")
        return JSONResponse(await self.api.call(tid, self._run, tid, kind, body))

    def _run(self, tid: str, kind: str, body: dict) -> dict:
        tournaments = self.tournaments
        events = None
        if kind == "add":
            events = tournaments.add(tid, _text(body, "player"))
        elif kind == "drop":
            events = tournaments.drop(tid, _text(body, "player"), _text(body, "reason", ""))
        elif kind == "penalty":
            points = body.get("points")
            if not isinstance(points, (int, float, str)) or isinstance(points, bool):
                raise UsageError("penalty: \"points\" is a number such as -2 or \"-1/2\"")
            events = tournaments.adjust(tid, _text(body, "player"), str(points),
                                        _text(body, "reason", ""),
                                        "correction" if body.get("correction") is True
                                        else "penalty")
        elif kind == "pair":
            issued: dict[str, dict] = {}

            def private(game: str, names: list[str]) -> dict:
                plain, document = self.api.book.mint(game, names)
                issued[game] = plain
                return {"tokens": document}

            games = body.get("games", True)
            if not isinstance(games, bool):
                raise UsageError("pair: \"games\" is true or false")
            seat_entropy = body.get("seat_entropy", self.api.seat_entropy)
            if not isinstance(seat_entropy, bool):
                raise UsageError("pair: \"seat_entropy\" is true or false")
            result = tournaments.pair(tid, seating=body.get("seating"), byes=body.get("byes"),
                                      games=games, private=private, seat_entropy=seat_entropy)
            for row in result["tables"]:
                row["tokens"] = issued.get(row["game"], {})
            return {"tournament": tid, **result}
        elif kind == "attach":
            data = None
            if body.get("log") is not None:
                try:
                    data = base64.b64decode(_text(body, "log"), validate=True)
                except (binascii.Error, ValueError):
                    raise UsageError("attach: \"log\" is a .devlog's bytes in base64") from None
            source = body.get("game")
            if data is None and not isinstance(source, str):
                raise UsageError("attach: give \"game\" (an id on this server) or \"log\" "
                                 "(a referee's .devlog in base64)")
            table = body.get("table")
            if table is not None and (type(table) is not int or table < 1):
                raise UsageError("attach: \"table\" is a table number from 1")
            return {"tournament": tid,
                    **tournaments.attach(tid, source or "", table=table, data=data)}
        elif kind == "close-round":
            return {"tournament": tid, **tournaments.close_round(tid)}
        elif kind in NOSHOW_FIELDS:  # checkin, forfeit, swap, unpair (TOUR-7)
            return self._noshow(tid, kind, body)
        elif kind in ("adjudicate", "amend"):  # TOUR-8, TOUR-9
            from ..tournament.adjudicate import from_body
            return {"tournament": tid, **from_body(tournaments, tid, kind, body)}
        assert events is not None  # add, drop and penalty (FIELDS' other kinds answered above)
        rules = tournaments.service.load(tid).rules
        return {"tournament": tid, "events": [rules.events.to_map(e) for e in events]}

    def _noshow(self, tid: str, kind: str, body: dict) -> dict:
        """A TOUR-7 operation (engine.tournament.noshow_ops.run); a table's new game answers
        its seats' tokens, as ``pair`` does."""
        from ..tournament.noshow_ops import run

        issued: dict[str, dict] = {}

        def private(game: str, names: list[str]) -> dict:
            plain, document = self.api.book.mint(game, names)
            issued[game] = plain
            return {"tokens": document}

        answer = run(self.tournaments, tid, kind, body, private=private)
        if issued:
            answer["tokens"] = issued
        return answer

    async def show(self, request: Request) -> Response:
        self.organiser(request)
        tid = await self.tournament(request)
        return JSONResponse(await self.api.call(tid, self.tournaments.show, tid))

    async def bundle(self, request: Request) -> Response:
        self.organiser(request)
        tid = await self.tournament(request)
        data = await self.api.call(tid, self._bundle_zip, tid)
        return Response(data, media_type="application/zip", headers={
            "Content-Disposition": f'attachment; filename="{tid}.zip"'})

    def _bundle_zip(self, tid: str) -> bytes:
        import os
        import tempfile

        from ..tournament.bundle import write

        with tempfile.TemporaryDirectory() as tmp:
            folder = os.path.join(tmp, tid)
            write(self.store_of(), tid, folder)
            with open(folder + ".zip", "rb") as handle:
                return handle.read()

    def store_of(self):
        return self.api.store

    async def standings(self, request: Request) -> Response:
        tid = await self.tournament(request)
        return JSONResponse(await self.api.call(tid, self.tournaments.standings, tid))



def _text(body: dict, key: str, default: str | None = None) -> str:
    value = body.get(key, default)
    if not isinstance(value, str):
        raise UsageError(f"\"{key}\" must be text")
    return value


def routes(api) -> list[Route]:
    """The tournament routes on ``api`` (an engine.web.app.Api)."""
    from .tournament_print import routes as print_routes

    t = TournamentApi(api)
    # standings.html, pairings, slips, explain, the live pages (issue 22.9)
    printing = print_routes(t)
    return printing + [Route("/tournaments", t.create, methods=["POST"]),
            Route("/tournaments/{tournament}", t.show, methods=["GET"]),
            Route("/tournaments/{tournament}/commands", t.command, methods=["POST"]),
            Route("/tournaments/{tournament}/standings", t.standings, methods=["GET"]),
            Route("/tournaments/{tournament}/bundle.zip", t.bundle, methods=["GET"])]
