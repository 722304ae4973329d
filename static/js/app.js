// The client's entry point: header, routing (/, /room/CODE, #/match/ID), the live room.
// The room page keeps one store (store.js); messages update it and the table, the lobby and
// the side panels re-render only what changed.

import { h, clear } from './dom.js';
import { t, getLang, setLang, languages, onLang, botKeyName, errorText } from './i18n.js';
import { api, me, ensurePlayer } from './api.js';
import { RoomSocket } from './socket.js';
import { renderHome, renderNameGate, roomLobbyEl, openInvitePanel, closeInvitePanel, variantsOnce } from './lobby.js';
import { renderDuplicate } from './club_duplicates.js';
import { renderClubs, renderClub, renderClubJoin, clubsPanel, renderTournament } from './clubs.js';
import { Table } from './table.js';
import { familyModule } from './families/index.js';
import { renderHistory } from './history.js';
import { ChatBox } from './chat.js';
import { Store, Region } from './store.js';
import { play as playSound, soundOn, setSound } from './sounds.js';
import { renderPlayer, renderSignIn, callsBanner } from './player.js';
import { notifyToggle, watchCalls } from './notify.js';
import { renderGames, watchGames, relabelGames } from './games.js';
import { renderEmailLink } from './push.js';
import { tellChanges, tellPresence, tellTimer, tellChat } from './announce.js';
import { startWorker, watchNetwork, showNotice, hideNotice } from './pwa.js';

const main = document.getElementById('main');
const statusEl = document.getElementById('status');
const toolsEl = document.getElementById('room-tools');
const BASE_TITLE = document.title;
const FOUR_KEY = 'kozyr.fourColour';
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

function setStatus(status) {
  statusEl.dataset.status = status || '';
  statusEl.textContent = status ? t(status === 'refused' ? 'offline' : status) : '';
  document.body.classList.toggle('is-offline', status === 'offline' || status === 'refused');
}

const summaryKey = (match) => `kozyr.summary.${match}`;
const currentMinute = () => Math.floor(Date.now() / 60000);

// The turn clock as the store keeps it (null: none runs).  A live room's countdown runs to
// `deadline` (this page's clock: now + the seconds left); a turn-based room's deadline is
// the server's `due`, with who is awaited `since` when, paused or expired as it says.
function timerState(msg) {
  if (msg.seat === null || msg.seat === undefined) return null;
  const left = typeof msg.seconds === 'number' ? msg.seconds : null;
  return {
    seat: msg.seat, total: msg.total, pace: msg.pace || 'live', match: msg.match,
    deadline: left === null ? null : Date.now() + left * 1000,
    since: msg.since || null, due: msg.due || null, paused: !!msg.paused, expired: !!msg.expired,
  };
}

// "This page is out of date" with a Reload button (the table plays on meanwhile).
function outdated() {
  showNotice('outdated', 'outdated', { key: 'reload', run: () => location.reload() });
}

// --- the live room -------------------------------------------------------------------

class RoomPage {
  constructor(root, code) {
    this.root = root;
    this.code = code;
    this.socket = null;
    this.draft = { levels: {}, takeover: undefined, pace: undefined };  // the lobby's unsent choices survive a redraw
    this.store = new Store({
      room: null, view: null, presence: null, timer: null, busy: false, chooser: null, confirm: null, takeback: null,
      showLast: false, help: false, summaryDeal: null, lang: getLang(), version: null, side: null, unread: 0,
      minute: currentMinute(),
    });
    // a turn-based deadline is said in minutes, hours or days: redrawn each minute, not each second
    this.minuteTimer = setInterval(() => this.store.update({ minute: currentMinute() }), 15000);
    this.chat = new ChatBox((text) => this.socket && this.socket.chat(text),
      { onUnread: (n) => this.store.update({ unread: n }) });
    this.start();
  }

