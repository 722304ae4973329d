// My games (#/games): friends' calls to a new room (as on the home page), then my running
// matches across rooms (GET /api/players/me/games), those waiting for me first, then those
// waiting for others, with a tap into each; the number waiting for me on the header's link
// and the app icon (Badging API), a muted room's not.  A turn-based match shows its deadline
// (the server lists mine soonest first); a player going away says until when.

import { h, clear } from './dom.js';
import { t, listOf, dateTime, number, fromNow, WHEN, errorText } from './i18n.js';
import { me, req, api } from './api.js';
import { gameName, seatName } from './names.js';
import { callsBanner } from './player.js';

let shown = 0;  // the count on the header now

function showCount(n) {
  shown = n;
  const count = document.getElementById('games-count');
  if (count) {
    count.textContent = n ? number(n) : '';
    count.hidden = !n;
    count.setAttribute('aria-label', t('games.badge', { n }));
  }
  if (navigator.setAppBadge) (n ? navigator.setAppBadge(n) : navigator.clearAppBadge()).catch(() => {});
}

// Asks the server again (on each page, every minute, when the tab comes back).
export async function refreshGames() {
  if (!me()) return showCount(0);
  try {
    const games = await req('GET', '/players/me/games');
    showCount(games.filter((g) => g.my_turn && !g.muted).length);
    return games;
  } catch {
    return null;
  }
}

export function watchGames() {
  refreshGames();
  setInterval(refreshGames, 60000);
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refreshGames(); });
}

export function relabelGames() { showCount(shown); }

// Mute or unmute a game's room (PUT / DELETE /api/players/me/muted-rooms/{code}), then redraw.
async function setMuted(g, root, ctx) {
  try {
    await req(g.muted ? 'DELETE' : 'PUT', `/players/me/muted-rooms/${encodeURIComponent(g.room)}`);
  } catch {
    return;
  }
  renderGames(root, ctx);
}

// A turn-based row's deadline: "deadline in 5 hours, Sat 20:10", passed, or paused.
function dueEl(g) {
  if (g.pace !== 'turn') return null;
  if (g.expired) return h('div', { class: 'game-due expired', 'data-role': 'game-due', 'data-state': 'expired', text: t('games.expired') });
  if (!g.due) return h('div', { class: 'game-due muted small', 'data-role': 'game-due', 'data-state': 'paused', text: t('games.paused') });
  return h('div', { class: `game-due${g.my_turn ? ' soon' : ' muted small'}`, 'data-role': 'game-due', 'data-state': 'due', 'data-due': g.due,
    text: dueText(g.due) });
}

const dueText = (due) => t('games.due', { rel: fromNow(due), time: dateTime(due, WHEN) });

// The deadlines said again each minute while the page is open.
let dueTimer = null;
function tickDues(root) {
  clearInterval(dueTimer);
  const timer = setInterval(() => {
    if (!root.isConnected || !root.querySelector('.games-page')) { clearInterval(timer); return; }
    for (const el of root.querySelectorAll('[data-role=game-due][data-due]')) el.textContent = dueText(el.dataset.due);
  }, 30000);
  dueTimer = timer;
}

function gameRow(g, who, root, ctx) {
  const { link } = ctx;
  const waitingFor = g.seats.filter((x) => g.to_act.includes(x.seat) && x.player !== who.id).map(seatName);
  return h('li', { class: `game-row${g.my_turn ? ' mine' : ''}${g.muted ? ' muted-room' : ''}${g.expired ? ' expired' : ''}`, 'data-room': g.room,
    'data-pace': g.pace || 'live',
    'data-muted': g.muted ? 'true' : 'false' },
    h('div', { class: 'game-what' },
      h('b', { text: gameName(g.variant) }), ' ',
      h('span', { class: 'muted', text: listOf(g.seats.filter((x) => x.player !== who.id).map(seatName)) })),
    h('div', { class: 'game-when muted small' },
      g.my_turn ? t('games.yours_since', { time: dateTime(g.since) })
        : t('games.waiting_since', { names: listOf(waitingFor), time: dateTime(g.since) })),
    dueEl(g),
    h('div', { class: 'game-actions' },
      link(`/room/${encodeURIComponent(g.room)}`, g.my_turn ? t('games.play') : t('games.open'), `btn${g.my_turn ? ' primary' : ''}`),
      h('button', { type: 'button', class: 'btn ghost small', 'data-role': 'mute', 'aria-pressed': g.muted ? 'true' : 'false',
        onclick: () => setMuted(g, root, ctx), text: g.muted ? t('games.unmute') : t('games.mute') })));
}

