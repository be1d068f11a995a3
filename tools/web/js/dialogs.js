// The modal dialogs (New game, Save / load, How to play): opened and closed here, in step with the
// state's `dialog`, whichever way they close (a button, Escape, the page).

import { DIALOGS, dialogOpened, dialogClosed } from './state.js';
import { clearDialogErrors } from './errors.js';

const element = (name) => document.querySelector(`#${name}-dialog`);

/** Opens dialog `name` (one of DIALOGS); `show` opens it, else it is shown as a modal. */
export function openDialog(name, show = () => element(name).showModal()) {
  show();
  dialogOpened(name);
}

/** Closes dialog `name`. */
export function closeDialog(name) {
  element(name).close();
  dialogClosed(name);
}

/** Calls `then(name)` whenever a dialog has closed, after the state knows it. */
export function onDialogClosed(then) {
  for (const name of DIALOGS) {
    element(name).addEventListener('close', () => {
      dialogClosed(name);
      clearDialogErrors();
      then(name);
    });
  }
}
