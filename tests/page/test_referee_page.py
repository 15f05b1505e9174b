"""The referee's page of a physical game (issue 25.2: /games/{id}/referee, engine/web/pages/
referee.js; every seat's commands from GET /games/{id}/referee/moves, engine/web/refmoves.py)
in Debian's Chromium against a real uvicorn, with the referee's token in the address's
fragment only.

What the page must offer is worked out from the rules, not from the page: the furnace holds
48 coals, 2 x 100, 3 x 75, 7 x 50, 9 x 25, 9 x 20, 9 x 10 and 9 devils (ATKR-1.1); a drawn
coal stays out until the furnace is refilled (ATKR-4.7), which happens only when 16 or fewer
are left (ATKR-7.1, the default ring); so after any reports the buttons are the kinds with a
count left, one each, labelled with that count (PAGE-16).  A turn starts with a compulsory
draw (ATKR-4.2: no Stop before the first coal); each seat bets 0 to all its money in tens
(ATKR-3.1).

The default run has one short browser test (English, German, a 390 px phone) and one of the
endpoint; the whole physical game recorded from the page (bets, coals, a dispute with a ruling
that corrects, a correction, the log verifying) is ``slow``.
"""

from __future__ import annotations

import os
import uuid

import pytest

from engine.replay import load_bytes
from engine.replay.verify import verify_bytes
from tests.page.test_table_page import CUT_OFF, ThreadServer
from tests.service.conftest import auth

PLAYERS = ["Anna", "Ben", "Cleo"]
#: the furnace by the rules (ATKR-1.1): coal value (0 a devil) -> count
FURNACE = {100: 2, 75: 3, 50: 7, 25: 9, 20: 9, 10: 9, 0: 9}
#: the order the kind lists its coals in (highest first, the devil last)
ORDER = [100, 75, 50, 25, 20, 10, 0]
LABEL = {"en": ("Report coal {value} ({left} left)", "Report a devil ({left} left)"),
         "de": ("Kohle {value} melden (noch {left})", "Teufel melden (noch {left})")}


def labels(furnace: dict[int, int], lang: str = "en") -> list[str]:
    """The report buttons PAGE-16 asks for: one per kind with a coal left, in the kind's order."""
    coal, devil = LABEL[lang]
    return [(devil if value == 0 else coal).format(value=value, left=furnace[value])
            for value in ORDER if furnace[value]]


def left_after(*drawn: int) -> dict[int, int]:
    """The furnace after the coals ``drawn`` (ATKR-4.7: none back before a refill)."""
    furnace = dict(FURNACE)
    for value in drawn:
        furnace[value] -= 1
        assert furnace[value] >= 0
    return furnace


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """A real uvicorn serving the service on a fresh store."""
    server = ThreadServer(str(tmp_path_factory.mktemp("referee-store"))).start()
    try:
        yield server
    finally:
        server.stop()


def physical_game(server, players=PLAYERS) -> dict:
    """A physical atkr game (no seed: the referee reports every coal, ATKR-9.3), first Anna."""
    answer = server.http.post("/games", json={"kind": "atkr", "options": {
        "players": players, "first": "Anna", "physical": True}})
    assert answer.status_code == 201, answer.text
    return answer.json()


def command(server, created, body) -> dict:
    answer = server.http.post(f"/games/{created['game']}/commands", json=body, headers={
        **auth(created["tokens"]["referee"]), "Idempotency-Key": uuid.uuid4().hex})
    assert answer.status_code == 201, answer.text
    return answer.json()


def version(server, created) -> int:
    return server.http.get(f"/games/{created['game']}", headers=auth(
        created["tokens"]["referee"])).json()["version"]


