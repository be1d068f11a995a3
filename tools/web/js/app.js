// The board page: one place that holds the state the engine last confirmed, the turn being built
// (each placement confirmed by `next`), and the actions of the buttons and keys. Every rule comes
// from the engine: what a cell accepts, whose turn it is, what a move scores, when the game ends.
// Every word comes from the catalogue of the chosen language (i18n.js).

import { EngineClient, EngineError, ConnectionClosed } from './protocol.js';
import * as P from './parse.js';
import { BoardView } from './board.js';
import { renderSheets } from './sheets.js';
import { NewGameDialog, newgameArgs, newSeat } from './dialog.js';
import { CATALOGUES, LANGS, initialLang, setLang, setRolled, t, tOr, num, translateStatic } from './i18n.js';
import { seatName, resultWords, endWords, errorWords, closeWords, rankName, moveWords } from './words.js';

const $ = (sel) => document.querySelector(sel);

/** How long the engine thinks for a hint, ms. */
const HINT_MS = 1000;
/** The protocol's line limit. */
const MAX_LINE = 65536;
/**
 * The least time a weaker computer level (`greedy`, `random`: answered at once) takes for a
 * move, ms: its move does not land the instant the player's own went down, and a game of such
 * seats sends about 34 commands a second, not about 175 (measured in a kids' game of a simple and a
 * beginner computer, counting the page's WebSocket sends over a few seconds).
 */
const WEAK_MOVE_MS = 300;

/** An error of the page itself, named by its catalogue key. */
class PageError extends Error {
  constructor(key) {
    super(key);
    this.key = key;
  }
}

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
  // Who sits where (the engine does not know: this is the page's own setting, saved with the game).
  seats: [newSeat('human'), newSeat('engine')],
  // The human turn being built.
  selected: null, // index into the mover's hand
  pending: [], // [{value, cell, index}], each confirmed by `next`
  next: null, // parsed `next` for `pending`
  passOk: false,
  preview: [],
  hints: [], // [{move, points, score, winprob}] of the last Hint
  lastMove: new Set(),
  lastPlayed: null, // {seat, move, points} of the engine seat's last move
  busy: false,
  thinking: null, // the promise of a running `go`
  generation: 0, // bumped by a new game or a load: stale loops stop
  multipv: 1,
  infos: new Map(), // multipv -> latest parsed info of the running go
  shownError: null, // the error in the red bar, to say again in another language
  closed: null, // {code, reason} of the last close
  wasOver: false,
  lastFocus: null,
  refusal: null, // why the last cell tapped did not take the tile, in words (shown under the hand)
  placedAt: null, // {cell, time} of the last tile put down: a double tap does not take it back
};

const board = new BoardView($('#board'), (cell) => onCell(cell));
const dialog = new NewGameDialog($('#new-game-dialog'), (game) => startGame(game));

// ---- language -----------------------------------------------------------------------------

/** The pickers of the language: the header's, and the New game dialog's (it opens by itself, modal). */
const LANG_PICKERS = ['#lang', '#dialog-lang'];

function fillLanguagePicker() {
  for (const picker of LANG_PICKERS) {
    $(picker).replaceChildren(
      ...LANGS.map((code) => {
        const o = document.createElement('option');
        o.value = code;
        o.lang = code;
        o.textContent = CATALOGUES[code]['language.name'];
        return o;
      }),
    );
  }
}

function applyLanguage(code) {
  setLang(code);
  for (const picker of LANG_PICKERS) $(picker).value = code;
  document.title = t('app.title');
  translateStatic();
  if (state.variants.length) dialog.relabel();
  renderHelp();
  if (state.shownError) showError(state.shownError);
  if (state.closed) showClosed(state.closed);
  board.rerender();
  render();
  renderHints();
  measureHeader();
}

$('#lang').addEventListener('change', () => applyLanguage($('#lang').value));
// The dialog's picker chooses through the header's, so that everything listening to it hears.
$('#dialog-lang').addEventListener('change', () => {
  $('#lang').value = $('#dialog-lang').value;
  $('#lang').dispatchEvent(new Event('change'));
});

// ---- what a screen reader hears ------------------------------------------------------------

/** The last sentences said, for a person (or a test) looking into what was announced: `zatreSaid()`. */
const said = [];
let sayBatch = [];
let sayTimer = null;
window.zatreSaid = () => said.slice();

/**
 * Says `text` to a screen reader, in the page's language: through the polite live region
 * (`#announce`), or at once (`#announce-now`, for errors). Sentences said together are read
 * together; the same sentence said again is read again.
 */
function say(text, now = false) {
  if (!text) return;
  if (!/[.!?…]$/.test(text)) text += '.';
  said.push(text);
  if (said.length > 100) said.splice(0, said.length - 100);
  if (now) {
    const box = $('#announce-now');
    box.textContent = '';
    setTimeout(() => {
      box.textContent = text;
    }, 30);
    return;
  }
  sayBatch.push(text);
  if (sayTimer) return;
  $('#announce').textContent = '';
  sayTimer = setTimeout(() => {
    $('#announce').textContent = sayBatch.join(' ');
    sayBatch = [];
    sayTimer = null;
  }, 60);
}

// ---- errors -------------------------------------------------------------------------------

