// Review mode: a game read from a `position startpos ... moves ...` line, a zatre-match
// record or a saved analysis, shown turn by turn on the board, and analysed in the page's engine
// with one command, `analyse nodes <n> startpos ... moves ...` (PROTOCOL.md, `analyse`), as
// zatre-analyse does it: the engine reports each turn as it is done, with the move played and its
// value, its best move and value, the points lost and each seat's margin after the turn (the
// chart's curves). The page holds no rule and computes no value, loss or curve: every position,
// sheet, turn number, seat and point comes from the engine (`position`, `status`, `score`,
// `score <move>`, `analyse`); the page only tells a draw token (`+...`) from a move token, which is
// notation. The chart is drawn here as SVG, the same chart as `zatre-analyse --svg`
// (tools/src/analyse/graph.rs) from the same margins.

import * as P from './parse.js';
import { renderSheets } from './sheets.js';
import { t, num, setRolled, translateStatic } from './i18n.js';
import { ConnectionClosed } from './protocol.js';
import { moveWords } from './words.js';
import { offerFile } from './download.js';

const $ = (sel) => document.querySelector(sel);
const SVG = 'http://www.w3.org/2000/svg';

/** The node limit of each search unless chosen: zatre-analyse's default. */
export const DEFAULT_NODES = 1000000;
/** How many of a seat's worst moves are listed, as zatre-analyse lists them. */
const WORST = 5;
/** One colour per seat, as `zatre-analyse --svg` draws them (Okabe and Ito's palette). */
const COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#8a6d00', '#56606b'];
/**
 * Each seat's line pattern too, so that the lines are told apart without their colours (as
 * SEAT_DASHES in tools/src/analyse/graph.rs).
 */
const DASHES = ['none', '8 4', '2 3', '10 3 2 3', '4 4', '1 3'];

/** An input the review cannot read, named by its catalogue key. */
export class ReviewError extends Error {
  constructor(key) {
    super(key);
    this.key = key;
  }
}

/**
 * Reads what was pasted or opened: the first game line of it. A JSON object with `replay` (a
 * zatre-match record, `zatre-analyse --json` output or a saved review, whose `turns` come back
 * as the analysis), or a `position startpos ...` line (the board's saved line `seats=... position
 * ...` and the `startpos ...` payload of `history` too). Returns {start, tokens, engines, turns}.
 */
export function readGame(text) {
  const line = text.split('\n').map((l) => l.trim()).find((l) => l && !l.startsWith('#'));
  if (!line) throw new ReviewError('review.error.empty');
  let replay = line;
  let engines = [];
  let turns = null;
  let go = null;
  let lost = null;
  if (line.startsWith('{')) {
    let obj;
    try {
      obj = JSON.parse(line);
    } catch {
      throw new ReviewError('review.error.json');
    }
    if (!obj || typeof obj.replay !== 'string') throw new ReviewError('review.error.json');
    replay = obj.replay;
    if (Array.isArray(obj.engines)) engines = obj.engines.map(String);
    if (Array.isArray(obj.turns)) turns = obj.turns.map(savedTurn);
    if (typeof obj.go === 'string') go = obj.go;
    // The totals of a saved analysis, by seat, as its engine gave them.
    if (Array.isArray(obj.seats)) {
      lost = [];
      for (const x of obj.seats) if (x && Number.isInteger(x.seat) && typeof x.lost === 'number') lost[x.seat - 1] = x.lost;
    }
  }
  let words = replay.trim().split(/\s+/);
  if (words[0] && words[0].startsWith('seats=')) words = words.slice(1);
  if (words[0] === 'position') words = words.slice(1);
  if (words[0] !== 'startpos') throw new ReviewError('review.error.noStart');
  const at = words.indexOf('moves');
  const start = `position ${(at < 0 ? words : words.slice(0, at)).join(' ')}`;
  const tokens = at < 0 ? [] : words.slice(at + 1);
  return { start, tokens, engines, turns, go, lost };
}