  get state() { return this.store.state; }
  // for the browser tests (and the curious): the room as the page has it
  get room() { return this.state.room; }
  get view() { return this.state.view; }

  async start() {
    if (!me()) {
      renderNameGate(this.root, async (name) => { await ensurePlayer(name); this.start(); });
      return;
    }
    clear(this.root).append(h('p', { class: 'muted', text: t('loading') }));
    let room;
    try {
      await ensurePlayer();
      if (!me()) return this.start();
      room = await api.room(this.code);
    } catch (e) {
      if (e.status === undefined) {  // no answer at all: offline (the worker gave us the page); again when back
        clear(this.root).append(h('p', { class: 'offline-page', 'data-role': 'offline-page', text: t('offline_page') }));
        window.addEventListener('online', () => { if (page === this) this.start(); }, { once: true });
        return;
      }
      clear(this.root).append(h('p', { class: 'error', text: e.status === 404 ? t('not_found') : `${t('error')}: ${errorText(e)}` }));
      return;
    }
    api.chat(this.code).then((msgs) => this.chat.reset(msgs)).catch(() => {});
    variantsOnce().then((variants) => this.store.update({ variants }));
    this.table = new Table(this.tableCtx());
    this.lobby = new Region(h('div', { class: 'lobby-box' }));
    this.scores = new Region(h('section', { class: 'panel scores', 'data-role': 'scores' }));
    this.tableBox = h('div', { class: 'table-box' }, this.table.el);
    this.side = h('aside', { class: 'room-side' }, this.scores.el, this.chat.el);
    this.side.addEventListener('click', (e) => { if (e.target === this.side) this.store.update({ side: null }); });  // the phone's backdrop
    this.pageEl = h('div', { class: 'room-page' }, h('div', { class: 'room-main' }, this.lobby.el, this.tableBox), this.side);
    clear(this.root).append(this.pageEl);
    this.tools = new Region(toolsEl);
    this.store.subscribe((state, changed) => this.render(state, changed));
    this.store.update({ room });
    this.socket = new RoomSocket(this.code, me().token, {
      onMessage: (msg) => this.onMessage(msg),
      onStatus: (status) => {
        setStatus(status);
        // a move made while the connection is down waits in the socket (socket.js act): the table stays busy
        const waiting = !!(this.socket && this.socket.waitingMove);
        if (status === 'offline' && !waiting) this.store.update({ busy: false });
        if (status !== 'online' && (waiting || status === 'offline')) showNotice('offline', waiting ? 'offline_move' : 'offline_note');
        else hideNotice('offline');
      },
    });
  }

  destroy() {
    if (navigator.onLine) hideNotice('offline');  // the browser's own offline notice stays (pwa.js watchNetwork)
    clearInterval(this.minuteTimer);
    if (this.socket) this.socket.close();
    if (this.table) this.table.destroy();
    if (this.tools) this.tools.render('gone', () => null);
    if (this.invite) closeInvitePanel();
    setStatus('');
    document.title = BASE_TITLE;
  }

  relabel() {
    this.chat.relabel();
    this.store.update({ lang: getLang() });
    const offline = this.root.querySelector('[data-role=offline-page]');  // opened offline: no room yet
    if (offline) offline.textContent = t('offline_page');
  }

