"""What organisers print and watch over HTTP (engine/web/tournament_print.py), in process through
the ASGI app on the hand-worked event of test_print.py; and the public spectator link of a
Castle of the Devil tournament, which must show no hidden card."""

import json

from starlette.testclient import TestClient

from engine.game import PUBLIC
from engine.store import MemoryStore
from engine.web import create_app

from .helpers import organiser
from .test_print import HISTORY, run_event

KEY = "organiser-secret"
AUTH = {"Authorization": f"Bearer {KEY}"}


def test_pairings_standings_explain_history_slips():
    store = MemoryStore()
    d, t, games = run_event(store)
    with TestClient(create_app(store, KEY)) as http:
        got = http.get(f"/tournaments/{t}/pairings", params={"round": 2}).json()
        assert [x["players"] for x in got["tables"]] == [list("AHCG"), list("BEFI")]
        assert [(h["round"], h["kind"], h["text"]) for h in got["history"]] == HISTORY
        csv = http.get(f"/tournaments/{t}/pairings.csv", params={"round": 1})
        assert csv.text.splitlines()[-1] == "1,,,I,false,bye"
        page = http.get(f"/tournaments/{t}/pairings.html")
        assert page.status_code == 200 and "round 2 pairings" in page.text
        assert f"/tournaments/{t}/changes" in page.text  # the live script
        assert f"/watch/{games[2]}" not in page.text  # not published: no public link
        after = http.get(f"/tournaments/{t}/standings/after/1").json()
        assert {r["player"]: r["points"] for r in after["standings"]}["C"] == 2
        late = http.get(f"/tournaments/{t}/standings/after/3")
        assert late.status_code == 409 and late.json()["rule"] == "TOUR-12.2"
        assert http.get(f"/tournaments/{t}/standings/after/x").status_code == 400
        explained = http.get(f"/tournaments/{t}/explain", params={"after": 1}).json()
        assert explained["after"] == 1
        assert {p["player"]: p["opponents"]["total"] for p in explained["players"]}["D"] == 12
        assert http.get(f"/tournaments/{t}/history").json()["history"][1]["text"] == \
            "C: -1 point (slow play)"
        standings = http.get(f"/tournaments/{t}/standings.html").text
        assert "<h2>History</h2>" in standings and "H: -0.5 points (phone rang)" in standings
        assert f"/tournaments/{t}/changes" in standings
        assert http.get(f"/tournaments/{t}/slips.html").status_code == 401
        slips = http.get(f"/tournaments/{t}/slips.html", headers=AUTH)
        assert slips.status_code == 200 and slips.text.count('class="slip"') == 2
        changes = http.get(f"/tournaments/{t}/changes", params={"after": 0}).json()
        version = d.service.load(t).version
        assert changes["version"] == version
        waited = http.get(f"/tournaments/{t}/changes",
                          params={"after": version, "wait": 0.2}).json()
        assert waited["version"] == version  # nothing new: answered at the deadline
        assert http.get(f"/tournaments/{t}/pairings", params={"round": 9}).status_code == 409
        assert http.get("/tournaments/nope/pairings").status_code == 404
        spec = http.get("/openapi.json").json()["paths"]
        assert {f"/tournaments/{{tournament}}/{p}" for p in (
            "pairings", "pairings.html", "slips.html", "publish", "watch", "watch/{game}/data",
            "standings/after/{round}", "explain", "changes")} <= set(spec)


def test_the_spectator_link_shows_no_hidden_card():
    store = MemoryStore()
    d = organiser(store)
    t = d.create({"name": "Castle night", "game": "castle", "format": "fixed", "rounds": 1,
                  "table_size": [6, 6], "players": list("ABCDEF"), "seed": 5})
    d.pair(t, seating=[list("ABCDEF")])
    game = d.state(t).games[(1, 1)]
    other = d.service.create("castle", {"players": list("ABCDEF")}).game
    with TestClient(create_app(store, KEY)) as http:
        closed = http.get(f"/tournaments/{t}/watch/{game}/data")
        assert closed.status_code == 404 and "not published" in closed.json()["error"]
        assert http.get(f"/tournaments/{t}/watch").status_code == 404
        assert http.post(f"/tournaments/{t}/publish", json={"public": True}).status_code == 401
        assert http.post(f"/tournaments/{t}/publish", json={"public": "yes"},
                         headers=AUTH).status_code == 400
        opened = http.post(f"/tournaments/{t}/publish", json={"public": True}, headers=AUTH)
        assert opened.status_code == 200 and opened.json()["events"] == [
            {"type": "tournament_published", "public": True}]
        again = http.post(f"/tournaments/{t}/publish", json={}, headers=AUTH)
        assert again.status_code == 409 and again.json()["rule"] == "TOUR-12.1"
        data = http.get(f"/tournaments/{t}/watch/{game}/data").json()
        assert (data["round"], data["table"]) == (1, 1)
        # exactly the spectator's view: every seat's items, society and profession hidden
        assert data["view"] == d.service.view(game, PUBLIC)
        assert all(p["items"] is None and p["society"] is None and p["profession"] is None
                   for p in data["view"]["players"])
        text = json.dumps(data)
        for seat in d.service.view(game)["players"]:  # the referee's view: the hidden cards
            for secret in [*seat["items"], seat["profession"]]:
                assert f'"{secret}"' not in text, secret
        assert http.get(f"/tournaments/{t}/watch/{other}/data").status_code == 404
        listing = http.get(f"/tournaments/{t}/watch").text
        assert f'href="/tournaments/{t}/watch/{game}"' in listing
        standings = http.get(f"/tournaments/{t}/standings.html").text
        assert f'href="/tournaments/{t}/watch/{game}"' in standings
        pairings = http.get(f"/tournaments/{t}/pairings.html").text
        assert f'href="/tournaments/{t}/watch/{game}"' in pairings
        watched = http.get(f"/tournaments/{t}/watch/{game}")
        assert watched.status_code == 200 and "round 1, table 1" in watched.text
        # the replay page with the game's spectator replay inlined: rendered, and nothing hidden
        assert 'data-page="replay"' in watched.text or "data-page=replay" in watched.text
        assert '"as":"spectator"' in watched.text.replace(" ", "")
        for seat in d.service.view(game)["players"]:
            for secret in [*seat["items"], seat["profession"]]:
                assert f'"{secret}"' not in watched.text, secret
        assert http.post(f"/tournaments/{t}/publish", json={"public": False},
                         headers=AUTH).status_code == 200
        assert http.get(f"/tournaments/{t}/watch/{game}/data").status_code == 404
