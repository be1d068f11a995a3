// Where the keyboard's focus goes back to: the page remembers the last element the player was
// on, and after a redraw or a button that became disabled took the focus away, puts it back there
// (or on the draw at the table, the hand, or the board).

import { state, tableDrawDue } from './state.js';
import { board } from './view.js';

const $ = (sel) => document.querySelector(sel);

/** The last element that had the focus (not the page's body). */
let lastFocus = null;

document.addEventListener('focusin', (ev) => {
  if (ev.target && ev.target !== document.body) lastFocus = ev.target;
});

/** Puts the focus back where the player was when a redraw or a disabled button took it away. */
export function restoreFocus() {
  const active = document.activeElement;
  if (active && active !== document.body) return;
  if (state.dialog) return;
  const last = lastFocus;
  if (!last) return;
  if (last.isConnected && !last.disabled && last.offsetParent !== null) {
    last.focus();
  } else if (tableDrawDue(state) && padControl()) {
    // A draw at the table: Confirm once every value is in, else a value, else Remove last.
    padControl().focus();
  } else if (last.dataset && last.dataset.handTile !== undefined) {
    const tile = $('#hand [data-hand-tile]');
    if (tile) tile.focus();
    else board.focus();
  } else if (last.closest && last.closest('#side, #board, dialog, #review-side, #connection, #error-box')) {
    board.focus();
  }
}

/** The control of the draw at the table that the focus goes to when it lost its own. */
function padControl() {
  const order = ['#table-confirm', '#table-values button', '#table-remove'];
  for (const sel of order) {
    const b = [...document.querySelectorAll(sel)].find((x) => !x.disabled && x.offsetParent !== null);
    if (b) return b;
  }
  return null;
}
