// The board page: one place that holds the state the engine last confirmed, the turn being built
// (each placement confirmed by `next`), and the actions of the buttons. Every rule comes from the
// engine: what a cell accepts, whose turn it is, what a move scores, when the game ends.

import { EngineClient, EngineError, ConnectionClosed } from './protocol.js';
import * as P from './parse.js';
import { BoardView } from './board.js';
import { renderSheets } from './sheets.js';
import { NewGameDialog, newgameArgs, PRESET } from './dialog.js';

const $ = (sel) => document.querySelector(sel);

/** How long the engine thinks for a hint, ms. */
const HINT_MS = 1000;
/** The protocol's line limit. */
const MAX_LINE = 65536;

const state = {
  engine: null,
  connected: false,
  variants: [],
  geometry: null,
  // What the engine last confirmed.
  position: null,
  status: null,
  score: null,
  history: '',
  // Who sits where (the engine does not know: this is the page's own setting).
  seats: [
    { kind: 'human', movetime: 1000 },
    { kind: 'engine', movetime: 1000 },
  ],
  // The human turn being built.
  selected: null, // index into the mover's hand
  pending: [], // [{value, cell, index}], each confirmed by `next`
  next: null, // parsed `next` for `pending`
  passOk: false,
  preview: [],
  lastMove: new Set(),
  busy: false,
  thinking: null, // the promise of a running `go`
  generation: 0, // bumped by a new game or a load: stale loops stop
  multipv: 1,
  infos: new Map(), // multipv -> latest parsed info of the running go
};

const board = new BoardView($('#board'), (cell) => onCell(cell));
const dialog = new NewGameDialog($('#new-game-dialog'), (game) => startGame(game));

// ---- errors -------------------------------------------------------------------------------

function showError(e) {
  const text = e instanceof EngineError ? `${e.command.split(' ')[0]}: ${e.message}` : String(e.message || e);
  $('#error').textContent = text;
  $('#error-box').hidden = false;
}

$('#error-dismiss').addEventListener('click', () => {
  $('#error-box').hidden = true;
});

/** Runs one user action at a time; an error is shown, never thrown. */
async function act(task) {
  if (state.busy) return;
  state.busy = true;
  updateButtons();
  try {
    await task();
  } catch (e) {
    if (!(e instanceof ConnectionClosed)) showError(e);
  } finally {
    state.busy = false;
    updateButtons();
  }
}

function call(command) {
  return state.engine.call(command);
}

// ---- connection ---------------------------------------------------------------------------

/** The last lines both ways, for a person (or a test) looking into what happened: `zatreLog()`. */
const transcript = [];
function keep(line) {
  transcript.push(line.length > 300 ? `${line.slice(0, 300)}…` : line);
  if (transcript.length > 400) transcript.splice(0, transcript.length - 400);
}
window.zatreLog = () => transcript.join('\n');

async function connect() {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  const engine = new EngineClient(url);
  state.engine = engine;
  engine.addEventListener('info', (ev) => onInfo(ev.detail));
  engine.addEventListener('sent', (ev) => keep(`> ${ev.detail}`));
  engine.addEventListener('line', (ev) => keep(`< ${ev.detail}`));
  engine.addEventListener('stray', (ev) => showError(new Error(`the engine said: ${ev.detail}`)));
  engine.addEventListener('close', (ev) => onClose(ev.detail));
  $('#connection').hidden = true;
  $('#turn-line').textContent = 'connecting to the engine…';
  await engine.connect();
  state.connected = true;
  state.multipv = 1;
  const version = (await call('protocol_version'))[0];
  if (Number(version) < 2) throw new Error(`this board needs protocol version 2; the engine speaks ${version}`);
  state.variants = P.variants(await call('variants'));
  dialog.setVariants(state.variants, await readPresets(state.variants));
}

/**
 * What each preset means, as the engine plays it: a game started with only the preset, its rule
 * options read back from `position`. A preset sets the options in which the presets differ.
 * Run on a fresh engine, before any game of the page's own.
 */
