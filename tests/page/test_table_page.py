"""The seat's page and the spectator's page (issue 25.1, 25.3, 25.6) in Debian's Chromium against
a real ``devil serve``: every seat plays through its own browser context, with its token in
the address's fragment only.

What a page may hold is worked out from the rules, not from the page: a bet is sealed until all
bets are in (ATKR-3.2), so no seat's page (DOM or any network answer) and not the spectator's
holds another seat's bet amount, nor its money left while the bet is sealed (the money would
tell it); the start player is the game's ``first`` (ATKR-1.7), the bettable amounts every
multiple of 10 up to one's money (ATKR-3.1), a turn starts with a compulsory draw (ATKR-4.2).

The default run has one short smoke test; the whole game by three seats and a spectator (with
reconnection, a retried command, German and a 390 px phone) is ``slow``.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time

import httpx

import pytest

from engine.replay import load_bytes
from engine.replay.verify import verify_bytes
from tests.service.conftest import auth, free_port

PLAYERS = ["Anna", "Ben", "Cleo"]
#: a chosen seed on which the bets below end the game in round 2 (Anna all in, twice doubled:
#: ATKR-5.5), so the whole game is some forty commands
SEED = 77

#: every control that may be cut off, and the page's own width, at the phone's viewport
CUT_OFF = """() => {
  const out = [];
  for (const node of document.querySelectorAll("button, select, input")) {
    if (node.offsetParent === null) continue;  // not shown
    const box = node.getBoundingClientRect();
    if (box.left < 0 || box.right > window.innerWidth) out.push(node.id || node.textContent);
  }
  return {cut: out, width: document.documentElement.scrollWidth, inner: window.innerWidth};
}"""


class ThreadServer:
    """The service's app (engine.web.create_app, as ``devil serve`` builds it) served by a real
    uvicorn on a loopback port, in a thread of this process: no interpreter to start, so the
    smoke test stays within the default run's budget.  The same face as tests/service's
    Server (``url``, ``http``)."""

    def __init__(self, store: str):
        import uvicorn

        from client.page import texts
        from engine.web import create_app

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(create_app(store, texts=texts), host="127.0.0.1",
                                port=self.port, log_level="warning",
                                timeout_graceful_shutdown=0.2)  # no wait for long polls
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.http = httpx.Client(base_url=self.url, timeout=30.0)

    def start(self) -> "ThreadServer":
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "uvicorn did not start"
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """A real uvicorn serving the service on a fresh store."""
    server = ThreadServer(str(tmp_path_factory.mktemp("table-store"))).start()
    try:
        yield server
    finally:
        server.stop()


def new_game(server, **body) -> dict:
    answer = server.http.post("/games", json={"kind": "atkr", "options": {
        "players": PLAYERS, "first": "Anna"}, **body})
    assert answer.status_code == 201, answer.text
    return answer.json()


def referee_view(server, created) -> dict:
    return server.http.get(f"/games/{created['game']}/view",
                           headers=auth(created["tokens"]["referee"])).json()


class Seat:
    """One browser context on one token's page, with every network answer it received."""

    def __init__(self, browser, server, created, name, locale="en-GB", width=1200):
        self.name = name
        self.context = browser.new_context(locale=locale, viewport={"width": width,
                                                                     "height": 900})
        self.page = self.context.new_page()
        self.answers: list = []
        self.read = 0
        self.errors: list[str] = []
        self.page.on("response", lambda response: self.answers.append(response))
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.urls: list[str] = []  # every address asked for, and every Referer sent
        self.page.on("request", lambda request: self.urls.extend(
            [request.url, request.headers.get("referer") or ""]))
        token = created["tokens"][name]
        self.page.goto(f"{server.url}/games/{created['game']}/table#token={token}")
        self.page.locator("#game[data-version]").wait_for()

    def at(self, version: int) -> None:
        """Wait until the page shows the game at ``version``."""
        self.page.locator(f'#game[data-version="{version}"]').wait_for(timeout=15000)

    def bodies(self) -> list[tuple[str, object]]:
        """The JSON answers received since the last call: ``(url, body)``."""
        out = []
        for response in self.answers[self.read:]:
            if "json" not in (response.headers.get("content-type") or ""):
                continue
            try:
                out.append((response.url, json.loads(response.body())))
            except Exception:  # an answer the page stopped waiting for (a long poll cut off)
                continue
        self.read = len(self.answers)
        return out

    def close(self) -> None:
        self.context.close()