class Referee:
    """One browser context on the referee's page, with every address asked for."""

    def __init__(self, browser, server, created, locale="en-GB", width=1200, token=None):
        self.server, self.created = server, created
        self.context = browser.new_context(locale=locale, viewport={"width": width,
                                                                     "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.urls: list[str] = []  # every address asked for, and every Referer sent
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("request", lambda request: self.urls.extend(
            [request.url, request.headers.get("referer") or ""]))
        token = token or created["tokens"]["referee"]
        self.page.goto(f"{server.url}/games/{created['game']}/referee#token={token}")

    def shown(self) -> None:
        self.page.locator("#game[data-version]").wait_for()

    def at(self, seq: int) -> None:
        """Wait until the page shows the game at version ``seq``."""
        self.page.locator(f'#game[data-version="{seq}"]').wait_for(timeout=15000)

    def seat(self, name: str):
        return self.page.locator(f'section.seat[data-seat="{name}"]')

    def reports(self, name: str) -> list[str]:
        return self.seat(name).locator("button.report").all_inner_texts()

    def tap(self, name: str, label: str) -> int:
        """Tap ``label`` in seat ``name``'s box; the version it recorded up to."""
        before = version(self.server, self.created)
        self.seat(name).get_by_role("button", name=label, exact=True).click()
        self.page.wait_for_function(
            "(v) => Number(document.getElementById('game').dataset.version) > v", arg=before,
            timeout=15000)
        return version(self.server, self.created)

    def close(self) -> None:
        self.context.close()


def test_the_referee_moves_endpoint_offers_what_the_rules_leave(live):
    """GET /games/{id}/referee/moves: the referee's token only (PAGE-15: a seat's is refused,
    403); in the bets every seat bets 0 to 200 in tens (ATKR-1.3, ATKR-3.1) and nothing is
    reported; at Anna's turn her draw is a report of every kind still in the furnace (PAGE-16:
    after two 100s none is left, ATKR-1.1, 4.7), and Stop only once she has a coal (ATKR-4.2)."""
    created = physical_game(live)
    game = created["game"]
    seat = live.http.get(f"/games/{game}/referee/moves", headers=auth(created["tokens"]["Ben"]))
    assert seat.status_code == 403 and seat.json()["rule"] == "PAGE-15", seat.text
    answer = live.http.get(f"/games/{game}/referee/moves",
                           headers=auth(created["tokens"]["referee"])).json()
    assert answer["physical"] is True and answer["over"] is False
    bets = list(range(0, 201, 10))
    assert answer["seats"] == [{"seat": name, "reports": [], "moves": [
        {"type": "bet", "fixed": {"player": name}, "inputs": [
            {"name": "amount", "values": bets}]}]} for name in PLAYERS]
    for name in PLAYERS:
        command(live, created, {"type": "bet", "player": name, "amount": 10})
    command(live, created, {"type": "draw", "player": "Anna", "coal": 100})
    command(live, created, {"type": "draw", "player": "Anna", "coal": 100})
    seats = live.http.get(f"/games/{game}/referee/moves",
                          headers=auth(created["tokens"]["referee"])).json()["seats"]
    assert seats[0] == {"seat": "Anna", "moves": [
        {"type": "stop", "fixed": {"player": "Anna"}, "inputs": []}], "reports": [
        {"type": "draw", "fixed": {"player": "Anna"}, "inputs": [
            {"name": "coal", "values": [75, 50, 25, 20, 10, 0]}]}]}
    assert seats[1]["moves"] == seats[1]["reports"] == seats[2]["moves"] == []


def test_the_referees_page_in_english_and_german_on_a_phone(live, browser, shots):
    """The default run's browser test: the bets are in (given over the API), Anna is to draw
    (ATKR-4.1, the start player); the referee's page at 390 px offers one button per coal kind
    with its count (PAGE-16), no Stop before her first coal (ATKR-4.2), nothing for Ben and
    Cleo; a tap reports a coal (and the 100 then has one left); German by the switch; nothing
    cut off."""
    created = physical_game(live)
    for name, amount in zip(PLAYERS, (50, 0, 20)):
        command(live, created, {"type": "bet", "player": name, "amount": amount})
    referee = Referee(browser, live, created, width=390)
    try:
        page = referee.page
        referee.at(6)  # creation, round 1, three bets and their reveal
        assert referee.reports("Anna") == labels(FURNACE)
        assert referee.seat("Anna").get_by_role("button", name="Stop").count() == 0
        assert referee.seat("Ben").inner_text().endswith("Nothing to record for Ben now.")
        assert referee.reports("Cleo") == []
        assert page.inner_text("#turn") == "Anna's turn"
        seq = referee.tap("Anna", "Report coal 100 (2 left)")
        assert seq == 7
        assert page.locator("#events li").last.inner_text() == "#7 Anna draws 100 (ATKR-4.2)"
        assert referee.reports("Anna") == labels(left_after(100))
        assert referee.seat("Anna").get_by_role("button", name="Stop").count() == 1
        page.get_by_label("Language").select_option("de")
        page.locator("#seats-heading", has_text="Am Tisch").wait_for()
        assert referee.reports("Anna") == labels(left_after(100), "de")
        assert page.inner_text("#desk-heading") == "Spielleitung"
        assert page.locator("#events li").last.inner_text() == "#7 Anna zieht 100 (ATKR-4.2)"
        layout = page.evaluate(CUT_OFF)
        page.screenshot(path=os.path.join(shots, "referee-atkr-de-390.png"), full_page=True)
        assert layout["cut"] == [] and layout["width"] <= layout["inner"], layout
        assert referee.errors == []
        token = created["tokens"]["referee"]
        assert not any(token in url for url in referee.urls)
    finally:
        referee.close()
