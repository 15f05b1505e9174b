// devil's table page (engine/web/pages/table.py): the seat's page and the spectator's page.
// A plain ES module, no build step, no library.  Game-agnostic: everything comes from the API
// (the summary, the view, the event stream by long poll, the legal commands as shapes:
// engine/web/moves.py) and every word from the language's catalogue (/pages/i18n/<lang>.json).
// The token is read from the address's fragment (#token=...) and sent only in the
// Authorization header, never in a URL.  Everything is set with textContent, never as HTML.

import {AutoPass} from "./autopass.js";  // the seat's auto-pass and window hold (PAGE-20..24)

// one catalogue per language (/pages/i18n/<code>.json): add its file and a line here
const LANGUAGES = {en: "English", de: "Deutsch"};
const RULE_ID = /\b[A-Z]{2,}-\d+(?:\.\d+)*\b/g;
const WAIT = 25;  // seconds a long poll of the events waits for the next one

const $ = (id) => document.getElementById(id);
const el = (tag, props, ...kids) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "className" || key === "textContent" || key === "id" || key === "type"
        || key === "value" || key === "disabled" || key === "hidden") node[key] = value;
    else node.setAttribute(key, value);
  }
  for (const kid of kids) {
    if (kid !== null && kid !== undefined) node.append(kid instanceof Node ? kid : String(kid));
  }
  return node;
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const game = decodeURIComponent(location.pathname.split("/")[2] || "");
const page = {
  token: null, role: null, you: null, seat: null, players: [], kind: null,
  after: 0, over: false, view: null, moves: [], entries: [], busy: false,
  lang: "en", catalogue: null, asked: 0, shown: 0, drawer: null,
};

// -- a kind's own drawing -------------------------------------------------------------------------
// A kind whose catalogue entry names a ``module`` (``table_<kind>.js``, served beside this file)
// draws what the generic page cannot: its module may export ``cell(key, value, row, h)`` (a table
// cell's text), ``word(name, value, type, h)`` (a command input's value), ``format(value, how,
// event, h)`` (an event field), ``describe(event, h)`` (a whole sentence) and ``draw(view, h)``
// (its own sections).  Each returns undefined to leave the generic wording in place.
async function loadDrawer() {
  const module = kindWords().module;
  page.drawer = null;
  if (typeof module === "string" && /^table_[a-z0-9]+\.js$/.test(module)) {
    page.drawer = await import("./" + module);
  }
}

function helpers() {
  return {ui, words: kindWords(), nameOf, el, withRules, sentence, page, lang: page.lang};
}

function drawn(hook, ...args) {
  const fn = page.drawer && page.drawer[hook];
  return fn ? fn(...args, helpers()) : undefined;
}

// -- the catalogue ----------------------------------------------------------------------------
function chosenLanguage() {
  const kept = localStorage.getItem("devil-lang");
  if (kept && kept in LANGUAGES) return kept;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const code = String(wanted).slice(0, 2).toLowerCase();
    if (code in LANGUAGES) return code;
  }
  return "en";
}

async function loadCatalogue(lang) {
  const response = await fetch("/pages/i18n/" + lang + ".json", {cache: "no-store"});
  if (!response.ok) throw new Error("no catalogue for " + lang);
  page.catalogue = await response.json();
  page.lang = lang;
  document.documentElement.lang = lang;
}

function ui(key, params) {
  return fill((page.catalogue.ui || {})[key] || key, params || {});
}

function kindWords() {
  return ((page.catalogue.kinds || {})[page.kind]) || {};
}

function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (all, key) => (key in params ? String(params[key]) : all));
}

// -- the API (the token in a header only) ------------------------------------------------------
class ApiError extends Error {
  constructor(message, status, rule, network) {
    super(message);
    this.status = status; this.rule = rule; this.network = network;
  }
}