def sealed_bets(view: dict) -> dict[int, int]:
    """The bets in but not yet revealed (ATKR-3.2), from the referee's view: seat -> amount."""
    if view["phase"] != "bet":
        return {}
    return {seat: row["bet"] for seat, row in enumerate(view["players"]) if row["has_bet"]}


def check_no_leak(seat: Seat, me: int | None, sealed: dict[int, int]) -> None:
    """``seat``'s DOM and every answer it received hold no other seat's sealed bet (ATKR-3.2):
    no bet_placed event of another seat with its amount, no view with another seat's bet or
    money while that bet is sealed; the DOM's row of that seat shows its bet hidden and no
    event line says what it bet."""
    def views(body):
        if isinstance(body, dict):
            if "players" in body and "phase" in body:
                yield body
            for value in body.values():
                yield from views(value)
        elif isinstance(body, list):
            for value in body:
                yield from views(value)

    def events(body):
        if isinstance(body, dict):
            if body.get("type") == "bet_placed":
                yield body
            for value in body.values():
                yield from events(value)
        elif isinstance(body, list):
            for value in body:
                yield from events(value)

    for url, body in seat.bodies():
        for event in events(body):
            assert event["seat"] == me or event["amount"] is None, (seat.name, url, event)
        for view in views(body):
            if view["phase"] != "bet":
                continue
            for other, row in enumerate(view["players"]):
                if other != me and row.get("has_bet"):
                    assert row["bet"] is None and row["money"] is None, (seat.name, url, row)
    text = seat.page.inner_text("#game")
    for other, amount in sealed.items():
        if other == me:
            continue
        name = PLAYERS[other]
        row = seat.page.locator(f'#players tr[data-player="{name}"]').inner_text().split("\t")
        assert row[2] in ("hidden", "verdeckt") and row[1] in ("hidden", "verdeckt"), row
        assert not re.search(rf"{name} (bets|setzt) \d", text), (seat.name, name)


def test_a_seat_bets_with_the_keyboard_on_a_phone(live, browser, shots):
    """The default run's one browser test: a seat's page at 390 px, a bet by keyboard only."""
    created = new_game(live)
    anna = Seat(browser, live, created, "Anna", width=390)
    try:
        page = anna.page
        # ATKR-3.1: 0 to all of Anna's 200 (ATKR-1.3) in tens; chosen and sent by keyboard only
        assert page.get_by_label("Amount").locator("option").count() == 21
        for _ in range(6):
            if page.evaluate("() => document.activeElement.id") == "move-bet-amount":
                break
            page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.id") == "move-bet-amount"
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowDown")
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.textContent") == "Bet"
        page.keyboard.press("Enter")
        anna.at(3)
        assert page.locator("#events li").last.inner_text() == "#3 Anna bets 20 (ATKR-3.1)"
        assert page.locator('#you dd[data-field="bet"]').inner_text() == "20"
        assert page.locator('#you dd[data-field="money"]').inner_text() == "180"  # ATKR-3.5
        layout = page.evaluate(CUT_OFF)
        page.screenshot(path=os.path.join(shots, "table-atkr-390.png"), full_page=True)
        assert layout["cut"] == [] and layout["width"] <= layout["inner"], layout
        assert not any(created["tokens"]["Anna"] in url for url in anna.urls)
        assert anna.errors == []
    finally:
        anna.close()


def test_a_seats_page_shows_every_seats_clock(live, browser):
    """CLOCK-8 on the seat's page: a game created with 20m+10s and 2m a move shows each
    seat's time as `devil show` prints it; all three are to bet (CLOCK-2), so all three run
    (">"), each a few tenths under 20:00 and 2:00."""
    created = new_game(live, clock={"clock": "20m+10s", "move_time": "2m"})
    anna = Seat(browser, live, created, "Anna")
    try:
        anna.at(3)  # the game's creation, its round and its clock_set
        line = anna.page.locator("#clocks").inner_text()
        assert re.fullmatch(r"CLOCKS \(20m\+10s, 2m a move, on timeout: act\): "
                            + r"\s+".join(rf">{p} 19:5\d\.\d \(move 1:5\d\.\d\)"
                                        for p in PLAYERS), line), line
        assert anna.errors == []
    finally:
        anna.close()


