"""The Content-Security-Policy of every page ``devil serve`` serves (issue 25.8), and the headers
no page goes without.

A page's scripts are inline (its file must open offline, with no request), so the policy allows
exactly those scripts by their SHA-256 hashes, worked out from the scripts the server itself
put in the page (page.js, a live page's poll), never from the response: an injected script
has no hash in the policy and does not run.  Nothing else may load (``default-src 'none'``);
styles are inline (``'unsafe-inline'``: a style cannot run code); a page may ask its own server
for data only when it has to (``connect-src 'self'``); no page may be framed, and no page sends
a Referer (a token lives in the address's fragment, which is never sent, but belt and braces).

:class:`PageHeaders` (mounted by engine.web.app.create_app) adds to every HTML answer that has
no policy of its own the strictest one (no script at all), and ``Referrer-Policy:
no-referrer`` and ``X-Content-Type-Options: nosniff`` to every answer.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Iterable

#: the headers every answer carries (the pages' and the API's alike)
ALWAYS = {"referrer-policy": "no-referrer", "x-content-type-options": "nosniff"}


def source_hash(script: str) -> str:
    """The CSP source of one inline script: ``'sha256-<base64 of SHA-256 of its UTF-8 text>'``;
    ``script`` is exactly the text between ``<script>`` and ``</script>``."""
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def script_body(element: str) -> str:
    """The text of a ``<script>...</script>`` element as written (e.g.
    engine.tournament.printing.live_script's), for :func:`source_hash`.  ValueError for
    anything else."""
    start, end = "<script>", "</script>"
    if not (element.startswith(start) and element.endswith(end)):
        raise ValueError("not one <script> element without attributes")
    return element[len(start):-len(end)]


def policy(scripts: Iterable[str] = (), connect: bool = False, meta: bool = False) -> str:
    """The policy of a page whose inline scripts are ``scripts`` (their texts; none: no script
    may run).  ``connect``: the page fetches from its own server (``connect-src 'self'``);
    ``meta``: for a ``<meta http-equiv>`` element (a file's copy), which cannot say
    ``frame-ancestors``."""
    hashes = sorted({source_hash(text) for text in scripts})
    parts = ["default-src 'none'", "script-src " + (" ".join(hashes) or "'none'"),
             "style-src 'unsafe-inline'", "img-src data:",
             "connect-src " + ("'self'" if connect else "'none'"),
             "base-uri 'none'", "form-action 'none'"]
    if not meta:
        parts.append("frame-ancestors 'none'")
    return "; ".join(parts)


def page_headers(scripts: Iterable[str] = (), connect: bool = False) -> dict[str, str]:
    """The headers of a served page: its :func:`policy`, no caching (a page may hold a game's
    data), no framing, no Referer, no sniffing."""
    return {"Content-Security-Policy": policy(scripts, connect), "Cache-Control": "no-store",
            "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
            "X-Content-Type-Options": "nosniff"}


#: :data:`ALWAYS` as ASGI header pairs
_ALWAYS_RAW = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in ALWAYS.items()]
_HTML_RAW = [(b"content-security-policy", policy().encode("latin-1")),
             (b"x-frame-options", b"DENY")]


def finish_headers(headers: list) -> list:
    """An answer's ASGI ``headers`` (``[(name, value)]``, bytes) with :data:`ALWAYS` added where
    it has not set them, and for an HTML answer without a Content-Security-Policy the
    strictest :func:`policy` and ``X-Frame-Options: DENY``: a new list, the added headers
    last, in that order (what :class:`PageHeaders` sends; engine.web.hot sends the same)."""
    have = set()
    kind = None
    for name, value in headers:
        lowered = name.lower()
        have.add(lowered)
        if kind is None and lowered == b"content-type":
            kind = value  # the first one, as a browser reads it
    extra = _ALWAYS_RAW + (_HTML_RAW if kind and kind.startswith(b"text/html") else [])
    return list(headers) + [(name, value) for name, value in extra if name not in have]


class PageHeaders:
    """ASGI middleware: every answer gets :data:`ALWAYS` where it has not set them, and every
    HTML answer without a Content-Security-Policy gets :func:`policy` (no script at all) and
    ``X-Frame-Options: DENY``, so a page that forgot its policy runs no script rather than
    any (:func:`finish_headers`)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message):
            if message["type"] == "http.response.start":
                message = dict(message, headers=finish_headers(message.get("headers", [])))
            await send(message)

        await self.app(scope, receive, sending)
