// The player's page (#/player/ID): ratings per family with their history chart,
// matches played / won, head-to-head, finished matches (paged, CSV); on one's own
// page the personal sign-in link for another device and the list of signed-in devices
// (each can be signed out).  #/signin/SECRET spends a link.

import { h, clear, append } from './dom.js';
import { t, variantName, titleName, dateTime, number, botKeyName } from './i18n.js';
import { req, me, setMe } from './api.js';
import { chartEl } from './chart.js';
import { notificationsPanel } from './push.js';

const CHART_POINTS = 120;
const fmt = (x, d = 1) => number(x, { minimumFractionDigits: d, maximumFractionDigits: d });
const familyName = (f) => t('families.' + f);
const when = (iso) => dateTime(iso, { dateStyle: 'medium', timeStyle: 'short' });
const whenShort = (iso) => dateTime(iso);

function table(cls, head, rows) {
  return h('table', { class: 'grid ' + cls },
    h('thead', null, h('tr', null, head.map((x) => h('th', { text: x })))),
    h('tbody', null, rows));
}

function signInPanel(mine) {
  if (!mine) return null;
  const box = h('div', { class: 'signin-box' });
  const button = h('button', { class: 'btn primary', type: 'button', id: 'new-sign-in-link', text: t('player.new_link') });
  const panel = h('section', { class: 'panel player-devices' }, h('h2', { text: t('player.devices') }), button, box);
  req('GET', '/players/me/sign-in-link').then((state) => {
    if (state && state.open && !box.firstChild) {
      box.append(h('p', { class: 'muted small', text: t('player.link_state_open', { time: when(state.created_at) }) }));
    }
  }).catch(() => {});
  button.onclick = async () => {
    button.disabled = true;
    try {
      const link = await req('POST', '/players/me/sign-in-link');
      const minutes = Math.round((new Date(link.expires_at) - Date.now()) / 60000);
      const url = h('code', { class: 'invite-link signin-url', text: link.url });
      const copy = h('button', { class: 'btn small', type: 'button', text: t('copy') });
      copy.onclick = () => navigator.clipboard && navigator.clipboard.writeText(link.url).then(() => { copy.textContent = t('copied'); });
      clear(box).append(
        h('p', { class: 'small', text: t('player.link_note', { minutes: t('player.link_minutes', { n: minutes }) }) }),
        h('div', { class: 'signin-link' }, url, copy),
        h('img', { class: 'signin-qr', alt: t('player.new_link'), width: 180, height: 180,
          src: 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(link.qr_svg) }));
    } finally {
      button.disabled = false;
    }
  };
  panel.append(passphraseBox(), h('p', { class: 'small' }, h('a', { href: '#/signin', 'data-role': 'to-sign-in', text: t('player.have_pass') })),
    devicesBox());
  return panel;
}

// The player's signed-in devices (oldest first), each but this one with a sign-out button.
function devicesBox() {
  const list = h('ul', { class: 'device-list', 'data-role': 'devices' });
  const others = h('button', { class: 'btn small', type: 'button', 'data-role': 'sign-out-others', text: t('player.sign_out_others'), hidden: true });
  const msg = h('p', { class: 'small', role: 'status' });
  const act = (button, method, path) => async () => {
    button.disabled = true;
    try { await req(method, path); msg.textContent = ''; } catch (e) { msg.textContent = e.message; }
    load();
  };
  const load = () => req('GET', '/players/me/devices').then((devices) => {
    clear(list).append(...devices.map((d, i) => {
      const row = h('li', { class: 'device' + (d.current ? ' current' : ''), 'data-device': d.id },
        h('span', { text: t('player.device_row', { n: i + 1, time: whenShort(d.created_at) }) }));
      if (d.current) {
        row.append(h('span', { class: 'badge', text: t('player.this_device') }));
      } else {
        const out = h('button', { class: 'btn small', type: 'button', 'data-role': 'sign-out', text: t('player.sign_out') });
        out.onclick = act(out, 'DELETE', `/players/me/devices/${d.id}`);
        row.append(out);
      }
      return row;
    }));
    others.hidden = devices.length < 3;  // with one other device its own button says the same
    others.disabled = false;
  }).catch(() => {});
  others.onclick = act(others, 'POST', '/players/me/devices/sign-out-others');
  load();
  return h('div', { class: 'devices-box' }, h('h3', { text: t('player.my_devices') }),
    h('p', { class: 'muted small', text: t('player.devices_note') }), list, others, msg);
}

