// Readers of the engine's payloads (PROTOCOL.md): they turn lines into plain data and decide
// nothing. Fields are read by name, so later versions may add fields.

/** `key value key value ...` into an object (first occurrence wins). */
export function fields(line) {
  const out = {};
  const t = line.trim().split(/\s+/);
  for (let i = 0; i + 1 < t.length; i += 2) {
    if (!(t[i] in out)) out[t[i]] = t[i + 1];
  }
  return out;
}

/** A cell name `h8` into {col: 0-based, row: 1-based}. */
export function cellCoords(name) {
  const m = /^([a-z]+)(\d+)$/.exec(name);
  if (!m) return null;
  let col = 0;
  for (const ch of m[1]) col = col * 26 + (ch.charCodeAt(0) - 96);
  return { col: col - 1, row: Number(m[2]) };
}

/** `5@h8,3@h9` (or `-`, or empty) into [{value, cell}]. */
export function placements(text) {
  if (!text || text === '-' || text === 'pass') return [];
  return text.split(',').filter(Boolean).map((p) => {
    const at = p.indexOf('@');
    return { value: Number(p.slice(0, at)), cell: p.slice(at + 1) };
  });
}

/** The `geometry` payload. */
export function geometry(lines) {
  const g = { columns: 0, rows: 0, centre: null, cells: [], extra: [] };
  for (const line of lines) {
    const [word, ...rest] = line.trim().split(/\s+/);
    if (word === 'columns') {
      const f = fields(line);
      g.columns = Number(f.columns);
      g.rows = Number(f.rows);
      g.centre = f.centre && f.centre !== '-' ? f.centre : null;
    } else if (word === 'cells') {
      g.cells = rest[0] && rest[0] !== '-' ? rest[0].split(',') : [];
    } else if (word === 'extra') {
      g.extra = rest[0] && rest[0] !== '-' ? rest[0].split(',') : [];
    }
  }
  return g;
}

/** The `next` payload: {complete: 'yes'|'no'|'unknown', next: [{value, cell}], stopped}. */
export function next(lines) {
  const r = { complete: 'unknown', next: [], stopped: false };
  for (const line of lines) {
    const [word, rest] = splitWord(line);
    if (word === 'complete') r.complete = rest;
    else if (word === 'next') r.next = placements(rest);
    else if (word === 'stopped') r.stopped = true;
  }
  return r;
}

/** The `status` payload. */
export function status(lines) {
  const first = fields(lines[0] || '');
  const s = {
    line: lines[0] || '',
    phase: first.phase,
    turn: Number(first.turn),
    tomove: Number(first.tomove),
    due: Number(first.due),
    end: null,
    ranking: [],
  };
  for (const line of lines.slice(1)) {
    const f = fields(line);
    if ('end' in f) s.end = f.end;
    else if ('rank' in f) {
      const who = 'team' in f ? { kind: 'team', n: Number(f.team) } : { kind: 'player', n: Number(f.player) };
      s.ranking.push({ rank: Number(f.rank), ...who, total: Number(f.total) });
    }
  }
  return s;
}

/** The `variants` payload: [{name, min, max, def, rules: [{name, def, kind, spec, players, byPlayers}], presets}]. */
export function variants(lines) {
  const out = [];
  for (const line of lines) {
    const t = line.trim().split(/\s+/);
    if (t[0] === 'variant') {
      const f = fields(line);
      const [min, max] = f.players.split('-').map(Number);
      const boxes = f.boxes ? f.boxes.split(',') : ['a', 'b', 'c'];
      out.push({ name: f.variant, min, max, def: Number(f.default), boxes, rules: [] });
    } else if (t[0] === 'rule' && out.length) {
      const rule = { name: t[1], def: t[3], kind: t[4], spec: t[5], players: null, byPlayers: null };
      for (let i = 6; i + 1 < t.length; i += 2) {
        if (t[i] === 'players') rule.players = t[i + 1].split(',').map(Number);
        if (t[i] === 'by_players') rule.byPlayers = t[i + 1].split(',');
      }
      out[out.length - 1].rules.push(rule);
    } else if (t[0] === 'preset' && out.length) {
      // `preset <name> <option>=<value>...`: the options the preset sets.
      const v = out[out.length - 1];
      v.presets = v.presets || {};
      v.presets[t[1]] = Object.fromEntries(t.slice(2).map((kv) => kv.split('=')));
    }
  }
  return out;
}

/**
 * The position line into its fields, with the board, hands and bag read. It reads a room's view
 * line too (docs/rooms.md, "Views"): there another seat's face-down tiles are one `?` each (in
 * `hidden`, their count per seat, and not in `hands`), `bag=<n>` is the bag's count only
 * (`bagCount`; `bag` is then null, as no count per value is known) and `unseen=<c1>,...,<c6>`
 * the tiles of each value the seat has not seen.
 */
