// The sheets view: every player's (or team's) sheet from the `score` payload, with the hands from
// the position line and the seat to move from `status`.

/**
 * @param root the container
 * @param score parsed `score`
 * @param opts {boxes: the sums the three boxes record (`variants`), tomove, seats: [{kind}],
 *   hands: [[values]]}
 */
export function renderSheets(root, score, opts) {
  root.replaceChildren();
  const names = opts.boxes;
  for (const sheet of score.sheets) {
    const card = document.createElement('div');
    card.className = 'panel sheet';
    const isMover = sheet.seats.includes(opts.tomove);
    if (isMover) card.classList.add('to-move');
    card.dataset.sheet = `${sheet.kind}-${sheet.n}`;

    const head = document.createElement('div');
    head.className = 'sheet-head';
    const who = document.createElement('span');
    who.className = 'who';
    const seat = sheet.kind === 'player' ? opts.seats[sheet.n - 1] : null;
    const label =
      sheet.kind === 'team' ? `Team ${sheet.n} (players ${sheet.seats.join(' + ')})` : `Player ${sheet.n}`;
    who.textContent = seat ? `${label} · ${seat.kind === 'engine' ? 'engine' : 'human'}` : label;
    if (isMover) who.textContent += ' ▶';
    const total = document.createElement('span');
    total.className = 'total';
    total.dataset.total = String(sheet.n);
    total.textContent = String(sheet.total);
    head.append(who, total);
    card.appendChild(head);

    const hand = document.createElement('div');
    hand.className = 'sheet-hand';
    const values = sheet.kind === 'player' && opts.hands[sheet.n - 1] ? opts.hands[sheet.n - 1] : sheet.hand;
    hand.textContent = `hand ${values.length ? values.join(' ') : '–'}`;
    card.appendChild(hand);

    const table = document.createElement('table');
    const thead = document.createElement('tr');
    for (const h of ['row', 'mark', ...names, 'points']) {
      const th = document.createElement('th');
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
      td.textContent = 'empty sheet';
      tr.appendChild(td);
      table.appendChild(tr);
    }
    card.appendChild(table);
    root.appendChild(card);
  }
}
