"""The PostgreSQL store: every game's stream in one database, shared by any number of nodes.

Implements :class:`engine.store.protocol.EventStore` with psycopg 3 and a small pool of its
own (:class:`~engine.store.postgres.connections.Connections`: fails fast while the database is
away, reconnects on demand).  The schema (engine/store/migrations/*.sql; docs/postgres.md) keeps:

* ``games``: one row a game with its header's exact .devlog bytes and its head (the last
  record's seq and link);
* ``records``: one row a record with its exact .devlog bytes and its fields in columns
  (seq, actor, cmd, ts, left, link); primary key (game, seq), unique (game, cmd, left): one
  command id, one command (a command's records share the id and count ``left`` down to 0);
* ``secrets`` (the secret kept at creation) and ``private_documents`` (token hashes and the
  like), JSON documents; ``snapshots`` of the service's folds; the transparency log (tlog.py).

:meth:`PostgresStore.log_bytes` is byte for byte the .devlog the file store writes.

* **Appends** are one statement: move the head only from the expected version and the link
  the records chain from (the head this store last saw; the row is read only when it has not),
  insert the records chained exactly as :func:`engine.log.encode_records` makes them,
  ``pg_notify``.  Two nodes can never both append seq N (the update waits on the row's lock and
  finds the head moved; the primary key would refuse it anyway); the unique command id refuses
  a reused one (DuplicateCommand).
* **Reads** are one statement (the row, its records) and trust rows only chained appends wrote.
* **Waiting**: every append notifies the channel ``devil_<schema>`` with ``"<game> <origin>"``
  as payload (delivered at commit, to every node; a creation's payload is the game id alone).
  A store tells its own subscribers of its own appends when they return, so it passes on
  only the notifications of other stores' (another ``origin``).  A store listens on a
  dedicated connection from a background thread, started on its first
  :meth:`~PostgresStore.wait`, and wakes its waiters within milliseconds; if that
  connection fails they poll every :data:`POLL` seconds until it is back.

Schema versions (:mod:`engine.store.postgres.schema`): ``init`` and ``upgrade`` apply the
migrations shipped in the package (idempotent); a store refuses (``SchemaMismatch``) a database
whose schema is missing, older (``run `devil db upgrade URL` ``) or newer than the package's.

This module imports psycopg: :func:`engine.store.open_store` imports it only for a
``postgresql://`` location (the CLI's start-up does not pay for it).
"""

from __future__ import annotations

import re
import secrets
import threading
import time

import msgpack
import psycopg
from psycopg import errors as pg_errors
from psycopg import sql
from psycopg.types.json import Jsonb

from ...errors import UsageError
from ...log import VERSION, Header, Record, encode_header, encode_records, now_ms, scan
from ..protocol import Batch, Head, new_id, resolve_id
from .connections import AsyncConnections, Connections, connect, safe_url
from .schema import check_schema
from .append import _GAME_ID, PostgresAppends
from .tlog import PostgresTlog

_PRIVATE = re.compile(r"^[a-z]{1,16}$")
#: how often a waiter polls while the notification connection is down (s)
POLL = 0.05
#: how often a waiter looks again even while notifications flow (a safety net, s)
RECHECK = 1.0
#: how long to wait before reconnecting a failed notification connection (s)
RELISTEN = 0.5