export function position(line) {
  const f = {};
  for (const tok of line.trim().split(/\s+/)) {
    const eq = tok.indexOf('=');
    if (eq > 0) f[tok.slice(0, eq)] = tok.slice(eq + 1);
  }
  return {
    fields: f,
    variant: f.variant,
    players: Number(f.players),
    turn: Number(f.turn),
    tomove: Number(f.tomove),
    phase: f.phase,
    board: placements(f.board),
    bag: f.bag && f.bag !== '-' && f.bag.includes(',') ? f.bag.split(',').map(Number) : null,
    bagCount: bagCount(f.bag),
    unseen: f.unseen && f.unseen !== '-' ? f.unseen.split(',').map(Number) : null,
    hands: (f.hands || '').split('/').map((w) => handValues(w.replace(/\?/g, ''))),
    hidden: (f.hands || '').split('/').map((w) => (w.match(/\?/g) || []).length),
  };
}

/** The tiles in the bag: the sum of the counts per value, or a view line's one count; null without a bag. */
function bagCount(word) {
  if (!word || word === '-') return null;
  return word.split(',').reduce((sum, c) => sum + Number(c), 0);
}

/** One hand as the protocol writes it, a word of digits (`144`) or `-`: its values. */
function handValues(word) {
  return word === '-' ? [] : [...word].map(Number);
}

/**
 * A `score` line's hand: one word of digits (`144`, `-` when empty), a team's the hands of its
 * seats joined by `/` (`-/45`), read as the values of them all.
 */
function scoreHand(word) {
  if (!word) return [];
  return word.split('/').flatMap(handValues);
}

/** The `score` payload: [{kind, n, total, hand, rows: [[mark, a, b, c]], rowTotals, seats}], gameover. */
export function score(lines) {
  const sheets = [];
  let gameover = false;
  for (const line of lines) {
    const f = fields(line);
    if (line.trim() === 'gameover') {
      gameover = true;
      continue;
    }
    const kind = 'team' in f ? 'team' : 'player';
    if (!(kind in f)) continue;
    const rows = !f.sheet || f.sheet === 'none' ? [] : f.sheet.split('/').map((r) => r.split(','));
    const rowTotals = !f.rows || f.rows === 'none' ? [] : f.rows.split('/').map(Number);
    sheets.push({
      kind,
      n: Number(f[kind]),
      total: Number(f.total),
      hand: scoreHand(f.hand),
      rows,
      rowTotals,
      seats: f.seats ? f.seats.split(',').map(Number) : [Number(f[kind])],
    });
  }
  return { sheets, gameover };
}

/** An `info` line. */
export function info(line) {
  const t = line.trim().split(/\s+/);
  const out = {};
  for (let i = 1; i < t.length; i++) {
    if (t[i] === 'pv') {
      out.pv = t.slice(i + 1).join(' ');
      break;
    }
    if (i + 1 < t.length) {
      out[t[i]] = t[i + 1];
      i++;
    }
  }
  return out;
}

/**
 * A turn line of `analyse` (PROTOCOL.md, `analyse`): `info [id <id>] turn <t> seat <s> played
 * <move> points <p> value <v> best <move> bestpoints <p> bestvalue <v> bestplayed yes|no lost <l>
 * margins <m>,... nodes <n>`, as numbers; null for any other line or a line missing a field.
 */
export function analysedTurn(line) {
  const f = info(line);
  if (f.turn === undefined) return null;
  const n = (v) => (v === undefined || v === '' ? NaN : Number(v));
  const out = {
    turn: n(f.turn),
    seat: n(f.seat),
    played: f.played,
    playedPoints: n(f.points),
    playedValue: n(f.value),
    best: f.best,
    bestPoints: n(f.bestpoints),
    bestValue: n(f.bestvalue),
    playedIsBest: f.bestplayed === 'yes',
    lost: n(f.lost),
    margins: (f.margins || '').split(',').map((m) => (m === '-' ? null : n(m))),
  };
  const numbers = [out.turn, out.seat, out.playedPoints, out.playedValue, out.bestPoints, out.bestValue, out.lost];
  const ok = out.played && out.best && numbers.every(Number.isFinite) && out.margins.every((m) => m === null || Number.isFinite(m));
  return ok ? out : null;
}

/** `analysed <k> of <n> lost <l>,... nodes <n> [stopped]`: {done, total, lost (by seat), stopped}. */
export function analysed(lines) {
  const words = (lines[0] || '').trim().split(/\s+/);
  if (words[0] !== 'analysed' || words[2] !== 'of') return null;
  const f = fields(words.slice(4).join(' '));
  const lost = (f.lost || '').split(',').map(Number);
  return { done: Number(words[1]), total: Number(words[3]), lost, stopped: words[words.length - 1] === 'stopped' };
}

/** `bestmove <move> score <s> ...` */
export function bestmove(lines) {
  const f = fields(lines[0] || '');
  return { move: f.bestmove, score: f.score, winprob: f.winprob };
}

function splitWord(line) {
  const s = line.trim();
  const sp = s.indexOf(' ');
  return sp < 0 ? [s, ''] : [s.slice(0, sp), s.slice(sp + 1).trim()];
}
