"""The HTTP service around :class:`engine.service.GameService` (issue 5; docs/service.md).

``create_app(store, organiser_key=None)`` returns a Starlette (ASGI) app; ``devil serve``
runs it with uvicorn.  Every game of every kind in the store is served, through one
:class:`engine.service.GameService` (which keeps every game's folds; the app keeps no state of
its own but tokens' hashes).  The local CLI may use the same store at the same time: appends are
optimistic with an expected version, and watchers notice appends by other processes by polling
the game's head (last sequence number and link) in the store.

The app (:func:`create_app`) is the core every route shares, :class:`Api` (the service, the
token book, the game a path names, the viewer a request reads as, bodies and query parameters,
:class:`engine.web.hub.Hub`'s per-game locks and change notifications), with the routes of
:mod:`engine.web.games` (who may do what), :mod:`engine.web.tournament` and
:mod:`engine.web.pages`.

On a store whose reads are local (``store.local``: the file store, memory) the game routes'
work in memory (authentication, the folds, decide, the view, the JSON) runs on the event loop,
without a thread hop per request (:meth:`Api.now`); a command's durable write alone leaves the
loop, for the store's one group-commit writer (:class:`engine.store.group.GroupWriter`:
several games' appends written and fsynced together, each command answered once its own
records are durable; :meth:`Api.steps`).  Reads of the file store take no lock (only its
writer waits for a log's ``flock``), so the loop never waits for another process's writer; a
snapshot (every 500 events) is written without fsync.  On PostgreSQL, whose reads are network
round trips, that work runs in the thread pool, as do the tournaments' routes and the pages'
folds (:meth:`Api.call`).  Every access to one game is serialized by an ``asyncio.Lock`` per
game, so concurrent commands are neither lost nor applied twice.  Errors are JSON:
``{"error": message, "rule": rule-or-null, "code": CLI exit code}`` (:mod:`engine.web.errors`).
"""

from __future__ import annotations

import asyncio
import contextlib

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from ..errors import ConcurrencyConflict, DevilError, NotAllowed, UnknownGame, UsageError
from ..game import PUBLIC, REFEREE
from ..jsonsafe import loads as json_loads
from ..service import GameService
from . import clocktick
from ..service.steps import run as run_steps, run_async as run_steps_async
from ..store import EventStore, open_store
from ..store import loopguard
from ..store.group import GroupWriter
from ..store.loopguard import NeedsThread
from ..store.protocol import resolve_id
from .auth import Role, TokenBook, keys_equal
from .autopass import hold_ms as autopass_hold, routes as autopass_routes
from .cosigning import Collector
from .tlog import tlog_routes
from .errors import HANDLERS, ApiError
from .games import hot_routes as game_hot, routes as game_routes
from .hot import HotRoutes
from .hub import Change, Hub, holds_news
from .moves import routes as moves_routes
from .pages.routes import routes as page_routes
from .pages.table import routes as table_routes
from .pages.referee import routes as referee_routes
from .refmoves import routes as refmoves_routes
from .tournament import routes as tournament_routes

#: default request body limit (bytes)
MAX_BODY = 64 * 1024
#: how often a waiting reader checks the log for appends by other processes (seconds)
POLL_INTERVAL = 0.25
#: how often a waiting reader checks the head while the store tells of every append by any
#: process (PostgreSQL's notifications, ``store.notifying``): a safety net only (seconds)
NOTIFIED_POLL = 1.0
#: the longest a request body may take to arrive once its headers are in (seconds)
BODY_TIMEOUT = 10.0


def _body_complete(request: Request) -> bool:
    """Whether the server has the request's whole body already (uvicorn's request cycle, whose
    ``receive`` this is, has seen the body's end: a small command's body comes in the packet
    of its headers), so that reading it cannot wait.  False when that cannot be told (another
    server, a test's own ``receive``): the body is then read under ``body_timeout``."""
    cycle = getattr(request.receive, "__self__", None)
    return getattr(cycle, "more_body", True) is False