function showError(e) {
  state.shownError = e;
  const box = $('#error-box');
  if (e instanceof EngineError) {
    $('#error').textContent = errorWords(e.code, e.reason);
    const key = e.reason ? ` ${e.reason}` : '';
    $('#error-detail').textContent = `${e.command.split(' ')[0]}: ${e.code}${key}${e.detail ? ` ${e.detail}` : ''}`;
    box.dataset.code = e.code;
  } else if (e instanceof PageError) {
    $('#error').textContent = t(e.key);
    $('#error-detail').textContent = '';
    box.dataset.code = e.key;
  } else {
    $('#error').textContent = t('error.page');
    $('#error-detail').textContent = String((e && e.message) || e);
    box.dataset.code = 'page';
  }
  $('#error-more').hidden = !$('#error-detail').textContent;
  box.hidden = false;
  say($('#error').textContent, true);
  // The red bar is under a modal dialog's backdrop: the open dialog says it too.
  dialogSays($('#error').textContent, $('#error-detail').textContent);
}

/**
 * Says `sentence` in the open modal dialog, if any (its backdrop hides the page's bars): the
 * engine's or the bridge's own words (`detail`, English) folded away under it, and `extra`
 * elements (a button) after them.
 */
function dialogSays(sentence, detail, ...extra) {
  const inDialog = document.querySelector('dialog[open] .dialog-error');
  if (!inDialog) return;
  const words = document.createElement('span');
  words.textContent = sentence;
  inDialog.replaceChildren(words);
  if (detail) {
    const more = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = t('error.more');
    const code = document.createElement('code');
    code.lang = 'en';
    code.textContent = detail;
    more.append(summary, code);
    inDialog.appendChild(more);
  }
  inDialog.append(...extra);
  inDialog.hidden = false;
}

/** Clears the error a dialog says (when it closes, or when the red bar is dismissed). */
function clearDialogErrors() {
  for (const p of document.querySelectorAll('.dialog-error')) {
    p.hidden = true;
    p.textContent = '';
  }
}
for (const d of document.querySelectorAll('dialog')) d.addEventListener('close', clearDialogErrors);

/** Takes the red bar away: dismissed, or a new game or a loaded one has replaced what it was about. */
function dismissError() {
  state.shownError = null;
  const hadFocus = $('#error-box').contains(document.activeElement);
  $('#error-box').hidden = true;
  $('#error').textContent = '';
  clearDialogErrors();
  if (hadFocus) restoreFocus();
}
$('#error-dismiss').addEventListener('click', dismissError);

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
    restoreFocus();
  }
}

function call(command) {
  return state.engine.call(command);
}

// ---- focus --------------------------------------------------------------------------------

document.addEventListener('focusin', (ev) => {
  if (ev.target && ev.target !== document.body) state.lastFocus = ev.target;
});

/** Puts the focus back where the player was when a redraw or a disabled button took it away. */
function restoreFocus() {
  const active = document.activeElement;
  if (active && active !== document.body) return;
  if (document.querySelector('dialog[open]')) return;
  const last = state.lastFocus;
  if (!last) return;
  if (last.isConnected && !last.disabled && last.offsetParent !== null) {
    last.focus();
  } else if (last.dataset && last.dataset.handTile !== undefined) {
    const tile = $('#hand [data-hand-tile]');
    if (tile) tile.focus();
    else board.focus();
  } else if (last.closest && last.closest('#side, #board, dialog, #review-side, #connection, #error-box')) {
    board.focus();
  }
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
  engine.addEventListener('stray', (ev) => showError(new Error(ev.detail)));
  engine.addEventListener('close', (ev) => onClose(ev.detail));
  $('#connection').hidden = true;
  state.closed = null;
  $('#turn-line').textContent = t('turn.connecting');
  await engine.connect();
  state.connected = true;
  state.multipv = 1;
  // The page speaks version 3: every refusal then carries a reason key, which the page says in its
  // own words (an engine without version 3 refuses `protocol 3`).
  const spoken = await engine.request('protocol 3');
  if (!spoken.ok || spoken.payload[0] !== '3') throw new PageError('error.version');
  engine.version = 3;
  // Once: a reconnect keeps the dialog's choices (the engine behind the bridge is the same).
  if (!state.variants.length) {
    state.variants = P.variants(await call('variants'));
    dialog.setVariants(state.variants, readPresets(state.variants));
    renderHelp();
  }
}

/** What each preset sets, by variant: the `preset` lines of `variants`. */
function readPresets(variants) {
  return Object.fromEntries(variants.filter((v) => v.presets).map((v) => [v.name, v.presets]));
}

/** A close in the page's words, and the bridge's own code and reason (English). */
function closeSaid({ code, reason, opened }) {
  const words = opened ? closeWords(code, reason) : t('close.unreachable');
  return { words, detail: `${code}${reason ? `: ${reason}` : ''}` };
}

function showClosed(closed) {
  const { words, detail } = closeSaid(closed);
  $('#connection-text').textContent = `${words} (${detail})`;
}

function onClose({ code, reason, opened }) {
  state.connected = false;
  state.thinking = null;
  state.generation++;
  state.closed = { code, reason, opened };
  showClosed(state.closed);
  $('#connection').hidden = false;
  $('#connection').dataset.code = String(code);
  $('#turn-line').textContent = t('turn.noEngine');
  $('#engine-info').textContent = '';
  // Said in the page's words; the bridge's own (English) only on the banner and folded away.
  const { words, detail } = closeSaid(state.closed);
  say(words, true);
  // The banner is under a modal dialog's backdrop: the open dialog says it, with its own button.
  const again = document.createElement('button');
  again.type = 'button';
  again.textContent = t('button.reconnect');
  again.addEventListener('click', () => $('#reconnect').click());
  dialogSays(words, detail, again);
  updateButtons();
}

