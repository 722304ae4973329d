// Club tournaments (issue 37 item 4): the club page's Tournaments panel (the list, and an
// admin's "New tournament" form) and a tournament's page #/club/ID/tournament/TID: its
// rounds with their tables (Join / Watch each room) and byes, the standings with the
// CSV, sign-up, start and end.  Everything comes from /api/clubs/ID/tournaments (README
// "Clubs", Tournaments); the server opens the rounds, the page only shows them, drawn
// again every few seconds while the tournament runs.

import { h, clear, placePoints, redrawLater } from './dom.js';
import { t, dateTime, number, errorText, listOf } from './i18n.js';
import { req, me } from './api.js';
import { gameName } from './names.js';

// The club page's own button and wording of refusals (clubs.js gives them: no import back).
let actButton;
let clubError;
const use = (ui) => { ({ actButton, clubError } = ui); };

const REFRESH_MS = 5000;
const fmt = (x) => number(x, { maximumFractionDigits: 2 });
const base = (club) => `/clubs/${Number(club)}/tournaments`;
const tapi = {
  create: (club, body) => req('POST', base(club), body),
  get: (club, id) => req('GET', `${base(club)}/${Number(id)}`),
  enter: (club, id, player) => req('POST', `${base(club)}/${Number(id)}/entrants`, { player }),
  leave: (club, id, player) => req('DELETE', `${base(club)}/${Number(id)}/entrants/${Number(player)}`),
  start: (club, id) => req('POST', `${base(club)}/${Number(id)}/start`),
  end: (club, id) => req('POST', `${base(club)}/${Number(id)}/end`),
  csv: async (club, id) => {  // the route wants the token in a header: fetched, saved from a blob
    const res = await fetch(`/api${base(club)}/${Number(id)}/standings.csv`, { headers: { 'X-Player-Token': (me() || {}).token || '' } });
    if (!res.ok) throw Object.assign(new Error(res.statusText), { status: res.status });
    return res.blob();
  },
};

const path = (club, id) => `/#/club/${club}/tournament/${id}`;
const isAdmin = (data) => !!(data.me && data.me.status === 'active' && ['owner', 'admin'].includes(data.me.role));

function statusText(x) {
  if (x.status === 'running') return t('tournaments.status.running', { round: x.round, rounds: x.rounds });
  return t('tournaments.status.' + x.status);
}

function factsText(x) {
  return [gameName(x.variant), t('clubs.seats_n', { n: x.seat_count }), t('tournaments.' + x.format),
    x.rounds ? t('tournaments.rounds_n', { n: x.rounds }) : null,
    t('clubs.points_rule', { points: x.points.join(' / ') })].filter(Boolean).join(' · ');
}

// --- the club page's panel ----------------------------------------------------------------------

export function tournamentsPanel({ data, id, ctx }, ui) {
  use(ui);
  if (!(data.me && data.me.status === 'active')) return null;
  const list = (data.tournaments || []).length
    ? h('ul', { class: 'club-tournaments' }, data.tournaments.map((x) => h('li', { class: 'club-tournament', 'data-tournament': x.id },
      ctx.link(path(id, x.id), x.name, 'tournament-link'),
      h('span', { class: 'badge', 'data-role': 'tournament-status', text: statusText(x) }),
      h('div', { class: 'muted small', text: `${x.preset.name} · ${t('tournaments.' + x.format)} · ${t('tournaments.entrants_n', { n: x.entrant_count })}` }))))
    : h('p', { class: 'muted', text: t('tournaments.none') });
  return h('section', { class: 'panel', 'data-role': 'club-tournaments' }, h('h2', { text: t('tournaments.title') }), list,
    isAdmin(data) ? newTournament(data, id, ctx) : null);
}

