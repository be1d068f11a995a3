// The protocol client: one WebSocket to the bridge, one engine behind it. `request` sends a command
// with a fresh numeric id and returns a promise of its response; `info` lines come as events. It
// knows the framing of the protocol (PROTOCOL.md) and nothing of the game.

/** A `?` response: its code, its reason key (version 3) and its message for a person. */
export class EngineError extends Error {
  constructor(code, message, command, reason = null) {
    super(message ? `${code} ${message}` : code);
    this.code = code;
    this.reason = reason;
    this.detail = message;
    this.command = command;
  }
}

/** The connection ended before the response came. */
export class ConnectionClosed extends Error {
  constructor(reason) {
    super(reason || 'the connection to the engine is closed');
  }
}

/**
 * The bridge's own close codes (tools/src/web/session.rs): 4001 the engine exited, 4002 too many
 * engines, 4003 a line of the page too long, 4004 the engine not started, 4005 an engine line too
 * long, 4006 the engine stopped after an idle time, 4007 too many commands a second, 4008 this
 * client holds its share of engines, 4009 the engine did not answer in time, 4010 the page answered
 * no ping. The page says each in words from the catalogue (`close.<code>`).
 */
export const CLOSE_CODES = [4001, 4002, 4003, 4004, 4005, 4006, 4007, 4008, 4009, 4010];

/**
 * The most commands the page sends in any second; more wait their turn. The bridge closes a page
 * that sends more than its `--max-commands-per-second` (300 by default, 4007), and a review's
 * replay of a long game asks some five commands a move as fast as they are answered.
 */
export const MOST_PER_SECOND = 200;

export class EngineClient extends EventTarget {
  constructor(url) {
    super();
    this.url = url;
    this.socket = null;
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject, command}
    this.current = null; // the response being read: {id, ok, lines}
    this.closed = false;
    this.outbox = []; // lines waiting for the pace, oldest first
    this.sentAt = []; // when the lines of the last second went, oldest first (ms)
    this.paceTimer = null;
    // The protocol version the engine speaks to this page: 3 once `protocol 3` is answered (the
    // page asks for it on connecting), and then every `?` line carries a reason key.
    this.version = 2;
  }

  /** Opens the socket; resolves when it is open. */
  connect() {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url);
      this.socket = socket;
      let opened = false;
      socket.addEventListener('open', () => {
        opened = true;
        resolve();
      });
      socket.addEventListener('message', (ev) => this.onLine(String(ev.data)));
      socket.addEventListener('close', (ev) => {
        this.closed = true;
        // The bridge's reason, if it gave one; the page says the rest in words of its own.
        const reason = ev.reason || '';
        for (const p of this.pending.values()) p.reject(new ConnectionClosed(reason));
        this.pending.clear();
        this.dispatchEvent(new CustomEvent('close', { detail: { code: ev.code, reason, opened } }));
        if (!opened) reject(new ConnectionClosed(reason));
      });
    });
  }

  close() {
    if (this.socket) this.socket.close(1000, 'page closed');
  }

  /**
   * Sends `<id> <command>`; resolves with {ok, payload (lines), code, reason, message}. A `?`
   * response resolves too (ok false); use `call` to have it thrown.
   */
  request(command) {
    if (this.closed || !this.socket) return Promise.reject(new ConnectionClosed());
    const id = String(this.nextId++);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, command });
      this.outbox.push(`${id} ${command}`);
      this.send();
    });
  }

  /** Sends what waits, at most MOST_PER_SECOND lines in any second, in order. */
  send() {
    if (this.paceTimer) return;
    while (this.outbox.length && !this.closed) {
      const now = performance.now();
      while (this.sentAt.length && now - this.sentAt[0] >= 1000) this.sentAt.shift();
      if (this.sentAt.length >= MOST_PER_SECOND) {
        this.paceTimer = setTimeout(() => {
          this.paceTimer = null;
          this.send();
        }, 1000 - (now - this.sentAt[0]) + 1);
        return;
      }
      const line = this.outbox.shift();
      this.sentAt.push(now);
      this.dispatchEvent(new CustomEvent('sent', { detail: line }));
      this.socket.send(line);
    }
  }

  /** Like `request`, but a `?` response throws an EngineError; resolves with the payload lines. */
  async call(command) {
    const r = await this.request(command);
    if (!r.ok) throw new EngineError(r.code, r.message, command, r.reason);
    return r.payload;
  }

  onLine(line) {
    this.dispatchEvent(new CustomEvent('line', { detail: line }));
    if (this.current) {
      if (line === '') {
        this.finish();
      } else {
        this.current.lines.push(line);
      }
      return;
    }
    if (line === '') return;
    if (line.startsWith('info ')) {
      this.dispatchEvent(new CustomEvent('info', { detail: line }));
      return;
    }
    const m = /^([=?])(\d*)(?:[ \t](.*))?$/.exec(line);
    if (!m) {
      this.dispatchEvent(new CustomEvent('stray', { detail: line }));
      return;
    }
    this.current = { ok: m[1] === '=', id: m[2], lines: m[3] !== undefined && m[3] !== '' ? [m[3]] : [] };
  }

  finish() {
    const r = this.current;
    this.current = null;
    const waiter = this.pending.get(r.id);
    let code = null;
    let reason = null;
    let message = '';
    if (!r.ok) {
      // `<code> <message>`, in version 3 `<code> <reason> <message>`.
      const words = (r.lines[0] || '').split(' ');
      code = words.shift();
      if (this.version >= 3) reason = words.shift() || null;
      message = words.join(' ');
    }
    const response = { ok: r.ok, payload: r.lines, code, reason, message };
    if (!waiter) {
      // A response without our id (the engine could not read the line): report it.
      this.dispatchEvent(new CustomEvent('stray', { detail: r.lines.join('\n') }));
      return;
    }
    this.pending.delete(r.id);
    waiter.resolve(response);
  }
}
