"""What organisers print and watch (issue 22.9), worked by hand on the two-round event of
test_standings_atkr.py with a drop, two penalties and a late entry added:

Round 1 (fixed seating; I has the bye: 2 points)
  table 1  A B C D  -> A 2000 (6), B 1800 (4), C 900 (2), D 600 (1); A wins
  table 2  E F G H  -> E 2000 (6), H 1800 (4), F 900 and G 900 share 3rd/4th: 1.5 each; E wins
  round 1 closes.  Then, between rounds: D drops ("went home"), C is penalised -1 ("slow
  play", given while round 1 is the last paired: recorded for round 1), J registers late.
Round 2 (J has the bye: 2)
  table 1  A H C G  -> A 2000 (6), H and C 1800 (3 each), G 900 (1); A wins
  table 2  B E F I  -> B 2000 (6), E and I 1800 (3 each), F 600 (1); B wins
  H is penalised -1/2 ("phone rang") during round 2.

Standings after round 1 (the stream up to round 1's close: none of the later records):
  A 6, E 6, B 4, H 4, C 2, I 2, F 1.5, G 1.5, D 1; no J, D not dropped, C unpenalised.
  Opponents' points then: A 4+2+1 = 7, E 1.5+1.5+4 = 7, B 6+2+1 = 9, H 6+1.5+1.5 = 9,
  C 6+4+1 = 11, I 0, F 6+1.5+4 = 11.5, G 11.5, D 12.  Money: A, E 2000; B, H 1800; ...
  So: C above I (11 > 0); A/E, B/H and F/G tie on points, opponents, money and wins (1, 0, 0):
  the seeded draw orders them (SHA-256 of "11|tiebreak|NAME", smaller first).
Final: A 12, B 10, E 9, H 4+3-0.5 = 6.5, I 2+3 = 5, C 2-1+3 = 4, F 2.5, G 2.5, J 2, D 1.
  C's opponents' points: A 12 + B 10 + D 1 (round 1) + A 12 + H 6.5 + G 2.5 (round 2) = 44.
  F: E 9 + G 2.5 + H 6.5 + B 10 + E 9 + I 5 = 42; G: E 9 + F 2.5 + H 6.5 + A 12 + H 6.5 +
  C 4 = 40.5: F above G (the first tiebreak).
"""

import hashlib
import json

import pytest
from click.testing import CliRunner

from client.cli import cli
from engine.errors import IllegalCommand
from engine.store import FileStore
from engine.tournament import printing
from engine.tournament.history import lines, register, DESCRIBERS
from engine.tournament.printing import Printer

from .helpers import fixed, organiser, quick_atkr

PLAYERS = list("ABCDEFGHI")


def run_event(store=None):
    d = organiser(store)
    svc = d.service
    t = d.create(fixed(PLAYERS, game="atkr", options={"physical": True}))
    d.pair(t, seating=[list("ABCD"), list("EFGH")], byes=["I"], games=False)
    games = [quick_atkr(svc, list("ABCD"), {"A": 600, "B": 600, "C": 300, "D": 0}),
             quick_atkr(svc, list("EFGH"), {"E": 600, "F": 300, "G": 300, "H": 600})]
    for g in games:
        d.attach(t, g)
    d.close_round(t)
    d.drop(t, "D", "went home")
    d.adjust(t, "C", "-1", "slow play")
    d.add(t, "J")
    d.pair(t, seating=[list("AHCG"), list("BEFI")], byes=["J"], games=False)
    d.adjust(t, "H", "-1/2", "phone rang")
    games += [quick_atkr(svc, list("AHCG"), {"A": 600, "H": 600, "C": 600, "G": 300}),
              quick_atkr(svc, list("BEFI"), {"B": 600, "E": 600, "F": 0, "I": 600})]
    for g in games[2:]:
        d.attach(t, g)
    d.close_round(t)
    return d, t, games


@pytest.fixture(scope="module")
def event():
    return run_event()


def drawn(*names):
    """``names`` in the seeded draw's order (seed 11; engine.tournament.standings.draw_key)."""
    def key(name):
        text = f"11|tiebreak|{name}".encode()
        return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")
    return sorted(names, key=key)


HISTORY = [(2, "drop", "D dropped: not paired from round 2 (went home)"),
           (1, "penalty", "C: -1 point (slow play)"),
           (2, "late entry", "J registered late: plays from round 2"),
           (2, "penalty", "H: -0.5 points (phone rang)")]


