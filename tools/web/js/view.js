// The page drawn from the state it is given: the board (board.js), the hand, the bag, the sheets
// (sheets.js), the turn line, the move line, the engine's line, the result, the hints, the
// buttons, the settings' checkboxes and How to play. It reads nothing back from the page; what a
// person does with it goes to the handlers the wiring (app.js) gives it.

import * as P from './parse.js';
import { BoardView } from './board.js';
import { renderSheets } from './sheets.js';
import { setRolled, t, tOr, num, translateStatic } from './i18n.js';
import { seatName, resultWords, endWords, rankName, moveWords } from './words.js';
import { say } from './announce.js';
import {
  MODE,
  seatOf,
  humans,
  moverHand,
  moverIsHuman,
  humanPlaces,
  handVisible,
  teamSeats,
  accepts,
  usedIndexes,
  tableDrawDue,
  drawValues,
} from './state.js';

const $ = (sel) => document.querySelector(sel);

/** What a person does with the views: set by the wiring. */
const handlers = {
  cell: () => {},
  pickTile: () => {},
  showHint: () => {},
  playHint: () => {},
  drawValue: () => {},
};

/**
 * Gives the views the actions of a cell (`cell(name)`), a hand tile (`pickTile(index, detail)`,
 * `detail` the click's count: 0 from the keyboard), a hint (`showHint(move)`, `playHint(move)`)
 * and a value button of a draw at the table (`drawValue(value)`).
 */
export function handle(actions) {
  Object.assign(handlers, actions);
}

/** The board's view, shared by the game and the review. */
export const board = new BoardView($('#board'), (cell) => handlers.cell(cell));

function variantName(name) {
  return tOr(`variant.${name}`, name);
}

/** Draws everything of the game from `st`. */
export function render(st) {
  renderSettings(st);
  if (!st.position || !st.status) {
    updateButtons(st);
    return;
  }
  const s = st.status;
  // Dice and kids have no bag: their words are of numbers rolled and written.
  if (setRolled(!st.position.bag)) translateStatic();
  $('#bag-panel').hidden = !st.position.bag;
  $('#show-hidden').closest('label').hidden = !st.position.bag; // no kept tiles to show either
  board.render({
    tiles: st.position.board,
    pending: st.pending,
    accepts: accepts(st),
    selected: st.selected === null ? null : moverHand(st)[st.selected],
    preview: st.preview,
    last: st.lastMove,
  });
  keepBoardInView(st);
  renderHand(st);
  renderTableDraw(st);
  renderBag(st);
  const variant = st.variants.find((v) => v.name === st.position.variant);
  renderSheets($('#sheets'), st.score, {
    boxes: variant ? variant.boxes : ['a', 'b', 'c'],
    tomove: s.phase === 'over' ? 0 : s.tomove,
    seats: st.seats,
    hands: st.position.hands,
    hidden: (n) => !handVisible(st, n),
  });
  $('#status').textContent = s.line;
  const who = seatName(s.tomove, st.seats);
  let line;
  if (s.phase === 'over') line = t('turn.over');
  else if (s.phase === 'draw') line = t('turn.draws', { who });
  else line = t('turn.places', { who });
  document.body.dataset.variant = st.position.variant;
  document.body.dataset.players = String(st.position.players);
  const game = [variantName(st.position.variant), t('turn.players', { n: st.position.players }), t('turn.number', { n: s.turn })];
  turnLine([...game, line].join(' · '));
  renderResult(st);
  $('#move-info').classList.toggle('refusal', Boolean(st.refusal) && moverIsHuman(st));
  $('#move-info').textContent = moveInfoWords(st);
  renderEngineInfo(st);
  updateButtons(st);
}

/** The turn line's words (also "connecting", "no engine"). */
export function turnLine(words) {
  $('#turn-line').textContent = words;
}

/** The engine's line: what it played, or its progress while it thinks. */
export function engineSays(words) {
  $('#engine-info').textContent = words;
}

