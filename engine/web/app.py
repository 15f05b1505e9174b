"""The HTTP service around :class:`engine.service.GameService` (issue 5; docs/service.md).

``create_app(store, organiser_key=None)`` returns a Starlette (ASGI) app; ``devil serve``
runs it with uvicorn.  Every game of every kind in the store is served, through one
:class:`engine.service.GameService` (which keeps every game's folds; the app keeps no state of
its own but tokens' hashes).  The local CLI may use the same store at the same time: appends are
optimistic with an expected version, and watchers notice appends by other processes by polling
the game's head (last sequence number and link) in the store.

Who may do what (tokens: :mod:`engine.web.auth`):

* creating a game: anyone, or only the organiser key holder when the server has one;
* a seat's token: act as that seat, read that seat's view, legal commands and stream;
* the referee's token: everything, including any seat's view, chance reports in a physical
  game and the raw log (``GET /games/{id}/log``);
* the spectator's token: the public view and stream only;
* the organiser key: the referee of every game (also games created by the local CLI).

Blocking work (fsync, flock, folds) runs in a thread pool; every access to one game is
serialized by an ``asyncio.Lock`` per game, so concurrent commands are neither lost nor applied
twice.  Errors are JSON: ``{"error": message, "rule": rule-or-null, "code": CLI exit code}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..errors import DevilError, NotAllowed, UnknownGame, UsageError
from ..game import PUBLIC, REFEREE, STREAMS
from ..jsonsafe import loads as json_loads
from ..service import MAX_COMMAND_ID, GameService, actor_code
from ..store import EventStore, open_store
from ..store.protocol import resolve_id
from .auth import Role, TokenBook, keys_equal
from .errors import HANDLERS, ApiError
from .openapi import build as build_openapi

#: default request body limit (bytes)
MAX_BODY = 64 * 1024
#: longest long-poll wait (seconds)
MAX_WAIT = 60.0
#: longest a server-sent event stream stays open before the client must reconnect (seconds)
MAX_STREAM = 3600.0
#: how often a waiting reader checks the log for appends by other processes (seconds)
POLL_INTERVAL = 0.25
#: the OpenAPI document served at /openapi.json (engine/web/openapi.py)
OPENAPI = build_openapi(MAX_WAIT, MAX_STREAM)
_IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,%d}$" % MAX_COMMAND_ID)
#: the longest a request body may take to arrive once its headers are in (seconds)
BODY_TIMEOUT = 10.0



class Hub:
    """Per-game locks and change notifications (within this process)."""

    def __init__(self):
        self._locks: dict[str, asyncio.Lock] = {}
        self._changed: dict[str, asyncio.Event] = {}

    def lock(self, game: str) -> asyncio.Lock:
        lock = self._locks.get(game)
        if lock is None:
            lock = self._locks[game] = asyncio.Lock()
        return lock

    def changed(self, game: str) -> asyncio.Event:
        """An event set at the next append to ``game`` by this process."""
        event = self._changed.get(game)
        if event is None:
            event = self._changed[game] = asyncio.Event()
        return event

    def notify(self, game: str | None) -> None:
        """Wake the waiters of ``game`` (of every game for None)."""
        if game is None:
            events, self._changed = list(self._changed.values()), {}
        else:
            event = self._changed.pop(game, None)
            events = [] if event is None else [event]
        for event in events:
            event.set()


class Api:
    """The endpoints, sharing one service, token book and hub."""

    def __init__(self, store: "str | EventStore", organiser_key: str | None = None,
                 max_body: int = MAX_BODY, poll_interval: float = POLL_INTERVAL):
        self.store = open_store(store) if isinstance(store, str) else store
        self.service = GameService(self.store)
        self.book = TokenBook(self.store)
        self.organiser_key = organiser_key or None
        self.max_body = max_body
        self.poll_interval = poll_interval
        self.body_timeout = BODY_TIMEOUT
        self.hub = Hub()
        #: the default of POST /games's "seat_entropy" for a digital game without a chosen
        #: seed (`devil serve --seat-entropy`)
        self.seat_entropy = False

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """For the server's ``loop``: if the store tells of appends by other nodes (PostgreSQL's
        LISTEN/NOTIFY: ``store.subscribe``), wake this node's watchers at once instead of at
        their next poll of the head."""
        subscribe = getattr(self.store, "subscribe", None)
        if subscribe is None:
            return

        def appended(game: str | None) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closing
                loop.call_soon_threadsafe(self.hub.notify, game)

        subscribe(appended)

    # -- helpers --------------------------------------------------------------------------
    async def call(self, game: str, fn, *args, **kwargs):
        """``fn(*args)`` in the thread pool, holding ``game``'s lock."""
        async with self.hub.lock(game):
            return await run_in_threadpool(fn, *args, **kwargs)

    @staticmethod
    def bearer(request: Request) -> str | None:
        header = request.headers.get("authorization")
        if not header:
            return None
        scheme, _, value = header.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise ApiError(401, "the Authorization header must read 'Bearer <token>'", 4,
                           headers={"WWW-Authenticate": "Bearer"})
        return value.strip()

    def authenticate(self, request: Request) -> Role:
        token = self.bearer(request)
        if token is None:
            raise ApiError(401, "this needs a token: send 'Authorization: Bearer <token>' "
                                "(devil --token, env DEVIL_TOKEN)", 4,
                           headers={"WWW-Authenticate": "Bearer"})
        if self.organiser_key and keys_equal(token, self.organiser_key):
            return Role("organiser")
        role = self.book.role(token)
        if role is None:
            raise ApiError(401, "the token is not valid (wrong or unknown token)", 4,
                           headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
        return role

    async def game_for(self, request: Request, role: Role) -> str:
        """The game the path names, if ``role`` may reach it (404 / 403 otherwise)."""
        text = request.path_params["game"]
        if role.kind == "organiser":
            return await run_in_threadpool(self.service.resolve, text)
        game = role.game
        try:  # named as anywhere else: the id, or 3+ characters of its start, end or suffix
            resolve_id(text, [game], "this server")
        except (UnknownGame, UsageError):
            # the same answer whether or not that game exists: a token tells nothing of others
            raise NotAllowed(f"this token belongs to game {game}, not {text}") from None
        if not self.store.exists(game):
            raise UnknownGame(f"no game {game!r} on this server")
        return game

    def viewer_for(self, role: Role, names: list[str], as_name: str | None):
        """The viewer a request reads as: REFEREE, a seat index or PUBLIC."""
        if role.is_referee:
            if as_name is None:
                return REFEREE
            from ..answers import seat_named

            return seat_named(names, as_name)
        if role.kind == "spectator":
            if as_name is not None:
                raise NotAllowed(f"a spectator sees only public information, not {as_name}'s view")
            return PUBLIC
        own = names[role.seat]
        if as_name is not None and as_name != own:
            raise NotAllowed(f"your token is {own}'s: you cannot act or read as {as_name}")
        return role.seat

    def names(self, game: str) -> list[str]:
        loaded = self.service.load(game)
        return loaded.rules.seats(loaded.state)

    async def read_json(self, request: Request) -> dict:
        length = request.headers.get("content-length")
        if length is not None:
            try:
                too_big = int(length) > self.max_body
            except ValueError:
                raise ApiError(400, "the Content-Length header is not a number") from None
            if too_big:
                raise ApiError(413, f"the request body is larger than {self.max_body} bytes")
        body = bytearray()

        async def receive() -> None:
            async for chunk in request.stream():
                body.extend(chunk)
                if len(body) > self.max_body:
                    raise ApiError(413, f"the request body is larger than {self.max_body} bytes")

        try:
            await asyncio.wait_for(receive(), timeout=self.body_timeout)
        except asyncio.TimeoutError:
            raise ApiError(408, f"the request body did not arrive within {self.body_timeout:g} s "
                                "(is it shorter than its Content-Length?)") from None
        if not body.strip():
            raise ApiError(400, "the request body is empty: send a JSON object")
        try:  # the same rules as every JSON devil reads (engine.jsonsafe)
            data = json_loads(bytes(body), "the request body")
        except UsageError as exc:
            raise ApiError(400, exc.message) from None
        if not isinstance(data, dict):
            raise ApiError(400, "the request body must be a JSON object")
        return data

    @staticmethod
    def query_int(request: Request, name: str, default: int, low: int = 0) -> int:
        value = request.query_params.get(name)
        if value is None or value == "":
            return default
        try:
            number = int(value)
        except ValueError:
            raise ApiError(400, f"query parameter {name} must be a whole number, not {value!r}"
                           ) from None
        if number < low:
            raise ApiError(400, f"query parameter {name} must be at least {low}")
        return number

    @staticmethod
    def query_flag(request: Request, name: str) -> bool:
        value = request.query_params.get(name, "").lower()
        if value in ("", "0", "false", "no"):
            return False
        if value in ("1", "true", "yes"):
            return True
        raise ApiError(400, f"query parameter {name} must be true or false, not {value!r}")

    @staticmethod
    def query_float(request: Request, name: str, default: float, high: float) -> float:
        value = request.query_params.get(name)
        if value is None or value == "":
            return default
        try:
            number = float(value)
        except ValueError:
            raise ApiError(400, f"query parameter {name} must be a number, not {value!r}") from None
        if not number >= 0:
            raise ApiError(400, f"query parameter {name} must not be negative")
        return min(number, high)

    def head(self, game: str):
        """The game's head in the store (None if it cannot be read)."""
        try:
            return self.store.head(game)
        except DevilError:
            return None

    async def wait_change(self, game: str, head, changed: asyncio.Event,
                          deadline: float) -> None:
        """Return once ``game`` changed (an append here, or its head in the store moved: an
        append by another process) or at ``deadline``."""
        loop = asyncio.get_running_loop()
        while True:
            left = deadline - loop.time()
            if left <= 0 or changed.is_set():
                return
            try:
                await asyncio.wait_for(changed.wait(), timeout=min(left, self.poll_interval))
                return
            except asyncio.TimeoutError:
                pass
            if await run_in_threadpool(self.head, game) != head:
                return

    # -- synchronous bodies (thread pool, under the game's lock) ----------------------------
    def _summary(self, game: str, role: Role) -> dict:
        loaded = self.service.load(game)
        names = loaded.rules.seats(loaded.state)
        you: dict[str, Any] = {"role": role.kind}
        if role.kind == "seat":
            you.update(seat=role.seat, name=names[role.seat])
        return {"game": game, "kind": loaded.header.kind, "players": names,
                "version": loaded.version, "over": bool(loaded.rules.is_over(loaded.state)),
                "you": you}

    def _row(self, game: str, viewer) -> dict:
        """A row of GET /games (engine.answers.summary_row) from what ``viewer`` knows."""
        from ..answers import summary_row

        try:
            loaded = self.service.load(game)
            state = self.service.state(game, viewer)
        except DevilError as exc:
            return {"game": game, "error": exc.message}
        return summary_row(game, loaded.header.kind, loaded.header.created, loaded.rules,
                           state, loaded.version)

    def _events(self, game: str, viewer, after: int) -> tuple[list[dict], int, bool]:
        """``(entries, version, over)`` from one read: the entries of ``viewer``'s stream after
        ``after`` (engine.answers) and the version they run to."""
        from ..answers import events_answer

        service = self.service
        with service.cache.lock(game):
            loaded = service.load(game)
            pairs = service.stream_of(loaded, viewer, after)
            return (events_answer(loaded, pairs, viewer, loaded.desk), loaded.version,
                    bool(loaded.rules.is_over(loaded.state)))

    def _submit(self, game: str, body: dict, role: Role, as_name: str | None, key: str,
                with_legal: bool = False) -> dict:
        from ..answers import submit_answer

        if role.kind == "spectator":
            raise NotAllowed("a spectator cannot give commands")
        loaded = self.service.load(game)
        names = loaded.rules.seats(loaded.state)
        viewer = self.viewer_for(role, names, as_name)
        command = dict(body)
        if viewer is not REFEREE and not role.is_referee:
            command.setdefault("player", names[viewer])
        elif as_name is not None:
            command.setdefault("player", as_name)
        actor = REFEREE if role.is_referee else role.seat
        result = self.service.submit(game, command, actor=actor, command_id=key)
        if result.repeated and result.records and result.records[0].actor != actor_code(actor):
            raise ApiError(409, f"the command id {key!r} was already used by another caller in "
                                f"{game}; give every command a fresh Idempotency-Key", 2)
        return submit_answer(self.service, result, viewer, with_legal=with_legal)

    def _legal_maps(self, game: str, viewer) -> list[dict]:
        from ..answers import legal_answer

        return legal_answer(self.service, self.service.load(game), viewer)

    def _view(self, game: str, viewer, with_legal: bool = False) -> dict:
        view = self.service.view(game, viewer)
        if with_legal:
            view["legal"] = self._legal_maps(game, viewer)
        return view

    def _log_bytes(self, game: str) -> bytes:
        return self.store.log_bytes(game)

    # -- endpoints --------------------------------------------------------------------------
    async def create_game(self, request: Request) -> Response:
        if self.organiser_key:
            token = self.bearer(request)
            if token is None:
                raise ApiError(401, "creating a game on this server needs the organiser key "
                                    "(Authorization: Bearer <key>)", 4,
                               headers={"WWW-Authenticate": "Bearer"})
            if not keys_equal(token, self.organiser_key):
                raise ApiError(403, "only the organiser may create games on this server "
                                    "(the key given is not the organiser key)", 4)
        body = await self.read_json(request)
        unknown = set(body) - {"kind", "options", "seed", "seat_entropy"}
        if unknown:
            raise ApiError(400, f"unknown field(s) {', '.join(sorted(unknown))}: a new game is "
                                '{"kind": ..., "options": {...}, "seed": n?, '
                                '"seat_entropy": bool?}')
        kind = body.get("kind")
        options = body.get("options", {})
        seed = body.get("seed")
        seat_entropy = body.get("seat_entropy", self.seat_entropy and seed is None
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

        def tokens(game: str, names: list[str]) -> dict[str, dict]:
            plain, document = self.book.mint(game, names)
            issued.update(plain)
            return {"tokens": document}

        # the game exists only with its log, its secret and its tokens all in place
        loaded = await run_in_threadpool(self.service.create, kind, options, seed=seed,
                                         private=tokens, seat_entropy=seat_entropy)
        names = loaded.rules.seats(loaded.state)
        tokens = {"referee": issued.pop("referee"), "spectator": issued.pop("spectator")}
        for seat, name in enumerate(names):
            label = name if name not in tokens else f"{name} (seat {seat + 1})"
            tokens[label] = issued[name]
        receipt = await run_in_threadpool(self.service.receipt, loaded.game, loaded.records[-1])
        return JSONResponse({"game": loaded.game, "kind": kind, "players": names,
                             "tokens": tokens, "receipt": receipt}, status_code=201)

    async def list_games(self, request: Request) -> Response:
        role = self.authenticate(request)
        if role.kind == "organiser":
            rows = []
            for game in await run_in_threadpool(self.store.games):
                rows.append(await self.call(game, self._row, game, REFEREE))
            return JSONResponse(rows)
        if not self.store.exists(role.game):
            return JSONResponse([])
        names = await self.call(role.game, self.names, role.game)
        viewer = self.viewer_for(role, names, None)
        return JSONResponse([await self.call(role.game, self._row, role.game, viewer)])

    async def get_game(self, request: Request) -> Response:
        role = self.authenticate(request)
        game = await self.game_for(request, role)
        return JSONResponse(await self.call(game, self._summary, game, role))

    async def get_view(self, request: Request) -> Response:
        role = self.authenticate(request)
        game = await self.game_for(request, role)
        names = await self.call(game, self.names, game)
        viewer = self.viewer_for(role, names, request.query_params.get("as"))
        with_legal = self.query_flag(request, "legal")
        return JSONResponse(await self.call(game, self._view, game, viewer, with_legal))

    async def get_legal(self, request: Request) -> Response:
        role = self.authenticate(request)
        game = await self.game_for(request, role)
        names = await self.call(game, self.names, game)
        viewer = self.viewer_for(role, names, request.query_params.get("as"))
        if viewer is REFEREE or viewer == PUBLIC:
            raise ApiError(400, "legal commands belong to a seat: give ?as=NAME", 2)

        return JSONResponse(await self.call(game, self._legal_maps, game, viewer))

    async def get_events(self, request: Request) -> Response:
        role = self.authenticate(request)
        game = await self.game_for(request, role)
        names = await self.call(game, self.names, game)
        viewer = self.viewer_for(role, names, request.query_params.get("as"))
        after = self.query_int(request, "after", 0)
        wait = self.query_float(request, "wait", 0.0, MAX_WAIT)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        while True:
            changed = self.hub.changed(game)
            head = await run_in_threadpool(self.head, game)
            out, version, over = await self.call(game, self._events, game, viewer, after)
            if out or over or loop.time() >= deadline:
                return JSONResponse({"game": game, "events": out,
                                     "version": max(version, after), "over": over})
            after = max(after, version)
            await self.wait_change(game, head, changed, deadline)

    async def get_stream(self, request: Request) -> Response:
        role = self.authenticate(request)
        game = await self.game_for(request, role)
        names = await self.call(game, self.names, game)
        viewer = self.viewer_for(role, names, request.query_params.get("as"))
        after = self.query_int(request, "after", 0)
        last_id = request.headers.get("last-event-id")
        if last_id:
            try:
                after = max(0, int(last_id))
            except ValueError:
                raise ApiError(400, f"Last-Event-ID must be a sequence number, not {last_id!r}"
                               ) from None
        limit = self.query_float(request, "timeout", 300.0, MAX_STREAM)
        loop = asyncio.get_running_loop()

        async def frames():
            nonlocal after
            deadline = loop.time() + limit
            yield "retry: 1000\n: devil event stream\n\n"
            while loop.time() < deadline:
                changed = self.hub.changed(game)
                head = await run_in_threadpool(self.head, game)
                out, version, over = await self.call(game, self._events, game, viewer, after)
                for entry in out:
                    yield f"id: {entry['seq']}\nevent: event\ndata: {json.dumps(entry)}\n\n"
                after = max(after, version)
                if over:
                    yield f"event: over\ndata: {json.dumps({'version': after})}\n\n"
                    return
                if not out:
                    await self.wait_change(game, head, changed, min(deadline, loop.time() + 15))
                    if not changed.is_set() and await run_in_threadpool(self.head, game) == head:
                        yield ": keep-alive\n\n"

        return StreamingResponse(frames(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    async def post_command(self, request: Request) -> Response:
        role = self.authenticate(request)
        game = await self.game_for(request, role)
        if game.partition("-")[0] in STREAMS:  # results only through the checks of /tournaments
            raise ApiError(400, f"{game} is not a game: send its commands to "
                                f"/tournaments/{game}/commands")
        key = request.headers.get("idempotency-key")
        if key is None:
            raise ApiError(400, "every command needs a command id: send an Idempotency-Key "
                                "header (a fresh random string; resend it to retry safely)")
        if not _IDEMPOTENCY_KEY.match(key):
            raise ApiError(400, f"the Idempotency-Key must be 1 to {MAX_COMMAND_ID} printable characters "
                                "without spaces")
        body = await self.read_json(request)
        as_name = request.query_params.get("as")
        result = await self.call(game, self._submit, game, body, role, as_name, key,
                                 self.query_flag(request, "legal"))
        if not result["repeated"]:
            self.hub.notify(game)
        return JSONResponse(result, status_code=200 if result["repeated"] else 201)

    async def get_log(self, request: Request) -> Response:
        role = self.authenticate(request)
        game = await self.game_for(request, role)
        if not role.is_referee:
            raise NotAllowed("only the referee may export the full log "
                             "(players read their own stream: GET /games/{id}/events)")
        data = await self.call(game, self._log_bytes, game)
        return Response(data, media_type="application/vnd.devil.log",
                        headers={"Content-Disposition": f'attachment; filename="{game}.devlog"'})

    async def get_key(self, request: Request) -> Response:
        """The service's public signing key (anyone: it checks receipts and seals)."""
        from ..receipts import public_key

        return JSONResponse({"algorithm": "ed25519",
                             "public": await run_in_threadpool(public_key, self.store)})

    async def get_seal(self, request: Request) -> Response:
        """A finished game's seal (any token of the game); 404 while it runs."""
        role = self.authenticate(request)
        game = await self.game_for(request, role)
        seal = await self.call(game, self.service.seal, game)
        if seal is None:
            raise ApiError(404, f"{game} is not finished: a game is sealed when it ends", 2)
        return JSONResponse(seal)

    async def openapi(self, request: Request) -> Response:
        return JSONResponse(OPENAPI)

    async def health(self, request: Request) -> Response:
        return JSONResponse({"ok": True})



def create_app(store: "str | EventStore", organiser_key: str | None = None, *,
               max_body: int = MAX_BODY, poll_interval: float = POLL_INTERVAL,
               texts=None) -> Starlette:
    """The ASGI app serving every game in ``store`` (an EventStore, or a folder path for a
    FileStore).  ``texts``: the kinds' words for the replay page (engine.web.pages; the CLI passes
    client.page.texts)."""
    api = Api(store, organiser_key, max_body, poll_interval)
    routes = [
        Route("/games", api.create_game, methods=["POST"]),
        Route("/games", api.list_games, methods=["GET"]),
        Route("/games/{game}", api.get_game, methods=["GET"]),
        Route("/games/{game}/view", api.get_view, methods=["GET"]),
        Route("/games/{game}/legal", api.get_legal, methods=["GET"]),
        Route("/games/{game}/events", api.get_events, methods=["GET"]),
        Route("/games/{game}/stream", api.get_stream, methods=["GET"]),
        Route("/games/{game}/commands", api.post_command, methods=["POST"]),
        Route("/games/{game}/log", api.get_log, methods=["GET"]),
        Route("/games/{game}/seal", api.get_seal, methods=["GET"]),
        Route("/key", api.get_key, methods=["GET"]),
        Route("/openapi.json", api.openapi, methods=["GET"]),
        Route("/health", api.health, methods=["GET"]),
    ]
    from .tournament import routes as tournament_routes

    routes += tournament_routes(api)  # the organiser's tournaments (engine/web/tournament.py)
    from .pages.routes import routes as page_routes  # the replay and audit pages (issue 13)

    routes += page_routes(api, texts)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        await run_in_threadpool(api.start, asyncio.get_running_loop())  # may wait (briefly) for the listener to connect
        yield

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=HANDLERS)
    app.state.api = api
    return app
