"""Where game logs live: the one seam to storage.

:class:`~engine.store.protocol.EventStore` is the protocol every store implements (create,
append with an expected version, read after a sequence number, head, wait, private documents,
snapshots).  :class:`~engine.store.file.FileStore` (the embedded default) keeps one .devlog per
game in a folder; :class:`~engine.store.memory.MemoryStore` keeps the same bytes in memory;
:class:`~engine.store.postgres.PostgresStore` keeps them in a PostgreSQL database shared by
many nodes (imported on first use: psycopg is loaded only when a database is named).
:func:`open_store` picks one from a location.
"""

from .file import FileStore, new_game_id
from .protocol import Batch, DuplicateCommand, EventStore, Head


#: the location prefixes that name a PostgreSQL database
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_database_url(location: str) -> bool:
    """Whether ``location`` names a PostgreSQL database rather than a folder."""
    return isinstance(location, str) and location.lower().startswith(POSTGRES_SCHEMES)


def open_store(location: str) -> EventStore:
    """The store at ``location``: a ``postgresql://`` (or ``postgres://``) URL gives a
    :class:`~engine.store.postgres.PostgresStore` (UsageError if the database cannot be
    reached, SchemaMismatch if its schema needs ``devil db init`` / ``devil db upgrade``);
    anything else is a folder path (created on first write) for a FileStore."""
    if is_database_url(location):
        from .postgres import PostgresStore

        return PostgresStore(location)
    return FileStore(location)


def __getattr__(name: str):
    """``PostgresStore`` and ``MemoryStore`` are imported on first use: importing psycopg, or
    anything a cold `devil show` does not need, costs start-up time."""
    if name == "PostgresStore":
        from .postgres import PostgresStore

        return PostgresStore
    if name == "MemoryStore":
        from .memory import MemoryStore

        return MemoryStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Batch", "DuplicateCommand", "EventStore", "FileStore", "Head", "MemoryStore",
           "POSTGRES_SCHEMES", "PostgresStore", "is_database_url", "new_game_id", "open_store"]
