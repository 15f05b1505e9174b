"""One ledger across an archive (issue 23, items 1 and 2): `devil audit PATH... --csv FILE`
and `--json` over three physical Auf Teufel komm raus games played through the CLI, every
transfer and total worked by hand from docs/rules/atkr.md; a damaged file, a kind without an
audit, `--top`, a tournament bundle's games grouped, and a CSV never left half written."""

from __future__ import annotations

import csv
import json
import os
import shutil

import pytest

from tests.desk.helpers import ok

from .helpers import run

REPLAYS = os.path.join(os.path.dirname(__file__), "..", "..", "replays")

# Game 1: Anna, Ben, Cleo; Anna starts.  Seq 1 game_created, 2 round_started.
#   Round 1, bets (ATKR-3.5) #3 Anna 70, #4 Ben 50, #5 Cleo 150 (#6 revealed).  Anna 50, 25,
#   stops (#7-9): 75 in 2 coals; Ben 10, 20, 10, stops (#10-13): 40 in 3; Cleo a devil (#14):
#   no pact in round 1 (ATKR-6.3).  H = 75 (ATKR-5.1).  From Anna (ATKR-5.2): #15 Anna's 70 <=
#   75 wins 1x (not the highest bet, ATKR-5.3); #16 Ben's 50 wins 1x; #17 Cleo's 150, the
#   highest bet, loses (ATKR-5.4: so nobody is paid double, ATKR-5.5); #18 Anna's 75 = H: 50
#   (ATKR-5.6); #19 Ben's 3 coals: 50 (ATKR-5.7).  Anna 200 + 70 + 50 = 320, Ben 200 + 50 + 50
#   = 300, Cleo 200 - 150 = 50.  Bank: -70 -50 (-120, its lowest yet) +150 -50 -50 = -70.
#   #20 pawns: Cleo on 0-50, alone last: the pact (ATKR-6.2); #21 round 2, Ben starts.
#   Round 2, bets #22 Anna 300 (20 not bet), #23 Ben 100 (200 not bet), #24 Cleo 0 (#25).
#   #26 Ben a devil: he pays Cleo 50 (#27, ATKR-6.5); #28 Cleo 100, #29 stops; #30 Anna a
#   devil with 20 not bet: the bank pays Cleo 50 (#31).  H = 100.  From Ben: #32 Ben's 100
#   wins 1x (Anna's 300 is the highest bet and lost); Cleo bet 0; #33 Anna's 300 is lost;
#   #34, #35 Cleo's 100 = H and her one coal, the most: 50 + 50.  Ben 300 - 100 - 50 + 100 +
#   100 = 350, Cleo 50 + 50 + 50 + 50 + 50 = 250, Anna 20.  Bank: -70 -50 (pact) -100 (-220:
#   the lowest) +300 -50 -50 = -20.  #36 pawns (Anna alone last), #37 round 3: left there.
G1 = [("1", "3", "ATKR-3.5", "Anna", "table", "70"), ("1", "4", "ATKR-3.5", "Ben", "table", "50"),
      ("1", "5", "ATKR-3.5", "Cleo", "table", "150"),
      ("1", "15", "ATKR-5.3", "table", "Anna", "70"), ("1", "15", "ATKR-5.3", "bank", "Anna", "70"),
      ("1", "16", "ATKR-5.3", "table", "Ben", "50"), ("1", "16", "ATKR-5.3", "bank", "Ben", "50"),
      ("1", "17", "ATKR-5.4", "table", "bank", "150"),
      ("1", "18", "ATKR-5.6", "bank", "Anna", "50"), ("1", "19", "ATKR-5.7", "bank", "Ben", "50"),
      ("2", "22", "ATKR-3.5", "Anna", "table", "300"),
      ("2", "23", "ATKR-3.5", "Ben", "table", "100"),
      ("2", "27", "ATKR-6.5", "Ben", "Cleo", "50"), ("2", "31", "ATKR-6.5", "bank", "Cleo", "50"),
      ("2", "32", "ATKR-5.3", "table", "Ben", "100"),
      ("2", "32", "ATKR-5.3", "bank", "Ben", "100"),
      ("2", "33", "ATKR-5.4", "table", "bank", "300"),
      ("2", "34", "ATKR-5.6", "bank", "Cleo", "50"), ("2", "35", "ATKR-5.7", "bank", "Cleo", "50")]