  onMessage(msg) {
    switch (msg.type) {
      case 'welcome':
        if (this.welcome) api.chat(this.code).then((msgs) => this.chat.reset(msgs)).catch(() => {});  // back after a drop
        this.welcome = msg;
        break;
      case 'room':
        if (msg.room.status === 'abandoned' && this.store.state.room && this.store.state.room.status === 'playing') toast(t('match_abandoned'));
        this.store.update({ room: msg.room, presence: null, ...(msg.room.status === 'abandoned' ? { endConfirm: false } : {}) });
        if (this.invite) this.invite.update(msg.room);
        break;
      case 'presence':
        this.store.update({ presence: msg });
        tellPresence(this.heard, msg, (s) => this.name(s), this.mySeat());
        this.heard = msg;  // the last presence said (a room message clears the store's, not this)
        break;
      case 'view': this.onView(msg); break;
      case 'ack':
        if (this.socket.version !== null && this.socket.version >= msg.version) this.store.update({ busy: false });
        break;
      case 'timer':
        this.store.update({ timer: timerState(msg) });
        tellTimer(msg, this.mySeat());
        break;
      case 'takeback': this.store.update({ takeback: msg }); break;
      case 'hint': this.store.update({ hint: msg }); break;  // shown while its version is the table's
      case 'takeback_done':
        this.store.update({ takeback: null });
        toast(t(`takeback_${msg.result}`));
        break;
      case 'chat':
        this.chat.add(msg);
        tellChat(msg, me() && me().id);
        break;
      case 'error':
        if (['coach_off', 'not_your_turn'].includes(msg.code)) this.store.update({ hintAsked: null });
        if (!msg.client_id) toast(errorText(msg));
        break;
      case 'pong': break;
      case 'reload': outdated(); break;  // the server runs another build than this page's (hello.build)
      default:  // a message this page does not know: the server is newer than this page
        console.warn('kozyr: unknown message type', msg.type, msg);  // eslint-disable-line no-console
        outdated();
    }
  }

  onView(msg) {
    const st = this.state;
    const prev = st.view;
    const view = msg.view;
    if (!view) { this.store.update({ view: null, busy: false, version: msg.version }); return; }
    const patch = { view, busy: false, version: msg.version };
    const legal = new Set(view.legal || []);
    if (st.chooser && !(view.legal || []).some((a) => a.includes(st.chooser))) patch.chooser = null;
    if (st.confirm && !legal.has(st.confirm)) patch.confirm = null;
    const samePlace = prev && this.matchId === msg.match;
    // "Last trick" closes itself when the next card is played
    if (st.showLast && samePlace && JSON.stringify(prev.trick) !== JSON.stringify(view.trick)) patch.showLast = false;
    const ld = view.last_deal && view.last_deal.deal;
    if (!samePlace) {
      const dismissed = Number(localStorage.getItem(summaryKey(msg.match)) || 0);
      patch.summaryDeal = ld && ld > dismissed ? ld : null;
    } else if (ld && (!prev.last_deal || prev.last_deal.deal !== ld)) {
      patch.summaryDeal = ld;
    }
    if (view.phase === 'match_over' && ld) patch.summaryDeal = ld;
    this.matchId = msg.match;
    if (st.help && prev && prev.phase !== view.phase) patch.help = false;
    const before = prev ? { view: prev, match: this.shownMatch, version: st.version } : null;
    this.store.update(patch);
    this.shownMatch = msg.match;
    const prompt = document.querySelector('.felt [data-role=prompt]');
    tellChanges(before, { view, match: msg.match, version: msg.version }, (s) => this.name(s),
      prompt ? prompt.textContent : '');
  }

  // My seat in this room (the view's, else the room's seat list), or null for a spectator.
  mySeat() {
    const view = this.state.view;
    if (view && view.seat !== null && view.seat !== undefined) return view.seat;
    const who = me();
    const s = who && this.state.room ? this.state.room.seats.find((x) => x.player === who.id) : null;
    return s ? s.seat : null;
  }

  name(seat) {
    const s = this.seatInfo(seat) || (this.state.room && this.state.room.seats.find((x) => x.seat === seat));
    if (s && s.is_bot) return botKeyName(s.bot_key, s.level);
    return (s && s.name) || `#${seat + 1}`;
  }

  // The seat as the latest presence (else room) message has it: is_bot, level, takeover ...
  seatInfo(seat) {
    const st = this.state;
    const list = (st.presence && st.presence.seats) || (st.room && st.room.seats) || [];
    const s = list.find((x) => x.seat === seat) || null;
    if (s && st.presence && st.room && s.bot_key === undefined) {  // presence may lack bot_key: the room has it
      const r = st.room.seats.find((x) => x.seat === seat);
      if (r && r.bot_key !== undefined) return { ...s, bot_key: r.bot_key };
    }
    return s;
  }

