// What a screen reader hears: the polite live region (`#announce`) and the assertive one for
// errors (`#announce-now`), the last sentences said (`zatreSaid()`), and the sentences of a move
// played and of whose turn it is, from the state it is given.

import * as P from './parse.js';
import { t } from './i18n.js';
import { seatName, moveWords } from './words.js';
import { isYou, moverHand, humanPlaces } from './state.js';

const $ = (sel) => document.querySelector(sel);

/** The last sentences said, for a person (or a test) looking into what was announced: `zatreSaid()`. */
const said = [];
let sayBatch = [];
let sayTimer = null;
window.zatreSaid = () => said.slice();

/**
 * Says `text` to a screen reader, in the page's language: through the polite live region
 * (`#announce`), or at once (`#announce-now`, for errors). Sentences said together are read
 * together; the same sentence said again is read again.
 */
export function say(text, now = false) {
  if (!text) return;
  if (!/[.!?…]$/.test(text)) text += '.';
  said.push(text);
  if (said.length > 100) said.splice(0, said.length - 100);
  if (now) {
    const box = $('#announce-now');
    box.textContent = '';
    setTimeout(() => {
      box.textContent = text;
    }, 30);
    return;
  }
  sayBatch.push(text);
  if (sayTimer) return;
  $('#announce').textContent = '';
  sayTimer = setTimeout(() => {
    $('#announce').textContent = sayBatch.join(' ');
    sayBatch = [];
    sayTimer = null;
  }, 60);
}

/** Says a move just played: who, the tiles and cells, the points. */
export function sayPlayed(st, { seat, move, points }) {
  const who = seatName(seat, st.seats);
  if (!P.placements(move).length) say(isYou(st, seat) ? t('say.youPassed') : t('say.passed', { who }));
  else if (isYou(st, seat)) say(t('say.youPlayed', { move: moveWords(move), n: points }));
  else say(t('engine.played', { who, move: moveWords(move), n: points }));
}

/** Says whose turn it is to place, with the hand (when it is shown), once a human is to place. */
export function sayTurn(st) {
  if (!humanPlaces(st)) return;
  const n = st.status.tomove;
  const hand = moverHand(st).join(', ') || t('hand.empty');
  say(isYou(st, n) ? t('say.yourTurn', { hand }) : t('say.turnOf', { who: seatName(n, st.seats), hand }));
  if (st.passOk) say(t('move.noFit'));
}
