"""What organisers print and watch, over HTTP (issue 22.9; docs/tournaments.md, "What organisers
print and watch"; engine.tournament.printing).  Mounted by :func:`engine.web.app.create_app`.

Public, like a sheet on the wall (no token):

* ``GET /tournaments/{t}/pairings[?round=N]`` (JSON), ``/pairings.csv``, ``/pairings.html``
  (the printable page; served, it updates live and links each game to its spectator page when
  the tournament is published);
* ``GET /tournaments/{t}/standings/after/{n}``: the standings as they stood when round n closed;
* ``GET /tournaments/{t}/explain[?after=N]``: each tiebreak's inputs per player;
* ``GET /tournaments/{t}/history``: late entries, drops, penalties, ... (engine.tournament.history);
* ``GET /tournaments/{t}/changes?after=V&wait=S[&game=G]``: a long poll: ``{"version"}`` once the
  tournament's stream (or, with ``game``, that attached game's) is longer than V, or after S
  seconds (at most 30): what the live pages wait on;
* ``GET /tournaments/{t}/watch``, ``/watch/{game}`` (HTML) and ``/watch/{game}/data`` (JSON):
  the public spectator link of a published tournament (TOUR-12.1): every table's game as its
  spectator token would show it (the public view and stream: nothing hidden), 404 otherwise.

The organiser's key: ``GET /tournaments/{t}/slips.html[?round=N]`` (one slip per table) and
``POST /tournaments/{t}/publish`` ``{"public": true|false}``.
"""

from __future__ import annotations

import asyncio
import html

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from ..errors import UnknownGame
from ..game import PUBLIC
from .csp import page_headers, script_body
from .errors import ApiError
from .jsonout import JSONResponse

