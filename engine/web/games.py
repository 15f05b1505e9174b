"""The game endpoints of the HTTP service (issue 5; docs/service.md), on the shared
:class:`engine.web.app.Api`: create and list games, a game's summary, views, legal commands,
events (long poll) and event stream (server-sent events), commands, the raw log and the seal;
and the service's own: its public key, ``/openapi.json`` and ``/health``.

Who may do what (tokens: :mod:`engine.web.auth`):

* creating a game: anyone, or only the organiser key holder when the server has one;
* a seat's token: act as that seat, read that seat's view, legal commands and stream;
* the referee's token: everything, including any seat's view, chance reports in a physical
  game and the raw log (``GET /games/{id}/log``);
* a named referee token (``POST /games/{id}/referees``, issued by the referee's token or the
  organiser key): the referee, whose physical draws record its name as their reporter;
* the spectator's token: the public view and stream only;
* the organiser key: the referee of every game (also games created by the local CLI).

Every body holds the game's lock; work in memory runs on the event loop when the store's reads
are local (``Api.now``), a command's append goes to the store's group-commit writer
(``Api.steps``), writes that are not appends run in the thread pool (``Api.call``).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from ..errors import DevilError, NotAllowed
from ..game import PUBLIC, REFEREE, STREAMS
from ..service import MAX_COMMAND_ID, actor_code
from ..service.steps import Call
from .auth import Role, keys_equal
from .errors import ApiError
from .openapi import build as build_openapi
from .jsonout import JSONResponse, dumps

#: longest long-poll wait (seconds)
MAX_WAIT = 60.0
#: longest a server-sent event stream stays open before the client must reconnect (seconds)
MAX_STREAM = 3600.0
#: the OpenAPI document served at /openapi.json (engine/web/openapi.py)
OPENAPI = build_openapi(MAX_WAIT, MAX_STREAM)
_IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,%d}$" % MAX_COMMAND_ID)


class GameApi:
    """The game endpoints, on ``api`` (an :class:`engine.web.app.Api`: its service, token book,
    hub and request helpers)."""

    def __init__(self, api):
        self.api = api

    # -- synchronous bodies (thread pool, under the game's lock) ----------------------------
    def _summary(self, game: str, role: Role) -> dict:
        """GET /games/{id}: who plays, the version, whether it is over, and who ``role`` is."""
        loaded = self.api.service.load(game)
        names = loaded.rules.seats(loaded.state)
        you: dict[str, Any] = {"role": role.kind}
        if role.kind == "seat":
            you.update(seat=role.seat, name=names[role.seat])
        elif role.name is not None:  # a named referee token: who its draws are reported by
            you["name"] = role.name
        return {"game": game, "kind": loaded.header.kind, "players": names,
                "version": loaded.version, "over": bool(loaded.rules.is_over(loaded.state)),
                "you": you}

    def _row(self, game: str, viewer) -> dict:
        """A row of GET /games (engine.answers.summary_row) from what ``viewer`` knows."""
        from ..answers import summary_row

        try:
            loaded = self.api.service.load(game)
            state = self.api.service.state(game, viewer)
        except DevilError as exc:
            return {"game": game, "error": exc.message}
        return summary_row(game, loaded.header.kind, loaded.header.created, loaded.rules,
                           state, loaded.version, loaded.desk)

    def _events(self, game: str, viewer, after: int) -> tuple[list[dict], int, bool, Any]:
        """``(entries, version, over, head)`` from one read: the entries of ``viewer``'s stream
        after ``after`` (engine.answers), the version they run to, and the log's head as that
        read found it (a watcher waits for the head to move from there: nothing appended
        after this read is skipped)."""
        from ..answers import events_answer

        service = self.api.service
        with service.cache.lock(game):
            loaded = service.load(game)
            pairs = service.stream_of(loaded, viewer, after)
            return (events_answer(loaded, pairs, viewer, loaded.desk), loaded.version,
                    bool(loaded.rules.is_over(loaded.state)), loaded.head)

    def _submit(self, game: str, body: dict, role: Role, as_name: str | None, key: str,
                with_legal: bool = False):
        """Decide and append ``body`` as ``role`` (``as_name``: the seat a referee acts for) with
        command id ``key``; a retry with a used id answers the first result, another caller's id is
        refused (409).  Steps (engine.service.steps) returning the answer."""
        from ..answers import submit_answer

        if role.kind == "spectator":
            raise NotAllowed("a spectator cannot give commands")
        names = self.api.service.players(game)
        viewer = self.api.viewer_for(role, names, as_name)
        command = dict(body)
        if viewer is not REFEREE and not role.is_referee:
            command.setdefault("player", names[viewer])
        elif as_name is not None:
            command.setdefault("player", names[viewer])  # ?as= in any case: the seat's name
        if isinstance(command.get("player"), str):  # spelled as the game does, as the CLI does
            from ..seats import player_named

            command["player"] = player_named(names, command["player"])
        if role.name is not None:  # a named referee token: its name reports a draw (23.4)
            from ..game import takes_reporter
            from .auth import reporter_for

            # whether a game is physical never changes: the held fold answers, no store read
            loaded = self.api.service.cache.held(game) or self.api.service.load(game)
            tag = command.get("type")
            kind_class = loaded.rules.commands.by_type.get(tag) if isinstance(tag, str) else None
            command = reporter_for(role, command, takes_reporter(kind_class),
                                   bool(loaded.rules.physical(loaded.state)))
        actor = REFEREE if role.is_referee else role.seat
        result = yield from self.api.service.submit_steps(game, command, actor=actor,
                                                          command_id=key)
        if result.repeated and result.records and result.records[0].actor != actor_code(actor):
            raise ApiError(409, f"the command id {key!r} was already used by another caller in "
                                f"{game}; give every command a fresh Idempotency-Key", 2)
        answer = submit_answer(self.api.service, result, viewer, with_legal=with_legal)
        if command.get("type") in ("correct", "ruling", "amend") and not result.repeated:
            from ..tournament.adjudicate import attached_warnings
            from ..tournament.organiser import Organiser

            # a game attached to a tournament: its result is in use there (TOUR-9); it reads
            # every tournament's stream, so it is a step of its own (not on the event loop)
            warnings = yield Call(lambda: attached_warnings(Organiser(self.api.service), game))
            if warnings:
                answer["warnings"] = warnings
        return answer

    def _legal_maps(self, game: str, viewer) -> list[dict]:
        """The commands ``viewer`` (a seat) may give now, as maps."""
        from ..answers import legal_answer

        return legal_answer(self.api.service, self.api.service.load(game), viewer)

    def _view(self, game: str, viewer, with_legal: bool = False) -> dict:
        """What ``viewer`` sees (with its legal commands if asked), from one read of the
        store."""
        from ..answers import legal_answer

        service = self.api.service
        loaded = service.load(game)
        view = service.view_of(loaded, viewer)
        if with_legal:
            view["legal"] = legal_answer(service, loaded, viewer)
        return view

    def _log_bytes(self, game: str) -> bytes:
        """The game's .devlog bytes."""
        return self.api.store.log_bytes(game)

    # -- endpoints --------------------------------------------------------------------------
    async def create_game(self, request: Request) -> Response:
        """POST /games: a new game (201 with its players, every token and the first receipt)."""
        if self.api.organiser_key:
            token = self.api.bearer(request)
            if token is None:
                raise ApiError(401, "creating a game on this server needs the organiser key "
                                    "(Authorization: Bearer <key>)", 4,
                               headers={"WWW-Authenticate": "Bearer"})
            if not keys_equal(token, self.api.organiser_key):
                raise ApiError(403, "only the organiser may create games on this server "
                                    "(the key given is not the organiser key)", 4)
        body = await self.api.read_json(request)
        unknown = set(body) - {"kind", "options", "seed", "seat_entropy", "clock"}
        if unknown:
            raise ApiError(400, f"unknown field(s) {', '.join(sorted(unknown))}: a new game is "
                                '{"kind": ..., "options": {...}, "seed": n?, '
                                '"seat_entropy": bool?, "clock": {...}?}')
        from ..clock import from_map

        clock = from_map(body.get("clock"))  # CLOCK-1: {"clock", "move_time", "on_timeout"}
        kind = body.get("kind")
        options = body.get("options", {})
        seed = body.get("seed")
        seat_entropy = body.get("seat_entropy", self.api.seat_entropy and seed is None
                                and not (isinstance(options, dict)
                                         and options.get("physical") is True))
        if not isinstance(seat_entropy, bool):
            raise ApiError(400, '"seat_entropy" must be true or false')
        if not isinstance(kind, str):
            from ..games import KINDS

            raise ApiError(400, 'a new game needs "kind": one of '
                                + ", ".join(f'"{kind}"' for kind in KINDS))
        if not isinstance(options, dict):
            raise ApiError(400, '"options" must be a JSON object')
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
            raise ApiError(400, '"seed" must be a whole number of at least 0')
        issued: dict[str, str] = {}

        def mint(game: str, names: list[str]) -> dict[str, dict]:
            plain, document = self.api.book.mint(game, names)
            issued.update(plain)
            return {"tokens": document}

        # the game exists only with its log, its secret and its tokens all in place
        loaded = await run_in_threadpool(self.api.service.create, kind, options, seed=seed,
                                         private=mint, seat_entropy=seat_entropy,
                                         clock=clock)
        names = loaded.rules.seats(loaded.state)
        tokens = {"referee": issued.pop("referee"), "spectator": issued.pop("spectator")}
        for seat, name in enumerate(names):
            label = name if name not in tokens else f"{name} (seat {seat + 1})"
            tokens[label] = issued[name]
        receipt = await run_in_threadpool(self.api.service.receipt, loaded.game, loaded.records[-1])
        return JSONResponse({"game": loaded.game, "kind": kind, "players": names,
                             "tokens": tokens, "receipt": receipt}, status_code=201)

    async def list_games(self, request: Request) -> Response:
        """GET /games: every game for the organiser key, the token's own game otherwise."""
        role = self.api.authenticate(request)
        if role.kind == "organiser":
            rows = []
            for game in await run_in_threadpool(self.api.store.games):
                rows.append(await self.api.call(game, self._row, game, REFEREE))  # cold loads
            return JSONResponse(rows)
        if not await self.api.exists(role.game):
            return JSONResponse([])
        names = await self.api.players(role.game)
        viewer = self.api.viewer_for(role, names, None)
        return JSONResponse([await self.api.now(role.game, self._row, role.game, viewer)])

    async def get_game(self, request: Request) -> Response:
        """GET /games/{id}: the game's summary."""
        role = self.api.authenticate(request)
        game = await self.api.game_for(request, role)
        return JSONResponse(await self.api.now(game, self._summary, game, role))

    async def get_view(self, request: Request) -> Response:
        """GET /games/{id}/view[?as=NAME&legal=true]: what the token's viewer sees."""
        role = self.api.authenticate(request)
        game = await self.api.game_for(request, role)
        names = await self.api.players(game)
        viewer = self.api.viewer_for(role, names, request.query_params.get("as"))
        with_legal = self.api.query_flag(request, "legal")
        return JSONResponse(await self.api.now(game, self._view, game, viewer, with_legal))

    async def get_legal(self, request: Request) -> Response:
        """GET /games/{id}/legal?as=NAME: a seat's legal commands."""
        role = self.api.authenticate(request)
        game = await self.api.game_for(request, role)
        names = await self.api.players(game)
        viewer = self.api.viewer_for(role, names, request.query_params.get("as"))
        if viewer is REFEREE or viewer == PUBLIC:
            raise ApiError(400, "legal commands belong to a seat: give ?as=NAME", 2)

        return JSONResponse(await self.api.now(game, self._legal_maps, game, viewer))

    async def get_events(self, request: Request) -> Response:
        """GET /games/{id}/events?after=N&wait=S: the viewer's stream after N, waiting up to S
        seconds (at most MAX_WAIT) for the first new entry."""
        role = self.api.authenticate(request)
        game = await self.api.game_for(request, role)
        names = await self.api.players(game)
        viewer = self.api.viewer_for(role, names, request.query_params.get("as"))
        after = self.api.query_int(request, "after", 0)
        wait = self.api.query_float(request, "wait", 0.0, MAX_WAIT)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        woken = None  # the event that ended the last wait (none before the first read)
        while True:
            changed = self.api.hub.changed(game)  # before the read: an append after it sets it
            if woken is not None:
                look = self.api.woken(game, woken, after, self._events, game, viewer, after)
            elif wait > 0:  # the first look of a poll that waits for news
                look = self.api.waiting(game, after, self._events, game, viewer, after)
            else:
                look = self.api.now(game, self._events, game, viewer, after)
            out, version, over, head = await look
            if out or over or loop.time() >= deadline:
                return JSONResponse({"game": game, "events": out,
                                     "version": max(version, after), "over": over})
            after = max(after, version)
            await self.api.wait_change(game, head, changed, deadline)
            woken = changed

    async def get_stream(self, request: Request) -> Response:
        """GET /games/{id}/stream: the viewer's stream as server-sent events (from ``after`` or
        Last-Event-ID; closed after ``timeout`` seconds, at most MAX_STREAM, or when the game is
        over)."""
        role = self.api.authenticate(request)
        game = await self.api.game_for(request, role)
        names = await self.api.players(game)
        viewer = self.api.viewer_for(role, names, request.query_params.get("as"))
        after = self.api.query_int(request, "after", 0)
        last_id = request.headers.get("last-event-id")
        if last_id:
            try:
                after = max(0, int(last_id))
            except ValueError:
                raise ApiError(400, f"Last-Event-ID must be a sequence number, not {last_id!r}"
                               ) from None
        limit = self.api.query_float(request, "timeout", 300.0, MAX_STREAM)
        loop = asyncio.get_running_loop()

        async def frames():
            nonlocal after
            deadline = loop.time() + limit
            yield "retry: 1000\n: devil event stream\n\n"
            woken = None  # the event that ended the last wait (none before the first read)
            while loop.time() < deadline:
                changed = self.api.hub.changed(game)  # before the read
                out, version, over, head = await (
                    self.api.now(game, self._events, game, viewer, after) if woken is None
                    else self.api.woken(game, woken, after, self._events, game, viewer,
                                        after))
                if out:  # one chunk for every entry of this read
                    yield "".join(f"id: {entry['seq']}\nevent: event\ndata: {dumps(entry)}"
                                  "\n\n" for entry in out)
                after = max(after, version)
                if over:
                    yield f"event: over\ndata: {dumps({'version': after})}\n\n"
                    return
                # wait for a change since this read (an append here after it has set
                # ``changed``; one by another process moves the head): no entry skipped
                await self.api.wait_change(game, head, changed, min(deadline, loop.time() + 15))
                woken = changed
                if (not changed.is_set()
                        and await self.api.head_now(game) == head):
                    yield ": keep-alive\n\n"

        return StreamingResponse(frames(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    async def post_command(self, request: Request) -> Response:
        """POST /games/{id}/commands: one command, with an Idempotency-Key (201; 200 for a
        retry)."""
        role = self.api.authenticate(request)
        game = await self.api.game_for(request, role)
        if game.partition("-")[0] in STREAMS:  # results only through the checks of /tournaments
            raise ApiError(400, f"{game} is not a game: send its commands to "
                                f"/tournaments/{game}/commands")
        key = request.headers.get("idempotency-key")
        if key is None:
            raise ApiError(400, "every command needs a command id: send an Idempotency-Key "
                                "header (a fresh random string; resend it to retry safely)")
        if not _IDEMPOTENCY_KEY.match(key):
            raise ApiError(400, f"the Idempotency-Key must be 1 to {MAX_COMMAND_ID} printable "
                                "characters without spaces")
        body = await self.api.read_json(request)
        as_name = request.query_params.get("as")
        result = await self.api.steps(game, self._submit, game, body, role, as_name, key,
                                      self.api.query_flag(request, "legal"))
        if not result["repeated"]:
            # the watchers are woken once this answer is written: scheduled now, before the
            # answer's write (engine.web.corked), their wake-ups come after it, so the seat
            # that moved is not kept waiting while every stream of the game is served
            asyncio.get_running_loop().call_soon(self.api.hub.notify, game,
                                                 result["view"]["version"])
        return JSONResponse(result, status_code=200 if result["repeated"] else 201)

    def _add_referee(self, game: str, name: str) -> dict:
        """A named referee token for ``game`` (a physical game's only; UsageError otherwise)."""
        from ..errors import UsageError

        loaded = self.api.service.load(game)
        if not loaded.rules.physical(loaded.state):
            raise UsageError(f"{game} is a digital game: nobody reports its draws, so a named "
                             "referee token has nothing to name (only a physical game's)")
        token = self.api.book.add_referee(game, name)
        return {"game": game, "name": name, "role": "referee", "token": token}

    async def post_referee(self, request: Request) -> Response:
        """POST /games/{id}/referees ``{"name": "Rita"}``: a further referee token of a
        physical game, bound to the name that reports every draw it submits (issue 23.4).
        The game's referee token or the organiser key only (a named referee's own token
        may not issue others: 403).  201 ``{game, name, role, token}``; the token is shown
        this once, its hash kept in the game's token book (engine.web.auth)."""
        role = self.api.authenticate(request)
        game = await self.api.game_for(request, role)
        if not role.is_referee or role.name is not None:
            raise NotAllowed("only the game's referee token or the organiser key may issue a "
                             "named referee token" + (" (this one is a named referee's)"
                                                      if role.name is not None else ""))
        body = await self.api.read_json(request)
        unknown = set(body) - {"name"}
        if unknown:
            raise ApiError(400, f"unknown field(s) {', '.join(sorted(unknown))}: a named "
                                'referee is {"name": "Rita"}')
        from .auth import referee_name

        try:
            name = referee_name(body.get("name"))
        except ValueError as exc:
            raise ApiError(400, str(exc)) from None
        answer = await self.api.call(game, self._add_referee, game, name)
        return JSONResponse(answer, status_code=201)

    async def get_log(self, request: Request) -> Response:
        """GET /games/{id}/log: the raw .devlog (the referee's only)."""
        role = self.api.authenticate(request)
        game = await self.api.game_for(request, role)
        if not role.is_referee:
            raise NotAllowed("only the referee may export the full log "
                             "(players read their own stream: GET /games/{id}/events)")
        data = await self.api.call(game, self._log_bytes, game)
        return Response(data, media_type="application/vnd.devil.log",
                        headers={"Content-Disposition": f'attachment; filename="{game}.devlog"'})

    async def get_key(self, request: Request) -> Response:
        """The service's public signing key (anyone: it checks receipts and seals)."""
        from ..receipts import public_key

        return JSONResponse({"algorithm": "ed25519",
                             "public": await run_in_threadpool(public_key, self.api.store)})

    async def get_key_history(self, request: Request) -> Response:
        """The key now and its rotations, ``{"public", "history"}`` (anyone; engine.keys)."""
        from ..keys.history import history
        from ..receipts import public_key

        def both(store) -> dict:
            return {"public": public_key(store), "history": history(store)}
        return JSONResponse(await run_in_threadpool(both, self.api.store))

    async def get_seal(self, request: Request) -> Response:
        """A finished game's seal (any token of the game); 404 while it runs."""
        role = self.api.authenticate(request)
        game = await self.api.game_for(request, role)
        seal = await self.api.steps(game, self.api.service.seal_steps, game)
        if seal is None:
            raise ApiError(404, f"{game} is not finished: a game is sealed when it ends", 2)
        return JSONResponse(seal)

    async def openapi(self, request: Request) -> Response:
        """GET /openapi.json: the service's OpenAPI document."""
        return JSONResponse(OPENAPI)

    async def health(self, request: Request) -> Response:
        """GET /health: ``{"ok": true}``."""
        return JSONResponse({"ok": True})


def routes(api) -> list[Route]:
    """The game routes (and ``/key``, ``/openapi.json``, ``/health``) on ``api``."""
    g = GameApi(api)
    return [
        Route("/games", g.create_game, methods=["POST"]),
        Route("/games", g.list_games, methods=["GET"]),
        Route("/games/{game}", g.get_game, methods=["GET"]),
        Route("/games/{game}/view", g.get_view, methods=["GET"]),
        Route("/games/{game}/legal", g.get_legal, methods=["GET"]),
        Route("/games/{game}/events", g.get_events, methods=["GET"]),
        Route("/games/{game}/stream", g.get_stream, methods=["GET"]),
        Route("/games/{game}/commands", g.post_command, methods=["POST"]),
        Route("/games/{game}/referees", g.post_referee, methods=["POST"]),
        Route("/games/{game}/log", g.get_log, methods=["GET"]),
        Route("/games/{game}/seal", g.get_seal, methods=["GET"]),
        Route("/key", g.get_key, methods=["GET"]),
        Route("/key/history", g.get_key_history, methods=["GET"]),
        Route("/openapi.json", g.openapi, methods=["GET"]),
        Route("/health", g.health, methods=["GET"]),
    ]


def hot_routes(api) -> dict:
    """``{(method, last path part): endpoint}`` of the routes ``/games/{game}/...`` that
    engine.web.hot answers past Starlette's layers: a move's command and its watchers' reads."""
    g = GameApi(api)
    return {("POST", "commands"): g.post_command, ("GET", "view"): g.get_view,
            ("GET", "events"): g.get_events, ("GET", "stream"): g.get_stream}
