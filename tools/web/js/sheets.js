// The sheets view: every player's (or team's) sheet from the `score` payload, with the hands from
// the position line and the seat to move from `status`.

import { t } from './i18n.js';
import { seatName } from './words.js';

/**
 * @param root the container
 * @param score parsed `score`
 * @param opts {boxes: the sums the three boxes record (`variants`), tomove, seats: [{kind}],
 *   hands: [[values]], hidden(n): whether seat n's hand is face down}
 */
export function renderSheets(root, score, opts) {
  root.replaceChildren();
  const names = opts.boxes;
  for (const sheet of score.sheets) {
    const card = document.createElement('section');
    card.className = 'panel sheet';
    const isMover = sheet.seats.includes(opts.tomove);
    if (isMover) card.classList.add('to-move');
    card.dataset.sheet = `${sheet.kind}-${sheet.n}`;

    const head = document.createElement('h2');
    head.className = 'sheet-head';
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent =
      sheet.kind === 'team'
        ? t('sheet.team', { n: sheet.n, seats: sheet.seats.join(' + ') })
        : seatName(sheet.n, opts.seats);
    if (isMover) who.textContent += ` · ${t('sheet.toMove')}`;
    const total = document.createElement('span');
    total.className = 'total';
    total.dataset.total = String(sheet.n);
    total.textContent = String(sheet.total);
    total.setAttribute('aria-label', t('sheet.total', { n: sheet.total }));
    head.append(who, total);
    card.appendChild(head);

    const hand = document.createElement('div');
    hand.className = 'sheet-hand';
    const own = sheet.kind === 'player' && opts.hands[sheet.n - 1];
    const values = own ? opts.hands[sheet.n - 1] : sheet.hand;
    const label = document.createElement('span');
    label.textContent = `${t('sheet.hand')}: `;
    hand.appendChild(label);
    if (!values.length) {
      hand.appendChild(document.createTextNode('–'));
    } else if (own && opts.hidden(sheet.n)) {
      const down = document.createElement('span');
      down.className = 'face-down-row';
      down.setAttribute('role', 'img');
      down.setAttribute('aria-label', t('hand.faceDown', { n: values.length }));
      for (let i = 0; i < values.length; i++) {
        const tile = document.createElement('span');
        tile.className = 'tile mini face-down';
        down.appendChild(tile);
      }
      hand.appendChild(down);
    } else {
      hand.appendChild(document.createTextNode(values.join(' ')));
    }
    card.appendChild(hand);

    const table = document.createElement('table');
    const caption = document.createElement('caption');
    caption.className = 'sr-only';
    caption.textContent = t('sheet.caption');
    table.appendChild(caption);
    const thead = document.createElement('tr');
    for (const h of [t('sheet.row'), t('sheet.mark'), ...names, t('sheet.points')]) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = h;
      thead.appendChild(th);
    }
    table.appendChild(thead);
    sheet.rows.forEach((row, i) => {
      const tr = document.createElement('tr');
      const cells = [String(i + 1), row[0], row[1], row[2], row[3], sheet.rowTotals[i] ?? ''];
      cells.forEach((c, k) => {
        const td = document.createElement('td');
        td.textContent = c === '-' ? '' : String(c);
        if (k === 1 && c !== '-') td.className = 'mark';
        tr.appendChild(td);
      });
      table.appendChild(tr);
    });
    if (!sheet.rows.length) {
      const tr = document.createElement('tr');
      const td = document.createElement('td');
      td.colSpan = 6;
      td.className = 'empty';
      td.textContent = t('sheet.empty');
      tr.appendChild(td);
      table.appendChild(tr);
    }
    card.appendChild(table);
    root.appendChild(card);
  }
}
