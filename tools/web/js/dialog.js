// The new-game dialog, built from the engine's `variants`: variant, players, seats (a person, or
// the computer at one of three levels: the search with its time per move, the engine's `greedy` or
// its `random` strategy), the rule options and a seed. It knows no variant itself: names
// and one-line explanations come from the catalogue, and a word the catalogue lacks is shown as
// the engine wrote it.

import { t, tOr } from './i18n.js';

/**
 * A seat's choices: a person, the computer's search (`engine`, with a time per move), or the
 * engine's weaker strategies for beginners and children (`Strategy` `greedy`, `random`).
 */
const SEAT_KINDS = ['human', 'engine', 'greedy', 'random'];
/** The rule option that names a preset (`variants`: "`rules` is a preset"). */
export const PRESET = 'rules';
/** A computer seat's time per move when nobody said: ms. */
const DEFAULT_MOVETIME = 1000;

/**
 * A seat of the page: `human` or `engine`, the computer's level (`search`, `greedy`, `random`:
 * the engine's `Strategy`) and the search's time per move, ms.
 */
export function newSeat(kind, level = 'search', movetime = DEFAULT_MOVETIME) {
  return { kind, level, movetime };
}

export class NewGameDialog {
  constructor(dialog, onStart) {
    this.dialog = dialog;
    this.onStart = onStart;
    this.variants = [];
    this.variantSel = dialog.querySelector('#variant');
    this.playersSel = dialog.querySelector('#players');
    this.seatsBox = dialog.querySelector('#seats');
    this.rulesBox = dialog.querySelector('#rules');
    this.seedInput = dialog.querySelector('#seed');
    this.seatChoice = ['human', 'engine', 'engine', 'engine', 'engine', 'engine'];
    this.seatTime = new Array(6).fill(DEFAULT_MOVETIME);
    this.variantSel.addEventListener('change', () => this.variantChanged());
    this.playersSel.addEventListener('change', () => this.playersChanged());
    dialog.querySelector('#start').addEventListener('click', () => this.start());
    dialog.querySelector('#cancel-new-game').addEventListener('click', () => dialog.close());
  }

  /**
   * Sets the variants (parsed `variants`) and what each preset sets (`presets`: variant name ->
   * preset name -> {option: value}, as the engine played them) and builds the controls.
   */
  setVariants(variants, presets = {}) {
    this.variants = variants;
    this.presets = presets;
    this.variantSel.replaceChildren(
      ...variants.map((v) => {
        const o = document.createElement('option');
        o.value = v.name;
        o.textContent = tOr(`variant.${v.name}`, v.name);
        return o;
      }),
    );
    this.variantChanged();
  }

  open() {
    if (!this.dialog.open) this.dialog.showModal();
  }

  variant() {
    return this.variants.find((v) => v.name === this.variantSel.value) || this.variants[0];
  }

  variantChanged() {
    const v = this.variant();
    if (!v) return;
    const keep = Number(this.playersSel.value);
    this.playersSel.replaceChildren();
    for (let n = v.min; n <= v.max; n++) {
      const o = document.createElement('option');
      o.value = String(n);
      o.textContent = String(n);
      this.playersSel.appendChild(o);
    }
    this.playersSel.value = String(keep >= v.min && keep <= v.max ? keep : v.def);
    this.buildRules();
    this.playersChanged();
  }

  playersChanged() {
    this.buildSeats();
    this.applyPlayerDefaults();
  }

