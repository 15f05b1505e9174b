"""The pages without a browser (issue 13.4, 13.5): the money chart of a game worked by hand, the
files `replay --html` and `audit --chart` write, the data endpoints' tokens, and voided events
in the page's data."""

from __future__ import annotations

import json
import os

import pytest

from engine.chart import svg
from engine.games.atkr.audit import audit
from engine.web.pages import expand, replay_data, replay_html, rule_ids, script_json
from engine.replay import open_log
from tests.service.conftest import App, auth
from tests.tools.helpers import run
from tests.tools.test_audit import G, L, P, S, physical  # noqa: F401 (the worked game)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASTLE = os.path.join(ROOT, "replays", "castle-3p.devlog")
ATKR = os.path.join(ROOT, "replays", "atkr-2p-random-seed102.devlog")


def test_the_money_chart_of_the_worked_game_by_hand(physical):  # noqa: F811
    _, _, path = physical
    spec = audit(open_log(path)).chart()
    # tests/tools/test_audit.py works the game: everyone starts with 200, the bank at 0
    # (ATKR-1.3); after round 1 Gordon 300, Pella 370, Lucy 60, Saul 310 and the bank
    # -100 -120 +140 -60 -50 -50 = -240; Lucy alone on the lowest space takes the pact
    # (ATKR-6.2) and holds it in round 2, after which Gordon 0, Pella 0, Lucy 220, Saul 310
    # and the bank 270.  Gordon and Pella on space 0 both enter the pact for round 3 (ATKR-6.2),
    # which has begun with nothing moved yet.
    assert spec["x"] == [0, 1, 2, 3]
    assert spec["series"] == [
        {"name": G, "values": [200, 300, 0, 0], "dashed": False},
        {"name": P, "values": [200, 370, 0, 0], "dashed": False},
        {"name": L, "values": [200, 60, 220, 220], "dashed": False},
        {"name": S, "values": [200, 310, 310, 310], "dashed": False},
        {"name": "bank", "values": [0, -240, 270, 270], "dashed": True},
    ]
    assert [(m["x"], m["series"]) for m in spec["marks"]] == [(2, [L]), (3, [G, P])]
    drawing = svg(spec)
    assert drawing.count('class="series"') == 5 and drawing.count('class="mark"') == 2
    assert drawing.count("<circle") == 3  # Lucy ringed in round 2, Gordon and Pella in round 3