def _read_once(games: set):
    """A Refresh for :func:`engine.service.steps.run` that answers the first Refresh of each
    of ``games`` (read on the loop just now, under the game's lock) with the game as held,
    without reading the store again; any other, and any later one, is ``cache.refresh``."""
    left = set(games)

    def refresh(cache, game: str, trust: bool = False):
        if game in left:
            left.discard(game)
            held = cache.held(game)
            if held is not None:
                return held
        return cache.refresh(game)

    return refresh


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
        #: the kinds' words for the replay page (engine.web.pages; create_app sets them)
        self.texts = None
        self.window_hold_ms = 3000  # the seat's page's window hold (PAGE-22, engine.web.autopass)
        self.body_timeout = BODY_TIMEOUT
        self.hub = Hub()
        #: whether the store's reads may run on the event loop (EventStore's ``local``)
        self.local = bool(getattr(self.store, "local", False))
        #: the store's asynchronous read, when it has one (PostgreSQL): a command or a view of
        #: a held game is then served on the loop too (engine.store.loopguard)
        self.read_async = None if self.local else getattr(self.store, "read_async", None)
        #: the store's one writer: group commit of the commands decided on the loop
        self.writer = GroupWriter(self.store)
        #: the default of POST /games's "seat_entropy" for a digital game without a chosen
        #: seed (`devil serve --seat-entropy`)
        self.seat_entropy = False
        #: game -> the store's ``told(game)`` mark taken before this node's last read of it
        self._told: dict[str, tuple] = {}
        #: a snapshot due while a request is served on the loop is written afterwards, in
        #: the thread pool under the game's lock (engine.service.cache.GameCache.defer)
        self.service.cache.defer = self._snapshot_later
        self._later: set[asyncio.Task] = set()
        #: whether this node's watchers are woken by the store's notifications (start)
        self.subscribed = False
        #: the witnesses' cosignatures (engine.web.cosigning.Collector; `devil serve --witness`)
        self.cosigning: Collector | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """For the server's ``loop``: if the store tells of appends by other nodes (PostgreSQL's
        LISTEN/NOTIFY: ``store.subscribe``), wake this node's watchers at once instead of at
        their next poll of the head."""
        subscribe = getattr(self.store, "subscribe", None)
        if subscribe is None:
            return
        self.subscribed = True

        def appended(game: str | None, version: int | None) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closing
                loop.call_soon_threadsafe(self.hub.notify, game, version)

        subscribe(appended, versions=True)

    # -- helpers --------------------------------------------------------------------------
    async def call(self, game: str, fn, *args, **kwargs):
        """``fn(*args)`` in the thread pool, holding ``game``'s lock (work that writes, or
        folds a whole log)."""
        async with self.hub.lock(game):
            return await run_in_threadpool(fn, *args, **kwargs)

    async def now(self, game: str, fn, *args, **kwargs):
        """``fn(*args)``, in-memory work on a game that reads the store but never writes,
        holding ``game``'s lock: on the event loop when the store's reads are local, or when
        the store reads asynchronously (PostgreSQL) and the game is held (its new records read
        on the loop first, engine.store.loopguard); else in the thread pool."""
        return await self._now(game, None, fn, args, kwargs)

    async def woken(self, game: str, changed: Change, seen: int, fn, *args):
        """:meth:`now` for a watcher (a stream, a long poll) that waited on ``changed`` (from
        :meth:`Hub.changed`) having seen the game up to version ``seen``.  When ``changed``
        woke it, the store's notifications told of no other store's append to the game since
        this node last read it (``store.told``, PostgreSQL), and the game is held past
        ``seen`` or at least at the version of this node's append that woke it
        (``changed.version``: a second wake-up for records already served), the held game is
        what this node's own appends made it: ``fn`` runs on it without a read.  Nothing is
        skipped: the held records are the log's, in order, up to its head; another node's
        append, committed a few milliseconds before its notification, wakes the watcher
        again and is read then, as an append that came just after."""
        trust = (seen, changed.version) if changed.is_set() else None
        return await self._now(game, trust, fn, args, {})

    async def waiting(self, game: str, seen: int, fn, *args):
        """:meth:`now` for a long poll's first look (``GET /events?wait=S``, S > 0), having
        seen the game up to version ``seen``: on the same terms as :meth:`woken`, but the held
        game answers even with nothing past ``seen`` (the poll then waits for a wake-up, as
        after a read that found nothing: an append by another node whose notification is on
        its way wakes it when it comes)."""
        return await self._now(game, (seen, 0), fn, args, {})

    async def _now(self, game: str, trust: tuple | None, fn, args, kwargs):
        async with self.hub.lock(game):
            if self.local:
                return fn(*args, **kwargs)
            if self.read_async is not None and self.service.cache.held(game) is not None:
                try:
                    with loopguard.on_loop():
                        await self._refresh_on_loop(self.service.cache, game,
                                                    trust is not None, trust)
                        return fn(*args, **kwargs)
                except NeedsThread:
                    pass  # fn needs a blocking read after all: in a worker thread
            return await run_in_threadpool(fn, *args, **kwargs)

    async def off_loop(self, fn, *args):
        """``fn(*args)`` (a read of the store, no game lock): here when the store's reads are
        local, else in the thread pool."""
        if self.local:
            return fn(*args)
        return await run_in_threadpool(fn, *args)

    async def steps(self, game: str, make, *args):
        """The path of steps ``make(*args)`` (engine.service.steps: a command, a seal), holding
        ``game``'s lock: on the loop with its appends to the group-commit writer and its other
        writes in the thread pool when the store's reads are local; on the loop too with the
        store's asynchronous read and append when it has them (PostgreSQL; a path that needs a
        blocking read before it wrote starts again in a worker thread); else all in the
        pool."""
        async with self.hub.lock(game):
            if self.local:
                return await run_steps_async(make(*args), self.writer.append, run_in_threadpool)
            refresh = None
            if self.read_async is not None:  # PostgreSQL: reads and appends on the loop too
                try:
                    with loopguard.on_loop() as guard:
                        return await run_steps_async(make(*args), self._append_on_loop,
                                                     self._call_on_loop, self._refresh_on_loop)
                except NeedsThread:  # a blocking read before anything was written: the path
                    refresh = _read_once(guard.fresh)  # again in a worker thread
            return await run_in_threadpool(lambda: run_steps(make(*args), self.store, refresh))

    def _snapshot_later(self, game: str) -> None:
        """Write ``game``'s due snapshot once the current request lets go of the game (a
        task on the running loop; a snapshot that cannot be written is only a shortcut not
        taken)."""
        async def write() -> None:
            with contextlib.suppress(DevilError, OSError):
                await self.call(game, self.service.cache.write_due_snapshot, game)

        task = asyncio.get_running_loop().create_task(write())
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def _append_on_loop(self, *args):
        """An Append step of a path on the loop (engine.store.loopguard: from here the path
        cannot be started again)."""
        before = loopguard.stepped()
        try:
            return await self.writer.append(*args)
        except ConcurrencyConflict:  # refused before anything was written: as if not made
            if not before:
                loopguard.stepped(False)
            raise

    async def _call_on_loop(self, fn, *args):
        """A Call step of a path on the loop: in a worker thread."""
        loopguard.stepped()
        return await run_in_threadpool(fn, *args)

    async def _refresh_on_loop(self, cache, game: str, trust: bool = False,
                               watcher: tuple | None = None):
        """A Refresh step on the loop: the held game advanced by the store's asynchronous read
        of its new records (NeedsThread for a game not held: a cold load reads blocking).
        ``trust`` (a command's first decision, engine.service.steps.Refresh; a woken watcher,
        :meth:`woken`): the game as held, without a read, when the store's notifications have
        flowed since its last read here and told of no other store's append to it
        (``store.told``), and for a ``watcher`` (``(seen, woken by version)``) it is held past
        ``seen`` or at least at the version whose append woke it."""
        told = getattr(self.store, "told", None)
        while True:
            held = cache.held(game)
            if held is None:  # a cold load reads blocking: NeedsThread, or past a write here
                loaded = cache.refresh(game)
                break
            mark = None if told is None else told(game)  # before the read: what it covers
            if (trust and mark is not None and self._told.get(game) == mark
                    and (watcher is None or holds_news(held.head.seq, *watcher))):
                loaded = held  # nobody else appended since: the append's check is the proof
                break
            read = self.read_async
            assert read is not None  # only a store that reads asynchronously comes here
            batch = await read(game, after=held.head.seq)
            with cache.lock(game):
                loaded = cache.take(held, batch)
            if loaded is not None:
                if mark is not None:
                    self._told[game] = mark
                break
        loopguard.read(game)
        return loaded

    @staticmethod
    def bearer(request: Request) -> str | None:
        """The bearer token of the Authorization header (None without one; 401 if malformed)."""
        header = request.headers.get("authorization")
        if not header:
            return None
        scheme, _, value = header.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise ApiError(401, "the Authorization header must read 'Bearer <token>'", 4,
                           headers={"WWW-Authenticate": "Bearer"})
        return value.strip()

    def authenticate(self, request: Request) -> Role:
        """The role of the request's token (401 without a valid one)."""
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
            found = await run_in_threadpool(self.service.resolve, text)
            await clocktick.tick(self, found)
            return found
        game = role.game
        assert game is not None  # a game's token (only the organiser's key names none)
        try:  # named as anywhere else: the id, or 3+ characters of its start, end or suffix
            resolve_id(text, [game], "this server")
        except (UnknownGame, UsageError):
            # the same answer whether or not that game exists: a token tells nothing of others
            raise NotAllowed(f"this token belongs to game {game}, not {text}") from None
        if not await self.exists(game):
            raise UnknownGame(f"no game {game!r} on this server")
        await clocktick.tick(self, game)  # the timeouts due now first (CLOCK-5)
        return game

    async def exists(self, game: str) -> bool:
        """Whether ``game`` is in the store: a game the service holds is (a store never loses
        one; if it did, reading it answers UnknownGame), any other is asked of the store off
        the event loop."""
        if self.service.cache.held(game) is not None:
            return True
        return await self.off_loop(self.store.exists, game)

    def viewer_for(self, role: Role, names: list[str], as_name: str | None):
        """The viewer a request reads as: REFEREE, a seat index or PUBLIC."""
        if role.is_referee:
            if as_name is None:
                return REFEREE
            from ..seats import seat_named

            return seat_named(names, as_name)
        if role.kind == "spectator":
            if as_name is not None:
                raise NotAllowed(f"a spectator sees only public information, not {as_name}'s view")
            return PUBLIC
        assert role.seat is not None  # a seat's token
        own = names[role.seat]
        if as_name is not None and as_name != own:
            from ..seats import seat_named

            try:  # ?as= in another case names the token's own seat too
                named = seat_named(names, as_name)
            except UsageError:
                named = None
            if named != role.seat:
                raise NotAllowed(f"your token is {own}'s: you cannot act or read as {as_name}")
        return role.seat

    def names(self, game: str) -> list[str]:
        """The game's players, seat by seat (they never change: a game the service holds is not
        read again)."""
        return self.service.players(game)

    async def players(self, game: str) -> list[str]:
        """:meth:`names` for a request, holding ``game``'s lock: a game the service holds
        answers on the loop without reading the store (whatever the store), any other is
        loaded as :meth:`now` loads it."""
        async with self.hub.lock(game):
            if self.local or self.service.cache.held(game) is not None:
                return self.names(game)
        return await self.now(game, self.names, game)

    async def read_json(self, request: Request) -> dict:
        """The request body as a JSON object (413 over ``max_body``, 408 if it does not arrive
        within ``body_timeout``, 400 if empty or not an object)."""
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
            if _body_complete(request):  # nothing to wait for: no timer to arm and cancel
                await receive()
            else:
                async with asyncio.timeout(self.body_timeout):  # no task per body (wait_for's)
                    await receive()
        except TimeoutError:
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
        """Query parameter ``name`` as a whole number of at least ``low`` (400 otherwise)."""
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
        """Query parameter ``name`` as true or false (400 otherwise)."""
        value = request.query_params.get(name, "").lower()
        if value in ("", "0", "false", "no"):
            return False
        if value in ("1", "true", "yes"):
            return True
        raise ApiError(400, f"query parameter {name} must be true or false, not {value!r}")

    @staticmethod
    def query_float(request: Request, name: str, default: float, high: float) -> float:
        """Query parameter ``name`` as a number of at least 0, capped at ``high``."""
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
            interval = self.poll_interval
            if self.subscribed and getattr(self.store, "notifying", False):
                interval = max(interval, NOTIFIED_POLL)  # every append wakes ``changed``
            try:  # a timeout scope, not wait_for's task per wait
                async with asyncio.timeout(min(left, interval)):
                    await changed.wait()
                return
            except TimeoutError:
                pass
            if await self.head_now(game) != head:
                return

    async def head_now(self, game: str):
        """:meth:`head`, asked of the store without blocking the loop: its asynchronous read
        (PostgreSQL), here when its reads are local, else in the thread pool."""
        head_async = getattr(self.store, "head_async", None)
        if head_async is None or self.local:
            return await self.off_loop(self.head, game)
        try:
            return await head_async(game)
        except DevilError:
            return None



