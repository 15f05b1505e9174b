// A msgpack decoder (only what the .devlog format uses: nil, bool, ints, floats, str, bin,
// arrays, maps; ext is kept opaque), for the verify page.  It reads as the Python reader
// does (msgpack.Unpacker(raw=False, strict_map_key=False)): a str that is not UTF-8 is an
// error, a map is a Map (keys in first-seen order, a repeated key keeps its place and takes
// the later value, as a Python dict does), an int beyond 2**53 is a BigInt.
"use strict";
var DevilVerify = (typeof DevilVerify !== "undefined") ? DevilVerify : {};

(function (V) {
  /** Thrown when the bytes end inside an object (Python: msgpack.OutOfData). */
  function OutOfData() { this.message = "out of data"; }
  /** Thrown for bytes that are no msgpack (Python: any other unpack error). */
  function Malformed(message) { this.message = message; }
  /** A float (kept apart from ints, which the format's checks need). */
  function Float(value) { this.value = value; }
  /** An ext value (never in a well-formed log). */
  function Ext(code, data) { this.code = code; this.data = data; }

  var utf8 = new TextDecoder("utf-8", { fatal: true });
  var LIMIT = 2 ** 53;

  function big(hi, lo) {
    var value = BigInt(hi) * 4294967296n + BigInt(lo);
    return (value < BigInt(LIMIT) && value > -BigInt(LIMIT)) ? Number(value) : value;
  }

  /** Decode one object of bytes at offset: [value, end offset].  Throws OutOfData or
   * Malformed. */
  function decode(bytes, offset) {
    var pos = offset, n = bytes.length, view = new DataView(bytes.buffer, bytes.byteOffset,
                                                           bytes.byteLength);
    function need(k) { if (pos + k > n) throw new OutOfData(); }
    function u8() { need(1); return bytes[pos++]; }
    function u16() { need(2); var x = view.getUint16(pos); pos += 2; return x; }
    function u32() { need(4); var x = view.getUint32(pos); pos += 4; return x; }
    function take(k) { need(k); var out = bytes.subarray(pos, pos + k); pos += k; return out; }
    function str(k) {
      var raw = take(k);
      try { return utf8.decode(raw); } catch (e) { throw new Malformed("a str is not UTF-8"); }
    }
    function key(value) {
      if (value instanceof Map || Array.isArray(value)) throw new Malformed("unhashable map key");
      if (value instanceof Uint8Array) return "bin:" + V.hex(value);
      return value;
    }
    function array(k) { var out = new Array(k); for (var i = 0; i < k; i++) out[i] = one(); return out; }
    function map(k) {
      var out = new Map();
      for (var i = 0; i < k; i++) { var name = key(one()); out.set(name, one()); }
      return out;
    }
    function one() {
      var b = u8(), hi, lo;
      if (b <= 0x7f) return b;
      if (b >= 0xe0) return b - 0x100;
      if (b >= 0xa0 && b <= 0xbf) return str(b & 0x1f);
      if (b >= 0x90 && b <= 0x9f) return array(b & 0x0f);
      if (b >= 0x80 && b <= 0x8f) return map(b & 0x0f);
      switch (b) {
        case 0xc0: return null;
        case 0xc2: return false;
        case 0xc3: return true;
        case 0xc4: return new Uint8Array(take(u8()));
        case 0xc5: return new Uint8Array(take(u16()));
        case 0xc6: return new Uint8Array(take(u32()));
        case 0xc7: { var l8 = u8(); var c8 = u8(); return new Ext(c8, take(l8)); }
        case 0xc8: { var l16 = u16(); var c16 = u8(); return new Ext(c16, take(l16)); }
        case 0xc9: { var l32 = u32(); var c32 = u8(); return new Ext(c32, take(l32)); }
        case 0xca: need(4); pos += 4; return new Float(view.getFloat32(pos - 4));
        case 0xcb: need(8); pos += 8; return new Float(view.getFloat64(pos - 8));
        case 0xcc: return u8();
        case 0xcd: return u16();
        case 0xce: return u32();
        case 0xcf: hi = u32(); lo = u32(); return big(hi, lo);
        case 0xd0: need(1); pos += 1; return view.getInt8(pos - 1);
        case 0xd1: need(2); pos += 2; return view.getInt16(pos - 2);
        case 0xd2: need(4); pos += 4; return view.getInt32(pos - 4);
        case 0xd3: {
          need(8); var value = view.getBigInt64(pos); pos += 8;
          return (value < BigInt(LIMIT) && value > -BigInt(LIMIT)) ? Number(value) : value;
        }
        case 0xd4: { var f1 = u8(); return new Ext(f1, take(1)); }
        case 0xd5: { var f2 = u8(); return new Ext(f2, take(2)); }
        case 0xd6: { var f4 = u8(); return new Ext(f4, take(4)); }
        case 0xd7: { var f8 = u8(); return new Ext(f8, take(8)); }
        case 0xd8: { var f16 = u8(); return new Ext(f16, take(16)); }
        case 0xd9: return str(u8());
        case 0xda: return str(u16());
        case 0xdb: return str(u32());
        case 0xdc: return array(u16());
        case 0xdd: return array(u32());
        case 0xde: return map(u16());
        case 0xdf: return map(u32());
        default: throw new Malformed("byte 0x" + b.toString(16) + " starts no msgpack object");
      }
    }
    var value = one();
    return [value, pos];
  }

  /** Whether x is an int as Python's `type(x) is int` (a Number that is whole, or a BigInt;
   * never a bool or a float). */
  function isInt(x) {
    return (typeof x === "number" && Number.isInteger(x)) || typeof x === "bigint";
  }

  V.msgpack = { decode: decode, OutOfData: OutOfData, Malformed: Malformed, Float: Float,
                Ext: Ext, isInt: isInt };
})(DevilVerify);