  isHost() {
    const who = me();
    const room = this.state.room;
    return !!(who && room && room.host && room.host.id === who.id);
  }

  // Every control goes through here: an action the view names in `confirm` asks first.
  request(action) {
    const st = this.state;
    if (st.busy) return;
    if ((st.view && st.view.confirm || []).includes(action)) {
      this.store.update({ confirm: action, chooser: null });
      return;
    }
    this.act(action);
  }

  async act(action) {
    if (this.state.busy || !this.socket) return;
    this.store.update({ busy: true, chooser: null, confirm: null });
    const res = await this.socket.act(action);
    if (res.type === 'ack') this.lastAck = res.version;  // the Undo button shows while it is the latest
    if (res.type === 'error') {
      this.store.update({ busy: false });
      toast(errorText(res));
      if (res.code === 'stale' || res.code === 'illegal') this.socket.resync();
    } else if (this.socket.version !== null && this.socket.version >= res.version) {
      this.store.update({ busy: false });
    }
  }

  async roomCall(fn) {
    try {
      this.store.update({ room: await fn() });
    } catch (e) {
      toast(errorText(e));
    }
  }

  dismissSummary() {
    const deal = this.state.summaryDeal;
    if (deal && this.matchId) localStorage.setItem(summaryKey(this.matchId), String(deal));
    this.store.update({ summaryDeal: null });
  }

  tableCtx() {
    return {
      name: (s) => this.name(s), seatInfo: (s) => this.seatInfo(s),
      family: () => familyModule(this.state.room, this.state.view),
      request: (a) => this.request(a), choose: (card) => this.store.update({ chooser: card }),
      cancel: () => this.store.update({ confirm: null }),
      confirmYes: () => { const a = this.state.confirm; if (a) this.act(a); },
      toggleLast: () => this.store.update({ showLast: !this.state.showLast }),
      toggleHelp: () => this.store.update({ help: !this.state.help }),
      dismissSummary: () => this.dismissSummary(),
      back: () => this.socket && this.socket.back(),
      takeback: () => this.socket && this.socket.takeback(),
      takebackAnswer: (agree) => this.socket && this.socket.takebackAnswer(agree),
      hint: () => { if (this.socket && this.socket.hint()) this.store.update({ hintAsked: this.state.version }); },
      coach: () => !!(this.state.room && this.state.room.coach),
      myLast: () => this.lastAck,
      takeover: (seat) => this.socket && this.socket.takeover(seat),
      rematch: () => this.roomCall(() => api.rematch(this.code)),
      askEnd: () => this.store.update({ endConfirm: true }),
      pace: () => (this.state.room && this.state.room.pace) || 'live',
      isHost: () => this.isHost(),
      historyHref: () => (this.matchId ? `/#/match/${this.matchId}` : null),
      // a room opened from a club preset: {name, club, differs} (the table's strip names it)
      preset: () => (this.state.room && this.state.room.preset) || null,
    };
  }

  lobbyCtx() {
    // the history opens in a new tab: this page keeps the room's connection (and presence)
    const lobbyLink = (href, text, cls) => {
      if (!href.startsWith('#/match/')) return link(href, text, cls);
      return h('a', { href, class: cls, text, target: '_blank', rel: 'noopener' });
    };
    return {
      name: (s) => this.name(s), connected: (s) => !!(this.seatInfo(s) || {}).connected, link: lobbyLink,
      seat: (n, take) => this.roomCall(() => (take ? api.takeSeat(this.code, n) : api.leaveSeat(this.code, n))),
      start: () => this.roomCall(() => api.start(this.code)),
      rematch: () => this.roomCall(() => api.rematch(this.code)),
      addBot: (n, level) => this.roomCall(() => api.seatBot(this.code, n, level)),
      removeBot: (n) => this.roomCall(() => api.removeBot(this.code, n)),
      setTakeover: (secs) => this.roomCall(() => api.setTakeover(this.code, secs)),
      setSettings: (body) => this.roomCall(() => api.setRoom(this.code, body)),
      seatInfo: (s) => this.seatInfo(s), draft: this.draft, variants: this.state.variants,
    };
  }