  buildSeats() {
    this.readSeats();
    const n = Number(this.playersSel.value);
    this.seatsBox.replaceChildren();
    for (let i = 1; i <= n; i++) {
      const row = document.createElement('div');
      row.className = 'form-row seat';
      const label = document.createElement('label');
      label.htmlFor = `seat-${i}`;
      label.textContent = t('dialog.seat', { n: i });
      const sel = document.createElement('select');
      sel.id = `seat-${i}`;
      sel.setAttribute('aria-describedby', 'seat-levels-help');
      for (const k of SEAT_KINDS) {
        const o = document.createElement('option');
        o.value = k;
        o.textContent = t(`kind.${k}`);
        sel.appendChild(o);
      }
      sel.value = this.seatChoice[i - 1];
      const time = document.createElement('input');
      time.type = 'number';
      time.id = `time-${i}`;
      // Shown in seconds (people read seconds), kept in ms (the protocol's `movetime`).
      time.min = '0.01';
      time.max = '600';
      time.step = 'any';
      time.value = String(this.seatTime[i - 1] / 1000);
      time.setAttribute('aria-label', t('dialog.timeLabel', { n: i }));
      const unit = document.createElement('span');
      unit.className = 'unit';
      unit.textContent = t('dialog.secondsPerMove');
      unit.setAttribute('aria-hidden', 'true');
      // Only the search takes a time: a person's or a weaker level's row shows none.
      const sync = () => {
        const engine = sel.value === 'engine';
        time.disabled = !engine;
        time.hidden = !engine;
        unit.hidden = !engine;
      };
      sel.addEventListener('change', sync);
      sync();
      row.append(label, sel, time, unit);
      this.seatsBox.appendChild(row);
    }
    const help = document.createElement('p');
    help.className = 'help-line';
    help.id = 'seat-levels-help';
    help.textContent = t('dialog.levels');
    this.seatsBox.appendChild(help);
  }

  readSeats() {
    for (let i = 1; i <= 6; i++) {
      const sel = this.dialog.querySelector(`#seat-${i}`);
      const time = this.dialog.querySelector(`#time-${i}`);
      if (sel) this.seatChoice[i - 1] = sel.value;
      // An engine's time per move, typed in seconds: 10 ms to 10 minutes.
      const ms = time ? Math.round(Number(time.value) * 1000) : NaN;
      if (ms > 0) this.seatTime[i - 1] = Math.min(600000, Math.max(10, ms));
    }
  }

  buildRules() {
    const v = this.variant();
    this.rulesBox.replaceChildren();
    for (const rule of v.rules) {
      const row = document.createElement('div');
      row.className = 'form-row rule-row';
      const label = document.createElement('label');
      label.htmlFor = `rule-${rule.name}`;
      label.textContent = tOr(`rule.${rule.name}`, rule.name);
      let control;
      if (rule.kind === 'choice') {
        control = document.createElement('select');
        for (const c of rule.spec.split(',')) {
          const o = document.createElement('option');
          o.value = c;
          o.textContent = tOr(`rule.${rule.name}.${c}`, c);
          control.appendChild(o);
        }
      } else if (rule.kind === 'range' || rule.kind === 'odd') {
        control = document.createElement('input');
        control.type = 'number';
        const [lo, hi] = rule.spec.split('-');
        control.min = lo;
        control.max = hi;
        control.step = rule.kind === 'odd' ? '2' : '1';
      } else {
        control = document.createElement('input');
        control.type = 'text';
        control.title = t('dialog.listFormat', { range: rule.spec });
      }
      control.id = `rule-${rule.name}`;
      control.dataset.rule = rule.name;
      control.value = rule.def;
      if (rule.name === PRESET) control.addEventListener('change', () => this.presetChanged());
      else control.addEventListener('change', () => this.markPreset());
      const help = document.createElement('p');
      help.className = 'help-line';
      help.id = `rule-help-${rule.name}`;
      const words = [tOr(`rule.${rule.name}.help`, '')];
      if (rule.players) words.push(t('dialog.onlyPlayers', { list: rule.players.join(', ') }));
      help.textContent = words.filter(Boolean).join(' ');
      control.setAttribute('aria-describedby', help.id);
      row.append(label, control);
      this.rulesBox.append(row, help);
    }
  }

  /** Sets the fields a preset sets to what the engine said the preset means. */
  presetChanged() {
    const v = this.variant();
    const control = this.dialog.querySelector(`#rule-${PRESET}`);
    const meaning = control && (this.presets[v.name] || {})[control.value];
    if (!meaning) return;
    for (const [name, value] of Object.entries(meaning)) {
      const field = this.dialog.querySelector(`#rule-${name}`);
      if (field && !field.disabled) field.value = value;
    }
    this.markPreset();
  }