/** The checkboxes of the settings show the player's choices. */
function renderSettings(st) {
  $('#show-hidden').checked = st.showHidden;
  $('#auto-draw').checked = st.autoDraw;
  $('#zoom').checked = st.zoom;
}

function faceDownTiles(count) {
  const row = document.createElement('span');
  row.className = 'face-down-row';
  row.setAttribute('role', 'img');
  row.setAttribute('aria-label', t('hand.faceDown', { n: count }));
  for (let i = 0; i < count; i++) {
    const tile = document.createElement('span');
    tile.className = 'tile hand-tile face-down';
    row.appendChild(tile);
  }
  return row;
}

/** A button that shows a value (a hand's tile, a value of a draw at the table), named for it. */
function valueButton(value, className) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = className;
  b.textContent = String(value);
  b.setAttribute('aria-label', t('hand.tile', { value }));
  return b;
}

function renderHand(st) {
  const box = $('#hand');
  // The focus stays on the hand's tile it was on (the redraw replaces the tiles).
  const focused = document.activeElement && document.activeElement.closest('#hand') ? document.activeElement.dataset.handTile : null;
  box.replaceChildren();
  const s = st.status;
  const mover = s.tomove;
  if (s.phase === 'over') $('#hand-title').textContent = t('hand.none');
  else if (seatOf(st, mover).kind === 'human' && humans(st) === 1) $('#hand-title').textContent = t('hand.yours');
  else $('#hand-title').textContent = t('hand.of', { who: seatName(mover, st.seats) });
  const hand = moverHand(st);
  const used = usedIndexes(st);
  const clickable = humanPlaces(st);
  if (hand.length && !handVisible(st, mover)) {
    box.appendChild(faceDownTiles(hand.length - used.size));
  } else {
    hand.forEach((value, index) => {
      if (used.has(index)) return;
      const tile = valueButton(value, 'tile hand-tile');
      tile.dataset.value = String(value);
      if (clickable) {
        tile.dataset.handTile = String(index);
        tile.setAttribute('aria-pressed', st.selected === index ? 'true' : 'false');
        if (st.selected === index) tile.classList.add('selected');
        // A click from the keyboard (Enter, Space: detail 0) goes on to the board. The second
        // click of a double click or double tap (detail 2) does not put the tile back at once.
        tile.addEventListener('click', (ev) => handlers.pickTile(index, ev.detail));
      } else {
        tile.disabled = true;
      }
      box.appendChild(tile);
    });
  }
  // At the table an empty hand waiting for its draw says nothing: the draw's slots are under it.
  if (!hand.length && !tableDrawDue(st)) {
    const empty = document.createElement('span');
    empty.className = 'muted';
    empty.textContent = s.phase === 'draw' ? t('hand.notDrawn') : t('hand.empty');
    box.appendChild(empty);
  }
  if (focused !== null && focused !== undefined) {
    const again = box.querySelector(`[data-hand-tile="${focused}"]`) || box.querySelector('[data-hand-tile]');
    if (again) again.focus();
  }
}

function renderBag(st) {
  const bag = st.position.bag;
  const box = $('#bag');
  box.replaceChildren();
  if (!bag) {
    box.textContent = t('bag.none');
    return;
  }
  bag.forEach((count, i) => {
    const item = document.createElement('span');
    item.className = 'bag-item';
    item.dataset.bagValue = String(i + 1);
    const tile = document.createElement('span');
    tile.className = 'tile mini';
    tile.textContent = String(i + 1);
    tile.setAttribute('aria-hidden', 'true');
    const count_ = document.createElement('span');
    count_.textContent = `× ${count}`;
    count_.setAttribute('aria-hidden', 'true');
    const sr = document.createElement('span');
    sr.className = 'sr-only';
    sr.textContent = t('bag.item', { n: count, value: i + 1 });
    item.append(tile, count_, sr);
    box.appendChild(item);
  });
  const sum = document.createElement('span');
  sum.className = 'muted';
  sum.textContent = t('bag.total', { n: bag.reduce((a, b) => a + b, 0) });
  box.appendChild(sum);
}

