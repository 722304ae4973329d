// Duplicate matches of a club (issue 37 item 5): the club page's panel (the club's
// duplicates, and a form that starts one from a preset: tables and the roster, a member
// or a bot per place) and a duplicate's page (#/club/ID/duplicate/DUP): its tables with
// their join links, the deals every table has finished compared hand by hand, and the
// standings (raw = cards + skill).  Everything comes from /api/clubs/{id}/duplicates
// (README "Clubs (issue 37)", Duplicate matches); the page computes nothing.  While the
// tables play, the page is drawn again every REFRESH_MS (dom.js redrawLater).

import { h, clear, redrawLater } from './dom.js';
import { t, number, errorText, dateTime } from './i18n.js';
import { api, req, me } from './api.js';
import { gameName } from './names.js';

const fmt = (x) => number(x, { maximumFractionDigits: 2 });
const signed = (x) => (x > 0 ? '+' : '') + fmt(x);
const LEVELS = ['basic', 'strong', 'expert', 'random'];
const REFRESH_MS = 10000;  // a playing duplicate's page is drawn again this often

export const duplicatesApi = {
  list: (club) => req('GET', `/clubs/${club}/duplicates`),
  get: (club, id) => req('GET', `/clubs/${club}/duplicates/${id}`),
  create: (club, body) => req('POST', `/clubs/${club}/duplicates`, body),
  replayDeal: (match, deal, rotation) => req('POST', `/matches/${encodeURIComponent(match)}/deals/${deal}/replay`, { rotation }),
};

// --- the club page's panel -----------------------------------------------------------------

// `page`: the club page's {data, id, ctx} (clubs.js); members only.
export function duplicatesPanel({ data, id, ctx }) {
  if (!(data.me && data.me.status === 'active')) return null;
  const list = h('ul', { class: 'club-rooms club-duplicates', 'data-role': 'duplicate-list' }, h('li', { class: 'muted', text: t('loading') }));
  duplicatesApi.list(id).then((rows) => {
    clear(list).append(...(rows.length ? rows.map((d) => h('li', { class: 'club-room', 'data-duplicate': d.id },
      h('div', { class: 'club-room-what' }, h('b', { text: d.preset }), h('span', { class: 'muted', text: ` · ${gameName(d.variant)}` }),
        h('div', { class: 'muted small', text: [t('dup.tables_n', { n: d.tables }), t('dup.status_' + d.status), dateTime(d.created_at)].join(' · ') })),
      ctx.link(`/#/club/${id}/duplicate/${d.id}`, t('dup.open'), 'btn')))
      : [h('li', { class: 'muted', text: t('dup.none') })]));
  }).catch((ex) => clear(list).append(h('li', { class: 'error', text: errorText(ex) })));
  const box = h('div');
  // (the variants' seat counts; not lobby.js's cache: lobby.js imports history.js, which imports this)
  if (data.presets.length) api.variants().then((variants) => box.append(newDuplicate(data, variants, id, ctx)));
  return h('section', { class: 'panel', 'data-role': 'club-duplicates' },
    h('h2', { text: t('dup.title') }), h('p', { class: 'muted small', text: t('dup.about') }), list, box);
}

