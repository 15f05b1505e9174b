"""The replay and audit pages in a real browser (issue 13.4, 13.5): headless Chromium driven by
Playwright against a real ``devil serve``, and the ``replay --html`` file opened offline.

What a seat's page may show is worked out from the rules of who sees what (CASTLE-11.1), not from
the page: the page's data is exactly the seat's redacted stream, event for event; the deal shows
the seat its own cards only; right after the deal no other seat's items or profession is on the
table; and a seat whose society the seat never looked at (CASTLE-5.3) nor saw laid open by a
declaration keeps it hidden in every step's view, in the DOM and in every network answer.
"""

from __future__ import annotations

import json
import os
import re

import pytest
from click.testing import CliRunner

from client.cli import cli
from engine.web.pages import expand
from engine.replay import load_bytes
from tests.service.conftest import auth

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


#: the rows of the players table the page draws from the view (name -> {column: text})
PLAYERS_TABLE = """() => {
  for (const table of document.querySelectorAll("#view table.data")) {
    const head = [...table.rows[0].cells].map((c) => c.textContent);
    if (!head.includes("name") || !head.includes("society")) continue;
    const out = {};
    for (const row of [...table.rows].slice(1)) {
      const cells = Object.fromEntries(head.map((h, i) => [h, row.cells[i].textContent]));
      out[cells.name] = cells;
    }
    return out;
  }
  return null;
}"""


def referee_log(server, created):
    answer = server.http.get(f"/games/{created['game']}/log",
                             headers=auth(created["tokens"]["referee"]))
    assert answer.status_code == 200
    return load_bytes(answer.content)


def seat_stream(log, seat: int) -> list[tuple[int, dict]]:
    """``(seq, event map)`` of ``seat``'s redacted stream, from the rules' redaction."""
    out = []
    for record, event in zip(log.records, log.events):
        seen = log.rules.redact(event, seat)
        if seen is not None:
            out.append((record.seq, log.rules.events.to_map(seen)))
    return out


def card_pattern(card: str) -> re.Pattern:
    return re.compile(r"(?<![\w-])" + re.escape(card) + r"(?![\w-])")


