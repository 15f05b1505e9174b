// devil's seat's page: "pass for me when I have nothing to use" and the window hold
// (engine/web/autopass.py; PAGE-20 to PAGE-24, CASTLE-H3; docs/service.md).
//
// PAGE-20  A seat may switch on its page's auto-pass (kept in the browser's local storage).
//          In a window the game's rules say could reveal a hidden card (the moves answer's
//          ``window``: the kind's hook, CASTLE-6.10), when the seat's only legal command is the
//          pass (``nothing_to_use``), the page sends that pass for it.
// PAGE-21  With the switch on, every answer the seat gives itself in such a window is held by
//          the page and leaves no earlier than the table's hold H after the page saw the ask,
//          with a visible countdown; the auto-pass leaves exactly at H.  So the other seats see
//          the same record (the seat's own pass, a fresh command id) at the same moment whether
//          the seat had something to use or not.
// PAGE-22  H is the table's: the server's ``--window-hold`` (GET /pages/autopass.json), the
//          same on every seat's page.
// PAGE-23  A held answer whose window is over when H has passed (a timeout, a correction, a
//          takeback) is dropped, never sent into another decision.
// PAGE-24  The hold never costs the seat its clock: with the seat's clock running (CLOCK-8),
//          the answer leaves at least 1 s before its time or its move time runs out.
//
// No DOM work at import: the pure parts (leaveAt, clockLeft, Hold) are tested on their own.

export const STORAGE_KEY = "devil-autopass";
export const MARGIN = 1000;  // ms kept on the seat's clock (PAGE-24)

// PAGE-21, PAGE-24: when an answer to the ask seen at ``askedAt`` (ms) may leave, for a hold
// of ``holdMs`` and ``left`` ms on the seat's running clock (null: no clock runs)
export function leaveAt(askedAt, holdMs, left) {
  let hold = holdMs;
  if (left !== null && left !== undefined) hold = Math.max(0, Math.min(hold, left - MARGIN));
  return askedAt + hold;
}

// the ms left on ``name``'s running clock in a view's ``clocks`` (CLOCK-8): the smaller of its
// time and its move time; null when no clock runs for it
export function clockLeft(clocks, name) {
  if (!clocks || !clocks.seats) return null;
  const mine = clocks.seats.find((seat) => seat.player === name);
  if (!mine || !mine.running) return null;
  const parts = [mine.remaining, mine.move_left].filter((v) => v !== null && v !== undefined);
  return parts.length ? Math.min(...parts) : null;
}

// the hold's state, without the page: ``seen`` each moves answer, ``due`` the auto-pass to
// send (or null), ``release`` whether a held answer may still leave (PAGE-23)
export class Hold {
  constructor(holdMs) {
    this.holdMs = holdMs;
    this.on = false;
    this.ask = null;  // {key, name, player, at, until, pass, auto, sent, manual}
  }

  // a moves answer ``answer`` ({version, window}) seen at ``now`` with ``left`` ms on the
  // seat's clock; returns the ask now open (or null)
  seen(answer, now, left) {
    const window = answer && answer.window;
    if (!window) { this.ask = null; return null; }
    const key = answer.version + ":" + window.stage;
    if (!this.ask || this.ask.key !== key) {
      this.ask = {key, name: window.stage, player: window.pass.player, at: now,
                  until: leaveAt(now, this.holdMs, left), pass: window.pass,
                  auto: Boolean(window.nothing_to_use), sent: false, manual: false};
    }
    return this.ask;
  }

  // the auto-pass to send at ``now`` (PAGE-20), once per ask; null if none is due yet
  due(now) {
    const ask = this.ask;
    if (!this.on || !ask || !ask.auto || ask.sent || now < ask.until) return null;
    ask.sent = true;
    return ask.pass;
  }

  // whether ``command`` is an answer the page holds (PAGE-21): the switch on, an ask open,
  // the command the asked seat's
  holds(command) {
    return Boolean(this.on && this.ask && command && command.player === this.ask.player);
  }

