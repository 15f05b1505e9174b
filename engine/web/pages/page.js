// devil's pages (engine/web/pages): the replay and the audit.  Game-agnostic: the server (or the
// file) gives every step's sentence, rule ids, text table and the view as data; the view is
// drawn generically.  Everything user-given is set with textContent, never as HTML.
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

  async function start() {
    if (window.DEVIL_DATA) {
      show(window.DEVIL_DATA, null);
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

  function ruleBadges(rules) {
    return (rules || []).map((r) => el("span", {className: "rule"}, r));
  }

  function eventLine(step) {
    const text = el("span", {className: "text"}, step.text);
    const line = [el("span", {className: "seq"}, "#" + step.seq)];
    if (step.actor) line.push(el("span", {className: "actor"}, step.actor + ":"));
    line.push(step.voided ? el("del", {}, text) : text, ...ruleBadges(step.rules));
    if (step.voided) {
      line.push(el("span", {className: "reason"},
                   "voided" + (step.reason ? ": " + step.reason : "")));
    }
    return line;
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
    list.replaceChildren(...steps.map((step, i) => {
      const li = el("li", {className: step.voided ? "voided" : ""}, ...eventLine(step));
      li.dataset.seq = step.seq;
      li.addEventListener("click", () => go(i));
      return li;
    }));
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

  function go(index) {
    if (!steps.length) { $("where").textContent = "no events"; return; }
    at = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[at];
    $("slider").value = at;
    $("where").textContent = "event " + (at + 1) + " of " + steps.length + " (#" + step.seq + ")";
    const current = $("current");
    current.className = step.voided ? "voided" : "";
    current.replaceChildren(el("div", {}, ...eventLine(step)),
                            el("div", {className: "sub"}, step.time));
    $("table").textContent = step.table || "";
    $("table").hidden = !step.table;
    $("view").replaceChildren(el("details", {open: !step.table},
                                 el("summary", {}, "the view after this event, as data"),
                                 render(step.view)));
    for (const li of $("events").children) li.classList.toggle("now", li.dataset.seq == step.seq);
    const now = $("events").children[at];
    if (now && now.scrollIntoView) now.scrollIntoView({block: "nearest"});
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
        ...spec.series.map((s) => el("td", {}, render(s.values[i]))),
        el("td", {}, marks.get(i) || "")));
    });
    $("money").replaceChildren(table);
    $("audit").hidden = false;
  }

  start();
})();