def test_a_seat_replay_page_shows_what_it_knew_and_no_hidden_card(finished_games, browser,
                                                                   shots):
    server, games = finished_games
    created = games["castle"]
    game = created["game"]
    log = referee_log(server, created)
    dealt = next(log.rules.events.to_map(e) for e in log.events if type(e).TYPE == "cards_dealt")
    names = created["players"]

    def never_learned(seat: int) -> list[int]:
        """The seats whose society ``seat`` never learned (CASTLE-11.1: a society is seen by
        the one who looks at it, CASTLE-5.3, or laid open by a declaration, CASTLE-10)."""
        stream = seat_stream(log, seat)
        learned = {m["owner"] for _, m in stream
                   if m["type"] == "society_seen" and m["viewer"] == seat}
        learned |= {r["player"] for _, m in stream if m["type"] == "declared"
                    for r in m["revealed"]}
        return [other for other in range(len(names)) if other != seat and other not in learned]

    # the seat whose page is opened: one from whom some society stays hidden all game
    me = next(seat for seat in range(len(names)) if never_learned(seat))
    unknown = never_learned(me)
    stream = seat_stream(log, me)
    others = [seat for seat in range(len(names)) if seat != me]

    context = browser.new_context(viewport={"width": 1300, "height": 900})
    page = context.new_page()
    responses = []
    page.on("response", lambda response: responses.append(response))
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    token = created['tokens'][names[me]]
    page.goto(f"{server.url}/games/{game}/replay#token={token}")
    page.wait_for_selector("#replay:not([hidden])")
    # step to the fifth event of the seat's stream with the buttons, then check what is shown
    for _ in range(4):
        page.click("#next")
    step_seq = stream[4][0]
    assert page.inner_text("#where") == f"event 5 of {len(stream)} (#{step_seq})"
    assert page.locator("ol#events li.now").get_attribute("data-seq") == str(step_seq)
    players = page.evaluate(PLAYERS_TABLE)  # the view's players, as the page draws them
    mine = players[names[me]]
    assert (mine["society"], mine["profession"]) == (dealt["societies"][me],
                                                     dealt["professions"][me])
    for seat in others:  # nobody has shown this seat anything yet by event 5
        assert (players[names[seat]]["society"], players[names[seat]]["profession"],
                players[names[seat]]["items"]) == ("?", "?", "?"), players[names[seat]]
    assert names[me] in page.inner_text("#table")  # the kind's text table is shown too
    shown_now = page.inner_text("#table") + page.inner_text("#view")
    for seat in others:  # the others' dealt items and professions are nowhere on the table
        for card in dealt["hands"][seat] + [dealt["professions"][seat]]:
            assert not card_pattern(card).search(shown_now), card
    page.screenshot(path=os.path.join(shots, f"replay-castle-as-{names[me]}.png"), full_page=True)
    page.locator("#slider").fill(str(len(stream) - 1))  # the last event, by the slider
    assert page.inner_text("#where").startswith(f"event {len(stream)} of {len(stream)}")
    players = page.evaluate(PLAYERS_TABLE)
    for seat in unknown:
        assert players[names[seat]]["society"] == "?"

    bodies = [(r.url, r.body().decode("utf-8")) for r in responses]
    # the token only in the address's fragment and the Authorization header (issue 25.8): never
    # in an address the server sees, never in a Referer; the page under its own policy
    for response in responses:
        sent = response.request.all_headers()
        assert token not in response.url and "referer" not in sent, (response.url, sent)
    shell = next(r for r in responses if r.url.split("#")[0].endswith("/replay"))
    assert "script-src 'sha256-" in shell.all_headers()["content-security-policy"]
    assert shell.all_headers()["referrer-policy"] == "no-referrer"
    context.close()
    assert errors == []
    assert any(url.endswith("/replay/data") for url, _ in bodies)
    page_shell = next(body for url, body in bodies if url.split("#")[0].endswith("/replay"))
    assert not any(name in page_shell for name in names)  # the page holds no game data
    for url, body in bodies:  # no answer pairs a hidden society with its seat
        if url.endswith("/replay/data"):
            for view in expand(json.loads(body)):
                for seat in unknown:
                    assert view["players"][seat]["society"] is None, view["version"]
    # the data is the seat's redacted stream, event for event, and nothing else
    data = json.loads(next(body for url, body in bodies if url.endswith("/replay/data")))
    assert data["as"] == names[me] and "choose" not in data
    assert [(s["seq"], s["event"]) for s in data["steps"]] == stream
    shown_deal = next(s["event"] for s in data["steps"] if s["type"] == "cards_dealt")
    for seat in others:
        assert shown_deal["societies"][seat] is None and shown_deal["professions"][seat] is None
        assert all(card is None for card in shown_deal["hands"][seat])


def test_the_audit_page_draws_the_money_chart(finished_games, browser, shots):
    server, games = finished_games
    created = games["atkr"]
    game = created["game"]
    log = referee_log(server, created)
    ended = log.rules.events.to_map(log.events[-1])
    rounds = sum(1 for e in log.events if type(e).TYPE == "round_started")
    pawns = [log.rules.events.to_map(e) for e in log.events if type(e).TYPE == "pawns_placed"]
    pact_rounds = [index + 2 for index, p in enumerate(pawns) if p["pacts"]
                   and index + 2 <= rounds]  # a pact entered after round r is held in r + 1
    assert pact_rounds  # the game has pact rounds to mark

    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(f"{server.url}/games/{game}/audit#token={server.organiser_key}")  # the referee
    page.wait_for_selector("#chart svg")
    players = log.names
    assert page.locator("#chart svg polyline.series").count() == len(players) + 1  # and the bank
    assert page.locator("#chart svg rect.mark").count() == len(pact_rounds)
    rows = page.locator("#money-table tr")
    assert rows.count() == rounds + 2  # the head, the start, every round
    last = rows.nth(rounds + 1).inner_text().split("\t")
    n = len(players)
    assert [int(v) for v in last[1:n + 1]] == ended["money"]  # the money game_ended records
    first = rows.nth(1).inner_text().split("\t")
    assert [int(v) for v in first[1:n + 2]] == [200] * n + [0]  # ATKR-1.3: 200 each, bank 0
    assert "OK" in page.inner_text("#verdict")
    # the served page's ledger beside the chart: every transfer the audit re-derives
    from engine.games.atkr.audit import audit

    transfers = audit(log.effective()).transfers()
    assert page.locator("#ledger-table tbody tr:not(.round-head)").count() == len(transfers)
    page.locator("#chart svg").screenshot(path=os.path.join(shots, "money-chart.png"))
    page.screenshot(path=os.path.join(shots, "audit-page.png"), full_page=True)
    page.close()
    # a seat's token may not read the audit (it holds every sealed bet)
    answer = server.http.get(f"/games/{game}/audit/data", headers=auth(created["tokens"]["Ben"]))
    assert answer.status_code == 403 and answer.json()["code"] == 4


