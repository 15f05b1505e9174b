"""Files a command reads or writes: JSON read safely (engine.jsonsafe, bounded), a .devlog path
told from a game id, and the one policy for a file a command writes (refused if it exists,
unless ``--force``)."""

from __future__ import annotations

import os
from typing import Any

import click

from engine.errors import UsageError


def write_new(path: str, text: "str | bytes", force: bool) -> None:
    """Write ``text`` (or bytes) to ``path``; UsageError if it exists and not ``force`` (the
    one policy of every command that writes a file: export, audit --csv / --chart / --html,
    replay --html, tournament standings --csv / --html), or if it cannot be written (a file
    this call created is removed again)."""
    binary = isinstance(text, bytes)
    textual: dict[str, Any] = {} if binary else {"newline": "", "encoding": "utf-8"}
    try:
        handle = open(path, ("w" if force else "x") + ("b" if binary else ""), **textual)
    except FileExistsError:
        raise UsageError(f"{path} exists already; give a new file name or --force") from None
    except OSError as exc:  # no such folder, not allowed, a folder of that name ...
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with handle:
            handle.write(text)
    except OSError as exc:  # the disk filled up: leave no half-written file of ours
        if not force:
            os.unlink(path)
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


#: the largest JSON file a command reads (a --deal file)
MAX_JSON_FILE = 1024 * 1024


def read_json_text(data: "bytes | str", what: str, param_hint: str | None = None):
    """The JSON value in ``data`` read safely (engine.jsonsafe: UTF-8 only, bounded depth and
    digits, finite numbers); click.BadParameter naming ``what`` otherwise (exit 2)."""
    from engine.jsonsafe import loads

    try:
        return loads(data, what)
    except UsageError as exc:
        raise click.BadParameter(exc.message, param_hint=param_hint) from None


def read_json_file(path: str, param_hint: str | None = None):
    """The JSON value in the file at ``path`` (at most :data:`MAX_JSON_FILE` bytes), read as
    :func:`read_json_text` does; click.BadParameter if it cannot be read or is refused."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_JSON_FILE + 1)
    except OSError as exc:
        raise click.BadParameter(f"cannot read {path}: {exc.strerror}",
                                 param_hint=param_hint) from None
    if len(data) > MAX_JSON_FILE:
        raise click.BadParameter(f"{path} is larger than {MAX_JSON_FILE:,} bytes",
                                 param_hint=param_hint)
    return read_json_text(data, path, param_hint)


def log_file(source: str) -> str | None:
    """``source`` as a .devlog path: the path if it is an existing file, None if it is rather
    a game id; UsageError if it looks like a path (has a folder or ends in .devlog) but no
    such file exists."""
    if os.path.isfile(source):
        return source
    if os.sep in source or source.endswith(".devlog"):
        raise UsageError(f"no such file: {source}")
    return None