async function readPresets(variants) {
  const out = {};
  for (const v of variants) {
    const rule = v.rules.find((r) => r.name === PRESET);
    if (!rule || rule.kind !== 'choice') continue;
    const games = {};
    for (const preset of rule.spec.split(',')) {
      await call(`newgame variant ${v.name} players ${v.def} ${PRESET}=${preset}`);
      games[preset] = P.position((await call('position'))[0] || '').fields;
    }
    const names = v.rules.map((r) => r.name).filter((n) => n !== PRESET);
    const values = Object.values(games);
    const set = names.filter((n) => values.some((f) => f[n] !== values[0][n]));
    out[v.name] = {};
    for (const [preset, f] of Object.entries(games)) {
      out[v.name][preset] = Object.fromEntries(set.map((n) => [n, f[n]]));
    }
  }
  await call('newgame');
  return out;
}

function onClose({ code, reason }) {
  state.connected = false;
  state.thinking = null;
  state.generation++;
  const why = reason || `connection closed (${code})`;
  $('#connection-text').textContent =
    code === 4002 ? `No engine for this page: ${why}.` : `The engine is gone: ${why}.`;
  $('#connection').hidden = false;
  $('#turn-line').textContent = 'no engine';
  updateButtons();
}

$('#reconnect').addEventListener('click', () =>
  act(async () => {
    const restore = state.history;
    await connect();
    if (restore) {
      await call(`position ${restore}`);
    }
    await loadBoard();
    await refresh();
  }).then(() => advance()),
);

// ---- the confirmed state ------------------------------------------------------------------

async function loadBoard() {
  state.geometry = P.geometry(await call('geometry'));
  board.build(state.geometry);
}

/** Reads position, status, score and history from the engine and redraws. */
async function refresh() {
  const [pos, st, sc, hist] = await Promise.all([call('position'), call('status'), call('score'), call('history')]);
  state.position = P.position(pos[0] || '');
  state.status = P.status(st);
  state.score = P.score(sc);
  state.history = hist.join(' ');
  $('#history').value = state.history ? `position ${state.history}` : '';
  while (state.seats.length < state.position.players) state.seats.push({ kind: 'engine', movetime: 1000 });
  state.selected = null;
  state.pending = [];
  state.next = null;
  state.passOk = false;
  state.preview = [];
  $('#hints').replaceChildren();
  render();
}

function seatOf(n) {
  return state.seats[n - 1] || { kind: 'human', movetime: 1000 };
}

function moverIsHuman() {
  return state.status && state.status.phase !== 'over' && seatOf(state.status.tomove).kind === 'human';
}

// ---- drawing ------------------------------------------------------------------------------

function accepts() {
  const out = new Set();
  if (state.selected === null || !state.next) return out;
  const value = moverHand()[state.selected];
  for (const p of state.next.next) if (p.value === value) out.add(p.cell);
  return out;
}

function moverHand() {
  if (!state.position || !state.status) return [];
  return state.position.hands[state.status.tomove - 1] || [];
}

function render() {
  if (!state.position || !state.status) return;
  const s = state.status;
  board.render({
    tiles: state.position.board,
    pending: state.pending,
    accepts: accepts(),
    preview: state.preview,
    last: state.lastMove,
  });
  renderHand();
  renderBag();
  const variant = state.variants.find((v) => v.name === state.position.variant);
  renderSheets($('#sheets'), state.score, {
    boxes: variant ? variant.boxes : ['a', 'b', 'c'],
    tomove: s.phase === 'over' ? 0 : s.tomove,
    seats: state.seats,
    hands: state.position.hands,
  });
  $('#status').textContent = s.line;
  const who = `player ${s.tomove} (${seatOf(s.tomove).kind})`;
  let line;
  if (s.phase === 'over') line = `Turn ${s.turn} · game over`;
  else if (s.phase === 'draw') line = `Turn ${s.turn} · ${who} draws${s.due ? ` ${s.due}` : ''}`;
  else line = `Turn ${s.turn} · ${who} to place`;
  $('#turn-line').textContent = `${state.position.variant}, ${state.position.players} player(s) · ${line}`;
  renderResult();
  renderMoveInfo();
  updateButtons();
}