/** A turn of a saved analysis, its numbers checked. */
function savedTurn(x) {
  const n = (v) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new ReviewError('review.error.json');
    return v;
  };
  if (!x || typeof x.played !== 'string' || typeof x.best !== 'string') throw new ReviewError('review.error.json');
  return {
    played: x.played,
    playedValue: n(x.played_value),
    best: x.best,
    bestValue: n(x.best_value),
    playedIsBest: x.played_is_best === true,
    lost: n(x.loss),
    // A file of an analysis before the engine gave margins has no curve points.
    margins: Array.isArray(x.margins) ? x.margins.map((m) => (typeof m === 'number' && Number.isFinite(m) ? m : null)) : null,
    playedPoints: typeof x.played_points === 'number' ? x.played_points : null,
    bestPoints: typeof x.best_points === 'number' ? x.best_points : null,
    go: typeof x.go === 'string' ? x.go : null,
  };
}

/** A move's placements in a fixed order: two moves are the same when these are. */
function canonical(move) {
  return P.placements(move).map((p) => `${p.value}@${p.cell}`).sort().join(',');
}

/** A number rounded to tenths, as the page shows values (never -0). */
function tenths(x) {
  return Math.round(x * 10) / 10 || 0;
}

/** A turn's loss, as the engine says it (`lost`: never below 0, 0 when the best was played). */
export function loss(a) {
  return a.lost;
}

/**
 * Each seat's expected final margin after every turn, by seat: the engine's `margins` of each
 * analysed turn, null where it gives none (before a seat's first move with more than two sheets,
 * a turn not analysed, a saved analysis without margins).
 */
export function curves(turns, players) {
  return Array.from({ length: players }, (_, s) =>
    turns.map((tn) => {
      const m = tn.analysis && tn.analysis.margins;
      return m && typeof m[s] === 'number' ? m[s] : null;
    }),
  );
}

/** About `lines` grid lines 1, 2 or 5 times a power of ten apart, at least one point: [lo, hi, step]. */
function niceRange(lo, hi, lines) {
  const raw = Math.max(hi - lo, lines) / lines;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const a = Math.floor(lo / step) * step;
  const b = Math.max(Math.ceil(hi / step) * step, a + step);
  return [a, b, step];
}

function el(tag, attrs = {}, text = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  return e;
}

function svgEl(tag, attrs = {}) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** The controls that load a game into the review: off while one loads. */
const LOAD_CONTROLS = ['#review-open-text', '#review-file', '#review-current'];

/**
 * The review: its game, its analysis and its view.
 * @param deps {engine(): the EngineClient, board: the page's BoardView, variants(): parsed
 *   `variants`, showError(e), leave(): called after the review closed, to give the engine back,
 *   shown(on): told when review mode opens or closes}
 */
export class Review {
  constructor(deps) {
    this.deps = deps;
    this.game = null; // {start, tokens, engines, go, turns: [...], end, geometry, variant, players}
    this.step = 0; // 0..turns.length - 1: before that turn; turns.length: the end
    this.queue = Promise.resolve(); // engine work, one block at a time
    this.running = false;
    this.stopping = false;
    this.loading = false;
    this.open = false;
    this.bind();
  }

  // ---- the engine ----------------------------------------------------------------------------

  call(command) {
    return this.deps.engine().call(command);
  }

  /** Runs `task` when the engine work before it is done (a setup and its questions belong together). */
  exclusive(task) {
    const run = this.queue.then(task);
    this.queue = run.catch(() => {});
    return run;
  }

  /** Sets up the engine's position before token `count` of the game. */
  async setup(count, g = this.game) {
    const moves = count > 0 ? ` moves ${g.tokens.slice(0, count).join(' ')}` : '';
    await this.call(`${g.start}${moves}`);
  }

  /** What the board and sheets show at the engine's position: {position, status, score}. */
  async view() {
    const [pos, st, sc] = await Promise.all([this.call('position'), this.call('status'), this.call('score')]);
    return { position: P.position(pos[0] || ''), status: P.status(st), score: P.score(sc) };
  }

  /** `score <move>`'s points (0 for a pass). */
  async points(move) {
    if (!P.placements(move).length) return 0;
    return Number(P.fields((await this.call(`score ${move}`))[0] || '').points || 0);
  }

  // ---- loading ---------------------------------------------------------------------------------

