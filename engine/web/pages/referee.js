// devil's referee page (engine/web/pages/referee.py): a physical game recorded at the table.
// A plain ES module, no build step, no library.  Game-agnostic: everything comes from the API
// (the summary, the referee's view, the event stream by long poll, every seat's commands and
// the chance reports as shapes: engine/web/refmoves.py) and every word from the language's
// catalogue (/pages/i18n/<lang>.json, its "referee" section for this page's own words).
// The token is read from the address's fragment (#token=...) and sent only in the
// Authorization header, never in a URL.  Everything is set with textContent, never as HTML.
//
// PAGE-16: a chance report is offered only as the rules leave it (one button per coal kind
// still in the furnace, with how many are left).  PAGE-17: each seat's announced commands, per
// seat.  PAGE-18: a desk form names a record in force and a reason, or sends nothing.
// PAGE-19: one tap, one record: every control is disabled while a command is on its way, and
// a lost answer is retried with the same command id.

import {$, ApiError, LANGUAGES, Words, at, chosenLanguage, columnsOf, commandForm, drawClocks,
        drawPlayers, el, loadCatalogue, randomHex, redraw, request, sleep,
        withRules} from "/pages/words.js";  // the pages' shared module (table.js's too)

const WAIT = 25;  // seconds a long poll of the events waits for the next one
const game = decodeURIComponent(location.pathname.split("/")[2] || "");
const base = "/games/" + encodeURIComponent(game);
const page = {
  token: null, players: [], kind: null, after: 0, over: false, view: null, seats: [],
  physical: false, entries: [], busy: false, lang: "en", catalogue: null, asked: 0, shown: 0,
  following: false, name: null,
};
const words = new Words(page, {own: "referee"});  // its own sentences of the desk's records

const api = (method, path, body, headers) => request(page.token, method, path, body, headers);
const fail = (message) => { $("error").textContent = message || ""; };
const status = (message) => { $("status").textContent = message || ""; };

// -- the records the desk's forms name ----------------------------------------------------------
// records in force of the game (not the desk's, the seating stage's or a clock's)
function gameRecords() {
  return page.entries.filter((entry) => !entry.voided && !words.shared(entry.event));
}

// the records that end a command (DESK-2: a correction returns to the end of one), after the
// game's setup (the first command: its records have no command id over HTTP, or the first id)
function commandEnds() {
  const records = gameRecords();
  const setup = page.entries.length ? page.entries[0].cmd : null;
  return records.filter((entry, i) => {
    const next = records[i + 1];
    if (entry.cmd === null || entry.cmd === setup) return false;
    return !next || next.cmd !== entry.cmd;
  });
}

function recordLabel(entry) {
  return "#" + entry.seq + " " + words.describe(entry.event);
}

// -- drawing --------------------------------------------------------------------------------------
function drawTable() {
  const view = page.view;
  const kind = words.kind;
  const rows = view.players || [];
  drawPlayers($("players"), rows, columnsOf(kind, rows), (key, value) => words.word(key, value),
              (row) => (row.name === view.turn ? "turn" : ""));
  const facts = (kind.facts || []).filter(([path]) => at(view, path) !== undefined);
  $("facts").replaceChildren(...facts.flatMap(([path, label]) =>
    [el("dt", {}, label), el("dd", {"data-fact": path}, words.word(path.split(".").pop(), at(view, path)))]));
  let turn;
  if (view.adjudicated) {
    turn = words.ref("adjudicated", {reason: view.adjudicated.reason, rule: view.adjudicated.rule});
  } else if (page.over || (view.winners && view.winners.length)) {
    turn = words.ui("over", {names: (view.winners || []).join(words.ui("and"))});
  } else if (view.turn) {
    turn = words.ui("turn_of", {name: view.turn});
  } else {
    const waiting = page.seats.filter((seat) => seat.moves.length || seat.reports.length);
    turn = waiting.length ? words.ref("waiting_for", {names: waiting.map((s) => s.seat).join(", ")})
      : words.ui("moves_none");
  }
  $("turn").textContent = turn;
  drawClocks($("clocks"), view.clocks);
  $("physical").textContent = words.ref(page.physical ? "physical" : "digital");
}

