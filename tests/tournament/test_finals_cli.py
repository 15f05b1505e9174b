"""A final table (TOUR-10) through `devil tournament ...` on a file store and over HTTP with
the organiser's key, worked by hand.

One Swiss round (fixed seating, :func:`helpers.quick_atkr`; a bet b < 600 ends at 600 + b,
seat 0 at 800 + b, a bet of 600 at 1800, seat 0 at 2000):
  table 1  Ann Ben Cat Dan  bets 600 600 200 0  -> 2000 1800 800 600: Ann 6, Ben 4, Cat 2, Dan 1
  table 2  Fay Eve Gus Hal  bets 300 600 100 0  -> 1100 1800 700 600: Eve 6, Fay 4, Gus 2, Hal 1
Ties on points go to money (opponents' points are equal: 13 at a table less one's own):
Ann (2000) before Eve (1800), Ben (1800) before Fay (1100), Cat (800) before Gus (700).
The final table of 4: Ann Eve Ben Fay, Ann starts (TOUR-10.2, 10.3).
  bets Ann 0, Eve 600, Ben 300, Fay 0 -> Ann 800, Eve 1800, Ben 900, Fay 600
Final ranking (TOUR-10.4): Eve, Ben, Ann, Fay, then Cat, Gus, then Dan and Hal (a seeded draw).
"""

import json

from click.testing import CliRunner
from starlette.testclient import TestClient

from client.cli import cli
from engine.service import GameService
from engine.store import MemoryStore
from engine.store.file import FileStore
from engine.web import create_app

from .helpers import organiser, quick_atkr

ROUND1 = [(["Ann", "Ben", "Cat", "Dan"], {"Ann": 600, "Ben": 600, "Cat": 200, "Dan": 0}),
          (["Fay", "Eve", "Gus", "Hal"], {"Fay": 300, "Eve": 600, "Gus": 100, "Hal": 0})]
FINAL = (["Ann", "Eve", "Ben", "Fay"], {"Ann": 0, "Eve": 600, "Ben": 300, "Fay": 0})
PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def run(store, *args):
    return CliRunner().invoke(cli, ["--store", store, "tournament", *args])


def test_a_final_table_from_the_command_line(tmp_path):
    store = str(tmp_path / "store")
    made = run(store, "new", "Final cup", "--game", "atkr", "--rounds", "1", "--table-size",
               "4-4", "--format", "fixed", "--physical", "--seed", "7", "--final-table", "4",
               *[a for p in PLAYERS for a in ("--player", p)])
    assert made.exit_code == 0, made.output
    assert "then the top 4 play a final table of 4" in made.output
    t = made.output.splitlines()[0]
    bad = run(store, "new", "Bad cup", "--game", "atkr", "--rounds", "1", "--table-size", "4-4",
              "--player", "A", "--final-table", "5")
    assert bad.exit_code == 2 and "TOUR-10.1" in bad.output and "Traceback" not in bad.output
    seating = tmp_path / "seating.json"
    seating.write_text(json.dumps({"tables": [table for table, _ in ROUND1]}))
    assert run(store, "pair", t, "--seating", str(seating), "--no-games").exit_code == 0
    service = GameService(FileStore(store))
    for table, bets in ROUND1:
        assert run(store, "attach", t, quick_atkr(service, table, bets)).exit_code == 0
    closed = run(store, "close-round", t)
    assert closed.exit_code == 0 and "finished" not in closed.output
    again = run(store, "pair", t, "--seating", str(seating), "--no-games")
    assert again.exit_code == 2 and "TOUR-10.2" in again.output
    final = run(store, "pair", t, "--no-games")
    assert run(store, "show", t).output.startswith(f"Final cup ({t}): atkr, the final (round 2)")
    assert final.exit_code == 0, final.output
    assert final.output.splitlines()[:2] == [
        "the final (round 2): 1 table, 0 byes, 2 repeated pairs",
        "  table 1   Ann*  Eve  Ben  Fay"]
    assert run(store, "attach", t, quick_atkr(service, *FINAL)).exit_code == 0
    done = run(store, "close-round", t)
    assert "the tournament is finished" in done.output
    data = json.loads(run(store, "standings", t, "--json").output)
    assert [(r["player"], r["swiss_rank"], r["final_place"]) for r in data["standings"][:6]] == [
        ("Eve", 2, 1), ("Ben", 3, 2), ("Ann", 1, 3), ("Fay", 4, 4), ("Cat", 5, None),
        ("Gus", 6, None)]
    assert {r["player"] for r in data["standings"][6:]} == {"Dan", "Hal"}
    text = run(store, "standings", t).output.splitlines()
    assert text[1].split()[-2:] == ["swiss", "final"]
    assert text[2].split() == ["1", "Eve", "6", "1", "0", "7", "1", "1800", "2", "1"]
    assert text[7].split() == ["6", "Gus", "2", "1", "0", "11", "0", "700", "6"]
    assert run(store, "verify", t).exit_code == 0


KEY = "organiser-secret"
AUTH = {"Authorization": f"Bearer {KEY}"}


def test_a_final_table_over_http():
    store = MemoryStore()
    local = organiser(store)
    with TestClient(create_app(store, KEY)) as http:
        settings = {"name": "Net final", "game": "atkr", "rounds": 1, "table_size": [4, 4],
                    "format": "fixed", "players": PLAYERS, "seed": 7,
                    "options": {"physical": True}, "final_table": 4}
        bad = http.post("/tournaments", headers=AUTH, json={**settings, "final_table": 3})
        assert bad.status_code == 400 and "TOUR-10.1" in bad.json()["error"]
        t = http.post("/tournaments", headers=AUTH, json=settings).json()["tournament"]
        http.post(f"/tournaments/{t}/commands", headers=AUTH,
                  json={"type": "pair", "seating": [table for table, _ in ROUND1],
                        "games": False})
        for table, bets in ROUND1:
            game = quick_atkr(local.service, table, bets)
            assert http.post(f"/tournaments/{t}/commands", headers=AUTH,
                             json={"type": "attach", "game": game}).status_code == 200
        closed = http.post(f"/tournaments/{t}/commands", headers=AUTH,
                           json={"type": "close-round"})
        assert closed.json()["finished"] is False
        paired = http.post(f"/tournaments/{t}/commands", headers=AUTH,
                           json={"type": "pair", "games": False}).json()
        assert paired["final"] and paired["tables"][0]["players"] == FINAL[0]
        game = quick_atkr(local.service, *FINAL)
        http.post(f"/tournaments/{t}/commands", headers=AUTH, json={"type": "attach", "game": game})
        assert http.post(f"/tournaments/{t}/commands", headers=AUTH,
                         json={"type": "close-round"}).json()["finished"] is True
        late = http.post(f"/tournaments/{t}/commands", headers=AUTH, json={"type": "pair"})
        assert late.status_code == 409 and late.json()["rule"] == "TOUR-5.3"
        rows = http.get(f"/tournaments/{t}/standings").json()["standings"]
        assert [r["player"] for r in rows[:4]] == ["Eve", "Ben", "Ann", "Fay"]
        assert http.get(f"/tournaments/{t}", headers=AUTH).json()["final_table"] == 4
