"""The stores every contract test runs against.

A store kind is a :class:`StoreKind`: how to make an empty store, how to open the same store
again as another process would (another instance with its own caches), and how to append from
elsewhere (another process where the store can be shared between processes).  Adding a store
is adding one entry to :func:`store_kinds`.

The PostgreSQL kind runs on the session's throwaway cluster (tests/pg.py): every ``make`` is a
new database, every ``again`` a new PostgresStore with its own pool (another node).  Without
PostgreSQL's binaries (or with ``DEVIL_TEST_NO_POSTGRES=1``) its tests are skipped, and under
CI (``CI=true``) fail (tests/pg.py, tests/needs.py).
"""

from __future__ import annotations

import threading

import pytest

from engine.store import FileStore, MemoryStore
from tests import pg, procs


def _append_in_process(root: str, game: str, delay: float) -> None:
    import time

    time.sleep(delay)
    store = FileStore(root)
    store.append(game, store.head(game).seq, 0, "elsewhere", [{"type": "from_afar"}])


class StoreKind:
    """One implementation of the EventStore protocol, as the contract tests use it."""

    name = "?"
    #: whether separate instances (separate processes) share the streams
    shared = True

    def make(self, tmp_path):
        raise NotImplementedError

    def again(self, store):
        """Another instance on the same streams (as another process would open it)."""
        raise NotImplementedError

    def append_elsewhere(self, store, game: str, delay: float):
        """Append one command ``{"type": "from_afar"}`` (command id "elsewhere") after
        ``delay`` seconds from another process if possible, else another thread; returns
        something with ``join()``."""
        raise NotImplementedError


class FileKind(StoreKind):
    name = "file"

    def make(self, tmp_path):
        return FileStore(str(tmp_path / "store"))

    def again(self, store):
        return FileStore(store.root)

    def append_elsewhere(self, store, game, delay):
        process = procs.context().Process(
            target=_append_in_process, args=(store.root, game, delay))
        process.start()
        return process


class MemoryKind(StoreKind):
    name = "memory"
    shared = False

    def make(self, tmp_path):
        return MemoryStore()

    def again(self, store):
        return store  # one process: the same instance

    def append_elsewhere(self, store, game, delay):
        def run():
            import time

            time.sleep(delay)
            store.append(game, store.head(game).seq, 0, "elsewhere", [{"type": "from_afar"}])
        thread = threading.Thread(target=run)
        thread.start()
        return thread


def _append_in_pg(url: str, game: str, delay: float) -> None:
    import time

    from engine.store.postgres import PostgresStore

    with PostgresStore(url, pool_size=1) as store:
        time.sleep(delay)
        store.append(game, store.head(game).seq, 0, "elsewhere", [{"type": "from_afar"}])


#: every PostgresStore the tests opened, closed after each test (their pools hold connections)
_opened: list = []


def open_pg(url: str, **options):
    """A PostgresStore on ``url``, closed when the current test ends."""
    from engine.store.postgres import PostgresStore

    store = PostgresStore(url, **options)
    _opened.append(store)
    return store


class PostgresKind(StoreKind):
    name = "postgres"

    def make(self, tmp_path):
        return open_pg(pg.fresh_database())

    def again(self, store):
        return open_pg(store.url)

    def append_elsewhere(self, store, game, delay):
        process = procs.context().Process(
            target=_append_in_pg, args=(store.url, game, delay))
        process.start()
        return process


def store_kinds() -> list[StoreKind]:
    """Every store that can run here (PostgreSQL where its server programs are,
    tests/pg.py's ``available``): the stores a test comparing them all compares."""
    kinds = [FileKind(), MemoryKind()]
    if pg.available():
        kinds.append(PostgresKind())
    return kinds


def _kind_params() -> list:
    """Every store the contract suite runs against: the PostgreSQL one's tests skip (or under
    CI fail) where PostgreSQL is missing, when they make their store."""
    return [pytest.param(kind, id=kind.name)
            for kind in (FileKind(), MemoryKind(), PostgresKind())]


@pytest.fixture(autouse=True)
def _close_pg_stores():
    yield
    while _opened:
        _opened.pop().close()


@pytest.fixture(params=_kind_params())
def kind(request) -> StoreKind:
    return request.param


@pytest.fixture
def store(kind, tmp_path):
    return kind.make(tmp_path)