// one report button per value of a shape's one input, labelled with how many are left
// (PAGE-16: the catalogue's "each" names the view's counts, e.g. a furnace's coals)
function eachButtons(shape, each, seat) {
  const input = shape.inputs[0];
  const counts = at(page.view, each.count) || {};
  const group = el("div", {className: "reports", role: "group",
                           "aria-label": words.ref("reports_of", {name: seat.seat})});
  group.dataset.type = shape.type;
  for (const value of input.values) {
    const key = (each.keys || {})[String(value)] ?? String(value);
    const left = counts[key];
    const template = (each.values || {})[String(value)] || each.label;
    const label = template.replace(/\{(\w+)\}/g, (all, name) =>
      name === "value" ? words.word(input.name, value) : name === "left" ? String(left)
        : name === "name" ? seat.seat : all);
    const button = el("button", {type: "button", className: "report", disabled: page.busy}, label);
    button.dataset.value = String(value);
    button.addEventListener("click", () => send(Object.assign(
      {type: shape.type}, shape.fixed, {[input.name]: value})));
    group.append(button);
  }
  return group;
}

function shapeForm(shape, seat, index, report) {
  const refKind = words.refKind();
  const each = (refKind.each || {})[shape.type];
  if (report && each && shape.inputs.length === 1 && !shape.options) {
    return eachButtons(shape, each, seat);
  }
  return commandForm(shape, {
    className: "move" + (report ? " report-form" : ""),
    id: (name) => `ref-${index}-${shape.type}-${name}`,
    label: (name) => (words.kind.inputs || {})[name] || name,
    value: (name, value) => words.word(name, value),
    verb: ((refKind.verbs || {})[shape.type]) || words.verb(shape.type),
    busy: page.busy, send,
  });
}

function drawSeats() {
  // a live update redraws every seat's controls keeping the referee's place (words.js's redraw)
  redraw($("seats"), () => page.seats.map((seat, index) => {
    const id = "seat-" + index + "-heading";
    const turn = page.view && page.view.turn === seat.seat;
    const section = el("section", {className: "seat" + (turn ? " turn" : ""), "aria-labelledby": id},
                       el("h3", {id}, seat.seat + (turn ? " \u2190 " + words.ref("to_act") : "")));
    section.dataset.seat = seat.seat;
    const forms = [...seat.moves.map((shape) => shapeForm(shape, seat, index, false)),
                   ...seat.reports.map((shape) => shapeForm(shape, seat, index, true))];
    if (!forms.length) forms.push(el("p", {className: "nothing"}, words.ref("nothing_for", {name: seat.seat})));
    section.append(...forms);
    return section;
  }));
}

function options(select, items, empty) {
  const kept = select.value;
  select.replaceChildren(...(items.length ? items.map(([value, text]) => el("option", {value}, text))
    : [el("option", {value: ""}, empty)]));
  if (items.some(([value]) => value === kept)) select.value = kept;
  select.disabled = !items.length;
}

function field(id, label, control) {
  control.id = id;
  return el("div", {className: "field"}, el("label", {for: id}, label), control);
}

// the desk's forms are built once (drawDesk fills their lists and words), so what the referee
// has typed survives the live updates
function buildDesk() {
  const form = (id, ...kids) => {
    const node = el("form", {id, className: "desk-form", "aria-labelledby": id.replace("-form", "-title")},
                    ...kids);
    node.addEventListener("submit", (event) => { event.preventDefault(); deskSubmit(id); });
    return node;
  };
  $("desk").replaceChildren(
    form("correct-form", el("h3", {id: "correct-title"}),
         field("correct-to", "", el("select")), field("correct-reason", "", el("input", {autocomplete: "off"})),
         field("correct-dispute", "", el("select")), el("button", {type: "submit", id: "correct-send"})),
    form("amend-form", el("h3", {id: "amend-title"}),
         field("amend-seq", "", el("select")), field("amend-field", "", el("select")),
         field("amend-value", "", el("input", {autocomplete: "off"})),
         field("amend-reason", "", el("input", {autocomplete: "off"})),
         field("amend-dispute", "", el("select")), el("button", {type: "submit", id: "amend-send"})),
    form("dispute-form", el("h3", {id: "dispute-title"}),
         field("dispute-seat", "", el("select")), field("dispute-seq", "", el("select")),
         field("dispute-text", "", el("input", {autocomplete: "off"})),
         el("button", {type: "submit", id: "dispute-send"})),
    form("takeback-form", el("h3", {id: "takeback-title"}), el("p", {id: "takeback-what"}),
         field("takeback-decision", "", el("select")),
         field("takeback-reason", "", el("input", {autocomplete: "off"})),
         el("button", {type: "submit", id: "takeback-send"})),
    form("ruling-form", el("h3", {id: "ruling-title"}),
         field("ruling-dispute", "", el("select")), field("ruling-decision", "", el("select")),
         field("ruling-to", "", el("select")), field("ruling-reason", "", el("input", {autocomplete: "off"})),
         el("button", {type: "submit", id: "ruling-send"})));
  $("ruling-decision").addEventListener("change", () => {
    $("ruling-to").parentElement.hidden = $("ruling-decision").value !== "correct";
  });
}

