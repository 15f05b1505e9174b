"""Players files (``devil tournament new --players-file FILE``; docs/tournaments.md, "Players
files").

Two forms, told apart by the first line that is neither blank nor a comment:

* **CSV with a header**: that line has a comma and a ``name`` column (any case), or is just
  ``name``.  Every later line is a row of exactly the header's columns (RFC 4180 quoting); the
  ``name`` column is the player's name, every other column (club, rating, ...) is kept as the
  player's attribute, as text, and recorded with the registration.
* **One name a line**: anything else.  A line with a comma is refused there (it would be a
  CSV row whose columns have no header).

In both: UTF-8, a byte-order mark at the start accepted and ignored (spreadsheets write one),
blank lines and lines whose first character is ``#`` skipped, names checked as every
registration is (engine.tournament.rules.check_name), and two lines naming the same player,
ignoring case, refused naming both lines.  Every error is a UsageError naming the file and
the line; nothing is registered.
"""

from __future__ import annotations

import csv
import os
import stat

from ..errors import UsageError
from .rules import MAX_COLUMN, MAX_COLUMNS, MAX_VALUE, check_name

#: the largest players file read (bytes)
MAX_BYTES = 1024 * 1024


def read_file(path: str) -> "Players":
    """The players of the players file at ``path``: ``(names, attributes)`` as :func:`parse`
    gives them.  Only a regular file is read (a FIFO would wait for ever), at most
    :data:`MAX_BYTES`; UsageError otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise UsageError(f"cannot read the players file {path}: {exc.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UsageError(f"the players file {path} is not a regular file")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"cannot read the players file {path}: {exc.strerror}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        raise UsageError(f"the players file {path} is larger than {MAX_BYTES:,} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise UsageError(f"{path} line {line}: not UTF-8 text (save the players file as "
                         "UTF-8)") from None
    return parse(text, path)


def _lines(text: str):
    """``(number, line)`` of every line that is neither blank nor a comment."""
    if text.startswith("\ufeff"):
        text = text[1:]
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            yield number, line


def _cells(line: str, where: str) -> list[str]:
    try:
        rows = list(csv.reader([line], strict=True))
    except csv.Error as exc:
        raise UsageError(f"{where}: not a CSV row ({exc})") from None
    return [cell.strip() for cell in rows[0]] if rows else []


def is_header(line: str) -> bool:
    """Whether ``line`` (the first that is neither blank nor a comment) is a CSV header: it
    has a comma and a ``name`` column (any case), or it is just ``name``."""
    if line.strip().casefold() == "name":
        return True
    if "," not in line:
        return False
    try:
        cells = next(csv.reader([line]), [])
    except csv.Error:
        return False
    return any(cell.strip().casefold() == "name" for cell in cells)


def _header(line: str, where: str) -> tuple[int, list[str]]:
    """The index of the ``name`` column and the header's column names."""
    columns = _cells(line, where)
    seen: dict[str, int] = {}
    for index, column in enumerate(columns, 1):
        if not column:
            raise UsageError(f"{where}: column {index} of the header has no name")
        if len(column) > MAX_COLUMN or not column.isprintable():
            raise UsageError(f"{where}: a column's name is 1 to {MAX_COLUMN} printable "
                             f"characters, not {column!r}")
        key = column.casefold()
        if key in seen:
            raise UsageError(f"{where}: the header names column {column!r} twice (columns "
                             f"{seen[key]} and {index})")
        seen[key] = index
    if len(columns) - 1 > MAX_COLUMNS:
        raise UsageError(f"{where}: at most {MAX_COLUMNS} columns besides name")
    return seen["name"] - 1, columns


Players = tuple[list[str], dict[str, dict[str, str]]]


def parse(text: str, source: str = "the players file") -> Players:
    """The players of a players file's ``text`` (see the module doc): their names in file
    order and ``{name: {column: value}}`` of their attributes (a CSV's columns besides
    ``name``, in the header's order, an empty cell as ""; an empty map for a file of one
    name a line).  UsageError
    naming ``source`` and the line for anything else."""
    lines = list(_lines(text))
    names: list[str] = []
    attributes: dict[str, dict[str, str]] = {}
    first_line: dict[str, tuple[int, str]] = {}
    header = None
    if lines and is_header(lines[0][1]):
        header = _header(lines[0][1], f"{source} line {lines[0][0]}")
        lines = lines[1:]
    for number, line in lines:
        where = f"{source} line {number}"
        extra: dict[str, str]
        if header is None:
            if "," in line:
                raise UsageError(f"{where}: {line.strip()!r} has a comma, but the file has no "
                                 "header: a CSV players file starts with a header row naming "
                                 "its columns, one of them name (e.g. name,club,rating); "
                                 "otherwise give one name a line")
            raw, extra = line, {}
        else:
            at, columns = header
            cells = _cells(line, where)
            if len(cells) != len(columns):
                count = f"{len(cells)} column" + ("" if len(cells) == 1 else "s")
                raise UsageError(f"{where}: {count}; the header has {len(columns)} "
                                 f"({','.join(columns)})")
            raw = cells[at]
            extra = {}
            for index, (column, value) in enumerate(zip(columns, cells)):
                if index == at:
                    continue
                if len(value) > MAX_VALUE or not value.isprintable():
                    raise UsageError(f"{where}: {column} is at most {MAX_VALUE} printable "
                                     f"characters, not {value!r}")
                extra[column] = value
        try:
            name = check_name(raw)
        except UsageError as exc:
            raise UsageError(f"{where}: {exc.message}") from None
        key = name.casefold()
        if key in first_line:
            before, other = first_line[key]
            raise UsageError(f"{source}: line {before} ({other}) and line {number} ({name}) "
                             "name the same player (names are compared ignoring case; "
                             "TOUR-1.1)")
        first_line[key] = (number, name)
        names.append(name)
        if extra:
            attributes[name] = extra
    return names, attributes


def merge(given: list[str], names: list[str], source: str) -> list[str]:
    """The ``--player`` names ``given`` followed by a file's ``names``; UsageError when one of
    each names the same player ignoring case (the rules refuse only exact repeats)."""
    seen = {n.casefold(): n for n in given}
    for name in names:
        if name.casefold() in seen:
            raise UsageError(f"--player {seen[name.casefold()]} and {name} of {source} name the "
                             "same player (names are compared ignoring case; TOUR-1.1)")
    return list(given) + list(names)
