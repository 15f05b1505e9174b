"""The replay page as a newcomer reads it (issue 25.7) and every served page's
Content-Security-Policy (issue 25.8), without a browser: who each line names as its actor, the
rule id once, the first event as facts, the compact data form, the policy of every HTML route.

The hand-played game: a physical atkr game, Anna and Ben, Anna first (ATKR-1.7: given at
creation).  Anna bets 20, Ben 10 (sealed until both are in: then revealed, ATKR-3), Anna draws
a 25 and stops, Ben draws a devil and busts (ATKR-4.5): the last player is out, so Ben's draw
ends phase 2 and the rules settle the round on their own: both bets are reached by Anna's 25
(ATKR-5.2: a bet wins if anyone's total reaches it), the bank pays them and the prizes
(ATKR-5.3 to ATKR-5.7), the pawns move (ATKR-6) and round 2 begins.
"""

from __future__ import annotations

import hashlib
import base64
import json
import re

import pytest
from starlette.testclient import TestClient

from client.page import table_opened_facts, texts
from engine.replay import load_bytes
from engine.store import MemoryStore
from engine.web import create_app
from engine.web.csp import PageHeaders, policy, script_body, source_hash
from engine.web.pages import (PACK_ABOVE, PACKED_TYPE, data_block, page_data, page_script,
                              replay_data, replay_html, rule_ids)
from tests.tools.helpers import service

#: the records of the hand-played game up to Ben's bust, and who each is by: the game's
#: creation is the referee's (docs/log-format.md: actor -1), the round's start and the bets'
#: reveal follow on their commands (the service), each bet and stop is its seat's own, and in
#: a physical game every coal is the referee's report (ATKR-9.3)
HAND = [(1, "game_created", "referee"), (2, "round_started", "service"),
        (3, "bet_placed", "Anna"), (4, "bet_placed", "Ben"), (5, "bets_revealed", "service"),
        (6, "coal_drawn", "referee"), (7, "stopped", "Anna"), (8, "coal_drawn", "referee")]
#: what the bank settles on its own after the last command of a round (ATKR-5.3 to 5.7)
BANK = {"bet_won", "bet_lost", "prize_paid"}


def hand_log(folder):
    """The hand-played physical game, played in a store in ``folder``: ``(log, game)``."""
    svc = service(folder)
    game = svc.create("atkr", {"players": ["Anna", "Ben"], "first": "Anna",
                               "physical": True}).game
    for command in ({"type": "bet", "player": "Anna", "amount": 20},
                    {"type": "bet", "player": "Ben", "amount": 10},
                    {"type": "draw", "player": "Anna", "coal": 25},
                    {"type": "stop", "player": "Anna"},
                    {"type": "draw", "player": "Ben", "coal": 0}):
        svc.submit(game, command)
    return load_bytes(svc.store.log_bytes(game)), game


@pytest.fixture(scope="module")
def hand_game(tmp_path_factory):
    """:func:`hand_log`, once for the module."""
    return hand_log(tmp_path_factory.mktemp("hand"))


def test_each_line_names_who_made_the_record(hand_game):
    log, _ = hand_game
    for viewer in (None, 1):  # the referee's page and Ben's: the actors are public
        steps = replay_data(log, viewer, texts)["steps"]
        assert [(s["seq"], s["type"], s["actor"]) for s in steps[:8]] == HAND
        after = steps[8:]
        # Ben's bust settled the round: the bank's payouts, then the pawns and round 2
        assert [s["type"] for s in after].count("bet_won") == 2  # 20 and 10, both reached by 25
        assert [s["type"] for s in after][-2:] == ["pawns_placed", "round_started"]
        assert all(s["actor"] == ("bank" if s["type"] in BANK else "service") for s in after)
        assert [s["by"] for s in steps[:8]] == ["referee", "rules", "seat", "seat", "rules",
                                                 "referee", "seat", "referee"]
        assert {s["by"] for s in after} == {"rules"}
        # the sentence still names the player the payout is about, apart from the actor
        won = [s for s in after if s["type"] == "bet_won"]
        assert [s["text"].split("'")[0] for s in won] == ["Anna", "Ben"]


def test_a_kind_without_a_party_names_the_service_and_the_referee_names_itself(tmp_path):
    svc = service(tmp_path)
    game = svc.create("castle", {"players": ["Anna", "Ben", "Cleo"], "first": "Anna"},
                      seed=3).game
    svc.submit(game, {"type": "pass", "player": "Anna"})       # CASTLE-8.1: Anna's turn ends
    svc.submit(game, {"type": "correct", "to": 3, "reason": "Anna did not mean to pass"})
    steps = replay_data(load_bytes(svc.store.log_bytes(game)), None, texts)["steps"]
    # creation: game_created (the referee's), the deal and turn 1 following on (the service);
    # Anna's pass, then turn 2 following on it; the referee's correction
    assert [(s["type"], s["actor"]) for s in steps] == [
        ("game_created", "referee"), ("cards_dealt", "service"), ("turn_started", "service"),
        ("turn_passed", "Anna"), ("turn_started", "service"), ("corrected", "referee")]