function drawDesk() {
  const r = (key, params) => words.ref(key, params);
  for (const [id, key] of [["correct-title", "correct_title"], ["amend-title", "amend_title"],
                           ["dispute-title", "dispute_title"], ["ruling-title", "ruling_title"],
                           ["correct-send", "correct"], ["amend-send", "amend"],
                           ["dispute-send", "dispute"], ["ruling-send", "rule"],
                           ["takeback-title", "takeback_title"], ["takeback-send", "decide"],
                           ["disputes-heading", "disputes"], ["desk-heading", "desk"]]) {
    $(id).textContent = r(key);
  }
  const labels = {"correct-to": "back_to", "correct-reason": "reason", "correct-dispute": "answers",
                  "amend-seq": "record", "amend-field": "field", "amend-value": "new_value",
                  "amend-reason": "reason", "amend-dispute": "answers", "dispute-seat": "seat",
                  "dispute-seq": "record", "dispute-text": "complaint", "ruling-dispute": "open_dispute",
                  "ruling-decision": "decision", "ruling-to": "back_to", "ruling-reason": "reason",
                  "takeback-decision": "decision", "takeback-reason": "reason"};
  for (const [id, key] of Object.entries(labels)) {
    document.querySelector(`label[for="${id}"]`).textContent = r(key);
  }
  const ends = commandEnds().map((e) => [String(e.seq), recordLabel(e)]);
  const records = gameRecords().filter((e) => e.cmd !== null).map((e) => [String(e.seq), recordLabel(e)]);
  options($("correct-to"), ends, r("no_record"));
  options($("ruling-to"), ends, r("no_record"));
  options($("dispute-seq"), gameRecords().map((e) => [String(e.seq), recordLabel(e)]), r("no_record"));
  options($("amend-seq"), records, r("no_record"));
  options($("amend-field"), (words.refKind().amend || []).map((name) =>
    [name, (words.kind.inputs || {})[name] || name]), r("no_field"));
  options($("dispute-seat"), page.players.map((name) => [name, name]), r("no_record"));
  const disputes = (page.view && page.view.disputes) || [];
  const open = disputes.filter((d) => d.open);
  options($("ruling-dispute"), open.map((d) => [String(d.dispute), r("dispute_line", {
    number: d.dispute, name: d.player, seq: d.seq, text: d.text})]), r("no_dispute"));
  const answerable = disputes.filter((d) => d.upheld && (d.remedy === "correct" || d.remedy === "amend"));
  for (const id of ["correct-dispute", "amend-dispute"]) {
    options($(id), [["", r("answers_none")], ...answerable.map((d) => [String(d.dispute), r(
      "dispute_line", {number: d.dispute, name: d.player, seq: d.seq, text: d.text})])], "");
  }
  options($("ruling-decision"), [["none", r("uphold_none")], ["correct", r("uphold_correct")],
                                  ["amend", r("uphold_amend")], ["reject", r("reject")]], "");
  $("ruling-to").parentElement.hidden = $("ruling-decision").value !== "correct";
  // a takeback waiting for its answers: the referee may decide it instead (DESK-12.5)
  const waiting = ((page.view && page.view.takebacks) || []).filter((t) => t.state === "open");
  $("takeback-form").hidden = !waiting.length;
  if (waiting.length) {
    const t = waiting[waiting.length - 1];
    $("takeback-what").textContent = r("takeback_line", {number: t.takeback, name: t.player,
                                                         from: t.from, to: t.to});
    options($("takeback-decision"), [["allow", r("allow")], ["deny", r("deny")]], "");
  }
  $("disputes").replaceChildren(...(disputes.length ? disputes.map((d) => {
    const state = d.open ? r("open") : d.upheld ? r("upheld", {reason: d.reason || ""})
      : r("rejected", {reason: d.reason || ""});
    const remedy = d.remedy_text ? " \u2014 " + d.remedy_text : "";
    const li = el("li", {}, ...withRules(r("dispute_line", {number: d.dispute, name: d.player,
                                                           seq: d.seq, text: d.text})
                                        + ": " + state + remedy + " (DESK-10.3)"));
    li.dataset.dispute = d.dispute;
    return li;
  }) : [el("li", {}, r("no_dispute"))]));
  for (const button of document.querySelectorAll("#desk button")) button.disabled = page.busy;
}

