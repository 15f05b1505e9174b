"""The served standings and pairings pages update live (issue 22.9), in a real browser: headless
Chromium (tests/page/conftest.py) against a real ``devil serve``.  Both pages are open while the
organiser records table 1's result over HTTP; each must show it without a reload by hand.  Then
the organiser publishes the tournament and a visitor follows the pairings page's link to the
table's public spectator page.

Table 1 (A B C D, the quick_atkr game of tests/tournament/helpers.py with round-2 bets A 600,
B 600, C 300, D 0) ends A 2000, B 1800, C 900, D 600: places 1 to 4, points 6, 4, 2, 1.
"""

from __future__ import annotations

import pytest

from engine.service import GameService
from engine.store import open_store
from engine.tournament.organiser import Organiser
from tests.page.conftest import ORGANISER_KEY
from tests.service.conftest import Server, auth
from tests.tournament.helpers import fixed, quick_atkr


@pytest.mark.slow  # a server and two live pages: kept out of the default run
def test_the_pages_update_when_a_result_is_recorded(tmp_path, browser, shots):
    folder = str(tmp_path / "store")
    organiser = Organiser(GameService(open_store(folder)))
    t = organiser.create(fixed(list("ABCDEFGH"), rounds=1, game="atkr",
                               options={"physical": True}))
    organiser.pair(t, seating=[list("ABCD"), list("EFGH")], games=False)
    game = quick_atkr(organiser.service, list("ABCD"), {"A": 600, "B": 600, "C": 300, "D": 0})
    server = Server(folder, organiser_key=ORGANISER_KEY).start()
    try:
        context = browser.new_context()
        standings = context.new_page()
        standings.goto(f"{server.url}/tournaments/{t}/standings.html")
        pairings = context.new_page()
        pairings.goto(f"{server.url}/tournaments/{t}/pairings.html")
        assert "playing" in pairings.inner_text("tbody tr:first-child")
        row_a = "() => [...document.querySelectorAll('tbody tr')].map(r => r.innerText)" \
                ".find(t => t.split('\\t')[1] === 'A')"
        assert standings.evaluate(row_a).split("\t")[2] == "0"
        attached = server.http.post(f"/tournaments/{t}/commands", json={
            "type": "attach", "game": game}, headers=auth(ORGANISER_KEY))
        assert attached.status_code == 200, attached.text
        pairings.wait_for_function(
            "() => document.querySelector('tbody tr').innerText.includes('places A 1, B 2, "
            "C 3, D 4')", timeout=15000)
        standings.wait_for_function(f"() => ({row_a})().split('\\t')[2] === '6'",
                                    timeout=15000)
        assert standings.evaluate(f"() => ({row_a})()").split("\t")[:3] == ["1", "A", "6"]
        standings.screenshot(path=f"{shots}/tournament-standings-live.png")
        # publishing reloads the pages too, now with each game linked to its spectator page
        published = server.http.post(f"/tournaments/{t}/publish", json={"public": True},
                                     headers=auth(ORGANISER_KEY))
        assert published.status_code == 200
        link = f"a[href='/tournaments/{t}/watch/{game}']"
        pairings.wait_for_selector(link, timeout=15000)
        pairings.click(link)
        pairings.wait_for_selector("#view")
        # the replay page, as a spectator, with the game's public replay inlined
        assert pairings.title() == f"{game} replay (spectator)"
        assert "round 1, table 1" in pairings.inner_text("p.watch")
        pairings.click("#view summary")  # the first event shows its facts: open the data
        shown = pairings.inner_text("#view")
        assert "winners" in shown and "\nA\t?\t?\t" in shown  # A's money and bet: hidden
        pairings.screenshot(path=f"{shots}/tournament-watch.png")
        context.close()
    finally:
        server.stop()