def test_a_rule_id_with_a_letter_is_one_rule_id():
    # CASTLE-6.8a is a rule of its own (docs/rules/castle.md: 6.8's choices a and b)
    assert rule_ids({"type": "x"}, "Finn chooses to look (CASTLE-6.8a)") == ["CASTLE-6.8a"]
    assert rule_ids({"rule": "CASTLE-6.8b"}, "takes the key (CASTLE-6.8b)") == ["CASTLE-6.8b"]


def test_the_first_event_is_facts_not_data(hand_game, tmp_path):
    log, _ = hand_game
    first = replay_data(log, None, texts)["steps"][0]
    # the options given, and the house defaults the game records: ring 16 (ATKR-7.2), the
    # printed track (ATKR-6.1), 200 each (ATKR-1.3), 1600 ends it (ATKR-8.1); physical: no seed
    assert first["setup"] == [
        ["players", "2: Anna, Ben (seat order)"], ["start player", "Anna (chosen)"],
        ["table", "physical: played with the box, the referee reports every coal"],
        ["furnace ring", "16 coals (ATKR-7.2)"],
        ["money track", "0-50, 200, 300, 500, 700, 1000, 1300, 1600 (ATKR-6.1)"],
        ["start money", "200 each (ATKR-1.3)"], ["goal", "1600 ends the game (ATKR-8.1)"],
        ["rules text", "atkr-2013"], ["seed", "none: the box's coals are the chance (ATKR-9.3)"]]
    svc = service(tmp_path)
    game = svc.create("castle", {"players": ["Anna", "Ben", "Cleo"], "first": "Cleo"},
                      seed=3).game
    log = load_bytes(svc.store.log_bytes(game))
    step = replay_data(log, 1, texts)["steps"][0]  # Ben's page: the first event is public
    commitment = step["event"]["commitment"]
    assert len(commitment) == 64  # shown whole, to check against the revealed seed
    assert step["setup"] == [
        ["players", "3: Anna, Ben, Cleo (seat order)"], ["start player", "Cleo (chosen)"],
        ["table", "digital: the service deals from the seed"],
        ["hand limit", "8 items (CASTLE-2.7)"],  # 8 with 3 players
        ["rules text", "castle-2006-r2"], ["beginner game", "no"], ["variants", "none"],
        ["house rules", "doctor cancels tie draw: on; sextant last: off; coat of arms "
                        "refused: on; diplomat smuggling: on; duelist bonus: on"],
        ["seed", "chosen by the game's creator: reproducible, not secret"],
        ["seed commitment", commitment]]
    assert all("setup" not in s for s in replay_data(log, 1, texts)["steps"][1:])


def test_a_seated_tables_first_event_reads_its_options():
    opened = {"type": "table_opened", "players": ["Anna", "Ben"], "commitment": "ab" * 32,
              "options": json.dumps({"first": None, "physical": False,
                                     "players": ["Anna", "Ben"], "seed_chosen": False})}
    assert table_opened_facts(opened) == [
        ["players", "2: Anna, Ben (seat order)"], ["first", "default"], ["physical", "no"],
        ["seed chosen", "no"],
        ["seed", "the server's seed mixed with every seat's entropy (seat entropy)"],
        ["seed commitment", "ab" * 32]]
    describe, table, party, setup = texts("atkr")
    assert setup(opened, ["Anna", "Ben"]) == table_opened_facts(opened)
    assert party({"type": "bet_won"}) == "bank" and party({"type": "pawns_placed"}) is None
    assert texts("castle")[2] is None  # castle has no bank: its facts are the service's


def test_large_data_is_packed_and_reads_back_the_same():
    # well above PACK_ABOVE once written: 4000 steps of 80 characters and more
    data = {"steps": [{"seq": n, "text": f"Anna draws {n} <b>&amp;</b> \u2028 {'x' * 60}"}
                      for n in range(4000)]}
    block = data_block(data)
    assert f'type="{PACKED_TYPE}"' in block and len(block) < PACK_ABOVE
    assert "<b>" not in block and data_block(data) == block  # the same data, the same bytes
    assert page_data(replay_html(data)) == data
    small = {"steps": [{"seq": 1, "text": "</script><script>alert(1)</script>"}]}
    assert 'type="application/json"' in data_block(small)
    assert page_data(replay_html(small)) == small and "</script><script>" not in data_block(small)
    assert page_data(replay_html(None)) is None
    # a title or data holding a placeholder stays text
    page = replay_html({"steps": [], "name": "{{js}}"}, title="{{css}}")
    assert "<title>{{css}}</title>" in page and page_data(page) == {"steps": [], "name": "{{js}}"}