def test_replay_html_opens_offline_with_no_request(browser, tmp_path, shots):
    out = tmp_path / "dispute.html"
    result = CliRunner().invoke(cli, ["replay", os.path.join(ROOT, "replays", "castle-3p.devlog"),
                                      "--as", "Ben", "--html", str(out)])
    assert result.exit_code == 0, result.output
    context = browser.new_context()
    context.set_offline(True)
    asked = []

    def refuse(route):  # the file itself may load; anything else is a request out
        if route.request.url == out.as_uri():
            route.continue_()
            return
        asked.append(route.request.url)
        route.abort()

    context.route("**/*", refuse)
    page = context.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(out.as_uri())
    page.wait_for_selector("#replay:not([hidden])")
    count = page.locator("ol#events li").count()
    assert count > 10
    page.keyboard.press("End")
    assert page.inner_text("#where").startswith(f"event {count} of {count}")
    page.screenshot(path=os.path.join(shots, "replay-offline-as-Ben.png"))
    context.close()
    assert requests == [out.as_uri()] and asked == []


def test_voided_events_are_struck_through_with_their_reason(browser, shots):
    from engine.web.pages import replay_data, replay_html
    from engine.replay import open_log

    log = open_log(os.path.join(ROOT, "replays", "atkr-2p-random-seed102.devlog"))
    data = replay_data(log, voids={5: "the referee entered the wrong coal", 6: ""})
    page = browser.new_page(viewport={"width": 1300, "height": 700})
    page.set_content(replay_html(data))
    page.wait_for_selector("#replay:not([hidden])")
    assert page.locator("ol#events li.voided").count() == 2
    assert page.locator("ol#events li.voided del").count() == 2
    assert page.locator('ol#events li[data-seq="5"] .reason').inner_text() == \
        "voided: the referee entered the wrong coal"
    assert page.locator('ol#events li[data-seq="6"] .reason').inner_text() == "voided"
    assert page.locator('ol#events li[data-seq="7"] del').count() == 0
    page.click('ol#events li[data-seq="5"]')
    assert page.locator("#current.voided del").count() == 1
    style = page.locator("#current del").evaluate("e => getComputedStyle(e).textDecorationLine")
    assert style == "line-through"
    page.screenshot(path=os.path.join(shots, "replay-voided.png"))
    page.close()


