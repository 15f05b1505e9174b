"""The verify page (issue 20.8, ``devil verify FILE --html OUT.html``): one self-contained HTML
file that re-checks a recorded game in the browser, with no server and no network.

The page holds the log's bytes (base64, in a data block that never runs) and one inline
script, allowed by its SHA-256 hash in the page's own Content-Security-Policy
(engine.web.csp, ``<meta>``), made of plain ES files concatenated in this order:

* ``crypto.js``: SHA-256 (FIPS 180-4) and BLAKE2b (RFC 7693), no crypto.subtle (a file://
  page may not be a secure context);
* ``msgpack.js``: a msgpack decoder reading as the Python reader does;
* ``devlog.js``: the record walk of engine.log.scan (header, hash chain, torn tail);
* ``chance.js``: engine.chance's commitment, the mixed seed, randbelow / shuffled / pick;
* each registered kind's ``engine/games/<kind>/chance.js`` (the one place a kind's chance is
  ported to JS: the draws re-derived from the seed);
* ``verify.js``: the checks in ``devil verify``'s order and the page's words.

The page also shows ``devil verify``'s own verdict (given here, computed by the caller) next
to its own, each labelled.  What the page checks and what it does not: docs/trust.md.
"""

from __future__ import annotations

import base64
import json
import re
from html import escape
from importlib import resources

#: the shared scripts, in the order they are put into the page (the kinds' come before the last)
SHARED = ("crypto.js", "msgpack.js", "devlog.js", "chance.js")
LAST = "verify.js"
#: the element holding the log's bytes (base64) and the one holding the Python verdict
LOG_ID = "devil-log"
PYTHON_ID = "devil-python"


def _asset(name: str) -> str:
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8")


def kind_scripts() -> list[tuple[str, str]]:
    """``[(kind, text of engine/games/<kind>/chance.js)]`` for every registered kind that has
    one (engine.games.KINDS order)."""
    from ....games import KINDS

    out = []
    for kind in KINDS:
        path = resources.files(f"engine.games.{kind}").joinpath("chance.js")
        if path.is_file():
            out.append((kind, path.read_text(encoding="utf-8")))
    return out


def page_kinds() -> list[str]:
    """The kinds whose draws the page re-derives (those with a ``chance.js``)."""
    return [kind for kind, _text in kind_scripts()]


def page_script() -> str:
    """The page's one script: the shared files, every kind's ``chance.js``, ``verify.js``
    (its text is what the page's Content-Security-Policy hashes)."""
    parts = [_asset(name) for name in SHARED]
    parts += [text for _kind, text in kind_scripts()]
    parts.append(_asset(LAST))
    text = "\n".join(parts)
    if "</script" in text.lower():  # pragma: no cover - a file that would end the element
        raise ValueError("a verify script holds '</script'")
    return text


def python_verdict(result) -> dict:
    """What the page shows as ``devil verify``'s verdict, from an engine.replay.Verification:
    ``{"ok", "finished", "first_bad_seq", "reason", "checks", "kind", "game", "events"}``."""
    return {"ok": bool(result.ok), "finished": bool(result.finished),
            "first_bad_seq": result.first_bad_seq, "reason": result.reason,
            "checks": list(result.checks), "kind": result.kind, "game": result.game,
            "events": result.events}


def verify_html(data: bytes, verdict: dict, title: str, sub: str = "") -> str:
    """The verify page of the .devlog ``data`` (its bytes, any length), with ``verdict``
    (:func:`python_verdict`) shown as ``devil verify``'s, titled ``title`` (``sub``: a line
    under it, e.g. the file's name).  No request of any kind when opened."""
    from .. import script_json
    from ...csp import policy
    from ....desk.events import DESK_TYPES

    js = page_script()
    info = {"python": verdict, "desk_types": sorted(DESK_TYPES)}
    blocks = (f'<script type="application/octet-stream" id="{LOG_ID}">'
              + base64.b64encode(data).decode("ascii") + "</script>\n"
              f'<script type="application/json" id="{PYTHON_ID}">{script_json(info)}</script>')
    parts = {"title": escape(title), "sub": escape(sub), "js": js, "data": blocks,
             "csp": policy([js], False, meta=True)}
    return re.sub(r"\{\{(\w+)\}\}", lambda m: parts[m.group(1)], _asset("verify.html"))


def embedded(html: str) -> tuple[bytes, dict]:
    """``(log bytes, python verdict)`` held by a page :func:`verify_html` made.  ValueError
    for a text without them."""
    log = re.search(f'<script type="application/octet-stream" id="{LOG_ID}">([^<]*)</script>',
                    html)
    info = re.search(f'<script type="application/json" id="{PYTHON_ID}">(.*?)</script>', html,
                     re.S)
    if log is None or info is None:
        raise ValueError("not a verify page (no embedded log)")
    return base64.b64decode(log.group(1)), json.loads(info.group(1))["python"]
