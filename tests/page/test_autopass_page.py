"""The seat's page's auto-pass and window hold (engine/web/pages/autopass.js; PAGE-20 to
PAGE-24, CASTLE-H3, CASTLE-6.10) in Debian's Chromium.

The whole fight through four seats' pages against a real uvicorn is ``slow``; the default run's
tiny test of the hold's pure logic is tests/page/autopass_pure.py's, run in
tests/page/test_table_page.py's module to share its Chromium (a launch costs seconds).

The fight is tests/castle/test_windows.py's: Ann (thug, dagger) attacks Ben (grand-master);
Cid (doctor, casting-knives) supports Ann, Dora (priest) supports Ben; nobody uses anything.
Cid's page has its auto-pass on.  By the rules (CASTLE-6.10) Cid is asked three times:

* the priest window (6.2), after Ben's pass: Cid is no priest, nothing to use: its page passes
  for it, exactly H after it saw the ask (PAGE-20);
* the ability round (6.5), after Ben's pass: Cid supports the attacker and holds the casting
  knives (5.12), usable; Cid passes by hand at once, and the page holds the pass until H
  (PAGE-21);
* the doctor's window (6.7), after Ben's pass: Cid is the doctor, usable; passed by hand.

What Dora's page receives of the three must be the same: one ``window_passed`` record of Cid's
with the same keys, no command id (a seat sees only its own, engine.answers), and the same time
after the record that asked Cid, H plus the page's latency, within a tolerance.
"""

from __future__ import annotations

import time
from datetime import datetime

import pytest

from engine.replay.verify import verify_bytes
from tests.castle.helpers import make_deal
from tests.castle.test_windows import DEAL
from tests.page.test_table_page import Seat, ThreadServer, referee_view

PLAYERS = ["Ann", "Ben", "Cid", "Dora"]
HOLD = 1.5  # s: the table's window hold in the slow test (PAGE-22)
SWITCH = "Pass for me when I have nothing to use"
#: the English page's words for a supporter's side (the catalogue's, not the page's)
SIDE_WORDS = {"attacker": "the attacker", "defender": "the defender"}

@pytest.fixture(scope="module")
def held_live(tmp_path_factory):
    """A real uvicorn serving the service with a window hold of HOLD seconds (as
    ``devil serve --window-hold 1.5`` sets it)."""
    server = ThreadServer(str(tmp_path_factory.mktemp("autopass-store")))
    server.server.config.app.state.api.window_hold_ms = round(HOLD * 1000)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def moment(entry: dict) -> float:
    return datetime.fromisoformat(entry["time"].replace("Z", "+00:00")).timestamp()


def click(seat: Seat, kind: str, select: dict | None = None) -> None:
    """Click the button of the control for command type ``kind`` on ``seat``'s page (the
    command's verb, drawn generically or in the kind's words), choosing ``select``'s option
    labels first."""
    form = seat.page.locator(f'form.move[data-type="{kind}"]')
    for label, value in (select or {}).items():
        form.get_by_label(label).select_option(label=value)
    form.get_by_role("button").click()


@pytest.mark.slow
def test_an_auto_pass_and_a_quick_pass_by_hand_look_the_same_to_another_seat(held_live,
                                                                               browser):
    live = held_live
    created = live.http.post("/games", json={"kind": "castle", "options": {
        "players": PLAYERS, "first": "Ann", "deal": make_deal(DEAL)}}).json()
    seats = {name: Seat(browser, live, created, name) for name in PLAYERS}
    try:
        cid = seats["Cid"].page
        assert "hold" in cid.inner_text("#autopass-about")
        cid.get_by_label(SWITCH).check()
        assert cid.evaluate("() => localStorage.getItem('devil-autopass')") == "on"
        assert seats["Dora"].page.get_by_label(SWITCH).is_checked() is False
        clicks = 0
        click(seats["Ann"], "attack", {"defender": "Ben"})
        clicks += 1
        holding_seen = []
        for _ in range(40):
            view = referee_view(live, created)
            fight = view["fight"]
            if fight is None:
                break
            who, stage, version = fight["window"], fight["stage"], view["version"]
            if who == "Cid" and stage == "priest":
                pass  # nothing to use: Cid's page passes for it (PAGE-20); nobody clicks
            elif stage == "support":
                side = "attacker" if who == "Cid" else "defender"  # CASTLE-6.3
                click(seats[who], "support", {"Side": SIDE_WORDS[side]})
                clicks += 1
            else:
                click(seats[who], "pass")
                clicks += 1
                if who == "Cid":  # held by the page, with its countdown (PAGE-21)
                    line = cid.locator("#autopass-hold")
                    line.filter(has_text="leaves in").wait_for(timeout=2000)
                    holding_seen.append(line.inner_text())
            deadline = time.monotonic() + 10
            while referee_view(live, created)["version"] == version:
                assert time.monotonic() < deadline, f"{who} did not answer the {stage} window"
                time.sleep(0.02)
        final = referee_view(live, created)
        assert final["fight"] is None and final["turn"] == "Ben"  # the tie draw, Ben's turn
        seats["Dora"].at(final["version"])
        entries: dict[int, dict] = {}  # every event entry Dora's page received
        for url, body in seats["Dora"].bodies():
            if "/events?" in url:
                for entry in body.get("events") or []:
                    entries[entry["seq"]] = entry
        assert sorted(entries) == list(range(1, final["version"] + 1))  # each, in order
        fight_entries = [entries[s] for s in sorted(entries)
                         if s >= min(q for q, e in entries.items()
                                     if e["event"]["type"] == "attack_declared")]
        events = [e["event"] for e in fight_entries]
        assert len(events) == 21 and clicks == 17  # 18 commands, one of them Cid's page's
        cid_passes = [i for i, e in enumerate(events)
                      if e["type"] == "window_passed" and e["player"] == 2]
        assert [events[i]["window"] for i in cid_passes] == ["priest", "abilities", "doctor"]
        gaps = []
        for i in cid_passes:
            ask, answer = fight_entries[i - 1], fight_entries[i]
            assert ask["event"] == {"type": "window_passed", "player": 1,
                                    "window": answer["event"]["window"]}  # Ben asked before
            assert set(answer) == {"seq", "actor", "cmd", "time", "event"}
            assert answer["actor"] == 2 and answer["cmd"] is None  # no id of another seat's
            gaps.append(moment(answer) - moment(ask))
        # every answer leaves H after the ask, plus the page's latency; the auto-pass and the
        # quick passes by hand are within a tolerance of each other
        assert all(HOLD <= gap <= HOLD + 0.9 for gap in gaps), gaps
        assert max(gaps) - min(gaps) <= 0.5, gaps
        assert len(holding_seen) == 2 and "abilities" in holding_seen[0], holding_seen
        for seat in seats.values():
            assert seat.errors == []
        # nothing the service records differs: the log verifies as any game's (CASTLE-H3)
        log = live.http.get(f"/games/{created['game']}/log",
                            headers={"Authorization": f"Bearer {created['tokens']['referee']}"})
        assert verify_bytes(log.content).ok
    finally:
        for seat in seats.values():
            seat.close()