function renderHand() {
  const box = $('#hand');
  box.replaceChildren();
  const s = state.status;
  $('#hand-owner').textContent = s.phase === 'over' ? '–' : `player ${s.tomove}`;
  const hand = moverHand();
  const used = new Set(state.pending.map((p) => p.index));
  const clickable = moverIsHuman() && s.phase === 'place';
  hand.forEach((value, index) => {
    if (used.has(index)) return;
    const t = document.createElement('button');
    t.type = 'button';
    t.className = 'tile hand-tile';
    t.textContent = String(value);
    t.dataset.value = String(value);
    if (clickable) {
      t.dataset.handTile = String(index);
      if (state.selected === index) t.classList.add('selected');
      t.addEventListener('click', () => selectTile(index));
    } else {
      t.disabled = true;
    }
    box.appendChild(t);
  });
  if (!hand.length) {
    const empty = document.createElement('span');
    empty.className = 'muted';
    empty.textContent = s.phase === 'draw' ? 'not drawn yet' : 'empty';
    box.appendChild(empty);
  }
}

function renderBag() {
  const bag = state.position.bag;
  const box = $('#bag');
  box.replaceChildren();
  if (!bag) {
    box.textContent = 'no bag: dice';
    return;
  }
  bag.forEach((count, i) => {
    const item = document.createElement('span');
    item.className = 'bag-item';
    item.dataset.bagValue = String(i + 1);
    const tile = document.createElement('span');
    tile.className = 'tile mini';
    tile.textContent = String(i + 1);
    item.append(tile, document.createTextNode(`× ${count}`));
    box.appendChild(item);
  });
  const sum = document.createElement('span');
  sum.className = 'muted';
  sum.textContent = `${bag.reduce((a, b) => a + b, 0)} in all`;
  box.appendChild(sum);
}

function renderResult() {
  const s = state.status;
  const box = $('#result');
  box.hidden = s.phase !== 'over';
  if (s.phase !== 'over') return;
  const reasons = {
    no_move: 'no player could move any more',
    roll: 'a roll ended the game',
    rounds: 'the set number of rounds is played',
  };
  $('#end-reason').textContent = `End: ${reasons[s.end] ? `${reasons[s.end]} (${s.end})` : s.end || '?'}`;
  $('#ranking').replaceChildren(
    ...s.ranking.map((r) => {
      const li = document.createElement('li');
      li.textContent = `${r.rank}. ${r.kind} ${r.n}: ${r.total}`;
      li.dataset.rank = String(r.rank);
      if (r.rank === 1) li.className = 'winner';
      return li;
    }),
  );
}

function renderMoveInfo() {
  const box = $('#move-info');
  if (!moverIsHuman() || state.status.phase !== 'place') {
    box.textContent = '';
    return;
  }
  if (state.pending.length === 0) {
    box.textContent = state.passOk ? 'No tile fits: pass.' : 'Pick a tile from your hand, then a lit cell.';
  } else if (state.next && state.next.complete === 'yes') {
    box.textContent = state.next.next.length ? 'A legal move: submit it, or add more tiles.' : 'A legal move: submit it.';
  } else {
    box.textContent = 'Not a complete move yet: add more tiles.';
  }
}

function updateButtons() {
  const s = state.status;
  // For tests and screen readers: whether the page waits on the engine.
  document.body.dataset.busy = state.busy || state.thinking ? 'yes' : 'no';
  const live = state.connected && !state.busy;
  const human = live && moverIsHuman();
  const place = human && s && s.phase === 'place';
  $('#new-game').disabled = !state.connected;
  $('#save-load').disabled = !state.connected;
  $('#draw').disabled = !(human && s.phase === 'draw');
  $('#submit').disabled = !(place && state.pending.length > 0 && state.next && state.next.complete === 'yes');
  $('#take-back').disabled = !(place && state.pending.length > 0);
  $('#pass').disabled = !(place && state.pending.length === 0 && state.passOk);
  $('#hint').disabled = !place;
  // Undo goes back to a human's turn, so a game of engines alone has none.
  const anyHuman = state.seats.some((seat) => seat.kind === 'human');
  $('#undo').disabled = !(live && anyHuman && s && !(s.turn === 1 && s.phase === 'draw'));
  for (const t of document.querySelectorAll('#hand [data-hand-tile]')) t.disabled = !place;
  let turn = 'wait';
  if (s && s.phase === 'over') turn = 'over';
  else if (live && moverIsHuman() && s.phase === 'draw') turn = 'draw';
  else if (live && moverIsHuman() && s.phase === 'place' && state.next) turn = 'place';
  document.body.dataset.turn = turn;
}

