// The page's state, in one place: the mode it is in, the connection, what the engine last
// confirmed, the seats, the turn being built, the engine's work and the player's settings. The
// views receive it and draw from it; nothing is read back from the page. It changes only through
// the transitions below, each named for what happened; `state` itself refuses a field set from
// outside. Nothing here touches the page or the engine.

import { newSeat } from './dialog.js';

/**
 * What the page is doing: connecting to the engine (the first time, or again after a close),
 * playing the game on the board, or reviewing a game (the review then owns the engine). A modal
 * dialog (`dialog`) is over the mode, not one of its own: the help opens in a review too.
 */
export const MODE = Object.freeze({ CONNECTING: 'connecting', PLAYING: 'playing', REVIEW: 'review' });

/** The modal dialogs by name: the element is `#<name>-dialog`. */
export const DIALOGS = Object.freeze(['new-game', 'save', 'help']);

const s = {
  mode: MODE.CONNECTING,
  dialog: null, // the modal dialog open over the mode, one of DIALOGS
  // The connection.
  engine: null, // the EngineClient
  connected: false,
  closed: null, // {code, reason, opened} of the last close, until the next connect
  multipv: 1, // the engine's MultiPV as the page set it
  variants: [], // parsed `variants`, read once
  geometry: null, // parsed `geometry` of the game on the board
  // What the engine last confirmed.
  position: null,
  status: null,
  score: null,
  history: '',
  // Who sits where (the engine does not know: this is the page's own setting, saved with the game).
  seats: [newSeat('human'), newSeat('engine')],
  // At the table: the tiles come from a real bag, the numbers from real dice, and a person enters
  // each draw (every seat's, a computer's too); the page draws nothing itself.
  table: false,
  drawn: [], // the values entered for the draw due, not yet confirmed
  drawRefusal: null, // the engine's refusal of the values entered: {values, code, reason}
  // The human turn being built.
  selected: null, // index into the mover's hand
  pending: [], // [{value, cell, index}], each confirmed by `next`
  next: null, // parsed `next` for `pending`
  passOk: false, // `next` with no placements says complete: the turn may pass
  preview: [], // placements of the hint shown on the board
  hints: [], // [{move, points, crosses, score, winprob}] of the last Hint
  refusal: null, // why the last cell tapped did not take the tile: {value, cell, why, params}
  placedAt: null, // {cell, time} of the last tile put down: a double tap does not take it back
  // The last move played.
  lastMove: new Set(), // its cells
  lastPlayed: null, // {seat, move, points} of the engine seat's last move
  // The engine's work.
  busy: false, // a user action (or a computer seat's move) runs
  thinking: null, // the promise of a running `go`
  generation: 0, // bumped by a new game, a load, an undo or a close: stale loops stop
  infos: new Map(), // multipv -> latest parsed info of the running go
  // The player's settings (the page's checkboxes and pickers show them).
  showHidden: false, // show other players' kept tiles
  autoDraw: true, // draw for the human seats by itself
  zoom: false, // large cells (the player's choice, or the touch screen's)
  helpVariant: '', // the variant How to play explains
  // What is shown, to say again in another language.
  shownError: null, // the error in the red bar
};

/** The page's state: read it anywhere; change it through the transitions of this module. */
export const state = new Proxy(s, {
  set(_, key) {
    throw new Error(`state.${String(key)} changes through a transition of state.js`);
  },
  deleteProperty(_, key) {
    throw new Error(`state.${String(key)} changes through a transition of state.js`);
  },
});

// ---- queries: what follows from the state --------------------------------------------------

/** Seat n (1-based); a seat the page has no setting for is a person. */
export function seatOf(st, n) {
  return st.seats[n - 1] || newSeat('human');
}

/** How many seats are people. */
export function humans(st) {
  return st.seats.filter((x) => x.kind === 'human').length;
}

/** Whether seat n is the page's one human seat (the sentences then say "you"). */
export function isYou(st, n) {
  return seatOf(st, n).kind === 'human' && humans(st) === 1;
}

/** The hand of the seat to move. */
export function moverHand(st) {
  if (!st.position || !st.status) return [];
  return st.position.hands[st.status.tomove - 1] || [];
}

/** Whether a person is to act (draw or place) in a game not over. */
export function moverIsHuman(st) {
  return Boolean(st.status) && st.status.phase !== 'over' && seatOf(st, st.status.tomove).kind === 'human';
}