// The form: a preset, the tables (2 .. its seats) and a member or a bot per place (I first,
// then basic bots).
function newDuplicate(data, variants, id, ctx) {
  const err = h('p', { class: 'error', role: 'status', 'data-role': 'duplicate-error' });
  const preset = h('select', { name: 'preset' }, data.presets.map((p) => h('option', { value: p.id, text: `${p.name} · ${gameName(p.variant)}` })));
  const tables = h('select', { name: 'tables' });
  const roster = h('div', { class: 'dup-roster', 'data-role': 'roster' });
  const seatsOf = () => {
    const p = data.presets.find((x) => String(x.id) === preset.value);
    const v = p && variants.find((x) => x.id === p.variant);
    return (p && p.room.seats) || (v && v.seat_counts[0]) || 2;
  };
  const mine = me() && me().id;
  const choices = [...data.members.map((x) => ({ value: `p${x.player}`, text: x.name })),
    ...LEVELS.map((lv) => ({ value: `b${lv}`, text: t('bot_name', { level: t('bot_levels.' + lv) }) }))];
  const draw = () => {
    const n = seatsOf();
    clear(tables).append(...Array.from({ length: Math.max(1, n - 1) }, (_, i) => h('option', { value: i + 2, text: String(i + 2) })));
    clear(roster).append(...Array.from({ length: n }, (_, i) => h('label', { class: 'field' }, t('dup.place_n', { n: i + 1 }),
      h('select', { name: `place${i}`, 'data-place': i }, choices.map((c) => h('option', {
        value: c.value, text: c.text, selected: c.value === (i === 0 ? `p${mine}` : 'bbasic') }))))));
  };
  preset.addEventListener('change', draw);
  draw();
  const form = h('form', { class: 'club-form', 'data-role': 'new-duplicate' },
    h('div', { class: 'row' }, h('label', { class: 'field' }, t('clubs.preset'), preset), h('label', { class: 'field' }, t('dup.tables'), tables)),
    roster,
    h('button', { type: 'submit', class: 'btn primary', 'data-role': 'create-duplicate', text: t('dup.create') }), err);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const players = [...roster.querySelectorAll('select')].map((s) => (s.value[0] === 'p' ? { player: Number(s.value.slice(1)) } : { bot: s.value.slice(1) }));
    try {
      const dup = await duplicatesApi.create(id, { preset: Number(preset.value), tables: Number(tables.value), players });
      ctx.navigate(`/#/club/${id}/duplicate/${dup.id}`);
    } catch (ex) {
      err.textContent = errorText(ex);
    }
  });
  return h('details', { class: 'new-preset', 'data-role': 'new-duplicate-box' }, h('summary', { text: t('dup.new') }), form);
}

// --- the duplicate's page ------------------------------------------------------------------

