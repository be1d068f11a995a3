// The turn being built by the person to place: picking a hand tile, putting it on a cell (each
// placement confirmed by `next`), a refused cell said in words, taking tiles back, Submit and
// Pass, the hints (`go` with MultiPV 3, each with its `score` points) and playing one; the keys
// 0-9 and Escape.

import * as P from './parse.js';
import { t } from './i18n.js';
import { say, sayPlayed } from './announce.js';
import { PageError } from './errors.js';
import { act, call, request, refresh, think } from './connection.js';
import { board, render, renderHints, engineSays, moveInfoWords, refusalWords, hintWords } from './view.js';
import {
  state,
  accepts,
  moverHand,
  humanPlaces,
  usedIndexes,
  turnStarted,
  tilePicked,
  tilePutBack,
  tilePlaced,
  tilesTakenBack,
  hintPutDown,
  refused,
  hintsFound,
  hintShown,
  multipvSet,
  moved,
} from './state.js';

/** How long the engine thinks for a hint, ms. */
const HINT_MS = 1000;
/** A second tap on a tile just put down, sooner than this (ms), is the tail of a double tap. */
const DOUBLE_TAP_MS = 600;

/** Placements in the protocol's notation: `5@h8,3@h9`. */
function placementsArg(pending) {
  return pending.map((p) => `${p.value}@${p.cell}`).join(',');
}

/** Asks the engine which placements can follow `pending`. */
async function askNext(pending) {
  const arg = placementsArg(pending);
  return P.next(await call(arg ? `next ${arg}` : 'next'));
}

/** A person's turn to place begins (or begins again, every tile back in the hand). */
export async function startTurn() {
  turnStarted(await askNext([]));
  render(state);
}

/** Whether the person to place may act now (no action of the page runs). */
function mayPlace() {
  return !state.busy && humanPlaces(state);
}

/** Picks hand tile `index` (or puts it back); `toBoard`: the focus goes on to a cell that takes it. */
export function selectTile(index, toBoard) {
  if (!mayPlace()) return;
  tilePicked(index);
  render(state);
  if (state.selected !== null) say(t('say.picked', { value: moverHand(state)[index], n: accepts(state).size }));
  if (toBoard && state.selected !== null) {
    const lit = accepts(state);
    if (!lit.has(board.focusName) && lit.size) board.setFocus([...lit][0], false);
    board.focus();
  }
}

/**
 * A click on hand tile `index` (`detail`: the click's count). A click from the keyboard (Enter,
 * Space: detail 0) goes on to the board. The second click of a double click or double tap
 * (detail 2) does not put the tile back at once.
 */
export function clickTile(index, detail) {
  if (detail >= 2 && state.selected === index) return;
  selectTile(index, detail === 0);
}

/** The picked tile back in the hand. */
function putBack() {
  tilePutBack();
  render(state);
}

/** A cell clicked (or Enter on it): the picked tile goes there, or a tile of this turn comes back. */
export function onCell(cell) {
  if (!mayPlace()) return;
  const at = state.pending.findIndex((p) => p.cell === cell);
  if (at >= 0) {
    // A double tap puts a tile down and would take it back at once: the second tap is ignored.
    const placed = state.placedAt;
    if (placed && placed.cell === cell && performance.now() - placed.time < DOUBLE_TAP_MS) return;
    takeBackFrom(at);
    return;
  }
  if (state.selected === null) {
    const empty = !state.position.board.some((tl) => tl.cell === cell);
    if (empty && state.next && (state.next.next.length || state.pending.length)) refuse({ cell, why: 'why.noTile' });
    return;
  }
  const value = moverHand(state)[state.selected];
  const index = state.selected;
  if (!accepts(state).has(cell)) {
    act(() => explainRefusal(value, cell));
    return;
  }
  act(async () => {
    const tried = [...state.pending, { value, cell, index }];
    const next = await askNext(tried);
    tilePlaced(tried, next, cell, performance.now());
    render(state);
    say(t('say.placed', { value, cell }) + ' ' + moveInfoWords(state));
  });
}

/** Shows and says why a cell did not take the tile (`{value, cell, why, params}`). */
function refuse(refusal) {
  refused(refusal);
  render(state);
  say(refusalWords(refusal));
}

/**
 * The page's sentence for each reason key of an `illegal_move` (PROTOCOL.md, "Version 3"); a key
 * not listed gets the general sentence.
 */
const WHY = {
  occupied: 'why.occupied',
  cell_twice: 'why.occupied',
  not_adjacent: 'why.neighbour',
  off_centre: 'why.centre',
  run_over_limit: 'why.sum',
  double_forbidden: 'why.double',
  double_not_forced: 'why.double',
  double_no_order: 'why.double',
  too_few: 'why.more',
  not_maximal: 'why.more',
  no_completion: 'why.more',
};

/**
 * Asks the engine why `value` may not go on `cell` now (`next` with it added: `illegal_move` and
 * the reason key of the rule it breaks), and says that rule in the page's words, chosen by the
 * key. Only the figures of a run over the limit come from the message: its last two numbers, the
 * sum and the limit, which PROTOCOL.md fixes for a program to read (the reason table).
 */