// PAGE-18: a desk command names a record and gives a reason, or nothing is sent
function deskSubmit(id) {
  const r = (key, params) => words.ref(key, params);
  const value = (name) => $(name).value.trim();
  const need = (name, key) => {
    if (value(name)) return true;
    fail(r(key));
    $(name).focus();
    return false;
  };
  fail("");
  let command;
  if (id === "correct-form") {
    if (!need("correct-to", "need_record") || !need("correct-reason", "need_reason")) return;
    command = {type: "correct", to: Number(value("correct-to")), reason: value("correct-reason")};
    if (value("correct-dispute")) command.dispute = Number(value("correct-dispute"));
  } else if (id === "amend-form") {
    if (!need("amend-seq", "need_record") || !need("amend-field", "need_field")
        || !need("amend-value", "need_value") || !need("amend-reason", "need_reason")) return;
    let typed = value("amend-value");
    try { typed = JSON.parse(typed); } catch (error) { /* a word, e.g. "devil" */ }
    command = {type: "amend", seq: Number(value("amend-seq")), fields: {[value("amend-field")]: typed},
               reason: value("amend-reason")};
    if (value("amend-dispute")) command.dispute = Number(value("amend-dispute"));
  } else if (id === "dispute-form") {
    if (!need("dispute-seq", "need_record") || !need("dispute-text", "need_complaint")) return;
    command = {type: "dispute", player: value("dispute-seat"), seq: Number(value("dispute-seq")),
               text: value("dispute-text")};
  } else if (id === "takeback-form") {
    if (!need("takeback-reason", "need_reason")) return;
    command = {type: "takeback_decision", allowed: value("takeback-decision") === "allow",
               reason: value("takeback-reason")};
  } else {
    if (!need("ruling-dispute", "need_dispute") || !need("ruling-reason", "need_reason")) return;
    const decision = value("ruling-decision");
    command = {type: "ruling", dispute: Number(value("ruling-dispute")), upheld: decision !== "reject",
               reason: value("ruling-reason")};
    if (decision !== "reject") command.remedy = decision;
    if (decision === "correct") {
      if (!need("ruling-to", "need_record")) return;
      command.to = Number(value("ruling-to"));
    }
  }
  send(command).then((ok) => {
    if (ok) for (const input of $(id).querySelectorAll("input")) input.value = "";
  });
}

function drawEvents(whole) {
  const list = $("events");
  const line = (entry) => {
    const li = el("li", {className: entry.voided ? "voided" : ""},
                  el("span", {className: "seq"}, "#" + entry.seq + " "), ...withRules(words.describe(entry.event)));
    li.dataset.seq = entry.seq;
    if (entry.voided) li.append(" (" + words.ui("voided") + ")");
    return li;
  };
  if (whole) list.replaceChildren(...page.entries.map(line));
  else list.append(...page.entries.slice(list.children.length).map(line));
  list.scrollTop = list.scrollHeight;
}

function drawAll() {
  $("title").textContent = words.ref("title", {kind: words.kind.title || page.kind || "", game});
  document.title = game + " - " + words.ref("referee");
  $("who").textContent = page.name ? words.ref("who_named", {name: page.name}) : words.ref("who");
  $("lang-label").textContent = words.ui("language");
  $("turn-heading").textContent = words.ui("turn");
  $("seats-heading").textContent = words.ref("at_the_table");
  $("table-heading").textContent = words.ui("table");
  $("events-heading").textContent = words.ui("events");
  drawEvents(true);
  drawLive();
}

function drawLive() {
  if (!page.view) return;
  drawTable();
  drawSeats();
  drawDesk();
}

// -- reading ------------------------------------------------------------------------------------
async function refresh() {
  const mine = ++page.asked;  // answers of an older refresh that arrive late are dropped
  const [view, moves] = await Promise.all([api("GET", base + "/view"), api("GET", base + "/referee/moves")]);
  if (mine < page.shown) return;
  page.shown = mine;
  page.view = view;
  page.seats = moves.seats || [];
  page.physical = moves.physical;
  page.over = moves.over;
  drawLive();
  $("game").dataset.version = view.version;  // what the page shows: the log's version
}

