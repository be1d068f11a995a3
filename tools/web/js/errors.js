// Errors as the player reads them: the red bar (`#error-box`) with the sentence of an engine's
// `?` code, of a page's own error (PageError, named by its catalogue key) or of anything else,
// the engine's own words folded under it; and the same said inside the open modal dialog, whose
// backdrop hides the bar.

import { EngineError } from './protocol.js';
import { t } from './i18n.js';
import { errorWords } from './words.js';
import { say } from './announce.js';
import { state, errorShown } from './state.js';
import { restoreFocus } from './focus.js';

const $ = (sel) => document.querySelector(sel);

/** An error of the page itself, named by its catalogue key. */
export class PageError extends Error {
  constructor(key) {
    super(key);
    this.key = key;
  }
}

/** An error in words: {sentence, detail (the engine's or the page's own words), code}. */
function errorSaid(e) {
  if (e instanceof EngineError) {
    const key = e.reason ? ` ${e.reason}` : '';
    const detail = `${e.command.split(' ')[0]}: ${e.code}${key}${e.detail ? ` ${e.detail}` : ''}`;
    return { sentence: errorWords(e.code, e.reason), detail, code: e.code };
  }
  if (e instanceof PageError) return { sentence: t(e.key), detail: '', code: e.key };
  return { sentence: t('error.page'), detail: String((e && e.message) || e), code: 'page' };
}

/** Shows and says error `e` (again, in the page's language, after a language switch). */
export function showError(e) {
  errorShown(e);
  const { sentence, detail, code } = errorSaid(e);
  const box = $('#error-box');
  $('#error').textContent = sentence;
  $('#error-detail').textContent = detail;
  box.dataset.code = code;
  $('#error-more').hidden = !detail;
  box.hidden = false;
  say(sentence, true);
  // The red bar is under a modal dialog's backdrop: the open dialog says it too.
  dialogSays(sentence, detail);
}

/**
 * Says `sentence` in the open modal dialog, if any (its backdrop hides the page's bars): the
 * engine's or the bridge's own words (`detail`, English) folded away under it, and `extra`
 * elements (a button) after them.
 */
export function dialogSays(sentence, detail, ...extra) {
  const inDialog = state.dialog && $(`#${state.dialog}-dialog .dialog-error`);
  if (!inDialog) return;
  const words = document.createElement('span');
  words.textContent = sentence;
  inDialog.replaceChildren(words);
  if (detail) {
    const more = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = t('error.more');
    const code = document.createElement('code');
    code.lang = 'en';
    code.textContent = detail;
    more.append(summary, code);
    inDialog.appendChild(more);
  }
  inDialog.append(...extra);
  inDialog.hidden = false;
}

/** Clears the error a dialog says (when it closes, or when the red bar is dismissed). */
export function clearDialogErrors() {
  for (const p of document.querySelectorAll('.dialog-error')) {
    p.hidden = true;
    p.textContent = '';
  }
}

/** Takes the red bar away: dismissed, or a new game or a loaded one has replaced what it was about. */
export function dismissError() {
  errorShown(null);
  const hadFocus = $('#error-box').contains(document.activeElement);
  $('#error-box').hidden = true;
  $('#error').textContent = '';
  clearDialogErrors();
  if (hadFocus) restoreFocus();
}
