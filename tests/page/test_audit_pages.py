"""The audit pages of issue 23.6 without a browser: the ledger the audit page shows, worked by
hand from the rules (docs/rules/atkr.md, ATKR-3 to 6) for a physical game whose coals are
chosen here; `devil audit GAME --html` (self-contained: the ledger and the chart inlined,
nothing to fetch); `devil audit PATH... --html` (one report of an archive: each game, the
damaged one with its first bad record, the games where the bank was down the most); the
report's section format (engine.report); and the one policy for files (no overwrite without
--force, a refused write leaves nothing)."""

from __future__ import annotations

import re
import shutil

import pytest

from engine.report import archive_report, check_section, column, section
from engine.replay import open_log
from engine.web.pages import audit_data, audit_html
from tests.tools.helpers import run, service

A, B, C = "Anna", "Ben", "Cleo"


def bet(name, amount):
    return {"type": "bet", "player": name, "amount": amount}


def draw(name, coal):
    return {"type": "draw", "player": name, "coal": coal}


def stop(name):
    return {"type": "stop", "player": name}


#: the game's commands: coals chosen so that round 1 pays a double (ATKR-5.5) and both prizes
#: to one player, and round 2 has two pact payments (ATKR-6.5), a lost highest bet and a win
COMMANDS = [
    # round 1 (start Anna): seq 1 game_created, 2 round_started, bets 3-5, revealed 6
    bet(A, 80), bet(B, 20), bet(C, 0),
    draw(A, 50), draw(A, 25), draw(A, 10), stop(A),   # 7-10: Anna lays out 85 in 3 coals
    draw(B, 0),                                       # 11: Ben busts (nobody holds a pact)
    draw(C, 10), draw(C, 10), stop(C),                # 12-14: Cleo 20 in 2; payouts 15-18
    # pawns 19 (Cleo alone on the lowest space: the pact), round 2 starts 20 (start Ben)
    bet(A, 100), bet(B, 20), bet(C, 50),              # 21-23, revealed 24
    draw(B, 0),                                       # 25: Ben busts, pays Cleo 50 (26)
    draw(C, 20), stop(C),                             # 27-28: Cleo 20 in 1 coal
    draw(A, 0),                                       # 29: Anna busts, pays Cleo 50 (30)
]                                                     # payouts 31-35, pawns 36


def row(rnd, seq, rule, frm, to, amount, frm_after, to_after, bank_after):
    return {"round": rnd, "seq": seq, "rule": rule, "from": frm, "to": to, "amount": amount,
            "from_after": frm_after, "to_after": to_after, "bank_after": bank_after}