# -- the store ----------------------------------------------------------------------------------
def _split(data: bytes, start: int = 0) -> list[tuple[int, int]]:
    """The (start, end) offsets of the msgpack objects in ``data`` from ``start``."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(data[start:] if start else data)
    spans = []
    offset = start
    for _ in unpacker:
        end = start + unpacker.tell()
        spans.append((offset, end))
        offset = end
    return spans


def _records(chunks: list[bytes]) -> list[Record]:
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(b"".join(chunks))
    return [Record(*obj) for obj in unpacker]


class PostgresStore(PostgresAppends, PostgresTlog):
    """The streams in a PostgreSQL database (an :class:`~engine.store.protocol.EventStore`).

    ``url`` is a libpq connection string or URL (``postgresql://user:pw@host:5432/devil``);
    ``pool_size`` the most connections this instance opens at once (plus one for
    notifications once something waits).  Opening checks the schema version (SchemaMismatch:
    run ``devil db init`` / ``devil db upgrade``) and raises UsageError when the database
    cannot be reached.  Once open, a database that goes away makes calls raise
    StoreUnavailable (nothing half-written: every write is one transaction) until it is back;
    the store reconnects by itself.  Thread-safe; :meth:`close` (or ``with``) releases the
    connections.
    """

    def __init__(self, url: str, pool_size: int = 10):
        self.url = url
        self._where = safe_url(url)
        with connect(url, autocommit=True) as conn:
            check_schema(conn, url)
            row = conn.execute("SELECT current_schema()").fetchone()
            assert row is not None  # a SELECT of one value returns one row
            schema = row[0]
        self.channel = f"devil_{schema}"
        #: this instance's mark in the notifications of its appends: it told its own
        #: subscribers at the append, so the echo is not told again
        self.origin = secrets.token_hex(8)
        # autocommit: a read is one round trip; writes open a transaction of their own
        self._pool = Connections(url, pool_size, self._where)
        #: the same for the event loop (read_async, append_async)
        self._apool = AsyncConnections(url, pool_size, self._where)
        self._subscribers: list = []
        self._state = threading.Condition()
        self._bumps: dict[str, int] = {}  # game -> appends notified (only grows)
        self._foreign: dict[str, int] = {}  # game -> other stores' appends notified (grows)
        # game -> (created, head) last seen by this instance: where an append chains from
        # without reading the row first (a hint, checked by the append's own statement)
        self._hints: dict[str, tuple[int, Head]] = {}
        self._epoch = 0  # bumped when the listener (re)connects: anything may have happened
        self._listening = False
        self._listener: threading.Thread | None = None
        self._ready = threading.Event()
        self._closed = False

    def close(self) -> None:
        """Close the pool and stop listening (idempotent)."""
        with self._state:
            if self._closed:
                return
            self._closed = True
            self._state.notify_all()
        self._pool.close()
        self._apool.close()
        if self._listener is not None:
            self._listener.join(timeout=5)

    def __enter__(self) -> "PostgresStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"PostgresStore({self._where!r})"

    # -- names --------------------------------------------------------------------------------
    def location(self, game: str | None = None) -> str:
        """The database's URL without its password (``URL#game`` with ``game``)."""
        return self._where if game is None else f"{self._where}#{game}"

    def exists(self, game: str) -> bool:
        if not isinstance(game, str) or not _GAME_ID.match(game):
            return False
        with self._pool.connection() as conn:
            return conn.execute("SELECT 1 FROM games WHERE id = %s", (game,)).fetchone() \
                is not None

    def new_game_id(self, kind: str) -> str:
        """A fresh id for a new game of ``kind`` (engine.store.protocol.new_id)."""
        return new_id(kind, self.exists)

    def games(self) -> list[str]:
        """Every game id, in the order they were created (or imported)."""
        with self._pool.connection() as conn:
            return [row[0] for row in conn.execute("SELECT id FROM games ORDER BY ord")]

    def resolve(self, text: str) -> str:
        """See :meth:`engine.store.protocol.EventStore.resolve` (the database narrows the
        candidates; :func:`~engine.store.protocol.resolve_id` decides)."""
        if not isinstance(text, str) or not text:
            return resolve_id(text, [], self._where)
        with self._pool.connection() as conn:
            candidates = [row[0] for row in conn.execute(
                "SELECT id FROM games WHERE id = %(t)s OR starts_with(id, %(t)s) "
                "OR right(id, length(%(t)s)) = %(t)s "
                "OR starts_with(split_part(id, '-', 2), %(t)s) ORDER BY ord", {"t": text})]
        return resolve_id(text, candidates, self._where)

    # -- creating -----------------------------------------------------------------------------
    def create(self, kind: str, game: str, actor: int, events: list[dict],
               secret: dict | None = None, created: int | None = None,
               private: dict[str, dict] | None = None) -> list[Record]:
        """Create ``game``'s stream with its first events and keep ``secret`` and the
        ``private`` documents, in one transaction.  UsageError if ``game`` exists or is not a
        well-formed id."""
        self._check(game)
        created = now_ms() if created is None else created
        header = encode_header(kind, game, created)
        first, _ = encode_records(scan(header).header.link, 1, actor, None, 0, events)
        return self._install(header + first, secret, private)

    def import_log(self, data: bytes, secret: dict | None = None) -> str:
        """Add a whole stream given as .devlog bytes (checked with :func:`engine.log.scan`);
        returns its id.  UsageError for a torn tail, a header-only log or a game that exists;
        LogDamaged for damaged bytes."""
        data = bytes(data)
        result = scan(data)
        if result.torn:
            raise UsageError(f"the log ends in {result.torn} bytes of an unfinished write; "
                             "a log to import must be complete")
        if not result.records:
            raise UsageError("the log has a header but no events")
        self._check(result.header.game)
        self._install(data, secret)
        return result.header.game

    def _install(self, data: bytes, secret: dict | None,
                 private: dict[str, dict] | None = None) -> list[Record]:
        result = scan(data)
        header = result.header
        spans = _split(data)
        header_end = spans[0][1]
        head = Head(result.last_seq, result.last_link)
        with self._pool.connection() as conn, conn.transaction():
            row = conn.execute(
                "INSERT INTO games (id, kind, created, header, header_link, head_seq, head_link)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING RETURNING id",
                (header.game, header.kind, header.created, data[:header_end], header.link,
                 head.seq, head.link)).fetchone()
            if row is None:
                raise UsageError(f"a game {header.game} exists already in {self._where}")
            with conn.cursor() as cursor, cursor.copy(
                    'COPY records (game, seq, actor, cmd, ts, "left", link, bytes) FROM STDIN'
            ) as copy:
                for record, (start, end) in zip(result.records, spans[1:]):
                    copy.write_row((header.game, record.seq, record.actor, record.cmd,
                                    record.ts, record.left, record.link, data[start:end]))
            if secret is not None:
                conn.execute("INSERT INTO secrets (game, document) VALUES (%s, %s)",
                             (header.game, Jsonb(secret)))
            for name, document in (private or {}).items():
                self._private_table(name)
                if name == "secret":
                    raise UsageError("the secret is given as secret, not as a private document")
                conn.execute("INSERT INTO private_documents (game, name, document) "
                             "VALUES (%s, %s, %s)", (header.game, name, Jsonb(document)))
            conn.execute("SELECT pg_notify(%s, %s)", (self.channel, header.game))
        return result.records

    # -- reading ------------------------------------------------------------------------------
    def _game_row(self, conn: psycopg.Connection, game: str) -> tuple:
        row = conn.execute("SELECT kind, created, header_link, head_seq, head_link FROM games "
                           "WHERE id = %s", (game,)).fetchone()
        if row is None:
            raise self._unknown(game)
        return row

    def header(self, game: str) -> Header:
        """The stream's :class:`~engine.log.Header`."""
        self._check(game)
        with self._pool.connection() as conn:
            kind, created, header_link, _, _ = self._game_row(conn, game)
        return Header(VERSION, kind, game, created, header_link)

    def read(self, game: str, after: int = 0) -> Batch:
        """The records after ``after`` (see :class:`~engine.store.protocol.Batch`), decoded
        from their stored bytes (not checked again: only appends chained from the locked head
        wrote them).  One statement: the game's row and its records from ``after`` up to the
        head it names, read in one snapshot."""
        self._check(game)
        with self._pool.connection() as conn:
            rows = conn.execute(self._READ, {"game": game, "after": after}).fetchall()
        return self._batch(game, after, rows)

    async def read_async(self, game: str, after: int = 0) -> Batch:
        """:meth:`read` on the running event loop (one of psycopg's asynchronous connections:
        no thread, the loop not blocked while the database answers)."""
        self._check(game)
        async with self._apool.connection() as conn:
            cursor = await conn.execute(self._READ, {"game": game, "after": after})
            rows = await cursor.fetchall()
        return self._batch(game, after, rows)

    #: a read: the game's row and its records from ``after`` up to the head it names, in one
    #: snapshot
    _READ = ("SELECT g.kind, g.created, g.header_link, g.head_seq, g.head_link, r.seq, "
             "r.link, CASE WHEN r.seq > %(after)s THEN r.bytes END FROM games g "
             "LEFT JOIN records r ON r.game = g.id AND r.seq >= %(after)s "
             "AND r.seq <= g.head_seq AND g.head_seq > %(after)s "
             "WHERE g.id = %(game)s ORDER BY r.seq")

    def _batch(self, game: str, after: int, rows: list) -> Batch:
        """The Batch of a :data:`_READ`'s ``rows`` (UnknownGame for none)."""
        if not rows:
            raise self._unknown(game)
        kind, created, header_link, head_seq, head_link = rows[0][:5]
        header = Header(VERSION, kind, game, created, header_link)
        head = Head(head_seq, head_link)
        self._hints[game] = (created, head)
        if after > head_seq or after < 0:
            return Batch(header, [], None, head)
        if after == head_seq:
            return Batch(header, [], head, head)
        if after == 0:
            base = Head(0, header_link)
        else:
            base = Head(after, rows[0][6])
            rows = rows[1:]
        return Batch(header, _records([row[7] for row in rows]), base, head)

    def head(self, game: str) -> Head:
        """The stream's head: one row, no record decoded."""
        self._check(game)
        with self._pool.connection() as conn:
            row = conn.execute("SELECT head_seq, head_link FROM games WHERE id = %s",
                               (game,)).fetchone()
        if row is None:
            raise self._unknown(game)
        return Head(row[0], row[1])

    async def head_async(self, game: str) -> Head:
        """:meth:`head` on the running event loop (an asynchronous connection)."""
        self._check(game)
        async with self._apool.connection() as conn:
            cursor = await conn.execute("SELECT head_seq, head_link FROM games WHERE id = %s",
                                        (game,))
            row = await cursor.fetchone()
        if row is None:
            raise self._unknown(game)
        return Head(row[0], row[1])

    def told(self, game: str) -> tuple[int, int] | None:
        """A mark of what this store has been told of ``game`` by other stores (the
        notification connection's epoch and their appends to it), or None while it does not
        listen.  The same mark before and after a read of the game, with notifications
        flowing throughout, means nobody else has appended to it since that read that this
        store knows of (an append's notification comes within milliseconds of its commit:
        the HTTP service trusts a game as held only for a command's first decision, whose
        append checks the version anyway)."""
        with self._state:
            if not self._listening:
                return None
            return (self._epoch, self._foreign.get(game, 0))

    @property
    def notifying(self) -> bool:
        """Whether this store's notification connection listens now: every append through
        any node is then told to the subscribers within milliseconds (a waiter need look at
        the head only as a safety net)."""
        return self._listening

    def command(self, game: str, cmd: str) -> list[Record] | None:
        self._check(game)
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT bytes FROM records WHERE game = %s AND cmd = %s "
                                "ORDER BY seq", (game, cmd)).fetchall()
            if not rows:
                self._game_row(conn, game)  # UnknownGame, or there is no such command
                return None
        return _records([row[0] for row in rows])

    def log_bytes(self, game: str) -> bytes:
        """The header's bytes, then every record's: the .devlog, byte for byte."""
        self._check(game)
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT g.header || coalesce((SELECT string_agg(r.bytes, ''::bytea "
                "ORDER BY r.seq) FROM records r WHERE r.game = g.id), ''::bytea) "
                "FROM games g WHERE g.id = %s", (game,)).fetchone()
        if row is None:
            raise self._unknown(game)
        return bytes(row[0])

    # -- waiting ------------------------------------------------------------------------------
    def wait(self, game: str, after: int, timeout: float) -> Head:
        """Return once the head is past ``after`` (an append through any node: woken by its
        notification within milliseconds, or by polling every :data:`POLL` s while
        notifications are down) or after ``timeout`` seconds."""
        deadline = time.monotonic() + max(0.0, timeout)
        self._start_listening()
        while True:
            with self._state:
                mark = (self._epoch, self._bumps.get(game, 0))
            head = self.head(game)
            left = deadline - time.monotonic()
            if head.seq > after or left <= 0:
                return head
            with self._state:
                step = RECHECK if self._listening else POLL
                self._state.wait_for(
                    lambda: self._closed or (self._epoch, self._bumps.get(game, 0)) != mark,
                    timeout=min(left, step))
                if self._closed:
                    return head

    def _bump(self, game: str, version: int | None = None) -> None:
        """Wake this store's waiters and tell its subscribers of an append to ``game``
        (``version``: the game's version after this store's own append; None for another's,
        or when it is not known)."""
        with self._state:
            self._bumps[game] = self._bumps.get(game, 0) + 1
            self._state.notify_all()
        self._tell(game, version)

    def _tell(self, game: str | None, version: int | None = None) -> None:
        for callback, versions in list(self._subscribers):
            try:
                if versions:
                    callback(game, version)
                else:
                    callback(game)
            except Exception:  # pragma: no cover - a subscriber's bug must not stop listening
                pass

    def subscribe(self, callback, versions: bool = False) -> None:
        """Call ``callback(game)`` (from a background thread) at every append to ``game``
        through any node, within milliseconds of its commit, and ``callback(None)`` whenever
        the notification connection (re)connects (anything may have happened meanwhile).  The
        HTTP service wakes its watchers with it.  Not called while notifications are down:
        a subscriber keeps polling as a safety net.  With ``versions``, ``callback(game,
        version)``: ``version`` is the game's version after this store's own append (from
        the thread that appended), None for another store's append or a reconnection."""
        self._subscribers.append((callback, versions))
        self._start_listening()

    def _start_listening(self) -> None:
        """Start the notification thread once; wait (briefly) until it listens, so that no
        append after this returns goes unnoticed."""
        with self._state:
            if self._listener is None and not self._closed:
                self._listener = threading.Thread(target=self._listen, daemon=True,
                                                  name=f"devil-listen {self._where}")
                self._listener.start()
        self._ready.wait(timeout=5)

    def _listen(self) -> None:
        while not self._closed:
            conn = None
            try:
                # keep-alives: a connection cut without a word is noticed within ~25 s (over
                # TCP; libpq ignores them on a Unix socket), and `told` stops vouching
                conn = psycopg.connect(self.url, autocommit=True, connect_timeout=10,
                                       keepalives=1, keepalives_idle=10,
                                       keepalives_interval=5, keepalives_count=3)
                conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                with self._state:
                    self._listening = True
                    self._epoch += 1
                    self._state.notify_all()
                self._ready.set()
                self._tell(None)
                while not self._closed:
                    for note in conn.notifies(timeout=0.5):
                        game, _, origin = note.payload.partition(" ")
                        if origin != self.origin:  # this store's own: told at its append
                            self._foreign[game] = self._foreign.get(game, 0) + 1
                            self._bump(game)
            except psycopg.Error:
                pass
            finally:
                with self._state:
                    self._listening = False
                    self._state.notify_all()
                self._ready.set()  # waiters poll meanwhile
                if conn is not None:
                    try:
                        conn.close()
                    except psycopg.Error:  # pragma: no cover
                        pass
            with self._state:
                self._state.wait_for(lambda: self._closed, timeout=RELISTEN)

    # -- private documents and snapshots --------------------------------------------------------
    def _private_table(self, name: str) -> tuple[sql.Composable, sql.Composable]:
        if not isinstance(name, str) or not _PRIVATE.match(name):
            raise UsageError(f"{name!r} is not a private document name")
        if name == "secret":
            return sql.SQL("secrets"), sql.SQL("")
        return sql.SQL("private_documents"), sql.SQL(" AND d.name = %(name)s")

    def store_private(self, name: str) -> dict | None:
        """A store-wide private document (table ``store_documents``), or None."""
        if not isinstance(name, str) or not _PRIVATE.match(name):
            raise UsageError(f"{name!r} is not a private document name")
        with self._pool.connection() as conn:
            row = conn.execute("SELECT document FROM store_documents WHERE name = %(name)s",
                               {"name": name}).fetchone()
        return None if row is None else row[0]

    def put_store_private(self, name: str, document: dict) -> dict:
        """Insert a store-wide private document unless one is there; the kept document."""
        if not isinstance(name, str) or not _PRIVATE.match(name):
            raise UsageError(f"{name!r} is not a private document name")
        with self._pool.connection() as conn:
            conn.execute("INSERT INTO store_documents (name, document) VALUES (%(name)s, %(doc)s) "
                         "ON CONFLICT (name) DO NOTHING", {"name": name, "doc": Jsonb(document)})
            row = conn.execute("SELECT document FROM store_documents WHERE name = %(name)s",
                               {"name": name}).fetchone()
        return row[0]

    def secret(self, game: str) -> dict | None:
        """The secret kept for ``game`` at creation, or None."""
        return self.private(game, "secret")

    def private(self, game: str, name: str) -> dict | None:
        """A private document (``"secret"`` is the secret), or None; UnknownGame."""
        self._check(game)
        table, where = self._private_table(name)
        query = sql.SQL("SELECT d.document FROM games g LEFT JOIN {} d ON d.game = g.id{} "
                        "WHERE g.id = %(game)s").format(table, where)
        with self._pool.connection() as conn:
            row = conn.execute(query, {"game": game, "name": name}).fetchone()
        if row is None:
            raise self._unknown(game)
        return row[0]

    def put_private(self, game: str, name: str, document: dict, *, replace: bool = False) -> None:
        """Keep a private document (committed when this returns); UsageError if it exists and
        not ``replace``; UnknownGame."""
        self._check(game)
        self._private_table(name)
        if name == "secret":
            query = ("INSERT INTO secrets (game, document) VALUES (%(game)s, %(doc)s) "
                     "ON CONFLICT (game) DO ")
        else:
            query = ("INSERT INTO private_documents (game, name, document) "
                     "VALUES (%(game)s, %(name)s, %(doc)s) ON CONFLICT (game, name) DO ")
        query += ("UPDATE SET document = EXCLUDED.document" if replace else "NOTHING")
        query += " RETURNING 1"
        try:
            with self._pool.connection() as conn:
                row = conn.execute(query, {"game": game, "name": name,
                                           "doc": Jsonb(document)}).fetchone()
        except pg_errors.ForeignKeyViolation:
            raise self._unknown(game) from None
        if row is None:
            raise UsageError(f"{game} already has {name}")

    def damage(self, game: str) -> list[dict]:
        """Nothing is ever torn in the database (an append is one statement): empty.  Asks
        the database only whether a game this store has not seen yet exists (UnknownGame);
        the store never removes a game."""
        if game not in self._hints:
            self.head(game)
        return []

    def acknowledge_aside(self, game: str, file: str, by: str) -> dict:
        """Nothing is ever set aside in the database: UsageError."""
        self.head(game)
        raise UsageError(f"{file!r} is not set aside from {game} (set aside: none)")

    def warnings(self) -> list[str]:
        """Nothing to say: who may read the database is the database's own business."""
        return []

    def snapshot(self, game: str) -> bytes | None:
        self._check(game)
        with self._pool.connection() as conn:
            row = conn.execute("SELECT data FROM snapshots WHERE game = %s", (game,)).fetchone()
        return None if row is None else bytes(row[0])

    def save_snapshot(self, game: str, data: bytes) -> None:
        """Keep ``data`` as the game's snapshot, replacing the last one."""
        self._check(game)
        try:
            with self._pool.connection() as conn:
                conn.execute("INSERT INTO snapshots (game, data) VALUES (%s, %s) "
                             "ON CONFLICT (game) DO UPDATE SET data = EXCLUDED.data, "
                             "saved = now()", (game, bytes(data)))
        except pg_errors.ForeignKeyViolation:
            raise self._unknown(game) from None


__all__ = ["POLL", "PostgresStore", "SchemaMismatch", "check_schema", "init", "migrations",
           "package_version", "safe_url", "schema_version", "upgrade"]
