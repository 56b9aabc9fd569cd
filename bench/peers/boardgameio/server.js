// boardgame.io's own server (Koa + socket.io, in-memory storage) serving the mecha game.
// node server.js PORT BOARD.json BAG.json ROUNDS
'use strict';

const fs = require('fs');
const { Server, Origins, SocketIO } = require('boardgame.io/server');
const { makeGame } = require('./game');

// node server.js PORT BOARD.json BAG.json ROUNDS deflate: socket.io's permessage-deflate switched on (off by
// default), messages of 1,024 bytes and more compressed (ws's own default threshold, the same rule as
// Chronicle's server: server/wsprotocol.py, DEFLATE_MIN_BYTES)
const [port, boardPath, bagPath, rounds, deflate] = process.argv.slice(2);
const { game } = makeGame(JSON.parse(fs.readFileSync(boardPath)), JSON.parse(fs.readFileSync(bagPath)), Number(rounds));
const transport = deflate === 'deflate' ? new SocketIO({ socketOpts: { perMessageDeflate: { threshold: 1024 } } }) : undefined;
const server = Server({ games: [game], origins: [Origins.LOCALHOST], ...(transport ? { transport } : {}) });
server.run({ port: Number(port) }, () => console.log(`boardgame.io serving on ${port}`));