T1 = {"money_start": 600, "money_end": 620, "on_table": 0, "bet": 670, "bank_paid": 470,
      "bets_won": 220, "prizes": 200, "pact_by_bank": 50, "bank_won": 450, "bank_balance": -20,
      "pact_by_seats": 50, "bank_lowest": -220}

# Game 2: Anna, Ben; Ben starts.  Round 1, bets #3 Ben 100, #4 Anna 40 (#5).  Ben 75, 25,
#   stops (#6-8): 100 in 2; Anna 20, 10, 10, stops (#9-12): 40 in 3.  H = 100.  From Ben: #13
#   Ben's 100 is the highest bet and wins: 2x, 200 (ATKR-5.5); #14 Anna's 40 wins 1x; #15 Ben
#   50 (ATKR-5.6), #16 Anna 50 (ATKR-5.7).  Ben 200 + 200 + 50 = 450, Anna 200 + 40 + 50 = 290;
#   the bank -200 -40 -50 -50 = -340, its lowest.  #17 pawns (Anna alone last: the pact), #18
#   round 2, Anna starts: bets #19 Anna 90, #20 Ben 200 (#21), #22 Anna draws 50: left there,
#   mid-round.  Money now (the end of this ledger): Anna 200, Ben 250; 290 on the table.
G2 = [("1", "3", "ATKR-3.5", "Ben", "table", "100"), ("1", "4", "ATKR-3.5", "Anna", "table", "40"),
      ("1", "13", "ATKR-5.5", "table", "Ben", "100"),
      ("1", "13", "ATKR-5.5", "bank", "Ben", "200"),
      ("1", "14", "ATKR-5.3", "table", "Anna", "40"),
      ("1", "14", "ATKR-5.3", "bank", "Anna", "40"),
      ("1", "15", "ATKR-5.6", "bank", "Ben", "50"), ("1", "16", "ATKR-5.7", "bank", "Anna", "50"),
      ("2", "19", "ATKR-3.5", "Anna", "table", "90"),
      ("2", "20", "ATKR-3.5", "Ben", "table", "200")]
T2 = {"money_start": 400, "money_end": 450, "on_table": 290, "bet": 430, "bank_paid": 340,
      "bets_won": 240, "prizes": 100, "pact_by_bank": 0, "bank_won": 0, "bank_balance": -340,
      "pact_by_seats": 0, "bank_lowest": -340}

# Game 3: Cleo, Dan; Cleo starts.  Round 1, bets #3 Cleo 100, #4 Dan 60 (#5).  #6 Cleo a
#   devil; Dan 25, a devil (#7, #8): everyone busted, H = 0: #9, #10 both bets lost (ATKR-5.4),
#   no prize (ATKR-5.8).  Cleo 100, Dan 140, the bank +160 (never below 0).  #11 pawns: both
#   between 0-50 and 200: nobody alone last, not 0-50: no pact (ATKR-6.2).  #12 round 2, Dan
#   starts: bets #13 Dan 40, #14 Cleo 100 (#15); Dan 10, stops (#16, #17); Cleo 50, stops
#   (#18, #19).  H = 50.  From Dan: #20 Dan's 40 wins 1x (Cleo's 100, the highest bet, lost);
#   #21 Cleo's 100 lost; #22 Cleo 50 (ATKR-5.6); one coal each, both the most: #23 Dan 50, #24
#   Cleo 50 (ATKR-5.7).  Dan 140 + 40 + 50 = 230, Cleo 100 - 100 + 100 = 100; the bank 160 -40
#   +100 -150 = 70.  #25 pawns, #26 round 3: left there.
G3 = [("1", "3", "ATKR-3.5", "Cleo", "table", "100"), ("1", "4", "ATKR-3.5", "Dan", "table", "60"),
      ("1", "9", "ATKR-5.4", "table", "bank", "100"),
      ("1", "10", "ATKR-5.4", "table", "bank", "60"),
      ("2", "13", "ATKR-3.5", "Dan", "table", "40"),
      ("2", "14", "ATKR-3.5", "Cleo", "table", "100"),
      ("2", "20", "ATKR-5.3", "table", "Dan", "40"), ("2", "20", "ATKR-5.3", "bank", "Dan", "40"),
      ("2", "21", "ATKR-5.4", "table", "bank", "100"),
      ("2", "22", "ATKR-5.6", "bank", "Cleo", "50"), ("2", "23", "ATKR-5.7", "bank", "Dan", "50"),
      ("2", "24", "ATKR-5.7", "bank", "Cleo", "50")]
