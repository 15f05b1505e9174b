"""One safe way to read JSON from outside: a --deal file, ``devil submit COMMAND``, an HTTP
request body.

:func:`loads` refuses, with a :class:`engine.errors.UsageError` that says what is wrong (never
another exception), input that is not UTF-8 (binary bytes, UTF-16 or UTF-32), not JSON,
nested deeper than :data:`MAX_DEPTH` (checked before parsing and without recursion, so a
100,000-deep document cannot exhaust Python's stack), a number with more than
:data:`MAX_DIGITS` digits (Python's own limit on converting text to int), a number that is not
finite (``NaN``, ``Infinity``, ``1e999``), and a string holding a lone surrogate (``"\\ud800"``:
it cannot be written to a log).  A UTF-8 byte order mark is allowed and skipped.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from .errors import UsageError

#: the deepest nesting of arrays and objects accepted (far below Python's recursion limit)
MAX_DEPTH = 200
#: the most digits a number may have (Python refuses to convert longer text to an int)
MAX_DIGITS = 4300

#: a string (an unterminated one runs to the end, so the scan stays linear) or a bracket
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"a number has {len(text.lstrip('-')):,} digits (at most "
                       f"{MAX_DIGITS:,})")
    return int(text)


def _float(text: str) -> float:
    mantissa = text.lstrip("-").split("e")[0].split("E")[0]
    if len(mantissa) > MAX_DIGITS + 1:
        raise _Refused(f"a number has {len(mantissa):,} digits (at most {MAX_DIGITS:,})")
    number = float(text)
    if not math.isfinite(number):
        raise _Refused(f"the number {text[:40]} is too large (not finite)")
    return number


def _constant(text: str):
    raise _Refused(f"{text} is not a number JSON allows")


class _Refused(Exception):
    """Raised inside the parser's hooks; turned into UsageError by :func:`loads`."""


def depth(text: str, limit: int | None = None) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (strings skipped), counted
    in one linear pass without recursion; stops once it passes ``limit``."""
    deepest = level = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            level += 1
            if level > deepest:
                deepest = level
                if limit is not None and deepest > limit:
                    break
        elif token in ("]", "}"):
            level -= 1
    return deepest


def _check_strings(data: Any, what: str) -> None:
    """UsageError if any string (or key) in ``data`` cannot be encoded as UTF-8 (a lone
    surrogate such as ``"\\ud800"``); walks without recursion."""
    todo = [data]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise UsageError(f"{what} holds a lone surrogate escape ({item[:20]!r}): not "
                                 "text") from None
        elif isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)


def loads(data: "bytes | str", what: str = "the input") -> Any:
    """The JSON value in ``data`` (UTF-8 bytes or text); UsageError naming ``what`` for anything
    the module docstring lists."""
    if isinstance(data, (bytes, bytearray)):
        data = bytes(data)
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        if b"\0" in data or data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            raise UsageError(f"{what} is not UTF-8 JSON (binary, UTF-16 or UTF-32 bytes)")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UsageError(f"{what} is not UTF-8 JSON (byte {exc.start} is not UTF-8)"
                             ) from None
        surrogates = "\\u" in text  # decoded UTF-8 holds none but what an escape writes
    else:
        text = data
        if "\0" in text:
            raise UsageError(f"{what} is not JSON (it holds a NUL character)")
        surrogates = True
    # the checks in C first: fewer brackets than the limit cannot nest deeper than it, and
    # text shorter than MAX_DIGITS holds no longer number (a command's body is both)
    if text.count("[") + text.count("{") > MAX_DEPTH and depth(text, MAX_DEPTH) > MAX_DEPTH:
        raise UsageError(f"{what} is nested more than {MAX_DEPTH} deep (arrays or objects "
                         "within each other)")
    try:
        if text.startswith("\ufeff"):  # json.loads's own refusal of a second BOM
            value = json.loads(text, parse_int=_int, parse_float=_float,
                               parse_constant=_constant)
        else:
            value = (_SHORT if len(text) <= MAX_DIGITS else _LONG).decode(text)
    except _Refused as exc:
        raise UsageError(f"{what}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{what} is not JSON ({exc})") from None
    except (ValueError, RecursionError) as exc:  # pragma: no cover - the checks above come first
        raise UsageError(f"{what} is not JSON ({exc})") from None
    if surrogates:
        _check_strings(value, what)
    return value


#: the decoders of :func:`loads` (one each, not one a call): every number checked, or for
#: text too short to hold a number of more than MAX_DIGITS digits, only the floats
_LONG = json.JSONDecoder(parse_int=_int, parse_float=_float, parse_constant=_constant)
_SHORT = json.JSONDecoder(parse_float=_float, parse_constant=_constant)
