// Castle of the Devil's part of the seat's and the spectator's page (engine/web/pages/table.py):
// table.js imports this module when the kind's catalogue entry names it (``module``) and asks it,
// through its hooks, for what the generic page cannot word: the cards (an item is named by its
// instance id, ``key-2``: a Key), the professions and societies, the fight's sides and uses, the
// pending trade offer, what this seat has seen (the view's ``knowledge``, CASTLE-11.1), and a few
// sentences put together from parts.  Every word comes from the catalogue (kinds.castle); every
// value from the view the service gave this token, which holds only what the token may see:
// nothing here works out a hidden card.  Everything is set with textContent, never as HTML.

const INSTANCE = /^(key|goblet)-\d+$/;

function values(h, map) {
  return (h.words.values || {})[map] || {};
}

function phrase(h, key, params) {
  const text = (h.words.phrases || {})[key] || key;
  return text.replace(/\{(\w+)\}/g, (all, name) => (params && name in params ? String(params[name]) : all));
}

function valueOf(h, map, value) {
  const words = values(h, map);
  return value in words ? words[value] : String(value);
}

/** A card's name (an item id such as ``key-2``, or an item kind): the catalogue's ``cards``. */
export function card(id, h) {
  if (id === null || id === undefined) return phrase(h, "an_item");
  const text = String(id);
  const kind = INSTANCE.test(text) ? text.split("-")[0] : text;
  const names = h.words.cards || {};
  return kind in names ? names[kind] : text;
}

function cards(list, h) {
  if (list === null || list === undefined) return h.ui("hidden");
  const known = list.filter((x) => x !== null && x !== undefined);
  return known.length ? known.map((x) => card(x, h)).join(", ") : h.ui("none");
}

function profession(name, h) {
  if (name === null || name === undefined) return h.ui("hidden");
  return valueOf(h, "profession", name);
}

// an item shown or a profession used in a fight (the command's ``power``)
function power(name, h) {
  return name in values(h, "profession") ? profession(name, h) : card(name, h);
}

function names(list, h) {
  return list && list.length ? list.map(h.nameOf).join(h.ui("and")) : phrase(h, "nobody");
}

// -- the table's cells and the seat's own box ---------------------------------------------------

/** A cell of the players' table: items by name, societies and professions as printed. */
export function cell(key, value, row, h) {
  if (value === null || value === undefined) return undefined;  // the generic "hidden"
  if (key === "items") return cards(value, h);
  if (key === "society") return valueOf(h, "society", value);
  if (key === "profession") {
    return profession(value, h) + (row.profession_used ? " (" + phrase(h, "face_up") + ")" : "");
  }
  return undefined;
}

// -- the controls' values -----------------------------------------------------------------------

/** A value a command's input offers (``type`` the command): cards, sides, choices, allies. */
export function word(name, value, type, h) {
  if (name === "item" || name === "give_back") {
    return value === null || value === undefined ? phrase(h, "nothing") : card(value, h);
  }
  if (name === "power") return power(value, h);
  if (name === "top") return cards(value, h);
  if (name === "kind") return type === "declare" ? valueOf(h, "declare_kind", value) : card(value, h);
  if (name === "side") return valueOf(h, "side_choice", value);
  if (name === "option") {
    return value in values(h, "profession") ? profession(value, h) : valueOf(h, "option", value);
  }
  if (name === "silent") return phrase(h, value ? "kept_silent" : "named_aloud");
  if (name === "allies") return names(value, h);
  return undefined;
}

// -- the events' fields -------------------------------------------------------------------------

function countParts(parts, h) {
  const out = [];
  for (const side of ["attacker", "defender"]) {
    const bits = parts.filter((p) => p.side === side).map((p) => {
      let what;
      if (p.source === "side") what = phrase(h, "part_own");
      else if (p.source === "support") what = phrase(h, "part_support", {name: h.nameOf(p.player)});
      else what = phrase(h, "part_power", {name: h.nameOf(p.player), power: power(p.source, h)});
      if (p.void) what += "; " + valueOf(h, "void", p.void);
      return p.value + " (" + what + ")";
    });
    out.push(valueOf(h, "side", side) + ": " + bits.join(" + "));
  }
  return out.join("; ");
}