T3 = {"money_start": 400, "money_end": 330, "on_table": 0, "bet": 300, "bank_paid": 190,
      "bets_won": 40, "prizes": 150, "pact_by_bank": 0, "bank_won": 260, "bank_balance": 70,
      "pact_by_seats": 0, "bank_lowest": 0}

# The archive: every total of the three added up, but the bank's lowest balance, the lowest of
# the three (-340, game 2).  Money is conserved: 1400 at the end + 290 on the table - 290 the
# bank is down = the 1400 the seats started with.
ARCHIVE = {"money_start": 1400, "money_end": 1400, "on_table": 290, "bet": 1400,
           "bank_paid": 1000, "bets_won": 500, "prizes": 450, "pact_by_bank": 50,
           "bank_won": 710, "bank_balance": -290, "pact_by_seats": 50, "bank_lowest": -340}
# Players by name over the games they played (from the transfers above).
PLAYERS = {
    # game 1: bet 70 + 300, won 70 + 50, lost 300, ends on 20; game 2: bet 40 + 90, won 40 + 50
    "Anna": {"games": 2, "money_start": 400, "money_end": 220, "bet": 500, "won_from_bank": 210,
             "lost_to_bank": 300, "pact_paid": 0, "pact_received": 0},
    # game 1: bet 50 + 100, won 50 + 50 + 100, paid Cleo 50, ends on 350; game 2: bet 100 +
    # 200, won 200 + 50, ends on 250
    "Ben": {"games": 2, "money_start": 400, "money_end": 600, "bet": 450, "won_from_bank": 450,
            "lost_to_bank": 0, "pact_paid": 50, "pact_received": 0},
    # game 1: bet 150, lost it, 100 in prizes, 50 + 50 of pacts, ends on 250; game 3: bet 100
    # + 100, both lost, 100 in prizes, ends on 100
    "Cleo": {"games": 2, "money_start": 400, "money_end": 350, "bet": 350, "won_from_bank": 200,
             "lost_to_bank": 350, "pact_paid": 0, "pact_received": 100},
    # game 3: bet 60 + 40, lost 60, won 40 + 50
    "Dan": {"games": 1, "money_start": 200, "money_end": 230, "bet": 100, "won_from_bank": 90,
            "lost_to_bank": 60, "pact_paid": 0, "pact_received": 0},
}


def _play(store, players, first, rounds):
    """A physical game through the CLI: per round the bets, then each turn's coals in turn
    order (``"stop"`` ends a turn, a devil ends it by itself)."""
    args = ["new", "atkr", "--first", first, "--physical"]
    for name in players:
        args += ["--player", name]
    game = ok(store, *args).splitlines()[0]
    for bets, turns in rounds:
        for name, amount in bets:
            ok(store, "bet", game, amount, "--as", name)
        for name, coals in turns:
            for coal in coals:
                if coal == "stop":
                    ok(store, "stop", game, "--as", name)
                else:
                    ok(store, "draw", game, "--as", name, "--coal", coal)
    return game


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    store = tmp_path_factory.mktemp("ledger") / "store"
    g1 = _play(store, ["Anna", "Ben", "Cleo"], "Anna", [
        ([("Anna", 70), ("Ben", 50), ("Cleo", 150)],
         [("Anna", [50, 25, "stop"]), ("Ben", [10, 20, 10, "stop"]), ("Cleo", ["devil"])]),
        ([("Anna", 300), ("Ben", 100), ("Cleo", 0)],
         [("Ben", ["devil"]), ("Cleo", [100, "stop"]), ("Anna", ["devil"])])])
    g2 = _play(store, ["Anna", "Ben"], "Ben", [
        ([("Ben", 100), ("Anna", 40)], [("Ben", [75, 25, "stop"]), ("Anna", [20, 10, 10, "stop"])]),
        ([("Anna", 90), ("Ben", 200)], [("Anna", [50])])])
    g3 = _play(store, ["Cleo", "Dan"], "Cleo", [
        ([("Cleo", 100), ("Dan", 60)], [("Cleo", ["devil"]), ("Dan", [25, "devil"])]),
        ([("Dan", 40), ("Cleo", 100)], [("Dan", [10, "stop"]), ("Cleo", [50, "stop"])])])
    paths = [str(store / f"{g}.devlog") for g in (g1, g2, g3)]
    return store, [g1, g2, g3], paths


