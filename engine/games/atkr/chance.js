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
    /** Every draw re-derived from `chance` (DevilVerify.chance.Chance): {problem: {seq,
     * reason} of the first record whose draw differs, or null; draws: how many were checked}. */
    draws: function (records, chance) {
      var furnace = COAL_COUNTS.slice(), draws = 0, first = null, checked = 0, started = false;
      for (var i = 0; i < records.length; i++) {
        var r = records[i], e = r.event, type = e.get("type");
        if (type === "game_created") {
          furnace = COAL_COUNTS.slice();
          var players = e.get("players") || [];
          first = e.get("first");
          if (e.get("first_drawn") === true) {
            var want = chance.randbelow(players.length, ["first"]);
            checked++;
            if (first !== want)
              return { problem: { seq: r.seq, reason: "the start player drawn from the seed is " +
                players[want] + ", the log records " + players[first] + " (ATKR-1.7)" }, draws: checked };
          }
        } else if (type === "round_started" && !started) {
          started = true;
          if (e.get("start") !== first)
            return { problem: { seq: r.seq, reason: "round 1 starts with the start player " +
              "(ATKR-1.7, 2.1), the log records another seat" }, draws: checked };
        } else if (type === "coal_drawn") {
          var left = furnace.reduce(function (a, b) { return a + b; }, 0);
          var coal = e.get("coal"), index = COAL_KINDS.indexOf(coal);
          if (left === 0 || index < 0)
            return { problem: { seq: r.seq, reason: "coal #" + draws + " cannot be drawn: the furnace " +
              (left === 0 ? "is empty" : "holds no coal " + String(coal)) + " (ATKR-1.1, 4.6)" }, draws: checked };
          var drawn = COAL_KINDS[chance.pick(furnace, ["draw", draws])];
          checked++;
          if (drawn !== coal)
            return { problem: { seq: r.seq, reason: "coal #" + draws + ": the seed draws " + name(drawn) +
              " from the furnace's " + left + " coals, the log records " + name(coal) + " (ATKR-4.2)" },
              draws: checked };
          furnace[index] -= 1;
          draws += 1;
        } else if (type === "furnace_refilled") {
          furnace = COAL_COUNTS.slice();
        }
      }
      return { problem: null, draws: checked };
    }
  };
})(DevilVerify);