#: the longest wait of /changes (seconds)
MAX_WAIT = 30.0
#: the CSV's headers: always fresh, never framed, no referrer
HEADERS = {"Cache-Control": "no-store", "X-Frame-Options": "DENY",
           "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


def live_headers(script: str) -> dict[str, str]:
    """A live page's headers (engine.web.csp.page_headers): its one script, ``script`` (a
    ``<script>`` element, engine.tournament.printing.live_script), allowed by hash, asking
    this server's ``/changes``."""
    return page_headers([script_body(script)], connect=True)


class PrintApi:
    """The routes' handlers on ``tournaments`` (engine.web.tournament.TournamentApi)."""

    def __init__(self, tournaments):
        from ..tournament.printing import Printer

        self.t = tournaments
        self.api = tournaments.api
        self.printer = Printer(self.api.service)

    def _round(self, request: Request) -> int | None:
        value = self.api.query_int(request, "round", 0, 1)
        return value or None

    async def pairings_json(self, request: Request) -> Response:
        tid = await self.t.tournament(request)
        return JSONResponse(await self.api.call(tid, self.printer.pairings, tid,
                                                self._round(request)))

    async def pairings_csv(self, request: Request) -> Response:
        from ..tournament.printing import pairings_csv

        tid = await self.t.tournament(request)
        data = await self.api.call(tid, self.printer.pairings, tid, self._round(request))
        return Response(pairings_csv(data), media_type="text/csv; charset=utf-8",
                        headers=HEADERS)

    async def pairings_page(self, request: Request) -> Response:
        from ..tournament.printing import live_script, pairings_html

        tid = await self.t.tournament(request)
        data, version = await self.api.call(tid, self._with_version, self.printer.pairings, tid,
                                            self._round(request))
        data["served"] = True
        script = live_script(self._changes(tid), version)
        return HTMLResponse(pairings_html(data, script), headers=live_headers(script))

    def _with_version(self, fn, tid: str, *args):
        return fn(tid, *args), self.api.service.load(tid).version

    @staticmethod
    def _changes(tid: str) -> str:
        from urllib.parse import quote

        return f"/tournaments/{quote(tid)}/changes"

    async def standings_page(self, request: Request) -> Response:
        """The served standings page (/standings.html): history, live, games linked to their
        spectator pages when published (else to the replay page, which asks for a token)."""
        from ..tournament.page import page
        from ..tournament.printing import live_script, watch_link

        tid = await self.t.tournament(request)
        data, version = await self.api.call(tid, self._with_version, self.printer.standings, tid)
        view = await self.api.call(tid, self.api.service.view, tid)
        state = await self.api.call(tid, self.api.service.state, tid)
        link_data = {"tournament": tid, "public": state.public, "served": True}
        link = (lambda game: watch_link(link_data, game)) if state.public else None
        script = live_script(self._changes(tid), version)
        return HTMLResponse(page(data, view.get("paired", []), link, script),
                            headers=live_headers(script))

    async def standings_after(self, request: Request) -> Response:
        tid = await self.t.tournament(request)
        try:
            upto = int(request.path_params["round"])
        except ValueError:
            raise ApiError(400, "the round is a whole number") from None
        return JSONResponse(await self.api.call(tid, self.printer.standings, tid, upto))

    async def explain(self, request: Request) -> Response:
        tid = await self.t.tournament(request)
        upto = self.api.query_int(request, "after", 0, 1) or None
        return JSONResponse(await self.api.call(tid, self.printer.explain, tid, upto))

    async def history(self, request: Request) -> Response:
        tid = await self.t.tournament(request)
        data = await self.api.call(tid, self.printer.standings, tid)
        return JSONResponse({"tournament": tid, "history": data["history"]})

    async def slips(self, request: Request) -> Response:
        from ..tournament.printing import slips_html

        self.t.organiser(request)
        tid = await self.t.tournament(request)
        data = await self.api.call(tid, self.printer.pairings, tid, self._round(request))
        measure = await self.api.call(tid, self.printer.measure, tid)
        return HTMLResponse(slips_html(data, measure), headers=page_headers())

    async def publish(self, request: Request) -> Response:
        self.t.organiser(request)
        tid = await self.t.tournament(request)
        body = await self.api.read_json(request)
        unknown = set(body) - {"public"}
        if unknown:
            raise ApiError(400, f"unknown field(s) of publish: {', '.join(sorted(unknown))}")
        public = body.get("public", True)
        if not isinstance(public, bool):
            raise ApiError(400, "publish: \"public\" is true or false")
        events = await self.api.call(tid, self.printer.publish, tid, public)
        self.api.hub.notify(tid)
        rules = self.api.service.load(tid).rules
        return JSONResponse({"tournament": tid, "public": public,
                             "events": [rules.events.to_map(e) for e in events]})

    # -- live ------------------------------------------------------------------------------
    async def changes(self, request: Request) -> Response:
        """The long poll of the live pages (see the module's docstring)."""
        tid = await self.t.tournament(request)
        game = request.query_params.get("game")
        stream = tid
        if game is not None:
            stream = await self.api.call(tid, self._public_game, tid, game)
        after = self.api.query_int(request, "after", 0)
        wait = self.api.query_float(request, "wait", 0.0, MAX_WAIT)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        while True:
            changed = self.api.hub.changed(stream)
            head = await self.api.off_loop(self.api.head, stream)
            version = await self.api.off_loop(lambda: self.api.service.load(stream).version)
            if version > after or loop.time() >= deadline:
                return JSONResponse({"tournament": tid, "game": game, "version": version},
                                    headers=HEADERS)
            await self.api.wait_change(stream, head, changed, deadline)

    # -- the public spectator link ---------------------------------------------------------
    def _public_game(self, tid: str, game: str | None = None) -> str:
        """``game`` if the tournament is published and the game is one of its tables' (else
        404: an unpublished tournament's games are not public)."""
        state = self.api.service.state(tid)
        if not state.public:
            raise UnknownGame(f"tournament {tid} is not published: its organiser has not "
                              "opened the spectator link (devil tournament publish)")
        if game is not None and game not in state.attached:
            raise UnknownGame(f"{game} is not a game of tournament {tid}")
        if game is not None:
            from ..tournament.duplicate import check_public

            check_public(state, game)  # TOUR-11.7: a duplicate round's tables wait for its close
        return game or tid

    def _watch_data(self, tid: str, game: str) -> dict:
        from ..answers import events_answer

        self._public_game(tid, game)
        service = self.api.service
        with service.cache.lock(game):
            loaded = service.load(game)
            pairs = service.stream_of(loaded, PUBLIC, 0)
            events = events_answer(loaded, pairs, PUBLIC, loaded.desk)
            view = service.view_of(loaded, PUBLIC)
        round_, table = self.api.service.state(tid).attached[game]
        return {"tournament": tid, "game": game, "round": round_, "table": table,
                "view": view, "events": events, "version": loaded.version}

    async def watch(self, request: Request) -> Response:
        tid = await self.t.tournament(request)
        await self.api.call(tid, self._public_game, tid)
        view = await self.api.call(tid, self.api.service.view, tid)
        version = await self.api.call(tid, lambda: self.api.service.load(tid).version)
        return HTMLResponse(watch_page(tid, view, version),
                            headers=live_headers(watch_script(tid, version)))

    async def watch_game_data(self, request: Request) -> Response:
        tid = await self.t.tournament(request)
        game = request.path_params["game"]
        return JSONResponse(await self.api.call(tid, self._watch_data, tid, game))

    async def watch_game(self, request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        from ..replay import load_bytes
        from .pages import replay_data

        tid = await self.t.tournament(request)
        game = request.path_params["game"]
        data = await self.api.call(tid, self._watch_data, tid, game)
        raw = await self.api.call(game, self.api.store.log_bytes, game)
        log = await run_in_threadpool(load_bytes, raw, game)
        replay = await run_in_threadpool(replay_data, log, PUBLIC,
                                         getattr(self.api, "texts", None))
        return HTMLResponse(game_page(tid, data, replay),
                            headers=page_headers(game_scripts(tid, data), connect=True))


def watch_script(tid: str, version: int) -> str:
    """The watch page's live update (a ``<script>`` element)."""
    from ..tournament.printing import live_script

    return live_script(f"/tournaments/{tid}/changes", version)


def watch_page(tid: str, view: dict, version: int) -> str:
    """The public page of a published tournament: every round's tables, each game linked to
    its spectator page; live (it reloads when the stream grows)."""
    from ..tournament.printing import _head

    title = html.escape(f"{view['name']}: follow every table")
    out = _head(title) + [f"<h1>{title}</h1>",
                          f'<p><a href="/tournaments/{html.escape(tid)}/standings.html">'
                          "standings</a> &middot; "
                          f'<a href="/tournaments/{html.escape(tid)}/pairings.html">pairings</a>'
                          "</p>"]
    for round_view in reversed(view.get("paired", [])):
        out.append(f"<h2>Round {round_view['round']}</h2><ul>")
        for table in round_view["tables"]:
            game = table.get("game")
            players = html.escape(", ".join(table["players"]))
            link = (f'<a href="/tournaments/{html.escape(tid)}/watch/{html.escape(game)}">'
                    f"{html.escape(game)}</a>" if game else "no game attached")
            out.append(f"<li>table {table['table']}: {players} &middot; {link}</li>")
        out.append("</ul>")
    out.append(watch_script(tid, version))
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def game_scripts(tid: str, data: dict) -> list[str]:
    """The scripts of a table's spectator page: page.js and its live update (their texts, for
    the page's Content-Security-Policy)."""
    from urllib.parse import quote

    from ..tournament.printing import live_script
    from .pages import page_script

    changes = f"/tournaments/{quote(tid)}/changes?game={quote(data['game'])}&"
    live = live_script(changes, data["version"]).replace("'?after='", "'after='")
    return [page_script(), script_body(live)]


def game_page(tid: str, data: dict, replay: dict) -> str:
    """One table's game as its spectator sees it: the replay page (engine.web.pages) with the
    game's public replay inlined (``replay``: replay_data as PUBLIC, every step's sentence and
    the view after it; names set as text, never as HTML), a link back to every table, and the
    live update (it reloads when the game's stream grows past ``data["version"]``), allowed by
    the page's own policy (:func:`game_scripts`)."""
    from .pages import replay_html

    title = f"round {data['round']}, table {data['table']}: {data['game']}"
    live = game_scripts(tid, data)[1]
    page = replay_html(replay, title, scripts=(live,), connect=True)
    back = (f'<p class=watch><a href="/tournaments/{html.escape(tid)}/watch">every table</a>'
            f" &middot; {html.escape(title)} &middot; what a spectator sees: public facts only"
            "</p>")
    at = page.index("<body")
    at = page.index(">", at) + 1
    return page[:at] + back + page[at:]


def routes(tournaments) -> list[Route]:
    """The routes on ``tournaments`` (an engine.web.tournament.TournamentApi)."""
    p = PrintApi(tournaments)
    base = "/tournaments/{tournament}"
    return [Route(base + "/standings.html", p.standings_page, methods=["GET"]),
            Route(base + "/pairings", p.pairings_json, methods=["GET"]),
            Route(base + "/pairings.csv", p.pairings_csv, methods=["GET"]),
            Route(base + "/pairings.html", p.pairings_page, methods=["GET"]),
            Route(base + "/standings/after/{round}", p.standings_after, methods=["GET"]),
            Route(base + "/explain", p.explain, methods=["GET"]),
            Route(base + "/history", p.history, methods=["GET"]),
            Route(base + "/changes", p.changes, methods=["GET"]),
            Route(base + "/slips.html", p.slips, methods=["GET"]),
            Route(base + "/publish", p.publish, methods=["POST"]),
            Route(base + "/watch", p.watch, methods=["GET"]),
            Route(base + "/watch/{game}", p.watch_game, methods=["GET"]),
            Route(base + "/watch/{game}/data", p.watch_game_data, methods=["GET"])]


def openapi_paths(_op, _json, _T: dict) -> dict:
    """This module's paths for engine.web.openapi, made with its helpers ``_op`` and ``_json``
    and its tournament parameter ``_T`` (given, not imported: openapi imports this module)."""
    errors = {"400": {"$ref": "#/components/responses/BadRequest"},
              "404": {"$ref": "#/components/responses/NotFound"},
              # a round not paired or not closed (TOUR-12.2), a link already open (TOUR-12.1)
              "409": {"$ref": "#/components/responses/BadRequest"}}
    keyed = {**errors, "401": {"$ref": "#/components/responses/Unauthorized"},
             "403": {"$ref": "#/components/responses/Forbidden"}}
    organiser = "the organiser key only (a server without one refuses: 403)"
    html_ok = {"200": {"description": "HTML", "content": {"text/html": {"schema": {
        "type": "string"}}}}, **errors}
    rnd = {"name": "round", "in": "query", "required": False, "schema": {"type": "integer"},
           "description": "The round (default: the last paired)."}
    base = "/tournaments/{tournament}"
    game = {"name": "game", "in": "path", "required": True, "schema": {"type": "string"},
            "description": "A game attached to one of the tournament's tables."}
    return {
        base + "/pairings": {"get": _op("A round's pairings: tables, seats, start player, game, "
                                        "byes, history", "anyone",
                                        {"200": _json({"type": "object"}, "Pairings."), **errors},
                                        [_T, rnd], secured=False)},
        base + "/pairings.csv": {"get": _op("A round's pairings as CSV", "anyone", {
            "200": {"description": "CSV", "content": {"text/csv": {"schema": {
                "type": "string"}}}}, **errors}, [_T, rnd], secured=False)},
        base + "/pairings.html": {"get": _op("The printable pairings page (live)", "anyone",
                                             html_ok, [_T, rnd], secured=False)},
        base + "/standings/after/{round}": {"get": _op(
            "The standings as they stood when round {round} closed", "anyone",
            {"200": _json({"type": "object"}, "Standings."), **errors},
            [_T, {"name": "round", "in": "path", "required": True,
                  "schema": {"type": "integer"}}], secured=False)},
        base + "/explain": {"get": _op("Each tiebreak's inputs per player", "anyone",
                                       {"200": _json({"type": "object"}, "Explanation."),
                                        **errors},
                                       [_T, {"name": "after", "in": "query", "required": False,
                                             "schema": {"type": "integer"}}], secured=False)},
        base + "/history": {"get": _op("Late entries, drops, penalties and corrections, ...",
                                       "anyone", {"200": _json({"type": "object"}, "History."),
                                                  **errors}, [_T], secured=False)},
        base + "/changes": {"get": _op(
            "Long poll: the stream's version once past ?after (or after ?wait seconds)",
            "anyone (?game: a published tournament's game)",
            {"200": _json({"type": "object"}, "The version."), **errors}, [_T], secured=False)},
        base + "/slips.html": {"get": _op("One printable slip per table, to sign", organiser,
                                          {**html_ok, **keyed}, [_T, rnd])},
        base + "/publish": {"post": _op("Open or close the public spectator link: {public}",
                                        organiser, {"200": _json({"type": "object"},
                                                                 "Recorded."), **keyed,
                                                    "413": {"$ref": "#/components/responses/"
                                                                    "BadRequest"}}, [_T],
                                        body={"required": True, "content": {
                                            "application/json": {"schema": {
                                                "type": "object"}}}})},
        base + "/watch": {"get": _op("A published tournament's tables, each game linked",
                                     "anyone", html_ok, [_T], secured=False)},
        base + "/watch/{game}": {"get": _op("A table's game as its spectator sees it (HTML)",
                                            "anyone", html_ok, [_T, game], secured=False)},
        base + "/watch/{game}/data": {"get": _op(
            "A table's game as its spectator sees it: {view, events}", "anyone",
            {"200": _json({"type": "object"}, "The public view."), **errors}, [_T, game],
            secured=False)},
    }