/**
 * The draw at the table: who draws (or rolls) how many, the values entered so far with a slot for
 * each still due, a button for each value of the game, the refusal of the engine, Remove last and
 * Confirm. Shown only while such a draw is due.
 */
function renderTableDraw(st) {
  const due = tableDrawDue(st);
  const pad = $('#table-draw');
  pad.hidden = !due;
  document.body.classList.toggle('table-drawing', due);
  if (!due) return;
  const n = st.status.due;
  $('#table-draw-prompt').textContent = drawPrompt(st);
  const slots = [];
  for (let i = 0; i < n; i++) {
    const slot = document.createElement('span');
    slot.className = i < st.drawn.length ? 'tile drawn-tile' : 'tile drawn-tile empty-slot';
    slot.setAttribute('aria-hidden', 'true');
    if (i < st.drawn.length) {
      slot.textContent = String(st.drawn[i]);
      slot.dataset.value = String(st.drawn[i]);
    }
    slots.push(slot);
  }
  const words = document.createElement('span');
  words.className = 'sr-only';
  words.textContent = enteredWords(st);
  $('#table-drawn').replaceChildren(...slots, words);
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.drawValue : undefined;
  $('#table-values').replaceChildren(
    ...drawValues(st).map((value) => {
      const b = valueButton(value, 'draw-value');
      b.dataset.drawValue = String(value);
      b.addEventListener('click', () => handlers.drawValue(value));
      return b;
    }),
  );
  enableTableDraw(st);
  if (focused !== undefined) {
    const again = $(`#table-values [data-draw-value="${focused}"]`);
    if (again && !again.disabled) again.focus();
  }
  const refusal = $('#table-refusal');
  refusal.hidden = !st.drawRefusal;
  refusal.textContent = st.drawRefusal ? drawRefusalWords(st.drawRefusal) : '';
  refusal.dataset.code = st.drawRefusal ? st.drawRefusal.code : '';
}

/**
 * The draw's buttons for what the state allows: a value while some are still due, Remove last
 * when one is entered, Confirm when all are and the engine has not refused them.
 */
function enableTableDraw(st) {
  const live = st.connected && !st.busy;
  const full = st.drawn.length >= st.status.due;
  for (const b of document.querySelectorAll('#table-values button')) b.disabled = !live || full;
  $('#table-remove').disabled = !live || !st.drawn.length;
  $('#table-confirm').disabled = !live || !full || Boolean(st.drawRefusal);
}

/** The words asking for the draw due at the table: who draws how many, and at the start, what. */
export function drawPrompt(st) {
  const who = seatName(st.status.tomove, st.seats);
  const words = [t('table.prompt', { who, n: st.status.due })];
  if (st.position && st.position.bag && st.status.turn === 1) words.push(t('table.start'));
  // The kids' game: the die's six counts 0 (docs/rules.md, the kids' game).
  if (st.position && st.position.variant === 'kids') words.push(t('table.sixIsZero'));
  return words.join(' ');
}

/** The values entered for the draw at the table, in words. */
export function enteredWords(st) {
  const n = st.status.due - st.drawn.length;
  if (!st.drawn.length) return t('table.noneEntered', { n });
  const values = st.drawn.join(', ');
  return n > 0 ? t('table.enteredList', { values, n }) : t('table.allEntered', { values });
}

/**
 * The sentence of a refused draw: the bag does not hold the values (`not_in_bag`), not as many as
 * are due (`draw_count`), or another refusal of `draw` said by its code.
 */
export function drawRefusalWords(r) {
  const values = r.values.join(', ');
  if (r.reason === 'not_in_bag') return t('table.notInBag', { values });
  if (r.reason === 'draw_count') return t('table.count', { values });
  return `${t('table.refused', { values })} ${t(`error.${r.code}`)}`;
}

/** Whether the result shown now has been said and scrolled to (once per game's end). */
let resultSaid = false;