def test_audit_chart_writes_svg_and_png_and_refuses_what_it_cannot(physical, tmp_path):  # noqa: F811
    _, _, path = physical
    out = run("audit", path, "--chart", str(tmp_path / "money.svg"))
    assert out.exit_code == 0, out.output
    text = (tmp_path / "money.svg").read_text()
    assert text.startswith("<svg") and f'data-name="{L}"' in text
    out = run("audit", path, "--chart", str(tmp_path / "money.png"))
    assert out.exit_code == 0, out.output
    assert (tmp_path / "money.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    before = (tmp_path / "money.png").read_bytes()
    out = run("audit", path, "--chart", str(tmp_path / "money.png"))  # exists: refused
    assert out.exit_code == 2 and "exists already" in out.output
    assert (tmp_path / "money.png").read_bytes() == before
    out = run("audit", path, "--chart", str(tmp_path / "money.jpg"))
    assert out.exit_code == 2 and ".png or .svg" in out.output
    assert not (tmp_path / "money.jpg").exists()
    out = run("audit", CASTLE, "--chart", str(tmp_path / "castle.svg"))  # no audit: usage
    assert out.exit_code == 2 and not (tmp_path / "castle.svg").exists()


def page_data(html: str):
    """The data the page holds, read back as page.js reads it (engine.web.pages.page_data:
    a JSON data block, or a long game's packed one)."""
    from engine.web.pages import page_data as read

    return read(html)


def test_replay_html_holds_only_what_the_seat_saw(tmp_path):
    out = tmp_path / "ben.html"
    result = run("replay", CASTLE, "--as", "Ben", "--html", str(out))
    assert result.exit_code == 0, result.output
    html = out.read_text()
    assert "http://" not in html and "https://" not in html  # nothing to fetch
    data = page_data(html)
    log = open_log(CASTLE)
    ben = log.names.index("Ben")
    seen = [(r.seq, log.rules.events.to_map(log.rules.redact(e, ben)))
            for r, e in zip(log.records, log.events) if log.rules.redact(e, ben) is not None]
    assert data["as"] == "Ben" and [(s["seq"], s["event"]) for s in data["steps"]] == seen
    deal = next(s["event"] for s in data["steps"] if s["type"] == "cards_dealt")
    assert [x is None for x in deal["societies"]] == [i != ben for i in range(3)]
    again = run("replay", CASTLE, "--html", str(out))  # exists: refused, file untouched
    assert again.exit_code == 2 and out.read_text() == html
    assert run("replay", CASTLE, "--html", str(out), "--force").exit_code == 0
    assert page_data(out.read_text())["as"] == "referee"


@pytest.mark.parametrize("path", [CASTLE, ATKR])
def test_every_step_carries_the_view_the_viewer_had_then(path):
    from engine.game import PUBLIC, REFEREE
    from engine.web.pages import expand
    from engine.replay import steps, view_at

    log = open_log(path)
    for viewer in (REFEREE, 1, PUBLIC):
        data = replay_data(log, viewer)
        wanted = [json.loads(json.dumps(view_at(log, item.state, viewer, item.record.seq)))
                  for item in steps(log, viewer)]
        assert "view" in data["steps"][0] and all("patch" in s for s in data["steps"][1:])
        assert json.loads(json.dumps(expand(data))) == wanted


def test_voided_events_carry_their_reason_and_the_page_strikes_them():
    log = open_log(ATKR)
    data = replay_data(log, voids={5: "wrong coal reported", 6: "wrong coal reported"})
    marked = {s["seq"]: s.get("reason") for s in data["steps"] if s.get("voided")}
    assert marked == {5: "wrong coal reported", 6: "wrong coal reported"}
    assert all("voided" not in s for s in data["steps"] if s["seq"] not in (5, 6))
    html = replay_html(data)
    assert page_data(html)["steps"][4]["voided"] is True
    assert "line-through" in html and "step.voided" in html  # drawn struck through (page.js)


def test_a_corrected_game_strikes_through_the_records_it_voided(tmp_path):
    from engine.replay import load_bytes

    from tests.tools.helpers import service

    svc = service(tmp_path)
    game = svc.create("atkr", {"players": ["Anna", "Ben"], "first": "Anna",
                               "physical": True}).game
    for command in ({"type": "bet", "player": "Anna", "amount": 20},    # 3
                    {"type": "bet", "player": "Ben", "amount": 10},     # 4, revealed 5
                    {"type": "draw", "player": "Anna", "coal": 25},     # 6
                    {"type": "draw", "player": "Anna", "coal": 50}):    # 7: the wrong coal
        svc.submit(game, command)
    svc.submit(game, {"type": "correct", "to": 6, "reason": "the coal was a 20"})  # 8
    svc.submit(game, {"type": "draw", "player": "Anna", "coal": 20})    # 9
    log = load_bytes(svc.store.log_bytes(game))
    for viewer in (None, 1):  # the referee's page and Ben's
        data = replay_data(log, viewer)
        marked = {s["seq"]: s["reason"] for s in data["steps"] if s.get("voided")}
        assert marked == {7: "the coal was a 20"}
        views = expand(data)
        anna = [v["players"][0]["coals"] for v in views]
        assert anna[-4:] == [[25], [25, 50], [25], [25, 20]]  # 6, 7, the correction, 9
        assert views[-1]["voided"] == [{"from": 7, "to": 7, "by": 8,
                                        "reason": "the coal was a 20", "epoch": 1}]


def test_data_in_the_page_cannot_close_its_script():
    text = script_json({"name": "</script><script>alert(1)</script><!--"})
    assert "<" not in text and ">" not in text
    assert json.loads(text) == {"name": "</script><script>alert(1)</script><!--"}


def test_rule_ids_come_from_the_event_and_its_sentence():
    assert rule_ids({"type": "bet_won", "rule": "ATKR-5.5"}, "pays double (ATKR-5.5)") == \
        ["ATKR-5.5"]
    assert rule_ids({"type": "x", "reasons": [{"why": "CASTLE-4.1"}]}, "see CASTLE-11.1") == \
        ["CASTLE-4.1", "CASTLE-11.1"]


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = App(tmp_path_factory.mktemp("store"))
    yield app
    app.close()


def test_the_data_endpoints_answer_each_token_what_it_may_see(app):
    created = app.http.post("/games", json={"kind": "castle", "seed": 3, "options": {
        "players": ["Anna", "Ben", "Cleo"]}}).json()
    game, tokens = created["game"], created["tokens"]
    page = app.http.get(f"/games/{game}/replay")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "Anna" not in page.text and page.headers["cache-control"] == "no-store"
    url = f"/games/{game}/replay/data"
    assert app.http.get(url).status_code == 401
    anna = app.http.get(url, headers=auth(tokens["Anna"]))
    assert anna.status_code == 200 and anna.json()["as"] == "Anna" and "choose" not in anna.json()
    deal = next(s["event"] for s in anna.json()["steps"] if s["type"] == "cards_dealt")
    assert deal["societies"][0] is not None and deal["societies"][1:] == [None, None]
    refused = app.http.get(url + "?as=Ben", headers=auth(tokens["Anna"]))
    assert refused.status_code == 403 and refused.json()["code"] == 4
    spectator = app.http.get(url, headers=auth(tokens["spectator"])).json()
    deal = next(s["event"] for s in spectator["steps"] if s["type"] == "cards_dealt")
    assert spectator["as"] == "spectator" and deal["societies"] == [None, None, None]
    referee = app.http.get(url, headers=auth(tokens["referee"])).json()
    assert referee["as"] == "referee" and referee["choose"] == ["Anna", "Ben", "Cleo"]
    as_ben = app.http.get(url + "?as=Ben", headers=auth(tokens["referee"])).json()
    assert as_ben["as"] == "Ben"
    assert app.http.get("/games/atkr-zzzzzz/replay/data",
                        headers=auth(tokens["Anna"])).status_code == 403  # not its game
    audit_url = f"/games/{game}/audit/data"
    assert app.http.get(audit_url, headers=auth(tokens["Anna"])).status_code == 403
    no_audit = app.http.get(audit_url, headers=auth(tokens["referee"]))
    assert no_audit.status_code == 400 and "no audit" in no_audit.json()["error"]