def test_pairings_of_a_round(event):
    d, t, games = event
    data = Printer(d.service).pairings(t, 2)
    assert data["round"] == 2 and data["closed"] and data["byes"] == ["J"]
    assert [(x["table"], x["players"], x["first"], x["game"]) for x in data["tables"]] == [
        (1, list("AHCG"), "A", games[2]), (2, list("BEFI"), "B", games[3])]
    assert data["tables"][0]["result"]["places"] == [1, 2, 2, 4]
    assert [(h["round"], h["kind"], h["text"]) for h in data["history"]] == HISTORY
    assert printing.pairings_text(data).splitlines()[1:4] == [
        f"  table   1: A*, H, C, G  [{games[2]}]", f"  table   2: B*, E, F, I  [{games[3]}]",
        "  byes: J"]
    assert printing.pairings_csv(data).splitlines() == [
        "round,table,seat,player,first,game",
        *[f"2,1,{i},{p},{'true' if i == 1 else 'false'},{games[2]}"
          for i, p in enumerate("AHCG", 1)],
        *[f"2,2,{i},{p},{'true' if i == 1 else 'false'},{games[3]}"
          for i, p in enumerate("BEFI", 1)],
        "2,,,J,false,bye"]
    first = Printer(d.service).pairings(t, 1)
    assert first["tables"][1]["players"] == list("EFGH") and first["byes"] == ["I"]
    with pytest.raises(IllegalCommand, match="TOUR-12.2: round 3 is not paired"):
        Printer(d.service).pairings(t, 3)


def test_standings_after_round_one_leave_out_what_came_later(event):
    d, t, _ = event
    after = Printer(d.service).standings(t, 1)
    assert after["after"] == 1 and after["closed"] == 1 and not after["finished"]
    got = {r["player"]: (r["points"], r["opponents_points"], r["money"], r["dropped"])
           for r in after["standings"]}
    assert got == {"A": (6, 7, 2000, False), "E": (6, 7, 2000, False),
                   "B": (4, 9, 1800, False), "H": (4, 9, 1800, False),
                   "C": (2, 11, 900, False), "I": (2, 0, 0, False),
                   "F": (1.5, 11.5, 900, False), "G": (1.5, 11.5, 900, False),
                   "D": (1, 12, 600, False)}
    order = [r["player"] for r in after["standings"]]
    assert order == [*drawn("A", "E"), *drawn("B", "H"), "C", "I", *drawn("F", "G"), "D"]
    assert after["history"] == []
    final = Printer(d.service).standings(t)
    assert [(r["player"], r["points"]) for r in final["standings"]] == [
        ("A", 12), ("B", 10), ("E", 9), ("H", 6.5), ("I", 5), ("C", 4), ("F", 2.5),
        ("G", 2.5), ("J", 2), ("D", 1)]
    assert Printer(d.service).standings(t, 2)["standings"] == final["standings"]
    with pytest.raises(IllegalCommand, match=r"TOUR-12.2: round 3 has not closed.*1 to 2"):
        Printer(d.service).standings(t, 3)


def test_explain_gives_each_tiebreaks_inputs(event):
    d, t, games = event
    data = Printer(d.service).explain(t)
    assert data["tiebreaks"] == ["opponents", "measure", "wins"] and data["measure"] == "money"
    by = {p["player"]: p for p in data["players"]}
    c = by["C"]
    assert c["rank"] == 6 and c["points"] == 4
    assert c["points_from"] == [
        {"round": 1, "table": 1, "what": "game", "points": 2},
        {"round": 1, "table": None, "what": "penalty", "points": -1},
        {"round": 2, "table": 1, "what": "game", "points": 3}]
    assert c["opponents"] == {"total": 44, "meetings": [
        {"round": 1, "table": 1, "opponent": o, "points": p}
        for o, p in (("A", 12), ("B", 10), ("D", 1))] + [
        {"round": 2, "table": 1, "opponent": o, "points": p}
        for o, p in (("A", 12), ("H", 6.5), ("G", 2.5))]}
    assert c["measure"] == {"total": 2700, "games": [
        {"round": 1, "table": 1, "game": games[0], "value": 900},
        {"round": 2, "table": 1, "game": games[2], "value": 1800}]}
    assert by["A"]["wins"] == {"total": 2, "games": [
        {"round": 1, "table": 1, "game": games[0]}, {"round": 2, "table": 1, "game": games[2]}]}
    assert (by["F"]["opponents"]["total"], by["G"]["opponents"]["total"]) == (42, 40.5)
    assert by["F"]["rank"] == 7 and by["G"]["rank"] == 8
    assert by["I"]["points_from"][0] == {"round": 1, "table": None, "what": "bye", "points": 2}
    assert by["J"]["opponents"] == {"total": 0, "meetings": []}
    text = printing.explain_text(data)
    assert ("   6. C: 4 points = 2 (r1 t1), -1 (penalty, round 1), 3 (r2 t1)\n"
            "        opponents' points 44 = A 12 (r1 t1), B 10 (r1 t1), D 1 (r1 t1), "
            "A 12 (r2 t1), H 6.5 (r2 t1), G 2.5 (r2 t1)\n"
            "        money 2700 = 900 (r1 t1), 1800 (r2 t1)\n        wins 0\n") in text
    after = Printer(d.service).explain(t, 1)
    assert {p["player"]: p["opponents"]["total"] for p in after["players"]}["C"] == 11


