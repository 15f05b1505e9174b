// devil's table page (engine/web/pages/table.py): the seat's page and the spectator's page.
// A plain ES module, no build step, no library.  Game-agnostic: everything comes from the API
// (the summary, the view, the event stream by long poll, the legal commands as shapes:
// engine/web/moves.py) and every word from the language's catalogue (/pages/i18n/<lang>.json).
// The token is read from the address's fragment (#token=...) and sent only in the
// Authorization header, never in a URL.  Everything is set with textContent, never as HTML.

import {AutoPass} from "./autopass.js";  // the seat's auto-pass and window hold (PAGE-20..24)
import {$, LANGUAGES, Words, at, chosenLanguage, columnsOf, commandForm, drawClocks,
        drawPlayers, el, fill, loadCatalogue, randomHex, redraw, request,
        sleep, withRules} from "./words.js";  // the pages' shared module

const WAIT = 25;  // seconds a long poll of the events waits for the next one

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

// -- the catalogue: words.js's, with the kind's drawing module's hooks tried first ------------------
const words = new Words(page, {hooks: {
  format: (value, how, event) => drawn("format", value, how, event),
  describe: (event) => drawn("describe", event),
}});
const ui = (key, params) => words.ui(key, params);
const kindWords = () => words.kind;
const nameOf = (index) => words.nameOf(index);
const word = (column, value) => words.word(column, value);
const describe = (event) => words.describe(event);
const sentence = (template, event) => words.sentence(template, event);

async function useLanguage(lang) {
  page.catalogue = await loadCatalogue(lang);
  page.lang = lang;
}

const api = (method, path, body, headers) => request(page.token, method, path, body, headers);

const base = "/games/" + encodeURIComponent(game);
const autopass = new AutoPass();

// -- drawing ----------------------------------------------------------------------------------
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
  const kind = kindWords();
  const rows = view.players || [];
  const columns = columnsOf(kind, rows);
  drawPlayers($("players"), rows, columns, cellWord, (row, index) =>
    [row.name === view.turn ? "turn" : "", index === page.seat ? "you" : ""].join(" ").trim());
  const facts = (kind.facts || []).filter(([path]) => at(view, path) !== undefined);
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
  drawClocks($("clocks"), view.clocks);
  drawn("draw", view);
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
  const inputs = kindWords().inputs || {};
  // a live update redraws the controls keeping the user's place (words.js's redraw)
  redraw(box, () => page.moves.map((shape) => commandForm(shape, {
    id: (name) => "move-" + shape.type + "-" + name,
    // an input's label: the catalogue's "type.name" (the item to offer) before its "name"
    label: (name) => inputs[shape.type + "." + name] || inputs[name] || name,
    value: (name, value) => inputWord(shape.type, name, value),
    verb: words.verb(shape.type), busy: page.busy,
    send: (command) => {
      for (const input of shape.inputs) {  // the seat's entropy, kept to show it later
        if (input.random) sessionStorage.setItem("devil-entropy-" + game, command[input.name]);
      }
      send(command);
    },
  })));
}

function drawAll() {
  $("title").textContent = ui("title", {kind: kindWords().title || page.kind || "", game});
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
    const said = (key, params) => fill((page.catalogue.autopass || {})[key] || key, params || {});
    await autopass.start({ui: said, el, send, fail, box: $("moves-box"), name: page.you,
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
    await useLanguage(select.value);
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
  await useLanguage(chosenLanguage());
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
