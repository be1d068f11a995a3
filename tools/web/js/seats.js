// The seats: who plays which seat (a person, or the computer at its level), a new or loaded game
// with its seats, the computer seats' moves and the human seats' automatic draws until a person
// is to act, and Undo back to a person's turn.

import * as P from './parse.js';
import { EngineError } from './protocol.js';
import { newgameArgs } from './dialog.js';
import { sayPlayed, sayTurn } from './announce.js';
import { dismissError } from './errors.js';
import { closeDialog } from './dialogs.js';
import { act, call, request, refresh, loadBoard, think, stopThinking, interrupt } from './connection.js';
import { engineSays } from './view.js';
import { startTurn } from './turn.js';
import { drawNothing, sayDrawDue } from './table.js';
import { state, seatOf, humanPlaces, playPaused, moved, seatsChosen, playInterrupted, tableChosen } from './state.js';

const $ = (sel) => document.querySelector(sel);

/**
 * The least time a weaker computer level (`greedy`, `random`: answered at once) takes for a
 * move, ms: its move does not land the instant the player's own went down, and a game of such
 * seats sends about 34 commands a second, not about 175 (measured in a kids' game of a simple and a
 * beginner computer, counting the page's WebSocket sends over a few seconds).
 */
const WEAK_MOVE_MS = 300;

/**
 * A computer seat's move: the search for the seat's time, or the engine's `greedy` or `random`
 * strategy (a weaker level, answered at once, shown after WEAK_MOVE_MS), the strategy set back to
 * the search after it so that hints and the review always search.
 */
async function seatMove(seat) {
  if (seat.level === 'search') return think(`movetime ${seat.movetime}`);
  const started = performance.now();
  await call(`setoption name Strategy value ${seat.level}`);
  let answer;
  try {
    answer = await think(`movetime ${seat.movetime}`);
  } finally {
    await call('setoption name Strategy value search');
  }
  const rest = WEAK_MOVE_MS - (performance.now() - started);
  if (rest > 0) await new Promise((r) => setTimeout(r, rest));
  return answer;
}

/**
 * Plays the engine seats and the automatic draws until a human has to act or the game ends. At
 * the table a person enters every draw (a computer seat's too): the seats wait for it.
 */
export async function advance() {
  const gen = state.generation;
  while (gen === state.generation && state.connected && !state.busy) {
    const s = state.status;
    if (!s || s.phase === 'over' || playPaused(state)) return;
    const seat = seatOf(state, s.tomove);
    let progressed = false;
    await act(async () => {
      if (s.phase === 'draw' && state.table) {
        if (s.due === 0) {
          await drawNothing();
          progressed = true;
        } else sayDrawDue(state);
      } else if (seat.kind === 'engine') {
        if (s.phase === 'draw') {
          await call('draw');
        } else {
          const { best } = await seatMove(seat);
          if (gen !== state.generation) return;
          const placed = P.fields((await call(`place ${best.move}`))[0] || '');
          const played = { seat: s.tomove, move: best.move, points: Number(placed.points || 0) };
          moved(
            P.placements(best.move).map((p) => p.cell),
            played,
          );
          sayPlayed(state, played);
        }
        await refresh();
        progressed = true;
      } else if (s.phase === 'draw' && state.autoDraw) {
        await call('draw');
        await refresh();
        progressed = true;
      } else if (s.phase === 'place' && !state.next) {
        await startTurn();
        sayTurn(state);
      }
    });
    if (!progressed) return;
    // Let the page paint between moves.
    await new Promise((r) => setTimeout(r, 30));
  }
}

/** Draw: the person to draw draws. */
export function draw() {
  return act(async () => {
    await call('draw');
    await refresh();
  });
}

/**
 * Undo: takes back until a person is to place again (or nothing is left to take back); at the
 * table also until a draw is to be entered again, so that a draw entered wrong can be put right.
 */
export function undo() {
  return act(async () => {
    await stopThinking();
    playInterrupted();
    for (;;) {
      const r = await request('undo');
      if (!r.ok) {
        if (r.code !== 'cannot_undo') throw new EngineError(r.code, r.message, 'undo', r.reason);
        break;
      }
      const st = P.status(await call('status'));
      if (st.phase === 'place' && seatOf(state, st.tomove).kind === 'human') break;
      if (state.table && st.phase === 'draw' && st.due > 0) break;
    }
    moved([]);
    await refresh();
    if (humanPlaces(state)) {
      await startTurn();
      sayTurn(state);
    }
  });
}

/**
 * Replaces the game on the board: what runs stops, `command` sets up the new game, `seats` (when
 * given) sit at it and `accepted()` runs once the engine took it, the dialog `from` closes; then
 * the seats play on.
 */
async function replaceGame(command, seats, from, accepted) {
  await interrupt();
  await act(async () => {
    await call(command);
    dismissError();
    if (seats) seatsChosen(seats);
    moved([]);
    accepted();
    await loadBoard();
    await refresh();
    closeDialog(from);
  });
  advance();
}

/** Start in the New game dialog: `game` its choices (newgameArgs, and `table`). */
export function startGame(game) {
  return replaceGame(`newgame ${newgameArgs(game)}`, game.seats, 'new-game', () => {
    tableChosen(game.table);
    engineSays('');
    // A seed typed by the player is for this game; the next one gets a new seed unless typed.
    $('#seed').value = '';
  });
}

/**
 * Load in the Save / load dialog: `saved` read by readSaved; `seatsShown(seats, table)` when it
 * has seats (a bare `position` line keeps the seats and the draws the page has).
 */
export function loadGame(saved, seatsShown) {
  return replaceGame(`position ${saved.line}`, saved.seats, 'save', () => {
    if (saved.table !== null) tableChosen(saved.table);
    if (saved.seats) seatsShown(saved.seats, saved.table);
  });
}
