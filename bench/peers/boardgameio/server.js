// boardgame.io's own server (Koa + socket.io, in-memory storage) serving the mecha game.
// node server.js PORT BOARD.json BAG.json ROUNDS
'use strict';

const fs = require('fs');
const { Server, Origins } = require('boardgame.io/server');
const { makeGame } = require('./game');

const [port, boardPath, bagPath, rounds] = process.argv.slice(2);
const { game } = makeGame(JSON.parse(fs.readFileSync(boardPath)), JSON.parse(fs.readFileSync(bagPath)), Number(rounds));
const server = Server({ games: [game], origins: [Origins.LOCALHOST] });
server.run({ port: Number(port) }, () => console.log(`boardgame.io serving on ${port}`));