async function api(method, path, body, headers) {
  const init = {method, cache: "no-store", referrerPolicy: "no-referrer",
                headers: Object.assign({"Authorization": "Bearer " + page.token}, headers || {})};
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(String(error.message || error), 0, null, true);
  }
  let data = null;
  try { data = await response.json(); } catch (error) { data = null; }
  if (!response.ok) {
    let message = (data && data.error) || ("the server answered " + response.status);
    if (data && data.rule && !message.includes(data.rule)) message += " (" + data.rule + ")";
    throw new ApiError(message, response.status, data && data.rule, response.status >= 500);
  }
  return data;
}

const base = "/games/" + encodeURIComponent(game);
const autopass = new AutoPass();

// -- drawing ----------------------------------------------------------------------------------
function nameOf(index) {
  if (index === -1) return ui("bank");
  return page.players[index] !== undefined ? page.players[index] : String(index);
}

function word(column, value) {
  if (value === null || value === undefined) return ui("hidden");
  if (value === true) return ui("yes");
  if (value === false) return ui("no");
  const words = (kindWords().values || {})[column] || {};
  if (Array.isArray(value)) {
    return value.length ? value.map((v) => (v in words ? words[v] : String(v))).join(", ") : ui("none");
  }
  return value in words ? words[value] : String(value);
}

function format(value, how, event) {
  const own = drawn("format", value, how, event);
  if (own !== undefined) return own;
  if (how === "name") return nameOf(value);
  if (how === "names") return (value || []).map(nameOf).join(ui("and"));
  if (how === "by_seat") return (value || []).map((v, i) => nameOf(i) + " " + word("", v)).join(", ");
  if (Array.isArray(value)) return value.map(String).join(", ");
  return word("", value);
}

// an event in plain words: the catalogue's sentence for its type, the first variant
// ("type.field=value") that matches tried first; rule ids are part of the sentence
function describe(event) {
  const own = drawn("describe", event);
  if (own !== undefined) return own;
  const events = Object.assign({}, (page.catalogue.shared || {}).events, kindWords().events);
  const type = event.type;
  let template = null;
  for (const [field, value] of Object.entries(event)) {
    const shown = typeof value === "string" ? value : JSON.stringify(value);
    const key = type + "." + field + "=" + shown;
    if (key in events) { template = events[key]; break; }
  }
  if (template === null) template = events[type];
  if (template === undefined || template === null) {
    return type + " " + JSON.stringify(Object.fromEntries(
      Object.entries(event).filter(([key]) => key !== "type")));
  }
  return sentence(template, event);
}

// a catalogue sentence filled from an event: {field} or {field:how}
function sentence(template, event) {
  return template.replace(/\{(\w+)(?::(\w+))?\}/g, (all, field, how) => format(event[field], how, event));
}

function withRules(text) {
  const out = [];
  let last = 0;
  for (const match of text.matchAll(RULE_ID)) {
    out.push(text.slice(last, match.index), el("span", {className: "rule"}, match[0]));
    last = match.index + match[0].length;
  }
  out.push(text.slice(last));
  return out;
}

// the event list: new events are appended (the list is a live region: a screen reader reads
// what is added, not the whole list again); ``whole`` draws it again (another language)
function drawEvents(whole) {
  const list = $("events");
  const line = (entry) => {
    const li = el("li", {className: entry.voided ? "voided" : ""},
                  el("span", {className: "seq"}, "#" + entry.seq + " "), ...withRules(describe(entry.event)));
    li.dataset.seq = entry.seq;
    if (entry.voided) li.append(" (" + ui("voided") + ")");
    return li;
  };
  if (whole) list.replaceChildren(...page.entries.map(line));
  else list.append(...page.entries.slice(list.children.length).map(line));
  list.scrollTop = list.scrollHeight;
}

function at(map, path) {
  return path.split(".").reduce((value, key) => (value && typeof value === "object" ? value[key] : undefined), map);
}

// a cell of the table (or of the seat's own box): the kind's words first
function cellWord(key, value, row) {
  const own = drawn("cell", key, value, row);
  return own !== undefined ? own : word(key, value);
}

