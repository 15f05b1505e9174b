"""The PostgreSQL store's connections (docs/postgres.md): :class:`Connections`, a small pool
made for a database that goes away and comes back (fails fast as StoreUnavailable, reconnects
on demand), :func:`connect` for a one-off connection, :func:`safe_url` (a location without its
password, for messages) and :func:`unavailable` (the error for a failed connection).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import select
import threading
import urllib.parse

import psycopg

from ...errors import StoreUnavailable, UsageError
from .. import loopguard

#: how long opening a connection may take before the database counts as unavailable (s)
CONNECT_TIMEOUT = 5
#: how long a call waits for one of the store's connections while all are busy (s)
BUSY_TIMEOUT = 30.0


def safe_url(url: str) -> str:
    """``url`` without its password, for messages."""
    if "://" not in url:
        return re.sub(r"password\s*=\s*('[^']*'|\S+)", "password=***", url)
    parts = urllib.parse.urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, hostport = netloc.rpartition("@")
        netloc = userinfo.partition(":")[0] + "@" + hostport
    query = urllib.parse.urlencode([(k, "***" if k == "password" else v) for k, v in
                                    urllib.parse.parse_qsl(parts.query, keep_blank_values=True)],
                                   safe="/*")
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def connect(url: str, **kwargs) -> psycopg.Connection:
    """A new connection to ``url`` (UsageError naming the database, without its password, if
    it cannot be reached): for opening a store and for migrations."""
    try:
        return psycopg.connect(url, connect_timeout=10, **kwargs)
    except psycopg.OperationalError as exc:
        raise UsageError(f"cannot connect to {safe_url(url)}: "
                         f"{str(exc).strip() or type(exc).__name__}") from None


def unavailable(where: str, exc: BaseException, doubt: str | None = None) -> StoreUnavailable:
    """The StoreUnavailable error for a connection failure ``exc`` (its first line, no
    password: libpq's messages name the host or socket, never the password)."""
    reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
    tail = doubt or "nothing was recorded; try again shortly"
    return StoreUnavailable(f"the database is unavailable ({where}: {reason}); {tail}")


class Connections:
    """The store's connections: at most ``size`` open at once, kept while they work.

    Made for a database that may go away and come back: a connection is opened on demand
    (failing at once, as StoreUnavailable, while the server is down, instead of queueing
    callers behind a pool that reconnects with a back-off), an idle one the server has closed
    (it restarted: the socket is readable) is dropped before use without a round trip, and a
    connection that failed is closed rather than kept.  Every psycopg OperationalError (the
    connection, the server shutting down, resources) becomes StoreUnavailable.
    """

    def __init__(self, url: str, size: int, where: str):
        self.url = url
        self.size = max(1, size)
        self.where = where
        self._idle: list[psycopg.Connection] = []
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(self.size)
        self._closed = False

    @contextlib.contextmanager
    def connection(self):
        loopguard.check()  # a blocking round trip: not on the event loop (engine.store.loopguard)
        if not self._slots.acquire(timeout=BUSY_TIMEOUT):
            raise StoreUnavailable(f"the database is unavailable ({self.where}: all {self.size} "
                                   f"connections stayed busy for {BUSY_TIMEOUT:g} s); try again")
        conn = None
        try:
            conn = self._take()
            yield conn
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            raise unavailable(self.where, exc) from None
        finally:
            if conn is not None:
                self._give(conn)
            self._slots.release()

    def _take(self) -> psycopg.Connection:
        while True:
            with self._lock:
                if self._closed:
                    raise psycopg.InterfaceError("the store is closed")
                conn = self._idle.pop() if self._idle else None
            if conn is None:
                return psycopg.connect(self.url, autocommit=True,
                                       connect_timeout=CONNECT_TIMEOUT)
            if _alive(conn):
                return conn
            _close(conn)

    def _give(self, conn: psycopg.Connection) -> None:
        keep = (not conn.closed and not conn.broken
                and conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE)
        if keep:
            with self._lock:
                if not self._closed:
                    self._idle.append(conn)
                    return
        _close(conn)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            _close(conn)


class AsyncConnections:
    """:class:`Connections` for the event loop: psycopg's asynchronous connections, at most
    ``size`` at once, opened on demand, an idle one the server closed dropped before use, a
    failed one closed, every OperationalError a StoreUnavailable.  The connections belong to
    the loop that opened them: used from another loop (a test's), they are left and new ones
    opened."""

    def __init__(self, url: str, size: int, where: str):
        self.url = url
        self.size = max(1, size)
        self.where = where
        self._idle: list[psycopg.AsyncConnection] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._slots: asyncio.Semaphore | None = None
        self._closed = False

    @contextlib.asynccontextmanager
    async def connection(self):
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # another loop's connections cannot be awaited here
            for conn in self._idle:
                _finish(conn)
            self._loop, self._idle, self._slots = loop, [], asyncio.Semaphore(self.size)
        slots = self._slots
        assert slots is not None  # made just above for this loop
        try:
            await asyncio.wait_for(slots.acquire(), BUSY_TIMEOUT)
        except TimeoutError:
            raise StoreUnavailable(f"the database is unavailable ({self.where}: all {self.size} "
                                   f"connections stayed busy for {BUSY_TIMEOUT:g} s); "
                                   "try again") from None
        conn = None
        try:
            conn = await self._take()
            yield conn
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            raise unavailable(self.where, exc) from None
        finally:
            if conn is not None:
                self._give(conn)
            slots.release()

    async def _take(self) -> psycopg.AsyncConnection:
        while True:
            if self._closed:
                raise psycopg.InterfaceError("the store is closed")
            conn = self._idle.pop() if self._idle else None
            if conn is None:
                return await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
            if _alive(conn):
                return conn
            _finish(conn)

    def _give(self, conn: psycopg.AsyncConnection) -> None:
        keep = (not conn.closed and not conn.broken and not self._closed
                and conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE)
        if keep:
            self._idle.append(conn)
        else:
            _finish(conn)

    def close(self) -> None:
        """Close the idle connections (from any thread: without a round trip)."""
        self._closed = True
        idle, self._idle = self._idle, []
        for conn in idle:
            _finish(conn)


def _finish(conn) -> None:
    """Close a connection without awaiting anything (libpq's own close: the socket)."""
    try:
        conn.pgconn.finish()
    except psycopg.Error:  # pragma: no cover
        pass


def _alive(conn) -> bool:
    """Whether an idle connection may still work: not closed, and the server has sent nothing
    (an idle connection reads nothing unless the server closed it or is shutting down)."""
    if conn.closed or conn.broken:
        return False
    try:
        readable, _, _ = select.select([conn.pgconn.socket], [], [], 0)
    except (OSError, ValueError, psycopg.Error):
        return False
    return not readable


def _close(conn: psycopg.Connection) -> None:
    try:
        conn.close()
    except psycopg.Error:  # pragma: no cover
        pass
