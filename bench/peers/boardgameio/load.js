// The load driver for boardgame.io, the same shape as python -m bench.load: G matches x
// (P players + S spectators) as real boardgame.io clients (socket.io over WebSocket only); the
// player on turn sends a random legal move once the previous one reached every client of its
// match (no sooner than its share of the target rate); a move counts when every client of its
// match received the server's update for it. Bytes are the socket.io payloads received, and the
// bytes on the wire: what each client's TCP socket read (WebSocket headers included, after
// permessage-deflate when the server negotiated it; socket.io's client always offers it).
// node load.js '{"url": "http://127.0.0.1:PORT", "games": 10, ...}'  -> one JSON line
'use strict';

const fs = require('fs');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { makeGame } = require('./game');

const opts = JSON.parse(process.argv[2]);
const { game, legal } = makeGame(JSON.parse(fs.readFileSync(opts.board)), JSON.parse(fs.readFileSync(opts.bag)),
  opts.rounds);
const MOVE_TIMEOUT_MS = 5000; // boardgame.io answers nothing to a refused move: give up on it after this

let seed = opts.seed || 1;
function rand() { // a small seeded generator, so that runs repeat
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}

async function post(path, body) {
  const response = await fetch(`${opts.url}${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

const counting = { on: false };

function watch(match, client) {
  const view = { client, stateID: -1, state: null, bytes: 0 };
  const attach = () => {
    const socket = client.transport.socket;
    const take = (state) => {
      if (state && state._stateID > view.stateID) {
        view.stateID = state._stateID;
        view.state = state;
        match.progressed();
      }
    };
    socket.on('sync', (_id, info) => take(info.state));
    socket.on('update', (_id, state) => take(state));
    // Each engine (a reconnection makes a new one) counted once: the engine may exist already when
    // this runs and then also announce 'open', and listening twice counted every packet twice.
    const counted = new WeakSet();
    const count = (engine) => {
      if (!engine || counted.has(engine)) return;
      counted.add(engine);
      engine.on('packet', (packet) => {
        if (counting.on && typeof packet.data === 'string') view.bytes += Buffer.byteLength(packet.data) + 1;
      });
    };
    socket.io.on('open', () => count(socket.io.engine));
    count(socket.io.engine);
  };
  view.attach = attach;
  return view;
}

class Match {
  constructor(matchID) {
    this.matchID = matchID;
    this.views = [];
    this.target = Infinity;
    this.resolve = null;
  }
  progressed() {
    if (this.resolve && this.views.every((v) => v.stateID >= this.target)) {
      const resolve = this.resolve;
      this.resolve = null;
      resolve(performance.now());
    }
  }
}

// CPU time (user + system, s) of a process from /proc/<pid>/stat, as bench/load.py's cpu_seconds reads it;
// with tree, also its reaped children's (cutime + cstime) and every live descendant's.
function stat(pid) { return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').pop().trim().split(/\s+/); }
function cpuSeconds(pid, tree) {
  const pids = [pid];
  if (tree) {
    const parents = new Map();
    for (const name of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
      try {
        const ppid = stat(name)[1];
        parents.set(ppid, [...(parents.get(ppid) || []), name]);
      } catch { /* it ended while we looked */ }
    }
    for (const parent of pids) pids.push(...(parents.get(String(parent)) || []));
  }
  let ticks = 0;
  for (const each of pids) {
    try {
      ticks += stat(each).slice(11, tree ? 15 : 13).reduce((sum, n) => sum + Number(n), 0);
    } catch { /* it ended while we looked */ }
  }
  return ticks / opts.clkTck;
}

// What a client's TCP socket has read so far: its engine.io WebSocket transport's ``ws`` socket.
function tcpRead(view) {
  const engine = view.client.transport.socket.io.engine;
  const ws = engine && engine.transport && engine.transport.ws;
  return ws && ws._socket ? ws._socket.bytesRead : 0;
}

function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }

async function drive(match, players, interval, results, stop) {
  let nextAt = performance.now();
  while (!stop.done) {
    if (interval) {
      const delay = nextAt - performance.now();
      if (delay > 0) await sleep(delay);
      nextAt = Math.max(nextAt + interval, performance.now() - interval);
    }
    const latest = players[0].state;
    const current = latest.ctx.currentPlayer;
    const mover = players[Number(current)];
    const options = legal(latest.G, current);
    const [name, ...args] = options[Math.floor(rand() * options.length)];
    match.target = latest._stateID + 1;
    const started = performance.now();
    const reached = new Promise((resolve) => { match.resolve = resolve; });
    mover.client.moves[name](...args);
    match.progressed();
    const finished = await Promise.race([reached, sleep(MOVE_TIMEOUT_MS).then(() => null)]);
    if (finished === null) {
      results.refused += 1;
      match.resolve = null;
      continue;
    }
    if (counting.on) results.latencies.push(finished - started);
  }
}

async function main() {
  const results = { latencies: [], refused: 0 };
  const matches = [];
  for (let g = 0; g < opts.games; g++) {
    const { matchID } = await post('/games/mecha/create', { numPlayers: opts.players });
    const match = new Match(matchID);
    const players = [];
    for (let p = 0; p < opts.players; p++) {
      const { playerCredentials } = await post(`/games/mecha/${matchID}/join`, { playerID: String(p), playerName: `p${p}` });
      const client = Client({ game, matchID, playerID: String(p), credentials: playerCredentials, debug: false,
        multiplayer: SocketIO({ server: opts.url, socketOpts: { transports: ['websocket'] } }) });
      players.push(watch(match, client));
    }
    const spectators = [];
    for (let s = 0; s < opts.spectators; s++) {
      const client = Client({ game, matchID, debug: false,
        multiplayer: SocketIO({ server: opts.url, socketOpts: { transports: ['websocket'] } }) });
      spectators.push(watch(match, client));
    }
    match.views = [...players, ...spectators];
    for (const view of match.views) {
      view.client.start();
      view.attach();
    }
    matches.push({ match, players });
  }
  const deadline = performance.now() + 30000;
  while (matches.some(({ match }) => match.views.some((v) => v.stateID < 0))) {
    if (performance.now() > deadline) throw new Error('clients did not sync within 30 s');
    await sleep(10);
  }
  const views = () => matches.flatMap(({ match }) => match.views);
  const stop = { done: false };
  const interval = opts.rate ? (1000 * opts.games) / opts.rate : 0;
  const drivers = matches.map(({ match, players }) => drive(match, players, interval, results, stop));
  await sleep(opts.warmup * 1000);
  counting.on = true;
  const wireBefore = views().map(tcpRead);
  const serverBefore = cpuSeconds(opts.serverPid, true);
  const ownBefore = cpuSeconds(process.pid, false);
  const started = performance.now();
  await sleep(opts.seconds * 1000);
  counting.on = false;
  const window = (performance.now() - started) / 1000;
  const wireAfter = views().map(tcpRead);
  const serverCpu = cpuSeconds(opts.serverPid, true) - serverBefore;
  const ownCpu = cpuSeconds(process.pid, false) - ownBefore;
  stop.done = true;
  await Promise.race([Promise.all(drivers), sleep(MOVE_TIMEOUT_MS + 1000)]);
  const latencies = results.latencies.sort((a, b) => a - b);
  const pick = (f) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(f * latencies.length))] : NaN);
  const done = latencies.length;
  const wire = wireAfter.reduce((sum, n, i) => sum + n - wireBefore[i], 0);
  console.log(JSON.stringify({
    engine: 'boardgame.io', commands: done, window_s: window, commands_per_s: done / window, refused: results.refused,
    p50_ms: pick(0.5), p95_ms: pick(0.95), p99_ms: pick(0.99),
    bytes_per_command_per_client: views().reduce((sum, v) => sum + v.bytes, 0) / Math.max(done, 1) / (opts.players + opts.spectators),
    wire_bytes_per_command_per_client: wire / Math.max(done, 1) / (opts.players + opts.spectators),
    server_cpu_pct: (serverCpu / window) * 100, server_cpu_us_per_command: (serverCpu / Math.max(done, 1)) * 1e6,
    driver_cpu_pct: (ownCpu / window) * 100,
  }));
  for (const view of views()) view.client.stop();
  process.exit(0);
}

main().catch((error) => { console.error(error); process.exit(1); });