def _records(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def _transfers(records, game):
    return [(r["round"], r["seq"], r["rule"], r["payer"], r["payee"], r["amount"])
            for r in records if r["record"] == "transfer" and r["game"] == game]


def _totals(records, record, **match):
    return {r["total"]: int(r["amount"]) for r in records if r["record"] == record
            and all(r[k] == v for k, v in match.items())}


def _players(records, tournament=""):
    out: dict = {}
    for r in records:
        if r["record"] == "player" and r["tournament"] == tournament:
            out.setdefault(r["player"], {})[r["total"]] = int(r["amount"])
    return out


def test_one_csv_of_three_games_with_their_totals_by_hand(games, tmp_path):
    _, ids, paths = games
    target = tmp_path / "ledger.csv"
    out = run("audit", *paths, "--csv", str(target), "--top", "2", "--jobs", "2")
    assert out.exit_code == 0, out.output
    records = _records(target)
    assert list(records[0]) == ["record", "path", "kind", "game", "tournament", "round", "seq",
                                "rule", "payer", "payee", "amount", "total", "player", "rank"]
    # each game's transfers in log order, the games in the order given, each followed by its
    # own totals
    assert [r["record"] for r in records[:len(G1)]] == ["transfer"] * len(G1)
    assert _transfers(records, ids[0]) == G1
    assert _transfers(records, ids[1]) == G2
    assert _transfers(records, ids[2]) == G3
    assert records[len(G1)]["record"] == "game" and records[len(G1)]["game"] == ids[0]
    for game, path, want in zip(ids, paths, (T1, T2, T3)):
        assert _totals(records, "game", game=game, path=path) == want
    assert _totals(records, "archive") == {"games": 3, **ARCHIVE}
    assert _players(records) == PLAYERS
    # --top 2: where the bank was down the most, lowest balance first: game 2 (-340), game 1
    top = [(r["rank"], r["game"], r["total"], r["amount"]) for r in records if r["record"] == "top"]
    assert top == [("1", ids[1], "bank_lowest", "-340"), ("2", ids[0], "bank_lowest", "-220")]
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".part")]
    # the text: a line per game, then the totals and the extremes, then the summary line
    text = run("audit", *paths, "--top", "2").stdout.splitlines()
    assert text[-1] == "OK: 3 games: 0 finished and verified, 3 in progress, 0 damaged"
    assert "  money 1400 at the start, 1400 at the end, 290 on the table" in text
    assert ("  bet 1400 (ATKR-3.5); the bank paid 1000 (bets won 500, prizes 450, pacts 50) and "
            "won 710 (lost bets, ATKR-5.4): balance -290") in text
    assert "  pact payments (ATKR-6.5): 50 paid by seats, 50 by the bank" in text
    assert "  the bank's lowest balance -340" in text
    assert ("    Cleo: 2, 400 -> 350, bet 350, +200 / -350, pact paid 0 / received 100"
            in text)
    where = text.index("Where the bank was down the most (top 2, by its lowest balance, "
                       "ATKR-1.4):")
    assert text[where + 1:where + 3] == [f"  1.   -340  {ids[1]}  {paths[1]}",
                                         f"  2.   -220  {ids[0]}  {paths[0]}"]


