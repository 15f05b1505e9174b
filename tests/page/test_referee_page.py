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
import time
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


def test_the_referee_sections_of_the_catalogues_agree():
    """One catalogue per language (issue 25.5): the referee page's words in English and German
    have the same keys, the same placeholders and the same rule ids (PAGE-18's refusals, the
    desk's DESK-2 ... in every language)."""
    import json
    import re

    from engine.web.pages.table import languages

    folder = os.path.join(os.path.dirname(__file__), "..", "..", "engine", "web", "pages", "i18n")
    sections = {}
    for lang in languages():
        with open(os.path.join(folder, f"{lang}.json"), encoding="utf-8") as handle:
            sections[lang] = json.load(handle)["referee"]

    def flat(tree, prefix=""):
        for key, value in tree.items():
            if isinstance(value, dict):
                yield from flat(value, prefix + key + ".")
            elif isinstance(value, str):
                yield prefix + key, value
            else:
                yield prefix + key, json.dumps(value)

    english = dict(flat(sections["en"]))
    assert english["ui.need_reason"] == "PAGE-18: give a reason; nothing was sent"
    for lang, section in sections.items():
        words = dict(flat(section))
        assert words.keys() == english.keys(), lang
        for key, text in words.items():
            for pattern in (r"\{\w+(?::\w+)?\}", r"\b[A-Z]{2,}-\d+(?:\.\d+)*\b"):
                assert sorted(re.findall(pattern, text)) == \
                    sorted(re.findall(pattern, english[key])), (lang, key)


def test_the_referee_moves_endpoint_offers_what_the_rules_leave(live):
    """GET /games/{id}/referee/moves: the referee's token only (PAGE-15: a seat's is refused,
    403); in the bets every seat bets 0 to 200 in tens (ATKR-1.3, ATKR-3.1) and nothing is
    reported; at Anna's turn her draw is a report of every kind still in the furnace (PAGE-16:
    after two 100s none is left, ATKR-1.1, 4.7), and Stop only once she has a coal (ATKR-4.2);
    ended at time (DESK-8), nothing is offered."""
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
    # ended at time by the referee (DESK-8): over, nothing more to record for anyone
    command(live, created, {"type": "adjudicate", "reason": "the round's time", "rule": "ATKR-8.2"})
    answer = live.http.get(f"/games/{game}/referee/moves",
                           headers=auth(created["tokens"]["referee"])).json()
    assert answer["over"] is True
    assert all(seat["moves"] == seat["reports"] == [] for seat in answer["seats"])


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
        # keyboard only: Tab from the language switch to the first report, Enter taps it
        page.locator("#lang").focus()
        for _ in range(4):
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.textContent") == \
                    "Report coal 100 (2 left)":
                break
        assert page.evaluate("() => document.activeElement.textContent") == \
            "Report coal 100 (2 left)"
        page.keyboard.press("Enter")
        referee.at(7)
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


def bet(referee: Referee, name: str, amount: int, choices: int) -> None:
    """Record ``name``'s announced bet from its box: the amounts are 0 to its money in tens
    (ATKR-3.1), ``choices`` of them."""
    box = referee.seat(name)
    amounts = box.get_by_label("Amount")
    assert amounts.locator("option").count() == choices
    before = version(referee.server, referee.created)
    amounts.select_option(label=str(amount))
    box.get_by_role("button", name="Bet").click()
    referee.page.wait_for_function(
        "(v) => Number(document.getElementById('game').dataset.version) > v", arg=before)


def desk(referee: Referee, form: str, send: str, **fields: str) -> int:
    """Fill a desk form (``fields``: element id -> a select's option label or an input's text)
    and send it; the version it recorded up to."""
    page = referee.page
    before = version(referee.server, referee.created)
    for element, value in fields.items():
        node = page.locator(f"#{element}")
        if node.evaluate("(n) => n.tagName") == "SELECT":
            node.select_option(label=value)
        else:
            node.fill(value)
    page.locator(f"#{form}").get_by_role("button", name=send).click()
    page.wait_for_function(
        "(v) => Number(document.getElementById('game').dataset.version) > v", arg=before)
    return version(referee.server, referee.created)