@pytest.mark.slow  # a third page load against the server: kept out of the default run
def test_the_referee_sees_everything_and_may_look_as_any_seat(finished_games, browser):
    server, games = finished_games
    created = games["castle"]
    names = created["players"]
    log = referee_log(server, created)
    dealt = next(log.rules.events.to_map(e) for e in log.events if type(e).TYPE == "cards_dealt")
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    asked = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(f"{server.url}/games/{created['game']}/replay#token={created['tokens']['referee']}"
              "&seq=3")
    page.wait_for_selector("#replay:not([hidden])")
    assert page.inner_text("#where").endswith("(#3)")  # #seq=3 opens at that event
    players = page.evaluate(PLAYERS_TABLE)
    assert [players[n]["society"] for n in names] == dealt["societies"]
    assert [players[n]["profession"] for n in names] == dealt["professions"]
    page.select_option("#as", names[1])  # "view as": the page asks again, ?as=NAME
    page.wait_for_function("(name) => document.title.includes('(' + name + ')')", arg=names[1])
    assert asked[-1].endswith(f"/replay/data?as={names[1]}")
    page.click("#first")
    for _ in range(4):
        page.click("#next")
    players = page.evaluate(PLAYERS_TABLE)
    assert players[names[1]]["society"] == dealt["societies"][1]
    assert all(players[n]["society"] == "?" for i, n in enumerate(names) if i != 1)
    page.close()


#: whether anything sticks out of the page sideways, and each table's box's right edge
CUT_OFF = """() => {
  const page = document.scrollingElement;
  const boxes = [...document.querySelectorAll("table")].map((t) => {
    const box = t.closest(".scroll") || t;
    return Math.round(box.getBoundingClientRect().right);
  });
  const controls = [...document.querySelectorAll("button, input")]
    .filter((c) => c.offsetParent !== null && !c.closest(".scroll"))  // a box's own scroll
    .map((c) => Math.round(c.getBoundingClientRect().right));
  return {scroll: page.scrollWidth, client: page.clientWidth,
          right: Math.max(0, ...boxes, ...controls)};
}"""


