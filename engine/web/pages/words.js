// devil's pages' one shared module: the catalogue's words, the API, and the parts both the seat's
// page (table.js) and the referee's page (referee.js) draw alike (a command's control, the
// players' table, the clocks).  An event in plain words is the catalogue's sentence for its
// type, rule ids unchanged in every language; everything is set with textContent, never as
// HTML; the token is sent in the Authorization header only, never in a URL.

// one catalogue per language (/pages/i18n/<code>.json): add its file and a line here
export const LANGUAGES = {en: "English", de: "Deutsch"};
const RULE_ID = /\b[A-Z]{2,}-\d+(?:\.\d+)*\b/g;

export const $ = (id) => document.getElementById(id);

export function el(tag, props, ...kids) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "className" || key === "textContent" || key === "id" || key === "type"
        || key === "value" || key === "disabled" || key === "hidden" || key === "required") {
      node[key] = value;
    } else node.setAttribute(key, value);
  }
  for (const kid of kids) {
    if (kid !== null && kid !== undefined) node.append(kid instanceof Node ? kid : String(kid));
  }
  return node;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function randomHex(bytes) {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (all, key) => (key in params ? String(params[key]) : all));
}

export function at(map, path) {
  return path.split(".").reduce(
    (value, key) => (value && typeof value === "object" ? value[key] : undefined), map);
}

// the language: the one kept by the switch, else the browser's first with a catalogue
export function chosenLanguage() {
  const kept = localStorage.getItem("devil-lang");
  if (kept && kept in LANGUAGES) return kept;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const code = String(wanted).slice(0, 2).toLowerCase();
    if (code in LANGUAGES) return code;
  }
  return "en";
}

export async function loadCatalogue(lang) {
  const response = await fetch("/pages/i18n/" + lang + ".json", {cache: "no-store"});
  if (!response.ok) throw new Error("no catalogue for " + lang);
  document.documentElement.lang = lang;
  return response.json();
}

// the words of one catalogue for one game: ``ctx`` is {catalogue, kind, players} (read live:
// a page's state object, so a language switch or the summary's arrival needs no new Words).
// ``options.hooks``: {format(value, how, event), describe(event)}, a kind's own wording tried
// first (each returns undefined to leave the catalogue's); ``options.own``: the name of a
// catalogue section whose ``events`` sentences come before the kind's (the referee page's).
export class Words {
  constructor(ctx, options) {
    this.ctx = ctx;
    this.hooks = (options && options.hooks) || {};
    this.own = (options && options.own) || null;
  }

  get kind() { return ((this.ctx.catalogue.kinds || {})[this.ctx.kind]) || {}; }

  ui(key, params) {
    return fill((this.ctx.catalogue.ui || {})[key] || key, params || {});
  }

  // the referee page's own words (the catalogue's ``referee`` section), else the page's
  ref(key, params) {
    const own = (this.ctx.catalogue.referee || {}).ui || {};
    return key in own ? fill(own[key], params || {}) : this.ui(key, params);
  }

  refKind() {
    return (((this.ctx.catalogue.referee || {}).kinds || {})[this.ctx.kind]) || {};
  }

  nameOf(index) {
    if (index === -1) return this.ui("bank");
    const players = this.ctx.players || [];
    return players[index] !== undefined ? players[index] : String(index);
  }

  word(column, value) {
    if (value === null || value === undefined) return this.ui("hidden");
    if (value === true) return this.ui("yes");
    if (value === false) return this.ui("no");
    const words = (this.kind.values || {})[column] || {};
    if (Array.isArray(value)) {
      return value.length ? value.map((v) => (v in words ? words[v] : String(v))).join(", ")
        : this.ui("none");
    }
    return value in words ? words[value] : String(value);
  }

  format(value, how, event) {
    const own = this.hooks.format ? this.hooks.format(value, how, event) : undefined;
    if (own !== undefined) return own;
    if (how === "name") return this.nameOf(value);
    if (how === "names") return (value || []).map((v) => this.nameOf(v)).join(this.ui("and"));
    if (how === "by_seat") {
      return (value || []).map((v, i) => this.nameOf(i) + " " + this.word("", v)).join(", ");
    }
    if (Array.isArray(value)) return value.map(String).join(", ");
    return this.word("", value);
  }

  // an event in plain words: the catalogue's sentence for its type, the first variant
  // ("type.field=value") that matches tried first; rule ids are part of the sentence
  describe(event) {
    const own = this.hooks.describe ? this.hooks.describe(event) : undefined;
    if (own !== undefined) return own;
    // a page's own sentences (the referee's of the desk's records, with their rule ids) first
    const events = Object.assign({}, (this.ctx.catalogue.shared || {}).events, this.kind.events,
                                 this.own ? (this.ctx.catalogue[this.own] || {}).events : {});
    let template = null;
    for (const [field, value] of Object.entries(event)) {
      const shown = typeof value === "string" ? value : JSON.stringify(value);
      const key = event.type + "." + field + "=" + shown;
      if (key in events) { template = events[key]; break; }
    }
    if (template === null) template = events[event.type];
    if (template === undefined || template === null) {
      return event.type + " " + JSON.stringify(Object.fromEntries(
        Object.entries(event).filter(([key]) => key !== "type")));
    }
    return this.sentence(template, event);
  }

  // a catalogue sentence filled from an event: {field} or {field:how}
  sentence(template, event) {
    return template.replace(/\{(\w+)(?::(\w+))?\}/g,
                            (all, field, how) => this.format(event[field], how, event));
  }

  // whether an event is the desk's, the seating stage's or a clock's (the shared sentences)
  shared(event) {
    return event.type in ((this.ctx.catalogue.shared || {}).events || {});
  }

