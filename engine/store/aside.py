"""The file store's damaged ends, set aside beside the log and never deleted (issue 9.1).

:class:`AsideMethods` is part of :class:`engine.store.file.FileStore`: an append that finds
bytes after the last complete command moves them to ``<game>.<time>-at-<offset>.aside``
(:meth:`AsideMethods._set_aside`), lists them in the game's private document ``"aside"``, and
every view reports them (:meth:`AsideMethods.damage`) until the referee acknowledges them
(:meth:`AsideMethods.acknowledge_aside`).
"""

from __future__ import annotations

import os
import secrets as _secrets
import time
from typing import Any, Callable

from ..errors import LogDamaged, UsageError
from .disk import _write_all


class AsideMethods:
    """The set-aside bytes of a :class:`engine.store.file.FileStore` (which gives ``root``,
    ``path``, ``private``, ``put_private``, ``_refresh`` and the ``_no_aside`` memo)."""

    root: str
    _no_aside: dict
    path: Callable[[str], str]
    private: Callable[[str, str], "dict | None"]
    put_private: Callable[..., None]
    _refresh: Callable[..., Any]

    def _set_aside(self, game: str, fd: int, good_end: int, size: int) -> None:
        """Move the bytes after the last complete command (``good_end`` to ``size``) out of the
        log into a file beside it, then shorten the log: nothing is ever deleted.

        The reader cannot tell a write cut short by a crash (never acknowledged) from the end
        of an acknowledged command that was damaged afterwards, so the bytes are kept, named
        with the time and the offset (``<game>.<UTC time>-at-<offset>.aside``, 0600), listed in
        the private document ``"aside"`` and reported in every view until the referee
        acknowledges them (:meth:`acknowledge_aside`).  Called under the log's flock."""
        tail = os.pread(fd, size - good_end, good_end)
        moment = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        name = f"{game}.{moment}-at-{good_end}.aside"
        path = os.path.join(self.root, name)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
        try:
            out = os.open(path, flags, 0o600)
        except FileExistsError:  # two in one second at one offset: keep both
            name = f"{game}.{moment}-at-{good_end}-{_secrets.token_hex(3)}.aside"
            path = os.path.join(self.root, name)
            out = os.open(path, flags, 0o600)
        try:
            _write_all(out, tail)
            os.fsync(out)
        finally:
            os.close(out)
        self._no_aside.pop(game, None)
        entries = self._aside_entries(game)
        entries.append({"file": name, "offset": good_end, "size": len(tail),
                        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                        "acknowledged": None})
        self.put_private(game, "aside", {"entries": entries}, replace=True)  # fsyncs the folder
        os.ftruncate(fd, good_end)
        os.fsync(fd)

    def _aside_entries(self, game: str) -> list[dict]:
        try:
            document = self.private(game, "aside") or {}
        except ValueError:
            document = {}
        entries = document.get("entries")
        if not isinstance(entries, list):
            return []
        return [dict(e) for e in entries if isinstance(e, dict)]

    def damage(self, game: str) -> list[dict]:
        """What the store could not read as records of ``game`` and a person should look at:
        bytes set aside and not yet acknowledged (``{"file", "offset", "size", "time",
        "acknowledged": None}``), and an unreadable tail still in the log (``{"file": None,
        "offset", "size"}``: a write in progress, or damage the next append sets aside)."""
        try:
            known = self._refresh(game)
        except LogDamaged:
            known = None  # damage the reader reports itself, at its record
        seen = None if known is None else known.seen
        if seen is not None and self._no_aside.get(game) == seen:
            # nothing set aside when the log last looked like this, and setting bytes aside
            # always shortens the log (a new identity): no read of the absent document
            return []
        out = [e for e in self._aside_entries(game) if not e.get("acknowledged")]
        if known is not None:
            if seen is not None:
                size = known.end  # _refresh's stat just saw the file end there
            else:
                try:
                    size = os.path.getsize(self.path(game))
                except OSError:
                    size = known.end
            if size > known.end:
                out.append({"file": None, "offset": known.end, "size": size - known.end,
                            "time": None, "acknowledged": None})
        if not out and seen is not None:
            self._no_aside[game] = seen
        else:
            self._no_aside.pop(game, None)
        return out

    def acknowledge_aside(self, game: str, file: str, by: str) -> dict:
        """Mark set-aside bytes as seen by the referee (``by``: who, free text); returns the
        entry.  UsageError for a file that is not one of ``game``'s set-aside files."""
        self._no_aside.pop(game, None)
        entries = self._aside_entries(game)
        for entry in entries:
            if entry["file"] == file:
                entry["acknowledged"] = {"by": by,
                                         "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
                self.put_private(game, "aside", {"entries": entries}, replace=True)
                return entry
        names = ", ".join(e["file"] for e in entries) or "none"
        raise UsageError(f"{file!r} is not set aside from {game} (set aside: {names})")