// ---- the human turn -----------------------------------------------------------------------

/** Asks the engine which placements can follow `pending`. */
async function askNext(pending) {
  const arg = pending.map((p) => `${p.value}@${p.cell}`).join(',');
  return P.next(await call(arg ? `next ${arg}` : 'next'));
}

async function startTurn() {
  state.pending = [];
  state.selected = null;
  state.next = await askNext([]);
  state.passOk = state.next.complete === 'yes';
  render();
}

function selectTile(index) {
  if (state.busy || !moverIsHuman() || state.status.phase !== 'place') return;
  state.selected = state.selected === index ? null : index;
  render();
}

function onCell(cell) {
  if (!moverIsHuman() || state.status.phase !== 'place') return;
  const at = state.pending.findIndex((p) => p.cell === cell);
  if (at >= 0) {
    // Take back this tile and the ones put down after it.
    act(async () => {
      const rest = state.pending.slice(0, at);
      const next = await askNext(rest);
      state.pending = rest;
      state.next = next;
      state.selected = null;
      render();
    });
    return;
  }
  if (state.selected === null || !accepts().has(cell)) return;
  const value = moverHand()[state.selected];
  const index = state.selected;
  act(async () => {
    const tried = [...state.pending, { value, cell, index }];
    const next = await askNext(tried);
    state.pending = tried;
    state.next = next;
    state.preview = [];
    state.selected = null;
    render();
  });
}

$('#draw').addEventListener('click', () =>
  act(async () => {
    await call('draw');
    await refresh();
  }).then(() => advance()),
);

$('#submit').addEventListener('click', () =>
  act(async () => {
    const move = state.pending.map((p) => `${p.value}@${p.cell}`).join(',');
    await call(`place ${move}`);
    state.lastMove = new Set(state.pending.map((p) => p.cell));
    await refresh();
  }).then(() => advance()),
);

$('#take-back').addEventListener('click', () => act(startTurn));

$('#pass').addEventListener('click', () =>
  act(async () => {
    await call('place pass');
    state.lastMove = new Set();
    await refresh();
  }).then(() => advance()),
);

$('#undo').addEventListener('click', () =>
  act(async () => {
    await stopThinking();
    state.generation++;
    // Take back until a human is to place again (or nothing is left to take back).
    for (;;) {
      const r = await state.engine.request('undo');
      if (!r.ok) {
        if (r.code !== 'cannot_undo') throw new EngineError(r.code, r.message, 'undo');
        break;
      }
      const st = P.status(await call('status'));
      if (st.phase === 'place' && seatOf(st.tomove).kind === 'human') break;
    }
    state.lastMove = new Set();
    await refresh();
    if (moverIsHuman() && state.status.phase === 'place') await startTurn();
  }),
);

// ---- hints and engine seats ---------------------------------------------------------------

function onInfo(line) {
  const info = P.info(line);
  const k = Number(info.multipv || 1);
  state.infos.set(k, info);
  const best = state.infos.get(1) || info;
  const parts = [`depth ${best.depth}`, `score ${best.score}`];
  if (best.winprob !== undefined) parts.push(`win ${Math.round(Number(best.winprob) * 100)}%`);
  parts.push(`${best.nodes} nodes`, `${best.time} ms`, best.pv || '');
  $('#engine-info').textContent = `engine thinking: ${parts.join(' · ')}`;
}

/** Runs `go <limits>`, showing its progress; resolves with the bestmove and the last infos. */
async function think(limits) {
  state.infos = new Map();
  $('#engine-info').textContent = 'engine thinking…';
  const going = call(`go ${limits}`);
  state.thinking = going;
  try {
    const best = P.bestmove(await going);
    return { best, infos: new Map(state.infos) };
  } finally {
    if (state.thinking === going) state.thinking = null;
  }
}

async function stopThinking() {
  const going = state.thinking;
  if (!going) return;
  await state.engine.request('stop');
  try {
    await going;
  } catch {
    // its result is not wanted
  }
}