  /** Opens review mode on `text` (see readGame); the engine replays it, turn by turn. */
  async load(text) {
    // One load at a time: a second click on Open would replay the game twice over.
    if (this.loading) return;
    this.loading = true;
    for (const control of LOAD_CONTROLS) $(control).disabled = true;
    try {
      const read = readGame(text);
      await this.stop();
      this.show(true);
      document.body.dataset.review = 'loading';
      $('#review-state').textContent = t('review.reading');
      try {
        // A game that cannot be read leaves the one under review as it was.
        this.game = await this.exclusive(() => this.replay(read));
      } finally {
        $('#review-state').textContent = '';
        if (this.game) this.renderProgress();
        else delete document.body.dataset.review;
      }
    } finally {
      this.loading = false;
      for (const control of LOAD_CONTROLS) $(control).disabled = false;
    }
    this.deps.board.build(this.game.geometry);
    this.step = 0;
    $('#review-state').textContent = '';
    $('#review-load').open = false;
    if (this.game.go) {
      const m = /nodes (\d+)/.exec(this.game.go);
      if (m) $('#review-nodes').value = m[1];
    }
    this.render();
    $('#review-step').focus();
  }

  /** Replays the game read in the engine: the view before every move and at the end. */
  async replay(read) {
    const game = { ...read, turns: [] };
    // The whole game first: a bad line is refused before anything else is asked.
    await this.setup(read.tokens.length, game);
    const end = await this.view();
    const geometry = P.geometry(await this.call('geometry'));
    const saved = read.turns || [];
    for (let k = 0; k < read.tokens.length; k++) {
      if (read.tokens[k].startsWith('+')) continue;
      await this.setup(k, game);
      const v = await this.view();
      const played = read.tokens[k];
      const points = await this.points(played);
      // A saved analysis of this turn: its move must be the one played; the points it lacks (as
      // zatre-analyse --json has none) are asked here.
      const a = saved[game.turns.length] || null;
      if (a) {
        if (canonical(a.played) !== canonical(played)) throw new ReviewError('review.error.mismatch');
        if (a.playedPoints === null) a.playedPoints = points;
        if (a.bestPoints === null) a.bestPoints = a.playedIsBest ? points : await this.points(a.best);
      }
      game.turns.push({ before: k, played, turn: v.status.turn, seat: v.status.tomove, view: v, points, analysis: a });
    }
    if (!game.turns.length) throw new ReviewError('review.error.noMoves');
    if (saved.length > game.turns.length) throw new ReviewError('review.error.mismatch');
    game.end = end;
    game.geometry = geometry;
    game.players = end.position.players;
    game.variant = end.position.variant;
    return game;
  }

  // ---- the analysis ----------------------------------------------------------------------------

  /**
   * Analyses the game with one `analyse`: every turn, in order, each shown as the engine reports
   * it, until done or stopped. A turn analysed before (a saved analysis, a run stopped earlier) is
   * replaced by the engine's new word on it.
   */
  async analyse() {
    if (!this.game || this.running) return;
    const nodes = Math.round(Number($('#review-nodes').value));
    if (!Number.isFinite(nodes) || nodes < 1 || nodes > 100000000) throw new ReviewError('review.error.nodes');
    this.game.go = `nodes ${nodes}`;
    this.running = true;
    this.stopping = false;
    this.renderProgress();
    try {
      await this.exclusive(() => this.analyseGame(`nodes ${nodes}`));
    } finally {
      this.running = false;
      this.stopping = false;
      this.renderProgress();
      this.renderAnalysis();
    }
  }

  /** Runs `analyse <limits> startpos ... moves ...`, taking each turn line as it comes. */
  async analyseGame(limits) {
    const g = this.game;
    const engine = this.deps.engine();
    let k = 0;
    let bad = false;
    const onInfo = (ev) => {
      const a = P.analysedTurn(ev.detail);
      if (!a || bad || !this.open) return;
      const turn = g.turns[k];
      if (!turn || turn.turn !== a.turn || turn.seat !== a.seat) {
        bad = true;
        return;
      }
      k += 1;
      turn.analysis = { ...a, go: limits };
      this.renderProgress();
      // The turn on show gets its words and the best move on the board as soon as it is done.
      if (turn === g.turns[this.step]) this.render();
      else this.renderAnalysis();
    };
    engine.addEventListener('info', onInfo);
    try {
      const game = g.tokens.length ? `${g.start} moves ${g.tokens.join(' ')}` : g.start;
      const answer = P.analysed(await this.call(`analyse ${limits} ${game.replace(/^position /, '')}`));
      if (bad || !answer || answer.done !== k) throw new ReviewError('review.error.answer');
      // The engine's totals of this run: the whole game's when it was not stopped.
      g.lost = answer.stopped ? null : answer.lost;
    } finally {
      engine.removeEventListener('info', onInfo);
    }
  }

