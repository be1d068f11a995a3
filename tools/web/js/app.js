// The board page's wiring: each button, key and event of the page goes to a transition of the
// state (state.js) or an action of the module that owns it (the turn, the seats, the connection,
// save and load, the review), and the views (view.js) draw the state again. Every rule comes from
// the engine: what a cell accepts, whose turn it is, what a move scores, when the game ends. Every
// word comes from the catalogue of the chosen language (i18n.js).

import * as P from './parse.js';
import { NewGameDialog } from './dialog.js';
import { CATALOGUES, LANGS, initialLang, setLang, t, translateStatic } from './i18n.js';
import { Review, expose as exposeReview } from './review.js';
import { MODE, state, variantsRead, reviewShown, settingChosen } from './state.js';
import { board, handle, render, renderHints, renderHelp, updateButtons } from './view.js';
import { PageError, showError, dismissError, clearDialogErrors } from './errors.js';
import { openDialog, closeDialog, onDialogClosed } from './dialogs.js';
import { act, call, connect, loadBoard, refresh, interrupt, showClosed } from './connection.js';
import { applyZoom, zoomChosen, measureHeader, coarse } from './zoom.js';
import { clickTile, onCell, onKey, showHint, playHint, submit, pass, takeBackAll, hint } from './turn.js';
import { advance, draw, undo, startGame, loadGame } from './seats.js';
import { enterValue, removeValue, confirmDraw, onDrawKey } from './table.js';
import { readSaved, copySaved, downloadSaved } from './saved.js';

const $ = (sel) => document.querySelector(sel);

const dialog = new NewGameDialog($('#new-game-dialog'), (game) => startGame(game));

handle({ cell: onCell, pickTile: clickTile, showHint, playHint, drawValue: enterValue });

// ---- language -----------------------------------------------------------------------------

/** The pickers of the language: the header's, and the New game dialog's (it opens by itself, modal). */
const LANG_PICKERS = ['#lang', '#dialog-lang'];

function fillLanguagePicker() {
  for (const picker of LANG_PICKERS) {
    $(picker).replaceChildren(
      ...LANGS.map((code) => {
        const o = document.createElement('option');
        o.value = code;
        o.lang = code;
        o.textContent = CATALOGUES[code]['language.name'];
        return o;
      }),
    );
  }
}

function applyLanguage(code) {
  setLang(code);
  for (const picker of LANG_PICKERS) $(picker).value = code;
  document.title = t('app.title');
  translateStatic();
  if (state.variants.length) dialog.relabel();
  renderHelp(state);
  if (state.shownError) showError(state.shownError);
  if (state.closed) showClosed(state.closed);
  board.rerender();
  render(state);
  renderHints(state);
  measureHeader();
  review.relabel();
}

$('#lang').addEventListener('change', (ev) => applyLanguage(ev.target.value));
// The dialog's picker chooses through the header's, so that everything listening to it hears.
$('#dialog-lang').addEventListener('change', (ev) => {
  $('#lang').value = ev.target.value;
  $('#lang').dispatchEvent(new Event('change'));
});

// ---- errors and dialogs -------------------------------------------------------------------

$('#error-dismiss').addEventListener('click', dismissError);
// A New game or Save / load dialog resumes play when it closes (the help does not stop play).
onDialogClosed((name) => {
  if (name !== 'help') advance();
});

// ---- the connection -----------------------------------------------------------------------

/** Connects, and reads the variants the first time (a reconnect keeps the dialog's choices). */
async function connectEngine() {
  await connect();
  if (!state.variants.length) {
    variantsRead(P.variants(await call('variants')));
    dialog.setVariants(state.variants, readPresets(state.variants));
    renderHelp(state);
  }
}

/** What each preset sets, by variant: the `preset` lines of `variants`. */
function readPresets(variants) {
  return Object.fromEntries(variants.filter((v) => v.presets).map((v) => [v.name, v.presets]));
}

// On any close (the engine ended, was stopped after an idle time (4006), or the page sent too
// much (4007)) a new engine takes the game up from the last `history`.
$('#reconnect').addEventListener('click', () =>
  act(async () => {
    const restore = state.history;
    // Back from a review too: the new engine takes up the game on the board.
    if (state.mode === MODE.REVIEW) review.abandon();
    await connectEngine();
    clearDialogErrors();
    if (restore) {
      await call(`position ${restore}`);
    }
    await loadBoard();
    await refresh();
  }).then(() => advance()),
);

