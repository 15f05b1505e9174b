'use strict';
// The load driver of benchmarks/bench_bgio.py, one node process, the same for both servers:
//     node driver.cjs '{"target": "devil"|"bgio", "port": P, "serverPid": PID, "clients": N,
//                       "tables": T, "seconds": S, "seed": K, "rounds": R}'
// N closed-loop clients over T tables (with no more clients than tables a client plays every
// seat of its tables, 2 a table; with more, each client is one seat, 2 to 6 a table).  Every
// seat has its own push channel and learns the table only from what its server sends it:
//   devil: the seat's event stream (GET /games/{id}/stream, server-sent events) and the answer
//          to its own POST /games/{id}/commands (one request a move, with an Idempotency-Key);
//   boardgame.io: the seat's socket.io connection (websocket), synced to the match; a move is
//          one 'update' message, answered by the update the server pushes to every seat.
// A client sends one move, waits for its answer, then picks the next seat of its own that may
// act (or waits for a push).  The same bot for both: bet 0-100 (tens, within its money), draw
// until the total reaches the highest bet (at least 30), then stop.  A table whose game ended
// starts a new one (devil: POST /games; boardgame.io: the Lobby API's create and join).  Prints
// one JSON line: moves, elapsed, latencies, and the CPU the server process (/proc/PID/stat) and
// this driver spent inside the timed window.
const fs = require('fs');
const http = require('http');
const crypto = require('crypto');
const { io } = require('socket.io-client');

const cfg = JSON.parse(process.argv[2]);
const NAMES = ['Anna', 'Ben', 'Cleo', 'Dan', 'Eva', 'Finn'];
const HOST = '127.0.0.1';
const TICK = 100; // clock ticks a second (sysconf(_SC_CLK_TCK) on Linux)

let rngState = (cfg.seed * 2654435761) >>> 0 || 1;
function rand() { // xorshift32: the bot's choices, the same stream for both servers
  rngState ^= rngState << 13; rngState >>>= 0;
  rngState ^= rngState >>> 17;
  rngState ^= rngState << 5; rngState >>>= 0;
  return rngState / 4294967296;
}

