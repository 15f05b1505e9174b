"""The file store: one ``<game>.devlog`` per game in a folder (the embedded default).

* Appends happen inside :meth:`FileStore.session`, which holds an exclusive ``flock`` on the
  log, cuts a torn tail (the only place a file is ever shortened), and checks the expected
  version, so two processes submitting to one game never lose or duplicate an event.
* Reads (:meth:`FileStore.read`) take no lock and ignore a torn tail still being written.
* A digital game's secret seed sits beside its log in ``<game>.secret`` (mode 0600) until the
  game's last event reveals it; it is never part of the log.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets as _secrets
from typing import Iterator

from ..errors import ConcurrencyConflict, UnknownGame, UsageError
from ..log import LogWriter, Record, Scan, _fsync_dir, read_path, scan

_GAME_ID = re.compile(r"^[a-z]+-[a-z0-9]{4,32}$")
_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # no l, o, 0, 1: easy to read aloud


def new_game_id(kind: str) -> str:
    """A fresh id such as ``atkr-k3f9qz``."""
    return f"{kind}-" + "".join(_secrets.choice(_ALPHABET) for _ in range(6))


class StreamSession:
    """An exclusive hold on one game's log.  ``records`` are the good records (torn tail cut)."""

    def __init__(self, writer: LogWriter, result: Scan):
        self.writer = writer
        self.header = result.header
        self.records: list[Record] = result.records
        self.cut = result.torn

    @property
    def version(self) -> int:
        """The sequence number of the last record (0: header only)."""
        return self.writer.last_seq

    def append(self, expected_version: int, actor: int, cmd: str | None, events: list[dict],
               ts: int | None = None) -> list[Record]:
        """Append one command's events (tagged maps) durably.

        Raises :class:`ConcurrencyConflict` if the stream is not at ``expected_version``.
        """
        if expected_version != self.writer.last_seq:
            raise ConcurrencyConflict(f"the game moved on (version {self.writer.last_seq}, "
                                      f"expected {expected_version}); read it again")
        new = self.writer.append(actor, cmd, events, ts)
        self.records.extend(new)
        return new


class FileStore:
    """A folder of .devlog files.  ``root`` is created on first write."""

    def __init__(self, root: str):
        self.root = os.path.abspath(os.path.expanduser(str(root)))

    def path(self, game: str) -> str:
        """The .devlog path of ``game``; UsageError for an id that is not well-formed."""
        if not _GAME_ID.match(game):
            raise UsageError(f"{game!r} is not a game id (ids look like atkr-k3f9qz)")
        return os.path.join(self.root, f"{game}.devlog")

    def exists(self, game: str) -> bool:
        return os.path.exists(self.path(game))

    def games(self) -> list[str]:
        """Every game id in the store, oldest first."""
        if not os.path.isdir(self.root):
            return []
        names = [n for n in os.listdir(self.root) if n.endswith(".devlog")]
        paths = sorted(names, key=lambda n: os.path.getmtime(os.path.join(self.root, n)))
        return [n[: -len(".devlog")] for n in paths if _GAME_ID.match(n[: -len(".devlog")])]

    def resolve(self, text: str) -> str:
        """The game id ``text`` names: an exact id, or at least 3 characters that begin or end
        exactly one id, or begin the part after its dash (``k3f``, ``9qz``, ``atkr-k3`` for
        ``atkr-k3f9qz``).  UnknownGame when none or several match."""
        if not text:
            raise UsageError("name a game: its id, or a unique beginning or end of it")
        if _GAME_ID.match(text) and self.exists(text):
            return text
        if len(text) < 3:
            raise UnknownGame(f"{text!r} is too short to name a game: give its id, or at least "
                              "3 characters of its beginning or end (see `devil games`)")
        matches = [g for g in self.games()
                   if g.startswith(text) or g.endswith(text) or g.partition("-")[2].startswith(text)]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise UnknownGame(f"no game {text!r} in {self.root} (see `devil games`)")
        raise UnknownGame(f"{text!r} matches several games: {', '.join(matches)}")

    def create(self, kind: str, game: str, actor: int, events: list[dict],
               secret: dict | None = None) -> list[Record]:
        """Create ``game``'s log with its first events; keep ``secret`` (the seed) beside it."""
        os.makedirs(self.root, exist_ok=True)
        path = self.path(game)
        if secret is not None:
            secret_path = os.path.join(self.root, f"{game}.secret")
            fd = os.open(secret_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as handle:
                json.dump(secret, handle)
                handle.flush()
                os.fsync(handle.fileno())
        # the header and the first events go to a temporary file, which is linked into place
        # only when complete: a game either exists whole or not at all
        temporary = os.path.join(self.root, f".{game}.{os.getpid()}.creating")
        try:
            writer = LogWriter.create(temporary, kind, game)
            try:
                records = writer.append(actor, None, events)
            finally:
                os.close(writer.fd)
            os.link(temporary, path)  # fails if the game exists: never overwrite a log
            _fsync_dir(self.root)
        except BaseException:
            if secret is not None:
                _remove(os.path.join(self.root, f"{game}.secret"))
            raise
        finally:
            _remove(temporary)
        return records

    def secret(self, game: str) -> dict | None:
        """The secret kept for ``game`` (``{"seed", "salt"}``), or None."""
        try:
            with open(os.path.join(self.root, f"{game}.secret")) as handle:
                data = json.load(handle)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            return data
        except FileNotFoundError:
            return None

    def read(self, game: str) -> Scan:
        """Every good record of ``game`` (no lock; a torn tail is ignored, not cut)."""
        path = self.path(game)
        if not os.path.exists(path):
            raise UnknownGame(f"no game {game!r} in {self.root} (see `devil games`)")
        return read_path(path)

    @contextlib.contextmanager
    def session(self, game: str) -> Iterator[StreamSession]:
        """An exclusive session on ``game``'s log (see :class:`StreamSession`)."""
        path = self.path(game)
        try:
            fd = os.open(path, os.O_RDWR | os.O_APPEND)
        except FileNotFoundError:
            raise UnknownGame(f"no game {game!r} in {self.root} (see `devil games`)") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            data = _read_all(fd)
            writer, result = LogWriter.open(fd, path, data)
            yield StreamSession(writer, result)
        finally:
            os.close(fd)  # releases the lock


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


__all__ = ["FileStore", "StreamSession", "new_game_id", "scan"]
