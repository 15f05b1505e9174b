// devil's pages: the catalogue's words and the API, as the referee's page (referee.js) imports
// them.  The same rules as the seat's page (table.js, which keeps its own copy): an event in
// plain words is the catalogue's sentence for its type, rule ids unchanged in every language;
// everything is set with textContent, never as HTML; the token is sent in the Authorization
// header only, never in a URL.

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

// the words of one catalogue for one game: ``ctx`` is {catalogue, kind, players}
export class Words {
  constructor(ctx) { this.ctx = ctx; }

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

  format(value, how) {
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
    // the referee page's own sentences of the desk's records (with their rule ids) first
    const events = Object.assign({}, (this.ctx.catalogue.shared || {}).events, this.kind.events,
                                 (this.ctx.catalogue.referee || {}).events);
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
    return template.replace(/\{(\w+)(?::(\w+))?\}/g,
                            (all, field, how) => this.format(event[field], how));
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
