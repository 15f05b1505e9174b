"""The service's JSON out: every answer's body and every event-stream frame (issue 21).

``json.dumps`` was about 8% of the server's time at 10 clients (the answer of every command
with its view, one frame per event per watcher).  Where orjson installs (a dependency: it has
wheels for the platforms uvicorn's httptools has), it writes the same text in C; otherwise,
or for a value it does not write (an integer past 64 bits, a map key that is not text), the
standard library does, as Starlette's ``JSONResponse`` did: compact (``,`` and ``:``), UTF-8
rather than ``\\u`` escapes, keys in insertion order, no NaN.  The two agree byte for byte on
what the service answers (text, integers, booleans, None, lists and maps of them;
tests/service/test_jsonout.py); a float may be written in another exponent form (``1e-7``,
``1e-07``), the same number, and orjson writes NaN and infinity (which the service never
answers: no float it keeps is computed) as ``null`` where the standard library refuses them.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.responses import JSONResponse as _StarletteJSON

try:  # pragma: no branch - one or the other on a given machine
    import orjson as _orjson
except ImportError:  # pragma: no cover - orjson is a dependency; kept working without it
    _orjson = None  # type: ignore[assignment]  # the fallback below

def _stdlib(content: Any) -> bytes:
    return json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode("utf-8")


if _orjson is not None:
    _write = _orjson.dumps

    def dumps_bytes(content: Any) -> bytes:
        """``content`` (JSON-able: str, int, bool, None, float, lists/tuples and maps of them)
        as compact UTF-8 JSON bytes.  Raises TypeError for what JSON cannot hold, as
        ``json.dumps`` does."""
        try:
            return _write(content)
        except TypeError:  # a big integer, a non-text key ...: the standard library's answer
            return _stdlib(content)
else:  # pragma: no cover - without orjson
    dumps_bytes = _stdlib


def dumps(content: Any) -> str:
    """``content`` as compact JSON text (:func:`dumps_bytes`, decoded)."""
    return dumps_bytes(content).decode("utf-8")


class JSONResponse(_StarletteJSON):
    """Starlette's JSONResponse (same status, headers and media type), its body written by
    :func:`dumps_bytes`."""

    def render(self, content: Any) -> bytes:
        return dumps_bytes(content)
