// Large cells: on a touch screen too narrow for cells of TOUCH_CELL px, the board starts with
// large cells in its own scrolling box (style.css `.zoomed`); the player's own choice (`#zoom`) is
// remembered in localStorage like the language and wins from then on. A mouse or a wide screen
// gets the fitted board. Also the header's height, which the zoomed box leaves room for.

import { state, settingChosen } from './state.js';
import { board, keepBoardInView } from './view.js';

const $ = (sel) => document.querySelector(sel);

const ZOOM_STORE = 'zatre-zoom';
/** The smallest cell a finger can hit, CSS px. */
const TOUCH_CELL = 32;
/** Whether the screen is a touch screen. */
export const coarse = window.matchMedia('(pointer: coarse)');

function storedZoom() {
  try {
    const v = localStorage.getItem(ZOOM_STORE);
    return v === 'on' ? true : v === 'off' ? false : null;
  } catch {
    return null; // storage may be off
  }
}

function storeZoom(on) {
  try {
    localStorage.setItem(ZOOM_STORE, on ? 'on' : 'off');
  } catch {
    // storage may be off: the choice holds for this page
  }
}

/** The width of a cell of the board fitted to the screen (not zoomed). */
function fittedCell() {
  const area = $('#board-area');
  const box = $('#board-scroll');
  const at = [box.scrollLeft, box.scrollTop];
  area.classList.remove('zoomed');
  const cell = $('#board [data-cell]');
  const width = cell ? cell.getBoundingClientRect().width : 0;
  area.classList.toggle('zoomed', state.zoom);
  // Measured between two frames: the box is where the player left it.
  box.scrollLeft = at[0];
  box.scrollTop = at[1];
  return width;
}

function showZoom() {
  $('#zoom').checked = state.zoom;
  $('#board-area').classList.toggle('zoomed', state.zoom);
}

/** Zooms the board or not: the player's choice, else large cells on a touch screen that needs them. */
export function applyZoom() {
  let on = storedZoom();
  if (on === null) on = coarse.matches && fittedCell() < TOUCH_CELL;
  settingChosen('zoom', on);
  showZoom();
  measureHeader();
  keepBoardInView(state);
}

/** The player ticked or unticked Large cells: remembered, and it decides from now on. */
export function zoomChosen(on) {
  storeZoom(on);
  settingChosen('zoom', on);
  showZoom();
  board.setFocus(board.focusName, false);
  keepBoardInView(state);
}

/**
 * The header's height as wrapped now (its words differ by language): a zoomed board's box leaves
 * room for the hand under it.
 */
export function measureHeader() {
  document.documentElement.style.setProperty('--header-now', `${$('header').offsetHeight}px`);
}
