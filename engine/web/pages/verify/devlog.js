// The .devlog walk (docs/log-format.md), as engine/log.py's scan: the header, every record's
// shape, sequence number, hash link (BLAKE2b-64 of the previous link and the record's bytes
// without its last 10) and a command's `left` count; a torn tail (a write cut short) is told
// from damage exactly as the Python reader tells them.  Damage names its record (0: header).
"use strict";
var DevilVerify = (typeof DevilVerify !== "undefined") ? DevilVerify : {};

(function (V) {
  var mp = V.msgpack;
  var MAX_CREATED = 221845392000000, MAX_TS = 31556952000000, MAX_ENGINE = 64;

  /** A damaged log: the first bad record's seq and why (engine.errors.LogDamaged). */
  function Damage(seq, reason) { this.seq = seq; this.reason = reason; }

  function link(previous, covered) {
    var joined = new Uint8Array(previous.length + covered.length);
    joined.set(previous); joined.set(covered, previous.length);
    return V.blake2b(joined, 8);
  }
  function same(a, b) {
    if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array) || a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  function allNul(bytes, start) {
    for (var i = start; i < bytes.length; i++) if (bytes[i] !== 0) return false;
    return true;
  }
  function linkTailAt(data, end) { return end >= 10 && data[end - 10] === 0xc4 && data[end - 9] === 0x08; }
  function printable(text) { return !/[\u0000-\u001f\u007f-\u00a0\u2028\u2029]/.test(text); }

  function header(data) {
    var got;
    try {
      got = mp.decode(data, 0);
    } catch (e) {
      if (e instanceof mp.OutOfData) throw new Damage(0, "the file is empty or its header is cut short");
      throw new Damage(0, "the header is not msgpack (" + e.message + ")");
    }
    var obj = got[0], end = got[1];
    if (!(obj instanceof Map) || obj.get("magic") !== "devil-log")
      throw new Damage(0, "not a devil log (the header's magic is missing)");
    var version = obj.get("version");
    if (version !== 1) throw new Damage(0, "format version " + version + " is not supported (this page reads 1)");
    var lk = obj.get("link"), keys = Array.from(obj.keys());
    if (!(lk instanceof Uint8Array) || lk.length !== 8 || !linkTailAt(data, end) || keys[keys.length - 1] !== "link")
      throw new Damage(0, "the header's link is missing or malformed");
    if (!same(link(new Uint8Array(8), data.subarray(0, end - 10)), lk))
      throw new Damage(0, "the header's link does not match its contents (edited header)");
    var kind = obj.get("kind"), game = obj.get("game"), created = obj.get("created");
    if (typeof kind !== "string" || typeof game !== "string" || !mp.isInt(created))
      throw new Damage(0, "the header lacks kind, game or created");
    if (!(created >= 0 && created <= MAX_CREATED))
      throw new Damage(0, "the header's time " + created + " is not a time (ms since 1970, before the year 9000)");
    if (!/^[a-z]+$/.test(kind) || game.indexOf(kind + "-") !== 0)
      throw new Damage(0, "the header's game id does not belong to its kind");
    if (obj.has("engine")) {
      var engine = obj.get("engine");
      if (typeof engine !== "string" || engine.length < 1 || engine.length > MAX_ENGINE || !printable(engine))
        throw new Damage(0, "the header's engine version is not a version (1 to 64 printable characters)");
    }
    return { kind: kind, game: game, created: created, link: lk, end: end };
  }

  // engine.log._next_record_follows: a well-formed record with a higher seq starts later
  function nextRecordFollows(data, start, seq) {
    var pos = data.indexOf(0x97, start + 1);
    while (pos !== -1) {
      var obj = null;
      try { obj = mp.decode(data.subarray(pos, pos + 65536), 0)[0]; } catch (e) { obj = null; }
      if (Array.isArray(obj) && obj.length === 7 && mp.isInt(obj[0]) && obj[0] > seq
          && obj[6] instanceof Uint8Array && obj[6].length === 8) return true;
      pos = data.indexOf(0x97, pos + 1);
    }
    return false;
  }
  // engine.log._ends_on_a_link
  function endsOnALink(tail, previous) {
    return tail.length >= 10 && (linkTailAt(tail, tail.length)
      || same(link(previous, tail.subarray(0, tail.length - 10)), tail.subarray(tail.length - 8)));
  }

  function walk(data, info) {
    var head = header(data);
    info.header = head;
    var records = [], end = head.end, seq = 0, previous = head.link, pending = 0;
    var goodEnd = end, lastGood = 0;
    while (true) {
      var start = end, got;
      if (start >= data.length) break;
      try {
        got = mp.decode(data, start);
      } catch (e) {
        if (e instanceof mp.OutOfData) break;
        if (allNul(data, start)) break;
        throw new Damage(seq + 1, "record is not msgpack (" + e.message + ")");
      }
      var obj = got[0];
      end = got[1];
      if (!Array.isArray(obj) || obj.length !== 7) {
        if (allNul(data, start)) { end = start; break; }
        throw new Damage(seq + 1, "record is not an array of 7");
      }
      seq += 1;
      var rseq = obj[0], actor = obj[1], cmd = obj[2], ts = obj[3], event = obj[4], left = obj[5], lk = obj[6];
      if (rseq !== seq && !(typeof rseq === "bigint" && rseq === BigInt(seq)))
        throw new Damage(seq, "sequence number " + String(rseq) + " where " + seq + " was expected (a record was removed, repeated or moved)");
      if (!linkTailAt(data, end) || !(lk instanceof Uint8Array))
        throw new Damage(seq, "the record's link is missing or malformed");
      if (!same(lk, link(previous, data.subarray(start, end - 10))))
        throw new Damage(seq, "the hash chain breaks here: this record, or the one before it, was edited, removed or moved");
      if (!mp.isInt(actor) || !mp.isInt(ts) || !(event instanceof Map) || !mp.isInt(left) || left < 0
          || (cmd !== null && typeof cmd !== "string") || !(ts >= 0 && ts <= MAX_TS) || !(actor >= -1 && actor < 1000))
        throw new Damage(seq, "a field of the record has the wrong type or is out of range");
      if (pending && left !== pending - 1)
        throw new Damage(seq, "the command's records run out of order (left=" + left + ", expected " + (pending - 1) + ")");
      previous = lk;
      pending = Number(left);
      records.push({ seq: seq, actor: Number(actor), cmd: cmd, ts: ts, event: event, left: pending, link: lk });
      if (pending === 0) { goodEnd = end; lastGood = seq; }
    }
    if (end < data.length) {
      if (nextRecordFollows(data, end, seq))
        throw new Damage(seq + 1, "record is cut short or garbled, and records follow it");
      if (endsOnALink(data.subarray(end), previous))
        throw new Damage(seq + 1, "the last record is garbled (it is complete but does not parse)");
    }
    info.end = end; info.link = previous;
    if (pending) records.length = lastGood;  // the last command never finished
    return { header: head, records: records, goodEnd: goodEnd, torn: data.length - goodEnd };
  }

  /** engine.log.scan: {header, records, goodEnd, torn}, or throws Damage. */
  function scan(data) {
    try {
      return walk(data, {});
    } catch (first) {
      if (!(first instanceof Damage)) throw first;
      var cut = data.length;
      while (cut > 0 && data[cut - 1] === 0) cut--;
      if (cut === data.length) throw first;
      var info = {}, result;
      try { result = walk(data.subarray(0, cut), info); } catch (e) { throw first; }
      if (!result.torn || endsOnALink(data.subarray(info.end), info.link)) throw first;
      return { header: result.header, records: result.records, goodEnd: result.goodEnd,
               torn: data.length - result.goodEnd };
    }
  }

  V.devlog = { scan: scan, Damage: Damage, link: link, same: same };
})(DevilVerify);
