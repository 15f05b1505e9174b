"""The live pages' files (engine/web/pages/assets.py, issue 25.6 and 25.8): one module the seat's
page and the referee's page share (words.js), each file served once with the pages' headers,
and no page keeping its own copy of what the shared module exports."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from engine.web.pages.assets import CSP, FILES
from tests.service.conftest import App

PAGES = resources.files("engine.web.pages")
#: what words.js exports: export function/const/class NAME
EXPORTED = re.compile(r"^export (?:async )?(?:function|const|class) (\w+)", re.M)
#: a page defining a name of its own: function NAME( / const NAME = / class NAME
DEFINED = r"^(?:async )?(?:function {0}\s*\(|const {0}\s*=|class {0}\b)"


def test_the_seat_and_referee_pages_import_the_shared_module_and_copy_none_of_it():
    shared = PAGES.joinpath("words.js").read_text("utf-8")
    names = EXPORTED.findall(shared)
    # the words, the API, the controls, the table and the clocks (at least these, by hand)
    assert {"Words", "request", "commandForm", "drawPlayers", "drawClocks", "redraw", "el",
            "withRules", "chosenLanguage", "loadCatalogue", "randomHex"} <= set(names)
    for page, path in (("table.js", "./words.js"), ("referee.js", "/pages/words.js")):
        text = PAGES.joinpath(page).read_text("utf-8")
        assert f'from "{path}"' in text, page
        copies = [name for name in names if re.search(DEFINED.format(name), text, re.M)]
        assert copies == [], (page, copies)


@pytest.fixture
def app(tmp_path):
    return App(tmp_path / "store")


@pytest.mark.parametrize("path", ["/pages/words.js", "/pages/table.js", "/pages/referee.js",
                                  "/pages/autopass.js", "/pages/referee/referee.js",
                                  "/pages/referee.css", "/games/g1/table", "/games/g1/referee"])
def test_every_live_page_file_is_served_with_the_pages_policy(app, path):
    answer = app.http.get(path)
    assert answer.status_code == 200
    assert answer.headers["content-security-policy"] == CSP
    assert "'unsafe-inline'" not in CSP and "http" not in CSP  # nothing inline, no other host
    assert answer.headers["referrer-policy"] == "no-referrer"
    assert answer.headers["cache-control"] == "no-store"
    name = path.rsplit("/", 1)[1]
    if name in FILES:
        assert answer.content == PAGES.joinpath(name).read_bytes()
        assert answer.headers["content-type"] == FILES[name]


def test_an_unknown_page_file_is_a_404_naming_the_files_there_are(app):
    answer = app.http.get("/pages/secret.py")
    assert answer.status_code == 404
    error = answer.json()["error"]
    assert "secret.py" in error and "words.js" in error and "table.js" in error
