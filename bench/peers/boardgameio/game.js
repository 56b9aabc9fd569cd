// Expeditions' Move (Chronicle's `mecha`) for boardgame.io 0.50: the rules of
// events/games/mecha/rules.py, clause by clause, on the same board and bag files.
//   MV-1 a Move ends in a free Location; MV-2 the Camp only leads out, through its 3 exits;
//   MV-3 Range counts the shortest legal route; MV-4 occupied Locations are passed through;
//   MV-5 no destination at all: the Mecha stays; MV-6 a face-down Location ends the move, is
//   revealed (map token -> plan token), then Corruption is drawn until its level is reached;
//   MV-7 Location 20 gets the value-20 token; MV-8 an empty bag stops the drawing.
// Rules only: no view, no I/O. `makeGame(board, bag, rounds)` takes the parsed JSON files and
// returns { game, legal }.
'use strict';

const { INVALID_MOVE } = require('boardgame.io/core');

const HEX_DIRECTIONS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];

function neighbourTable(board) {
  const byHex = new Map(board.locations.map((l) => [l.hex.join(','), l.number]));
  const table = {};
  for (const location of board.locations) {
    const near = [];
    for (const [dq, dr] of HEX_DIRECTIONS) {
      const other = byHex.get(`${location.hex[0] + dq},${location.hex[1] + dr}`);
      if (other !== undefined) near.push(other);
    }
    table[location.number] = near.sort((a, b) => a - b);
  }
  return table;
}

// Breadth-first, neighbours in sorted order, as events/geometry/graph.py's graph_within.
function within(table, start, maxSteps, mayContinue, firstSteps) {
  const paths = new Map();
  const seen = new Set([start]);
  let frontier = [[start, []]];
  for (let step = 0; step < maxSteps; step++) {
    const next = [];
    for (const [place, path] of frontier) {
      if (path.length && !mayContinue(place)) continue;
      const options = !path.length && firstSteps ? firstSteps : table[place] || [];
      for (const to of [...options].sort((a, b) => a - b)) {
        if (seen.has(to)) continue;
        seen.add(to);
        const longer = [...path, to];
        paths.set(to, longer);
        next.push([to, longer]);
      }
    }
    frontier = next;
  }
  return paths;
}

function makeGame(board, bag, rounds, range = [1, 3]) {
  const table = neighbourTable(board);
  const levels = Object.fromEntries(board.locations.map((l) => [l.number, l.level || 0]));
  const campExits = [...board.camp.adjacent].sort((a, b) => a - b);

  function destinations(G, index) {
    const here = G.positions[index];
    const occupied = new Set(G.positions.filter((p) => p !== null));
    const faceUp = new Set(G.faceUp);
    const reach = within(table, here, range[1], (place) => faceUp.has(place), here === null ? campExits : null);
    const out = new Map();
    for (const [place, path] of reach) {
      if (!occupied.has(place) && place !== here && path.length >= range[0]) out.set(place, path);
    }
    return out;
  }

  function take(tokens, token) {
    const out = [];
    for (let [value, colour, count] of tokens) {
      if (value === token[0] && colour === token[1]) count -= 1;
      if (count) out.push([value, colour, count]);
    }
    return out;
  }

  function reveal(G, index, number, random) {
    if (G.mapTokens.includes(number)) {
      G.plans[index].push(number);
      G.mapTokens = G.mapTokens.filter((p) => p !== number);
    }
    G.revealed[index].push(number);
    G.faceUp = [...G.faceUp, number].sort((a, b) => a - b);
    const stack = (G.stacks[number] = G.stacks[number] || []);
    if (number === 20 && G.token20) {
      stack.push(G.token20);
      G.token20 = null;
      return;
    }
    let total = 0;
    while (total < levels[number]) {
      const tokens = G.bag.flatMap(([value, colour, count]) => Array(count).fill([value, colour]));
      if (!tokens.length) break; // MV-8
      const token = tokens[Math.floor(random.Number() * tokens.length)];
      G.bag = take(G.bag, token);
      total += token[0];
      stack.push(token);
    }
  }

  // The commands Chronicle's `legal` offers: each destination, or Move(None), then Pass.
  function legal(G, playerID) {
    const options = [...destinations(G, Number(playerID)).keys()].sort((a, b) => a - b);
    const moves = options.length ? options.map((to) => ['move', to]) : [['move', null]];
    return [...moves, ['pass']];
  }

  const token20 = bag.tokens.find((t) => t.value === 20);
  const game = {
    name: 'mecha',
    setup: ({ ctx }) => ({
      positions: Array(ctx.numPlayers).fill(null),
      faceUp: board.locations.filter((l) => l.face_up).map((l) => l.number),
      mapTokens: board.locations.filter((l) => l.map_token).map((l) => l.number),
      stacks: {},
      bag: bag.tokens.filter((t) => t.value !== 20).map((t) => [t.value, t.colour, t.count]),
      token20: token20 ? [20, token20.colour] : null,
      plans: Array.from({ length: ctx.numPlayers }, () => []),
      revealed: Array.from({ length: ctx.numPlayers }, () => []),
    }),
    turn: { minMoves: 1, maxMoves: 1 },
    moves: {
      move: ({ G, playerID, random }, to) => {
        const index = Number(playerID);
        const options = destinations(G, index);
        if (to === null || to === undefined) return options.size ? INVALID_MOVE : undefined; // MV-5
        if (!options.has(to)) return INVALID_MOVE;
        G.positions[index] = to;
        if (!G.faceUp.includes(to)) reveal(G, index, to, random);
        return undefined;
      },
      pass: () => {},
    },
    endIf: ({ ctx }) => (ctx.turn > rounds * ctx.numPlayers ? { rounds } : undefined),
  };
  return { game, legal };
}

module.exports = { makeGame, neighbourTable };
