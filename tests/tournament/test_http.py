"""The service's tournament operations for the organiser's key (engine/web/tournament.py),
in process through the ASGI app."""

import base64

from starlette.testclient import TestClient

from engine.web import create_app
from engine.store import MemoryStore

from .helpers import organiser, quick_atkr

KEY = "organiser-secret"
AUTH = {"Authorization": f"Bearer {KEY}"}


def test_a_round_over_http_with_seat_tokens():
    store = MemoryStore()
    with TestClient(create_app(store, KEY)) as http:
        settings = {"name": "Net cup", "game": "atkr", "rounds": 1, "table_size": [3, 4],
                    "players": list("ABCDEFG"), "seed": 3}
        assert http.post("/tournaments", json=settings).status_code == 401
        assert http.post("/tournaments", json=settings,
                         headers={"Authorization": "Bearer nope"}).status_code == 403
        made = http.post("/tournaments", json=settings, headers=AUTH)
        assert made.status_code == 201
        t = made.json()["tournament"]
        paired = http.post(f"/tournaments/{t}/commands", json={"type": "pair"}, headers=AUTH)
        assert paired.status_code == 200, paired.text
        tables = paired.json()["tables"]
        assert sorted(len(row["players"]) for row in tables) == [3, 4]  # 7 at 3 to 4
        row = tables[0]
        tokens = row["tokens"]
        assert set(tokens) == {"referee", "spectator", *row["players"]}
        # a seat's token reaches its own game, as that seat
        seat = http.get(f"/games/{row['game']}/view",
                        headers={"Authorization": f"Bearer {tokens[row['players'][0]]}"})
        assert seat.status_code == 200
        # the tournament's stream takes no raw commands: results only through the checks
        raw = http.post(f"/games/{t}/commands", json={"type": "close", "round": 1},
                        headers={**AUTH, "Idempotency-Key": "k1"})
        assert raw.status_code == 400 and "/tournaments/" in raw.json()["error"]
        early = http.post(f"/tournaments/{t}/commands", json={"type": "close-round"},
                          headers=AUTH)
        assert early.status_code == 409 and early.json()["rule"] == "TOUR-5.2"
        assert "is not finished" in early.json()["error"]
        standings = http.get(f"/tournaments/{t}/standings")
        assert standings.status_code == 200 and len(standings.json()["standings"]) == 7
        page = http.get(f"/tournaments/{t}/standings.html")
        assert page.status_code == 200 and page.text.count("<svg") == 7
        # every table of the round, its game linked to the game's replay page (issue 13.4)
        for table in tables:
            assert f'<a href="/games/{table["game"]}/replay">' in page.text
        assert page.text.count("/replay\"") == len(tables) == 2
        replay = http.get(f"/games/{tables[0]['game']}/replay")
        assert replay.status_code == 200 and "text/html" in replay.headers["content-type"]
        shown = http.get(f"/tournaments/{t}", headers=AUTH).json()
        assert shown["paired"][0]["tables"][0]["state"].startswith("round 1")
        bad = http.post(f"/tournaments/{t}/commands", json={"type": "drop", "player": "Zed"},
                        headers=AUTH)
        assert bad.status_code == 400 and "no player called 'Zed'" in bad.json()["error"]


def test_attach_a_referees_log_in_base64():
    store = MemoryStore()
    local = organiser(store)
    with TestClient(create_app(store, KEY)) as http:
        t = http.post("/tournaments", headers=AUTH, json={
            "name": "Box cup", "game": "atkr", "rounds": 1, "table_size": [4, 4],
            "format": "fixed", "players": list("ABCD"), "seed": 1,
            "options": {"physical": True}}).json()["tournament"]
        http.post(f"/tournaments/{t}/commands", headers=AUTH,
                  json={"type": "pair", "seating": [list("ABCD")], "games": False})
        other = organiser()  # the referee recorded the game elsewhere
        game = quick_atkr(other.service, list("ABCD"), {"A": 600, "B": 0, "C": 0, "D": 300})
        log = base64.b64encode(other.store.log_bytes(game)).decode()
        done = http.post(f"/tournaments/{t}/commands", headers=AUTH,
                         json={"type": "attach", "log": log})
        assert done.status_code == 200, done.text
        # A 2000, D 900, B 600 and C 600 tie for 3rd: (2 + 1) / 2 each (TOUR-3.2)
        assert done.json()["result"]["points"] == ["6", "3/2", "3/2", "4"]
        assert http.post(f"/tournaments/{t}/commands", headers=AUTH,
                         json={"type": "close-round"}).json()["finished"] is True
    assert local.state(t).finished and game in store.games()


def test_the_public_standings_name_no_game_of_the_server():
    """GET /tournaments/{t}/standings needs no token; resolving {t} among every game let anyone
    list the server's game ids ("'atkr' matches several games: atkr-..., atkr-...") or learn
    one from a few characters of it.  Only tournaments are resolved."""
    store = MemoryStore()
    with TestClient(create_app(store, KEY)) as http:
        games = [http.post("/games", json={"kind": "atkr", "options": {"players": list("ABC")}},
                           headers=AUTH).json()["game"] for _ in range(2)]
        t = http.post("/tournaments", json={"name": "Cup", "game": "atkr", "rounds": 1,
                                            "players": list("ABCD"), "seed": 1,
                                            "table_size": [4, 4]},
                      headers=AUTH).json()["tournament"]
        for text in ("atkr", "atkr-", games[0][-4:], games[1][:8]):
            answer = http.get(f"/tournaments/{text}/standings")
            assert answer.status_code == 404, answer.text
            assert not any(g in answer.text for g in games), answer.text
        assert http.get(f"/tournaments/{t[-5:]}/standings").json()["tournament"] == t
        assert http.get(f"/tournaments/{t}/standings").status_code == 200
