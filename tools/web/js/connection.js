// The connection to the engine: the EngineClient over the bridge's WebSocket, the protocol's
// version, the close and its banner, the log of the lines both ways (`zatreLog()`); one user
// action at a time (`act`); the reads of what the engine confirmed (geometry, position, status,
// score, history); the engine's searches (`go` with its progress, `stop`).

import { EngineClient, ConnectionClosed } from './protocol.js';
import * as P from './parse.js';
import { t, num } from './i18n.js';
import { closeWords } from './words.js';
import { say } from './announce.js';
import { PageError, showError, dialogSays } from './errors.js';
import { restoreFocus } from './focus.js';
import { board, render, renderHints, updateButtons, turnLine, engineSays } from './view.js';
import { applyZoom } from './zoom.js';
import { renderSaved } from './saved.js';
import {
  state,
  connecting,
  connected,
  connectionClosed,
  geometryRead,
  confirmed,
  busyChanged,
  searchStarted,
  searchEnded,
  infoArrived,
  playInterrupted,
} from './state.js';

const $ = (sel) => document.querySelector(sel);

/** The last lines both ways, for a person (or a test) looking into what happened: `zatreLog()`. */
const transcript = [];
function keep(line) {
  transcript.push(line.length > 300 ? `${line.slice(0, 300)}…` : line);
  if (transcript.length > 400) transcript.splice(0, transcript.length - 400);
}
window.zatreLog = () => transcript.join('\n');

/** Sends `command` and resolves with its payload lines; a `?` response rejects (EngineError). */
export function call(command) {
  return state.engine.call(command);
}

/** Sends `command` and resolves with its response, a `?` one too (`ok`, `code`, `reason`...). */
export function request(command) {
  return state.engine.request(command);
}

/** Runs one user action at a time; an error is shown, never thrown. */
export async function act(task) {
  if (state.busy) return;
  busyChanged(true);
  updateButtons(state);
  try {
    await task();
  } catch (e) {
    if (!(e instanceof ConnectionClosed)) showError(e);
  } finally {
    busyChanged(false);
    updateButtons(state);
    restoreFocus();
  }
}

/**
 * Connects to a new engine and agrees on the protocol's version; its `info` lines show as the
 * engine's progress, its close as the banner.
 */
export async function connect() {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  const engine = new EngineClient(url);
  connecting(engine);
  engine.addEventListener('info', (ev) => onInfo(ev.detail));
  engine.addEventListener('sent', (ev) => keep(`> ${ev.detail}`));
  engine.addEventListener('line', (ev) => keep(`< ${ev.detail}`));
  engine.addEventListener('stray', (ev) => showError(new Error(ev.detail)));
  engine.addEventListener('close', (ev) => onClose(ev.detail));
  $('#connection').hidden = true;
  turnLine(t('turn.connecting'));
  await engine.connect();
  // The page speaks version 3: every refusal then carries a reason key, which the page says in its
  // own words (an engine without version 3 refuses `protocol 3`).
  const spoken = await engine.request('protocol 3');
  if (!spoken.ok || spoken.payload[0] !== '3') throw new PageError('error.version');
  engine.version = 3;
  connected();
}

/** A close in the page's words, and the bridge's own code and reason (English). */
function closeSaid({ code, reason, opened }) {
  const words = opened ? closeWords(code, reason) : t('close.unreachable');
  return { words, detail: `${code}${reason ? `: ${reason}` : ''}` };
}

/** The banner's sentence of the last close (again, in the page's language). */
export function showClosed(closed) {
  const { words, detail } = closeSaid(closed);
  $('#connection-text').textContent = `${words} (${detail})`;
}

function onClose({ code, reason, opened }) {
  connectionClosed({ code, reason, opened });
  showClosed(state.closed);
  $('#connection').hidden = false;
  $('#connection').dataset.code = String(code);
  turnLine(t('turn.noEngine'));
  engineSays('');
  // Said in the page's words; the bridge's own (English) only on the banner and folded away.
  const { words, detail } = closeSaid(state.closed);
  say(words, true);
  // The banner is under a modal dialog's backdrop: the open dialog says it, with its own button.
  const again = document.createElement('button');
  again.type = 'button';
  again.textContent = t('button.reconnect');
  again.addEventListener('click', () => $('#reconnect').click());
  dialogSays(words, detail, again);
  updateButtons(state);
}

// ---- what the engine confirmed ----------------------------------------------------------------

/** Reads the board's shape of the game on the engine and builds the board. */
export async function loadBoard() {
  geometryRead(P.geometry(await call('geometry')));
  board.build(state.geometry);
  applyZoom();
}

/** Reads position, status, score and history from the engine and redraws. */
export async function refresh() {
  const [pos, st, sc, hist] = await Promise.all([call('position'), call('status'), call('score'), call('history')]);
  confirmed({ position: P.position(pos[0] || ''), status: P.status(st), score: P.score(sc), history: hist.join(' ') });
  $('#history').value = state.history ? `position ${state.history}` : '';
  renderSaved(state);
  renderHints(state);
  render(state);
}

// ---- the engine's searches ----------------------------------------------------------------------

function onInfo(line) {
  const info = P.info(line);
  // A turn line of a review's `analyse` is the review's to show.
  if (info.turn !== undefined) return;
  infoArrived(Number(info.multipv || 1), info);
  const best = state.infos.get(1) || info;
  // In players' words: how much it has looked at, not the search's stage or its milliseconds.
  let text = t('engine.thinking', { nodes: num(Number(best.nodes) || 0) });
  if (best.winprob !== undefined) text += ` · ${t('value.win', { win: num(Number(best.winprob) * 100, 0) })}`;
  engineSays(text);
}

/** Runs `go <limits>`, showing its progress; resolves with the bestmove and the last infos. */
export async function think(limits) {
  engineSays(t('engine.thinkingStart'));
  const going = call(`go ${limits}`);
  searchStarted(going);
  try {
    const best = P.bestmove(await going);
    return { best, infos: new Map(state.infos) };
  } finally {
    searchEnded(going);
  }
}

/** Stops a running `go` and waits for its answer. */
export async function stopThinking() {
  const going = state.thinking;
  if (!going) return;
  try {
    await request('stop');
    await going;
  } catch {
    // Its result is not wanted; a closed connection ends the search by itself.
  }
}

/** Stops what the engine seats are doing (a running `go`), and waits until the page is idle. */
export async function interrupt() {
  playInterrupted();
  await stopThinking();
  while (state.busy) await new Promise((r) => setTimeout(r, 20));
}
