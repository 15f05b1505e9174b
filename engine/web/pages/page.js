// devil's pages (engine/web/pages): the replay, the audit and the archive report.  Game-agnostic:
// the server (or the file) gives every step's sentence, rule ids, text table and the view as
// data; the view is drawn generically; the report is sections of tables (engine/report.py).
// Everything user-given is set with textContent, never as HTML.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const el = (tag, props, ...kids) => {
    const node = document.createElement(tag);
    Object.assign(node, props || {});
    for (const kid of kids) {
      if (kid !== null && kid !== undefined) {
        node.append(kid instanceof Node ? kid : String(kid));
      }
    }
    return node;
  };
  const page = document.body.dataset.page;

  function fail(message) {
    $("error").textContent = message;
  }

  // -- getting the data: inlined (a file) or from the server with a token ---------------------
  function tokenFromHash() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    return params.get("token");
  }

  async function fetchData(token, as) {
    let url = location.pathname.replace(/\/+$/, "") + "/data";
    if (as) url += "?as=" + encodeURIComponent(as);
    const response = await fetch(url, {headers: {"Authorization": "Bearer " + token},
                                       cache: "no-store"});
    let body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    if (!response.ok) {
      throw new Error((body && body.error) || ("the server answered " + response.status));
    }
    return body;
  }

  // the data the page holds (engine.web.pages.data_block): JSON, or (a long game) that JSON
  // gzipped and base64'd, unpacked here with the browser's own DecompressionStream
  async function inlineData() {
    const block = $("devil-data");
    if (!block) return null;
    const text = block.textContent.trim();
    if (block.type !== "application/x-devil-gzip-base64") return JSON.parse(text);
    if (typeof DecompressionStream === "undefined") {
      throw new Error("this browser cannot unpack the page's data: it needs DecompressionStream " +
                      "(Chrome or Edge 80, Firefox 113, Safari 16.4 or later)");
    }
    const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  async function start() {
    let data = null;
    try {
      data = await inlineData();
    } catch (error) {
      fail(error.message);
      return;
    }
    if (page === "archive") {
      if (data) showArchive(data); else fail("this report holds no data");
      return;
    }
    window.DEVIL_DATA = data;
    if (data) {
      show(data, null);
      return;
    }
    const token = tokenFromHash();
    if (!token) {
      const form = $("login");
      form.hidden = false;
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const given = $("token").value.trim();
        if (given) { form.hidden = true; load(given, null); }
      });
      return;
    }
    load(token, null);
  }

  async function load(token, as) {
    fail("");
    try {
      show(await fetchData(token, as), token);
    } catch (error) {
      fail(error.message);
      if (!window.DEVIL_DATA) $("login").hidden = false;
    }
  }

  function show(data, token) {
    if (page === "replay") showReplay(data, token); else showAudit(data);
  }

  // -- a view, drawn generically ------------------------------------------------------------
  function hidden() {
    return el("span", {className: "hidden-value", title: "not shown to this viewer"}, "?");
  }

  function render(value) {
    if (value === null || value === undefined) return hidden();
    if (Array.isArray(value)) {
      if (value.length && value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
        const keys = [];
        for (const row of value) for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
        const table = el("table", {className: "data"});
        table.append(el("tr", {}, ...keys.map((k) => el("th", {}, k))));
        for (const row of value) {
          table.append(el("tr", {}, ...keys.map((k) => el("td", {}, render(row[k])))));
        }
        return table;
      }
      const span = el("span");
      value.forEach((v, i) => { if (i) span.append(", "); span.append(render(v)); });
      if (!value.length) span.append("-");
      return span;
    }
    if (typeof value === "object") {
      const dl = el("dl", {className: "data"});
      for (const [k, v] of Object.entries(value)) dl.append(el("dt", {}, k), el("dd", {}, render(v)));
      return dl;
    }
    return document.createTextNode(String(value));
  }

  // -- the replay ---------------------------------------------------------------------------
  let steps = [];
  let at = 0;
  let lit = null;  // the event list's line of the step shown

  // a rule id as engine.web.pages.RULE_ID finds it (ASCII word boundaries, as there)
  const RULE_ID = /\b[A-Z]{2,}-\d+(?:\.\d+)*[a-z]?\b/g;

  function ruleBadge(rule) {
    return el("span", {className: "rule"}, rule);
  }

  // the sentence with every rule id it names drawn as a badge where it stands, then a badge
  // for each of the step's other rule ids: every rule id once on the line
  function sentence(step) {
    const text = String(step.text);
    const node = el("span", {className: "text"});
    const named = new Set();
    let from = 0;
    for (const found of text.matchAll(RULE_ID)) {
      node.append(text.slice(from, found.index), ruleBadge(found[0]));
      named.add(found[0]);
      from = found.index + found[0].length;
    }
    node.append(text.slice(from));
    const others = (step.rules || []).filter((r) => !named.has(r));
    return [node, ...others.map(ruleBadge)];
  }

  // who made the record (engine.web.pages.actor_label): the seat whose command it is, the
  // referee, or the bank / the service for a fact the rules caused on their own
  function actorLabel(step) {
    if (!step.actor) return null;
    const title = {seat: "the seat whose command this is", referee: "the referee's record",
                   rules: "a fact the rules caused on their own, after the command before it"};
    return el("span", {className: "actor" + (step.by === "seat" ? "" : " party"),
                       title: title[step.by] || ""}, step.actor);
  }

  function eventLine(step) {
    const [text, ...badges] = sentence(step);
    const line = [el("span", {className: "seq"}, "#" + step.seq), actorLabel(step)];
    line.push(step.voided ? el("del", {}, text) : text, ...badges);
    if (step.voided) {
      line.push(el("span", {className: "reason"},
                   "voided" + (step.reason ? ": " + step.reason : "")));
    }
    return line.filter((part) => part !== null);
  }

  // a step's view is whole ("view") or a patch of the previous one (engine.web.pages.view_patch)
  function applyPatch(old, patch) {
    const out = Object.assign({}, old);
    for (const key of patch["-"] || []) delete out[key];
    Object.assign(out, patch["="] || {});
    for (const [key, sub] of Object.entries(patch["~"] || {})) out[key] = applyPatch(old[key], sub);
    for (const [key, items] of Object.entries(patch["+"] || {})) out[key] = old[key].concat(items);
    return out;
  }

  function showReplay(data, token) {
    steps = data.steps || [];
    let view = null;
    for (const step of steps) {
      view = "view" in step ? step.view : applyPatch(view, step.patch);
      step.view = view;
    }
    $("title").textContent = data.title + " " + data.game + " - replay";
    document.title = data.game + " replay (" + data.as + ")";
    $("sub").textContent = (data.as === "referee" ? "the full view (referee)"
      : data.as === "spectator" ? "as a spectator: public facts only"
      : "as " + data.as + ": what " + data.as + " knew") + "; players: " +
      data.players.join(", ") + "; " + steps.length + " events" + (data.over ? ", finished" : ", in progress");
    const choice = $("as-choice");
    if (token && data.choose && data.choose.length) {
      const select = $("as");
      select.replaceChildren(el("option", {value: ""}, "referee (everything)"),
                             ...data.choose.map((n) => el("option", {value: n}, n)));
      select.value = data.as === "referee" ? "" : data.as;
      select.onchange = () => load(token, select.value || null);
      choice.hidden = false;
    }
    const list = $("events");
    const lines = document.createDocumentFragment();  // (no spread: a game may be long)
    steps.forEach((step, i) => {
      const li = el("li", {className: step.voided ? "voided" : ""}, ...eventLine(step));
      li.dataset.seq = step.seq;
      li.addEventListener("click", () => go(i));
      lines.append(li);
    });
    list.replaceChildren(lines);
    lit = null;
    const slider = $("slider");
    slider.max = Math.max(0, steps.length - 1);
    slider.oninput = () => go(Number(slider.value));
    $("first").onclick = () => go(0);
    $("prev").onclick = () => go(at - 1);
    $("next").onclick = () => go(at + 1);
    $("last").onclick = () => go(steps.length - 1);
    document.onkeydown = (event) => {
      if (event.target.tagName === "INPUT" && event.target.type !== "range") return;
      const to = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1}[event.key];
      if (to !== undefined) { event.preventDefault(); go(to); }
    };
    $("replay").hidden = false;
    const wanted = Number(new URLSearchParams(location.hash.replace(/^#/, "")).get("seq"));
    const found = steps.findIndex((s) => s.seq === wanted);
    go(found >= 0 ? found : 0);
  }

  // the first event's facts (players, options, the seed's commitment), as the kind words them
  function setupFacts(step) {
    if (!step.setup || !step.setup.length) return null;
    const dl = el("dl", {className: "setup"});
    for (const [label, text] of step.setup) dl.append(el("dt", {}, label), el("dd", {}, text));
    return dl;
  }

  // the text table at the width it has: its font made smaller (down to 8 px) until its widest
  // row (a line that starts with a space or a marker: the players' table) fits, and a line still
  // too wide (a sentence) wrapped rather than cut off: nothing is cut on a phone's 390 px
  function fitTable() {
    const pre = $("table");
    if (!pre) return;
    pre.style.fontSize = "";
    pre.classList.remove("wrapped");
    if (pre.hidden || !pre.clientWidth || pre.scrollWidth <= pre.clientWidth) return;
    const style = getComputedStyle(pre);
    const size = parseFloat(style.fontSize);
    const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    const room = pre.clientWidth - padding;
    const lines = pre.textContent.split("\n");
    const widest = Math.max(...lines.map((line) => line.length));
    const rows = lines.filter((line) => /^[ >*]/.test(line)).map((line) => line.length);
    const fit = rows.length ? Math.max(...rows) : widest;
    const perChar = (pre.scrollWidth - padding) / widest;  // a monospace font's advance
    pre.style.fontSize = Math.max(8, Math.min(size, Math.floor(size * room / (fit * perChar) * 10) / 10)) + "px";
    if (pre.scrollWidth > pre.clientWidth) pre.classList.add("wrapped");
  }

  let fitting = 0;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(fitting);
    fitting = requestAnimationFrame(fitTable);
  });

  function go(index) {
    if (!steps.length) { $("where").textContent = "no events"; return; }
    at = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[at];
    $("slider").value = at;
    $("where").textContent = "event " + (at + 1) + " of " + steps.length + " (#" + step.seq + ")";
    const current = $("current");
    current.className = step.voided ? "voided" : "";
    current.replaceChildren(...[el("div", {}, ...eventLine(step)),
                                el("div", {className: "sub"}, step.time),
                                setupFacts(step)].filter((part) => part !== null));
    $("table").textContent = step.table || "";
    $("table").hidden = !step.table;
    fitTable();
    $("view").replaceChildren(el("details", {open: !step.table && !step.setup},
                                 el("summary", {}, "the view after this event, as data"),
                                 render(step.view)));
    if (lit) lit.classList.remove("now");
    lit = $("events").children[at] || null;
    if (lit) lit.classList.add("now");
    // the event list scrolls itself to the line (never the page: on a phone the list is
    // below the table, and stepping must not jump there)
    const now = $("events").children[at];
    const box = $("right");
    if (now && box) {
      const top = now.offsetTop - box.offsetTop;
      if (top < box.scrollTop) box.scrollTop = top;
      else if (top + now.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = top + now.offsetHeight - box.clientHeight;
      }
    }
  }

  // -- the audit ----------------------------------------------------------------------------
  function showAudit(data) {
    $("title").textContent = data.title + " " + data.game + " - audit";
    document.title = data.game + " audit";
    $("sub").textContent = data.finished ? "finished game" : "game in progress";
    const verdict = $("verdict");
    if (data.ok) {
      verdict.replaceChildren(el("span", {className: "ok"},
        "OK: every payout matches the one re-derived from the recorded facts"));
    } else {
      verdict.replaceChildren(el("span", {className: "bad"}, "PROBLEMS:"),
        el("ul", {}, ...data.problems.map((p) => el("li", {}, "#" + p.seq + ": " + p.reason))));
    }
    const svg = new DOMParser().parseFromString(data.svg, "image/svg+xml").documentElement;
    $("chart").replaceChildren(document.importNode(svg, true));
    const spec = data.chart;
    const marks = new Map((spec.marks || []).map((m) => [m.x, m.label]));
    const table = el("table", {className: "data", id: "money-table"});
    table.append(el("tr", {}, el("th", {}, spec.x_label),
                    ...spec.series.map((s) => el("th", {}, s.name)), el("th", {}, "")));
    spec.x.forEach((x, i) => {
      table.append(el("tr", {}, el("td", {}, x),
        ...spec.series.map((s) => el("td", {className: "num"}, render(s.values[i]))),
        el("td", {}, marks.get(i) || "")));
    });
    $("money").replaceChildren(table);
    [...table.rows].slice(1).forEach((row, i) => { row.dataset.x = i; });
    showLedger(data.ledger || [], spec);
    $("audit").hidden = false;
  }

  // the ledger: every transfer in order, one <tbody> per round; pointing at or focusing a
  // round lights its column on the chart (rect.column, engine.chart) and its money row
  function showLedger(ledger, spec) {
    const box = $("ledger");
    if (!ledger.length) { box.replaceChildren(el("p", {}, "no transfer yet")); return; }
    const hasBank = ledger.some((t) => t.bank_after !== undefined && t.bank_after !== null);
    const heads = ["#", "rule", "payer", "payee", "amount", "payer after", "payee after"];
    if (hasBank) heads.push("bank after");
    const table = el("table", {className: "data ledger", id: "ledger-table"});
    table.append(el("thead", {}, el("tr", {}, ...heads.map((h) => el("th", {scope: "col"}, h)))));
    const groups = new Map();
    for (const t of ledger) {
      if (!groups.has(t.round)) groups.set(t.round, []);
      groups.get(t.round).push(t);
    }
    let bankBefore = 0;
    for (const [round, rows] of groups) {
      const body = el("tbody", {className: "round", tabIndex: 0});
      body.dataset.round = round;
      let line = "round " + round + ": " + rows.length + " transfer" + (rows.length === 1 ? "" : "s");
      if (hasBank) {
        const after = rows[rows.length - 1].bank_after;
        const change = after - bankBefore;
        line += ", bank " + (change >= 0 ? "+" : "") + change + " (" + after + ")";
        bankBefore = after;
      }
      body.append(el("tr", {className: "round-head"}, el("th", {colSpan: heads.length, scope: "rowgroup"}, line)));
      for (const t of rows) {
        const cells = [el("td", {className: "num"}, t.seq), el("td", {}, el("span", {className: "rule"}, t.rule)),
                       el("td", {}, t.from), el("td", {}, t.to), el("td", {className: "num"}, t.amount),
                       el("td", {className: "num"}, t.from_after), el("td", {className: "num"}, t.to_after)];
        if (hasBank) cells.push(el("td", {className: "num"}, t.bank_after));
        body.append(el("tr", {}, ...cells));
      }
      const x = spec.x.findIndex((label) => String(label) === String(round));
      const light = (on) => {
        body.classList.toggle("lit", on);
        const column = document.querySelector('#chart rect.column[data-x="' + x + '"]');
        if (column) column.classList.toggle("lit", on);
        const row = document.querySelector('#money-table tr[data-x="' + x + '"]');
        if (row) row.classList.toggle("lit", on);
      };
      for (const [name, on] of [["mouseenter", true], ["mouseleave", false], ["focus", true], ["blur", false]]) {
        body.addEventListener(name, () => light(on));
      }
      table.append(body);
    }
    box.replaceChildren(table);
  }

  // -- the archive report (engine/report.py): summary, sections of tables, the games ---------
  const LIMIT = 200;  // rows drawn at first; the rest on demand

  function cellText(value) {
    if (value === null || value === undefined) return "-";
    if (typeof value === "boolean") return value ? "yes" : "no";
    if (Array.isArray(value)) return value.map(cellText).join(", ");
    if (typeof value === "object") return Object.entries(value).map(([k, v]) => k + " " + cellText(v)).join(", ");
    return String(value);
  }

  function verdictBadge(verdict) {
    if (verdict === "ok") return el("span", {className: "ok verdict"}, "OK");
    if (verdict === "failed") return el("span", {className: "bad verdict"}, "FAILED");
    return null;
  }

  // a table with a filter box, headers that sort (click again: the other way) and a row limit
  function dataTable(id, columns, rows, badRow) {
    let shown = rows.slice();
    let sortKey = null;
    let ascending = true;
    let limit = LIMIT;
    const filter = el("input", {type: "search", placeholder: "filter rows", className: "filter"});
    filter.setAttribute("aria-label", "filter the rows of " + id);
    const count = el("span", {className: "count"});
    const more = el("button", {type: "button", className: "more", hidden: true});
    const table = el("table", {className: "data report"});
    table.id = "table-" + id;
    const buttons = columns.map((c) => el("button", {type: "button", className: "sort"}, c.label));
    table.append(el("thead", {}, el("tr", {}, ...columns.map((c, i) =>
      el("th", {scope: "col", className: c.numeric ? "num" : ""}, buttons[i])))));
    const body = el("tbody");
    table.append(body);
    const compare = (column) => (a, b) => {
      const x = a[column.key], y = b[column.key];
      if (x === null || x === undefined) return (y === null || y === undefined) ? 0 : 1;
      if (y === null || y === undefined) return -1;
      const order = column.numeric ? Number(x) - Number(y) : cellText(x).localeCompare(cellText(y));
      return ascending ? order : -order;
    };
    function draw() {
      const needle = filter.value.trim().toLowerCase();
      shown = needle ? rows.filter((row) => columns.some((c) => cellText(row[c.key]).toLowerCase().includes(needle)))
                     : rows.slice();
      const column = columns.find((c) => c.key === sortKey);
      if (column) shown.sort(compare(column));
      body.replaceChildren(...shown.slice(0, limit).map((row) => {
        const tr = el("tr", {className: badRow && badRow(row) ? "bad-row" : ""},
          ...columns.map((c) => el("td", {className: c.numeric ? "num" : ""}, cellText(row[c.key]))));
        return tr;
      }));
      count.textContent = shown.length === rows.length ? rows.length + " rows"
        : shown.length + " of " + rows.length + " rows";
      more.hidden = shown.length <= limit;
      more.textContent = "show all " + shown.length + " rows";
      buttons.forEach((b, i) => {
        const on = columns[i].key === sortKey;
        b.parentNode.setAttribute("aria-sort", on ? (ascending ? "ascending" : "descending") : "none");
        b.dataset.arrow = on ? (ascending ? " \u25b2" : " \u25bc") : "";
      });
    }
    buttons.forEach((b, i) => b.addEventListener("click", () => {
      if (sortKey === columns[i].key) ascending = !ascending;
      else { sortKey = columns[i].key; ascending = !columns[i].numeric; }
      draw();
    }));
    filter.addEventListener("input", draw);
    more.addEventListener("click", () => { limit = Infinity; draw(); });
    draw();
    return el("div", {className: "table-block"},
              el("div", {className: "table-tools"}, filter, count),
              el("div", {className: "scroll box"}, table), more);
  }

  const GAME_COLUMNS = [
    {key: "path", label: "file"}, {key: "game", label: "game"}, {key: "kind", label: "kind"},
    {key: "status", label: "status"}, {key: "events", label: "events", numeric: true},
    {key: "first_bad_seq", label: "first bad record", numeric: true}, {key: "reason", label: "why"}];

  function showArchive(doc) {
    $("title").textContent = doc.title || "audit report";
    document.title = doc.title || "audit report";
    const summary = doc.summary || {};
    $("sub").textContent = "generated " + (doc.generated || "?") + "; " + (summary.games || 0) + " games";
    const bad = (summary.damaged || 0) + (summary.failed || 0);
    $("verdict").replaceChildren(bad
      ? el("span", {className: "bad"}, "FAILED: " + bad + " of " + summary.games + " games damaged or failed")
      : el("span", {className: "ok"}, "OK: every audited game holds"));
    $("summary").replaceChildren(...Object.entries(summary).flatMap(([k, v]) =>
      [el("dt", {}, k.replace(/_/g, " ")), el("dd", {}, cellText(v))]));
    const sections = (doc.sections || []).slice();
    sections.push({id: "games", heading: "The games", columns: GAME_COLUMNS, rows: doc.games || [],
                   note: "every file of the archive with its status; a damaged file names its first bad record",
                   verdict: null});
    const contents = $("contents");
    contents.replaceChildren(el("ul", {}, ...sections.map((s) =>
      el("li", {}, el("a", {href: "#section-" + s.id}, s.heading)))));
    $("sections").replaceChildren(...sections.map((s) => {
      const heading = el("h2", {}, s.heading, " ", verdictBadge(s.verdict));
      const block = el("section", {className: "report-section", id: "section-" + s.id}, heading);
      if (s.note) block.append(el("p", {className: "hint"}, s.note));
      block.append((s.rows || []).length
        ? dataTable(s.id, s.columns || [], s.rows || [],
                    (row) => row.status === "damaged" || row.ok === false)
        : el("p", {className: "empty"}, "none"));
      return block;
    }));
    $("report").hidden = false;
  }

  start();
})();