// The player's sign-in name and passphrase (set, replace, remove); never shown back.
function passphraseBox() {
  const state = h('p', { class: 'small pass-state' });
  const login = h('input', { type: 'text', name: 'login', autocomplete: 'username', maxlength: 40, value: (me() && me().name) || '' });
  const pass = h('input', { type: 'password', name: 'passphrase', autocomplete: 'new-password', minlength: 10, maxlength: 200 });
  const msg = h('p', { class: 'small pass-msg', role: 'status' });
  const save = h('button', { class: 'btn', type: 'submit', text: t('save') });
  const remove = h('button', { class: 'btn small', type: 'button', text: t('player.remove_pass'), hidden: true });
  const show = (st) => {
    state.textContent = st ? t('player.pass_set', { login: st.login }) : '';
    remove.hidden = !st;
    if (st) login.value = st.login;
  };
  const form = h('form', { class: 'pass-form', 'data-role': 'passphrase-form' },
    h('label', { class: 'field' }, h('span', { text: t('player.login') }), login),
    h('label', { class: 'field' }, h('span', { text: t('player.passphrase') }), pass),
    h('div', { class: 'pass-actions' }, save, remove));
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    if (pass.value.length < 10) { msg.textContent = t('player.pass_short'); return; }
    save.disabled = true;
    try {
      show(await req('PUT', '/players/me/passphrase', { login: login.value, passphrase: pass.value }));
      pass.value = '';
      msg.textContent = '';
    } catch (e) {
      msg.textContent = e.code === 'login_taken' ? t('player.login_taken') : e.message;
    } finally { save.disabled = false; }
  };
  remove.onclick = async () => {
    await req('DELETE', '/players/me/passphrase').catch(() => {});
    show(null);
  };
  req('GET', '/players/me/passphrase').then(show).catch(() => {});
  return h('div', { class: 'pass-box' }, h('h3', { text: t('player.pass_title') }), h('p', { class: 'muted small', text: t('player.pass_note') }), state, form, msg);
}

// #/signin: a name and passphrase for this device.
function passphraseSignIn(panel, { navigate }) {
  const login = h('input', { type: 'text', name: 'login', autocomplete: 'username', maxlength: 200, required: true });
  const pass = h('input', { type: 'password', name: 'passphrase', autocomplete: 'current-password', maxlength: 200, required: true });
  const msg = h('p', { class: 'error small', role: 'alert' });
  const go = h('button', { class: 'btn primary', type: 'submit', text: t('player.sign_in_btn') });
  const who = me();
  const form = h('form', { class: 'pass-form', 'data-role': 'sign-in-form' },
    h('label', { class: 'field' }, h('span', { text: t('player.login') }), login),
    h('label', { class: 'field' }, h('span', { text: t('player.passphrase') }), pass),
    h('div', { class: 'pass-actions' }, go));
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    go.disabled = true;
    msg.textContent = '';
    try {
      const p = await req('POST', '/sign-in/passphrase', { login: login.value, passphrase: pass.value });
      setMe({ id: p.id, name: p.name, token: p.token });
      signedIn(panel, p, navigate);
    } catch (e) {
      msg.textContent = e.status === 429 ? t('player.sign_in_locked') : e.code === 'sign_in_refused' ? t('player.sign_in_wrong') : e.message;
    } finally { go.disabled = false; }
  };
  append(panel, [h('h2', { text: t('player.sign_in') }), h('p', { class: 'muted small', text: t('player.sign_in_note') }),
    who ? h('p', { class: 'small', text: t('player.sign_in_replaces', { name: who.name }) }) : null, form, msg]);
}

function signedIn(panel, p, navigate) {
  clear(panel).append(h('p', { class: 'signed-in', text: t('player.signed_in', { name: p.name }) }));
  const go = h('button', { class: 'btn primary', type: 'button', text: t('player.my_page') });
  go.onclick = () => navigate('/#/player');
  const lobby = h('button', { class: 'btn', type: 'button', text: t('player.to_lobby') });
  lobby.onclick = () => navigate('/');
  panel.append(h('div', { class: 'lobby-actions' }, go, lobby));
}