def test_nothing_to_print_before_round_one():
    d = organiser()
    t = d.create(fixed(PLAYERS, game="atkr", options={"physical": True}))
    with pytest.raises(IllegalCommand, match="TOUR-12.2: no round is paired yet"):
        Printer(d.service).pairings(t)
    with pytest.raises(IllegalCommand, match="TOUR-12.2: round 1 has not closed.*none"):
        Printer(d.service).standings(t, 1)


def test_a_new_event_kind_plugs_into_the_history():
    from engine.tournament import events as ev

    saved = dict(DESCRIBERS)
    try:
        register(ev.RoundClosed, "close", lambda e, c: f"round {e.round} over")
        got = lines([ev.RoundPaired(round=1, tables=[], byes=[], repeats=0),
                     ev.RoundClosed(round=1)])
        assert got == [{"seq": 2, "round": 1, "kind": "close", "text": "round 1 over"}]
    finally:
        DESCRIBERS.clear()
        DESCRIBERS.update(saved)


def test_pages_escape_names_and_slips_have_one_per_table():
    d = organiser()
    names = ["<b>Eve</b>", 'Al "&" Bo', "Cy", "Di", "Ed", "Fy", "Gu", "Hal", "Ivo"]
    t = d.create(fixed(names, game="atkr", options={"physical": True}))
    d.pair(t, seating=[names[:4], names[4:8]], byes=[names[8]], games=False)
    d.adjust(t, "<b>Eve</b>", "-2", "<script>alert(1)</script>")
    data = Printer(d.service).pairings(t)
    page = printing.pairings_html(data)
    slips = printing.slips_html(data, "money")
    for text in (page, slips):
        assert "<b>Eve" not in text and "<script>" not in text
        assert "&lt;b&gt;Eve&lt;/b&gt;" in text and "Al &quot;&amp;&quot; Bo" in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert slips.count('<section class="slip">') == 2 and "page-break-after:always" in slips
    assert "&lt;b&gt;Eve&lt;/b&gt; (starts)" in slips and "Ed (starts)" in slips
    assert slips.count("<td class=line></td><td class=line></td><td class=line></td>") == 8
    assert "<th>money</th>" in slips and "@media print" in page


def test_the_cli(tmp_path):
    store = str(tmp_path / "store")
    d, t, games = run_event(FileStore(store))

    def run(*args):
        return CliRunner().invoke(cli, ["--store", store, "tournament", *args])

    got = run("pairings", t, "--round", "1", "--csv", str(tmp_path / "p.csv"),
              "--html", str(tmp_path / "p.html"))
    assert got.exit_code == 0, got.output
    assert f"  table   1: A*, B, C, D  [{games[0]}]" in got.output
    assert "  round 1   penalty     C: -1 point (slow play)" in got.output
    assert open(tmp_path / "p.csv").read().splitlines()[1] == f"1,1,1,A,true,{games[0]}"
    after = run("standings", t, "--after", "1", "--json")
    assert after.exit_code == 0 and json.loads(after.output)["after"] == 1
    shown = run("show", t)
    assert shown.exit_code == 0 and "late entry  J registered late" in shown.output
    text = run("standings", t)
    assert "history:" in text.output and "H: -0.5 points (phone rang)" in text.output
    explained = run("standings", t, "--explain", "--json")
    assert json.loads(explained.output)["players"][0]["wins"]["total"] == 2
    slips = run("slips", t, "--html", str(tmp_path / "s.html"))
    assert slips.exit_code == 0 and "2 slips for round 2" in slips.output
    refused = run("standings", t, "--after", "3")
    assert refused.exit_code == 1 and "TOUR-12.2" in refused.output
    assert "Traceback" not in refused.output
    assert run("slips", t).exit_code == 2  # --html is required
    again = run("slips", t, "--html", str(tmp_path / "s.html"))
    assert again.exit_code == 2 and "exists already" in again.output
    published = run("publish", t)
    assert published.exit_code == 0 and "spectator link is open" in published.output
    twice = run("publish", t)
    assert twice.exit_code == 1 and "TOUR-12.1: the spectator link is already open" in twice.output
    assert run("publish", t, "--off").exit_code == 0
    from engine.replay import verify_bytes

    assert verify_bytes(FileStore(store).log_bytes(t)).ok  # publish re-decides under verify