#: the ledger worked by hand.  Everyone starts with 200, the bank and the table at 0 (ATKR-1.3).
#: Round 1: a bet moves its stake to the table (ATKR-3.5): Anna 200-80 = 120, table 80; Ben
#: 200-20 = 180, table 100; Cleo's 0 moves nothing.  H = 85 (Anna; Ben busted, Cleo 20).  From
#: the start player Anna (ATKR-5.2): Anna's 80 is the highest bet and wins (85 >= 80), so the
#: stake comes back (table 20, Anna 200) and the bank pays 2 x 80 = 160 (ATKR-5.5: Anna 360,
#: bank -160); Ben's 20 wins 1x although he busted (ATKR-4.4, 5.3): stake back (table 0, Ben
#: 200), bank pays 20 (Ben 220, bank -180).  Prizes: Anna has the highest total 85 (ATKR-5.6:
#: Anna 410, bank -230) and the most coals, 3 against Cleo's 2 (ATKR-5.7: Anna 460, bank
#: -280).  Pawns (ATKR-6.1): Anna 460 (between 300 and 500), Ben 220 (between 200 and 300),
#: Cleo 200 (on 200): Cleo alone lowest, so she holds the pact in round 2 (ATKR-6.2 A).
#: Round 2 (start Ben): bets Anna 100 (360 left), Ben 20 (200 left), Cleo 50 (150 left;
#: table 170).  Ben busts: he pays the holder Cleo 50 from his 200 not bet (ATKR-4.5, 6.5: Ben
#: 150, Cleo 200).  Cleo lays out 20.  Anna busts and pays Cleo 50 from her 360 (Anna 310, Cleo
#: 250).  H = 20.  From Ben: Ben's 20 wins 1x (ATKR-5.3; the highest bet, Anna's 100, lost, so
#: nobody is paid double, ATKR-5.5): table 150, Ben 170, then bank -300, Ben 190.  Cleo's 50
#: is lost (ATKR-5.4: table 100, bank -250); Anna's 100 is lost (table 0, bank -150).  Cleo has
#: the highest total 20 (ATKR-5.6: bank -200, Cleo 300) and the most coals (1; ATKR-5.7: bank
#: -250, Cleo 350).  Final: Anna 310, Ben 190, Cleo 350, bank -250 (310+190+350 = 600+250);
#: the bank's lowest was -300, after seq 31.
LEDGER = [
    row(1, 3, "ATKR-3.5", A, "table", 80, 120, 80, 0),
    row(1, 4, "ATKR-3.5", B, "table", 20, 180, 100, 0),
    row(1, 15, "ATKR-5.5", "table", A, 80, 20, 200, 0),
    row(1, 15, "ATKR-5.5", "bank", A, 160, -160, 360, -160),
    row(1, 16, "ATKR-5.3", "table", B, 20, 0, 200, -160),
    row(1, 16, "ATKR-5.3", "bank", B, 20, -180, 220, -180),
    row(1, 17, "ATKR-5.6", "bank", A, 50, -230, 410, -230),
    row(1, 18, "ATKR-5.7", "bank", A, 50, -280, 460, -280),
    row(2, 21, "ATKR-3.5", A, "table", 100, 360, 100, -280),
    row(2, 22, "ATKR-3.5", B, "table", 20, 200, 120, -280),
    row(2, 23, "ATKR-3.5", C, "table", 50, 150, 170, -280),
    row(2, 26, "ATKR-6.5", B, C, 50, 150, 200, -280),
    row(2, 30, "ATKR-6.5", A, C, 50, 310, 250, -280),
    row(2, 31, "ATKR-5.3", "table", B, 20, 150, 170, -280),
    row(2, 31, "ATKR-5.3", "bank", B, 20, -300, 190, -300),
    row(2, 32, "ATKR-5.4", "table", "bank", 50, 100, -250, -250),
    row(2, 33, "ATKR-5.4", "table", "bank", 100, 0, -150, -150),
    row(2, 34, "ATKR-5.6", "bank", C, 50, -200, 300, -200),
    row(2, 35, "ATKR-5.7", "bank", C, 50, -250, 350, -250),
]


@pytest.fixture(scope="module")
def chosen(tmp_path_factory):
    """The physical game of COMMANDS (round 3 begun, nothing bet in it): ``(svc, game, path)``."""
    svc = service(tmp_path_factory.mktemp("pages"))
    game = svc.create("atkr", {"players": [A, B, C], "first": A, "physical": True}).game
    for command in COMMANDS:
        svc.submit(game, command)
    return svc, game, svc.store.path(game)


def test_the_audit_page_ledger_is_every_transfer_worked_by_hand(chosen):
    svc, _, path = chosen
    data = audit_data(open_log(path))
    assert data["ok"] is True and data["ledger"] == LEDGER
    # the chart the page draws beside it ends where the ledger does, and lights up a round
    bank = next(s for s in data["chart"]["series"] if s["name"] == "bank")
    assert bank["values"] == [0, -280, -250, -250]  # the start, rounds 1 and 2, round 3 begun
    assert data["svg"].count('class="column"') == 4
    state = svc.load(chosen[1]).state  # the engine's own state agrees with the hand
    assert state.money == [310, 190, 350] and state.bank == -250


def page_data(html: str):
    """The data the page holds, read back as page.js reads it (engine.web.pages.page_data:
    a JSON data block, or a long game's packed one)."""
    from engine.web.pages import page_data as read

    return read(html)


def external_references(html: str) -> list[str]:
    """Every http(s) address, and every src/href that is not a fragment (#...) or data:."""
    found = re.findall(r"https?://[^\s\"'<>)\\]+", html)
    found = [u for u in found if u != "http://www.w3.org/2000/svg"]  # SVG's namespace name
    found += [m for m in re.findall(r"""(?:src|href)\s*=\s*["']([^"']*)["']""", html)
              if not m.startswith(("#", "data:"))]
    return found


def test_audit_html_writes_one_self_contained_page_with_the_ledger_and_chart(chosen, tmp_path):
    _, game, path = chosen
    out = tmp_path / "audit.html"
    result = run("audit", path, "--html", str(out))
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.output and "19 transfers" in result.output
    html = out.read_text()
    assert external_references(html) == []
    assert "default-src 'none'" in html  # the page's Content-Security-Policy
    data = page_data(html)
    assert data["game"] == game and data["ledger"] == LEDGER
    assert data["svg"].startswith("<svg") and data["svg"].count('class="series"') == 4
    assert 'id="ledger"' in html and "showLedger" in html
    # an existing file is refused without --force and left as it was; --force overwrites it
    out.write_text("keep me")
    again = run("audit", path, "--html", str(out))
    assert again.exit_code == 2 and "exists already" in again.output
    assert out.read_text() == "keep me"
    assert run("audit", path, "--html", str(out), "--force").exit_code == 0
    assert page_data(out.read_text())["ledger"] == LEDGER