/** Whether a person is to place tiles now. */
export function humanPlaces(st) {
  return moverIsHuman(st) && st.status.phase === 'place';
}

/** Whether seat n's hand is shown face up: the rules keep other players' kept tiles hidden. */
export function handVisible(st, n) {
  if (st.showHidden || !st.status || st.status.phase === 'over') return true;
  if (humans(st) === 1) return seatOf(st, n).kind === 'human';
  return n === st.status.tomove && seatOf(st, n).kind === 'human';
}

/**
 * Whether a draw is to be entered at the table now: the game is played at the table and the
 * engine's status calls for a draw of one value or more (a draw of none the page sends itself).
 */
export function tableDrawDue(st) {
  return st.table && Boolean(st.status) && st.status.phase === 'draw' && st.status.due > 0;
}

/**
 * The values a person can enter for a draw: the tiles of the game, the faces of its dice
 * (PROTOCOL.md, `draw` and the draw step: classic and dice 1 to 6, kids 0 to 5; the engine refuses
 * any other as `invalid_argument`).
 */
export function drawValues(st) {
  const low = st.position && st.position.variant === 'kids' ? 0 : 1;
  return [0, 1, 2, 3, 4, 5].map((k) => low + k);
}

/** Team number -> its seats, from the sheets of `score`. */
export function teamSeats(st) {
  const out = {};
  if (st.score) for (const x of st.score.sheets) if (x.kind === 'team') out[x.n] = x.seats;
  return out;
}

/** The cells that take the selected hand tile, by `next`. */
export function accepts(st) {
  const out = new Set();
  if (st.selected === null || !st.next) return out;
  const value = moverHand(st)[st.selected];
  for (const p of st.next.next) if (p.value === value) out.add(p.cell);
  return out;
}

/** The hand's indexes of this turn's tiles. */
export function usedIndexes(st) {
  return new Set(st.pending.map((p) => p.index));
}

/**
 * Whether the computer seats and the automatic draws wait: a review owns the engine, and a New
 * game or Save / load dialog resumes play when it closes (the help does not stop play).
 */
export function playPaused(st) {
  return st.mode === MODE.REVIEW || st.dialog === 'new-game' || st.dialog === 'save';
}

// ---- transitions: the connection -------------------------------------------------------------

/** A connection to a new engine is being opened. */
export function connecting(engine) {
  s.mode = MODE.CONNECTING;
  s.engine = engine;
  s.closed = null;
}

/** The engine answers, in the protocol's version the page speaks. */
export function connected() {
  s.connected = true;
  s.multipv = 1;
  s.mode = MODE.PLAYING;
}

/** The bridge closed the connection: a running search and the loops of the seats are over. */
export function connectionClosed(closed) {
  s.connected = false;
  s.thinking = null;
  s.generation++;
  s.closed = closed;
}

/** The engine's variants (once: a reconnect keeps them). */
export function variantsRead(variants) {
  s.variants = variants;
}

/** The engine's MultiPV, as the page set it. */
export function multipvSet(n) {
  s.multipv = n;
}

// ---- transitions: what the engine confirmed --------------------------------------------------

/** The board's shape of the game now on the engine. */
export function geometryRead(geometry) {
  s.geometry = geometry;
}

/**
 * The engine's position, status, score and history: the seats follow the number of players, and
 * the turn being built starts again from nothing.
 */
export function confirmed({ position, status, score, history }) {
  s.position = position;
  s.status = status;
  s.score = score;
  s.history = history;
  const seats = s.seats.slice(0, Math.max(position.players, 1));
  while (seats.length < position.players) seats.push(newSeat('engine'));
  s.seats = seats;
  turnAt([], null);
  s.drawn = [];
  s.drawRefusal = null;
  s.passOk = false;
  s.preview = [];
  s.hints = [];
}

/** A move was played (`cells` its tiles' cells); `played` the computer seat's {seat, move, points}. */
export function moved(cells, played = null) {
  s.lastMove = new Set(cells);
  s.lastPlayed = played;
}

/** The seats of a new game, or of a loaded one. */
export function seatsChosen(seats) {
  s.seats = seats;
}

/** The game's draws come from the table (`on`), or the page draws and rolls them. */
export function tableChosen(on) {
  s.table = Boolean(on);
  s.drawn = [];
  s.drawRefusal = null;
}

