"""Fixtures of the page tests (issue 13.4, 13.5).

``finished_games``: a real ``devil serve`` process (tests/service/conftest.py's Server) with a
Castle game and an Auf Teufel komm raus game created over HTTP (so they have tokens) and played
to their end by bots through a GameService on the same store folder (appends from two processes
are serialized by the log's flock, docs/service.md).

``browser``: headless Chromium (Debian's ``chromium`` package, /usr/bin/chromium, or
``DEVIL_CHROMIUM``) driven by Playwright; never a downloaded browser.  .ci/run installs
Chromium where it is missing.

``shots``: the folder the tests save their screenshots in: ``DEVIL_SCREENSHOTS`` if set, else
``<pytest's tmp dir>/screenshots``.
"""

from __future__ import annotations

import os
import random
import shutil

import pytest

from tests.service.conftest import Server

CHROMIUM = os.environ.get("DEVIL_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def play_to_end(store: str, game: str, kind: str, bot: str, seed: int) -> dict:
    """Bots at every seat of ``game`` (in the store folder ``store``) until it ends."""
    from engine.bots import make_bot, play_out
    from engine.service import GameService
    from engine.store import open_store

    service = GameService(open_store(store))
    names = service.load(game).rules.seats(service.load(game).state)
    rng = random.Random(seed)
    bots = {seat: make_bot(kind, bot, random.Random(rng.random())) for seat in range(len(names))}
    result = play_out(service, game, bots, max_commands=5000)
    assert result["over"] and not result["capped"]
    return result


@pytest.fixture(scope="module")
def finished_games(tmp_path_factory):
    store = str(tmp_path_factory.mktemp("page-store"))
    server = Server(store).start()
    try:
        games = {}
        for kind, players, bot, seed in (("castle", ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn"], "sensible", 11),
                                         ("atkr", ["Anna", "Ben", "Cleo"], "cautious", 13)):
            answer = server.http.post("/games", json={"kind": kind, "seed": seed,
                                                      "options": {"players": players}})
            assert answer.status_code == 201, answer.text
            created = answer.json()
            play_to_end(store, created["game"], kind, bot, seed)
            games[kind] = created
        yield server, games
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser():
    # module scope: Playwright's sync API runs an event loop in this thread while it is open,
    # and later tests call asyncio.run()
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"no Chromium at {CHROMIUM}: install Debian's chromium package "
                    "(`apt-get install -y chromium`; .ci/run does) or set DEVIL_CHROMIUM")
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