@pytest.mark.slow
def test_a_whole_physical_game_recorded_from_the_referees_page(live, browser, shots, tmp_path):
    """Anna and Ben at a real table, every command recorded from the referee's page.

    Round 1 (start Anna, ATKR-1.7): bets 200 and 0; Anna draws 100, 100 (then no 100 button:
    PAGE-16, ATKR-1.1, 4.7) and stops; Ben draws a devil.  H = 200: Anna's highest bet wins
    double (ATKR-5.5: 200 + 400) plus both prizes (5.6, 5.7): 700; Ben 200, alone last: the
    pact (6.2).  45 coals left: no refill (7.1).  Round 2 (start Ben, 2.1): bets 0 and 700
    (71 amounts, 0 to 700); Ben draws 75 x 3, a 25 tapped by mistake, disputed by Ben (DESK-4)
    and upheld with a correction back to the third 75 (DESK-5, DESK-10.1: the 25 is back in the
    furnace); 50 x 7, a 10 tapped by mistake and corrected (DESK-2; a correction without a
    reason is not sent, PAGE-18); 25 x 5: total 700, stop; Anna busts on a devil: she has
    nothing off the table, so the bank pays Ben's pact 50 (6.5).  H = 700: Anna's 700 wins
    double, 2100 (8.1: the game ends); Ben 200 + 50 + 50 + 50 = 350.  The log verifies."""
    created = physical_game(live, ["Anna", "Ben"])
    game = created["game"]
    # a named referee token (issue 23.4): Rita's name reports every coal she taps
    named = live.http.post(f"/games/{game}/referees", json={"name": "Rita"},
                           headers=auth(created["tokens"]["referee"]))
    assert named.status_code == 201, named.text
    rita = named.json()["token"]
    referee = Referee(browser, live, created, token=rita)
    drawn: list[int] = []

    def tap(name: str, value: int) -> int:
        left = left_after(*drawn)
        assert referee.reports(name) == labels(left), (name, value, drawn)
        label = labels({**{v: 0 for v in ORDER}, value: left[value]})[0]
        seq = referee.tap(name, label)
        drawn.append(value)
        return seq

    try:
        page = referee.page
        referee.at(2)
        assert page.inner_text("#who").startswith("Referee Rita: ")
        # round 1
        bet(referee, "Anna", 200, 21)
        bet(referee, "Ben", 0, 21)
        assert referee.seat("Anna").get_by_role("button", name="Stop").count() == 0  # 4.2
        tap("Anna", 100)
        tap("Anna", 100)
        assert not any("coal 100" in text for text in referee.reports("Anna"))
        referee.tap("Anna", "Stop")
        tap("Ben", 0)
        # round 2: Ben starts; Anna bets all her 700
        page.locator("#turn", has_text="Waiting for: Anna, Ben").wait_for()
        bet(referee, "Ben", 0, 21)
        bet(referee, "Anna", 700, 71)
        for _ in range(3):
            third = tap("Ben", 75)
        assert not any("coal 75" in text for text in referee.reports("Ben"))
        wrong = tap("Ben", 25)
        assert wrong == third + 1
        desk(referee, "dispute-form", "Record dispute", **{
            "dispute-seat": "Ben", "dispute-seq": f"#{wrong} Ben draws 25 (ATKR-4.2)",
            "dispute-text": "it was a 50"})
        desk(referee, "ruling-form", "Rule", **{
            "ruling-dispute": f"Dispute 1: Ben on #{wrong}, \u201cit was a 50\u201d",
            "ruling-decision": "Uphold: correct the game",
            "ruling-to": f"#{third} Ben draws 75 (ATKR-4.2)",
            "ruling-reason": "the coal on the table is a 50"})
        drawn.pop()  # the voided 25 is back in the furnace
        page.locator(f'#events li.voided[data-seq="{wrong}"]').wait_for()
        lines = {int(seq): text for seq, text in page.locator("#events li").evaluate_all(
            "(items) => items.map((li) => [li.dataset.seq, li.innerText])")}
        assert lines[wrong + 1] == f"#{wrong + 1} Ben disputes event #{wrong}: it was a 50 (DESK-4)"
        assert lines[wrong + 2] == (f"#{wrong + 2} The referee upheld dispute 1: the coal on "
                                    "the table is a 50 (DESK-5, DESK-10.1)")
        assert lines[wrong + 3] == (f"#{wrong + 3} The referee returned the game to event "
                                    f"#{third}: the coal on the table is a 50 (DESK-2)")
        dispute = page.locator('#disputes li[data-dispute="1"]').inner_text()
        assert dispute.startswith(f"Dispute 1: Ben on #{wrong}, \u201cit was a 50\u201d: "
                                  "upheld: the coal on the table is a 50"), dispute
        for _ in range(7):
            last50 = tap("Ben", 50)
        assert not any("coal 50" in text for text in referee.reports("Ben"))
        wrong = tap("Ben", 10)
        # PAGE-18: no reason, nothing sent
        before = version(live, created)
        page.locator("#correct-to").select_option(label=f"#{last50} Ben draws 50 (ATKR-4.2)")
        page.locator("#correct-form").get_by_role("button", name="Correct").click()
        page.locator("#error", has_text="PAGE-18: give a reason").wait_for()
        assert version(live, created) == before
        desk(referee, "correct-form", "Correct", **{"correct-reason": "a 25, not a 10"})
        drawn.pop()
        page.locator(f'#events li.voided[data-seq="{wrong}"]').wait_for()
        # PAGE-19: the answer of one tap is lost; the page sends it again with the same
        # command id and the service records it once
        lost: list[str] = []
        sent: list[str] = []

        def lose(route):
            lost.append(route.request.headers["idempotency-key"])
            route.fetch()  # the server records the command ...
            route.abort("connectionreset")  # ... and its answer never arrives

        page.route("**/commands", lose, times=1)
        page.on("request", lambda request: sent.append(request.headers.get("idempotency-key"))
                if request.url.endswith("/commands") else None)
        tap("Ben", 25)  # (the page's long poll may show the record before the retry's answer)
        deadline = time.monotonic() + 10
        while sent.count(lost[0]) < 2 and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert len(lost) == 1 and sent.count(lost[0]) == 2
        # PAGE-19: a double tap records one coal
        before = version(live, created)
        label = labels({**{v: 0 for v in ORDER}, 25: left_after(*drawn)[25]})[0]
        referee.seat("Ben").get_by_role("button", name=label).dblclick()
        page.wait_for_function(
            "(v) => Number(document.getElementById('game').dataset.version) > v", arg=before)
        drawn.append(25)
        assert version(live, created) == before + 1
        assert referee.reports("Ben") == labels(left_after(*drawn))
        for _ in range(3):
            tap("Ben", 25)
        assert page.locator('#players tr[data-player="Ben"] td').nth(4).inner_text() == "700"
        referee.tap("Ben", "Stop")
        tap("Anna", 0)
        page.locator("#turn", has_text="Game over. Winner: Anna").wait_for()
        assert referee.reports("Anna") == referee.reports("Ben") == []
        # the log: the referee's records, verifying as `devil verify` checks it
        data = live.http.get(f"/games/{game}/log",
                             headers=auth(created["tokens"]["referee"])).content
        check = verify_bytes(data)
        assert check.ok and check.finished, check
        log = load_bytes(data)
        ended = log.rules.events.to_map(log.events[-1])
        assert ended["type"] == "game_ended" and ended["money"] == [2100, 350], ended
        assert ended["winners"] == [0]
        reported = [log.rules.events.to_map(e)["coal"] for e in log.effective().events
                    if type(e).TYPE == "coal_drawn"]
        assert reported == [100, 100, 0] + [75] * 3 + [50] * 7 + [25] * 5 + [0]
        assert {log.rules.events.to_map(e)["reporter"] for e in log.events
                if type(e).TYPE == "coal_drawn"} == {"Rita"}
        # PAGE-17: every command after the game's setup was the referee's, given for a seat
        assert {r.actor for r in log.records[2:]} == {-1}
        assert [r.cmd for r in log.records].count(lost[0]) == 1
        path = tmp_path / "physical.devlog"
        path.write_bytes(data)
        import subprocess
        import sys

        done = subprocess.run([sys.executable, "-c", "from client.cli import main; main()",
                               "verify", str(path)], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        layout = page.evaluate(CUT_OFF)
        assert layout["cut"] == [] and layout["width"] <= layout["inner"], layout
        page.set_viewport_size({"width": 390, "height": 900})
        layout = page.evaluate(CUT_OFF)
        page.screenshot(path=os.path.join(shots, "referee-atkr-over-390.png"), full_page=True)
        assert layout["cut"] == [] and layout["width"] <= layout["inner"], layout
        # PAGE-15: a seat's token on the referee's page: the refusal, no game
        seat = referee.context.new_page()
        seat.goto(f"{live.url}/games/{created['game']}/referee#token={created['tokens']['Ben']}")
        seat.locator("#login:not([hidden])").wait_for()
        assert seat.inner_text("#error").startswith("PAGE-15: this is the referee's page")
        assert seat.locator("#game").is_hidden()
        seat.close()
        assert referee.errors == []
        assert not any(rita in url for url in referee.urls)
    finally:
        referee.close()


#: a physical four-seat Castle deal (CASTLE-7.1): each seat's cards, the item pile the rest
CASTLE_SEATS = {"Ann": ("order", "thug", ["bag-key"]),
                "Ben": ("brotherhood", "doctor", ["bag-goblet"]),
                "Cid": ("order", "priest", ["key-1"]),
                "Dora": ("brotherhood", "bodyguard", ["dagger"])}


@pytest.mark.slow
def test_a_castle_draw_reported_from_the_referees_page(live, browser, shots):
    """Castle of the Devil at a real table: Ann trades her bag-key to Cid, who gives key-1
    back; with the bag gone she draws from the pile (CASTLE-5.1), whose order the engine does
    not know: the game waits for the card (CASTLE-7.1).  Of the 21 items in play four are in
    the seats' hands, so the referee's page offers the 17 of the pile, none held (PAGE-16);
    the card reported lands in Ann's hand beside key-1."""
    deal = {"seats": {n: {"society": s, "profession": p, "items": i}
                      for n, (s, p, i) in CASTLE_SEATS.items()}}
    answer = live.http.post("/games", json={"kind": "castle", "options": {
        "players": list(CASTLE_SEATS), "first": "Ann", "deal": deal, "physical": True}})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    for body in ({"type": "trade", "player": "Ann", "to": "Cid", "item": "bag-key"},
                 {"type": "accept", "player": "Cid", "item": "key-1"},
                 {"type": "choose", "player": "Ann", "option": "draw"}):
        command(live, created, body)
    referee = Referee(browser, live, created)
    try:
        referee.at(6)
        box = referee.seat("Ann")
        items = box.locator("#ref-0-draw-item option").all_inner_texts()
        assert len(items) == 17
        assert not {"bag-key", "bag-goblet", "key-1", "dagger"} & set(items)
        for name in ("Ben", "Cid", "Dora"):
            assert referee.seat(name).locator("button").count() == 0
        box.locator("#ref-0-draw-item").select_option(label="coat-of-arms")
        referee.tap("Ann", "Report the card drawn")
        view = live.http.get(f"/games/{created['game']}/view",
                             headers=auth(created["tokens"]["referee"])).json()
        assert sorted(view["players"][0]["items"]) == ["coat-of-arms", "key-1"]
        # the card was the tome: amended from the desk's form (DESK-9.2: a reported draw's
        # item); the command is given again with it and Ann holds the tome instead
        page = referee.page
        seq = view["version"]  # the report's record, the last
        page.locator("#amend-seq").select_option(value=str(seq))
        page.locator("#amend-field").select_option(value="item")
        page.locator("#amend-value").fill("tome")
        page.locator("#amend-reason").fill("the card on the table is the tome")
        before = version(live, created)
        page.locator("#amend-form").get_by_role("button", name="Amend").click()
        page.wait_for_function(
            "(v) => Number(document.getElementById('game').dataset.version) > v", arg=before)
        page.locator(f'#events li.voided[data-seq="{seq}"]').wait_for()
        view = live.http.get(f"/games/{created['game']}/view",
                             headers=auth(created["tokens"]["referee"])).json()
        assert sorted(view["players"][0]["items"]) == ["key-1", "tome"]
        page.set_viewport_size({"width": 390, "height": 900})  # a phone: nothing cut off
        layout = page.evaluate(CUT_OFF)
        page.screenshot(path=os.path.join(shots, "referee-castle-390.png"), full_page=True)
        assert layout["cut"] == [] and layout["width"] <= layout["inner"], layout
        data = live.http.get(f"/games/{created['game']}/log",
                             headers=auth(created["tokens"]["referee"])).content
        assert verify_bytes(data).ok
        assert referee.errors == []
    finally:
        referee.close()


@pytest.mark.slow
def test_the_referee_decides_a_takeback_from_the_desk(live, browser):
    """A digital game whose seats play from their own tokens: Anna's sealed bet (nobody saw it,
    DESK-12.3) and her request to take it back (DESK-12.1); the referee's page shows the
    request and allows it with a reason (DESK-12.5): the bet's record is void (DESK-12.6) and
    Anna may bet again (ATKR-3.1).  (In a game the referee records, every command is the
    referee's, so a seat has none to take back: a correction puts it right.)"""
    answer = live.http.post("/games", json={"kind": "atkr", "options": {
        "players": PLAYERS, "first": "Anna"}})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    game = created["game"]

    def as_anna(body):
        sent = live.http.post(f"/games/{game}/commands", json=body, headers={
            **auth(created["tokens"]["Anna"]), "Idempotency-Key": uuid.uuid4().hex})
        assert sent.status_code == 201, sent.text

    as_anna({"type": "bet", "amount": 60})
    as_anna({"type": "takeback"})
    referee = Referee(browser, live, created)
    try:
        page = referee.page
        referee.at(4)  # creation, round 1, the bet (#3) and the request (#4)
        assert page.inner_text("#takeback-what") == "Takeback 1: Anna asks to take back #3 to #3"
        assert referee.seat("Anna").locator("form[data-type=bet]").count() == 0
        desk(referee, "takeback-form", "Decide", **{
            "takeback-decision": "Allow", "takeback-reason": "a slip of the finger"})
        page.locator('#events li.voided[data-seq="3"]').wait_for()
        assert page.locator("#takeback-form").is_hidden()
        amounts = referee.seat("Anna").get_by_label("Amount").locator("option")
        assert amounts.count() == 21  # 0 to 200 again: the 60 is back (ATKR-1.3, 3.1)
        assert referee.errors == []
    finally:
        referee.close()
