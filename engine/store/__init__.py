"""Where game logs live.

:class:`engine.store.file.FileStore` (the embedded default) keeps one .devlog per game in a
folder.  A store gives the service three things: create a stream, read a stream (no lock), and
an exclusive session on a stream in which the caller reads the current records, decides, and
appends with an expected version (optimistic concurrency).
"""

from .file import FileStore, StreamSession

__all__ = ["FileStore", "StreamSession"]