async function explainRefusal(value, cell) {
  const filled = state.position.board.some((tl) => tl.cell === cell);
  let why = 'why.other';
  let params = { value };
  if (filled) {
    why = 'why.occupied';
  } else {
    const r = await request(`next ${placementsArg([...state.pending, { value, cell }])}`);
    const reason = r.ok ? null : r.reason;
    why = WHY[reason] || 'why.other';
    // With a tile on the centre already (this turn's), a cell apart from it touches no tile.
    if (why === 'why.centre' && state.pending.some((p) => p.cell === state.geometry.centre)) why = 'why.neighbour';
    if (why === 'why.sum') {
      const figures = String(r.message || '').match(/\d+/g) || [];
      if (figures.length < 2) why = 'why.other';
      else params = { sum: figures[figures.length - 2], limit: figures[figures.length - 1] };
    }
  }
  refuse({ value, cell, why, params });
}

/** Says the values taken back, and what the turn needs now. */
function sayTakenBack(values) {
  say(`${t('say.takenBack', { values: values.join(', '), n: values.length })} ${moveInfoWords(state)}`);
}

/** Takes back pending tile `at` and the ones put down after it. */
function takeBackFrom(at) {
  act(async () => {
    const rest = state.pending.slice(0, at);
    const taken = state.pending.slice(at).map((p) => p.value);
    tilesTakenBack(rest, await askNext(rest));
    render(state);
    sayTakenBack(taken);
  });
}

/** Take back: every tile of this turn back in the hand. */
export function takeBackAll() {
  return act(async () => {
    const taken = state.pending.map((p) => p.value);
    await startTurn();
    sayTakenBack(taken);
  });
}

/**
 * A key outside a field: a digit picks a hand tile of that value (the kids' dice show 0 to 5),
 * Escape puts the picked tile back or takes the last tile of this turn back.
 */
export function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const target = ev.target;
  if (target && target.closest && target.closest('input, select, textarea, dialog')) return;
  if (!state.status || !mayPlace()) return;
  if (/^[0-9]$/.test(ev.key)) {
    const value = Number(ev.key);
    const used = usedIndexes(state);
    const index = moverHand(state).findIndex((v, i) => v === value && !used.has(i));
    if (index < 0) return;
    ev.preventDefault();
    const inBoard = target && target.closest && target.closest('#board');
    if (state.selected !== index) selectTile(index, false);
    if (inBoard) {
      const lit = accepts(state);
      if (!lit.has(board.focusName) && lit.size) board.setFocus([...lit][0], true);
    }
  } else if (ev.key === 'Escape') {
    if (state.selected !== null) {
      ev.preventDefault();
      putBack();
    } else if (state.pending.length) {
      ev.preventDefault();
      takeBackFrom(state.pending.length - 1);
    }
  }
}

/** Submit: plays this turn's tiles. */
export function submit() {
  return act(async () => {
    const move = placementsArg(state.pending);
    const placed = P.fields((await call(`place ${move}`))[0] || '');
    moved(state.pending.map((p) => p.cell));
    sayPlayed(state, { seat: state.status.tomove, move, points: Number(placed.points || 0) });
    await refresh();
  });
}

/** Pass: the turn with no tile (when `next` says no tile fits). */
export function pass() {
  return act(async () => {
    await call('place pass');
    moved([]);
    sayPlayed(state, { seat: state.status.tomove, move: 'pass', points: 0 });
    await refresh();
  });
}

// ---- hints ------------------------------------------------------------------------------------

/** The points and crosses a move would score now (`score <move>`). */
async function movePoints(move) {
  if (!P.placements(move).length) return { points: 0, crosses: 0 };
  const f = P.fields((await call(`score ${move}`))[0] || '');
  return { points: Number(f.points), crosses: Number(f.crosses) };
}

/** Hint: the engine's best three moves, the best shown on the board and said. */
export function hint() {
  return act(async () => {
    if (state.multipv !== 3) {
      await call('setoption name MultiPV value 3');
      multipvSet(3);
    }
    const { best, infos } = await think(`movetime ${HINT_MS}`);
    const list = [...infos.entries()].sort((a, b) => a[0] - b[0]).map(([, i]) => i).slice(0, 3);
    if (!list.length) list.push({ pv: best.move, score: best.score, winprob: best.winprob });
    const hints = [];
    for (const i of list) {
      const move = (i.pv || best.move).split(' ')[0];
      const { points, crosses } = await movePoints(move);
      hints.push({ move, points, crosses, score: i.score, winprob: i.winprob });
    }
    hintsFound(hints, P.placements(hints[0].move));
    renderHints(state);
    render(state);
    engineSays('');
    // Said: the best hint, as its button reads (the others follow it in the list).
    say(`${t('hint.list')}: ${hintWords(hints[0])}`);
  });
}

/** Shows a hint's tiles on the board. */
export function showHint(move) {
  hintShown(P.placements(move));
  render(state);
}

/** Puts a hint's tiles down as the pending move (each checked by `next`, as if placed by hand). */
export function playHint(move) {
  act(async () => {
    const hand = moverHand(state);
    const used = new Set();
    const pending = P.placements(move).map((p) => {
      const index = hand.findIndex((v, i) => v === p.value && !used.has(i));
      used.add(index);
      return { value: p.value, cell: p.cell, index };
    });
    if (pending.some((p) => p.index < 0)) throw new PageError('error.hintStale');
    hintPutDown(pending, await askNext(pending));
    render(state);
  });
}