function serverCpuMs() {
  const stat = fs.readFileSync(`/proc/${cfg.serverPid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICK; // utime + stime
}

function seatPlan(clients, tables) {
  if (clients <= tables) return Array(tables).fill(2);
  const base = Math.floor(clients / tables);
  const extra = clients % tables;
  const sizes = Array.from({ length: tables }, (_, i) => base + (i < extra ? 1 : 0));
  if (Math.min(...sizes) < 2 || Math.max(...sizes) > 6) throw new Error('2 to 6 seats a table');
  return sizes;
}

const stats = { moves: 0, refused: 0, errors: [], latencies: [], created: 0, finished: 0 };
const shared = new http.Agent({ keepAlive: true, maxSockets: 4 }); // table creation only

function request(agent, method, path, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request({
      host: HOST, port: cfg.port, method, path, agent,
      headers: { ...headers, ...(data ? { 'content-type': 'application/json',
        'content-length': data.length } : {}) },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let json = null;
        try { json = JSON.parse(text); } catch (e) { /* not JSON */ }
        resolve({ status: res.statusCode, json, text });
      });
    });
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

// What a seat knows of its table: enough for the bot.
function blank(n, money) {
  return { n, phase: null, start: 0, turn: null, over: false, money,
    hasBet: Array(n).fill(false), bets: Array(n).fill(null), draws: Array(n).fill(0),
    total: Array(n).fill(0) };
}

function choose(k, seat, zero) {
  if (k.over) return null;
  if (k.phase === 'bet') {
    if (k.hasBet[seat]) return null;
    const cap = zero ? 0 : Math.min(100, k.money || 0);
    return { type: 'bet', amount: 10 * Math.floor(rand() * (Math.floor(cap / 10) + 1)) };
  }
  if (k.phase === 'draw' && k.turn === seat) {
    const target = Math.max(30, ...k.bets.map((b) => b || 0));
    if (k.draws[seat] > 0 && k.total[seat] >= target) return { type: 'stop' };
    return { type: 'draw' };
  }
  return null;
}

class Client {
  constructor() { this.seats = []; this.wake = null; }
  notify() { if (this.wake) { const w = this.wake; this.wake = null; w(); } }
  changed(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.wake = null; resolve(); }, ms);
      this.wake = () => { clearTimeout(timer); resolve(); };
    });
  }
}

class Table {
  constructor(index, size) {
    this.index = index; this.names = NAMES.slice(0, size); this.current = null; this.making = null;
  }
  async next(over) { // the table's current game, a new one once `over` ended (made once)
    if (this.current && this.current.id !== over) return this.current;
    if (!this.making) {
      if (over !== null) stats.finished += 1;
      this.making = target.create(this).then((made) => {
        this.current = made; this.making = null; stats.created += 1; return made;
      });
    }
    return this.making;
  }
}

// ---- devil: HTTP commands, a server-sent event stream per seat -------------------------------

const devil = {
  async create(table) {
    const r = await request(shared, 'POST', '/games', {
      kind: 'atkr', options: { players: table.names }, seed: cfg.seed * 100000 + table.index * 1000
        + stats.created });
    if (r.status !== 201 && r.status !== 200) throw new Error(`create: ${r.status} ${r.text}`);
    return { id: r.json.game, tokens: r.json.tokens };
  },
  join(seat, made) {
    seat.game = made.id;
    seat.token = made.tokens[seat.table.names[seat.index]];
    seat.k = blank(seat.table.names.length, 200);
    seat.applied = 0;
    seat.waitFor = 0;
    seat.pending = new Map();
    if (seat.stream) seat.stream.destroy();
    const game = seat.game;
    return new Promise((resolve) => {
      const req = http.get({ host: HOST, port: cfg.port, agent: false,
        path: `/games/${game}/stream?after=0&timeout=600`,
        headers: { authorization: `Bearer ${seat.token}` } }, (res) => {
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const line = block.split('\n').find((l) => l.startsWith('data: '));
            if (block.includes('event: event') && line && seat.game === game) {
              const entry = JSON.parse(line.slice(6));
              devil.feed(seat, entry.seq, entry.event);
            }
          }
          resolve();
        });
      });
      req.on('error', (e) => { if (seat.game === game && !stopping) stats.errors.push(`stream: ${e}`); resolve(); });
      seat.stream = req;
    });
  },
  feed(seat, seq, event) { // apply in sequence order, whichever channel brought it first
    if (seq <= seat.applied) return;
    seat.pending.set(seq, event);
    let changed = false;
    while (seat.pending.has(seat.applied + 1)) {
      seat.applied += 1;
      devil.apply(seat.k, seat.pending.get(seat.applied), seat.index);
      seat.pending.delete(seat.applied);
      changed = true;
    }
    if (changed) seat.client.notify();
  },
  apply(k, e, me) { // the seat's money follows the events, as boardgame.io's pushed state does
    switch (e.type) {
      case 'game_created': k.money = e.start_money; break;
      case 'round_started':
        Object.assign(k, blank(k.n, k.money)); k.phase = 'bet'; k.start = e.start;
        if (k.money === 0) k.hasBet[me] = true; // ATKR-3.3: no money, no bet
        break;
      case 'bet_placed':
        k.hasBet[e.seat] = true;
        if (e.seat === me && e.amount !== null && e.amount !== undefined) {
          k.money -= e.amount; k.paid = true;
        }
        break;
      case 'bets_revealed':
        if (!k.paid) k.money -= e.bets[me] || 0;
        k.bets = e.bets; k.phase = 'draw'; k.turn = k.start; break;
      case 'pact_paid':
        if (e.payer === me) k.money -= e.amount;
        if (e.to === me) k.money += e.amount;
        break;
      case 'bet_won': if (e.seat === me) k.money += e.stake + e.win; break;
      case 'prize_paid': if (e.seat === me) k.money += e.amount; break;
      case 'coal_drawn':
        k.draws[e.seat] += 1; k.total[e.seat] += e.coal;
        if (e.coal === 0) devil.endTurn(k);
        break;
      case 'stopped': devil.endTurn(k); break;
      case 'game_ended': k.over = true; k.phase = 'over'; break;
      default: break;
    }
  },
  endTurn(k) { // (an empty furnace also ends a turn: the next round_started puts that right)
    const position = (k.turn - k.start + k.n) % k.n;
    k.turn = position + 1 < k.n ? (k.start + position + 1) % k.n : null;
  },
  async move(seat, command) {
    const r = await request(seat.client.agent, 'POST', `/games/${seat.game}/commands`, command, {
      authorization: `Bearer ${seat.token}`, 'idempotency-key': crypto.randomBytes(12).toString('hex') });
    if (r.status === 201) {
      for (const { seq, ...event } of r.json.events) devil.feed(seat, seq, event);
      const me = r.json.view.players[seat.index];
      const last = r.json.events.length ? r.json.events[r.json.events.length - 1].seq : 0;
      // the answer's view is the game after this command: true once every event before it is in
      if (me.money !== null && seat.applied >= last) seat.k.money = me.money;
      seat.waitFor = last; // a gap before this answer's events: wait for the stream to fill it
      return true;
    }
    if (r.status === 409 && r.json && r.json.code === 1) return false; // refused by the rules
    throw new Error(`${r.status}: ${r.text.slice(0, 200)}`);
  },
};

// ---- boardgame.io: the Lobby API to create and join, a socket.io connection per seat ---------

let nonces = 0;
const bgio = {
  async create(table) {
    const n = table.names.length;
    const r = await request(shared, 'POST', '/games/atkr/create',
      { numPlayers: n, setupData: { rounds: cfg.rounds } });
    if (r.status !== 200) throw new Error(`create: ${r.status} ${r.text}`);
    const credentials = [];
    for (let s = 0; s < n; s++) {
      const j = await request(shared, 'POST', `/games/atkr/${r.json.matchID}/join`,
        { playerID: String(s), playerName: table.names[s] });
      if (j.status !== 200) throw new Error(`join: ${j.status} ${j.text}`);
      credentials.push(j.json.playerCredentials);
    }
    return { id: r.json.matchID, credentials };
  },
  join(seat, made) {
    seat.game = made.id;
    seat.credentials = made.credentials[seat.index];
    seat.k = blank(seat.table.names.length, 200);
    if (!seat.socket) {
      seat.socket = io(`http://${HOST}:${cfg.port}/atkr`, { transports: ['websocket'],
        reconnection: false });
      const take = (matchID, state) => {
        if (matchID !== seat.game || !state || state._stateID < seat.stateID) return;
        seat.stateID = state._stateID;
        bgio.know(seat, state);
        if (seat.answer && state.G.nonce[seat.index] === seat.answer.nonce) seat.answer.done(true);
        seat.client.notify();
      };
      seat.socket.on('update', take);
      seat.socket.on('sync', (matchID, info) => {
        take(matchID, info.state);
        if (seat.synced && matchID === seat.game) seat.synced();
      });
      seat.socket.on('connect_error', (e) => stats.errors.push(`socket: ${e}`));
    }
    seat.stateID = -1;
    return new Promise((resolve) => {
      seat.synced = () => { seat.synced = null; resolve(); };
      seat.socket.emit('sync', seat.game, String(seat.index), seat.credentials,
        seat.table.names.length);
    });
  },
  know(seat, state) {
    const G = state.G;
    const k = seat.k;
    k.phase = G.phase; k.start = G.start; k.turn = G.turn; k.over = Boolean(state.ctx.gameover);
    k.money = G.money[seat.index];
    k.hasBet = G.hasBet; k.bets = G.bets;
    k.draws = G.coals.map((c) => c.length);
    k.total = G.coals.map((c) => c.reduce((a, b) => a + b, 0));
  },
  move(seat, command) {
    const nonce = ++nonces;
    const args = command.type === 'bet' ? [command.amount, nonce] : [nonce];
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { seat.answer = null; reject(new Error('no answer in 10 s')); },
        10000);
      seat.answer = { nonce, done: (ok) => { clearTimeout(timer); seat.answer = null; resolve(ok); } };
      seat.socket.emit('update', { type: 'MAKE_MOVE', payload: { type: command.type, args,
        playerID: String(seat.index), credentials: seat.credentials } },
      seat.stateID, seat.game, String(seat.index));
    });
  },
};