function ratingsPanel(page) {
  const panel = h('section', { class: 'panel player-ratings' }, h('h2', { text: t('player.ratings') }));
  if (!page.ratings.length) {
    panel.append(h('p', { class: 'muted', text: t('player.no_ratings') }));
    return panel;
  }
  panel.append(table('ratings', [t('game'), t('player.rating'), 'μ ± σ', t('player.matches')],
    page.ratings.map((r) => h('tr', { 'data-family': r.family },
      h('td', { text: familyName(r.family) }), h('td', { class: 'num strong', text: fmt(r.ordinal) }),
      h('td', { class: 'num muted', text: `${fmt(r.mu)} ± ${fmt(r.sigma)}` }), h('td', { class: 'num', text: String(r.matches) }))),
  ));
  const charts = h('div', { class: 'rating-charts' });
  panel.append(h('h3', { text: t('player.rating_history') }), charts);
  for (const r of page.ratings) {
    // at most CHART_POINTS points, spread over all his rated matches (n: which match)
    req('GET', `/players/${page.player.id}/ratings/${encodeURIComponent(r.family)}/chart?points=${CHART_POINTS}`).then((chart) => {
      const series = chart.points.map((x) => Math.round(x.ordinal * 10) / 10);
      const xs = [0, ...chart.points.map((x) => x.n)];
      const note = chart.points.length < chart.matches ? h('p', { class: 'muted small', text: t('player.chart_sampled', { shown: chart.points.length, n: chart.matches }) }) : null;
      charts.append(h('div', { class: 'rating-chart', 'data-family': r.family },
        chartEl([series], [familyName(r.family)], { title: `${t('player.rating_history')}: ${familyName(r.family)}`, xs }), note));
    }).catch(() => {});
  }
  return panel;
}

function recordPanel(page) {
  const panel = h('section', { class: 'panel player-record' }, h('h2', { text: t('player.matches') }));
  if (!page.record.length) return panel.append(h('p', { class: 'muted', text: t('player.none') })), panel;
  panel.append(table('record', [t('game'), t('player.played'), t('player.won'), t('player.avg_place')],
    page.record.map((r) => h('tr', null, h('td', { text: familyName(r.family) }),
      h('td', { class: 'num', text: String(r.played) }), h('td', { class: 'num', text: `${r.won} (${number(r.won / r.played, { style: 'percent' })})` }),
      h('td', { class: 'num', text: fmt(r.average_place, 2) })))));
  return panel;
}

// The statistics; with `filter` (statsFilter's select) the reader narrows them to a club of
// his or to matches opened from one of its presets (the API's club= / preset=).
function statsPanel(page, filter = null) {
  const st = page.stats || {};
  const panel = h('section', { class: 'panel player-stats' }, h('h2', { text: t('player.stats') }), filter);
  if (filter && !Object.keys(st).length) panel.append(h('p', { class: 'muted', 'data-role': 'stats-none', text: t('player.none') }));
  if (st.thousand) {
    const x = st.thousand;
    panel.append(h('h3', { text: familyName('thousand') }), h('dl', { class: 'stat-list', 'data-family': 'thousand' },
      h('dt', { text: t('player.contracts_made') }), h('dd', { text: `${x.made} / ${x.declared}${x.made_percent === null ? '' : ` (${number(x.made_percent / 100, { style: 'percent', maximumFractionDigits: 1 })})`}` }),
      h('dt', { text: t('player.avg_contract') }), h('dd', { text: x.average_bid === null ? '—' : fmt(x.average_bid, 0) }),
      h('dt', { text: t('marriages') }), h('dd', { text: String(x.marriages) }),
      h('dt', { text: t('player.deals') }), h('dd', { text: String(x.deals) })));
  }
  if (st.king) {
    panel.append(h('h3', { text: `${familyName('king')}: ${t('player.per_contract')}` }),
      table('king-stats', [t('contract'), t('player.deals'), t('player.total')], st.king.per_contract.map((g) => h('tr', null,
        h('td', { text: t('contracts.' + g.contract) }), h('td', { text: String(g.deals) }), h('td', { text: fmt(g.average) })))));
  }
  if (st.korol) {
    panel.append(h('h3', { text: `${familyName('korol')}: ${t('player.as_title')}` }),
      table('korol-stats', ['', t('player.reigns')], Object.entries(st.korol.titles)
        .map(([title, n]) => h('tr', null, h('td', { text: titleName(title) }), h('td', { text: String(n) })))));
  }
  return Object.keys(st).length || filter ? panel : null;
}

