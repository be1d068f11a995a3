// The board view: drawn from `geometry`, redrawn from what it is given. It validates nothing;
// a click, Enter or Space on a cell becomes a call of `onCell`. It is a WAI-ARIA grid: one Tab
// stop (the roving cell), arrow keys between cells, column letters and row numbers on its edges.

import { cellCoords } from './parse.js';
import { t } from './i18n.js';

/** Column `col` (0-based) as the protocol writes it: a..z, then aa.. */
function columnName(col) {
  let s = '';
  let n = col + 1;
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(97 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

/** A `div` of the grid with a class and an ARIA role. */
function part(className, role) {
  const el = document.createElement('div');
  el.className = className;
  el.setAttribute('role', role);
  return el;
}

/** An edge label (a column letter or a row number) at a place of the CSS grid. */
function edge(role, text, column, row) {
  const h = part('edge', role);
  h.textContent = text;
  h.style.gridColumn = String(column);
  h.style.gridRow = String(row);
  return h;
}

const MOVES = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

export class BoardView {
  constructor(root, onCell) {
    this.root = root;
    this.onCell = onCell;
    this.cells = new Map(); // name -> element
    this.at = new Map(); // "col,row" -> name
    this.geo = null;
    this.focusName = null; // the cell that holds the board's Tab stop
    this.shown = null;
    root.addEventListener('keydown', (ev) => this.onKey(ev));
    // The box the board scrolls in when its cells are large (`#board-scroll`).
    this.box = root.parentElement;
    this.view = { key: null, targets: '', byHand: false, expect: null };
    // A scroll that is not the one `keepInView` made is the player's (a finger, a wheel, a key).
    this.box.addEventListener('scroll', () => {
      const e = this.view.expect;
      if (!e || Math.abs(this.box.scrollLeft - e.left) > 1 || Math.abs(this.box.scrollTop - e.top) > 1) {
        this.view.byHand = true;
        this.view.expect = null;
      }
    });
  }

  /** Builds the cells of a board from the `geometry` payload (parsed). */
  build(geo) {
    this.geo = geo;
    this.root.replaceChildren();
    this.cells.clear();
    this.at.clear();
    this.root.style.setProperty('--cols', String(geo.columns));
    this.root.style.setProperty('--rows', String(geo.rows));
    this.root.setAttribute('aria-rowcount', String(geo.rows + 1));
    this.root.setAttribute('aria-colcount', String(geo.columns + 1));
    // A board without a centre (the kids' game): the legend drops its centre (style.css).
    this.root.dataset.centre = geo.centre ? 'yes' : 'no';
    const extra = new Set(geo.extra);
    const head = part('board-row', 'row');
    // The corner: a header with words for a screen reader only ("column / row").
    const corner = edge('columnheader', '', 1, 1);
    this.corner = document.createElement('span');
    this.corner.className = 'sr-only';
    corner.appendChild(this.corner);
    head.appendChild(corner);
    for (let c = 0; c < geo.columns; c++) head.appendChild(edge('columnheader', columnName(c), c + 2, 1));
    this.root.appendChild(head);
    const rows = [];
    for (let r = 1; r <= geo.rows; r++) {
      const row = part('board-row', 'row');
      row.appendChild(edge('rowheader', String(r), 1, r + 1));
      rows.push(row);
      this.root.appendChild(row);
    }
    for (const name of geo.cells) {
      const at = cellCoords(name);
      if (!at || at.row < 1 || at.row > geo.rows) continue;
      const el = part('cell', 'gridcell');
      el.tabIndex = -1;
      el.dataset.cell = name;
      el.dataset.kind = name === geo.centre ? 'centre' : extra.has(name) ? 'extra' : 'plain';
      if (name === geo.centre && extra.has(name)) el.classList.add('extra');
      el.style.gridColumn = String(at.col + 2);
      el.style.gridRow = String(at.row + 1);
      el.addEventListener('click', () => {
        this.setFocus(name, false);
        this.onCell(name);
      });
      el.addEventListener('focus', () => this.setFocus(name, false));
      rows[at.row - 1].appendChild(el);
      this.cells.set(name, el);
      this.at.set(`${at.col},${at.row}`, name);
    }
    this.focusName = null;
    this.view = { key: null, targets: '', byHand: false, expect: null };
    this.setFocus(geo.centre && this.cells.has(geo.centre) ? geo.centre : geo.cells[0], false);
  }

  /** Moves the board's one Tab stop to `name`, and the focus too when `move`. */
  setFocus(name, move) {
    if (!this.cells.has(name)) return;
    if (this.focusName && this.cells.has(this.focusName)) this.cells.get(this.focusName).tabIndex = -1;
    this.focusName = name;
    const el = this.cells.get(name);
    el.tabIndex = 0;
    if (move) {
      el.focus();
      el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
  }

  /** Focuses the board's current cell. */
  focus() {
    if (this.focusName) this.setFocus(this.focusName, true);
  }

  onKey(ev) {
    const name = ev.target && ev.target.dataset ? ev.target.dataset.cell : null;
    if (!name) return;
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      this.onCell(name);
      return;
    }
    let target = null;
    if (ev.key in MOVES) {
      const [dx, dy] = MOVES[ev.key];
      const at = cellCoords(name);
      // The next cell that exists in that direction (the classic board has gaps in its edges).
      for (let c = at.col + dx, r = at.row + dy; c >= 0 && r >= 1 && c < this.geo.columns && r <= this.geo.rows; c += dx, r += dy) {
        const n = this.at.get(`${c},${r}`);
        if (n) {
          target = n;
          break;
        }
      }
    } else if (ev.key === 'Home' || ev.key === 'End') {
      const row = cellCoords(name).row;
      const inRow = [...this.cells.keys()].filter((n) => cellCoords(n).row === row);
      target = ev.key === 'Home' ? inRow[0] : inRow[inRow.length - 1];
    }
    if (ev.key in MOVES || ev.key === 'Home' || ev.key === 'End') {
      ev.preventDefault();
      if (target) this.setFocus(target, true);
    }
  }

  /**
   * Shows the board: `tiles` (confirmed), `pending` (this turn's, accepted by `next`), `accepts`
   * (cells that take the selected tile), `selected` (that tile's value), `preview` (a hint),
   * `last` (the last move's cells).
   */
  render({ tiles, pending = [], accepts = new Set(), selected = null, preview = [], last = new Set() }) {
    this.shown = { tiles, pending, accepts, selected, preview, last };
    if (this.corner) this.corner.textContent = t('board.corner');
    const at = new Map();
    for (const tl of tiles) at.set(tl.cell, { value: tl.value, kind: 'tile' });
    for (const tl of pending) at.set(tl.cell, { value: tl.value, kind: 'pending' });
    const ghosts = new Map();
    for (const tl of preview) if (!at.has(tl.cell)) ghosts.set(tl.cell, tl.value);
    for (const [name, el] of this.cells) {
      const tile = at.get(name);
      el.classList.toggle('accepts', accepts.has(name));
      el.classList.toggle('last', last.has(name));
      el.classList.toggle('ghosted', !tile && ghosts.has(name));
      el.replaceChildren();
      const words = [name];
      if (tile) {
        const span = document.createElement('span');
        span.className = tile.kind === 'pending' ? 'tile pending' : 'tile';
        span.dataset.value = String(tile.value);
        span.textContent = String(tile.value);
        span.setAttribute('aria-hidden', 'true');
        el.appendChild(span);
        el.classList.add('filled');
        words.push(String(tile.value));
        if (tile.kind === 'pending') words.push(t('cell.pending'));
      } else {
        el.classList.remove('filled');
        words.push(t('cell.empty'));
        if (ghosts.has(name)) {
          const g = document.createElement('span');
          g.className = 'ghost';
          g.textContent = String(ghosts.get(name));
          g.setAttribute('aria-hidden', 'true');
          el.appendChild(g);
          words.push(t('cell.hint', { value: ghosts.get(name) }));
        }
      }
      if (el.dataset.kind === 'extra' || el.classList.contains('extra')) words.push(t('cell.double'));
      if (el.dataset.kind === 'centre') words.push(t('cell.centre'));
      if (accepts.has(name) && selected !== null) words.push(t('cell.takes', { value: selected }));
      if (last.has(name)) words.push(t('cell.last'));
      el.setAttribute('aria-label', words.join(', '));
      el.title = words.join(', ');
    }
  }

  /**
   * Scrolls the board's box (only it: never the page, never the focus) so that the cells `names`
   * are in view, when the board is larger than its box, moving it as little as it can. `turn`
   * names the turn. When the cells are the same as at the last call (a redraw that changed nothing
   * the player needs) and the player has scrolled the box by hand in this turn, it is left alone.
   * When the cells do not all fit in the box, it is moved only if none of them is in view, to the
   * nearest one.
   */
  keepInView(names, turn) {
    const box = this.box;
    if (!box || (box.scrollWidth <= box.clientWidth && box.scrollHeight <= box.clientHeight)) return;
    const v = this.view;
    if (turn !== v.key) {
      v.key = turn;
      v.byHand = false;
    }
    const cells = names.map((n) => this.cells.get(n)).filter(Boolean);
    const key = names.join(',');
    const changed = key !== v.targets;
    v.targets = key;
    if (!cells.length || (v.byHand && !changed)) return;
    const b = box.getBoundingClientRect();
    const vis = {
      left: b.left + box.clientLeft,
      top: b.top + box.clientTop,
      right: b.left + box.clientLeft + box.clientWidth,
      bottom: b.top + box.clientTop + box.clientHeight,
    };
    // The edge labels stay at the box's top and left while it scrolls (style.css): not in view.
    const corner = this.root.querySelector('.edge');
    if (corner && getComputedStyle(corner).position === 'sticky') {
      const c = corner.getBoundingClientRect();
      vis.left = Math.max(vis.left, c.right);
      vis.top = Math.max(vis.top, c.bottom);
    }
    const rects = cells.map((el) => el.getBoundingClientRect());
    const inside = (r) =>
      r.left >= vis.left - 0.5 && r.right <= vis.right + 0.5 && r.top >= vis.top - 0.5 && r.bottom <= vis.bottom + 0.5;
    if (rects.every(inside)) return;
    let u = {
      left: Math.min(...rects.map((r) => r.left)),
      right: Math.max(...rects.map((r) => r.right)),
      top: Math.min(...rects.map((r) => r.top)),
      bottom: Math.max(...rects.map((r) => r.bottom)),
    };
    if (u.right - u.left > vis.right - vis.left || u.bottom - u.top > vis.bottom - vis.top) {
      if (rects.some(inside)) return;
      const mid = { x: (vis.left + vis.right) / 2, y: (vis.top + vis.bottom) / 2 };
      const far = (r) => Math.hypot((r.left + r.right) / 2 - mid.x, (r.top + r.bottom) / 2 - mid.y);
      u = rects.reduce((a, r) => (far(r) < far(a) ? r : a));
    }
    // As little as brings them in, with up to half a cell to spare.
    const by = (lo, hi, from, to) => {
      const spare = Math.max(0, Math.min((to - from - (hi - lo)) / 2, (rects[0].right - rects[0].left) / 2));
      if (lo < from) return lo - from - spare;
      if (hi > to) return hi - to + spare;
      return 0;
    };
    box.scrollLeft += by(u.left, u.right, vis.left, vis.right);
    box.scrollTop += by(u.top, u.bottom, vis.top, vis.bottom);
    v.expect = { left: box.scrollLeft, top: box.scrollTop };
  }

  /** Redraws with what was last shown (after a change of language). */
  rerender() {
    if (this.shown) this.render(this.shown);
  }
}