$('#hint').addEventListener('click', () =>
  act(async () => {
    if (state.multipv !== 3) {
      await call('setoption name MultiPV value 3');
      state.multipv = 3;
    }
    const { best, infos } = await think(`movetime ${HINT_MS}`);
    const list = [...infos.entries()].sort((a, b) => a[0] - b[0]).map(([, i]) => i).slice(0, 3);
    if (!list.length) list.push({ pv: best.move, score: best.score });
    const box = $('#hints');
    box.replaceChildren(
      ...list.map((i, k) => {
        const li = document.createElement('li');
        li.className = 'hint';
        li.dataset.hint = String(k + 1);
        const win = i.winprob !== undefined ? ` · win ${(Number(i.winprob) * 100).toFixed(1)}%` : '';
        li.textContent = `${i.pv} · score ${i.score}${win}`;
        li.title = 'show on the board';
        li.addEventListener('click', () => {
          state.preview = P.placements(i.pv);
          render();
        });
        return li;
      }),
    );
    state.preview = P.placements(list[0].pv || best.move);
    $('#engine-info').textContent = `hint: ${best.move} (score ${best.score})`;
    render();
  }),
);

/** Plays the engine seats and the automatic draws until a human has to act or the game ends. */
async function advance() {
  const gen = state.generation;
  while (gen === state.generation && state.connected && !state.busy) {
    const s = state.status;
    if (!s || s.phase === 'over' || $('#new-game-dialog').open) return;
    const seat = seatOf(s.tomove);
    let progressed = false;
    await act(async () => {
      if (seat.kind === 'engine') {
        if (s.phase === 'draw') {
          await call('draw');
        } else {
          const { best } = await think(`movetime ${seat.movetime}`);
          if (gen !== state.generation) return;
          await call(`place ${best.move}`);
          state.lastMove = new Set(P.placements(best.move).map((p) => p.cell));
          $('#engine-info').textContent = `player ${s.tomove} played ${best.move} (engine's eval ${best.score})`;
        }
        await refresh();
        progressed = true;
      } else if (s.phase === 'draw' && $('#auto-draw').checked) {
        await call('draw');
        await refresh();
        progressed = true;
      } else if (s.phase === 'place' && !state.next) {
        await startTurn();
      }
    });
    if (!progressed) return;
    // Let the page paint between moves.
    await new Promise((r) => setTimeout(r, 30));
  }
}

// ---- new game, save and load --------------------------------------------------------------

$('#new-game').addEventListener('click', () => dialog.open());

$('#new-game-dialog').addEventListener('close', () => advance());

/** Stops what the engine seats are doing (a running `go`), and waits until the page is idle. */
async function interrupt() {
  state.generation++;
  await stopThinking();
  while (state.busy) await new Promise((r) => setTimeout(r, 20));
}

async function startGame(game) {
  await interrupt();
  await act(async () => {
    await call(`newgame ${newgameArgs(game)}`);
    state.seats = game.seats;
    state.lastMove = new Set();
    $('#engine-info').textContent = '';
    await loadBoard();
    await refresh();
    $('#new-game-dialog').close();
  });
  advance();
}

$('#save-load').addEventListener('click', () => {
  $('#save-dialog').showModal();
});
$('#close-save').addEventListener('click', () => $('#save-dialog').close());
$('#save-dialog').addEventListener('close', () => advance());

$('#load').addEventListener('click', async () => {
  let line = $('#load-line').value.trim().replace(/\s+/g, ' ');
  if (line.startsWith('position ')) line = line.slice('position '.length);
  if (!line) {
    showError(new Error('paste a position line first'));
    return;
  }
  if (line.length + 20 > MAX_LINE) {
    showError(new Error('that line is longer than the protocol allows'));
    return;
  }
  await interrupt();
  await act(async () => {
    await call(`position ${line}`);
    state.lastMove = new Set();
    await loadBoard();
    await refresh();
    $('#save-dialog').close();
  });
  advance();
});

// ---- start --------------------------------------------------------------------------------

window.addEventListener('beforeunload', () => state.engine && state.engine.close());

act(async () => {
  await connect();
  await loadBoard();
  await refresh();
  dialog.open();
});