// A select of the reader's clubs and their presets ("All matches" first) above the
// statistics in `side`; choosing one draws the statistics panel again from
// /players/{id}/stats with club= (and preset=).  Nothing when the reader is in no club.
async function statsFilter(page, side) {
  if (!me()) return;
  let clubs;
  try {
    clubs = (await req('GET', '/players/me/clubs')).filter((c) => c.status === 'active');
  } catch { return; }
  if (!clubs.length) return;
  const presets = await Promise.all(clubs.map((c) => req('GET', `/clubs/${c.id}/presets`).catch(() => [])));
  const select = h('select', { name: 'stats-filter', 'data-role': 'stats-filter' },
    h('option', { value: '', text: t('player.all_matches') }),
    clubs.map((c, i) => h('optgroup', { label: c.name },
      h('option', { value: JSON.stringify({ club: c.id }), text: t('player.in_club', { club: c.name }) }),
      presets[i].map((p) => h('option', { value: JSON.stringify({ club: c.id, preset: p.name }), text: `${c.name}: ${p.name}` })))));
  const label = h('label', { class: 'field stats-filter' }, t('player.stats_of'), select);
  const show = (stats) => {  // in place of the panel shown, else after the record
    const panel = statsPanel({ ...page, stats }, label);
    const old = side.querySelector('.player-stats');
    if (old) old.replaceWith(panel); else side.querySelector('.player-record').after(panel);
  };
  select.addEventListener('change', async () => {
    const q = new URLSearchParams(select.value ? JSON.parse(select.value) : {}).toString();
    select.disabled = true;
    try {
      show((await req('GET', `/players/${page.player.id}/stats${q ? `?${q}` : ''}`)).families);
    } finally {
      select.disabled = false;
      select.focus();
    }
  });
  show(page.stats);
}

function h2hPanel(id, link) {
  const panel = h('section', { class: 'panel player-h2h' }, h('h2', { text: t('player.h2h') }));
  req('GET', `/players/${id}/head-to-head?limit=50`).then((rows) => {
    if (!rows.length) return panel.append(h('p', { class: 'muted', text: t('player.none') }));
    panel.append(table('h2h', [t('player.opponent'), t('player.together'), t('player.ahead'), t('player.behind')],
      rows.map((r) => h('tr', null,
        h('td', null, link(`#/player/${r.player}`, r.bot_key ? botKeyName(r.bot_key) : r.name),
          r.bot_key ? h('span', { class: 'badge bot', text: t('bot') }) : null),
        h('td', { class: 'num', text: String(r.matches) }), h('td', { class: 'num', text: String(r.ahead) }),
        h('td', { class: 'num', text: String(r.behind) })))));
  }).catch(() => {});
  return panel;
}

// Calls to new rooms with the same people, at the top of the home page.
export async function callsBanner(main, { navigate }) {
  if (!me()) return;
  let calls;
  try { calls = await req('GET', '/players/me/calls'); } catch { return; }
  if (!calls.length) return;
  const box = h('section', { class: 'panel calls' }, calls.map((c) => {
    const row = h('div', { class: 'call', 'data-room': c.room });
    const join = h('button', { class: 'btn primary small', type: 'button', text: t('join') });
    join.onclick = () => navigate(`/room/${encodeURIComponent(c.room)}`);
    const dismiss = h('button', { class: 'btn small', type: 'button', text: t('player.dismiss') });
    dismiss.onclick = async () => { await req('DELETE', `/players/me/calls/${c.id}`).catch(() => {}); row.remove(); };
    row.append(h('span', { text: t('player.called', { name: c.from.name, variant: variantName(c.variant) }) }), join, dismiss);
    return row;
  }));
  main.prepend(box);
}