def choose(view: dict) -> tuple[int, str, int | None]:
    """The next command of the scripted game from the referee's view: ``(seat, verb, amount)``.
    Bets: Anna all in, the others 20 or all they have; draws: until one's total reaches the
    highest bet (ATKR-5.3), then stop."""
    if view["phase"] == "bet":
        seat = next(s for s, row in enumerate(view["players"]) if not row["has_bet"])
        money = view["players"][seat]["money"]
        return seat, "Bet", money if seat == 0 else min(20, money)
    seat = PLAYERS.index(view["turn"])
    row = view["players"][seat]
    target = max(p["bet"] or 0 for p in view["players"])
    return seat, ("Stop" if row["coals"] and row["total"] >= target else "Draw"), None


VERBS = {"de": {"Bet": "Setzen", "Draw": "Ziehen", "Stop": "Aufhören"}}


@pytest.mark.slow
def test_a_whole_game_through_three_seats_pages_and_the_spectators(live, browser, shots,
                                                                      tmp_path):
    from playwright.sync_api import expect

    created = new_game(live, seed=SEED)
    game = created["game"]
    seats = [Seat(browser, live, created, "Anna"), Seat(browser, live, created, "Ben"),
             Seat(browser, live, created, "Cleo", locale="de-DE", width=390)]
    watcher = Seat(browser, live, created, "spectator")
    pages = seats + [watcher]
    retried: list[str] = []
    try:
        # a token that is not the game's: the service's refusal, and the form to paste one
        wrong = watcher.context.new_page()
        wrong.goto(f"{live.url}/games/{game}/table#token={game}.forged")
        wrong.locator("#login:not([hidden])").wait_for()
        assert "the token is not valid" in wrong.inner_text("#error")
        assert wrong.locator("#game").is_hidden()
        wrong.close()
        # the spectator's page: the public table, no controls, no seat's own box
        assert watcher.page.locator("#moves button").count() == 0
        assert watcher.page.locator("#you-box").is_hidden()
        # Anna's first command: its answer is lost on the way back; the page sends it again
        # with the same command id and the service records it once
        lost = []

        def lose(route):
            lost.append(route.request.headers["idempotency-key"])
            route.fetch()  # the server records the command ...
            route.abort("connectionreset")  # ... and its answer never arrives

        seats[0].page.route("**/commands", lose, times=1)
        seats[0].page.on("request", lambda request: retried.append(
            request.headers.get("idempotency-key")) if request.url.endswith("/commands")
            else None)
        steps = 0
        offline_from = None
        offline, offline_steps = False, 0
        while True:
            view = referee_view(live, created)
            if view["phase"] == "over":
                break
            assert steps < 120, "the scripted game did not end"
            seat, verb, amount = choose(view)
            page = seats[seat].page
            lang = "de" if seat == 2 else "en"
            name = VERBS.get(lang, {}).get(verb, verb)
            if steps >= 4 and offline_from is None and seat != 1:
                seats[1].context.set_offline(True)  # Ben's page loses its connection ...
                offline_from, offline, offline_steps = view["version"], True, steps
            elif offline and (seat == 1 or steps >= offline_steps + 4):
                seats[1].context.set_offline(False)  # ... and resumes from the last event
                offline = False
                seats[1].at(view["version"])
            if amount is not None:
                label = "Betrag" if lang == "de" else "Amount"
                page.get_by_label(label).select_option(label=str(amount))
            button = page.get_by_role("button", name=name)
            button.wait_for()
            button.click()
            version = view["version"]
            deadline = time.monotonic() + 15
            while referee_view(live, created)["version"] == version:
                assert time.monotonic() < deadline, f"{verb} by {PLAYERS[seat]} not recorded"
                time.sleep(0.02)
            after = referee_view(live, created)
            steps += 1
            online = [p for p in pages if not (p is seats[1] and offline)]
            for other in online:
                other.at(after["version"])
            for index, other in enumerate(pages):
                check_no_leak(other, index if index < 3 else None, sealed_bets(after))
        final = referee_view(live, created)
        for other in pages:
            other.at(final["version"])
        # the retried command was recorded once: one record carries its command id
        assert len(lost) == 1 and retried.count(lost[0]) == 2
        log = load_bytes(live.http.get(f"/games/{game}/log",
                                       headers=auth(created["tokens"]["referee"])).content)
        assert [r.cmd for r in log.records].count(lost[0]) == 1
        # Ben's page, offline from version offline_from, has every event once and in order
        shown = [int(s) for s in seats[1].page.locator("#events li").evaluate_all(
            "(items) => items.map((li) => li.dataset.seq)")]
        assert shown == [r.seq for r in log.records] and offline_from is not None
        # the game's end as every page shows it; the log verifies (ATKR-8.1: 1600 ends it)
        ended = log.rules.events.to_map(log.events[-1])
        assert ended["type"] == "game_ended" and max(ended["money"]) >= 1600
        winners = " and ".join(PLAYERS[s] for s in ended["winners"])
        for other in seats[:2] + [watcher]:
            assert other.page.inner_text("#turn") == f"Game over. Winner: {winners}"
        assert seats[2].page.inner_text("#turn") == \
            f"Spielende. Gewinner: {winners.replace(' and ', ' und ')}"
        check = verify_bytes(live.http.get(f"/games/{game}/log", headers=auth(
            created["tokens"]["referee"])).content)
        assert check.ok and check.finished, check
        # the bank's ledger re-derived from the bets and draws holds (ATKR-5, ATKR-6.5), and
        # the scripted bets are what the pages sent: Anna all in, the others 20 (ATKR-3.1)
        assert log.rules.audit(log.effective()).ok
        revealed = [log.rules.events.to_map(e)["bets"] for e in log.events
                    if type(e).TYPE == "bets_revealed"]
        assert revealed[0] == [200, 20, 20] and all(bets[1:] == [20, 20] for bets in revealed)
        # German at 390 px: nothing cut off; then the switch turns the page to English
        cleo = seats[2].page
        assert cleo.locator("#events-heading").inner_text() == "Ereignisse"
        layout = cleo.evaluate(CUT_OFF)
        cleo.screenshot(path=os.path.join(shots, "table-atkr-de-390.png"), full_page=True)
        assert layout["cut"] == [] and layout["width"] <= layout["inner"], layout
        cleo.get_by_label("Sprache").select_option("en")
        expect(cleo.locator("#events-heading")).to_have_text("Events")
        assert cleo.get_by_label("Language").input_value() == "en"
        for other in pages:
            assert other.errors == []
            token = created["tokens"][other.name]
            assert not any(token in url for url in other.urls)
    finally:
        for other in pages:
            other.close()