def inline_scripts(html: str) -> list[str]:
    """The texts of the page's scripts a browser runs: ``<script>`` elements without a
    ``type`` (a data block has one and never runs)."""
    return re.findall(r"<script>(.*?)</script>", html, re.S)


def script_sources(header: str) -> set[str]:
    directive = next(part.strip() for part in header.split(";")
                     if part.strip().startswith("script-src"))
    return set(directive.split()[1:])


def test_a_hash_is_the_browsers_hash():
    # CSP 3: base64 of the SHA-256 of the script's UTF-8 text, between <script> and </script>
    assert source_hash("alert(1)") == "'sha256-" + base64.b64encode(
        hashlib.sha256(b"alert(1)").digest()).decode() + "'"
    assert script_body("<script>x()</script>") == "x()"
    with pytest.raises(ValueError):
        script_body('<script src="x.js"></script>')


def test_every_served_page_allows_exactly_its_own_scripts():
    from tests.tournament.helpers import organiser

    store = MemoryStore()
    d = organiser(store)
    t = d.create({"name": "Castle night", "game": "castle", "format": "fixed", "rounds": 1,
                  "table_size": [3, 3], "players": list("ABC"), "seed": 5})
    d.pair(t, seating=[list("ABC")])
    game = d.state(t).games[(1, 1)]
    key = "organiser-secret"
    auth = {"Authorization": f"Bearer {key}"}
    with TestClient(create_app(store, key, texts=texts)) as http:
        assert http.post(f"/tournaments/{t}/publish", json={"public": True},
                         headers=auth).status_code == 200
        pages = [f"/games/{game}/replay", f"/games/{game}/audit",
                 f"/tournaments/{t}/standings.html", f"/tournaments/{t}/pairings.html",
                 f"/tournaments/{t}/slips.html", f"/tournaments/{t}/watch",
                 f"/tournaments/{t}/watch/{game}"]
        for url in pages:
            answer = http.get(url, headers=auth)
            assert answer.status_code == 200, url
            assert answer.headers["content-type"].startswith("text/html"), url
            header = answer.headers["content-security-policy"]
            assert "default-src 'none'" in header and "frame-ancestors 'none'" in header, url
            # every script the page holds is allowed by its hash, and nothing else is
            wanted = {source_hash(text) for text in inline_scripts(answer.text)} or {"'none'"}
            assert script_sources(header) == wanted, url
            assert "'unsafe-inline'" not in script_sources(header), url
            assert answer.headers["referrer-policy"] == "no-referrer", url
            assert answer.headers["x-content-type-options"] == "nosniff", url
        replay = http.get(f"/games/{game}/replay")
        assert script_sources(replay.headers["content-security-policy"]) == {
            source_hash(page_script())}
        assert "connect-src 'self'" in replay.headers["content-security-policy"]
        assert inline_scripts(http.get(f"/tournaments/{t}/slips.html", headers=auth).text) == []
        # the API's answers carry no Referer either
        assert http.get("/health").headers["referrer-policy"] == "no-referrer"


def test_a_file_page_carries_its_policy_and_asks_nothing(hand_game):
    log, _ = hand_game
    html = replay_html(replay_data(log, None, texts))
    found = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html)
    assert found is not None
    meta = found.group(1)
    assert meta == policy([page_script()], connect=False, meta=True)
    assert script_sources(meta) == {source_hash(text) for text in inline_scripts(html)}
    assert "connect-src 'none'" in meta and "frame-ancestors" not in meta


def test_an_html_answer_without_a_policy_runs_no_script():
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.responses import HTMLResponse, JSONResponse
    from starlette.routing import Route

    async def bare(request):
        return HTMLResponse("<p>hi</p><script>alert(1)</script>")

    async def own(request):
        return HTMLResponse("<p>x</p>", headers={"Content-Security-Policy": "default-src 'self'"})

    async def data(request):
        return JSONResponse({"a": 1})

    app = Starlette(routes=[Route("/bare", bare), Route("/own", own), Route("/data", data)],
                    middleware=[Middleware(PageHeaders)])
    with TestClient(app) as http:
        bare_answer = http.get("/bare")
        assert script_sources(bare_answer.headers["content-security-policy"]) == {"'none'"}
        assert bare_answer.headers["x-frame-options"] == "DENY"
        assert http.get("/own").headers["content-security-policy"] == "default-src 'self'"
        plain = http.get("/data")
        assert "content-security-policy" not in plain.headers
        assert plain.headers["referrer-policy"] == "no-referrer"

