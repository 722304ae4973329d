// The client's entry point: header, routing (/, /room/CODE, #/match/ID), the live room.

import { h, clear } from './dom.js';
import { t, getLang, setLang, languages, onLang, botName } from './i18n.js';
import { api, me, ensurePlayer } from './api.js';
import { RoomSocket } from './socket.js';
import { renderHome, renderNameGate, roomLobbyEl } from './lobby.js';
import { tableEl, sideScoresEl } from './table.js';
import { renderHistory } from './history.js';
import { ChatBox } from './chat.js';
import { renderPlayer, renderSignIn, callsBanner, pt } from './player.js';

const main = document.getElementById('main');
const statusEl = document.getElementById('status');
const BASE_TITLE = document.title;
let page = null;

// --- small services ------------------------------------------------------------------

function navigate(url) {
  history.pushState(null, '', url);
  render();
}

function link(href, text, cls) {
  const a = h('a', { href, class: cls, text });
  a.addEventListener('click', (e) => {
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(href);
  });
  return a;
}

let toastTimer = null;
function toast(text) {
  const el = document.getElementById('toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}

const SOUND_KEY = 'kozyr.sound';
let audio = null;
function beep() {
  if (localStorage.getItem(SOUND_KEY) !== 'on') return;
  try {
    audio = audio || new AudioContext();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.0001, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.06, audio.currentTime + 0.02);
    g.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.4);
  } catch { /* no audio: fine */ }
}

function setStatus(status) {
  statusEl.dataset.status = status || '';
  statusEl.textContent = status ? t(status === 'refused' ? 'offline' : status) : '';
  document.body.classList.toggle('is-offline', status === 'offline' || status === 'refused');
}

// --- the live room -------------------------------------------------------------------

class RoomPage {
  constructor(root, code) {
    this.root = root;
    this.code = code;
    this.room = null;
    this.view = null;
    this.presence = null;
    this.busy = false;
    this.chooser = null;
    this.showLast = false;
    this.numChoice = {};
    this.draft = { levels: {}, takeover: undefined };  // the lobby's unsent choices survive a redraw
    this.wasMine = false;
    this.socket = null;
    this.chat = new ChatBox((text) => this.socket && this.socket.chat(text));
    this.start();
  }

  async start() {
    if (!me()) {
      renderNameGate(this.root, async (name) => { await ensurePlayer(name); this.start(); });
      return;
    }
    clear(this.root).append(h('p', { class: 'muted', text: t('loading') }));
    try {
      await ensurePlayer();
      if (!me()) return this.start();
      this.room = await api.room(this.code);
    } catch (e) {
      clear(this.root).append(h('p', { class: 'error', text: e.status === 404 ? t('not_found') : `${t('error')}: ${e.message}` }));
      return;
    }
    api.chat(this.code).then((msgs) => this.chat.reset(msgs)).catch(() => {});
    this.lobbyBox = h('div', { class: 'lobby-box' });
    this.tableBox = h('div', { class: 'table-box' });
    this.scoresBox = h('section', { class: 'panel scores' });
    clear(this.root).append(h('div', { class: 'room-page' },
      h('div', { class: 'room-main' }, this.lobbyBox, this.tableBox),
      h('aside', { class: 'room-side' }, this.scoresBox, this.chat.el)));
    this.draw();
    this.socket = new RoomSocket(this.code, me().token, {
      onMessage: (msg) => this.onMessage(msg),
      onStatus: (status) => { setStatus(status); if (status === 'offline' && this.busy) { this.busy = false; this.draw(); } },
    });
  }

  destroy() {
    if (this.socket) this.socket.close();
    setStatus('');
    document.title = BASE_TITLE;
  }

  onMessage(msg) {
    switch (msg.type) {
      case 'welcome':
        if (this.welcome) api.chat(this.code).then((msgs) => this.chat.reset(msgs)).catch(() => {});  // back after a drop
        this.welcome = msg;
        break;
      case 'room': this.room = msg.room; this.presence = null; this.draw(); break;
      case 'presence': this.presence = msg; this.draw(); break;
      case 'view':
        this.view = msg.view;
        this.busy = false;
        if (this.view && this.chooser && !(this.view.legal || []).some((a) => a.includes(this.chooser))) this.chooser = null;
        this.draw();
        break;
      case 'ack':
        if (this.socket.version !== null && this.socket.version >= msg.version) { this.busy = false; this.draw(); }
        break;
      case 'chat': this.chat.add(msg); break;
      case 'error': if (!msg.client_id) toast(msg.message); break;
      case 'pong': break;
      default: break;
    }
  }

  name(seat) {
    const s = this.room && this.room.seats.find((x) => x.seat === seat);
    if (s && s.is_bot) return botName(s.level || 'basic');
    return (s && s.name) || `#${seat + 1}`;
  }

  // The seat as the latest presence (else room) message has it: is_bot, level, takeover ...
  seatInfo(seat) {
    const list = (this.presence && this.presence.seats) || (this.room && this.room.seats) || [];
    return list.find((x) => x.seat === seat) || null;
  }

  connected(seat) {
    const list = (this.presence && this.presence.seats) || (this.room && this.room.seats) || [];
    const s = list.find((x) => x.seat === seat);
    return !!(s && s.connected);
  }

  async act(action) {
    if (this.busy || !this.socket) return;
    this.busy = true;
    this.chooser = null;
    this.draw();
    const res = await this.socket.act(action);
    if (res.type === 'error') {
      this.busy = false;
      toast(res.message);
      if (res.code === 'stale' || res.code === 'illegal') this.socket.resync();
      this.draw();
    } else if (this.socket.version !== null && this.socket.version >= res.version) {
      this.busy = false;
      this.draw();
    }
  }