// new events after page.after (waiting up to ``wait`` seconds); true when any came
async function readEvents(wait) {
  const answer = await api("GET", base + "/events?after=" + page.after + "&wait=" + wait);
  const fresh = (answer.events || []).filter((entry) => entry.seq > page.after
    && !page.entries.some((known) => known.seq === entry.seq));
  page.entries.push(...fresh);
  page.after = Math.max(page.after, answer.version || 0);
  page.over = Boolean(answer.over);
  if (fresh.some((entry) => words.shared(entry.event))) {
    // a correction, an amendment or a takeback voids earlier records: read them all again
    page.entries = (await api("GET", base + "/events?after=0")).events || [];
    drawEvents(true);
  } else if (fresh.length) {
    drawEvents();
  }
  return fresh.length > 0;
}

async function follow() {
  if (page.following) return;
  page.following = true;
  let delay = 250;
  try {
    while (!page.over) {
      let fresh;
      try {
        fresh = await readEvents(WAIT);
      } catch (error) {
        if (!error.network) { fail(error.message); return; }
        status(words.ui("reconnecting", {seq: page.after}));
        await sleep(delay);
        delay = Math.min(delay * 2, 4000);
        continue;
      }
      delay = 250;
      status("");
      if (fresh || page.over) {
        try { await refresh(); } catch (error) { if (!error.network) fail(error.message); }
      }
    }
  } finally {
    page.following = false;
  }
}

// -- commands: one command id per command, the same id for every retry (PAGE-19) ---------------
function lock(busy) {
  page.busy = busy;
  for (const button of document.querySelectorAll("#game button")) button.disabled = busy;
}

async function send(command) {
  if (page.busy) return false;  // a second tap while the first is on its way records nothing
  const key = "referee-" + randomHex(16);
  lock(true);
  fail("");
  status(words.ui("sending"));
  let delay = 250;
  let ok = false;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await api("POST", base + "/commands", command, {"Idempotency-Key": key});
        status("");
        ok = true;
        break;
      } catch (error) {
        if (error.network && attempt < 6) {
          status(words.ui("retrying"));
          await sleep(delay);
          delay *= 2;
          continue;
        }
        status("");
        fail(words.ui("refused") + ": " + error.message);
        break;
      }
    }
    try {
      await readEvents(0);  // this command's records at once, whether or not the poll has them
      await refresh();
    } catch (error) { if (!error.network) fail(error.message); }
  } finally {
    lock(false);
  }
  if (!page.over) follow();
  return ok;
}

// -- start ----------------------------------------------------------------------------------------
async function open(token) {
  page.token = token;
  const summary = await api("GET", base);
  if (summary.you.role !== "referee" && summary.you.role !== "organiser") {
    throw new ApiError(words.ref("not_referee"), 403, "PAGE-15", false);
  }
  page.players = summary.players;
  page.kind = summary.kind;
  page.name = summary.you.name || null;  // a named referee token: its name reports the draws
  $("login").hidden = true;
  $("game").hidden = false;
  buildDesk();
  await readEvents(0);
  await refresh();
  drawAll();
  follow();
}

function languageSwitch() {
  const select = $("lang");
  select.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) =>
    el("option", {value: code, lang: code}, name)));
  select.value = page.lang;
  select.addEventListener("change", async () => {
    localStorage.setItem("devil-lang", select.value);
    page.catalogue = await loadCatalogue(select.value);
    page.lang = select.value;
    if (page.token && page.view) drawAll();
    else loginTexts();
  });
}

function loginTexts() {
  $("token-label").textContent = words.ui("token");
  $("open").textContent = words.ui("open");
  $("lang-label").textContent = words.ui("language");
  fail(words.ref("no_token"));
}

async function start() {
  page.lang = chosenLanguage();
  page.catalogue = await loadCatalogue(page.lang);
  languageSwitch();
  $("lang-label").textContent = words.ui("language");
  const token = new URLSearchParams(location.hash.replace(/^#/, "")).get("token");
  const form = $("login");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const given = $("token").value.trim();
    if (given) {
      fail("");
      open(given).catch((error) => { fail(error.message); $("game").hidden = true; });
    }
  });
  if (!token) {
    form.hidden = false;
    loginTexts();
    return;
  }
  try {
    await open(token);
  } catch (error) {
    $("game").hidden = true;
    form.hidden = false;
    $("token-label").textContent = words.ui("token");
    $("open").textContent = words.ui("open");
    fail(error.message);
  }
}

start().catch((error) => fail(String(error.message || error)));
