// The verify page's own check of a recorded game (docs/trust.md, "Checking chance in the
// browser"), in the order `devil verify` checks (engine/replay/verify.py): the hash chain and
// the header; a torn tail; the revealed seed against the commitment of the first event; the
// seating stage (engine/entropy.py: every seat committed before the first draw, SEAT-1, and
// its revealed value matches, SEAT-2); then every draw re-derived by the kind's module
// (DevilVerify.kinds[kind].draws), naming the first record whose draw differs.  The rules'
// other checks (payouts, turn order ...) are `devil verify`'s alone: the page shows its
// verdict beside its own.
"use strict";
var DevilVerify = (typeof DevilVerify !== "undefined") ? DevilVerify : {};
DevilVerify.kinds = DevilVerify.kinds || {};

(function (V) {
  var SHARED = { table_opened: 1, seat_committed: 1, seats_revealed: 1 };
  var VALUE = /^[0-9a-f]{64}$/;

  /** Check a .devlog's bytes.  `deskTypes`: the referee's desk's event types (engine.desk,
   * given by the page's data).  Returns {state: "verified" | "failed" | "in-progress" |
   * "physical" | "unrevealed" | "ended" | "not-checked", seq (failed: the first bad record), reason,
   * kind, game, records, draws (how many draws were re-derived), checks: [sentences]}. */
  function check(data, deskTypes) {
    var desk = {};
    (deskTypes || []).forEach(function (t) { desk[t] = 1; });
    var out = { state: null, seq: null, reason: null, kind: null, game: null, records: 0,
                draws: 0, checks: [] };
    function bad(seq, reason) { out.state = "failed"; out.seq = seq; out.reason = reason; return out; }
    var scanned;
    try {
      scanned = V.devlog.scan(data);
    } catch (e) {
      if (e instanceof V.devlog.Damage) return bad(e.seq, e.reason);
      throw e;
    }
    var records = scanned.records;
    out.kind = scanned.header.kind; out.game = scanned.header.game; out.records = records.length;
    out.checks.push("hash chain: header and " + records.length + " records linked (BLAKE2b-64)");
    if (scanned.torn)
      bad(records.length + 1, "the last " + scanned.torn + " bytes (from byte " + scanned.goodEnd +
          ") cannot be read as a complete command: a write cut short or a damaged end");
    var kind = V.kinds[scanned.header.kind];
    if (!kind) return bad(0, "this page knows no game of kind " + scanned.header.kind);
    if (!records.length) { if (!out.state) out.state = "in-progress"; out.checks.push("the log holds no events yet"); return out; }
    var own = [], amended = false;
    records.forEach(function (r) {
      var type = r.event.get("type");
      if (desk[type]) { if (type === "amended") amended = true; }
      else if (!SHARED[type]) own.push(r);
    });
    var facts = kind.facts(own);
    var last = records[records.length - 1].seq;
    var seated = records[0].event.get("type") === "table_opened";
    var committed = own.length ? facts.commitment : (seated ? records[0].event.get("commitment") : null);
    var reveal = facts.reveal;
    if (facts.finished && !facts.physical && !reveal && !facts.shared)
      return bad(last, "the game ends but its seed is not revealed");
    if (reveal) {
      if (facts.physical) return bad(last, "a physical game reveals a seed it never had");
      if (typeof committed !== "string" || V.chance.commitment(reveal.seed, reveal.salt) !== committed)
        return bad(last, "the revealed seed does not match the commitment published in the first event");
      out.checks.push("the revealed seed matches the commitment in the first event: sha256(\"devil-commit|" +
                      reveal.salt + "|" + String(reveal.seed) + "\") = " + committed);
    }
    var values = null;
    if (seated) {
      var seating = checkSeating(scanned.header.game, records, desk, facts.finished, own.length ? committed : null);
      if (seating.problem) return bad(seating.problem[0], seating.problem[1]);
      values = seating.values;
      out.checks = out.checks.concat(seating.sentences);
      if (values && !reveal && !facts.shared)
        return bad(last, "the seats' values are revealed but no seed is: seat entropy belongs to a digital game");
    }
    if (facts.physical) {
      if (!out.state) out.state = "physical";
      out.checks.push("physical game: no seed, the referee reported every draw; the page shows them, it cannot derive them");
      return out;
    }
    if (!reveal) {
      var adjudicated = records.some(function (r) { return r.event.get("type") === "adjudicated"; });
      if (!out.state) out.state = facts.finished ? "unrevealed" : adjudicated ? "ended" : "in-progress";
      out.checks.push(facts.shared ? "the seed is shared by the tournament's round and revealed by its round_closed (TOUR-11.3): " +
                                     "the commitment and the draws cannot be checked from this log alone"
                                   : "in progress: no seed revealed yet, so the commitment cannot be checked and no draw derived yet");
      return out;
    }
    if (amended) {
      if (!out.state) out.state = "not-checked";
      out.checks.push("the referee amended this game (DESK-9): the page does not re-derive the draws of an amended game; `devil verify` does");
      return out;
    }
    var prefix = values ? V.chance.mixedSeed(reveal.seed, values) : String(reveal.seed);
    if (values) out.checks.push("draws derived from the seed mixed with every seat's value: " + prefix);
    var drawn = derive(kind, records, desk, prefix);
    out.draws = drawn.draws;
    if (drawn.problem) return bad(drawn.problem.seq, "this draw does not match the revealed seed: " + drawn.problem.reason);
    out.checks.push("every draw re-derived from the revealed seed: " + drawn.draws + " draws, each as recorded" +
                    (drawn.epoch ? " (" + drawn.epoch + " correction" + (drawn.epoch > 1 ? "s" : "") +
                     ": later draws labelled with the epoch, DESK-6)" : ""));
    if (!out.state) out.state = facts.finished ? "verified" : "in-progress";
    return out;
  }

  // every draw of the kind's records re-derived, in log order, as the strict refold meets
  // them: a correction (DESK-2) voids the records after its `to` and returns the game to the
  // records in force; later draws are labelled with its epoch (DESK-6, engine.desk.chance);
  // a granted takeback (DESK-12.6) voids one command's records, the epoch unchanged
  function derive(kind, records, desk, prefix) {
    var checker = kind.checker(), chance = new V.chance.Chance(prefix, 0), inForce = [];
    var voided = {}, epoch = 0, draws = 0;
    for (var i = 0; i < records.length; i++) {
      var r = records[i], type = r.event.get("type");
      if (type === "corrected" || type === "takeback_granted") {
        // a correction voids every record after `to` still in force; a granted takeback
        // (DESK-12.6) its command's records `first` to `last`, and keeps the epoch
        var low = type === "corrected" ? r.event.get("to") + 1 : r.event.get("first");
        var high = type === "corrected" ? r.seq - 1 : r.event.get("last");
        records.forEach(function (x) { if (x.seq >= low && x.seq <= high && !voided[x.seq]) voided[x.seq] = r.seq; });
        if (type === "corrected") {
          epoch = r.event.get("epoch");
          chance = new V.chance.Chance(prefix, epoch);
        }
        inForce = inForce.filter(function (x) { return !voided[x.seq]; });
        draws += checker.draws;
        checker = kind.checker();
        inForce.forEach(function (x) { checker.step(x, null, false); });
        continue;
      }
      if (desk[type] || SHARED[type]) continue;
      var problem = checker.step(r, chance, true);
      if (problem) return { problem: problem, draws: draws + checker.draws, epoch: epoch };
      inForce.push(r);
    }
    return { problem: null, draws: draws + checker.draws, epoch: epoch };
  }

  // engine.entropy.check_seating: {problem: [seq, reason] or null, values, sentences}
  function checkSeating(game, records, desk, finished, committed) {
    var table = records[0].event, players = table.get("players") || [], n = players.length;
    function no(seq, reason) { return { problem: [seq, reason], values: null, sentences: [] }; }
    if (records[0].actor !== -1 || records[0].left !== 0) return no(records[0].seq, "table_opened must be the referee's own command");
    var given = [], started = null, revealed = null, i, lastIndex = 0;
    for (i = 0; i < n; i++) given.push(null);
    for (i = 0; i < records.length; i++) if (!desk[records[i].event.get("type")]) lastIndex = i;
    for (i = 1; i < records.length; i++) {
      var r = records[i], e = r.event, type = e.get("type");
      if (desk[type]) continue;
      if (type === "table_opened") return no(r.seq, "a second table_opened");
      if (type === "seat_committed") {
        var seat = e.get("seat");
        if (started !== null) return no(r.seq, "a seat's entropy after the game started (SEAT-1)");
        if (!(seat >= 0 && seat < n) || r.actor !== seat || r.left !== 0) return no(r.seq, "seat_committed must be its own seat's own command");
        if (given[seat] !== null) return no(r.seq, "seat " + seat + " gave its entropy twice (SEAT-2)");
        if (typeof e.get("commitment") !== "string" || !VALUE.test(e.get("commitment"))) return no(r.seq, "a seat's commitment is 64 hex digits");
        given[seat] = e.get("commitment");
      } else if (type === "seats_revealed") {
        if (i !== lastIndex || r.actor !== -1 || !finished)
          return no(r.seq, "seats_revealed comes once, from the referee, as the last record of a finished game");
        revealed = r;
      } else if (started === null) {
        started = i;
        var missing = players.filter(function (_p, s) { return given[s] === null; });
        if (missing.length) return no(r.seq, "the game started (its first draw) before every seat gave its entropy: " + missing.join(", ") + " had not (SEAT-1)");
      }
    }
    var sentences = [started !== null ? "seating: all " + n + " seats committed to their entropy before the first draw"
      : "seating: " + given.filter(function (c) { return c !== null; }).length + " of " + n + " seats have given their entropy; no draw yet"];
    if (started !== null && committed !== null && committed !== table.get("commitment"))
      return no(records[started].seq, "the game's seed commitment is not the one the table opened with");
    if (revealed === null) {
      if (finished) return no(records[records.length - 1].seq, "the game ends but the seats' values are not revealed");
      return { problem: null, values: null, sentences: sentences };
    }
    var values = revealed.event.get("values");
    if (!Array.isArray(values) || values.length !== n || !values.every(function (v) { return typeof v === "string" && VALUE.test(v); }))
      return no(revealed.seq, "seats_revealed must give " + n + " values of 64 hex digits");
    for (var s = 0; s < n; s++)
      if (V.chance.seatCommitment(game, s, values[s]) !== given[s])
        return no(revealed.seq, "the value revealed for " + players[s] + " does not match the commitment that seat recorded");
    sentences.push("every seat's revealed value matches the commitment it recorded");
    return { problem: null, values: values.slice(), sentences: sentences };
  }

  function fromBase64(text) {
    var raw = atob(text.replace(/\s+/g, "")), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  function line(result) {
    if (result.state === "failed")
      return "FAILED at record " + result.seq + ": " + result.reason;
    if (result.state === "verified") return "verified: the chain, the seed commitment and every draw (" + result.draws + ") hold";
    if (result.state === "ended") return "ended by the referee (DESK-8) before its end: the chain holds; no seed revealed, so no draw derived";
    if (result.state === "in-progress") return "in progress: no seed revealed yet, so the commitment cannot be checked yet (the chain holds)";
    if (result.state === "physical") return "physical game: no seed; the referee reported every draw, so draws are reported, not derived (the chain holds)";
    if (result.state === "unrevealed") return "seed not revealed in this log (a tournament round's shared seed): the chain holds; the draws cannot be derived here";
    return "the chain and the seed hold; the draws of an amended game (DESK-9) are not re-derived by this page";
  }

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }

  function show() {
    var logNode = document.getElementById("devil-log"), pyNode = document.getElementById("devil-python");
    if (!logNode || !pyNode) return;
    var info = JSON.parse(pyNode.textContent), result;
    var t0 = Date.now();
    try {
      result = check(fromBase64(logNode.textContent), info.desk_types);
    } catch (e) {
      result = { state: "failed", seq: null, reason: "the page could not check this log: " + e, checks: [] };
    }
    var ms = Date.now() - t0;
    window.devilVerdict = result;
    document.body.setAttribute("data-verdict", result.state);
    document.body.setAttribute("data-seq", result.seq === null ? "" : String(result.seq));
    var mine = document.getElementById("page-verdict");
    mine.textContent = line(result);
    mine.className = "verdict " + (result.state === "failed" ? "bad" : result.state === "verified" ? "good" : "open");
    var list = document.getElementById("page-checks");
    result.checks.forEach(function (c) { list.appendChild(el("li", c)); });
    list.appendChild(el("li", "computed in this browser in " + ms + " ms, with no server and no network"));
    var py = info.python, theirs = document.getElementById("python-verdict");
    theirs.textContent = py.ok ? (py.finished ? "OK: finished" : "OK: in progress (not finished)")
      : "FAILED at record " + py.first_bad_seq + ": " + py.reason;
    theirs.className = "verdict " + (py.ok ? "good" : "bad");
    var plist = document.getElementById("python-checks");
    (py.checks || []).forEach(function (c) { plist.appendChild(el("li", c)); });
    var agree = document.getElementById("agree");
    var same = (result.state === "failed") === !py.ok && (py.ok || result.seq === py.first_bad_seq);
    agree.textContent = same ? "The two verdicts agree." :
      "The two verdicts differ: `devil verify` checks every rule, this page only the chain, the seed and the draws (see below).";
    agree.className = same ? "agree" : "differ";
  }

  V.check = check;
  V.fromBase64 = fromBase64;
  V.line = line;
  if (typeof document !== "undefined") {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", show);
    else show();
  }
})(DevilVerify);
