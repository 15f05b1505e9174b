// Auf Teufel komm raus: its draws re-derived in the browser (the verify page,
// engine/web/pages/verify; docs/trust.md).  Chance only, ported from the Python that is the
// source: the start player (engine/games/atkr/options.py: randbelow(n, "first"), ATKR-1.7)
// and every coal (engine/games/atkr/decide.py: COAL_KINDS[pick(furnace, "draw", draws)],
// ATKR-1.2, 4.2): the furnace followed from the log (48 coals at game_created, one fewer at
// every coal_drawn, all 48 again at furnace_refilled, ATKR-7.1), `draws` counting every coal
// of the game from 0.  A duplicate round's coals (TOUR-11) come from the round's seed, which
// the game does not reveal: not derived here.
"use strict";
(function (V) {
  var COAL_KINDS = [100, 75, 50, 25, 20, 10, 0];  // engine/games/atkr/state.py (0: devil)
  var COAL_COUNTS = [2, 3, 7, 9, 9, 9, 9];        // ATKR-1.1
  function name(coal) { return coal === 0 ? "devil" : String(coal); }

  function find(records, type) {
    for (var i = 0; i < records.length; i++) if (records[i].event.get("type") === type) return records[i];
    return null;
  }

  V.kinds.atkr = {
    constants: { COAL_KINDS: COAL_KINDS, COAL_COUNTS: COAL_COUNTS },
    /** What the kind's own records say of chance: physical, finished, the commitment and the
     * revealed seed ({seed, salt} or null), shared (a duplicate round's seed). */
    facts: function (records) {
      var created = find(records, "game_created"), ended = null;
      for (var i = records.length - 1; i >= 0; i--)
        if (records[i].event.get("type") === "game_ended") { ended = records[i]; break; }
      var c = created ? created.event : new Map(), e = ended ? ended.event : null;
      var seed = e ? e.get("seed") : null;
      return { physical: c.get("physical") === true, finished: ended !== null,
               commitment: created ? c.get("commitment") : null,
               reveal: seed === null || seed === undefined ? null : { seed: seed, salt: e.get("salt") },
               shared: c.get("duplicate") === true };
    },
    /** A checker of the kind's records in log order: ``step(record, chance, check)``
     * follows the furnace and, with ``check``, re-derives the record's draw from ``chance``
     * (DevilVerify.chance.Chance): the first problem {seq, reason}, else null.  ``draws``
     * counts the draws re-derived.  (A correction, DESK-2, starts a new checker and steps
     * the records in force through it unchecked.) */
    checker: function () {
      var furnace = COAL_COUNTS.slice(), draws = 0, first = null, started = false;
      var self = { draws: 0 };
      function bad(r, reason) { return { seq: r.seq, reason: reason }; }
      self.step = function (r, chance, check) {
        var e = r.event, type = e.get("type");
        if (type === "game_created") {
          furnace = COAL_COUNTS.slice();
          var players = e.get("players") || [];
          first = e.get("first");
          if (check && e.get("first_drawn") === true) {
            var want = chance.randbelow(players.length, ["first"]);
            self.draws++;
            if (first !== want)
              return bad(r, "the start player drawn from the seed is " + players[want] +
                         ", the log records " + players[first] + " (ATKR-1.7)");
          }
        } else if (type === "round_started" && !started) {
          started = true;
          if (check && e.get("start") !== first)
            return bad(r, "round 1 starts with the start player (ATKR-1.7, 2.1), the log records another seat");
        } else if (type === "coal_drawn") {
          var left = furnace.reduce(function (x, y) { return x + y; }, 0);
          var coal = e.get("coal"), index = COAL_KINDS.indexOf(coal);
          if (left === 0 || index < 0)
            return bad(r, "coal #" + draws + " cannot be drawn: the furnace " +
                       (left === 0 ? "is empty" : "holds no coal " + String(coal)) + " (ATKR-1.1, 4.6)");
          if (check) {
            var drawn = COAL_KINDS[chance.pick(furnace, ["draw", draws])];
            self.draws++;
            if (drawn !== coal)
              return bad(r, "coal #" + draws + ": the seed draws " + name(drawn) + " from the furnace's " +
                         left + " coals, the log records " + name(coal) + " (ATKR-4.2)");
          }
          furnace[index] -= 1;
          draws += 1;
        } else if (type === "furnace_refilled") {
          furnace = COAL_COUNTS.slice();
        }
        return null;
      };
      return self;
    }
  };
})(DevilVerify);