  async roomCall(fn) {
    try {
      this.room = await fn();
      this.draw();
    } catch (e) {
      toast(e.message);
    }
  }

  draw() {
    if (!this.room || !this.lobbyBox) return;
    const ctx = {
      name: (s) => this.name(s), connected: (s) => this.connected(s), link,
      seat: (n, take) => this.roomCall(() => (take ? api.takeSeat(this.code, n) : api.leaveSeat(this.code, n))),
      start: () => this.roomCall(() => api.start(this.code)),
      rematch: () => this.roomCall(() => api.rematch(this.code)),
      addBot: (n, level) => this.roomCall(() => api.seatBot(this.code, n, level)),
      removeBot: (n) => this.roomCall(() => api.removeBot(this.code, n)),
      setTakeover: (secs) => this.roomCall(() => api.setTakeover(this.code, secs)),
      seatInfo: (s) => this.seatInfo(s), draft: this.draft,
      act: (a) => this.act(a), busy: this.busy, version: this.socket ? this.socket.version : null, chooser: this.chooser, numChoice: this.numChoice,
      choose: (card) => { this.chooser = card; this.draw(); },
      showLast: this.showLast, toggleLast: () => { this.showLast = !this.showLast; this.draw(); },
    };
    const view = this.room.status === 'waiting' ? null : this.view;
    clear(this.lobbyBox);
    if (!view || this.room.status !== 'playing') this.lobbyBox.append(roomLobbyEl(this.room, ctx));
    if (view && view.phase === 'match_over' && view.result) {
      const names = (view.result.winners || []).map((s) => this.name(s)).join(', ');
      this.lobbyBox.prepend(h('div', { class: 'banner', 'data-role': 'match-over' }, t('match_over'), '. ', t('winners', { names })));
    }
    clear(this.tableBox);
    clear(this.scoresBox);
    if (view) {
      this.tableBox.append(tableEl(view, ctx));
      const n = view.seats || (view.hand_sizes || []).length;
      const matchId = this.socket && this.socket.match;
      this.scoresBox.append(h('h2', null, t('scores'), ' ', matchId ? link(`#/match/${matchId}`, t('history'), 'small history-link') : null),
        sideScoresEl(view, Array.from({ length: n }, (_, s) => this.name(s))));
    }
    this.scoresBox.hidden = !view;
    const mine = !!(view && view.seat !== null && view.seat !== undefined && (view.to_act || []).includes(view.seat));
    document.body.classList.toggle('my-turn', mine);
    document.title = mine ? t('your_turn_title') : `${this.room.code} — ${BASE_TITLE}`;
    if (mine && !this.wasMine) beep();
    this.wasMine = mine;
  }
}

// --- routing -------------------------------------------------------------------------

function route() {
  let m = /^#\/match\/([\w-]+)/.exec(location.hash);
  if (m) return { name: 'match', id: m[1] };
  m = /^#\/player(?:\/(\d+))?\/?$/.exec(location.hash);
  if (m) return { name: 'player', id: m[1] ? Number(m[1]) : null };
  m = /^#\/signin\/([\w-]+)/.exec(location.hash);
  if (m) return { name: 'signin', secret: m[1] };
  m = /^#\/room\/([^/]+)/.exec(location.hash);
  if (m) return { name: 'room', code: decodeURIComponent(m[1]) };
  m = /^\/room\/([^/]+)\/?$/.exec(location.pathname);
  if (m) return { name: 'room', code: decodeURIComponent(m[1]) };
  return { name: 'home' };
}

function render() {
  const r = route();
  if (page && page.code && r.name === 'room' && r.code === page.code) return;
  if (page && page.destroy) page.destroy();
  page = null;
  clear(main);
  if (r.name === 'room') {
    page = new RoomPage(main, r.code);
  } else if (r.name === 'player') {
    renderPlayer(main, r.id, { link, navigate });
  } else if (r.name === 'signin') {
    renderSignIn(main, r.secret, { navigate });
  } else if (r.name === 'match') {
    renderHistory(main, r.id, { link });
  } else {
    renderHome(main, { link, navigate, rerender: render, savePlayer: (name) => ensurePlayer(name) });
    callsBanner(main, { navigate });
  }
}

function header() {
  const sel = document.getElementById('lang');
  clear(sel).append(...languages().map((l) => h('option', { value: l, selected: l === getLang(), text: l.toUpperCase() })));
  sel.onchange = () => setLang(sel.value);
  const sound = document.getElementById('sound');
  sound.checked = localStorage.getItem(SOUND_KEY) === 'on';
  sound.onchange = () => { localStorage.setItem(SOUND_KEY, sound.checked ? 'on' : 'off'); if (sound.checked) beep(); };
  document.getElementById('sound-label').textContent = t('sound');
  const home = document.getElementById('home-link');
  home.textContent = t('lobby');
  home.onclick = (e) => { e.preventDefault(); navigate('/'); };
  document.getElementById('player-link').textContent = pt('my_page');
  setStatus(statusEl.dataset.status);
}

onLang(() => {
  header();
  if (page && page.draw) page.draw();
  else render();
});
window.addEventListener('popstate', render);
window.addEventListener('hashchange', render);
header();
render();
window.kozyr = { get page() { return page; } };  // for the browser tests and the curious