function newTournament(data, id, ctx) {
  const box = h('details', { class: 'new-tournament', 'data-role': 'new-tournament' }, h('summary', { text: t('tournaments.new') }));
  if (!data.presets.length) {
    box.append(h('p', { class: 'muted', text: t('tournaments.no_presets') }));
    return box;
  }
  const err = h('p', { class: 'error', 'data-role': 'tournament-error' });
  const form = h('form', { class: 'tournament-form', 'data-role': 'tournament-form' },
    h('label', { class: 'field' }, t('tournaments.name'), h('input', { type: 'text', name: 'name', maxlength: 80, required: true })),
    h('div', { class: 'row' },
      h('label', { class: 'field' }, t('tournaments.preset'),
        h('select', { name: 'preset' }, data.presets.map((p) => h('option', { value: p.id, text: `${p.name} · ${gameName(p.variant)} · ${t('clubs.seats_n', { n: p.room.seats })}` })))),
      h('label', { class: 'field' }, t('tournaments.format'),
        h('select', { name: 'format' }, ['round_robin', 'swiss'].map((f) => h('option', { value: f, text: t('tournaments.' + f) }))))),
    h('div', { class: 'row' },
      h('label', { class: 'field' }, t('tournaments.rounds'),
        h('input', { type: 'number', name: 'rounds', min: 1, max: 100, 'aria-describedby': 'tournament-rounds-desc' }),
        h('small', { class: 'opt-desc', id: 'tournament-rounds-desc', text: t('tournaments.rounds_desc') })),
      h('label', { class: 'field' }, t('clubs.points_per_place'),
        h('input', { type: 'text', name: 'points', value: '3, 1, 0, 0', 'aria-describedby': 'tournament-points-desc' }),
        h('small', { class: 'opt-desc', id: 'tournament-points-desc', text: t('tournaments.points_desc') }))),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'sign_up', checked: true }), h('span', { text: t('tournaments.sign_up') })),
    h('fieldset', { class: 'field tournament-entrants' }, h('legend', { text: t('tournaments.entrants') }),
      data.members.map((x) => h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'entrants', value: x.player }), h('span', { text: x.name })))),
    h('button', { type: 'submit', class: 'btn primary', 'data-role': 'create-tournament', text: t('tournaments.create') }), err);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = form.elements;
    const points = placePoints(f.points.value);
    if (!points) {  // said here, nothing sent
      err.textContent = `${t('clubs.points_per_place')}: ${t('clubs.points_desc')}`;
      return;
    }
    try {
      const made = await tapi.create(id, { name: f.name.value, preset: Number(f.preset.value), format: f.format.value,
        rounds: f.rounds.value ? Number(f.rounds.value) : null, points, sign_up: f.sign_up.checked,
        entrants: [...form.querySelectorAll('input[name=entrants]:checked')].map((x) => Number(x.value)) });
      ctx.navigate(path(id, made.id));
    } catch (ex) {
      err.textContent = ex && ex.code === 'invalid_tournament' ? t('tournaments.swiss_rounds') : clubError(ex);
    }
  });
  box.append(form);
  return box;
}

// --- the tournament's page ------------------------------------------------------------------------