function revealed(list, h) {
  return (list || []).map((r) => phrase(h, "revealed", {
    name: h.nameOf(r.player), society: valueOf(h, "society", r.society),
    profession: profession(r.profession, h), items: cards(r.items, h),
  }) + (r.drink ? ", " + card("drink", h) : "")).join("; ");
}

/** An event field as ``{field:how}`` asks (table.js's describe); undefined: not Castle's. */
export function format(value, how, event, h) {
  switch (how) {
    case "card": return card(value, h);
    case "cards": return cards(value, h);
    case "profession": return profession(value, h);
    case "professions": return (value || []).filter((x) => x !== null).map((x) => profession(x, h)).join(", ");
    case "society": return value === null || value === undefined ? h.ui("hidden") : valueOf(h, "society", value);
    case "power": return power(value, h);
    case "itemkind": return card(value, h);
    case "parts": return value && value.length ? " (" + countParts(value, h) + ")" : "";
    case "revealed": return revealed(value, h);
    case "faults":
      return value && value.length ? ". " + phrase(h, "why_wrong") + ": " + value.map((f) =>
        valueOf(h, "fault", f.fault).replace("{name}", f.player === null ? "" : h.nameOf(f.player))).join("; ") : "";
    case "points":
      return value ? ". " + phrase(h, "points") + ": " + Object.entries(value).map(([k, v]) => k + " " + v).join(", ") : "";
    case "allies": return value && value.length ? ", " + phrase(h, "naming", {names: names(value, h)}) : "";
    case "winners": return names(value, h);
    default:
      if (how && how in (h.words.values || {})) return valueOf(h, how, value);
      return undefined;
  }
}

/** Sentences put together from parts: a completed trade names the effects it fires (CASTLE-4.5). */
export function describe(event, h) {
  if (event.type !== "trade_completed") return undefined;
  const events = h.words.events || {};
  const key = event.diplomat ? "trade_completed.diplomat=true"
    : event.offered === null ? "trade_completed.offered=null" : "trade_completed";
  let text = h.sentence(events[key] || key, event);
  const named = [];
  if (event.offered_named) {
    named.push(phrase(h, "names_effect", {name: h.nameOf(event.receiver), owner: h.nameOf(event.giver),
                                          effect: valueOf(h, "effect", event.offered_named)}));
  }
  if (event.returned_named) {
    named.push(phrase(h, "names_effect", {name: h.nameOf(event.giver), owner: h.nameOf(event.receiver),
                                          effect: valueOf(h, "effect", event.returned_named)}));
  }
  text += "; " + (named.length ? named.join("; ") : phrase(h, "nothing_named"));
  return text;
}

// -- the kind's own section: what is open now, the fight, what this seat knows ---------------------

function frameLine(f, h) {
  const name = (key) => f[key];  // frames name players already (engine.games.castle.view)
  switch (f.kind) {
    case "offer":
      return f.item === null || f.item === undefined
        ? phrase(h, "offer_hidden", {giver: name("giver"), receiver: name("receiver")})
        : phrase(h, "offer_seen", {giver: name("giver"), receiver: name("receiver"), item: card(f.item, h)});
    case "limit": return phrase(h, "frame_limit", {name: f.player, excess: f.excess});
    case "draw": return phrase(h, "frame_draw", {name: f.player, reason: valueOf(h, "reason", f.reason)});
    case "effect":
      return phrase(h, "frame_effect", {name: f.owner, partner: f.partner, effect: valueOf(h, "effect", f.effect)});
    case "sextant":
      return phrase(h, "frame_sextant", {name: f.owner, direction: valueOf(h, "direction", f.direction),
                                         chosen: f.chosen.length ? f.chosen.join(", ") : phrase(h, "nobody")});
    case "clairvoyant": return phrase(h, "frame_clairvoyant", {name: f.player});
    case "diplomat":
      return phrase(h, "frame_diplomat", {name: f.diplomat, target: f.target, kind: card(f.want, h)});
    case "fight": return phrase(h, "frame_fight", {attacker: f.attacker, defender: f.defender});
    default: return f.kind;
  }
}

