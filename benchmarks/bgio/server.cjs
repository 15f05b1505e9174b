'use strict';
// boardgame.io 0.50's own server (Koa + socket.io, its Lobby REST API) on 127.0.0.1:PORT,
// storing in memory, or with FlatFile (node-persist: JSON files, written without fsync) in DIR.
//     node server.cjs PORT [DIR [queue]]
// node-persist 3.1 queues writes by default and writes each file at most once a second
// (writeQueue, writeQueueIntervalMs 1000, only the last value); FlatFile keeps that default.
// Without "queue" the queue is switched off: every move's files are written when it is made
// (as durable as FlatFile gets, and not held back by the timer).
const { Server, FlatFile } = require('boardgame.io/server');
const { Game } = require('./game.cjs');

const port = Number(process.argv[2]);
const dir = process.argv[3];
const queue = process.argv[4] === 'queue';
let db; // undefined: boardgame.io's InMemory
if (dir) {
  db = new FlatFile({ dir, logging: false });
  if (!queue) {
    db.connect = () => db.games.init({ dir, logging: false, ttl: false, writeQueue: false });
  }
}
const server = Server({ games: [Game], db, origins: [] });
const listen = server.app.listen;
server.app.listen = (p, callback) => listen.call(server.app, p, '127.0.0.1', callback);
server.run(port, () => process.stdout.write(`ready ${port}\n`));