def test_json_lines_carry_the_same_rows_and_totals(games):
    _, ids, paths = games
    out = run("audit", *paths, "--json", "--top", "1")
    assert out.exit_code == 0, out.output
    lines = [json.loads(line) for line in out.stdout.splitlines()]  # nothing else on stdout
    assert "auditing 3 games" in out.stderr  # the progress bar, on stderr
    assert [line["game"] for line in lines[:3]] == ids
    for line, want_rows, want in zip(lines, (G1, G2, G3), (T1, T2, T3)):
        assert [tuple(str(t[k]) for k in ("round", "seq", "rule", "payer", "payee", "amount"))
                for t in line["transfers"]] == want_rows
        assert line["totals"] == want and line["status"] == "in progress"
        assert line["lowest"] == ["bank_lowest"] and line["top"] == "bank_lowest"
    assert lines[0]["players"]["Cleo"] == {"money_start": 200, "money_end": 250, "bet": 150,
                                           "won_from_bank": 100, "lost_to_bank": 150,
                                           "pact_paid": 0, "pact_received": 100}
    last = lines[3]
    assert last["ok"] is True and last["summary"]["in_progress"] == 3
    ledger = last["ledger"]["atkr"]
    assert ledger["games"] == 3 and ledger["totals"] == ARCHIVE
    assert ledger["players"] == PLAYERS and ledger["tournaments"] == {}
    assert ledger["top"] == {"total": "bank_lowest", "order": "lowest", "games": [
        {"rank": 1, "path": paths[1], "game": ids[1], "tournament": None, "value": -340}]}
    assert last["repeated"] == []


def test_a_damaged_file_is_named_and_the_rest_are_written(games, tmp_path):
    _, ids, paths = games
    folder = tmp_path / "archive"
    folder.mkdir()
    for name, path in zip(("a", "c"), (paths[0], paths[2])):
        shutil.copy(path, folder / f"{name}.devlog")
    data = bytearray(open(paths[1], "rb").read())
    data[300] ^= 0xFF  # a flipped byte: the hash chain breaks at that record
    (folder / "b.devlog").write_bytes(bytes(data))
    shutil.copy(os.path.join(REPLAYS, "castle-3p.devlog"), folder / "d-castle.devlog")
    target = tmp_path / "ledger.csv"
    out = run("audit", str(folder), "--csv", str(target), "--jobs", "1")
    assert out.exit_code == 3
    lines = out.stdout.splitlines()
    bad = [line for line in lines if line.startswith("BAD")]
    assert len(bad) == 1 and bad[0].startswith(f"BAD  {folder / 'b.devlog'}: record ")
    assert f"SKIP {folder / 'd-castle.devlog'}: Castle of the Devil games have no audit" in lines
    assert lines[-1] == ("FAILED: 4 games: 0 finished and verified, 2 in progress, 1 damaged, "
                         "1 without an audit")
    # written for the games that could be read: games 1 and 3, added up without game 2
    records = _records(target)
    assert {r["game"] for r in records if r["record"] == "transfer"} == {ids[0], ids[2]}
    assert _transfers(records, ids[0]) == G1 and _transfers(records, ids[2]) == G3
    both = {k: T1[k] + T3[k] for k in T1 if k != "bank_lowest"}
    assert _totals(records, "archive") == {"games": 2, **both, "bank_lowest": -220}
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".part")]


def test_top_zero_ranks_nothing_and_an_existing_csv_is_refused(games, tmp_path):
    _, _, paths = games
    target = tmp_path / "ledger.csv"
    target.write_text("keep me\n")
    out = run("audit", *paths, "--csv", str(target))
    assert out.exit_code == 2 and "exists already" in out.output
    assert target.read_text() == "keep me\n"
    out = run("audit", *paths, "--json", "--top", "0")
    assert json.loads(out.stdout.splitlines()[-1])["ledger"]["atkr"]["top"]["games"] == []
    assert run("audit", *paths, "--top", "-1").exit_code == 2


