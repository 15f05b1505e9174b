// Castle of the Devil: its draws re-derived in the browser (the verify page,
// engine/web/pages/verify; docs/trust.md).  Chance only, ported from the Python that is the
// source: the deal (engine/games/castle/options.py random_deal: labels ("deal",
// "professions"), ("deal", "societies"), ("deal", "sealed"), ("deal", "start"), ("deal",
// "pile"); CASTLE-2.1 to 2.6, 10.4), a given deal's pile shuffled from the box's order
// (("deal", "pile")), the start player (randbelow(n, "first"), CASTLE-2.8), the
// Clairvoyant's shuffle of the rest of the pile (engine/games/castle/decide.py:
// ("clairvoyant", turn, pile size), CASTLE-7.1), and every item drawn from the pile (its known
// top card: a bag's draw, CASTLE-5.1, a tie's, 6.6).
"use strict";
(function (V) {
  // engine/games/castle/cards.py
  var ORDER = "order", BROTHERHOOD = "brotherhood";
  var BAGS = ["bag-key", "bag-goblet"];
  var PROFESSIONS = ["bodyguard", "clairvoyant", "diplomat", "doctor", "duelist", "grand-master",
                     "hypnotist", "poison-mixer", "priest", "thug"];
  var KEYS = ["key-1", "key-2", "key-3"], GOBLETS = ["goblet-1", "goblet-2", "goblet-3"];
  var SEALED = KEYS.concat(GOBLETS, ["black-pearl", "dagger", "gloves", "poison-ring",
                                     "casting-knives", "whip", "privilege", "monocle"]);
  var UNSEALED = ["tome", "coat", "sextant", "broken-mirror", "coat-of-arms"];
  var ALL_ITEMS = BAGS.concat(SEALED, UNSEALED);

  function repeat(x, k) { var out = []; for (var i = 0; i < k; i++) out.push(x); return out; }
  function has(list, x) { return list.indexOf(x) >= 0; }
  function text(x) { return JSON.stringify(x === undefined ? null : x); }

  /** options.in_play: [items in play, items removed] (CASTLE-2.5, 2.6). */
  function inPlay(n, beginner) {
    var removed = [];
    if (n === 3) removed.push("black-pearl");
    if (n === 10) removed.push("coat");
    if (beginner) UNSEALED.forEach(function (c) { if (!has(removed, c)) removed.push(c); });
    return [ALL_ITEMS.filter(function (c) { return !has(removed, c); }), removed];
  }

  /** options.random_deal (CASTLE-2.1 to 2.5, 10.4). */
  function randomDeal(n, beginner, chance, advanced) {
    var profs = chance.shuffled(PROFESSIONS, ["deal", "professions"]);
    var per = (n + 1) >> 1, cards3 = null, cards;
    if (advanced) {
      var flat = chance.shuffled(repeat(ORDER, 5).concat(repeat(BROTHERHOOD, 5)), ["deal", "societies"]);
      cards3 = [];
      for (var i = 0; i < n; i++) cards3.push(flat.slice(3 * i, 3 * i + 3));
      cards = cards3.map(function (c) {
        return c.filter(function (x) { return x === ORDER; }).length >= 2 ? ORDER : BROTHERHOOD;
      }).concat([flat[9]]);
    } else {
      cards = chance.shuffled(n % 2 ? repeat(ORDER, per).concat(repeat(BROTHERHOOD, per))
                                    : repeat(ORDER, n >> 1).concat(repeat(BROTHERHOOD, n >> 1)),
                              ["deal", "societies"]);
    }
    var play = inPlay(n, beginner), playing = play[0];
    var sealed = SEALED.filter(function (c) { return has(playing, c); });
    sealed = chance.shuffled(sealed, ["deal", "sealed"]);
    var start = chance.shuffled(BAGS.concat(sealed.slice(0, Math.max(0, n - 2))), ["deal", "start"]);
    var rest = sealed.slice(Math.max(0, n - 2)).concat(playing.filter(function (c) {
      return !has(SEALED, c) && !has(BAGS, c); }));
    var pile = chance.shuffled(rest, ["deal", "pile"]);
    var hands = start.map(function (c) { return [c]; });
    if (n === 3) hands.forEach(function (h) { h.push(pile.shift()); });
    return { societies: cards.slice(0, n), professions: profs.slice(0, n), hands: hands,
             item_pile: pile, profession_pile: profs.slice(n),
             set_aside: n % 2 ? cards[n] : null, removed: play[1], society_cards: cards3 };
  }

  function plain(x) {  // a decoded msgpack value as plain JSON-able data
    if (x instanceof Map) { var o = {}; x.forEach(function (v, k) { o[k] = plain(v); }); return o; }
    if (Array.isArray(x)) return x.map(plain);
    return x;
  }
  function find(records, type) {
    for (var i = 0; i < records.length; i++) if (records[i].event.get("type") === type) return records[i];
    return null;
  }

  V.kinds.castle = {
    constants: { BAGS: BAGS, PROFESSIONS: PROFESSIONS, SEALED: SEALED, UNSEALED: UNSEALED,
                 ALL_ITEMS: ALL_ITEMS },
    facts: function (records) {
      var created = find(records, "game_created"), ended = null;
      for (var i = records.length - 1; i >= 0; i--)
        if (records[i].event.get("type") === "game_ended") { ended = records[i]; break; }
      var c = created ? created.event : new Map();
      var reveal = ended ? ended.event.get("reveal") : null;
      return { physical: c.get("physical") === true, finished: ended !== null,
               commitment: created ? c.get("commitment") : null,
               reveal: reveal instanceof Map && reveal.get("seed") !== null && reveal.get("seed") !== undefined
                 ? { seed: reveal.get("seed"), salt: reveal.get("salt") } : null,
               shared: false };
    },
    /** A checker of the kind's records in log order, as atkr's: ``step(record, chance,
     * check)`` follows the pile and the turn and, with ``check``, re-derives the record's
     * draws; the first problem {seq, reason}, else null; ``draws`` counts them. */
    checker: function () {
      var first = null, started = false, pile = [], known = 0, turn = 0, created = null;
      var self = { draws: 0 };
      function bad(r, reason) { return { seq: r.seq, reason: reason }; }
      function top(r, item, why, check) {  // an item drawn from the pile: its known top card
        if (!pile.length) return null;
        if (known > 0) {
          if (check) {
            self.draws++;
            if (item !== pile[0])
              return bad(r, "the pile's top card is " + pile[0] + " (dealt and arranged from the seed), " +
                         "the log records " + item + " drawn (" + why + ")");
          }
          pile.shift(); known--;
        } else {
          var at = pile.indexOf(item);
          if (at >= 0) pile.splice(at, 1);
        }
        return null;
      }
      self.step = function (r, chance, check) {
        var e = r.event, type = e.get("type");
        if (type === "game_created") {
          created = e;
          first = e.get("first");
          var players = e.get("players") || [];
          if (check && e.get("first_drawn") === true) {
            var want = chance.randbelow(players.length, ["first"]);
            self.draws++;
            if (first !== want)
              return bad(r, "the start player drawn from the seed is " + players[want] +
                         ", the log records " + players[first] + " (CASTLE-2.8)");
          }
        } else if (type === "cards_dealt" && created !== null) {
          var n = (created.get("players") || []).length, expected = null;
          if (!check) {
            expected = null;
          } else if (created.get("deal_given") !== true) {
            expected = randomDeal(n, created.get("beginner") === true, chance,
                                  has(created.get("variants") || [], "advanced-3p"));
          } else if (e.get("pile_shuffled") === true) {
            var given = plain(e.get("item_pile")) || [];
            expected = { item_pile: chance.shuffled(ALL_ITEMS.filter(function (c) { return has(given, c); }),
                                                    ["deal", "pile"]) };
          }
          if (expected !== null) {
            self.draws++;
            var fields = Object.keys(expected);
            for (var f = 0; f < fields.length; f++) {
              if (text(plain(e.get(fields[f]))) !== text(expected[fields[f]]))
                return bad(r, "the deal's " + fields[f].replace("_", " ") + " re-derived from the seed is " +
                           text(expected[fields[f]]) + ", the log records " + text(plain(e.get(fields[f]))) +
                           " (CASTLE-2" + (fields[f] === "society_cards" ? ", 10.4" : "") + ")");
            }
          }
          pile = plain(e.get("item_pile")) || [];
          known = e.get("pile_ordered") === true ? pile.length : 0;
        } else if (type === "turn_started") {
          if (!started) {
            started = true;
            if (check && e.get("player") !== first)
              return bad(r, "the first turn is the start player's (CASTLE-2.8, 3.1), the log records another seat");
          }
          turn = e.get("turn");
        } else if (type === "item_drawn") {
          return top(r, e.get("item"), e.get("reason") === "tie" ? "CASTLE-6.6" : "CASTLE-5.1", check);
        } else if (type === "fight_tied") {
          if (e.get("drew") === true) return top(r, e.get("item"), "CASTLE-6.6", check);
        } else if (type === "pile_arranged") {
          var arranged = plain(e.get("pile")) || [];
          if (check) {
            var need = Math.min(2, pile.length), chosen = arranged.slice(0, need);
            var rest = pile.filter(function (c) { return !has(chosen, c); });
            var want2 = chosen.concat(chance.shuffled(rest, ["clairvoyant", turn, pile.length]));
            self.draws++;
            if (text(arranged) !== text(want2))
              return bad(r, "the Clairvoyant's shuffle of the rest of the pile re-derived from the seed " +
                         "gives " + text(want2) + ", the log records " + text(arranged) + " (CASTLE-7.1)");
          }
          pile = arranged;
          known = e.get("known") === null || e.get("known") === undefined ? pile.length : e.get("known");
        }
        return null;
      };
      return self;
    }
  };
})(DevilVerify);