  verb(type) {
    // a kind without words in this catalogue: the command's type as a verb ("trade": Trade)
    return (this.kind.verbs || {})[type]
      || type.charAt(0).toUpperCase() + type.slice(1).replace(/_/g, " ");
  }
}

// text with its rule ids marked (each in a span of class "rule")
export function withRules(text) {
  const out = [];
  let last = 0;
  for (const match of text.matchAll(RULE_ID)) {
    out.push(text.slice(last, match.index), el("span", {className: "rule"}, match[0]));
    last = match.index + match[0].length;
  }
  out.push(text.slice(last));
  return out;
}

export class ApiError extends Error {
  constructor(message, status, rule, network) {
    super(message);
    this.status = status; this.rule = rule; this.network = network;
  }
}

// one request with the token in the Authorization header (never in the URL)
export async function request(token, method, path, body, headers) {
  const init = {method, cache: "no-store", referrerPolicy: "no-referrer",
                headers: Object.assign({"Authorization": "Bearer " + token}, headers || {})};
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

// -- what both pages draw alike -------------------------------------------------------------------

// draws ``box`` again from ``build()`` (its new children) keeping a keyboard or screen-reader
// user's place: the focused control and the values chosen in its lists, where the same control
// (by id; a form's button by the form's command type) is drawn again
export function redraw(box, build) {
  const active = box.contains(document.activeElement) ? document.activeElement : null;
  const form = active && active.closest("form[data-type]");
  const place = !active ? null : active.id ? {id: active.id}
    : form ? {form: form.dataset.type, in: form.parentElement} : null;
  const chosen = new Map([...box.querySelectorAll("select")].map((select) =>
    [select.id, select.selectedOptions.length ? select.selectedOptions[0].textContent : null]));
  box.replaceChildren(...build());
  for (const select of box.querySelectorAll("select")) {
    const option = [...select.options].find((o) => o.textContent === chosen.get(select.id));
    if (option) select.value = option.value;
  }
  let again = null;
  if (place && place.id) again = document.getElementById(place.id);
  else if (place) {
    again = [...box.querySelectorAll("form[data-type]")].find((f) => f.dataset.type === place.form
      && (place.in === box || f.parentElement.dataset.seat === place.in.dataset.seat));
    again = again && again.querySelector("button");
  }
  if (again && box.contains(again) && !again.disabled) again.focus();
}

// one command's control: a form of class ``className`` holding a labelled list per input the
// seat chooses (or one list of the legal combinations when two or more vary) and a button
// named by its verb.  ``shape``: engine/web/moves.py's {type, inputs, options?, fixed}; ``o``:
// {id(name) -> an element id, label(name), value(name, value) -> a list's words, verb, busy,
// send(command)}.  A random input is made at the moment of sending (randomHex).
export function commandForm(shape, o) {
  const form = el("form", {className: o.className || "move"});
  form.dataset.type = shape.type;
  const fields = [];
  if (shape.options) {
    // two or more fields vary: one list of the legal combinations, so none is offered that the
    // rules would refuse
    const names = shape.inputs.map((input) => input.name);
    const id = o.id("choice");
    const select = el("select", {id, name: "choice"}, ...shape.options.map((option, i) =>
      el("option", {value: String(i)}, names.map((n) => o.value(n, option[n])).join(" \u00b7 "))));
    fields.push([{name: null, options: shape.options}, select]);
    form.append(el("label", {for: id}, names.map(o.label).join(" \u00b7 ")), select);
  } else {
    for (const input of shape.inputs) {
      if (input.random) continue;  // made at the moment of sending
      const id = o.id(input.name);
      const select = el("select", {id, name: input.name}, ...input.values.map((v, i) =>
        el("option", {value: String(i)}, o.value(input.name, v))));
      fields.push([input, select]);
      form.append(el("label", {for: id}, o.label(input.name)), select);
    }
  }
  form.append(el("button", {type: "submit", disabled: o.busy}, o.verb));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const command = Object.assign({type: shape.type}, shape.fixed);
    for (const [input, select] of fields) {
      if (input.options) Object.assign(command, input.options[Number(select.value)]);
      else command[input.name] = input.values[Number(select.value)];
    }
    for (const input of shape.inputs) {
      if (input.random) command[input.name] = randomHex(input.random);
    }
    o.send(command, shape);
  });
  return form;
}

// the columns of a view's players' table: the kind's (those the rows have), else the rows' keys
export function columnsOf(kind, rows) {
  const known = (kind.columns || []).filter(([key]) => rows.some((row) => key in row));
  return known.length ? known : Object.keys(rows[0] || {}).map((key) => [key, key]);
}

// the players' table (``table``: a <table>): a row per player, the first cell its header;
// ``cell(key, value, row)`` a cell's text, ``rowClass(row, index)`` a row's class
export function drawPlayers(table, rows, columns, cell, rowClass) {
  const head = el("tr", {}, ...columns.map(([, label]) => el("th", {scope: "col"}, label)));
  const body = rows.map((row, index) => {
    const cells = columns.map(([key], i) => i === 0
      ? el("th", {scope: "row"}, cell(key, row[key], row))
      : el("td", {className: row[key] === null ? "hidden-value" : ""}, cell(key, row[key], row)));
    const tr = el("tr", {className: rowClass(row, index)}, ...cells);
    tr.dataset.player = row.name;
    return tr;
  });
  table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...body));
}

// m:ss.t as `devil show` prints a clock (engine.clock.duration_text)
export function clockTime(ms) {
  const tenths = Math.floor(ms / 100);
  const seconds = Math.floor(tenths / 10);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}.${tenths % 10}`;
}

// each seat's time, public (CLOCK-8): ">" marks a running clock, as `devil show` does
export function drawClocks(box, clocks) {
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