  /** Ends a running analysis (the turn being searched is dropped) and waits for it. */
  async stop() {
    if (!this.running) return;
    this.stopping = true;
    try {
      await this.deps.engine().request('stop');
    } catch {
      // the connection is gone: the loop ends by itself
    }
    while (this.running) await new Promise((r) => setTimeout(r, 20));
  }

  /** The game and its analysis as one JSON line: zatre-analyse --json's fields and the points. */
  json() {
    const g = this.game;
    if (!g) return '';
    const replay = g.tokens.length ? `${g.start} moves ${g.tokens.join(' ')}` : g.start;
    const turns = g.turns.filter((tn) => tn.analysis).map((tn) => this.turnJson(tn));
    const seats = [];
    for (let s = 1; s <= g.players; s++) {
      const mine = g.turns.filter((tn) => tn.seat === s && tn.analysis);
      seats.push({
        seat: s,
        moves: mine.length,
        lost: this.seatLost(s),
        worst: this.worst(s).map((tn) => this.turnJson(tn)),
      });
    }
    return JSON.stringify({
      source: 'review',
      replay,
      engines: g.engines.length ? g.engines : null,
      analyser: 'zatre-web',
      go: g.go,
      finished: g.end.status.phase === 'over',
      turns,
      seats,
    });
  }

  turnJson(tn) {
    const a = tn.analysis;
    return {
      turn: tn.turn,
      seat: tn.seat,
      played: a.played,
      played_value: a.playedValue,
      played_points: a.playedPoints,
      best: a.best,
      best_value: a.bestValue,
      best_points: a.bestPoints,
      played_is_best: a.playedIsBest,
      loss: loss(a),
      margins: a.margins,
      // The limits of this turn's searches, when they were not the game's (`go`): an analysis
      // stopped and taken up again with another node count.
      go: a.go && a.go !== this.game.go ? a.go : undefined,
    };
  }

  /**
   * A seat's points lost over the game: the engine's total of its last whole analysis (or of a
   * saved one); for a game analysed in part, the sum of the engine's losses of its turns.
   */
  seatLost(seat) {
    const g = this.game;
    if (g.lost && Number.isFinite(g.lost[seat - 1])) return g.lost[seat - 1];
    const mine = g.turns.filter((tn) => tn.seat === seat && tn.analysis);
    return Math.round(mine.reduce((a, tn) => a + loss(tn.analysis), 0) * 100) / 100;
  }

  /** A seat's worst moves, worst first (ties: the earlier turn first), at most five, each lost > 0. */
  worst(seat) {
    return this.game.turns
      .filter((tn) => tn.seat === seat && tn.analysis && loss(tn.analysis) > 0)
      .sort((a, b) => loss(b.analysis) - loss(a.analysis))
      .slice(0, WORST);
  }

  // ---- the view --------------------------------------------------------------------------------

  /** Shows or hides review mode (the page's own panels give way to it). */
  show(on) {
    this.open = on;
    document.body.classList.toggle('reviewing', on);
    $('#review').hidden = !on;
    $('#review-side').hidden = !on;
    this.deps.shown(on);
  }

  /** Leaves review mode at once, without the engine (its connection is gone): a reconnect takes
   * the game on the board up again; the review's game and analysis are dropped. */
  abandon() {
    // A running analysis ends by itself: its requests fail with the connection, and it stops
    // once the review is no longer open.
    this.show(false);
    this.game = null;
    delete document.body.dataset.review;
  }

  async close() {
    await this.stop();
    await this.queue;
    this.show(false);
    this.game = null;
    await this.deps.leave();
  }

  goTo(step) {
    if (!this.game) return;
    this.step = Math.max(0, Math.min(this.game.turns.length, step));
    this.render();
  }

  seatName(n) {
    return this.game.engines[n - 1] ? t('review.seatEngine', { n }) : t('review.seat', { n });
  }

  /** A value as a number to a tenth (the table's columns), signed unless alone (a score). */
  value(x) {
    const r = tenths(x);
    return `${r > 0 && this.game.players > 1 ? '+' : ''}${num(r, 1)}`;
  }

  /**
   * A value in words: how far ahead or behind the mover is expected to finish (PROTOCOL.md
   * `info`'s score: the expected final margin over the best other sheet), alone the expected
   * final score.
   */
  valueWords(x) {
    const r = tenths(x);
    if (this.game.players === 1) return t('review.expectScore', { n: num(r, 1) });
    if (r === 0) return t('review.expectLevel');
    return t(r > 0 ? 'review.expectAhead' : 'review.expectBehind', { n: num(Math.abs(r), 1) });
  }