@pytest.mark.slow
def test_each_seat_sits_from_its_page_and_the_table_opens(live, browser):
    """A game with seat entropy (`devil serve`'s default): each seat's page makes its own
    random value (32 bytes, SEAT-2) and sends it with its Sit button; once all are in, the
    table opens and the bets begin (SEAT-1, ATKR-3.1)."""
    created = new_game(live, seat_entropy=True)
    seats = [Seat(browser, live, created, name) for name in PLAYERS]
    sent: list[dict] = []
    for seat in seats:
        seat.page.on("request", lambda request: sent.append(json.loads(request.post_data))
                     if request.url.endswith("/commands") else None)
    try:
        assert seats[0].page.get_by_role("button", name="Bet").count() == 0  # SEAT-1
        for index, seat in enumerate(seats):
            seat.page.get_by_role("button", name="Sit").click()
            seat.page.locator("#events li", has_text=f"{PLAYERS[index]} gave its entropy "
                                                     "(SEAT-2)").wait_for()
        seats[0].page.get_by_role("button", name="Bet").wait_for(timeout=15000)
        assert [command["type"] for command in sent] == ["seat_entropy"] * 3
        values = [command["value"] for command in sent]
        assert all(re.fullmatch(r"[0-9a-f]{64}", value) for value in values)
        assert len(set(values)) == 3  # each page drew its own
        assert seats[1].page.get_by_role("button", name="Sit").count() == 0  # one value each
        for seat in seats:
            assert seat.errors == []
    finally:
        for seat in seats:
            seat.close()