window.addEventListener('beforeunload', () => state.engine && state.engine.close());

// ---- the turn, the seats ------------------------------------------------------------------

// A digit enters a value while a draw at the table is due, else picks a hand tile.
document.addEventListener('keydown', (ev) => onDrawKey(ev) || onKey(ev));
$('#draw').addEventListener('click', () => draw().then(() => advance()));
$('#submit').addEventListener('click', () => submit().then(() => advance()));
$('#take-back').addEventListener('click', () => takeBackAll());
$('#pass').addEventListener('click', () => pass().then(() => advance()));
$('#undo').addEventListener('click', () => undo().then(() => advance()));
$('#hint').addEventListener('click', () => hint());
$('#table-remove').addEventListener('click', () => removeValue());
$('#table-confirm').addEventListener('click', () => confirmDraw().then(() => advance()));

// ---- settings -----------------------------------------------------------------------------

$('#show-hidden').addEventListener('change', (ev) => {
  settingChosen('showHidden', ev.target.checked);
  render(state);
});
$('#auto-draw').addEventListener('change', (ev) => settingChosen('autoDraw', ev.target.checked));
$('#zoom').addEventListener('change', (ev) => zoomChosen(ev.target.checked));
window.addEventListener('resize', () => applyZoom());
coarse.addEventListener('change', () => applyZoom());

// ---- new game, save and load --------------------------------------------------------------

const openNewGame = () => openDialog('new-game', () => dialog.open());
$('#new-game').addEventListener('click', openNewGame);
$('#result-new-game').addEventListener('click', openNewGame);

$('#save-load').addEventListener('click', () => {
  $('#copied').textContent = '';
  openDialog('save');
});
$('#close-save').addEventListener('click', () => closeDialog('save'));
$('#copy').addEventListener('click', () => copySaved(state));
$('#download').addEventListener('click', () => downloadSaved(state));
$('#load').addEventListener('click', () => {
  let saved;
  try {
    saved = readSaved($('#load-line').value);
  } catch (e) {
    showError(e);
    return;
  }
  loadGame(saved, (seats, table) => {
    dialog.setSeats(seats);
    dialog.setTable(table);
  });
});

// ---- help ---------------------------------------------------------------------------------

$('#help-variant').addEventListener('change', (ev) => {
  settingChosen('helpVariant', ev.target.value);
  renderHelp(state);
});
$('#result-help').addEventListener('click', () => $('#help').click());
$('#help').addEventListener('click', () => {
  if (state.position) settingChosen('helpVariant', state.position.variant);
  renderHelp(state);
  openDialog('help');
});
$('#close-help').addEventListener('click', () => closeDialog('help'));

// ---- review mode ----------------------------------------------------------------------------
// js/review.js owns it; here only the ways in (the header's Review, the result's "Review this
// game") and out (the game on the board comes back from its `history`).

const review = new Review({
  engine: () => state.engine,
  board,
  variants: () => state.variants,
  showError: (e) => showError(e && e.key && !(e instanceof Error) ? new PageError(e.key) : e),
  leave: () =>
    act(async () => {
      if (!state.connected) {
        // The banner's Reconnect brings the game back; until then the board shows it as it was.
        board.build(state.geometry);
        applyZoom();
        render(state);
        return;
      }
      await call(state.history ? `position ${state.history}` : 'newgame');
      await loadBoard();
      await refresh();
    }).then(() => advance()),
  shown: (on) => {
    reviewShown(on);
    updateButtons(state);
  },
});
exposeReview(review);

/** The game on the board as a line the review reads. */
function currentGameLine() {
  return state.history ? `position ${state.history}` : '';
}

async function enterReview(line) {
  await interrupt();
  $('#result').hidden = true;
  if (line) {
    $('#review-input').value = line;
    await review.act(() => review.load(line));
  } else {
    review.show(true);
    $('#review-input').focus();
  }
}

$('#review-enter').addEventListener('click', () => enterReview(''));
$('#review-this').addEventListener('click', () => enterReview(currentGameLine()));
$('#review-current').addEventListener('click', () => enterReview(currentGameLine()));

// ---- start --------------------------------------------------------------------------------

fillLanguagePicker();
applyLanguage(initialLang());

act(async () => {
  await connectEngine();
  await loadBoard();
  await refresh();
  openNewGame();
});