  render() {
    if (!this.game) return;
    const g = this.game;
    const atEnd = this.step === g.turns.length;
    const turn = atEnd ? null : g.turns[this.step];
    const view = atEnd ? g.end : turn.view;
    const a = turn && turn.analysis;
    const played = turn ? P.placements(turn.played) : [];
    const best = a && !a.playedIsBest ? P.placements(a.best) : [];
    this.deps.board.render({ tiles: view.position.board, last: new Set() });
    this.decorate(played, best);
    // A zoomed board (a phone) keeps the move played and the engine's best in view.
    this.deps.board.keepInView([...played, ...best].map((p) => p.cell), `review ${this.step}`);
    const slider = $('#review-step');
    slider.max = String(g.turns.length);
    slider.value = String(this.step);
    const where = atEnd ? t('review.end') : t('review.turnOf', { n: turn.turn, seat: this.seatName(turn.seat) });
    slider.setAttribute('aria-valuetext', where);
    $('#review-where').textContent = where;
    $('#review-first').disabled = this.step === 0;
    $('#review-prev').disabled = this.step === 0;
    $('#review-next').disabled = atEnd;
    $('#review-last').disabled = atEnd;
    const box = $('#review-turn');
    box.replaceChildren();
    box.dataset.step = String(this.step);
    if (turn) {
      box.dataset.turn = String(turn.turn);
      const p = el('p', { class: 'review-played' });
      p.append(el('span', { class: 'key-played', 'aria-hidden': 'true' }));
      const parts = [t('review.played', { move: moveWords(turn.played) }), t('hint.points', { n: turn.points })];
      if (a) parts.push(this.valueWords(a.playedValue));
      p.append(parts.join(' · '));
      box.append(p);
      if (a) {
        const b = el('p', { class: 'review-best' });
        b.append(el('span', { class: 'key-best', 'aria-hidden': 'true' }));
        if (a.playedIsBest) b.append(t('review.bestSame'));
        else {
          b.append(
            [
              t('review.best', { move: moveWords(a.best) }),
              t('hint.points', { n: a.bestPoints }),
              this.valueWords(a.bestValue),
            ].join(' · '),
          );
        }
        box.append(b);
        box.append(el('p', { class: 'review-loss', 'data-loss': String(loss(a)) }, t('review.lost', { n: num(loss(a), 1) })));
      } else {
        box.append(el('p', { class: 'muted' }, t('review.notAnalysed')));
      }
    } else {
      delete box.dataset.turn;
      box.append(el('p', {}, view.status.phase === 'over' ? t('review.over') : t('review.notOver')));
    }
    const variant = (this.deps.variants() || []).find((v) => v.name === g.variant);
    const seats = Array.from({ length: g.players }, (_, i) => ({ kind: g.engines[i] ? 'engine' : 'human' }));
    if (seats.every((s) => s.kind === 'human') && seats.length === 1) seats.push({ kind: 'human' });
    // The words of the reviewed game's kind (numbers rolled or tiles drawn), as on the board.
    if (setRolled(!view.position.bag)) translateStatic();
    renderSheets($('#review-sheets'), view.score, {
      boxes: variant ? variant.boxes : ['a', 'b', 'c'],
      tomove: view.status.phase === 'over' ? 0 : view.status.tomove,
      seats,
      hands: view.position.hands,
      hidden: () => false,
    });
    this.renderProgress();
    this.renderAnalysis();
  }

  /** The move played (tiles ringed) and the engine's best (ghost numbers) on the board's cells. */
  decorate(played, best) {
    const board = this.deps.board;
    const bestAt = new Map(best.map((p) => [p.cell, p.value]));
    for (const p of played) {
      const cell = board.cells.get(p.cell);
      if (!cell) continue;
      cell.classList.add('filled', 'review-played');
      const span = el('span', { class: 'tile played', 'data-value': String(p.value), 'aria-hidden': 'true' }, String(p.value));
      cell.replaceChildren(span);
      const label = `${p.cell}, ${t('review.cellPlayed', { value: p.value })}`;
      cell.setAttribute('aria-label', label);
      cell.title = label;
    }
    for (const [name, value] of bestAt) {
      const cell = board.cells.get(name);
      if (!cell) continue;
      cell.classList.add('review-best');
      const mark = el('span', { class: 'best-mark', 'data-value': String(value), 'aria-hidden': 'true' }, String(value));
      cell.append(mark);
      const label = `${cell.getAttribute('aria-label')}, ${t('review.cellBest', { value })}`;
      cell.setAttribute('aria-label', label);
      cell.title = label;
    }
    for (const [name, cell] of board.cells) {
      if (!bestAt.has(name)) cell.classList.remove('review-best');
      if (!played.some((p) => p.cell === name)) cell.classList.remove('review-played');
    }
  }

