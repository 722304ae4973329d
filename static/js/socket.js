// The room's websocket: hello with the token, actions with client ids, and reconnects
// with exponential backoff that resume from the last version seen.

// This connection asks for delta messages after actions (README "Agreed additions").
export const ACCEPT_DELTA = true;
// The build this page's modules came from (/v/<build>/js/socket.js): told in hello, so a
// server that has moved on answers "reload".
const BUILD = (/\/v\/([0-9a-f]+)\//.exec(import.meta.url) || [])[1] || null;

function applyDelta(view, delta) {
  const next = { ...view, ...(delta.set || {}) };
  for (const key of delta.unset || []) delete next[key];
  return next;
}

export class RoomSocket {
  constructor(code, token, { onMessage, onStatus }) {
    this.code = code;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.version = null;   // the version of the last view received
    this.view = null;      // that view (deltas apply to it)
    this.match = null;
    this.pending = new Map();  // client_id -> {resolve}
    this.queued = null;    // a move made while offline: {msg, resolve}, sent after the next welcome
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
    this.status = 'connecting';
    this.counter = 0;
    this.connect();
    this.pinger = setInterval(() => this.ping(), 20000);
    this.onOnline = () => { if (this.status !== 'online') this.reconnectNow(); };
    window.addEventListener('online', this.onOnline);
    // The server pushes "your turn" of a live match to a player whose page has been hidden
    // a while (README "Notifications"): it hears when the page hides and shows again.
    this.onVisibility = () => this.send({ type: 'visibility', hidden: document.hidden });
    document.addEventListener('visibilitychange', this.onVisibility);
  }

  setStatus(status) {
    this.status = status;
    this.onStatus(status);
  }

  connect() {
    if (this.closed) return;
    this.setStatus(this.attempt === 0 ? 'connecting' : 'offline');
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/rooms/${encodeURIComponent(this.code)}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      const hello = { type: 'hello', token: this.token };
      if (ACCEPT_DELTA) hello.accept = ['delta'];
      if (BUILD) hello.build = BUILD;
      if (this.version !== null) hello.last_version = this.version;
      if (this.match) hello.last_match = this.match;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      this.lastHeard = Date.now();
      if (msg.type === 'welcome') {
        this.attempt = 0;
        this.setStatus('online');
        if (document.hidden) this.onVisibility();  // a socket opened behind a hidden page
        this.sendQueued();
      }
      if (msg.type === 'delta') {  // the view at `base` plus the changed keys: the view at `version`
        if (this.view === null || this.version !== msg.base || this.match !== msg.match) {
          this.resync();
          return;
        }
        msg = { type: 'view', version: msg.version, match: msg.match, view: applyDelta(this.view, msg), delta: true };
      }
      if (msg.type === 'view') {
        this.version = msg.version;
        this.match = msg.match;
        this.view = msg.view;
      }
      if ((msg.type === 'ack' || msg.type === 'error') && msg.client_id && this.pending.has(msg.client_id)) {
        const p = this.pending.get(msg.client_id);
        this.pending.delete(msg.client_id);
        p.resolve(msg);
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const p of this.pending.values()) p.resolve({ type: 'error', code: 'offline', message: 'connection lost' });
      this.pending.clear();
      if (this.closed) return;
      if (ev.code === 4403 || ev.code === 4404) {  // unknown token / room: retrying will not help
        this.setStatus('refused');
        return;
      }
      this.scheduleReconnect();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleReconnect() {
    this.setStatus('offline');
    const delay = Math.min(15000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    clearTimeout(this.timer);
    if (this.ws) { try { this.ws.close(); } catch { /* gone */ } }
    this.ws = null;
    this.attempt = 0;
    this.connect();
  }

  ping() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    const sent = Date.now();
    this.ws.send(JSON.stringify({ type: 'ping', nonce: sent }));
    setTimeout(() => {  // no answer in 10 s: the connection is dead, start again
      if (this.ws && (this.lastHeard || 0) < sent) this.reconnectNow();
    }, 10000);
  }

  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  // Send an action; resolves with the ack or the error (never updates anything by itself).
  // Made while the connection is down, it waits (one move, the latest) and is sent when the
  // connection is back, with the version it was made at: the server takes it only if the
  // match has not moved on since (else 'stale', and the page shows the new state).
  act(action) {
    const client_id = `${Date.now().toString(36)}-${(this.counter++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    return new Promise((resolve) => {
      const msg = { type: 'action', client_id, action };
      if (this.version !== null) msg.version = this.version;
      if (this.send(msg)) {
        this.pending.set(client_id, { resolve });
        return;
      }
      if (this.queued) this.queued.resolve({ type: 'error', code: 'offline', message: 'replaced by a later move' });
      this.queued = { msg, resolve };
      this.onStatus(this.status);
    });
  }

  get waitingMove() { return !!this.queued; }

  sendQueued() {
    const q = this.queued;
    if (!q) return;
    this.queued = null;
    if (this.send(q.msg)) this.pending.set(q.msg.client_id, q);
    else q.resolve({ type: 'error', code: 'offline', message: 'not connected' });
  }

  chat(text) { return this.send({ type: 'chat', text }); }

  resync() {
    const msg = { type: 'resume', token: this.token };
    if (ACCEPT_DELTA) msg.accept = ['delta'];
    return this.send(msg);
  }

  // The seat's own player takes his seat back from the bot playing for him.
  back() { return this.send({ type: 'back' }); }

  // The host lets a bot play `seat` now.
  takeover(seat) { return this.send({ type: 'takeover', seat }); }
  endMatch() { return this.send({ type: 'end_match' }); }
  // Take-backs: ask for one's own last action; answer another's request.
  takeback() { return this.send({ type: 'takeback' }); }
  takebackAnswer(agree) { return this.send({ type: 'takeback_answer', agree }); }
  // The coach's advice for this seat at its turn (a room with the coach on).
  hint() { return this.send({ type: 'hint' }); }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    window.removeEventListener('online', this.onOnline);
    document.removeEventListener('visibilitychange', this.onVisibility);
    if (this.ws) this.ws.close();
  }
}
