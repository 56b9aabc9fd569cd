// Plays N random moves of the peer's game in process (no server) and prints, per state, the
// positions, face-up Locations, player on turn and the legal commands the peer offers; bench.compare
// asks Chronicle's rules for the same states and checks both offer exactly the same commands.
// node same-rules.js BOARD.json BAG.json N SEED
'use strict';

const fs = require('fs');
const { Client } = require('boardgame.io/client');
const { makeGame } = require('./game');

const [boardPath, bagPath, count, seedText] = process.argv.slice(2);
const { game, legal } = makeGame(JSON.parse(fs.readFileSync(boardPath)), JSON.parse(fs.readFileSync(bagPath)), 100000);
const client = Client({ game, numPlayers: 2, debug: false });
client.start();
let seed = Number(seedText) || 1;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const states = [];
for (let i = 0; i < Number(count); i++) {
  const { G, ctx } = client.getState();
  const options = legal(G, ctx.currentPlayer);
  states.push({ positions: G.positions, faceUp: G.faceUp, player: Number(ctx.currentPlayer), legal: options });
  const [name, ...args] = options[Math.floor(rand() * options.length)];
  client.moves[name](...args);
}
console.log(JSON.stringify(states));