  renderProgress() {
    if (!this.game) return;
    const done = this.game.turns.filter((tn) => tn.analysis).length;
    const total = this.game.turns.length;
    const bar = $('#review-progress');
    bar.max = total;
    bar.value = done;
    const words = t('review.progress', { done, total });
    bar.setAttribute('aria-valuetext', words);
    $('#review-progress-text').textContent = this.running ? `${words} · ${t('review.running')}` : words;
    $('#review-run').disabled = this.running || done === total;
    $('#review-stop').disabled = !this.running;
    $('#review-save').disabled = done === 0;
    document.body.dataset.review = this.running ? 'running' : done === total ? 'done' : 'idle';
  }

  /** The chart, the worst moves and the table of turns. */
  renderAnalysis() {
    if (!this.game) return;
    this.renderChart();
    this.renderWorst();
    this.renderTable();
  }

  renderChart() {
    const g = this.game;
    const box = $('#review-chart');
    const n = g.turns.length;
    // As wide as its box (a hidden box: 640), so that the axis text keeps its CSS size on a phone.
    const W = Math.round(Math.min(900, Math.max(280, box.clientWidth || 640)));
    this.chartWidth = W;
    const [H, L, R, T, B, GAP] = [330, 44, 10, 26, 28, 26];
    const plotH = H - T - B - GAP;
    const linesH = plotH * 0.62;
    const barsTop = T + linesH + GAP;
    const barsH = plotH - linesH;
    const step = (W - L - R) / n;
    const x = (i) => L + step * (i + 0.5);
    const lines = curves(g.turns, g.players);
    const values = lines.flat().filter((v) => v !== null);
    const [lo, hi, vStep] = niceRange(Math.min(0, ...values), Math.max(0, ...values), 6);
    const y = (v) => T + (linesH * (hi - v)) / (hi - lo);
    const losses = g.turns.map((tn) => (tn.analysis ? loss(tn.analysis) : 0));
    const [, maxLoss, lStep] = niceRange(0, Math.max(0, ...losses), 3);
    const svg = svgEl('svg', {
      viewBox: `0 0 ${W} ${H}`,
      role: 'img',
      'aria-labelledby': 'review-chart-title',
      'aria-describedby': 'review-table-caption',
      class: 'review-svg',
    });
    const title = svgEl('title', { id: 'review-chart-title' });
    title.textContent = t(g.players === 1 ? 'review.chartTitleAlone' : 'review.chartTitle');
    svg.append(title);
    const text = (tx, ty, s, attrs = {}) => {
      const e = svgEl('text', { x: tx, y: ty, ...attrs });
      e.textContent = s;
      return e;
    };
    svg.append(text(L, T - 8, t(g.players === 1 ? 'review.axisScore' : 'review.axisMargin'), { class: 'axis' }));
    for (let v = lo; v <= hi + 1e-9; v += vStep) {
      svg.append(svgEl('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 ? 'zero' : 'grid' }));
      svg.append(text(L - 6, y(v) + 4, num(v, 0), { 'text-anchor': 'end', class: 'axis' }));
    }
    svg.append(text(L, barsTop - 6, t('review.axisLoss'), { class: 'axis' }));
    for (let v = 0; v <= maxLoss + 1e-9; v += lStep) {
      const ty = barsTop + (barsH * v) / maxLoss;
      svg.append(svgEl('line', { x1: L, x2: W - R, y1: ty, y2: ty, class: 'grid' }));
      svg.append(text(L - 6, ty + 4, num(v, 0), { 'text-anchor': 'end', class: 'axis' }));
    }
    // The current turn.
    const cur = Math.min(this.step, n - 1);
    svg.append(svgEl('rect', { x: x(cur) - step / 2, y: T, width: step, height: H - T - B, class: 'current' }));
    lines.forEach((curve, s) => {
      const pts = curve.map((v, i) => (v === null ? null : `${x(i).toFixed(1)},${y(v).toFixed(1)}`)).filter(Boolean);
      svg.append(
        svgEl('polyline', {
          points: pts.join(' '),
          class: 'margin',
          'data-seat': s + 1,
          fill: 'none',
          stroke: COLOURS[s % COLOURS.length],
          'stroke-dasharray': DASHES[s % DASHES.length],
          'stroke-width': 2,
        }),
      );
    });
    g.turns.forEach((tn, i) => {
      if (!(losses[i] > 0)) return;
      const w = Math.max(step * 0.8, 1);
      svg.append(
        svgEl('rect', {
          x: x(i) - w / 2,
          y: barsTop,
          width: w,
          height: (barsH * losses[i]) / maxLoss,
          fill: COLOURS[(tn.seat - 1) % COLOURS.length],
          class: 'loss',
          'data-turn': tn.turn,
          'data-loss': losses[i],
        }),
      );
    });
    const every = Math.max(1, Math.ceil(n / Math.max(4, Math.floor((W - L - R) / 48))));
    g.turns.forEach((tn, i) => {
      if (i % every === 0 || (i === n - 1 && 2 * (i % every) >= every)) svg.append(text(x(i), H - B + 16, String(tn.turn), { 'text-anchor': 'middle', class: 'axis' }));
    });
    svg.append(text(L - 6, H - B + 16, t('review.axisTurn'), { 'text-anchor': 'end', class: 'axis' }));
    svg.addEventListener('click', (ev) => {
      const r = svg.getBoundingClientRect();
      const vx = ((ev.clientX - r.left) / r.width) * W;
      const i = Math.floor((vx - L) / step);
      if (i >= 0 && i < n) this.goTo(i);
    });
    const legend = el('ul', { class: 'review-legend' });
    for (let s = 1; s <= g.players; s++) {
      const li = el('li');
      const swatch = svgEl('svg', { class: 'review-swatch', viewBox: '0 0 28 10', 'aria-hidden': 'true' });
      swatch.append(
        svgEl('line', {
          x1: 1,
          x2: 27,
          y1: 5,
          y2: 5,
          stroke: COLOURS[(s - 1) % COLOURS.length],
          'stroke-dasharray': DASHES[(s - 1) % DASHES.length],
          'stroke-width': 3,
        }),
      );
      li.append(swatch);
      li.append(this.seatName(s));
      legend.append(li);
    }
    box.replaceChildren(legend, svg);
  }

  renderWorst() {
    const g = this.game;
    const box = $('#review-worst');
    box.replaceChildren();
    for (let s = 1; s <= g.players; s++) {
      const sec = el('div', { class: 'review-worst-seat' });
      const mine = g.turns.filter((tn) => tn.seat === s && tn.analysis);
      const lost = this.seatLost(s);
      sec.append(el('h3', {}, t('review.worstOf', { who: this.seatName(s), n: num(lost, 1) })));
      const list = el('ol', { 'data-seat': String(s) });
      // Losses shown to a tenth: one that rounds to 0.0 is not listed as a loss.
      for (const tn of this.worst(s).filter((w) => tenths(loss(w.analysis)) > 0)) {
        const li = el('li');
        const b = el('button', { type: 'button', class: 'link', 'data-turn': String(tn.turn) });
        b.textContent = t('review.worstItem', { n: tn.turn, lost: num(loss(tn.analysis), 1), move: moveWords(tn.played) });
        b.addEventListener('click', () => {
          this.goTo(g.turns.indexOf(tn));
          $('#review-step').focus();
        });
        li.append(b);
        list.append(li);
      }
      if (!list.children.length) list.append(el('li', { class: 'muted' }, t(mine.length ? 'review.noLoss' : 'review.notAnalysed')));
      sec.append(list);
      box.append(sec);
    }
  }

  renderTable() {
    const g = this.game;
    const table = $('#review-table');
    const caption = el('caption', { id: 'review-table-caption' }, t(g.players === 1 ? 'review.tableCaptionAlone' : 'review.tableCaption'));
    const head = el('tr');
    const value = g.players === 1 ? 'review.colScore' : 'review.colValue';
    for (const k of ['review.colTurn', 'review.colSeat', 'review.colPlayed', value, 'review.colBest', value, 'review.colLost']) {
      head.append(el('th', { scope: 'col' }, t(k)));
    }
    const rows = g.turns.map((tn, i) => {
      const a = tn.analysis;
      const tr = el('tr', { 'data-turn': String(tn.turn) });
      if (i === this.step) tr.setAttribute('aria-current', 'true');
      const th = el('th', { scope: 'row' });
      const b = el('button', { type: 'button', class: 'link' }, String(tn.turn));
      b.setAttribute('aria-label', t('review.goTurn', { n: tn.turn }));
      b.addEventListener('click', () => this.goTo(i));
      th.append(b);
      tr.append(th, el('td', {}, String(tn.seat)), el('td', {}, moveWords(tn.played)));
      if (a) {
        tr.append(
          el('td', {}, this.value(a.playedValue)),
          el('td', {}, a.playedIsBest ? t('review.sameMove') : moveWords(a.best)),
          el('td', {}, this.value(a.bestValue)),
          el('td', { class: 'lost' }, num(loss(a), 1)),
        );
      } else {
        tr.append(el('td'), el('td'), el('td'), el('td'));
      }
      return tr;
    });
    table.replaceChildren(caption, head, ...rows);
  }

  // ---- the controls ----------------------------------------------------------------------------

  /** Runs a user action; an error is shown, never thrown. */
  async act(task) {
    try {
      await task();
    } catch (e) {
      // A closed connection is the page's banner to tell.
      if (!(e instanceof ConnectionClosed)) this.deps.showError(e instanceof ReviewError ? { key: e.key } : e);
    }
  }

  bind() {
    // The chart is drawn for its box's width: drawn again when that changes (a phone turned).
    new ResizeObserver(() => {
      const w = $('#review-chart').clientWidth;
      if (this.game && w > 0 && Math.abs(w - (this.chartWidth || 0)) > 8) this.renderChart();
    }).observe($('#review-chart'));
    $('#review-open-text').addEventListener('click', () => this.act(() => this.load($('#review-input').value)));
    $('#review-file').addEventListener('change', () => {
      const file = $('#review-file').files[0];
      if (!file) return;
      this.act(async () => this.load(await file.text()));
    });
    $('#review-run').addEventListener('click', () => this.act(() => this.analyse()));
    $('#review-stop').addEventListener('click', () => this.act(() => this.stop()));
    $('#review-save').addEventListener('click', () => {
      const name = `zatre-review-${this.game ? this.game.turns.length : 0}.json`;
      offerFile(`${this.json()}\n`, 'application/json', name);
    });
    $('#review-close').addEventListener('click', () => this.act(() => this.close()));
    $('#review-first').addEventListener('click', () => this.goTo(0));
    $('#review-prev').addEventListener('click', () => this.goTo(this.step - 1));
    $('#review-next').addEventListener('click', () => this.goTo(this.step + 1));
    $('#review-last').addEventListener('click', () => this.goTo(Infinity));
    $('#review-step').addEventListener('input', () => this.goTo(Number($('#review-step').value)));
    // Keys in review mode: ←/→ and Home/End step through the turns, wherever the focus is but in a
    // field or on the board (whose arrows move between cells). The page's keys for placing tiles
    // (1-6, Escape) are not for a game under review.
    window.addEventListener(
      'keydown',
      (ev) => {
        if (!this.open || !this.game || ev.ctrlKey || ev.metaKey || ev.altKey) return;
        const target = ev.target;
        const within = (sel) => Boolean(target && target.closest && target.closest(sel));
        const inField = within('input, select, textarea, dialog');
        if (/^[0-9]$/.test(ev.key) || ev.key === 'Escape') {
          if (!inField) ev.stopPropagation();
          return;
        }
        if (ev.key === 'Enter' || ev.key === ' ') {
          if (within('#board')) ev.stopPropagation();
          return;
        }
        if (inField || within('#board')) return;
        const to = { ArrowLeft: this.step - 1, ArrowRight: this.step + 1, Home: 0, End: Infinity }[ev.key];
        if (to === undefined) return;
        ev.preventDefault();
        this.goTo(to);
      },
      true,
    );
    // A click on the board is not a move while a game is under review.
    $('#board').addEventListener(
      'click',
      (ev) => {
        if (this.open) ev.stopPropagation();
      },
      true,
    );
  }

  /** Redraws in the language just chosen. */
  relabel() {
    if (this.open && this.game) this.render();
  }
}

/** For tests and people: the review as JSON, `zatreReview()`. */
export function expose(review) {
  window.zatreReview = () => review.json();
}