// a value a command input offers: the kind's words first
function inputWord(type, name, value) {
  const own = drawn("word", name, value, type);
  return own !== undefined ? own : word(name, value);
}

function drawView() {
  const view = page.view;
  if (!view) return;
  const words = kindWords();
  const rows = view.players || [];
  const known = (words.columns || []).filter(([key]) => rows.some((row) => key in row));
  const columns = known.length ? known : Object.keys(rows[0] || {}).map((key) => [key, key]);
  const head = el("tr", {}, ...columns.map(([, label]) => el("th", {scope: "col"}, label)));
  const body = rows.map((row, index) => {
    const cells = columns.map(([key], i) => i === 0
      ? el("th", {scope: "row"}, cellWord(key, row[key], row))
      : el("td", {className: row[key] === null ? "hidden-value" : ""}, cellWord(key, row[key], row)));
    const tr = el("tr", {className: [row.name === view.turn ? "turn" : "",
                                     index === page.seat ? "you" : ""].join(" ").trim()}, ...cells);
    tr.dataset.player = row.name;
    return tr;
  });
  $("players").replaceChildren(el("thead", {}, head), el("tbody", {}, ...body));
  const facts = (words.facts || []).filter(([path]) => at(view, path) !== undefined);
  $("facts").replaceChildren(...facts.flatMap(([path, label]) =>
    [el("dt", {}, label), el("dd", {"data-fact": path}, word(path.split(".").pop(), at(view, path)))]));
  const youBox = $("you-box");
  youBox.hidden = page.seat === null;
  if (page.seat !== null && rows[page.seat]) {
    const mine = rows[page.seat];
    $("you").replaceChildren(...columns.slice(1).flatMap(([key, label]) =>
      [el("dt", {}, label), el("dd", {"data-field": key}, cellWord(key, mine[key], mine))]));
  }
  let turn;
  if (page.over || (view.winners && view.winners.length)) {
    turn = ui("over", {names: (view.winners || []).join(ui("and"))});
  } else if (view.turn) {
    turn = view.turn === page.you ? ui("your_turn") : ui("turn_of", {name: view.turn});
  } else if (page.moves.length) {
    turn = ui("choose");
  } else {
    turn = ui("waiting");
  }
  $("turn").textContent = turn;
  drawClocks(view.clocks);
  drawn("draw", view);
}