def offline_page(browser, path, width, init: str | None = None):
    """A page of ``path`` (a self-contained file) at ``width`` px with the network refused;
    ``(context, page, asked, errors)``: ``asked`` collects every request other than the file,
    ``errors`` the page's errors; ``init``: a script run before the page's own."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    if init is not None:
        context.add_init_script(init)
    context.set_offline(True)
    asked = []

    def refuse(route):
        if route.request.url == path.as_uri():
            route.continue_()
            return
        asked.append(route.request.url)
        route.abort()

    context.route("**/*", refuse)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(path.as_uri())
    return context, page, asked, errors


def test_the_audit_page_puts_the_ledger_beside_the_chart_and_below_it_on_a_phone(
        browser, tmp_path, shots):
    from engine.games.atkr.audit import audit
    from engine.replay import open_log

    source = os.path.join(ROOT, "replays", "atkr-4p-cautious-seed104.devlog")
    result = audit(open_log(source))
    transfers = result.transfers()
    rounds = sorted({number for number, _ in transfers})
    out = tmp_path / "audit.html"
    assert CliRunner().invoke(cli, ["audit", source, "--html", str(out)]).exit_code == 0
    context, page, asked, errors = offline_page(browser, out, 1300)
    page.wait_for_selector("#ledger-table")
    # one head row per round, then its transfers in log order (seq, amount as recorded)
    assert page.locator("#ledger-table tr.round-head").count() == len(rounds)
    cells = page.locator("#ledger-table tbody tr:not(.round-head)")
    assert cells.count() == len(transfers)
    first = cells.nth(0).inner_text().split("\t")
    assert [int(first[0]), first[1], first[2], first[3], int(first[4])] == \
        [transfers[0][1].seq, transfers[0][1].rule, transfers[0][1].frm, transfers[0][1].to,
         transfers[0][1].amount]
    for width in (1300, 390):
        page.set_viewport_size({"width": width, "height": 800})
        chart = page.locator("#chart-pane").bounding_box()
        ledger = page.locator("#ledger-pane").bounding_box()
        if width == 1300:  # beside the chart
            assert ledger["x"] >= chart["x"] + chart["width"] and ledger["y"] == chart["y"]
        else:  # below it, and nothing sticks out of a 390 px screen
            assert ledger["y"] >= chart["y"] + chart["height"]
            sizes = page.evaluate(CUT_OFF)
            assert sizes["scroll"] <= sizes["client"] and sizes["right"] <= 390, sizes
    # pointing at round 2 of the ledger lights round 2's column on the chart and its money row
    page.locator('#ledger-table tbody[data-round="2"]').hover()
    assert page.locator("#chart rect.column.lit").get_attribute("data-x") == "2"
    assert page.locator("#money-table tr.lit td").first.inner_text() == "2"
    page.screenshot(path=os.path.join(shots, "audit-ledger-390.png"))
    context.close()
    assert asked == [] and errors == []


def test_the_archive_report_renders_its_sections_and_sorts_them(browser, tmp_path, shots):
    import shutil

    folder = tmp_path / "archive"
    folder.mkdir()
    for name in ("atkr-2p-random-seed102.devlog", "atkr-4p-cautious-seed104.devlog",
                 "castle-3p.devlog"):
        shutil.copy(os.path.join(ROOT, "replays", name), folder / name)
    out = tmp_path / "report.html"
    result = CliRunner().invoke(cli, ["audit", str(folder), "--html", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    context, page, asked, errors = offline_page(browser, out, 390)
    page.wait_for_selector("#report:not([hidden])")
    headings = [h.split("\n")[0].strip() for h in page.locator("#sections h2").all_inner_texts()]
    assert headings == ["Damaged files and failed audits OK", "Money per game OK",
                        "Games where the bank was down the most", "Totals of 2 atkr games",
                        "Players (atkr), by name across games", "The games"]
    sizes = page.evaluate(CUT_OFF)
    assert sizes["scroll"] <= sizes["client"] and sizes["right"] <= 390, sizes
    games = page.locator("#table-games tbody tr")
    assert games.count() == 3
    # the extremes: sort by "bank down at most" (largest first on the first click of a
    # numeric column), then the other way
    down = page.locator("#table-bank-down")
    deficits = lambda: [int(t.split("\t")[2]) for t in down.locator("tbody tr").all_inner_texts()]  # noqa: E731
    ranked = deficits()
    assert ranked == sorted(ranked, reverse=True) and len(ranked) == 2
    sort = down.locator("th button", has_text="bank down at most")
    sort.click()
    assert deficits() == sorted(ranked, reverse=True)
    assert down.locator("th[aria-sort=descending]").count() == 1
    sort.click()
    assert deficits() == sorted(ranked)
    # the filter keeps the rows holding its text
    page.locator("#section-games input.filter").fill("castle")
    assert games.count() == 1 and "no audit" in games.nth(0).inner_text()
    page.screenshot(path=os.path.join(shots, "archive-report-390.png"))
    context.close()
    assert asked == [] and errors == []


# -- in a real browser (headless Chromium, tests/page/conftest.py) ---------------------------
#: what sticks out of the page sideways, and the text table's box: its right edge, and whether
#: it scrolls inside itself (a cut-off table does)
WIDTHS = """() => {
  const page = document.scrollingElement;
  const pre = document.getElementById("table");
  const box = pre.getBoundingClientRect();
  const out = [...document.querySelectorAll("body *")]
    .filter((e) => e.offsetParent !== null && !e.closest(".scroll, #right"))
    .map((e) => Math.round(e.getBoundingClientRect().right));
  return {scroll: page.scrollWidth, client: page.clientWidth, right: Math.max(0, ...out),
          table_right: Math.round(box.right), table_left: Math.round(box.left),
          table_scroll: pre.scrollWidth, table_client: pre.clientWidth};
}"""

#: every Content-Security-Policy violation the page reports (set before the page's own script)
WATCH_CSP = """window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(e.violatedDirective + " " + e.blockedURI));"""


def test_a_phone_sees_the_whole_table_and_who_made_each_line(browser, tmp_path, shots):
    """Issue 25.7 on the hand-played game of tests/page/test_replay_fix.py, at 390 px."""
    from client.page import texts
    from engine.web.pages import replay_data, replay_html
    from tests.page.test_replay_fix import hand_log

    log, _ = hand_log(tmp_path)
    data = replay_data(log, None, texts)
    out = tmp_path / "hand.html"
    out.write_text(replay_html(data, "hand"), encoding="utf-8")
    context, page, asked, errors = offline_page(browser, out, 390, init=WATCH_CSP)
    page.wait_for_selector("#replay:not([hidden])")
    # the first event: its facts, not a data dump (the view's data folded away)
    facts = page.locator("#current dl.setup dd").all_inner_texts()
    assert facts[0] == "2: Anna, Ben (seat order)" and len(facts) == 9
    assert page.locator("#view details[open]").count() == 0
    # Ben's bust: the referee reported the coal; the first payout is the bank's, about Anna
    won = next(s for s in data["steps"] if s["type"] == "bet_won")
    line = page.locator(f'ol#events li[data-seq="{won["seq"]}"]')
    assert line.locator(".actor").inner_text() == "bank"
    assert line.locator(".text").inner_text().startswith("Anna's bet of 20 wins")
    rule = won["rules"][0]
    assert line.inner_text().count(rule) == 1 and line.locator(".rule").count() == 1
    assert page.locator('ol#events li[data-seq="7"] .actor').inner_text() == "Anna"
    line.click()
    assert page.inner_text("#where") == f"event {won['seq']} of {len(data['steps'])} " \
                                        f"(#{won['seq']})"
    assert page.locator("#current .rule").count() == 1
    # the whole text table on a 390 px screen: nothing sticks out, nothing scrolls sideways
    sizes = page.evaluate(WIDTHS)
    assert sizes["scroll"] <= sizes["client"] and sizes["right"] <= 390, sizes
    assert 0 <= sizes["table_left"] and sizes["table_right"] <= 390, sizes
    assert sizes["table_scroll"] <= sizes["table_client"], sizes
    table = page.inner_text("#table")
    for name in ("Anna", "Ben"):  # every row of the table is there
        assert re.search(rf"^\W*{name}\s", table, re.M), table
    page.screenshot(path=f"{shots}/replay-hand-390.png", full_page=True)
    violations = page.evaluate("window.__violations")
    context.close()
    assert asked == [] and errors == [] and violations == []


@pytest.mark.slow  # a 10-player bots' game of some 6,000 events, its page built and opened
def test_a_long_games_page_is_small_and_shows_the_same(browser, tmp_path, shots):
    """Issue 25.7: a game of over 3,000 events makes an ``--html`` file under 1 MB (the data
    packed: engine.web.pages.data_block) that draws exactly what the data says."""
    from client.page import texts
    from engine.replay import open_log
    from engine.web.pages import PACKED_TYPE, page_data, replay_data

    folder = tmp_path / "games"
    ran = CliRunner().invoke(cli, ["simulate", "castle", "--players", "10", "--games", "1",
                                   "--seed", "3", "--out", str(folder), "--json"])
    assert ran.exit_code == 0, ran.output
    (path,) = folder.glob("*.devlog")
    log = open_log(str(path))
    assert len(log.records) >= 3000
    out = tmp_path / "long.html"
    made = CliRunner().invoke(cli, ["replay", str(path), "--html", str(out)])
    assert made.exit_code == 0, made.output
    html = out.read_text(encoding="utf-8")
    assert len(html.encode("utf-8")) < 1_000_000 and f'type="{PACKED_TYPE}"' in html
    data = replay_data(log, None, texts)
    assert page_data(html) == json.loads(json.dumps(data))  # nothing lost in the packing
    context, page, asked, errors = offline_page(browser, out, 1300)
    page.wait_for_selector("#replay:not([hidden])", timeout=60000)
    steps = data["steps"]
    assert page.locator("ol#events li").count() == len(steps)
    page.keyboard.press("End")
    last = steps[-1]
    assert page.inner_text("#where") == f"event {len(steps)} of {len(steps)} (#{last['seq']})"
    assert page.inner_text("#current .text") == last["text"]
    assert page.inner_text("#table") == last["table"]
    middle = steps[len(steps) // 2]
    page.locator("#slider").fill(str(len(steps) // 2))
    assert page.inner_text("#current .text") == middle["text"]
    assert page.inner_text("#table") == middle["table"]
    page.screenshot(path=os.path.join(shots, "replay-long.png"))
    context.close()
    assert asked == [] and errors == []