  render(state) {
    const room = state.room;
    if (!room) return;
    // A match the host stopped: the table as it was, with nothing left to do (README "Abandoned matches").
    const view = room.status === 'waiting' ? null
      : room.status === 'abandoned' && state.view
        ? { ...state.view, phase: 'match_over', abandoned: true, legal: [], to_act: [], confirm: [] } : state.view;
    this.lobby.render(JSON.stringify([state.lang, room, room.status === 'playing' && view ? null : state.presence, !!view, !!state.variants]),
      () => (!view || room.status !== 'playing' ? roomLobbyEl(room, this.lobbyCtx()) : null));
    this.tableBox.hidden = !view;
    this.pageEl.classList.toggle('playing', !!view);
    this.pageEl.firstChild.classList.toggle('finished', (room.status === 'finished' || room.status === 'abandoned') && !!view);
    if (view) this.table.render({ ...state, view });
    const n = view ? (view.seats || (view.hand_sizes || []).length) : 0;
    const names = Array.from({ length: n }, (_, s) => this.name(s));
    this.scores.render(JSON.stringify([state.lang, names, view && [view.scoresheet, view.role_table, view.tallies], this.matchId]), () => {
      if (!view) return null;
      const href = this.matchId ? `/#/match/${this.matchId}` : null;
      return [h('h2', null, t('scores'), ' ', href ? h('a', { class: 'small history-link', href, target: '_blank', rel: 'noopener', text: t('history') }) : null),
        familyModule(room, view).scores(view, names)];
    });
    this.scores.el.hidden = !view;
    this.side.dataset.open = state.side || '';
    this.tools.render(JSON.stringify([state.lang, state.side, state.unread, !!view, room.status, this.isHost(), !!state.endConfirm]),
      () => this.toolsEl(state, !!view));
    const mine = !!(view && view.seat !== null && view.seat !== undefined && (view.to_act || []).includes(view.seat));
    document.body.classList.toggle('my-turn', mine);
    document.title = mine ? t('your_turn_title') : `${room.code} — ${BASE_TITLE}`;
    if (mine && !this.wasMine) playSound('turn');
    this.wasMine = mine;
  }

