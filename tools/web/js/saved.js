// Save and load: the saved game's line (`seats=<seat>,... position <history>`), shown in the
// Save / load dialog, copied or downloaded as a file, and read back when loaded.

import { newSeat } from './dialog.js';
import { t } from './i18n.js';
import { PageError } from './errors.js';
import { offerFile } from './download.js';

const $ = (sel) => document.querySelector(sel);

/** The protocol's line limit. */
const MAX_LINE = 65536;

/**
 * The saved game: `seats=<seat>,<seat>... [draws=table] position <history>`, a seat `human`,
 * `engine:<ms per move>` (the search) or `engine:greedy` / `engine:random` (the weaker levels);
 * `draws=table` when the game is played at the table (the draws entered by a person), none when
 * the page draws. The part from `position` on is the engine's own line.
 */
export function saveLine(st) {
  const word = (s) => (s.kind === 'human' ? 'human' : `engine:${s.level === 'search' ? s.movetime : s.level}`);
  const seats = st.seats.map(word).join(',');
  return `seats=${seats}${st.table ? ' draws=table' : ''} position ${st.history}`;
}

/** The first word of `line` and the rest after it. */
function firstWord(line) {
  const sp = line.indexOf(' ');
  return sp < 0 ? [line, ''] : [line.slice(0, sp), line.slice(sp + 1)];
}

/**
 * Reads a saved line: {seats (or null), table (true, false, or null for a bare `position` line,
 * which keeps what the page has), line (the `position` arguments)}.
 */
export function readSaved(text) {
  let line = text.trim().replace(/\s+/g, ' ');
  let seats = null;
  let table = null;
  if (line.startsWith('seats=')) {
    let word;
    [word, line] = firstWord(line);
    table = false;
    if (line.startsWith('draws=')) {
      let draws;
      [draws, line] = firstWord(line);
      if (draws !== 'draws=table' && draws !== 'draws=page') throw new PageError('load.badDraws');
      table = draws === 'draws=table';
    }
    seats = word.slice('seats='.length).split(',').map((s) => {
      if (s === 'human') return newSeat('human');
      const weak = /^engine:(greedy|random)$/.exec(s);
      if (weak) return newSeat('engine', weak[1]);
      const m = /^engine:(\d{1,6})$/.exec(s);
      if (!m || Number(m[1]) < 10 || Number(m[1]) > 600000) throw new PageError('load.badSeats');
      return newSeat('engine', 'search', Number(m[1]));
    });
    if (!seats.length || seats.length > 6) throw new PageError('load.badSeats');
  }
  if (line.startsWith('position ')) line = line.slice('position '.length);
  if (!line) throw new PageError('load.empty');
  if (line.length + 20 > MAX_LINE) throw new PageError('load.tooLong');
  return { seats, table, line };
}

/** The saved line of the game on the board, empty before its first move. */
function savedText(st) {
  return st.history ? saveLine(st) : '';
}

/** The saved line shown in the Save / load dialog. */
export function renderSaved(st) {
  $('#save-text').value = savedText(st);
}

/** Copies the saved line to the clipboard (or, where the page may not, by the old way). */
export async function copySaved(st) {
  const text = savedText(st);
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    $('#save-text').select();
    document.execCommand('copy');
  }
  $('#copied').textContent = t('save.copied');
}

/** Downloads the saved line as a file named for the variant and the turn. */
export function downloadSaved(st) {
  const s = st.status;
  offerFile(`${savedText(st)}\n`, 'text/plain', `zatre-${st.position ? st.position.variant : 'game'}-${s ? s.turn : 0}.txt`);
}
