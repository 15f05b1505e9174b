// Chance as engine/chance.py and engine/entropy.py derive it (docs/log-format.md, "Chance"):
// the seed commitment, the seats' commitments and the mixed seed, and randbelow / shuffled /
// pick from a prefix (decimal(seed), or the mixed seed's hex).  Labels are joined with "|"
// exactly as Python's str() writes each part (ints in decimal, strings as they are).
"use strict";
var DevilVerify = (typeof DevilVerify !== "undefined") ? DevilVerify : {};

(function (V) {
  /** sha256("devil-commit|" + salt + "|" + decimal(seed)) as hex (engine.chance.commitment). */
  function commitment(seed, salt) { return V.sha256hex("devil-commit|" + salt + "|" + String(seed)); }
  /** sha256("devil-seat|" + game + "|" + decimal(seat) + "|" + value) (engine.entropy). */
  function seatCommitment(game, seat, value) {
    return V.sha256hex("devil-seat|" + game + "|" + String(seat) + "|" + value);
  }
  /** The mixed seed of a game with seat entropy (engine.chance.mixed_seed), hex. */
  function mixedSeed(seed, values) {
    return V.sha256hex("devil-mix|" + String(seed) + values.map(function (v) { return "|" + v; }).join(""));
  }

  /** engine.chance.SeededChance's draws from `prefix` (a string); `epoch` > 0 prefixes every
   * label with ("epoch", epoch) as engine.desk.chance.Continued does (DESK-6). */
  function Chance(prefix, epoch) {
    this.prefix = prefix;
    this.epoch = epoch || 0;
    this.calls = 0;
  }
  Chance.prototype.randbelow = function (n, label) {
    if (!(n > 0)) throw new Error("randbelow needs n > 0");
    var parts = this.epoch ? ["epoch", this.epoch].concat(label) : label;
    var digest = V.sha256(V.utf8(this.prefix + "|" + parts.map(String).join("|")));
    var r = 0n;
    for (var i = 0; i < 8; i++) r = r * 256n + BigInt(digest[i]);
    this.calls++;
    return Number(r % BigInt(n));
  };
  /** A Fisher-Yates shuffle of items (a new array), step i using label + [i]. */
  Chance.prototype.shuffled = function (items, label) {
    var out = items.slice();
    for (var i = out.length - 1; i > 0; i--) {
      var j = this.randbelow(i + 1, label.concat([i]));
      var t = out[i]; out[i] = out[j]; out[j] = t;
    }
    return out;
  };
  /** The index of the kind drawn from a bag holding counts[k] pieces of kind k. */
  Chance.prototype.pick = function (counts, label) {
    var total = counts.reduce(function (a, b) { return a + b; }, 0);
    var r = this.randbelow(total, label);
    for (var k = 0; k < counts.length; k++) {
      if (r < counts[k]) return k;
      r -= counts[k];
    }
    throw new Error("unreachable");
  };

  V.kinds = V.kinds || {};
  V.chance = { commitment: commitment, seatCommitment: seatCommitment, mixedSeed: mixedSeed,
               Chance: Chance };
})(DevilVerify);