  /** Says when the fields no longer are the chosen preset (they are what is played). */
  markPreset() {
    const v = this.variant();
    const control = this.dialog.querySelector(`#rule-${PRESET}`);
    const meaning = control && (this.presets[v.name] || {})[control.value];
    const note = this.dialog.querySelector('#preset-note');
    note.hidden = !meaning || Object.entries(meaning).every(([name, value]) => {
      const field = this.dialog.querySelector(`#rule-${name}`);
      return !field || field.value === value;
    });
  }

  /** Rebuilds the words of the dialog in the current language, keeping what is chosen. */
  relabel() {
    const chosen = [...this.dialog.querySelectorAll('select, input')].map((c) => [c.id, c.value]);
    this.readSeats();
    const variant = this.variantSel.value;
    this.setVariants(this.variants, this.presets);
    this.variantSel.value = variant;
    this.variantChanged();
    for (const [id, value] of chosen) {
      const c = id && this.dialog.querySelector(`#${id}`);
      if (c && c.value !== value && id !== 'variant') c.value = value;
    }
    this.buildSeats();
    this.markPreset();
  }

  /** The default of a rule for the chosen number of players. */
  ruleDefault(rule) {
    const n = Number(this.playersSel.value);
    if (rule.byPlayers && rule.byPlayers[n - 1] !== undefined) return rule.byPlayers[n - 1];
    return rule.def;
  }

  applyPlayerDefaults() {
    const n = Number(this.playersSel.value);
    for (const rule of this.variant().rules) {
      const control = this.dialog.querySelector(`#rule-${rule.name}`);
      if (!control) continue;
      if (rule.byPlayers) control.value = this.ruleDefault(rule);
      const allowed = !rule.players || rule.players.includes(n);
      control.disabled = !allowed;
      if (!allowed) control.value = rule.def;
    }
  }

  /** The game the dialog describes. */
  read() {
    this.readSeats();
    const v = this.variant();
    const players = Number(this.playersSel.value);
    const rules = [];
    for (const rule of v.rules) {
      const control = this.dialog.querySelector(`#rule-${rule.name}`);
      if (!control || control.disabled) continue;
      const value = control.value.trim().replace(/\s+/g, '');
      // Every field is sent, a value equal to a default too: the fields are what is played (the
      // preset `rules=` comes first and the single options override it, PROTOCOL.md `newgame`).
      if (value === '') continue;
      if (rule.name === PRESET) rules.unshift(`${rule.name}=${value}`);
      else rules.push(`${rule.name}=${value}`);
    }
    const seats = [];
    for (let i = 0; i < players; i++) seats.push(seatOfChoice(this.seatChoice[i], this.seatTime[i]));
    const seed = this.seedInput.value.trim();
    // At the table the tiles come from a real bag (the numbers from real dice): a person enters them.
    const table = this.dialog.querySelector('#draws-table').checked;
    return { variant: v.name, players, rules, seats, seed, table };
  }

  /** Shows the seats of a loaded game in the dialog, for the next new game. */
  setSeats(seats) {
    seats.forEach((s, i) => {
      this.seatChoice[i] = s.kind === 'human' ? 'human' : s.level === 'search' ? 'engine' : s.level;
      this.seatTime[i] = s.movetime;
    });
    this.seatsBox.replaceChildren();
    this.buildSeats();
  }

  /** Shows whether a loaded game is played at the table, for the next new game. */
  setTable(on) {
    this.dialog.querySelector('#draws-table').checked = on;
    this.dialog.querySelector('#draws-page').checked = !on;
  }

  start() {
    const game = this.read();
    this.onStart(game);
  }
}

/** The `newgame` arguments of a game read from the dialog. */
export function newgameArgs(game) {
  const parts = ['variant', game.variant, 'players', String(game.players)];
  if (game.seed !== '') parts.push('seed', game.seed);
  parts.push(...game.rules);
  return parts.join(' ');
}

/** A seat from the dialog's choice (`human`, `engine` the search, `greedy`, `random`). */
function seatOfChoice(choice, movetime) {
  if (choice === 'human') return newSeat('human', 'search', movetime);
  return newSeat('engine', choice === 'engine' ? 'search' : choice, movetime);
}