def create_app(store: "str | EventStore", organiser_key: str | None = None, *,
               max_body: int = MAX_BODY, poll_interval: float = POLL_INTERVAL,
               texts=None, window_hold: float | None = None,
               witnesses: "tuple[str, ...] | list[str]" = (), hot: bool = True) -> Starlette:
    """The ASGI app serving every game in ``store`` (an EventStore, or a folder path for a
    FileStore).  ``texts``: the kinds' words for the replay page (engine.web.pages; the CLI passes
    client.page.texts).  ``window_hold``: the seat's page's window hold in seconds (PAGE-22,
    engine.web.autopass; None: 3 s; ValueError outside 0.5 to 30).  ``witnesses``: URLs of C2SP
    tlog-witnesses the log's checkpoints are sent to in the background
    (engine/web/cosigning.py, ``devil serve --witness``).  ``hot``: answer a game's commands,
    view, events and stream past Starlette's layers (engine.web.hot; the same bytes)."""
    hold = autopass_hold(window_hold)  # PAGE-22: a bad hold is refused before the store opens
    api = Api(store, organiser_key, max_body, poll_interval)
    api.texts = texts  # the replay page's words, for the public spectator pages too
    api.window_hold_ms = hold
    if witnesses:  # issue 20.4: cosignatures collected off the request path
        api.cosigning = Collector(api, list(witnesses))
    routes = (game_routes(api)  # the games, the key, /openapi.json, /health
              + tournament_routes(api)  # the organiser's tournaments
              + page_routes(api, texts)  # the replay and audit pages (issue 13)
              + moves_routes(api)  # a seat's legal commands as shapes (issue 25.1)
              + autopass_routes(api)  # the page's auto-pass settings and module (issue 25.4)
              + table_routes(api)  # the seat's and the spectator's page (issue 25.1, 25.3)
              + refmoves_routes(api) + referee_routes(api)  # the referee's page (issue 25.2)
              + tlog_routes(api))  # the transparency log (engine/web/tlog.py, issue 20)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        # may wait (briefly) for the store's listener to connect
        await run_in_threadpool(api.start, asyncio.get_running_loop())
        ticking = asyncio.get_running_loop().create_task(clocktick.run(api))  # CLOCK-9
        cosigning = None if api.cosigning is None else \
            asyncio.get_running_loop().create_task(api.cosigning.run())  # issue 20.4
        try:
            yield
        finally:
            ticking.cancel()
            if cosigning is not None:
                cosigning.cancel()
            if api._later:  # snapshots put off by requests on the loop: written first
                await asyncio.wait(list(api._later), timeout=10)
            await run_in_threadpool(api.writer.close)  # what is queued is written first

    from starlette.middleware import Middleware

    from .csp import PageHeaders

    # every answer: no Referer, no sniffing; an HTML one without its own policy runs no script
    app = DevilApp(routes=routes, lifespan=lifespan, exception_handlers=HANDLERS,
                   middleware=[Middleware(PageHeaders)])
    app.state.api = api
    if hot:  # a move's routes past Starlette's layers, with the same answers (engine.web.hot)
        app.hot = HotRoutes(game_hot(api), HANDLERS)
    return app


class DevilApp(Starlette):
    """The service's Starlette app, answering :attr:`hot` routes itself (engine.web.hot)."""

    #: the hot routes (None: every request through Starlette's layers)
    hot: "HotRoutes | None" = None

    async def __call__(self, scope, receive, send) -> None:
        hot = self.hot
        if hot is not None and scope["type"] == "http":
            found = hot.match(scope)
            if found is not None:
                await hot.serve(self, found[0], found[1], scope, receive, send)
                return
        await super().__call__(scope, receive, send)