function clockTime(ms) {
  // m:ss.t as `devil show` prints a clock (engine.clock.duration_text)
  const tenths = Math.floor(ms / 100);
  const seconds = Math.floor(tenths / 10);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}.${tenths % 10}`;
}

function drawClocks(clocks) {
  // each seat's time, public (CLOCK-8): ">" marks a running clock, as `devil show` does
  const box = $("clocks");
  box.hidden = !clocks;
  if (!clocks) return;
  const parts = clocks.seats.map((seat) => {
    let text = (seat.running ? ">" : "") + seat.player;
    if (seat.remaining !== null) text += " " + clockTime(seat.remaining);
    if (seat.running && seat.move_left !== null) text += ` (move ${clockTime(seat.move_left)})`;
    if (seat.flagged) text += " flagged";
    return text;
  });
  box.textContent = `CLOCKS (${clocks.control.text}): ` + parts.join("  ");
}

function randomHex(bytes) {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (b) => b.toString(16).padStart(2, "0")).join("");
}

function drawMoves() {
  const box = $("moves");
  if (page.seat === null) {
    box.replaceChildren(el("p", {}, ui(page.role === "spectator" ? "moves_spectator" : "moves_none")));
    return;
  }
  if (!page.moves.length) {
    box.replaceChildren(el("p", {}, ui("moves_none")));
    return;
  }
  // a live update redraws the controls: a keyboard or screen-reader user keeps the control
  // they were at and the values they had chosen, where the same control is drawn again
  const active = box.contains(document.activeElement) ? document.activeElement : null;
  const at = active && (active.id || "button:" + (active.closest("form.move") || {dataset: {}}).dataset.type);
  const chosen = new Map([...box.querySelectorAll("select")].map((select) =>
    [select.id, select.selectedOptions.length ? select.selectedOptions[0].textContent : null]));
  const words = kindWords();
  box.replaceChildren(...page.moves.map((shape) => {
    const form = el("form", {className: "move"});
    form.dataset.type = shape.type;
    const fields = [];
    // an input's label: the catalogue's "type.name" (the item to offer) before its "name"
    const labelOf = (name) => (words.inputs || {})[shape.type + "." + name]
      || (words.inputs || {})[name] || name;
    if (shape.options) {
      // two or more fields vary: one list of the legal combinations, so none is offered
      // that the rules would refuse
      const names = shape.inputs.map((input) => input.name);
      const id = "move-" + shape.type + "-choice";
      const select = el("select", {id, name: "choice"}, ...shape.options.map((option, i) =>
        el("option", {value: String(i)}, names.map((n) => inputWord(shape.type, n, option[n])).join(" \u00b7 "))));
      fields.push([{name: null, options: shape.options}, select]);
      form.append(el("label", {for: id}, names.map(labelOf).join(" \u00b7 ")), select);
    } else {
      for (const input of shape.inputs) {
        if (input.random) continue;  // made by this page at the moment of sending
        const id = "move-" + shape.type + "-" + input.name;
        const select = el("select", {id, name: input.name}, ...input.values.map((v, i) =>
          el("option", {value: String(i)}, inputWord(shape.type, input.name, v))));
        fields.push([input, select]);
        form.append(el("label", {for: id}, labelOf(input.name)), select);
      }
    }
    // a kind without words in this catalogue: the command's type as a verb ("trade": Trade)
    const verb = (words.verbs || {})[shape.type]
      || shape.type.charAt(0).toUpperCase() + shape.type.slice(1).replace(/_/g, " ");
    const button = el("button", {type: "submit", disabled: page.busy}, verb);
    form.append(button);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const command = Object.assign({type: shape.type}, shape.fixed);
      for (const [input, select] of fields) {
        if (input.options) Object.assign(command, input.options[Number(select.value)]);
        else command[input.name] = input.values[Number(select.value)];
      }
      for (const input of shape.inputs) {
        if (input.random) {
          command[input.name] = randomHex(input.random);
          sessionStorage.setItem("devil-entropy-" + game, command[input.name]);
        }
      }
      send(command);
    });
    return form;
  }));
  for (const select of box.querySelectorAll("select")) {
    const option = [...select.options].find((o) => o.textContent === chosen.get(select.id));
    if (option) select.value = option.value;
  }
  const again = !at ? null : at.startsWith("button:")
    ? box.querySelector('form.move[data-type="' + at.slice(7) + '"] button') : document.getElementById(at);
  if (again && !again.disabled) again.focus();
}

function drawAll() {
  const words = kindWords();
  $("title").textContent = ui("title", {kind: words.title || page.kind || "", game});
  document.title = game + " - " + (page.you || page.role || "");
  $("who").textContent = page.seat !== null ? ui("as_seat", {name: page.you})
    : ui(page.role === "spectator" ? "as_spectator" : "as_referee");
  $("lang-label").textContent = ui("language");
  $("turn-heading").textContent = ui("turn");
  $("moves-heading").textContent = ui("your_move");
  $("you-heading").textContent = ui("you");
  $("table-heading").textContent = ui("table");
  $("events-heading").textContent = ui("events");
  drawView();
  drawMoves();
  drawEvents(true);
  autopass.draw();
}

function fail(message) {
  $("error").textContent = message || "";
}

function status(message) {
  $("status").textContent = message || "";
}

// -- reading: the view and the moves, then the events as they come -------------------------------
async function refresh() {
  const mine = ++page.asked;  // answers of an older refresh that arrive late are dropped
  const [view, moves] = await Promise.all([
    api("GET", base + "/view"),
    page.seat !== null && !page.over ? api("GET", base + "/moves") : Promise.resolve({moves: []}),
  ]);
  if (mine < page.shown) return;
  page.shown = mine;
  page.view = view;
  page.moves = moves.moves || [];
  drawView();
  drawMoves();
  if (page.seat !== null) autopass.seen(moves, view);
  $("game").dataset.version = view.version;  // what the page shows: the log's version
}

async function follow() {
  let delay = 250;
  for (;;) {
    let answer;
    try {
      answer = await api("GET", base + "/events?after=" + page.after + "&wait=" + WAIT);
    } catch (error) {
      if (!error.network) { fail(error.message); return; }
      status(ui("reconnecting", {seq: page.after}));
      await sleep(delay);
      delay = Math.min(delay * 2, 4000);
      continue;
    }
    delay = 250;
    status("");
    const fresh = (answer.events || []).filter((entry) => entry.seq > page.after
      && !page.entries.some((known) => known.seq === entry.seq));
    page.entries.push(...fresh);
    page.after = Math.max(page.after, answer.version || 0);
    if (answer.over) page.over = true;
    if (fresh.some((entry) => entry.event.type === "corrected")) {
      // a correction voids earlier records: read the stream again to strike them through
      try {
        page.entries = (await api("GET", base + "/events?after=0")).events || [];
        drawEvents(true);
      } catch (error) { if (!error.network) fail(error.message); }
    } else if (fresh.length || answer.over) {
      drawEvents();
    }
    if (fresh.length || answer.over) {
      try { await refresh(); } catch (error) { if (!error.network) fail(error.message); }
    }
    if (page.over) return;
  }
}

// -- commands: one command id per command, the same id for every retry --------------------------
async function send(command) {
  const key = "page-" + randomHex(16);
  page.busy = true;
  drawMoves();
  fail("");
  let delay = 250;
  try {
    // PAGE-21: an answer in a window leaves no earlier than the hold; PAGE-23: or not at all
    const go = await autopass.held(command);
    if (go) status(ui("sending"));
    for (let attempt = 0; go; attempt++) {
      try {
        await api("POST", base + "/commands", command, {"Idempotency-Key": key});
        status("");
        break;
      } catch (error) {
        if (error.network && attempt < 6) {
          status(ui("retrying"));
          await sleep(delay);
          delay *= 2;
          continue;
        }
        status("");
        fail(ui("refused") + ": " + error.message);
        break;
      }
    }
  } finally {
    page.busy = false;
  }
  try { await refresh(); } catch (error) { if (!error.network) fail(error.message); }
}

// -- start --------------------------------------------------------------------------------------
async function open(token) {
  page.token = token;
  const summary = await api("GET", base);
  page.role = summary.you.role;
  page.players = summary.players;
  page.kind = summary.kind;
  await loadDrawer();
  if (page.role === "seat") { page.seat = summary.you.seat; page.you = summary.you.name; }
  $("login").hidden = true;
  $("game").hidden = false;
  if (page.seat !== null) {
    // its words: the catalogue's "autopass" section
    const words = (key, params) => fill((page.catalogue.autopass || {})[key] || key, params || {});
    await autopass.start({ui: words, el, send, fail, box: $("moves-box"), name: page.you,
                          kind: page.kind});
  }
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
    await loadCatalogue(select.value);
    drawAll();
    if (!page.token) loginTexts();
  });
}

function loginTexts() {
  $("token-label").textContent = ui("token");
  $("open").textContent = ui("open");
  fail(ui("no_token"));
}

async function start() {
  await loadCatalogue(chosenLanguage());
  languageSwitch();
  $("lang-label").textContent = ui("language");
  const token = new URLSearchParams(location.hash.replace(/^#/, "")).get("token");
  const form = $("login");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const given = $("token").value.trim();
    if (given) { fail(""); open(given).catch((error) => fail(error.message)); }
  });
  if (!token) {
    form.hidden = false;
    loginTexts();
    return;
  }
  try {
    await open(token);
  } catch (error) {
    fail(error.message);
    form.hidden = false;
  }
}

start().catch((error) => fail(String(error.message || error)));