  // The phone's way to the scores and the chat (a panel over the table), with the unread count.
  toolsEl(state, playing) {
    const toggle = (which) => {
      const side = state.side === which ? null : which;
      this.store.update({ side });
      if (side === 'chat') this.chat.markRead();
    };
    if (!playing) return null;
    const room = this.store.state.room;
    const ending = this.isHost() && room && room.status === 'playing';
    return [
      // the host ends the match before its end, after a confirmation (app/rooms/abandon.py)
      ending ? h('button', { type: 'button', class: `tool end-match${state.endConfirm ? ' on' : ''}`, 'data-role': 'end-match',
        title: t('end_match'), 'aria-label': t('end_match'), onclick: () => this.store.update({ endConfirm: !state.endConfirm }),
        text: t('end_match') }) : null,
      ending && state.endConfirm ? h('div', { class: 'end-confirm', 'data-role': 'end-confirm', role: 'alertdialog' },
        h('p', { class: 'confirm-q', text: t('end_match_q') }),
        room.rated ? h('p', { class: 'muted small', text: t(room.abandoned === 'counts' ? 'end_match_counts' : 'end_match_ignored') }) : null,
        h('div', { class: 'end-confirm-buttons' },
          h('button', { type: 'button', class: 'btn danger', 'data-role': 'end-confirm-yes',
            onclick: () => { this.store.update({ endConfirm: false }); if (this.socket) this.socket.endMatch(); }, text: t('yes') }),
          h('button', { type: 'button', class: 'btn ghost', 'data-role': 'end-confirm-no',
            onclick: () => this.store.update({ endConfirm: false }), text: t('no') }))) : null,
      // the invitation (link, QR, seats) over the table: friends and spectators may still join
      h('button', { type: 'button', class: 'tool invite', 'data-role': 'open-invite',
        title: t('invite_ui.invite_btn'), 'aria-label': t('invite_ui.invite_btn'),
        onclick: () => { this.invite = openInvitePanel(this.store.state.room); }, text: t('invite_ui.invite_btn') }),
      h('button', { type: 'button', class: `tool${state.side === 'scores' ? ' on' : ''}`, 'data-role': 'open-scores',
        onclick: () => toggle('scores'), text: t('scores') }),
      h('button', { type: 'button', class: `tool${state.side === 'chat' ? ' on' : ''}`, 'data-role': 'open-chat',
        onclick: () => toggle('chat') }, t('chat'),
      state.unread ? h('span', { class: 'unread', 'data-role': 'unread', title: t('unread', { n: state.unread }), text: String(state.unread) }) : null),
    ];
  }
}

// --- routing -------------------------------------------------------------------------