function renderResult(st) {
  const s = st.status;
  const box = $('#result');
  const over = s.phase === 'over';
  // In review mode the review's panels stand in its place.
  box.hidden = !over || st.mode === MODE.REVIEW;
  if (!over) {
    resultSaid = false;
    return;
  }
  const teams = teamSeats(st);
  const words = resultWords(s.ranking, st.seats, teams);
  const reason = endWords(s.end);
  const ranks = s.ranking.map((r) => t('result.rank', { rank: r.rank, who: rankName(r, st.seats, teams), total: r.total }));
  const how = tOr(`result.how.${st.position.variant}`, '', { points: t('sheet.points') });
  $('#result-words').textContent = words;
  const end = $('#end-reason');
  end.textContent = reason;
  end.dataset.end = s.end || '';
  $('#ranking').replaceChildren(
    ...s.ranking.map((r, k) => {
      const li = document.createElement('li');
      li.textContent = ranks[k];
      li.dataset.rank = String(r.rank);
      li.dataset.who = `${r.kind}-${r.n}`;
      if (r.rank === 1) li.className = 'winner';
      return li;
    }),
  );
  $('#result-how').textContent = how;
  if (!resultSaid) {
    // The result at the top of the screen, once; and said.
    resultSaid = true;
    const parts = [t('result.title'), words, reason, ...ranks, how].filter(Boolean);
    say(parts.map((x) => (/[.!?…]$/.test(x) ? x : `${x}.`)).join(' '));
    window.scrollTo({ top: 0 });
    if (!st.dialog) box.focus({ preventScroll: true });
  }
}

/** What the person to place is to do now, or why the cell tapped did not take the tile. */
export function moveInfoWords(st) {
  if (!humanPlaces(st)) return '';
  if (st.refusal) return refusalWords(st.refusal);
  if (st.pending.length === 0) return st.passOk ? t('move.noFit') : st.selected !== null ? t('move.pickCell') : t('move.pick');
  if (st.next && st.next.complete === 'yes') return st.next.next.length ? t('move.legalMore') : t('move.legal');
  return t('move.incomplete');
}

/** A refusal in words: the tile and cell, then why, in words a child understands. */
export function refusalWords(r) {
  const why = t(r.why, r.params || {});
  return r.value === undefined ? why : `${t('why.notThere', { value: r.value, cell: r.cell })} ${why}`;
}

function renderEngineInfo(st) {
  if (st.thinking) return;
  const p = st.lastPlayed;
  engineSays(p ? t('engine.played', { who: seatName(p.seat, st.seats), move: moveWords(p.move), n: p.points }) : '');
}

/** Enables the buttons for what the state allows, and says on `body` whose turn it is. */
export function updateButtons(st) {
  const s = st.status;
  // For tests and screen readers: whether the page waits on the engine.
  document.body.dataset.busy = st.busy || st.thinking ? 'yes' : 'no';
  const live = st.connected && !st.busy;
  const human = live && moverIsHuman(st);
  const place = human && s && s.phase === 'place';
  // In review mode the engine is the review's: its game comes back with Close review.
  const reviewing = st.mode === MODE.REVIEW;
  $('#new-game').disabled = !st.connected || reviewing;
  $('#save-load').disabled = !st.connected || reviewing;
  // The header's Review waits for the engine, as New game does.
  $('#review-enter').disabled = !st.connected || reviewing;
  $('#draw').disabled = !(human && s.phase === 'draw') || st.table;
  // At the table the page draws nothing: its Draw and "draw by itself" are not there.
  $('#draw').closest('.buttons').hidden = st.table;
  if (st.position && tableDrawDue(st)) enableTableDraw(st);
  $('#submit').disabled = !(place && st.pending.length > 0 && st.next && st.next.complete === 'yes');
  $('#take-back').disabled = !(place && st.pending.length > 0);
  $('#pass').disabled = !(place && st.pending.length === 0 && st.passOk);
  $('#hint').disabled = !place;
  // Undo goes back to a human's turn, so a game of engines alone has none.
  const anyHuman = st.seats.some((seat) => seat.kind === 'human');
  $('#undo').disabled = !(live && anyHuman && s && !(s.turn === 1 && s.phase === 'draw'));
  for (const b of document.querySelectorAll('#hints button')) b.disabled = !place;
  let turn = 'wait';
  if (s && s.phase === 'over') turn = 'over';
  // At the table a person enters every draw, a computer seat's too.
  else if (live && tableDrawDue(st)) turn = 'draw';
  else if (live && moverIsHuman(st) && s.phase === 'draw') turn = 'draw';
  else if (live && moverIsHuman(st) && s.phase === 'place' && st.next) turn = 'place';
  document.body.dataset.turn = turn;
}