def test_an_interrupted_audit_leaves_no_file(games, tmp_path, monkeypatch):
    """Ctrl-C in the middle of an archive: neither FILE nor the hidden partial file stays."""
    import engine.archive

    _, _, paths = games
    real = engine.archive.audit_row
    seen = []

    def interrupted(path, data=None, **options):
        seen.append(path)
        if len(seen) == 2:
            raise KeyboardInterrupt
        return real(path, data, **options)

    monkeypatch.setattr(engine.archive, "audit_row", interrupted)
    target = tmp_path / "ledger.csv"
    out = run_catching("audit", *paths, "--csv", target, "--jobs", "1")
    assert out.exit_code != 0 and len(seen) == 2
    assert os.listdir(tmp_path) == []


def run_catching(*args):
    from click.testing import CliRunner

    from client.cli import cli

    return CliRunner().invoke(cli, [str(a) for a in args])


def test_a_tournament_bundles_games_are_grouped(games, tmp_path):
    """A bundle's manifest names its games: given the bundle folder and the three games, the
    bundle's game is totalled under its tournament as well as in the archive."""
    from engine.store import FileStore
    from engine.tournament.bundle import write
    from tests.tournament.helpers import fixed, organiser, quick_atkr

    _, ids, paths = games
    desk = organiser(FileStore(str(tmp_path / "tstore")))
    tid = desk.create(fixed(list("ABCD"), rounds=1, game="atkr", options={"physical": True}))
    desk.pair(tid, seating=[list("ABCD")], games=False)
    game = quick_atkr(desk.service, list("ABCD"), {"A": 600, "B": 300, "C": 0, "D": 0})
    desk.attach(tid, game)
    desk.close_round(tid)
    out_dir = str(tmp_path / "cup")
    write(desk.store, tid, out_dir)
    out = run("audit", out_dir, *paths, "--json", "--jobs", "1")
    assert out.exit_code == 0, out.output
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [line.get("tournament") for line in lines[:-1] if line["status"] != "no audit"] == \
        [tid, None, None, None]
    # quick_atkr (tests/tournament/helpers.py): round 1 everyone bets 200 and wins 2x (400
    # each) and A takes both prizes; round 2 A bets 600 (wins 2x: 1200), B 300 (wins 1x), C and
    # D nothing; A takes both prizes again.  Bets 800 + 900; bets won 1600 + 1500; prizes 200;
    # no loss, no pact: the bank ends (and is lowest) at -3300; the seats hold 2000 + 900 + 600
    # + 600 = 4100 of their 800.
    cup = {"money_start": 800, "money_end": 4100, "on_table": 0, "bet": 1700,
           "bank_paid": 3300, "bets_won": 3100, "prizes": 200, "pact_by_bank": 0,
           "bank_won": 0, "bank_balance": -3300, "pact_by_seats": 0, "bank_lowest": -3300}
    ledger = lines[-1]["ledger"]["atkr"]
    group = ledger["tournaments"][tid]
    assert group["games"] == 1 and group["totals"] == cup
    assert group["players"]["A"] == {"games": 1, "money_start": 200, "money_end": 2000,
                                     "bet": 800, "won_from_bank": 1800, "lost_to_bank": 0,
                                     "pact_paid": 0, "pact_received": 0}
    assert ledger["games"] == 4
    assert ledger["totals"]["bank_lowest"] == -3300
    assert ledger["totals"]["bet"] == ARCHIVE["bet"] + 1700
    assert ledger["top"]["games"][0]["tournament"] == tid
    # the tournament's own stream has no audit: skipped
    assert lines[-1]["summary"]["skipped"] == 1
    # the CSV: the game's rows name the tournament, whose totals and players follow the
    # archive's
    target = tmp_path / "ledger.csv"
    assert run("audit", out_dir, *paths, "--csv", str(target), "--jobs", "1").exit_code == 0
    records = _records(target)
    assert {r["tournament"] for r in records if r["game"] == game} == {tid}
    assert _totals(records, "tournament", tournament=tid) == {"games": 1, **cup}
    assert _players(records, tid)["B"] == {"games": 1, "money_start": 200, "money_end": 900,
                                           "bet": 500, "won_from_bank": 700, "lost_to_bank": 0,
                                           "pact_paid": 0, "pact_received": 0}
