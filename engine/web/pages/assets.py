"""The live pages' static files and headers, in one place (issue 25.6, 25.8): the seat's and the
spectator's page (engine.web.pages.table), the referee's page (engine.web.pages.referee) and the
auto-pass module (engine.web.autopass) are served from the package by :func:`file_answer` and
:func:`page_answer`, every answer with :data:`HEADERS`.  No build step, no CDN: the files are
the package's own, plain ES modules and CSS.
"""

from __future__ import annotations

import re
from importlib import resources

from starlette.responses import Response

from ..errors import ApiError

#: the pages' Content-Security-Policy: this origin's files and API, nothing inline, no frames
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
       "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")

#: the headers of every live page and file: the policy, no caching, no referrer, no sniffing,
#: no framing
HEADERS = {"Content-Security-Policy": CSP, "Cache-Control": "no-store",
           "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff",
           "X-Frame-Options": "DENY"}

_JS = "text/javascript; charset=utf-8"
_CSS = "text/css; charset=utf-8"

#: a kind's own drawing module beside table.js (``table_<kind>.js``, loaded by table.js when the
#: kind's catalogue entry names it as its ``module``)
KIND_MODULE = re.compile(r"^table_[a-z0-9]+\.js$")


def asset(*parts: str) -> bytes:
    """The bytes of a file of this package (``parts``: its path below engine/web/pages).
    OSError if there is none."""
    return resources.files(__package__).joinpath(*parts).read_bytes()


def kind_modules() -> list[str]:
    """The kinds' drawing modules shipped beside table.js (``table_<kind>.js``), sorted."""
    folder = resources.files(__package__)
    return sorted(entry.name for entry in folder.iterdir() if KIND_MODULE.match(entry.name))


#: every static file of the live pages: name -> media type.  words.js is the one module the
#: seat's page and the referee's page share (the catalogue's words, the API, the controls).
FILES = {"table.js": _JS, "table.css": _CSS, "words.js": _JS, "autopass.js": _JS,
         "referee.js": _JS, "referee.css": _CSS,
         **{name: _JS for name in kind_modules()}}


def file_answer(name: str) -> Response:
    """The answer for ``GET /pages/{name}``: the file with its media type and :data:`HEADERS`.
    ApiError 404 (naming the files there are) for any other name."""
    if name not in FILES:
        raise ApiError(404, f"no page file {name!r} (there are: {', '.join(sorted(FILES))})")
    return Response(asset(name), media_type=FILES[name], headers=HEADERS)


def page_answer(name: str) -> Response:
    """A page's HTML (``name``: table.html, referee.html), holding no game data, with
    :data:`HEADERS`."""
    return Response(asset(name), media_type="text/html; charset=utf-8", headers=HEADERS)
