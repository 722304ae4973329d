// My games (#/games): friends' calls to a new room (as on the home page), then my running
// matches across rooms (GET /api/players/me/games), those waiting for me first, then those
// waiting for others, with a tap into each; the number waiting for me on the header's link
// and the app icon (Badging API), a muted room's not.

import { h, clear } from './dom.js';
import { t, listOf, dateTime, number } from './i18n.js';
import { me, req } from './api.js';
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

function gameRow(g, who, root, ctx) {
  const { link } = ctx;
  const waitingFor = g.seats.filter((x) => g.to_act.includes(x.seat) && x.player !== who.id).map(seatName);
  return h('li', { class: `game-row${g.my_turn ? ' mine' : ''}${g.muted ? ' muted-room' : ''}`, 'data-room': g.room,
    'data-muted': g.muted ? 'true' : 'false' },
    h('div', { class: 'game-what' },
      h('b', { text: gameName(g.variant) }), ' ',
      h('span', { class: 'muted', text: listOf(g.seats.filter((x) => x.player !== who.id).map(seatName)) })),
    h('div', { class: 'game-when muted small' },
      g.my_turn ? t('games.yours_since', { time: dateTime(g.since) })
        : t('games.waiting_since', { names: listOf(waitingFor), time: dateTime(g.since) })),
    h('div', { class: 'game-actions' },
      link(`/room/${encodeURIComponent(g.room)}`, g.my_turn ? t('games.play') : t('games.open'), `btn${g.my_turn ? ' primary' : ''}`),
      h('button', { type: 'button', class: 'btn ghost small', 'data-role': 'mute', 'aria-pressed': g.muted ? 'true' : 'false',
        onclick: () => setMuted(g, root, ctx), text: g.muted ? t('games.unmute') : t('games.mute') })));
}

export async function renderGames(root, ctx) {
  clear(root).append(h('p', { class: 'muted', text: t('loading') }));
  const who = me();
  const games = who ? await refreshGames() : [];
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
    section(t('games.others'), others, 'games-others')));
  callsBanner(calls, ctx);
}