const target = cfg.target === 'devil' ? devil : bgio;
let stopping = false;

async function play(client, deadline) {
  while (Date.now() < deadline) {
    let acted = false;
    for (const seat of client.seats) {
      if (Date.now() >= deadline) return;
      if (seat.k.over) {
        const made = await seat.table.next(seat.game);
        await target.join(seat, made);
      }
      if (seat.applied < (seat.waitFor || 0)) continue; // (devil) its own move not yet in order
      const command = choose(seat.k, seat.index, seat.zero);
      if (!command) continue;
      const began = process.hrtime.bigint();
      try {
        const ok = await target.move(seat, command);
        if (ok) {
          stats.latencies.push(Number(process.hrtime.bigint() - began) / 1e6);
          stats.moves += 1;
          seat.zero = false;
          acted = true;
        } else {
          stats.refused += 1;
          seat.zero = command.type === 'bet'; // its money changed since it last saw it
        }
      } catch (e) {
        stats.errors.push(String(e));
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    if (!acted) await client.changed(Math.max(1, Math.min(1000, deadline - Date.now())));
  }
}

async function main() {
  const sizes = seatPlan(cfg.clients, cfg.tables);
  const tables = sizes.map((n, i) => new Table(i, n));
  const clients = Array.from({ length: cfg.clients }, () => new Client());
  let number = 0;
  for (const table of tables) {
    for (let s = 0; s < table.names.length; s++) {
      const client = cfg.clients <= cfg.tables ? clients[table.index % cfg.clients] : clients[number];
      client.seats.push({ table, index: s, client, k: blank(table.names.length, 200) });
      number += 1;
    }
  }
  for (const client of clients) client.agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  await Promise.all(tables.map((t) => t.next(null)));
  await Promise.all(clients.flatMap((c) => c.seats.map((seat) => target.join(seat, seat.table.current))));
  stats.created = tables.length; // (the first games are made before the clock starts)
  stats.finished = 0;
  const cpu0 = serverCpuMs();
  const self0 = process.cpuUsage();
  const began = Date.now();
  await Promise.all(clients.map((c) => play(c, began + cfg.seconds * 1000)));
  const elapsed = (Date.now() - began) / 1000;
  const cpu = serverCpuMs() - cpu0;
  const self = process.cpuUsage(self0);
  stopping = true;
  const lat = stats.latencies.sort((a, b) => a - b);
  const pick = (q) => (lat.length ? Math.round(lat[Math.min(lat.length - 1, Math.floor(lat.length * q))] * 100) / 100 : null);
  process.stdout.write(`${JSON.stringify({
    target: cfg.target, clients: cfg.clients, tables: cfg.tables, seats: number,
    seconds: elapsed, moves: stats.moves, refused: stats.refused,
    server_cpu_ms: cpu, driver_cpu_ms: (self.user + self.system) / 1000,
    p50_ms: pick(0.5), p99_ms: pick(0.99), games_created: stats.created,
    games_finished: stats.finished, errors: stats.errors.slice(0, 10),
    error_count: stats.errors.length,
  })}\n`);
  for (const client of clients) {
    for (const seat of client.seats) {
      if (seat.stream) seat.stream.destroy();
      if (seat.socket) seat.socket.close();
    }
  }
  process.exit(0);
}

main().catch((e) => { process.stderr.write(`${e.stack || e}\n`); process.exit(1); });