export async function renderDuplicate(root, club, id, ctx) {
  if (!root.querySelector('.duplicate-page')) clear(root).append(h('p', { class: 'muted', text: t('loading') }));
  let d;
  try {
    d = await duplicatesApi.get(club, id);
  } catch (ex) {
    clear(root).append(h('p', { class: 'error', text: ex.status === 404 ? t('not_found') : errorText(ex) }));
    return;
  }
  const name = (pos) => (d.roster.find((r) => r.position === pos) || {}).name || `#${pos + 1}`;
  const y = window.scrollY;
  clear(root).append(h('div', { class: 'duplicate-page', 'data-duplicate': d.id },
    h('section', { class: 'panel' },
      h('p', { class: 'muted small' }, ctx.link(`/#/club/${club}`, t('dup.back'))),
      h('h1', { text: `${t('dup.one')}: ${d.preset}` }),
      h('p', { class: 'muted', text: [gameName(d.variant), t('dup.tables_n', { n: d.tables }), t('dup.status_' + d.status)].join(' · ') }),
      h('p', { class: 'muted small', text: t('dup.rotation') })),
    h('section', { class: 'panel', 'data-role': 'duplicate-tables' }, h('h2', { text: t('dup.tables') }),
      h('ul', { class: 'club-rooms' }, d.table_list.map((x) => h('li', { class: 'club-room', 'data-table': x.table },
        h('div', { class: 'club-room-what' }, h('b', { text: t('dup.table_n', { n: x.table + 1 }) }),
          h('div', { class: 'muted small', text: x.seats.map((s) => `${s.seat + 1}: ${s.name || '—'}`).join(' · ') }),
          h('div', { class: 'muted small', text: `${t('dup.status_' + (x.status === 'playing' ? 'playing' : 'finished'))} · ${t('dup.deals_done', { n: x.deals_finished })}` })),
        h('div', { class: 'dup-links' }, ctx.link(x.invite_path, t('join'), `btn${x.status === 'playing' ? ' primary' : ''}`),
          x.match ? ctx.link(`/#/match/${x.match}`, t('history'), 'btn ghost') : null))))),
    h('section', { class: 'panel', 'data-role': 'duplicate-standings' }, h('h2', { text: t('dup.standings') }),
      h('p', { class: 'muted small', text: t('dup.standings_about', { n: d.compared }) }),
      h('div', { class: 'table-scroll' }, h('table', { class: 'grid dup-standings' },
        h('thead', null, h('tr', null, [t('place'), t('clubs.player'), t('dup.raw'), t('dup.cards'), t('dup.skill')].map((x) => h('th', { scope: 'col', text: x })))),
        h('tbody', null, d.standings.map((r) => h('tr', { 'data-position': r.position },
          h('td', { text: String(r.rank) }), h('td', { text: r.name || name(r.position) }),
          h('td', { 'data-role': 'raw', text: fmt(r.raw) }), h('td', { 'data-role': 'cards', text: fmt(r.cards) }),
          h('td', { 'data-role': 'skill', text: signed(r.skill) }))))))),
    h('section', { class: 'panel', 'data-role': 'duplicate-deals' }, h('h2', { text: t('dup.deals') }),
      d.deals.length ? h('div', { class: 'table-scroll' }, h('table', { class: 'grid dup-deals' },
        h('thead', null, h('tr', null, h('th', { scope: 'col', text: t('dup.deal') }), h('th', { scope: 'col', text: t('dup.hand') }),
          ...d.table_list.map((x) => h('th', { scope: 'col', text: t('dup.table_n', { n: x.table + 1 }) })), h('th', { scope: 'col', text: t('dup.average') }))),
        h('tbody', null, d.deals.flatMap((deal) => deal.hands.map((hand, i) => h('tr', { 'data-deal': deal.deal, 'data-seat': hand.seat },
          h('th', { scope: 'row', text: i === 0 ? String(deal.deal) : '' }),
          h('td', { text: t('dup.hand_n', { n: hand.seat + 1 }) }),
          ...hand.scores.map((score, tb) => h('td', null, h('b', { text: fmt(score) }), h('div', { class: 'muted small', text: name(hand.held_by[tb]) }))),
          h('td', { text: fmt(hand.average) }))))))) : h('p', { class: 'muted', text: t('dup.no_deals') }))));
  window.scrollTo(0, y);
  if (d.status === 'playing') {  // live: the tables' deals and the standings drawn again while shown
    redrawLater(root, `.duplicate-page[data-duplicate="${d.id}"]`, `#/club/${club}/duplicate/${id}`, () => renderDuplicate(root, club, id, ctx), REFRESH_MS);
  }
}

// --- "Replay this deal" (history.js's deal view) ----------------------------------------------

// A button (and, past two seats, the rotation) that opens a new room whose first deal is
// this one, each hand moved by the rotation; the server refuses before the match is over.
export function replayDealEl(detail, deal) {
  const n = detail.seats.length;
  const status = h('span', { class: 'error small', role: 'status' });
  const rotation = n > 2 ? h('select', { name: 'rotation', 'aria-label': t('dup.rotation_label') },
    Array.from({ length: n - 1 }, (_, i) => h('option', { value: i + 1, text: t('dup.rotate_n', { n: i + 1 }) }))) : null;
  const button = h('button', { type: 'button', class: 'btn small', 'data-role': 'replay-deal', text: t('dup.replay_deal'), onclick: async () => {
    button.disabled = true;
    try {
      const room = await duplicatesApi.replayDeal(detail.id, deal, rotation ? Number(rotation.value) : 1);
      location.assign(room.invite_path);
    } catch (ex) {
      status.textContent = errorText(ex);
      button.disabled = false;
    }
  } });
  return h('div', { class: 'replay-again', title: t('dup.replay_deal_about') }, button, rotation, status);
}