function route() {
  let m = /^#\/match\/([\w-]+)/.exec(location.hash);
  if (m) return { name: 'match', id: m[1] };
  if (/^#\/games\/?$/.test(location.hash)) return { name: 'games' };
  if (/^#\/clubs\/?$/.test(location.hash)) return { name: 'clubs' };
  m = /^#\/club\/(\d+)\/?$/.exec(location.hash);
  if (m) return { name: 'club', id: Number(m[1]) };
  m = /^#\/club\/(\d+)\/duplicate\/(\d+)\/?$/.exec(location.hash);  // club_duplicates.js
  if (m) return { name: 'duplicate', club: Number(m[1]), id: Number(m[2]) };
  m = /^#\/club\/(\d+)\/tournament\/(\d+)\/?$/.exec(location.hash);  // a club tournament (club_tournaments.js)
  if (m) return { name: 'club-tournament', id: Number(m[1]), tournament: Number(m[2]) };
  m = /^\/club\/join\/([\w-]+)\/?$/.exec(location.pathname);  // a club's invite link (clubs.js)
  if (m && !location.hash) return { name: 'club-join', token: m[1] };
  m = /^#\/player(?:\/(\d+))?\/?$/.exec(location.hash);
  if (m) return { name: 'player', id: m[1] ? Number(m[1]) : null };
  m = /^#\/email\/(verify|unsubscribe)\/([\w-]+)\/?$/.exec(location.hash);  // a mail's link (push.js)
  if (m) return { name: 'email', action: m[1], secret: m[2] };
  m = /^#\/signin(?:\/([\w-]+))?\/?$/.exec(location.hash);  // with a link's secret, or the passphrase form
  if (m) return { name: 'signin', secret: m[1] || null };
  m = /^#\/room\/([^/]+)/.exec(location.hash);
  if (m) return { name: 'room', code: decodeURIComponent(m[1]) };
  m = /^\/room\/([^/]+)\/?$/.exec(location.pathname);
  if (m) return { name: 'room', code: decodeURIComponent(m[1]) };
  return { name: 'home' };
}

let renders = 0;  // a home page still waiting for the server must not draw over a later page
function render() {
  const r = route();
  if (page && page.code && r.name === 'room' && r.code === page.code) return;
  const drawn = ++renders;
  if (page && page.destroy) page.destroy();
  page = null;
  clear(main);
  document.body.classList.toggle('in-room', r.name === 'room');  // the phone header hides its links at the table
  if (r.name === 'room') {
    page = new RoomPage(main, r.code);
  } else if (r.name === 'player') {
    renderPlayer(main, r.id, { link, navigate });
  } else if (r.name === 'email') {
    renderEmailLink(main, r.action, r.secret);
  } else if (r.name === 'signin') {
    renderSignIn(main, r.secret, { navigate });
  } else if (r.name === 'match') {
    renderHistory(main, r.id, { link });
  } else if (r.name === 'games') {
    renderGames(main, { link, navigate });
  } else if (r.name === 'clubs') {
    renderClubs(main, { link, navigate });
  } else if (r.name === 'club') {
    renderClub(main, r.id, { link, navigate });
  } else if (r.name === 'duplicate') {
    renderDuplicate(main, r.club, r.id, { link, navigate });
  } else if (r.name === 'club-tournament') {
    renderTournament(main, r.id, r.tournament, { link, navigate });
  } else if (r.name === 'club-join') {
    renderClubJoin(main, r.token, { link, navigate });
  } else {
    renderHome(main, { link, navigate, rerender: render, savePlayer: (name) => ensurePlayer(name), stale: () => drawn !== renders }).then(() => {
      // browser notifications for calls (notify.js), in the greeting's panel
      const hello = main.querySelector('.home > .panel');
      const toggle = hello && notifyToggle(navigate);
      if (toggle) hello.append(toggle);
      // after the home page is drawn: renderHome clears the page once it has the player
      if (route().name === 'home') callsBanner(main, { navigate });
      const home = main.querySelector('.home');
      if (home && me()) clubsPanel({ link }).then((el) => { if (drawn === renders && home.isConnected) home.append(el); });  // last: nothing above it moves
    }).catch(() => {});
  }
}

function header() {
  const sel = document.getElementById('lang');
  clear(sel).append(...languages().map((l) => h('option', { value: l, selected: l === getLang(), text: l.toUpperCase() })));
  sel.onchange = () => setLang(sel.value);
  sel.setAttribute('aria-label', t('language'));
  const sound = document.getElementById('sound');
  sound.checked = soundOn();
  sound.onchange = () => { setSound(sound.checked); if (sound.checked) playSound('turn', true); };
  document.getElementById('sound-label').textContent = t('sound');
  const four = document.getElementById('four-colour');
  four.checked = localStorage.getItem(FOUR_KEY) === 'on';
  document.body.classList.toggle('four-colour', four.checked);
  four.onchange = () => { localStorage.setItem(FOUR_KEY, four.checked ? 'on' : 'off'); document.body.classList.toggle('four-colour', four.checked); };
  document.getElementById('four-colour-label').textContent = t('four_colour');
  const home = document.getElementById('home-link');
  home.textContent = t('lobby');
  home.onclick = (e) => { e.preventDefault(); navigate('/'); };
  document.getElementById('player-link').textContent = t('player.my_page');
  document.getElementById('games-label').textContent = t('games.title');
  const clubs = document.getElementById('clubs-link');
  clubs.textContent = t('clubs.title');
  clubs.onclick = (e) => { e.preventDefault(); navigate('/#/clubs'); };
  const games = document.getElementById('games-link');
  games.onclick = (e) => { e.preventDefault(); navigate('/#/games'); };
  relabelGames();
  setStatus(statusEl.dataset.status);
}

onLang(() => {
  header();
  if (page && page.relabel) page.relabel();
  else render();
});
window.addEventListener('popstate', render);
window.addEventListener('hashchange', render);
header();
render();
startWorker();  // the installable app: offline shell, "new version: reload" (pwa.js, sw.js)
watchNetwork();
watchCalls(navigate);  // calls as browser notifications while the site is open (notify.js)
watchGames();  // the number of games waiting for my move: the header's link, the app icon (games.js)
window.kozyr = { get page() { return page; } };  // for the browser tests and the curious