function finishedPanel(id, link, mine, navigate) {
  const list = h('tbody');
  const more = h('button', { class: 'btn small', type: 'button', text: t('player.more') });
  const panel = h('section', { class: 'panel player-finished' },
    h('div', { class: 'panel-head' }, h('h2', { text: t('player.finished') }),
      h('a', { class: 'btn small', href: `/api/players/${id}/matches.csv`, download: '', text: t('player.csv') })),
    h('div', { class: 'table-wrap' }, h('table', { class: 'grid finished' },
      h('thead', null, h('tr', null, [t('variant'), t('place'), t('player.total'), '', ''].map((x) => h('th', { text: x })))), list)),
    more);
  let before = null;  // keyset paging: the last match id shown
  const PAGE = 20;
  const load = async () => {
    more.disabled = true;
    const rows = await req('GET', `/players/${id}/finished?limit=${PAGE}${before ? `&before=${encodeURIComponent(before)}` : ''}`);
    if (rows.length) before = rows[rows.length - 1].match;
    for (const r of rows) {
      list.append(h('tr', { class: r.place === 1 ? 'won' : '' },
        h('td', { text: variantName(r.variant) }), h('td', { class: 'num', text: String(r.place) }),
        h('td', { class: 'num', text: String(r.total) }),
        h('td', { class: 'when' }, link(`#/match/${r.match}`, whenShort(r.finished_at))),
        h('td', null, mine ? againButton(r.room, navigate) : null)));
    }
    more.hidden = rows.length < PAGE;
    more.disabled = false;
  };
  more.onclick = load;
  load().catch(() => { more.hidden = true; });
  return panel;
}

function againButton(room, navigate) {
  const b = h('button', { class: 'btn tiny again', type: 'button', title: t('player.again'), 'aria-label': t('player.again'), text: '↻' });
  b.onclick = async () => {
    b.disabled = true;
    try {
      const out = await req('POST', `/rooms/${encodeURIComponent(room)}/again`);
      navigate(`/room/${encodeURIComponent(out.room.code)}`);
    } finally { b.disabled = false; }
  };
  return b;
}

export async function renderPlayer(main, id, { link, navigate }) {
  const who = me();
  const pid = id ?? (who && who.id);
  if (!pid) {
    main.append(h('section', { class: 'panel narrow' }, h('p', { text: t('player.none') }), link('/', t('player.to_lobby'), 'btn')));
    return;
  }
  const wrap = h('div', { class: 'player-page' }, h('p', { class: 'muted', text: t('loading') }));
  main.append(wrap);
  let page;
  try {
    page = await req('GET', `/players/${pid}/page`);
  } catch (e) {
    clear(wrap).append(h('section', { class: 'panel' }, h('p', { class: 'error', text: e.message })));
    return;
  }
  const mine = who && who.id === page.player.id;
  const side = h('div', { class: 'player-side' }, recordPanel(page), statsPanel(page), h2hPanel(page.player.id, link), mine ? notificationsPanel() : null, signInPanel(mine));
  clear(wrap).append(
    h('h1', { class: 'player-name' }, page.player.name, mine ? h('span', { class: 'badge', text: t('you') }) : null),
    h('div', { class: 'player-grid' },
      h('div', { class: 'player-main' }, ratingsPanel(page), finishedPanel(page.player.id, link, mine, navigate)), side));
  statsFilter(page, side);
}

// #/signin/SECRET spends a sign-in link; #/signin (or a refused link) offers the name +
// passphrase form.
export async function renderSignIn(main, secret, { navigate }) {
  const panel = h('section', { class: 'panel narrow signin-page' });
  main.append(panel);
  if (!secret) return passphraseSignIn(panel, { navigate });
  panel.append(h('p', { text: t('player.signing_in') }));
  history.replaceState(null, '', '/#/signin');  // the secret leaves the address bar and history at once
  try {
    const p = await req('POST', '/sign-in', { link: secret });
    setMe({ id: p.id, name: p.name, token: p.token });
    signedIn(panel, p, navigate);
  } catch (e) {
    clear(panel).append(h('p', { class: 'error sign-in-failed', text: t('player.sign_in_failed') }));
    passphraseSignIn(panel, { navigate });
  }
}
