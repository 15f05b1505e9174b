"""Fixtures of the page tests (issue 13.4, 13.5).

``finished_games``: a real ``devil serve`` process (tests/service/conftest.py's Server) on a
store holding a finished game of each kind (the shipped recordings), with tokens.

``browser``: headless Chromium (Debian's ``chromium`` package, /usr/bin/chromium, or
``DEVIL_CHROMIUM``) driven by Playwright; never a downloaded browser.  .ci/run installs
Chromium where it is missing; without it the page tests are skipped, named in one line of the
summary, and under CI (``CI=true``) fail (tests/needs.py).

``shots``: the folder the tests save their screenshots in: ``DEVIL_SCREENSHOTS`` if set, else
``<pytest's tmp dir>/screenshots``.
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.needs import CHROMIUM as NEEDS_CHROMIUM
from tests.service.conftest import ROOT, Server

CHROMIUM = os.environ.get("DEVIL_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


#: the finished games the pages are opened on: shipped recordings (replays/), one per kind
RECORDINGS = {"castle": "castle-7p.devlog", "atkr": "atkr-4p-cautious-seed104.devlog"}
ORGANISER_KEY = "page-test-organiser"


@pytest.fixture(scope="module")
def finished_games(tmp_path_factory):
    """A real ``devil serve`` on a store holding the shipped recordings, each with fresh tokens
    (engine.web.auth.TokenBook.issue, as for a game created over HTTP); the organiser key is the
    referee of both.  ``(server, {kind: {"game", "players", "tokens"}})``."""
    from engine.web.auth import TokenBook
    from engine.replay import open_log
    from engine.store import open_store

    store_dir = str(tmp_path_factory.mktemp("page-store"))
    store = open_store(store_dir)
    from engine.receipts import Signer

    Signer.of(store)  # the key first: a store holding games never makes one (issue 20.5)
    games = {}
    for kind, name in RECORDINGS.items():
        path = os.path.join(ROOT, "replays", name)
        with open(path, "rb") as handle:
            game = store.import_log(handle.read())
        players = open_log(path).names
        tokens = TokenBook(store).issue(game, players)
        games[kind] = {"game": game, "players": players, "tokens": tokens}
    server = Server(store_dir, organiser_key=ORGANISER_KEY).start()
    try:
        yield server, games
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser():
    # module scope: Playwright's sync API runs an event loop in this thread while it is open,
    # and later tests call asyncio.run()
    if not os.path.exists(CHROMIUM):
        NEEDS_CHROMIUM.missing(f"no Chromium at {CHROMIUM}: install Debian's chromium package "
                               "(`apt-get install -y chromium`; .ci/run does) or set "
                               "DEVIL_CHROMIUM")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                             args=["--no-sandbox", "--disable-gpu"])
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def shots(tmp_path_factory):
    folder = os.environ.get("DEVIL_SCREENSHOTS") or str(tmp_path_factory.mktemp("screenshots"))
    os.makedirs(folder, exist_ok=True)
    return folder
