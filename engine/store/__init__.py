"""Where game logs live: the one seam to storage.

:class:`~engine.store.protocol.EventStore` is the protocol every store implements (create,
append with an expected version, read after a sequence number, head, wait, private documents,
snapshots).  :class:`~engine.store.file.FileStore` (the embedded default) keeps one .devlog per
game in a folder; :class:`~engine.store.memory.MemoryStore` keeps the same bytes in memory.
:func:`open_store` picks one from a location.
"""

from .file import FileStore, new_game_id
from .memory import MemoryStore
from .protocol import Batch, DuplicateCommand, EventStore, Head


def open_store(location: str) -> EventStore:
    """The store at ``location``: a folder path (created on first write) for a FileStore."""
    return FileStore(location)


__all__ = ["Batch", "DuplicateCommand", "EventStore", "FileStore", "Head", "MemoryStore",
           "new_game_id", "open_store"]
