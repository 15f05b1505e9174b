// SHA-256 (FIPS 180-4) and BLAKE2b (RFC 7693) in plain ES, for the verify page
// (engine/web/pages/verify): a page opened from file:// may not be a secure context, so
// crypto.subtle is not relied on.  Bytes in and out are Uint8Array.
"use strict";
var DevilVerify = (typeof DevilVerify !== "undefined") ? DevilVerify : {};

(function (V) {
  var K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);

  /** SHA-256 of bytes (Uint8Array) -> 32 bytes (Uint8Array). */
  function sha256(data) {
    var n = data.length;
    var total = ((n + 9 + 63) >> 6) << 6;
    var m = new Uint8Array(total);
    m.set(data);
    m[n] = 0x80;
    var bits = n * 8;
    var hi = Math.floor(bits / 0x100000000), lo = bits >>> 0;
    m[total - 8] = hi >>> 24; m[total - 7] = hi >>> 16; m[total - 6] = hi >>> 8; m[total - 5] = hi;
    m[total - 4] = lo >>> 24; m[total - 3] = lo >>> 16; m[total - 2] = lo >>> 8; m[total - 1] = lo;
    var h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                             0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
    var w = new Uint32Array(64);
    for (var off = 0; off < total; off += 64) {
      for (var i = 0; i < 16; i++) {
        var j = off + i * 4;
        w[i] = (m[j] << 24) | (m[j + 1] << 16) | (m[j + 2] << 8) | m[j + 3];
      }
      for (i = 16; i < 64; i++) {
        var x = w[i - 15], y = w[i - 2];
        var s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
        var s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
      }
      var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
      for (i = 0; i < 64; i++) {
        var S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        var ch = (e & f) ^ (~e & g);
        var t1 = (hh + S1 + ch + K[i] + w[i]) | 0;
        var S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        var maj = (a & b) ^ (a & c) ^ (b & c);
        var t2 = (S0 + maj) | 0;
        hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
    var out = new Uint8Array(32);
    for (i = 0; i < 8; i++) {
      out[i * 4] = h[i] >>> 24; out[i * 4 + 1] = h[i] >>> 16;
      out[i * 4 + 2] = h[i] >>> 8; out[i * 4 + 3] = h[i];
    }
    return out;
  }

  // -- BLAKE2b: 64-bit words as pairs of 32-bit halves (lo at 2i, hi at 2i+1) --------------
  var IV = new Uint32Array([
    0xf3bcc908, 0x6a09e667, 0x84caa73b, 0xbb67ae85, 0xfe94f82b, 0x3c6ef372, 0x5f1d36f1, 0xa54ff53a,
    0xade682d1, 0x510e527f, 0x2b3e6c1f, 0x9b05688c, 0xfb41bd6b, 0x1f83d9ab, 0x137e2179, 0x5be0cd19]);
  var SIGMA = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0]];
  var v = new Uint32Array(32), mw = new Uint32Array(32);

  function add64(a, b) {  // v[a] += v[b]
    var lo = v[a] + v[b], hi = v[a + 1] + v[b + 1];
    if (lo >= 0x100000000) hi++;
    v[a] = lo; v[a + 1] = hi;
  }
  function addm(a, lo0, hi0) {  // v[a] += (hi0, lo0)
    var lo = v[a] + lo0, hi = v[a + 1] + hi0;
    if (lo >= 0x100000000) hi++;
    v[a] = lo; v[a + 1] = hi;
  }
  function G(a, b, c, d, ix, iy) {
    add64(a, b); addm(a, mw[ix], mw[ix + 1]);
    var xl = v[d] ^ v[a], xh = v[d + 1] ^ v[a + 1];  // rotr 32
    v[d] = xh; v[d + 1] = xl;
    add64(c, d);
    xl = v[b] ^ v[c]; xh = v[b + 1] ^ v[c + 1];      // rotr 24
    v[b] = (xl >>> 24) ^ (xh << 8); v[b + 1] = (xh >>> 24) ^ (xl << 8);
    add64(a, b); addm(a, mw[iy], mw[iy + 1]);
    xl = v[d] ^ v[a]; xh = v[d + 1] ^ v[a + 1];      // rotr 16
    v[d] = (xl >>> 16) ^ (xh << 16); v[d + 1] = (xh >>> 16) ^ (xl << 16);
    add64(c, d);
    xl = v[b] ^ v[c]; xh = v[b + 1] ^ v[c + 1];      // rotr 63 = rotl 1
    v[b] = (xh >>> 31) ^ (xl << 1); v[b + 1] = (xl >>> 31) ^ (xh << 1);
  }
  function compress(h, block, bo, t, last) {
    var i;
    for (i = 0; i < 16; i++) { v[i] = h[i]; v[i + 16] = IV[i]; }
    v[24] ^= t >>> 0; v[25] ^= Math.floor(t / 0x100000000);
    if (last) { v[28] = ~v[28]; v[29] = ~v[29]; }
    for (i = 0; i < 32; i++) {
      var j = bo + i * 4;
      mw[i] = block[j] ^ (block[j + 1] << 8) ^ (block[j + 2] << 16) ^ (block[j + 3] << 24);
    }
    for (i = 0; i < 12; i++) {
      var s = SIGMA[i % 10];
      G(0, 8, 16, 24, s[0] * 2, s[1] * 2);
      G(2, 10, 18, 26, s[2] * 2, s[3] * 2);
      G(4, 12, 20, 28, s[4] * 2, s[5] * 2);
      G(6, 14, 22, 30, s[6] * 2, s[7] * 2);
      G(0, 10, 20, 30, s[8] * 2, s[9] * 2);
      G(2, 12, 22, 24, s[10] * 2, s[11] * 2);
      G(4, 14, 16, 26, s[12] * 2, s[13] * 2);
      G(6, 8, 18, 28, s[14] * 2, s[15] * 2);
    }
    for (i = 0; i < 16; i++) h[i] = h[i] ^ v[i] ^ v[i + 16];
  }

  /** BLAKE2b of bytes with an outlen-byte digest (1..64), no key: Uint8Array. */
  function blake2b(data, outlen) {
    var h = new Uint32Array(16), i;
    for (i = 0; i < 16; i++) h[i] = IV[i];
    h[0] ^= 0x01010000 ^ outlen;
    var n = data.length, off = 0;
    while (n - off > 128) {
      compress(h, data, off, off + 128, false);
      off += 128;
    }
    var last = new Uint8Array(128);
    last.set(data.subarray(off));
    compress(h, last, 0, n, true);
    var out = new Uint8Array(outlen);
    for (i = 0; i < outlen; i++) out[i] = h[i >> 2] >>> (8 * (i & 3));
    return out;
  }

  var HEX = "0123456789abcdef";
  function hex(bytes) {
    var s = "";
    for (var i = 0; i < bytes.length; i++) s += HEX[bytes[i] >> 4] + HEX[bytes[i] & 15];
    return s;
  }
  /** Text as UTF-8 bytes. */
  function utf8(text) { return new TextEncoder().encode(text); }

  V.sha256 = sha256;
  V.blake2b = blake2b;
  V.hex = hex;
  V.utf8 = utf8;
  V.sha256hex = function (text) { return hex(sha256(utf8(text))); };
})(DevilVerify);