def test_audit_html_refuses_what_it_cannot_write_and_leaves_nothing(chosen, tmp_path):
    from tests.page.test_pages import CASTLE

    _, _, path = chosen
    no_audit = tmp_path / "castle.html"
    result = run("audit", CASTLE, "--html", str(no_audit))  # a kind without an audit: usage
    assert result.exit_code == 2 and "no audit" in result.output
    assert not no_audit.exists()
    nowhere = tmp_path / "no-such-folder" / "audit.html"
    result = run("audit", path, "--html", str(nowhere))
    assert result.exit_code == 2 and "cannot write" in result.output
    assert "Traceback" not in result.output and not nowhere.parent.exists()


@pytest.fixture(scope="module")
def archive(chosen, tmp_path_factory):
    """A folder of four games: the chosen one, a copy of a shipped 2-player recording, a
    Castle recording (no audit) and a file cut into at its 5th record (damaged)."""
    from tests.page.test_pages import ATKR, CASTLE
    from tests.tools.helpers import split

    folder = tmp_path_factory.mktemp("archive")
    shutil.copy(chosen[2], folder / "a-chosen.devlog")
    shutil.copy(ATKR, folder / "b-shipped.devlog")
    shutil.copy(CASTLE, folder / "c-castle.devlog")
    with open(ATKR, "rb") as handle:
        data = handle.read()
    header, records, _ = split(data)
    cut = bytearray(data)
    # flip the last byte of record 5's link: the hash chain breaks at record 5
    cut[len(header) + sum(len(r) for r in records[:5]) - 1] ^= 0x01
    (folder / "d-damaged.devlog").write_bytes(bytes(cut))
    return folder


def test_the_archive_report_holds_each_game_and_the_extremes(archive, tmp_path):
    from tests.page.test_pages import ATKR

    shipped = audit_data(open_log(ATKR))  # the second game's figures, from its own audit
    shipped_low = -max(0, -min(r["bank_after"] for r in shipped["ledger"]))
    out = tmp_path / "report.html"
    result = run("audit", str(archive), "--html", str(out), "--jobs", "1")
    assert result.exit_code == 3, result.output  # the damaged file fails the archive
    assert "wrote" in result.output and "4 games" in result.output
    html = out.read_text()
    assert external_references(html) == []
    doc = page_data(html)
    assert doc["format"] == "devil-audit-report/1"
    assert doc["summary"] == {"games": 4, "finished": 1, "in_progress": 1, "damaged": 1,
                              "failed": 0, "skipped": 1}
    names = [g["path"].rsplit("/", 1)[-1] for g in doc["games"]]
    assert names == ["a-chosen.devlog", "b-shipped.devlog", "c-castle.devlog",
                     "d-damaged.devlog"]
    status = {n: g["status"] for n, g in zip(names, doc["games"])}
    assert status == {"a-chosen.devlog": "in progress", "b-shipped.devlog": "finished",
                      "c-castle.devlog": "no audit", "d-damaged.devlog": "damaged"}
    assert doc["games"][3]["first_bad_seq"] == 5
    sections = {s["id"]: s for s in doc["sections"]}
    assert list(sections) == ["problems", "money", "bank-down", "totals-atkr", "players-atkr"]
    assert sections["problems"]["verdict"] == "failed"
    assert [(r["first_bad_seq"], r["status"]) for r in sections["problems"]["rows"]] == \
        [(5, "damaged")]
    money = {r["path"].rsplit("/", 1)[-1]: r for r in sections["money"]["rows"]}
    assert set(money) == {"a-chosen.devlog", "b-shipped.devlog"}
    # the chosen game, by hand above: 3 x 200 at the start, 310 + 190 + 350 = 850 at the end,
    # the bank at -250 and never below -300
    assert (money["a-chosen.devlog"]["start"], money["a-chosen.devlog"]["end"],
            money["a-chosen.devlog"]["bank"], money["a-chosen.devlog"]["bank_low"]) == \
        (600, 850, -250, -300)
    assert money["a-chosen.devlog"]["players"] == "Anna 310, Ben 190, Cleo 350"
    assert money["b-shipped.devlog"]["bank_low"] == shipped_low
    # the extremes: the games ranked by how far the bank was down (300 for the chosen game)
    ranked = sections["bank-down"]["rows"]
    wanted = sorted([(300, "a-chosen.devlog"), (-shipped_low, "b-shipped.devlog")],
                    key=lambda p: (-p[0], p[1]))
    assert [(r["rank"], r["deficit"], r["path"].rsplit("/", 1)[-1]) for r in ranked] == \
        [(i, d, n) for i, (d, n) in enumerate(wanted, 1)]
    # refused without --force, the file kept; the refusal comes before the work
    again = run("audit", str(archive), "--html", str(out), "--jobs", "1")
    assert again.exit_code == 2 and "exists already" in again.output
    assert out.read_text() == html