export async function renderGames(root, ctx) {
  clear(root).append(h('p', { class: 'muted', text: t('loading') }));
  const who = me();
  const [games, profile] = who ? await Promise.all([refreshGames(), api.myself().catch(() => null)]) : [[], null];
  if (games === null) {
    clear(root).append(h('p', { class: 'error', text: t('error') }));
    return;
  }
  const mine = games.filter((g) => g.my_turn);
  const others = games.filter((g) => !g.my_turn);
  const section = (title, list, role) => h('section', { class: 'panel games', 'data-role': role },
    h('h2', { text: title }),
    list.length ? h('ul', { class: 'game-list' }, list.map((g) => gameRow(g, who, root, ctx)))
      : h('p', { class: 'muted', text: t('games.none') }));
  const calls = h('div', { class: 'games-calls' });  // friends waiting in a new room for me (player.js)
  clear(root).append(h('div', { class: 'games-page' },
    h('h1', { text: t('games.title') }),
    calls,
    section(t('games.mine'), mine, 'games-mine'),
    section(t('games.others'), others, 'games-others'),
    profile ? awayBox(profile) : null));
  callsBanner(calls, ctx);
  tickDues(root);
}

// --- away (a vacation): PUT /api/players/me/away {until}, GET /api/players/me away_until ---

const isoDay = (d) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const awayNow = (p) => !!(p && p.away_until && Date.parse(p.away_until) > Date.now());

// "Going away?": the date I am away until (deadlines of my seats pause, each room up to its
// own limit), set, or "I'm here again"; what holds now is said above the form.
function awayBox(profile) {
  const away = awayNow(profile);
  const today = new Date();
  const latest = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 60);
  return h('section', { class: 'panel away', 'data-role': 'away', 'data-away': away ? 'true' : 'false' },
    h('h2', { text: t('away.title') }),
    h('p', { class: 'muted small', text: t('away.hint') }),
    h('p', { class: `away-state${away ? ' on' : ''}`, 'data-role': 'away-state', 'aria-live': 'polite',
      text: away ? t('away.now', { time: dateTime(profile.away_until, { dateStyle: 'long', timeStyle: 'short' }) }) : t('away.none') }),
    h('form', { class: 'away-form', 'data-role': 'away-form', onsubmit: setAway },
      h('label', { class: 'field' }, t('away.until'),
        h('input', { type: 'date', name: 'until', required: true, min: isoDay(today), max: isoDay(latest),
          value: away ? isoDay(new Date(profile.away_until)) : '' })),
      h('button', { type: 'submit', class: 'btn primary', 'data-role': 'away-set', text: t('away.set') }),
      away ? h('button', { type: 'button', class: 'btn', 'data-role': 'away-back', onclick: setAway, text: t('away.back') }) : null),
    h('p', { class: 'error', 'data-role': 'away-error' }));
}

// Set (the form's date, to the end of that day here) or clear (the "here again" button), then redraw the box.
async function setAway(e) {
  e.preventDefault();
  const box = e.currentTarget.closest('[data-role=away]');
  const form = box.querySelector('form');
  let until = null;
  if (e.type === 'submit') {
    const [y, m, d] = form.elements.until.value.split('-').map(Number);
    if (!y) return;
    until = new Date(y, m - 1, d, 23, 59, 0).toISOString();
  }
  try {
    await api.setAway(until);
    box.replaceWith(awayBox(await api.myself()));
    const again = document.querySelector(`[data-role=away] [data-role=${until ? 'away-back' : 'away-set'}]`);
    if (again) again.focus();
  } catch (ex) {
    box.querySelector('[data-role=away-error]').textContent = errorText(ex);
  }
}
