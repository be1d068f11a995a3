// The board view: drawn from `geometry`, redrawn from what it is given. It validates nothing;
// clicks become calls of `onCell`.

import { cellCoords } from './parse.js';

export class BoardView {
  constructor(root, onCell) {
    this.root = root;
    this.onCell = onCell;
    this.cells = new Map(); // name -> element
  }

  /** Builds the cells of a board from the `geometry` payload (parsed). */
  build(geo) {
    this.root.replaceChildren();
    this.cells.clear();
    this.root.style.setProperty('--cell', `min(38px, calc(min(600px, 92vw) / ${Math.max(geo.columns, 1)}))`);
    this.root.style.gridTemplateColumns = `repeat(${geo.columns}, var(--cell))`;
    this.root.style.gridTemplateRows = `repeat(${geo.rows}, var(--cell))`;
    const extra = new Set(geo.extra);
    for (const name of geo.cells) {
      const at = cellCoords(name);
      if (!at) continue;
      const el = document.createElement('button');
      el.type = 'button';
      el.className = 'cell';
      el.dataset.cell = name;
      el.dataset.kind = name === geo.centre ? 'centre' : extra.has(name) ? 'extra' : 'plain';
      if (name === geo.centre && extra.has(name)) el.classList.add('extra');
      el.style.gridColumn = String(at.col + 1);
      el.style.gridRow = String(at.row);
      el.title = name;
      el.setAttribute('aria-label', name);
      el.addEventListener('click', () => this.onCell(name));
      this.root.appendChild(el);
      this.cells.set(name, el);
    }
  }

  /**
   * Shows the board: `tiles` (confirmed), `pending` (this turn's, accepted by `next`), `accepts`
   * (cells that take the selected tile), `preview` (a hint), `last` (the last move's cells).
   */
  render({ tiles, pending = [], accepts = new Set(), preview = [], last = new Set() }) {
    const at = new Map();
    for (const t of tiles) at.set(t.cell, { value: t.value, kind: 'tile' });
    for (const t of pending) at.set(t.cell, { value: t.value, kind: 'pending' });
    const ghosts = new Map();
    for (const t of preview) if (!at.has(t.cell)) ghosts.set(t.cell, t.value);
    for (const [name, el] of this.cells) {
      const tile = at.get(name);
      el.classList.toggle('accepts', accepts.has(name));
      el.classList.toggle('last', last.has(name));
      el.replaceChildren();
      if (tile) {
        const t = document.createElement('span');
        t.className = tile.kind === 'pending' ? 'tile pending' : 'tile';
        t.dataset.value = String(tile.value);
        t.textContent = String(tile.value);
        el.appendChild(t);
        el.classList.add('filled');
      } else {
        el.classList.remove('filled');
        if (ghosts.has(name)) {
          const g = document.createElement('span');
          g.className = 'ghost';
          g.textContent = String(ghosts.get(name));
          el.appendChild(g);
        }
      }
    }
  }
}
