"""The window hold's pure logic (engine/web/pages/autopass.js: leaveAt, clockLeft, Hold;
PAGE-20, 21, 23, 24), on the module alone in a blank page of Chromium: no server.

Not collected here (no ``test_`` file): tests/page/test_table_page.py imports the test, so it
runs in that module with the Chromium that module's smoke test starts anyway (a launch costs
seconds of the default run; the test itself well under one)."""

from __future__ import annotations

from importlib import resources

#: the hold's pure logic, worked out by hand from PAGE-21, PAGE-23 and PAGE-24
PURE = """() => {
  const {leaveAt, clockLeft, Hold} = window.autopass;
  const out = {};
  out.plain = leaveAt(1000, 3000, null);            // ask at 1 s, H 3 s: leaves at 4 s
  out.clock = leaveAt(1000, 3000, 2500);            // 2.5 s on the clock: 1 s kept, at 2.5 s
  out.late = leaveAt(1000, 3000, 500);              // less than the margin: at once
  const clocks = {seats: [{player: "Cid", running: true, remaining: 90000, move_left: 20000},
                          {player: "Dora", running: false, remaining: 5000, move_left: null}]};
  out.left = [clockLeft(clocks, "Cid"), clockLeft(clocks, "Dora"), clockLeft(null, "Cid")];
  const hold = new Hold(1500);
  const ask = {version: 7, window: {stage: "priest", rules: ["CASTLE-6.2", "CASTLE-6.10"],
               pass: {type: "pass", player: "Cid"}, nothing_to_use: true}};
  const cid = {type: "pass", player: "Cid"};
  hold.seen(ask, 100, null);
  out.off = [hold.due(5000), hold.holds(cid)];      // switch off: no auto-pass, nothing held
  hold.on = true;
  hold.seen(ask, 100, null);
  hold.seen(ask, 900, null);                        // the same ask seen again: still from 100
  out.until = hold.ask.until;
  out.early = hold.due(1599);
  out.due = hold.due(1600);
  out.again = hold.due(9000);                       // once per ask
  out.holds = [hold.holds(cid), hold.holds({type: "pass", player: "Dora"})];
  const held = hold.ask;
  hold.seen({version: 8, window: null}, 2000, null);  // the window is over (PAGE-23)
  out.released = hold.release(held);
  return out;
}"""


def test_the_hold_leaves_at_the_ask_plus_h_once_and_never_into_another_window(browser):
    """PAGE-20, 21, 23, 24 on the module alone: the values worked out by hand in PURE."""
    source = resources.files("engine.web.pages").joinpath("autopass.js").read_text("utf-8")
    page = browser.new_page()
    try:
        page.add_script_tag(content=source + "\nwindow.autopass = {leaveAt, clockLeft, Hold};",
                            type="module")
        page.wait_for_function("() => window.autopass !== undefined")
        out = page.evaluate(PURE)
    finally:
        page.close()
    assert out == {"plain": 4000, "clock": 2500, "late": 1000, "left": [20000, None, None],
                   "off": [None, False], "until": 1600, "early": None,
                   "due": {"type": "pass", "player": "Cid"}, "again": None,
                   "holds": [True, False], "released": False}