@pytest.mark.slow
def test_a_stale_control_is_refused_with_its_rule_and_records_nothing(live, browser):
    """Anna's page in two tabs; the second hears of nothing (its event stream is held up), so it
    still offers a bet after the first tab's: the service refuses the second bet (a bet is
    final, ATKR-3.2), the page says so with the rule id, and nothing is appended."""
    created = new_game(live)
    first = Seat(browser, live, created, "Anna")
    second = first.context.new_page()
    second.route("**/events?*", lambda route: None)  # held: never answered, never live
    second.goto(f"{live.url}/games/{created['game']}/table#token={created['tokens']['Anna']}")
    try:
        second.get_by_role("button", name="Bet").wait_for()
        first.page.get_by_role("button", name="Bet").click()
        first.at(3)
        second.get_by_role("button", name="Bet").click()
        second.locator("#error", has_text="Refused").wait_for()
        error = second.inner_text("#error")
        assert "has already bet this round" in error and "ATKR-3.2" in error, error
        assert referee_view(live, created)["version"] == 3  # nothing recorded
    finally:
        second.close()
        first.close()


# the auto-pass's hold logic (PAGE-20 to 24), here to share this module's Chromium
from tests.page.autopass_pure import (  # noqa: E402,F401
    test_the_hold_leaves_at_the_ask_plus_h_once_and_never_into_another_window)
def test_a_castle_seats_page_shows_its_own_cards_and_controls_in_english_and_german(live,
                                                                                   browser):
    """Castle of the Devil on the seat's page (its drawing: engine/web/pages/table_castle.js),
    in this module to share its browser and server.  The game of tests/page/castle_scenario.py
    on turn 1, as Ann sees it: her own cards by name, the others' hidden (CASTLE-2.1, 2.9), her
    turn's actions as buttons (CASTLE-3.1: pass, trade, attack; no declaration, she holds no
    key, CASTLE-9.1), every other player a partner (CASTLE-4.1) and a defender (CASTLE-6.1);
    then the language switch turns it German, the cards named as printed."""
    from tests.page.castle_scenario import new_game as new_castle_game

    created = new_castle_game(live)
    ann = Seat(browser, live, created, "Ann")
    try:
        page = ann.page

        def you(field):
            return page.locator(f'#you dd[data-field="{field}"]').inner_text()

        assert you("items") == "Dagger" and you("society") == "Order of Open Secrets"
        assert you("profession") == "Grand Master"
        ben = page.locator('#players tr[data-player="Ben"]').inner_text().split("\t")
        assert ben == ["Ben", "hidden", "1", "hidden", "hidden", "no"], ben
        assert page.locator("#moves button").all_inner_texts() == ["Pass", "Trade", "Attack"]
        for label in ("Partner", "Defender"):
            assert page.get_by_label(label).locator("option").all_inner_texts() == \
                ["Ben", "Cid", "Dora"]
        assert page.locator("#events li").last.inner_text() == \
            "#3 Turn 1: Ann's turn (CASTLE-3.1)"
        assert page.locator("#castle-knowledge").inner_text() == \
            "Nothing seen yet beyond your own cards."
        page.get_by_label("Language").select_option("de")
        page.locator("#events-heading", has_text="Ereignisse").wait_for()
        assert you("items") == "Dolch" and you("society") == "Orden der offenen Geheimnisse"
        assert you("profession") == "Großmeister"
        assert page.locator("#moves button").all_inner_texts() == \
            ["Passen", "Tauschen", "Angreifen"]
        assert page.get_by_label("Tauschpartner").locator("option").count() == 3
        assert page.locator("#events li").last.inner_text() == \
            "#3 Zug 1: Ann ist am Zug (CASTLE-3.1)"
        assert page.locator("#castle-heading").inner_text() == "Jetzt offen"
        assert ann.errors == []
    finally:
        ann.close()