function fightFacts(f, h) {
  const dl = h.el("dl", {id: "castle-fight"});
  const add = (label, text, key) => dl.append(h.el("dt", {}, label), h.el("dd", {"data-fight": key}, text));
  const labels = h.words.labels || {};
  add(labels.attacker, f.attacker, "attacker");
  add(labels.defender, f.defender, "defender");
  let stage = valueOf(h, "stage", f.stage);
  if (f.window) stage += " \u00b7 " + phrase(h, "asked", {name: f.window});
  add(labels.stage, stage, "stage");
  const sides = Object.entries(f.sides || {}).map(([who, side]) => who + ": " + valueOf(h, "side", side));
  add(labels.supporters, sides.length ? sides.join(", ") : phrase(h, "nobody"), "supporters");
  if (f.hypnotised) add(labels.hypnotised, f.hypnotised, "hypnotised");
  if (f.duel) add(labels.duel, f.duel, "duel");
  if (f.priest) add(labels.priest, f.priest, "priest");
  const uses = (f.uses || []).map((u) => u.player + ": " + power(u.power, h));
  add(labels.uses, uses.length ? uses.join(", ") : h.ui("none"), "uses");
  if (f.result) {
    const r = f.result;
    let text = valueOf(h, "side", "attacker") + " " + r.attacker + ", "
      + valueOf(h, "side", "defender") + " " + r.defender;
    text += r.winner ? " \u00b7 " + phrase(h, "wins", {side: valueOf(h, "side", r.winner)}) : " \u00b7 " + phrase(h, "tie");
    add(labels.result, text, "result");
  }
  if (f.loser_items) add(labels.loser_items, cards(f.loser_items, h), "loser_items");
  return dl;
}

function knowledgeLine(fact, h) {
  const templates = h.words.knowledge || {};
  const what = String(fact.what);
  const template = templates[what.startsWith("society-card-") ? "society-card" : what] || what + ": {value}";
  let value;
  if (what === "society" || what.startsWith("society-card-")) value = valueOf(h, "society", fact.value);
  else if (what === "profession") value = profession(fact.value, h);
  else if (what === "profession-pile") value = (fact.value || []).map((p) => profession(p, h)).join(", ");
  else if (Array.isArray(fact.value)) value = cards(fact.value, h);
  else value = card(fact.value, h);
  return phrase(h, "turn_n", {turn: fact.turn}) + ": " + template
    .replace("{about}", fact.about === null ? "" : fact.about)
    .replace("{value}", value)
    .replace("{card}", what.startsWith("society-card-") ? what.slice(-1) : "")
    .replace("{reason}", valueOf(h, "reason", fact.reason));
}

/** Castle's own section below the turn: what is open (top last), the fight, what this seat knows. */
export function draw(view, h) {
  const labels = h.words.labels || {};
  let box = document.getElementById("castle-box");
  if (!box) {
    box = h.el("section", {id: "castle-box", className: "kind-box", "aria-labelledby": "castle-heading"});
    document.getElementById("turn-box").after(box);
  }
  // before the deal (a game with seat entropy: every seat sits first, SEAT-1) nothing is open
  box.hidden = !Array.isArray(view.pending);
  if (box.hidden) return;
  const parts = [h.el("h2", {id: "castle-heading"}, labels.open || "")];
  const pending = view.pending || [];
  const list = h.el("ul", {id: "castle-pending"}, ...pending.map((f) => {
    const li = h.el("li", {}, ...h.withRules(frameLine(f, h)));
    li.dataset.frame = f.kind;
    return li;
  }));
  parts.push(pending.length ? list : h.el("p", {id: "castle-pending"}, phrase(h, "nothing_open")));
  if (view.waiting_for && view.waiting_for.length && !view.winners) {
    parts.push(h.el("p", {id: "castle-waiting"}, phrase(h, "waiting_for", {names: view.waiting_for.join(", ")})));
  }
  if (view.fight) parts.push(h.el("h3", {}, labels.fight || ""), fightFacts(view.fight, h));
  if (h.page.seat !== null) {
    const facts = Array.isArray(view.knowledge) ? view.knowledge : [];
    parts.push(h.el("h3", {id: "castle-knowledge-heading"}, labels.knowledge || ""));
    parts.push(facts.length
      ? h.el("ul", {id: "castle-knowledge"}, ...facts.map((fact) => h.el("li", {}, ...h.withRules(knowledgeLine(fact, h)))))
      : h.el("p", {id: "castle-knowledge"}, phrase(h, "knows_nothing")));
  }
  box.replaceChildren(...parts);
}