/**
 * Keeps in the zoomed board's box what the player needs: the cells that take the picked tile, else
 * the hint shown, else this turn's tiles, else the last move, else the centre.
 */
export function keepBoardInView(st) {
  if (!st.position || !st.status || !st.geometry) return;
  const pick = [[...accepts(st)], st.preview.map((p) => p.cell), st.pending.map((p) => p.cell), [...st.lastMove]];
  const names = pick.find((list) => list.length) || [st.geometry.centre].filter(Boolean);
  board.keepInView(names, `${st.history.length}`);
}

// ---- hints ------------------------------------------------------------------------------------

/** The engine's value: its expected final margin (PROTOCOL.md `info`), signed. */
function marginWords(score) {
  const x = Number(score);
  return `${x > 0 ? '+' : ''}${num(x, 1)}`;
}

/** A hint as its button reads: the move, its points and crosses now, the engine's value. */
export function hintWords(h) {
  const parts = [moveWords(h.move), t('hint.points', { n: h.points })];
  if (h.crosses) parts.push(t('hint.crosses', { n: h.crosses }));
  parts.push(t('value.margin', { margin: marginWords(h.score) }));
  if (h.winprob !== undefined) parts.push(t('value.win', { win: num(Number(h.winprob) * 100, 0) }));
  return parts.join(' · ');
}

/** The hints of the last Hint: each a button that shows it, and one that plays it. */
export function renderHints(st) {
  const box = $('#hints');
  box.replaceChildren(
    ...st.hints.map((h, k) => {
      const li = document.createElement('li');
      li.className = 'hint';
      li.dataset.hint = String(k + 1);
      li.dataset.move = h.move;
      const show = document.createElement('button');
      show.type = 'button';
      show.className = 'hint-show';
      show.textContent = hintWords(h);
      show.title = t('hint.show');
      show.addEventListener('click', () => handlers.showHint(h.move));
      li.appendChild(show);
      if (P.placements(h.move).length) {
        const play = document.createElement('button');
        play.type = 'button';
        play.className = 'play-hint';
        play.textContent = t('hint.play');
        play.setAttribute('aria-label', `${t('hint.play')}: ${moveWords(h.move)}`);
        play.addEventListener('click', () => handlers.playHint(h.move));
        li.appendChild(play);
      }
      return li;
    }),
  );
  updateButtons(st);
}

// ---- How to play ------------------------------------------------------------------------------

function paragraphs(text) {
  return text.split('\n').filter(Boolean).map((line) => {
    const p = document.createElement('p');
    p.textContent = line;
    return p;
  });
}

/** How to play, for the variant chosen in it (else the game's, else classic), and the keys. */
export function renderHelp(st) {
  const sel = $('#help-variant');
  const chosen = st.helpVariant || (st.position && st.position.variant) || 'classic';
  const names = st.variants.length ? st.variants.map((v) => v.name) : [chosen];
  sel.replaceChildren(
    ...names.map((n) => {
      const o = document.createElement('option');
      o.value = n;
      o.textContent = variantName(n);
      return o;
    }),
  );
  const shown = names.includes(chosen) ? chosen : names[0];
  sel.value = shown;
  $('#help-text').replaceChildren(...paragraphs(tOr(`help.${shown}`, t('help.unknown'))));
  $('#help-table').replaceChildren(...paragraphs(t('help.table')));
  $('#help-keys').replaceChildren(...paragraphs(t('help.keys')));
}