def test_extra_sections_are_checked_and_placed_after_the_built_in_ones():
    rows = [{"path": "x.devlog", "game": "g-1", "kind": "k", "status": "finished", "ok": True,
             "events": 9, "final_money": {"Anna": 250, "Ben": 150}, "start_money": 200,
             "bank_balance": 0, "bank_max_deficit": 40}]
    totals = section("totals", "Totals", [column("what", "what"), ("paid", "paid", True)],
                     [{"what": "bank", "paid": 120}], note="from the other helper",
                     verdict="ok")
    doc = archive_report(rows, [totals], generated="2026-12-02T08:00:00+00:00")
    assert [s["id"] for s in doc["sections"]] == ["problems", "money", "bank-down", "totals"]
    assert doc["sections"][3]["columns"][1] == {"key": "paid", "label": "paid", "numeric": True}
    assert doc["generated"] == "2026-12-02T08:00:00+00:00"
    assert doc["sections"][1]["rows"][0]["end"] == 400
    class SectionedResult:  # another tool's result that gives its own sections
        def report_sections(self):
            return [dict(totals, id="chance"), dict(totals, id="chance-groups")]

    doc = archive_report(rows, [totals, SectionedResult()])
    assert [s["id"] for s in doc["sections"]][3:] == ["totals", "chance", "chance-groups"]
    with pytest.raises(ValueError, match="share the id 'money'"):
        archive_report(rows, [dict(totals, id="money")])
    for broken, words in (({**totals, "verdict": "maybe"}, "verdict"),
                          ({**totals, "columns": [{"key": "a", "label": "A"}]}, "numeric"),
                          ({**totals, "id": "no spaces"}, "id must be"),
                          ({**totals, "rows": [[1, 2]]}, "list of maps")):
        with pytest.raises(ValueError, match=words):
            check_section(broken)


def test_report_data_cannot_break_out_of_the_page():
    from engine.web.pages import archive_html

    evil = "</script><img src=x onerror=alert(1)>"
    doc = archive_report([], [section("x", evil, [column("a", evil)], [{"a": evil}])],
                         title=evil, generated="now")
    html = archive_html(doc)
    assert "<img" not in html and page_data(html)["sections"][1]["rows"] == [{"a": evil}]
    assert "innerHTML" not in html  # page.js sets text only
    assert "</script><img" not in audit_html({"game": evil}, title=evil)


def test_the_archive_report_has_the_ledgers_totals_and_the_chance_audit(chosen, tmp_path):
    """Issue 23.6: the report of an archive shows its totals (per player by name) and the
    chance audit.  The chosen game alone, worked by hand above: Anna ends with 310, Ben 190,
    Cleo 350 (state.money), each started with 200 (ATKR-1.3); its reported draws are tested
    (a physical game, nobody named as reporter) and a fair game fails no group."""
    folder = tmp_path / "one"
    folder.mkdir()
    shutil.copy(chosen[2], folder / "a.devlog")
    shutil.copy(chosen[2], folder / "b.devlog")  # the same game twice: every total doubled
    out = tmp_path / "report.html"
    result = run("audit", str(folder), "--html", str(out), "--chance", "--jobs", "1")
    assert result.exit_code == 0, result.output
    doc = page_data(out.read_text())
    by_id = {s["id"]: s for s in doc["sections"]}
    assert {"totals-atkr", "players-atkr", "chance"} <= set(by_id)
    players = {r["player"]: r for r in by_id["players-atkr"]["rows"]}
    assert {p: (r["games"], r["money_start"], r["money_end"]) for p, r in players.items()} \
        == {A: (2, 400, 620), B: (2, 400, 380), C: (2, 400, 700)}
    totals = {r["total"]: r["value"] for r in by_id["totals-atkr"]["rows"]}
    assert totals["money_start"] == 1200 and totals["money_end"] == 1700
    chance = by_id["chance"]
    assert chance["verdict"] == "ok" and chance["rows"]
    assert all(r["failed"] is False for r in chance["rows"])