// On any close (the engine ended, was stopped after an idle time (4006), or the page sent too
// much (4007)) a new engine takes the game up from the last `history`.
$('#reconnect').addEventListener('click', () =>
  act(async () => {
    const restore = state.history;
    // Back from a review too: the new engine takes up the game on the board.
    if (reviewOpen()) review.abandon();
    await connect();
    clearDialogErrors();
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
  applyZoom();
}

/** Reads position, status, score and history from the engine and redraws. */
async function refresh() {
  const [pos, st, sc, hist] = await Promise.all([call('position'), call('status'), call('score'), call('history')]);
  state.position = P.position(pos[0] || '');
  state.status = P.status(st);
  state.score = P.score(sc);
  state.history = hist.join(' ');
  $('#history').value = state.history ? `position ${state.history}` : '';
  while (state.seats.length < state.position.players) state.seats.push(newSeat('engine'));
  state.seats.length = Math.max(state.position.players, 1);
  $('#save-text').value = state.history ? saveLine() : '';
  state.selected = null;
  state.pending = [];
  state.next = null;
  state.passOk = false;
  state.preview = [];
  state.hints = [];
  state.refusal = null;
  renderHints();
  render();
}

function seatOf(n) {
  return state.seats[n - 1] || newSeat('human');
}

function moverIsHuman() {
  return state.status && state.status.phase !== 'over' && seatOf(state.status.tomove).kind === 'human';
}

/** Whether seat n's hand is shown face up: the rules keep other players' kept tiles hidden. */
function handVisible(n) {
  if ($('#show-hidden').checked || !state.status || state.status.phase === 'over') return true;
  const humans = state.seats.filter((s) => s.kind === 'human').length;
  if (humans === 1) return seatOf(n).kind === 'human';
  return n === state.status.tomove && seatOf(n).kind === 'human';
}

/** Team number -> its seats, from the sheets of `score`. */
function teamSeats() {
  const out = {};
  if (state.score) for (const s of state.score.sheets) if (s.kind === 'team') out[s.n] = s.seats;
  return out;
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

function variantName(name) {
  return tOr(`variant.${name}`, name);
}

function render() {
  if (!state.position || !state.status) {
    updateButtons();
    return;
  }
  const s = state.status;
  // Dice and kids have no bag: their words are of numbers rolled and written.
  if (setRolled(!state.position.bag)) translateStatic();
  $('#bag-panel').hidden = !state.position.bag;
  $('#show-hidden').closest('label').hidden = !state.position.bag; // no kept tiles to show either
  board.render({
    tiles: state.position.board,
    pending: state.pending,
    accepts: accepts(),
    selected: state.selected === null ? null : moverHand()[state.selected],
    preview: state.preview,
    last: state.lastMove,
  });
  keepBoardInView();
  renderHand();
  renderBag();
  const variant = state.variants.find((v) => v.name === state.position.variant);
  renderSheets($('#sheets'), state.score, {
    boxes: variant ? variant.boxes : ['a', 'b', 'c'],
    tomove: s.phase === 'over' ? 0 : s.tomove,
    seats: state.seats,
    hands: state.position.hands,
    hidden: (n) => !handVisible(n),
  });
  $('#status').textContent = s.line;
  const who = seatName(s.tomove, state.seats);
  let line;
  if (s.phase === 'over') line = t('turn.over');
  else if (s.phase === 'draw') line = t('turn.draws', { who });
  else line = t('turn.places', { who });
  document.body.dataset.variant = state.position.variant;
  document.body.dataset.players = String(state.position.players);
  $('#turn-line').textContent = [
    variantName(state.position.variant),
    t('turn.players', { n: state.position.players }),
    t('turn.number', { n: s.turn }),
    line,
  ].join(' · ');
  renderResult();
  renderMoveInfo();
  renderEngineInfo();
  updateButtons();
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

function renderHand() {
  const box = $('#hand');
  const focused = document.activeElement && document.activeElement.closest('#hand') ? document.activeElement.dataset.handTile : null;
  box.replaceChildren();
  const s = state.status;
  const mover = s.tomove;
  const humans = state.seats.filter((x) => x.kind === 'human').length;
  if (s.phase === 'over') $('#hand-title').textContent = t('hand.none');
  else if (seatOf(mover).kind === 'human' && humans === 1) $('#hand-title').textContent = t('hand.yours');
  else $('#hand-title').textContent = t('hand.of', { who: seatName(mover, state.seats) });
  const hand = moverHand();
  const used = new Set(state.pending.map((p) => p.index));
  const clickable = moverIsHuman() && s.phase === 'place';
  if (hand.length && !handVisible(mover)) {
    box.appendChild(faceDownTiles(hand.length - used.size));
  } else {
    hand.forEach((value, index) => {
      if (used.has(index)) return;
      const tile = document.createElement('button');
      tile.type = 'button';
      tile.className = 'tile hand-tile';
      tile.textContent = String(value);
      tile.dataset.value = String(value);
      tile.setAttribute('aria-label', t('hand.tile', { value }));
      if (clickable) {
        tile.dataset.handTile = String(index);
        tile.setAttribute('aria-pressed', state.selected === index ? 'true' : 'false');
        if (state.selected === index) tile.classList.add('selected');
        // A click from the keyboard (Enter, Space: detail 0) goes on to the board. The second
        // click of a double click or double tap (detail 2) does not put the tile back at once.
        tile.addEventListener('click', (ev) => {
          if (ev.detail >= 2 && state.selected === index) return;
          selectTile(index, ev.detail === 0);
        });
      } else {
        tile.disabled = true;
      }
      box.appendChild(tile);
    });
  }
  if (!hand.length) {
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

function renderBag() {
  const bag = state.position.bag;
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

function renderResult() {
  const s = state.status;
  const box = $('#result');
  const over = s.phase === 'over';
  box.hidden = !over;
  if (!over) {
    state.wasOver = false;
    return;
  }
  const teams = teamSeats();
  $('#result-words').textContent = resultWords(s.ranking, state.seats, teams);
  const end = $('#end-reason');
  end.textContent = endWords(s.end);
  end.dataset.end = s.end || '';
  $('#ranking').replaceChildren(
    ...s.ranking.map((r) => {
      const li = document.createElement('li');
      li.textContent = t('result.rank', { rank: r.rank, who: rankName(r, state.seats, teams), total: r.total });
      li.dataset.rank = String(r.rank);
      li.dataset.who = `${r.kind}-${r.n}`;
      if (r.rank === 1) li.className = 'winner';
      return li;
    }),
  );
  $('#result-how').textContent = tOr(`result.how.${state.position.variant}`, '', { points: t('sheet.points') });
  if (!state.wasOver) {
    // The result at the top of the screen, once; and said.
    state.wasOver = true;
    const parts = [t('result.title'), $('#result-words').textContent, end.textContent, ...[...$('#ranking').children].map((li) => li.textContent), $('#result-how').textContent].filter(Boolean);
    say(parts.map((x) => (/[.!?…]$/.test(x) ? x : `${x}.`)).join(' '));
    window.scrollTo({ top: 0 });
    if (!document.querySelector('dialog[open]')) box.focus({ preventScroll: true });
  }
}

function renderMoveInfo() {
  const box = $('#move-info');
  box.classList.toggle('refusal', Boolean(state.refusal) && moverIsHuman());
  if (!moverIsHuman() || state.status.phase !== 'place') {
    box.textContent = '';
    return;
  }
  if (state.refusal) {
    box.textContent = refusalWords(state.refusal);
  } else if (state.pending.length === 0) {
    box.textContent = state.passOk ? t('move.noFit') : state.selected !== null ? t('move.pickCell') : t('move.pick');
  } else if (state.next && state.next.complete === 'yes') {
    box.textContent = state.next.next.length ? t('move.legalMore') : t('move.legal');
  } else {
    box.textContent = t('move.incomplete');
  }
}

/** Whether seat n is the page's one human seat (the sentences then say "you"). */
function isYou(n) {
  return seatOf(n).kind === 'human' && state.seats.filter((x) => x.kind === 'human').length === 1;
}

/** Says a move just played: who, the tiles and cells, the points. */
function sayPlayed({ seat, move, points }) {
  const who = seatName(seat, state.seats);
  if (!P.placements(move).length) say(isYou(seat) ? t('say.youPassed') : t('say.passed', { who }));
  else if (isYou(seat)) say(t('say.youPlayed', { move: moveWords(move), n: points }));
  else say(t('engine.played', { who, move: moveWords(move), n: points }));
}

/** Says whose turn it is to place, with the hand (when it is shown), once a human is to place. */
function sayTurn() {
  if (!moverIsHuman() || state.status.phase !== 'place') return;
  const n = state.status.tomove;
  const hand = moverHand().join(', ') || t('hand.empty');
  say(isYou(n) ? t('say.yourTurn', { hand }) : t('say.turnOf', { who: seatName(n, state.seats), hand }));
  if (state.passOk) say(t('move.noFit'));
}

function renderEngineInfo() {
  const box = $('#engine-info');
  if (state.thinking) return;
  const p = state.lastPlayed;
  box.textContent = p
    ? t('engine.played', { who: seatName(p.seat, state.seats), move: moveWords(p.move), n: p.points })
    : '';
}

function updateButtons() {
  const s = state.status;
  // For tests and screen readers: whether the page waits on the engine.
  document.body.dataset.busy = state.busy || state.thinking ? 'yes' : 'no';
  const live = state.connected && !state.busy;
  const human = live && moverIsHuman();
  const place = human && s && s.phase === 'place';
  // In review mode the engine is the review's: its game comes back with Close review.
  $('#new-game').disabled = !state.connected || reviewOpen();
  $('#save-load').disabled = !state.connected || reviewOpen();
  $('#draw').disabled = !(human && s.phase === 'draw');
  $('#submit').disabled = !(place && state.pending.length > 0 && state.next && state.next.complete === 'yes');
  $('#take-back').disabled = !(place && state.pending.length > 0);
  $('#pass').disabled = !(place && state.pending.length === 0 && state.passOk);
  $('#hint').disabled = !place;
  // Undo goes back to a human's turn, so a game of engines alone has none.
  const anyHuman = state.seats.some((seat) => seat.kind === 'human');
  $('#undo').disabled = !(live && anyHuman && s && !(s.turn === 1 && s.phase === 'draw'));
  for (const b of document.querySelectorAll('#hints button')) b.disabled = !place;
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
  state.refusal = null;
  state.next = await askNext([]);
  state.passOk = state.next.complete === 'yes';
  render();
}

/** Picks hand tile `index` (or puts it back); `toBoard`: the focus goes on to a cell that takes it. */
function selectTile(index, toBoard) {
  if (state.busy || !moverIsHuman() || state.status.phase !== 'place') return;
  state.selected = state.selected === index ? null : index;
  state.refusal = null;
  render();
  if (state.selected !== null) say(t('say.picked', { value: moverHand()[index], n: accepts().size }));
  if (toBoard && state.selected !== null) {
    const lit = accepts();
    if (!lit.has(board.focusName) && lit.size) board.setFocus([...lit][0], false);
    board.focus();
  }
}

/** A second tap on a tile just put down, sooner than this (ms), is the tail of a double tap. */
const DOUBLE_TAP_MS = 600;

function onCell(cell) {
  if (!moverIsHuman() || state.status.phase !== 'place' || state.busy) return;
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
  const value = moverHand()[state.selected];
  const index = state.selected;
  if (!accepts().has(cell)) {
    act(() => explainRefusal(value, cell));
    return;
  }
  act(async () => {
    const tried = [...state.pending, { value, cell, index }];
    const next = await askNext(tried);
    state.pending = tried;
    state.next = next;
    state.preview = [];
    state.selected = null;
    state.refusal = null;
    state.placedAt = { cell, time: performance.now() };
    render();
    say(t('say.placed', { value, cell }) + ' ' + $('#move-info').textContent);
  });
}

/** Shows and says why a cell did not take the tile (`{value, cell, why, params}`). */
function refuse(refusal) {
  state.refusal = refusal;
  render();
  say(refusalWords(refusal));
}

/** A refusal in words: the tile and cell, then why, in words a child understands. */
function refusalWords(r) {
  const why = t(r.why, r.params || {});
  return r.value === undefined ? why : `${t('why.notThere', { value: r.value, cell: r.cell })} ${why}`;
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
    const tried = [...state.pending, { value, cell }].map((p) => `${p.value}@${p.cell}`).join(',');
    const r = await state.engine.request(`next ${tried}`);
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

/** Takes back pending tile `at` and the ones put down after it. */
function takeBackFrom(at) {
  act(async () => {
    const rest = state.pending.slice(0, at);
    const taken = state.pending.slice(at).map((p) => p.value);
    const next = await askNext(rest);
    state.pending = rest;
    state.next = next;
    state.selected = null;
    state.refusal = null;
    render();
    say(`${t('say.takenBack', { values: taken.join(', '), n: taken.length })} ${$('#move-info').textContent}`);
  });
}

// Keys anywhere outside a field: a digit picks a hand tile of that value (the kids' dice show 0
// to 5), Escape puts the picked tile back or takes the last tile of this turn back.
document.addEventListener('keydown', (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const target = ev.target;
  if (target && target.closest && target.closest('input, select, textarea, dialog')) return;
  if (!state.status || !moverIsHuman() || state.status.phase !== 'place' || state.busy) return;
  if (/^[0-9]$/.test(ev.key)) {
    const value = Number(ev.key);
    const used = new Set(state.pending.map((p) => p.index));
    const hand = moverHand();
    const index = hand.findIndex((v, i) => v === value && !used.has(i));
    if (index < 0) return;
    ev.preventDefault();
    const inBoard = target && target.closest && target.closest('#board');
    if (state.selected !== index) selectTile(index, false);
    if (inBoard) {
      const lit = accepts();
      if (!lit.has(board.focusName) && lit.size) board.setFocus([...lit][0], true);
    }
  } else if (ev.key === 'Escape') {
    if (state.selected !== null) {
      ev.preventDefault();
      state.selected = null;
      state.refusal = null;
      render();
    } else if (state.pending.length) {
      ev.preventDefault();
      takeBackFrom(state.pending.length - 1);
    }
  }
});

$('#draw').addEventListener('click', () =>
  act(async () => {
    await call('draw');
    await refresh();
  }).then(() => advance()),
);

$('#submit').addEventListener('click', () =>
  act(async () => {
    const move = state.pending.map((p) => `${p.value}@${p.cell}`).join(',');
    const placed = P.fields((await call(`place ${move}`))[0] || '');
    state.lastMove = new Set(state.pending.map((p) => p.cell));
    state.lastPlayed = null;
    sayPlayed({ seat: state.status.tomove, move, points: Number(placed.points || 0) });
    await refresh();
  }).then(() => advance()),
);

$('#take-back').addEventListener('click', () =>
  act(async () => {
    const taken = state.pending.map((p) => p.value);
    await startTurn();
    say(`${t('say.takenBack', { values: taken.join(', '), n: taken.length })} ${$('#move-info').textContent}`);
  }),
);

$('#pass').addEventListener('click', () =>
  act(async () => {
    await call('place pass');
    state.lastMove = new Set();
    state.lastPlayed = null;
    sayPlayed({ seat: state.status.tomove, move: 'pass', points: 0 });
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
        if (r.code !== 'cannot_undo') throw new EngineError(r.code, r.message, 'undo', r.reason);
        break;
      }
      const st = P.status(await call('status'));
      if (st.phase === 'place' && seatOf(st.tomove).kind === 'human') break;
    }
    state.lastMove = new Set();
    state.lastPlayed = null;
    await refresh();
    if (moverIsHuman() && state.status.phase === 'place') {
      await startTurn();
      sayTurn();
    }
  }).then(() => advance()),
);

$('#show-hidden').addEventListener('change', () => render());

// ---- large cells ----------------------------------------------------------------------------
// On a touch screen too narrow for cells of TOUCH_CELL px, the board starts with large cells in
// its own scrolling box (style.css `.zoomed`); the player's own choice (`#zoom`) is remembered
// like the language and wins from then on. A mouse or a wide screen gets the fitted board.

const ZOOM_STORE = 'zatre-zoom';
/** The smallest cell a finger can hit, CSS px. */
const TOUCH_CELL = 32;
const coarse = window.matchMedia('(pointer: coarse)');

function storedZoom() {
  try {
    const v = localStorage.getItem(ZOOM_STORE);
    return v === 'on' ? true : v === 'off' ? false : null;
  } catch {
    return null; // storage may be off
  }
}

/** The width of a cell of the board fitted to the screen (not zoomed). */
function fittedCell() {
  const area = $('#board-area');
  const box = $('#board-scroll');
  const was = area.classList.contains('zoomed');
  const at = [box.scrollLeft, box.scrollTop];
  area.classList.remove('zoomed');
  const cell = $('#board [data-cell]');
  const width = cell ? cell.getBoundingClientRect().width : 0;
  area.classList.toggle('zoomed', was);
  // Measured between two frames: the box is where the player left it.
  box.scrollLeft = at[0];
  box.scrollTop = at[1];
  return width;
}

/** Zooms the board or not: the player's choice, else large cells on a touch screen that needs them. */
function applyZoom() {
  let on = storedZoom();
  if (on === null) on = coarse.matches && fittedCell() < TOUCH_CELL;
  $('#zoom').checked = on;
  $('#board-area').classList.toggle('zoomed', on);
  measureHeader();
  keepBoardInView();
}

/**
 * The header's height as wrapped now (its words differ by language): a zoomed board's box leaves
 * room for the hand under it.
 */
function measureHeader() {
  document.documentElement.style.setProperty('--header-now', `${$('header').offsetHeight}px`);
}

$('#zoom').addEventListener('change', () => {
  try {
    localStorage.setItem(ZOOM_STORE, $('#zoom').checked ? 'on' : 'off');
  } catch {
    // storage may be off: the choice holds for this page
  }
  $('#board-area').classList.toggle('zoomed', $('#zoom').checked);
  board.setFocus(board.focusName, false);
  keepBoardInView();
});
window.addEventListener('resize', () => applyZoom());
coarse.addEventListener('change', () => applyZoom());

/**
 * Keeps in the zoomed board's box what the player needs: the cells that take the picked tile, else
 * the hint shown, else this turn's tiles, else the last move, else the centre.
 */
function keepBoardInView() {
  if (!state.position || !state.status || !state.geometry) return;
  const pick = [[...accepts()], state.preview.map((p) => p.cell), state.pending.map((p) => p.cell), [...state.lastMove]];
  const names = pick.find((list) => list.length) || [state.geometry.centre].filter(Boolean);
  board.keepInView(names, `${state.history.length}`);
}

// ---- hints and engine seats ---------------------------------------------------------------

/** The engine's value: its expected final margin (PROTOCOL.md `info`), signed. */
function marginWords(score) {
  const x = Number(score);
  return `${x > 0 ? '+' : ''}${num(x, 1)}`;
}

function onInfo(line) {
  const info = P.info(line);
  // A turn line of a review's `analyse` is the review's to show.
  if (info.turn !== undefined) return;
  const k = Number(info.multipv || 1);
  state.infos.set(k, info);
  const best = state.infos.get(1) || info;
  // In players' words: how much it has looked at, not the search's stage or its milliseconds.
  let text = t('engine.thinking', { nodes: num(Number(best.nodes) || 0) });
  if (best.winprob !== undefined) text += ` · ${t('value.win', { win: num(Number(best.winprob) * 100, 0) })}`;
  $('#engine-info').textContent = text;
}

/** Runs `go <limits>`, showing its progress; resolves with the bestmove and the last infos. */
async function think(limits) {
  state.infos = new Map();
  $('#engine-info').textContent = t('engine.thinkingStart');
  const going = call(`go ${limits}`);
  state.thinking = going;
  try {
    const best = P.bestmove(await going);
    return { best, infos: new Map(state.infos) };
  } finally {
    if (state.thinking === going) state.thinking = null;
  }
}

/**
 * A computer seat's move: the search for the seat's time, or the engine's `greedy` or `random`
 * strategy (a weaker level, answered at once, shown after WEAK_MOVE_MS), the strategy set back to
 * the search after it so that hints and the review always search.
 */
async function seatMove(seat) {
  if (seat.level === 'search') return think(`movetime ${seat.movetime}`);
  const started = performance.now();
  await call(`setoption name Strategy value ${seat.level}`);
  let answer;
  try {
    answer = await think(`movetime ${seat.movetime}`);
  } finally {
    await call('setoption name Strategy value search');
  }
  const rest = WEAK_MOVE_MS - (performance.now() - started);
  if (rest > 0) await new Promise((r) => setTimeout(r, rest));
  return answer;
}

async function stopThinking() {
  const going = state.thinking;
  if (!going) return;
  try {
    await state.engine.request('stop');
    await going;
  } catch {
    // Its result is not wanted; a closed connection ends the search by itself.
  }
}

/** The points and crosses a move would score now (`score <move>`). */
async function movePoints(move) {
  if (!P.placements(move).length) return { points: 0, crosses: 0 };
  const f = P.fields((await call(`score ${move}`))[0] || '');
  return { points: Number(f.points), crosses: Number(f.crosses) };
}

function renderHints() {
  const box = $('#hints');
  box.replaceChildren(
    ...state.hints.map((h, k) => {
      const li = document.createElement('li');
      li.className = 'hint';
      li.dataset.hint = String(k + 1);
      li.dataset.move = h.move;
      const show = document.createElement('button');
      show.type = 'button';
      show.className = 'hint-show';
      const parts = [moveWords(h.move), t('hint.points', { n: h.points })];
      if (h.crosses) parts.push(t('hint.crosses', { n: h.crosses }));
      parts.push(t('value.margin', { margin: marginWords(h.score) }));
      if (h.winprob !== undefined) parts.push(t('value.win', { win: num(Number(h.winprob) * 100, 0) }));
      show.textContent = parts.join(' · ');
      show.title = t('hint.show');
      show.addEventListener('click', () => {
        state.preview = P.placements(h.move);
        state.refusal = null;
        render();
      });
      li.appendChild(show);
      if (P.placements(h.move).length) {
        const play = document.createElement('button');
        play.type = 'button';
        play.className = 'play-hint';
        play.textContent = t('hint.play');
        play.setAttribute('aria-label', `${t('hint.play')}: ${moveWords(h.move)}`);
        play.addEventListener('click', () => playHint(h.move));
        li.appendChild(play);
      }
      return li;
    }),
  );
  updateButtons();
}

/** Puts a hint's tiles down as the pending move (each checked by `next`, as if placed by hand). */
function playHint(move) {
  act(async () => {
    const hand = moverHand();
    const used = new Set();
    const pending = P.placements(move).map((p) => {
      const index = hand.findIndex((v, i) => v === p.value && !used.has(i));
      used.add(index);
      return { value: p.value, cell: p.cell, index };
    });
    if (pending.some((p) => p.index < 0)) throw new PageError('error.hintStale');
    const next = await askNext(pending);
    state.pending = pending;
    state.next = next;
    state.preview = [];
    state.selected = null;
    state.refusal = null;
    render();
  });
}

$('#hint').addEventListener('click', () =>
  act(async () => {
    if (state.multipv !== 3) {
      await call('setoption name MultiPV value 3');
      state.multipv = 3;
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
    state.hints = hints;
    state.preview = P.placements(hints[0].move);
    state.refusal = null;
    renderHints();
    render();
    $('#engine-info').textContent = '';
    // Said: the best hint, as its button reads (the others follow it in the list).
    say(`${t('hint.list')}: ${$('#hints .hint-show').textContent}`);
  }),
);

/** Plays the engine seats and the automatic draws until a human has to act or the game ends. */
async function advance() {
  const gen = state.generation;
  while (gen === state.generation && state.connected && !state.busy) {
    const s = state.status;
    // A review owns the engine; a New game or Save/Load dialog resumes play when it closes.
    if (!s || s.phase === 'over' || reviewOpen() || $('#new-game-dialog').open || $('#save-dialog').open) return;
    const seat = seatOf(s.tomove);
    let progressed = false;
    await act(async () => {
      if (seat.kind === 'engine') {
        if (s.phase === 'draw') {
          await call('draw');
        } else {
          const { best } = await seatMove(seat);
          if (gen !== state.generation) return;
          const placed = P.fields((await call(`place ${best.move}`))[0] || '');
          state.lastMove = new Set(P.placements(best.move).map((p) => p.cell));
          state.lastPlayed = { seat: s.tomove, move: best.move, points: Number(placed.points || 0) };
          sayPlayed(state.lastPlayed);
        }
        await refresh();
        progressed = true;
      } else if (s.phase === 'draw' && $('#auto-draw').checked) {
        await call('draw');
        await refresh();
        progressed = true;
      } else if (s.phase === 'place' && !state.next) {
        await startTurn();
        sayTurn();
      }
    });
    if (!progressed) return;
    // Let the page paint between moves.
    await new Promise((r) => setTimeout(r, 30));
  }
}

// ---- new game, save and load --------------------------------------------------------------

$('#new-game').addEventListener('click', () => dialog.open());
$('#result-new-game').addEventListener('click', () => dialog.open());
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
    dismissError();
    state.seats = game.seats;
    state.lastMove = new Set();
    state.lastPlayed = null;
    $('#engine-info').textContent = '';
    // A seed typed by the player is for this game; the next one gets a new seed unless typed.
    $('#seed').value = '';
    await loadBoard();
    await refresh();
    $('#new-game-dialog').close();
  });
  advance();
}

/**
 * The saved game: `seats=<seat>,<seat>... position <history>`, a seat `human`,
 * `engine:<ms per move>` (the search) or `engine:greedy` / `engine:random` (the weaker levels).
 * The part from `position` on is the engine's own line.
 */
function saveLine() {
  const word = (s) => (s.kind === 'human' ? 'human' : `engine:${s.level === 'search' ? s.movetime : s.level}`);
  const seats = state.seats.map(word).join(',');
  return `seats=${seats} position ${state.history}`;
}

/** Reads a saved line: {seats (or null), line (the `position` arguments)}. */
function readSaved(text) {
  let line = text.trim().replace(/\s+/g, ' ');
  let seats = null;
  if (line.startsWith('seats=')) {
    const sp = line.indexOf(' ');
    const word = sp < 0 ? line : line.slice(0, sp);
    line = sp < 0 ? '' : line.slice(sp + 1);
    seats = word.slice('seats='.length).split(',').map((s) => {
      if (s === 'human') return newSeat('human');
      const weak = /^engine:(greedy|random)$/.exec(s);
      if (weak) return newSeat('engine', weak[1]);
      const m = /^engine:(\d{1,6})$/.exec(s);
      if (!m || Number(m[1]) < 10 || Number(m[1]) > 600000) throw new PageError('load.badSeats');
      return newSeat('engine', 'search', Number(m[1]));
    });
    if (!seats.length || seats.length > 6) throw new PageError('load.badSeats');
  }
  if (line.startsWith('position ')) line = line.slice('position '.length);
  if (!line) throw new PageError('load.empty');
  if (line.length + 20 > MAX_LINE) throw new PageError('load.tooLong');
  return { seats, line };
}

$('#save-load').addEventListener('click', () => {
  $('#copied').textContent = '';
  $('#save-dialog').showModal();
});
$('#close-save').addEventListener('click', () => $('#save-dialog').close());
$('#save-dialog').addEventListener('close', () => advance());

$('#copy').addEventListener('click', async () => {
  const text = $('#save-text').value;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    $('#save-text').select();
    document.execCommand('copy');
  }
  $('#copied').textContent = t('save.copied');
});

$('#download').addEventListener('click', () => {
  const blob = new Blob([`${$('#save-text').value}\n`], { type: 'text/plain' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  const s = state.status;
  a.download = `zatre-${state.position ? state.position.variant : 'game'}-${s ? s.turn : 0}.txt`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
});

$('#load').addEventListener('click', async () => {
  let saved;
  try {
    saved = readSaved($('#load-line').value);
  } catch (e) {
    showError(e);
    return;
  }
  await interrupt();
  await act(async () => {
    await call(`position ${saved.line}`);
    dismissError();
    if (saved.seats) {
      state.seats = saved.seats;
      dialog.setSeats(saved.seats);
    }
    state.lastMove = new Set();
    state.lastPlayed = null;
    await loadBoard();
    await refresh();
    $('#save-dialog').close();
  });
  advance();
});

// ---- help ---------------------------------------------------------------------------------

function paragraphs(text) {
  return text.split('\n').filter(Boolean).map((line) => {
    const p = document.createElement('p');
    p.textContent = line;
    return p;
  });
}

function renderHelp() {
  const sel = $('#help-variant');
  const chosen = sel.value || (state.position && state.position.variant) || 'classic';
  const names = state.variants.length ? state.variants.map((v) => v.name) : [chosen];
  sel.replaceChildren(
    ...names.map((n) => {
      const o = document.createElement('option');
      o.value = n;
      o.textContent = variantName(n);
      return o;
    }),
  );
  sel.value = names.includes(chosen) ? chosen : names[0];
  $('#help-text').replaceChildren(...paragraphs(tOr(`help.${sel.value}`, t('help.unknown'))));
  $('#help-keys').replaceChildren(...paragraphs(t('help.keys')));
}

$('#help-variant').addEventListener('change', () => renderHelp());
$('#result-help').addEventListener('click', () => $('#help').click());
$('#help').addEventListener('click', () => {
  if (state.position) $('#help-variant').value = state.position.variant;
  renderHelp();
  $('#help-dialog').showModal();
});
$('#close-help').addEventListener('click', () => $('#help-dialog').close());

// ---- start --------------------------------------------------------------------------------

window.addEventListener('beforeunload', () => state.engine && state.engine.close());

fillLanguagePicker();
applyLanguage(initialLang());

act(async () => {
  await connect();
  await loadBoard();
  await refresh();
  dialog.open();
});

// ---- review mode ----------------------------------------------------------------------------
// js/review.js owns it; here only the ways in (the header's Review, the result's "Review this
// game") and out (the game on the board comes back from its `history`).

import { Review, expose as exposeReview } from './review.js';

const review = new Review({
  engine: () => state.engine,
  board,
  variants: () => state.variants,
  showError: (e) => showError(e && e.key && !(e instanceof Error) ? new PageError(e.key) : e),
  leave: () =>
    act(async () => {
      if (!state.connected) {
        // The banner's Reconnect brings the game back; until then the board shows it as it was.
        board.build(state.geometry);
        applyZoom();
        render();
        return;
      }
      await call(state.history ? `position ${state.history}` : 'newgame');
      await loadBoard();
      await refresh();
    }).then(() => advance()),
  shown: () => updateButtons(),
});

/** Whether review mode is open (it owns the engine meanwhile). Read from the page, as Review.show
 * marks it: buttons are updated before the review above exists. */
function reviewOpen() {
  return document.body.classList.contains('reviewing');
}
exposeReview(review);

/** The game on the board as a line the review reads. */
function currentGameLine() {
  return state.history ? `position ${state.history}` : '';
}

async function enterReview(line) {
  await interrupt();
  $('#result').hidden = true;
  if (line) {
    $('#review-input').value = line;
    await review.act(() => review.load(line));
  } else {
    review.show(true);
    $('#review-input').focus();
  }
}

$('#review-enter').addEventListener('click', () => enterReview(''));
$('#review-this').addEventListener('click', () => enterReview(currentGameLine()));
$('#review-current').addEventListener('click', () => enterReview(currentGameLine()));
$('#lang').addEventListener('change', () => review.relabel());
// The header's Review waits for the engine, as New game does.
new MutationObserver(() => {
  $('#review-enter').disabled = $('#new-game').disabled;
}).observe($('#new-game'), { attributes: true, attributeFilter: ['disabled'] });
