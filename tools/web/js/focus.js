// Where the keyboard's focus goes back to: the page remembers the last element the player was
// on, and after a redraw or a button that became disabled took the focus away, puts it back there
// (or on the hand, or the board).

import { state } from './state.js';
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
  } else if (last.dataset && last.dataset.handTile !== undefined) {
    const tile = $('#hand [data-hand-tile]');
    if (tile) tile.focus();
    else board.focus();
  } else if (last.closest && last.closest('#side, #board, dialog, #review-side, #connection, #error-box')) {
    board.focus();
  }
}