  // PAGE-23: may an answer held for ``ask`` leave now (the same window still open)?
  release(ask) {
    return Boolean(this.ask && ask && this.ask.name === ask.name
                   && this.ask.player === ask.player);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

// the page's part: the switch in the "Your move" box, the countdown, the timer
export class AutoPass {
  constructor() {
    this.hold = new Hold(3000);
    this.page = null;
    this.box = null;
    this.ticking = null;
    this.timer = null;
    this.holding = null;  // the ask an answer is held for (PAGE-21)
  }

  // ``page``: {ui, el, send, fail, box, name, kind}; reads the table's hold (PAGE-22) and the
  // switch; a game whose kind has no windows gets no switch
  async start(page) {
    let settings = null;
    try {
      const response = await fetch("/pages/autopass.json", {cache: "no-store"});
      if (response.ok) settings = await response.json();
    } catch (error) { /* no settings: no switch */ }
    if (!settings || !(settings.kinds || []).includes(page.kind)) return;
    this.page = page;
    this.hold.holdMs = settings.hold_ms;
    this.hold.on = localStorage.getItem(STORAGE_KEY) === "on";
    this.draw();
  }

  draw() {
    const page = this.page;
    if (!page) return;
    const {el, ui} = page;
    if (!this.box) {
      this.box = el("div", {id: "autopass"});
      page.box.append(this.box);
    }
    const toggle = el("input", {type: "checkbox", id: "autopass-switch"});
    toggle.checked = this.hold.on;
    toggle.addEventListener("change", () => {
      this.hold.on = toggle.checked;
      if (toggle.checked) localStorage.setItem(STORAGE_KEY, "on");
      else localStorage.removeItem(STORAGE_KEY);
      this.schedule();
      this.tick();
    });
    const seconds = (this.hold.holdMs / 1000).toFixed(1);
    this.box.replaceChildren(
      el("p", {}, toggle, " ", el("label", {for: "autopass-switch"}, ui("autopass_switch"))),
      el("p", {className: "sub", id: "autopass-about"}, ui("autopass_about", {seconds})),
      el("p", {id: "autopass-hold", role: "timer", "aria-live": "off"}));
    this.tick();
  }

  // after every refresh: the seat's moves answer and the view (for its clock)
  seen(answer, view) {
    if (!this.page) return;
    const open = answer && answer.window;
    const held = this.holding;
    // a record that changes nothing of the window (a dispute, say) while an answer is held:
    // the same ask, so no second answer (the auto-pass) is sent into it
    if (held && open && open.stage === held.name && open.pass.player === held.player) return;
    this.hold.seen(answer, performance.now(), clockLeft(view && view.clocks, this.page.name));
    this.schedule();
    this.tick();
  }

  schedule() {
    clearTimeout(this.timer);
    const ask = this.hold.ask;
    if (!this.hold.on || !ask || !ask.auto || ask.sent) return;
    this.timer = setTimeout(() => {
      const command = this.hold.due(performance.now());
      if (command) this.page.send(Object.assign({}, command));
      else this.schedule();
    }, Math.max(0, ask.until - performance.now()));
  }

  // the countdown (PAGE-21): shown while an ask is open and the switch is on
  tick() {
    const line = this.box && this.box.querySelector("#autopass-hold");
    if (!line) return;
    const ask = this.hold.ask;
    const left = ask ? ask.until - performance.now() : 0;
    // shown: the auto-pass to come, or the seat's own answer held; nothing before a decision
    const shown = ask && (ask.manual || (ask.auto && !ask.sent));
    if (!this.hold.on || !shown || left <= 0) {
      line.textContent = "";
      clearInterval(this.ticking);
      this.ticking = null;
      return;
    }
    const seconds = (left / 1000).toFixed(1);
    line.textContent = this.page.ui(ask.manual ? "autopass_holding" : "autopass_passing",
                                    {seconds, window: ask.name});
    if (!this.ticking) this.ticking = setInterval(() => this.tick(), 100);
  }

  // before a command leaves (table.js's send): waits out the hold of an answer in the window
  // (PAGE-21); false when the window is over by then and the answer is dropped (PAGE-23)
  async held(command) {
    if (!this.hold.holds(command)) return true;
    const ask = this.hold.ask;
    if (!ask.sent) ask.manual = true;  // the seat's own answer, not the auto-pass
    ask.sent = true;  // one answer per ask: the auto-pass is not sent as well
    clearTimeout(this.timer);
    this.tick();
    this.holding = ask;
    try {
      await sleep(ask.until - performance.now());
    } finally {
      this.holding = null;
    }
    if (this.hold.release(ask)) return true;
    this.page.fail(this.page.ui("autopass_dropped", {window: ask.name}));
    return false;
  }
}
