'use strict';
// A boardgame.io game with the move shape of Auf Teufel komm raus as benchmarks/bgio/driver.cjs
// plays it (bet, draw, stop): NOT the rules in full.  Each round every seat bets once (in any
// order; bets hidden from the others until all are in), then from the start player on each seat
// draws coals from a furnace (a devil ends its turn) until it stops; a bet is won (paid back
// twice) when anyone's total reaches it.  The match ends after `rounds` rounds (setupData), so
// that a match is about as long as one of devil's games under the same driver.  Moves carry a
// nonce, recorded in G, so that the mover knows which pushed update answers its move.
const { INVALID_MOVE, ActivePlayers } = require('boardgame.io/core');

const FURNACE = [[10, 9], [20, 9], [25, 9], [50, 7], [75, 3], [100, 2], [0, 9]]; // 0: a devil
const DEVIL = 0;

function newRound(G) {
  G.phase = 'bet';
  G.turn = null;
  G.furnace = FURNACE.map(([, count]) => count);
  for (let s = 0; s < G.n; s++) {
    G.bets[s] = null;
    G.hasBet[s] = false;
    G.coals[s] = [];
    G.busted[s] = false;
    G.stopped[s] = false;
  }
}

function endTurn(G) {
  const position = (G.turn - G.start + G.n) % G.n;
  const left = G.furnace.reduce((a, b) => a + b, 0);
  if (position + 1 < G.n && left > 0) {
    G.turn = (G.start + position + 1) % G.n;
    return;
  }
  const best = Math.max(...G.coals.map((coals) => coals.reduce((a, b) => a + b, 0)));
  for (let s = 0; s < G.n; s++) {
    if (G.bets[s] <= best) G.money[s] += 2 * G.bets[s];
  }
  G.round += 1;
  if (G.round > G.rounds) {
    G.over = true;
    G.phase = 'over';
    G.turn = null;
    return;
  }
  G.start = (G.start + 1) % G.n;
  newRound(G);
}

const Game = {
  name: 'atkr',
  minPlayers: 2,
  maxPlayers: 6,
  setup: ({ ctx }, setupData) => {
    const n = ctx.numPlayers;
    const G = {
      n, rounds: (setupData && setupData.rounds) || 12, round: 1, start: 0, over: false,
      money: Array(n).fill(200), bets: Array(n).fill(null), hasBet: Array(n).fill(false),
      coals: [], busted: Array(n).fill(false), stopped: Array(n).fill(false),
      nonce: Array(n).fill(null), phase: 'bet', turn: null, furnace: [],
    };
    newRound(G);
    return G;
  },
  turn: { activePlayers: ActivePlayers.ALL },
  moves: {
    bet: {
      move: ({ G, playerID }, amount, nonce) => {
        const s = Number(playerID);
        if (G.phase !== 'bet' || G.hasBet[s] || !Number.isInteger(amount) || amount < 0
            || amount % 10 !== 0 || amount > G.money[s]) return INVALID_MOVE;
        G.bets[s] = amount;
        G.hasBet[s] = true;
        G.money[s] -= amount;
        G.nonce[s] = nonce;
        if (G.hasBet.every(Boolean)) {
          G.phase = 'draw';
          G.turn = G.start;
        }
      },
      ignoreStaleStateID: true,
    },
    draw: {
      move: ({ G, playerID, random }, nonce) => {
        const s = Number(playerID);
        if (G.phase !== 'draw' || G.turn !== s) return INVALID_MOVE;
        const left = G.furnace.reduce((a, b) => a + b, 0);
        let pick = Math.floor(random.Number() * left);
        let kind = 0;
        while (pick >= G.furnace[kind]) pick -= G.furnace[kind++];
        G.furnace[kind] -= 1;
        const coal = FURNACE[kind][0];
        G.coals[s].push(coal);
        G.nonce[s] = nonce;
        if (coal === DEVIL) {
          G.busted[s] = true;
          endTurn(G);
        } else if (left === 1) {
          endTurn(G);
        }
      },
      ignoreStaleStateID: true,
    },
    stop: {
      move: ({ G, playerID }, nonce) => {
        const s = Number(playerID);
        if (G.phase !== 'draw' || G.turn !== s || G.coals[s].length === 0) return INVALID_MOVE;
        G.stopped[s] = true;
        G.nonce[s] = nonce;
        endTurn(G);
      },
      ignoreStaleStateID: true,
    },
  },
  endIf: ({ G }) => (G.over ? { rounds: G.round - 1 } : undefined),
  // another seat's bet is hidden until all are in (as devil's views seal it)
  playerView: ({ G, playerID }) => (G.phase !== 'bet' ? G : {
    ...G, bets: G.bets.map((bet, s) => (String(s) === playerID ? bet : null)),
  }),
};

module.exports = { Game };
