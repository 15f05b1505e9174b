"""The stores every contract test runs against.

A store kind is a :class:`StoreKind`: how to make an empty store, how to open the same store
again as another process would (another instance with its own caches), and how to append from
elsewhere (another process where the store can be shared between processes).  Adding a store
(PostgreSQL) is adding one entry to :func:`store_kinds`.
"""

from __future__ import annotations

import multiprocessing
import threading

import pytest

from engine.store import FileStore, MemoryStore


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
        process = multiprocessing.get_context("spawn").Process(
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


def store_kinds() -> list[StoreKind]:
    """Every store the contract suite runs against."""
    return [FileKind(), MemoryKind()]


@pytest.fixture(params=store_kinds(), ids=lambda kind: kind.name)
def kind(request) -> StoreKind:
    return request.param


@pytest.fixture
def store(kind, tmp_path):
    return kind.make(tmp_path)
