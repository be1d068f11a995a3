// A game at the table: the tiles come from a real bag, the numbers from real dice. For every
// draw (every seat's, a computer seat's too) a person enters the values drawn or rolled with the
// value buttons, can take the last one back, and confirms; the engine checks them against its bag
// (`draw <values>`: `illegal_draw` when the bag does not hold them) and a refusal is shown in words
// with nothing changed. How many values are due is the engine's `status` (`due`).

import { EngineError } from './protocol.js';
import { t } from './i18n.js';
import { say } from './announce.js';
import { act, call, request, refresh } from './connection.js';
import { render, drawPrompt, drawRefusalWords, enteredWords } from './view.js';
import {
  state,
  tableDrawDue,
  drawValues,
  drawValueEntered,
  drawValueRemoved,
  drawRefused,
} from './state.js';

/** Whether a value may be entered now: a draw is due, no action runs, and not all are entered. */
function mayEnter() {
  return !state.busy && state.connected && tableDrawDue(state) && state.drawn.length < state.status.due;
}

/** A value button pressed (or its digit key): the value joins the draw being entered. */
export function enterValue(value) {
  if (!mayEnter() || !drawValues(state).includes(value)) return;
  drawValueEntered(value);
  render(state);
  say(enteredWords(state));
}

/** Takes the last value entered back (a mistake corrected before confirming). */
export function removeValue() {
  if (state.busy || !tableDrawDue(state) || !state.drawn.length) return;
  const value = state.drawn[state.drawn.length - 1];
  drawValueRemoved();
  render(state);
  say(t('table.removed', { value }));
}

/** Confirm: sends the values entered (`draw <values>`); a refusal keeps them, to be corrected. */
export function confirmDraw() {
  return act(async () => {
    if (!tableDrawDue(state) || state.drawn.length !== state.status.due) return;
    const values = state.drawn.slice();
    const r = await request(`draw ${values.join('')}`);
    if (!r.ok) {
      // What the player can put right is said by the pad; anything else is the page's red bar.
      if (r.code !== 'illegal_draw' && r.code !== 'invalid_argument') {
        throw new EngineError(r.code, r.message, 'draw', r.reason);
      }
      drawRefused({ values, code: r.code, reason: r.reason, message: r.message });
      render(state);
      say(drawRefusalWords(state.drawRefusal), true);
      return;
    }
    await refresh();
  });
}

/**
 * A draw the rules make of no tile (kept tiles): nothing is drawn at the table, so the page sends
 * it by itself (`draw` without values draws none at random when none is due).
 */
export async function drawNothing() {
  await call('draw');
  await refresh();
}

/** Says what is to be drawn or rolled now, and by whom, once such a draw is due. */
export function sayDrawDue(st) {
  if (!tableDrawDue(st)) return;
  say(drawPrompt(st));
}


/**
 * A key outside a field while a draw at the table is due: a digit enters that value, Backspace
 * takes the last one back. Says whether it was such a key.
 */
export function onDrawKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || !tableDrawDue(state)) return false;
  const target = ev.target;
  if (target && target.closest && target.closest('input, select, textarea, dialog')) return false;
  if (/^[0-9]$/.test(ev.key)) {
    ev.preventDefault();
    enterValue(Number(ev.key));
    return true;
  }
  if (ev.key === 'Backspace') {
    ev.preventDefault();
    removeValue();
    return true;
  }
  return false;
}