async function downloadCsv(club, id) {
  const url = URL.createObjectURL(await tapi.csv(club, id));
  const a = h('a', { href: url, download: `kozyr-club-${club}-tournament-${id}.csv`, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export async function renderTournament(root, club, id, ctx, ui) {
  use(ui);
  if (!me()) { ctx.navigate(`/#/club/${club}`); return; }
  if (!root.querySelector(`[data-tournament-page="${id}"]`)) clear(root).append(h('p', { class: 'muted', text: t('loading') }));
  let x;
  let page;
  try {
    [x, page] = await Promise.all([tapi.get(club, id), req('GET', `/clubs/${Number(club)}`)]);
  } catch (ex) {
    clear(root).append(h('p', { class: 'error', text: ex.status === 404 ? t('not_found') : errorText(ex) }));
    return;
  }
  const redraw = () => renderTournament(root, club, id, ctx, ui);
  const y = window.scrollY;
  clear(root).append(h('div', { class: 'tournament-page', 'data-tournament-page': id },
    head(x, page, club, id, ctx, redraw), roundsPanel(x, club, ctx), standingsPanel(x, club, id), entrantsPanel(x, page, club, id, redraw)));
  window.scrollTo(0, y);
  if (x.status === 'running' || x.status === 'open') {  // live: drawn again while this page is shown
    redrawLater(root, `[data-tournament-page="${id}"]`, `#/club/${club}/tournament/${id}`, redraw, REFRESH_MS);
  }
}

function head(x, page, club, id, ctx, redraw) {
  const admin = isAdmin(page);
  const mine = me();
  const actions = h('div', { class: 'club-actions' });
  if (x.status === 'open') {
    if (mine && !x.me.entrant && (x.sign_up || admin)) {
      actions.append(actButton(t('tournaments.sign_up_me'), 'sign-up', () => tapi.enter(club, id, mine.id), redraw, 'btn primary'));
    } else if (mine && x.me.entrant) {
      actions.append(actButton(t('tournaments.withdraw'), 'withdraw', () => tapi.leave(club, id, mine.id), redraw, 'btn ghost small', true));
    }
    if (admin) actions.append(actButton(t('tournaments.start'), 'start-tournament', () => tapi.start(club, id), redraw, 'btn primary'));
  }
  if (admin && (x.status === 'open' || x.status === 'running')) {
    actions.append(actButton(t('tournaments.end'), 'end-tournament', () => tapi.end(club, id), redraw, 'btn ghost small', true));
  }
  return h('section', { class: 'panel tournament-top' },
    h('p', { class: 'small' }, ctx.link(`/#/club/${club}`, `← ${page.club.name}`, 'back-to-club')),
    h('h1', { 'data-role': 'tournament-name', text: x.name }),
    h('p', { class: 'tournament-facts' },
      h('span', { class: 'badge', 'data-role': 'tournament-status', text: statusText(x) }), ' ',
      h('b', { text: x.preset.name }), h('span', { class: 'muted small', text: ` · ${factsText(x)}` })),
    x.started_at ? h('p', { class: 'muted small', text: t('tournaments.started', { when: dateTime(x.started_at) }) }) : null,
    actions);
}

function roundsPanel(x, club, ctx) {
  const mine = me();
  if (!x.schedule.length) {
    return h('section', { class: 'panel', 'data-role': 'tournament-rounds' }, h('h2', { text: t('tournaments.rounds') }),
      h('p', { class: 'muted', text: t('tournaments.not_started') }));
  }
  return h('section', { class: 'panel', 'data-role': 'tournament-rounds' }, h('h2', { text: t('tournaments.rounds') }),
    [...x.schedule].reverse().map((r) => h('div', { class: 'tournament-round', 'data-round': r.round },
      h('h3', { text: t('tournaments.round_n', { n: r.round }) }),
      h('ul', { class: 'tournament-tables' }, r.tables.map((tb) => {
        const seated = mine && tb.seats.some((s) => s.player === mine.id);
        const live = tb.status === 'playing' || tb.status === 'waiting';
        return h('li', { class: 'tournament-table', 'data-table': tb.table, 'data-status': tb.status },
          h('div', { class: 'tournament-table-head' },
            h('b', { text: t('tournaments.table_n', { n: tb.table }) }),
            h('span', { class: 'muted small', 'data-role': 'table-status', text: ` · ${t('tournaments.table_status.' + tb.status)}` }),
            tb.invite_path ? ctx.link(tb.invite_path, seated && live ? t('join') : t('tournaments.watch'),
              `btn small${seated && live ? ' primary' : ''}`) : null,
            tb.match && !live ? ctx.link(`/#/match/${tb.match}`, t('tournaments.history'), 'btn ghost small') : null),
          h('ol', { class: 'tournament-seats' }, tb.seats.map((s) => h('li', { 'data-player': s.player },
            h('span', { class: 'pname', text: s.name }),
            s.place ? h('span', { class: 'muted small', 'data-role': 'seat-result', text: ` · ${t('tournaments.place_points', { place: s.place, points: fmt(s.points) })}` }) : null))));
      })),
      r.byes.length ? h('p', { class: 'muted small', 'data-role': 'byes', text: t('tournaments.byes', { names: listOf(r.byes.map((b) => b.name)) }) }) : null)));
}

function standingsPanel(x, club, id) {
  const swiss = x.format === 'swiss';
  const cols = [t('place'), t('clubs.player'), t('clubs.points'), t('clubs.matches'), t(swiss ? 'tournaments.buchholz' : 'tournaments.h2h'), t('tournaments.wins')];
  return h('section', { class: 'panel', 'data-role': 'tournament-standings' }, h('h2', { text: t('tournaments.standings') }),
    h('div', { class: 'table-scroll' }, h('table', { class: 'grid standings-table', 'data-role': 'standings-table' },
      h('thead', null, h('tr', null, cols.map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', null, x.standings.map((r) => h('tr', { 'data-player': r.player },
        h('td', { text: String(r.rank) }),
        h('td', null, h('a', { href: `#/player/${r.player}`, text: r.name }),
          r.byes ? h('div', { class: 'muted small', text: t('tournaments.byes_n', { n: r.byes }) }) : null,
          // the phone shows the tie-break and wins here, not in their columns
          h('div', { class: 'tb-line muted', text: `${cols[4]}: ${swiss ? fmt(r.buchholz) : r.head_to_head} · ${cols[5]}: ${r.wins}` })),
        h('td', { 'data-role': 'points', text: fmt(r.points) }),
        h('td', { 'data-role': 'matches', text: String(r.matches) }),
        h('td', { text: swiss ? fmt(r.buchholz) : String(r.head_to_head) }),
        h('td', { text: String(r.wins) })))))),
    h('p', { class: 'muted small', text: t(swiss ? 'tournaments.ties_swiss' : 'tournaments.ties_rr') }),
    h('div', null, actButton(t('tournaments.csv'), 'standings-csv', () => downloadCsv(club, id), () => {}, 'btn small')));
}

function entrantsPanel(x, page, club, id, redraw) {
  const admin = isAdmin(page);
  return h('section', { class: 'panel', 'data-role': 'tournament-entrants' },
    h('h2', { text: `${t('tournaments.entrants')} (${x.entrants.length})` }),
    x.entrants.length ? h('ul', { class: 'member-list' }, x.entrants.map((e) => h('li', { class: 'member', 'data-player': e.player },
      h('span', { class: 'pname', text: e.name }),
      admin && x.status === 'open' && !(me() && me().id === e.player)
        ? h('span', { class: 'member-actions' }, actButton(t('clubs.remove'), 'remove-entrant', () => tapi.leave(club, id, e.player), redraw, 'btn ghost small'))
        : null)))
      : h('p', { class: 'muted', text: t('tournaments.no_entrants') }));
}