// ---- transitions: a draw entered at the table ------------------------------------------------

/** A value entered for the draw due (the refusal of the values before is then out of date). */
export function drawValueEntered(value) {
  s.drawn = [...s.drawn, value];
  s.drawRefusal = null;
}

/** The last value entered taken back, to correct a mistake before confirming. */
export function drawValueRemoved() {
  s.drawn = s.drawn.slice(0, -1);
  s.drawRefusal = null;
}

/** The engine refused the values entered (`draw <values>`): they stay, to be corrected. */
export function drawRefused(refusal) {
  s.drawRefusal = refusal;
}

// ---- transitions: the turn being built ---------------------------------------------------------

/**
 * The turn being built stands at `pending`, the tiles put down, and `next`, what may follow them
 * (null: not asked yet); no tile is picked and no refusal shown.
 */
function turnAt(pending, next) {
  s.pending = pending;
  s.next = next;
  s.selected = null;
  s.refusal = null;
}

/** A person's turn to place begins: `next` with no placements. */
export function turnStarted(next) {
  turnAt([], next);
  s.passOk = next.complete === 'yes';
}

/** Hand tile `index` picked, or put back when it was the one picked. */
export function tilePicked(index) {
  s.selected = s.selected === index ? null : index;
  s.refusal = null;
}

/** The picked tile put back in the hand. */
export function tilePutBack() {
  s.selected = null;
  s.refusal = null;
}

/** A tile put down on `cell` at `time` (ms), confirmed by `next`. */
export function tilePlaced(pending, next, cell, time) {
  turnAt(pending, next);
  s.preview = [];
  s.placedAt = { cell, time };
}

/** This turn's tiles after some were taken back, confirmed by `next`. */
export function tilesTakenBack(pending, next) {
  turnAt(pending, next);
}

/** A hint's tiles put down as the pending move, confirmed by `next`. */
export function hintPutDown(pending, next) {
  turnAt(pending, next);
  s.preview = [];
}

/** A cell did not take the tile: why, to show and say. */
export function refused(refusal) {
  s.refusal = refusal;
}

/** The hints of the engine, the best shown on the board (`preview`: its placements). */
export function hintsFound(hints, preview) {
  s.hints = hints;
  s.preview = preview;
  s.refusal = null;
}

/** A hint shown on the board (its placements). */
export function hintShown(preview) {
  s.preview = preview;
  s.refusal = null;
}

// ---- transitions: the engine's work ----------------------------------------------------------

/** A user action (or a computer seat's move) starts or ends. */
export function busyChanged(on) {
  s.busy = on;
}

/** A `go` runs (`going`, the promise of its answer). */
export function searchStarted(going) {
  s.infos = new Map();
  s.thinking = going;
}

/** The `go` `going` answered (a later one may run already). */
export function searchEnded(going) {
  if (s.thinking === going) s.thinking = null;
}

/** An `info` line of the running search, for its line `k` (MultiPV). */
export function infoArrived(k, info) {
  s.infos.set(k, info);
}

/** What the seats' loops were doing is stale (a new game, a load, an undo). */
export function playInterrupted() {
  s.generation++;
}

// ---- transitions: the mode, the dialogs, the settings -------------------------------------------

/** A modal dialog opened (one of DIALOGS). */
export function dialogOpened(name) {
  s.dialog = name;
}

/** A modal dialog closed (by a button, Escape or the page). */
export function dialogClosed(name) {
  if (s.dialog === name) s.dialog = null;
}

/** Review mode opened or closed. */
export function reviewShown(on) {
  if (on) s.mode = MODE.REVIEW;
  else if (s.mode === MODE.REVIEW) s.mode = MODE.PLAYING;
}

/** The player's settings, by name: what `settingChosen` may set. */
const SETTINGS = ['showHidden', 'autoDraw', 'zoom', 'helpVariant'];

/**
 * One of the player's settings chosen (`showHidden`, `autoDraw`, `helpVariant`), or set for the
 * screen (`zoom`: large cells on a touch screen that needs them, until the player chooses).
 */
export function settingChosen(name, value) {
  if (!SETTINGS.includes(name)) throw new Error(`no setting ${name}`);
  s[name] = value;
}

/** An error shown in the red bar (kept to say again in another language); null when dismissed. */
export function errorShown(e) {
  s.shownError = e;
}
