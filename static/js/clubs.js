// Clubs (issue 37): My clubs (#/clubs) with the new-club form, a club's page (#/club/ID)
// and the page a club's invite link opens (/club/join/TOKEN).  Everything comes from
// /api/clubs (README "Clubs"); the page decides nothing the server decides: who sees the
// admin's parts is the page's `me.role`, and the server refuses what a role may not do.
// The room form of a preset is the lobby's (lobby.js roomForm), its rules in words too
// (differsEl).  After each change the page is drawn again from the server's answer.

import { h, clear, saveBlob, placePoints } from './dom.js';
import { t, dateTime, number, errorText, listOf } from './i18n.js';
import { api, me, ensurePlayer } from './api.js';
import { gameName, seatName } from './names.js';
import { nameForm, roomForm, shareLinkEl, differsEl, paceText, variantsOnce } from './lobby.js';
import { duplicatesPanel } from './club_duplicates.js';
import { tournamentsPanel, renderTournament as tournamentPage } from './club_tournaments.js';
import { eventsPanel } from './club_events.js';

const ROLES = ['owner', 'admin', 'member'];
const DEFAULT_COLOUR = '#3a6ea5';
const fmt = (x) => number(x, { maximumFractionDigits: 2 });

// The club's emblem: a disc in its colour with the name's first letter.
function emblem(club, big = false) {
  return h('span', { class: `club-emblem${big ? ' big' : ''}`, 'aria-hidden': 'true', style: { backgroundColor: club.colour || DEFAULT_COLOUR },
    text: (club.name || '?').trim().charAt(0).toUpperCase() });
}

// A refusal in words; a club's, preset's or season's name refused has its own (80 characters, not a player's 40).
function clubError(ex) {
  return ex && ex.code === 'invalid_name' ? t('clubs.invalid_name') : errorText(ex);
}

const roleText = (role) => t('clubs.roles.' + (ROLES.includes(role) ? role : 'member'));

// A button that runs `fn` (an API call), then `done`; a refusal is said beside it.  With
// `sure`, what cannot be undone asks first: the first tap turns the button into "Sure? …".
function actButton(text, role, fn, done, cls = 'btn small', sure = false) {
  return h('button', { type: 'button', class: cls, 'data-role': role, text, onclick: async (e) => {
    const button = e.currentTarget;
    const status = button.parentElement.querySelector('.act-error') || button.parentElement.appendChild(h('span', { class: 'error small act-error', role: 'status' }));
    if (sure && button.dataset.armed !== 'true') {
      button.dataset.armed = 'true';
      button.textContent = t('confirm_q', { action: text });
      return;
    }
    button.disabled = true;
    try {
      const out = await fn();
      status.textContent = '';
      await done(out);
    } catch (ex) {
      status.textContent = errorText(ex);
      button.disabled = false;
    }
  } });
}

// A club tournament's parts use these buttons and words of refusals, given to them (they
// import nothing from here: no import cycle).  #/club/ID/tournament/TID (app.js):
const ui = { actButton, clubError };
export const renderTournament = (root, club, id, ctx) => tournamentPage(root, club, id, ctx, ui);

// --- My clubs ------------------------------------------------------------------------------

// The club's own fields: a new club's (My clubs), or an admin's change of them (the club
// page).  `save(fields)` sends them; a refusal is said under the form.
function clubForm(club, { role, button, save }) {
  const v = club || { name: '', description: '', colour: DEFAULT_COLOUR, listed: false };
  const err = h('p', { class: 'error', 'data-role': 'club-error' });
  const form = h('form', { class: 'club-form', 'data-role': role },
    h('label', { class: 'field' }, t('clubs.name'), h('input', { type: 'text', name: 'name', maxlength: 80, required: true, value: v.name })),
    h('label', { class: 'field' }, t('clubs.description'), h('textarea', { name: 'description', maxlength: 2000, rows: 2, text: v.description })),
    h('div', { class: 'row' },
      h('label', { class: 'field' }, t('clubs.colour'), h('input', { type: 'color', name: 'colour', value: v.colour })),
      h('fieldset', { class: 'field club-listed' }, h('legend', { text: t('clubs.who_sees') }),
        ['private', 'listed'].map((x) => h('label', { class: 'check' },
          h('input', { type: 'radio', name: 'listed', value: x, checked: (x === 'listed') === !!v.listed }),
          h('span', null, h('b', { text: t('clubs.' + x) }), ' ', h('small', { class: 'muted', text: t(`clubs.${x}_desc`) })))))),
    h('button', { type: 'submit', class: 'btn primary', 'data-role': button, text: t(button === 'create-club' ? 'clubs.create' : 'save') }), err);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = form.elements;
    try {
      // as typed: the server cleans a name by the names' rule and refuses one of spaces only (invalid_name)
      await save({ name: f.name.value, description: f.description.value,
        colour: f.colour.value, listed: form.querySelector('input[name=listed]:checked').value === 'listed' });
    } catch (ex) {
      err.textContent = clubError(ex);
    }
  });
  return form;
}

export async function renderClubs(root, ctx) {
  clear(root).append(h('p', { class: 'muted', text: t('loading') }));
  if (!me()) { renderNeedsName(root, () => renderClubs(root, ctx)); return; }
  let clubs;
  try {
    clubs = await api.myClubs();
  } catch (ex) {
    clear(root).append(h('p', { class: 'error', text: errorText(ex) }));
    return;
  }
  clear(root).append(h('div', { class: 'clubs-page' },
    h('h1', { text: t('clubs.title') }),
    h('section', { class: 'panel', 'data-role': 'my-clubs' },
      h('h2', { text: t('clubs.mine') }),
      clubs.length ? h('ul', { class: 'club-list' }, clubs.map((c) => h('li', { class: 'club-row', 'data-club': c.id },
        emblem(c), ctx.link(`/#/club/${c.id}`, c.name, 'club-link'),
        h('span', { class: 'badge', text: c.status === 'pending' ? t('clubs.pending') : roleText(c.role) }))))
        : h('p', { class: 'muted', text: t('clubs.none') })),
    findPanel(clubs, ctx),
    h('section', { class: 'panel' }, h('h2', { text: t('clubs.new') }), clubForm(null, { role: 'new-club', button: 'create-club', save: async (fields) => {
      const page = await api.createClub(fields);
      ctx.navigate(`/#/club/${page.club.id}`);
    } }))));
}

// Listed clubs (GET /api/clubs; private ones never show): found by a part of the name;
// one I am not in yet takes a join request (an admin approves it).
function findPanel(mine, ctx) {
  const known = new Set(mine.map((c) => c.id));
  const list = h('ul', { class: 'club-list', 'data-role': 'found-clubs' });
  const input = h('input', { type: 'search', name: 'q', maxlength: 80, 'aria-label': t('clubs.find'), placeholder: t('clubs.find_placeholder') });
  const show = async () => {
    let found;
    try {
      found = await api.listedClubs(input.value.trim());
    } catch (ex) {
      clear(list).append(h('li', { class: 'error', text: errorText(ex) }));
      return;
    }
    clear(list).append(...(found.length ? found.map((c) => h('li', { class: 'club-row', 'data-club': c.id },
      emblem(c), ctx.link(`/#/club/${c.id}`, c.name, 'club-link'),
      h('span', { class: 'muted small', text: t('clubs.members_n', { n: c.members }) }),
      known.has(c.id) ? null : actButton(t('clubs.ask_to_join'), 'ask-to-join', () => api.askToJoin(c.id),
        () => { known.add(c.id); show(); })))
      : [h('li', { class: 'muted', text: t('clubs.none_found') })]));
  };
  const form = h('form', { class: 'row club-find', role: 'search', onsubmit: (e) => { e.preventDefault(); show(); } },
    input, h('button', { type: 'submit', class: 'btn', text: t('clubs.find') }));
  show();
  return h('section', { class: 'panel', 'data-role': 'find-clubs' }, h('h2', { text: t('clubs.find_title') }), form, list);
}

// The lobby's way to the clubs (the phone's header has no room for the link): my clubs,
// each a link, and a link to My clubs (where a club is created).
export async function clubsPanel(ctx) {
  const clubs = await api.myClubs().catch(() => []);
  return h('section', { class: 'panel lobby-clubs', 'data-role': 'lobby-clubs' },
    h('h2', null, ctx.link('/#/clubs', t('clubs.title'), 'clubs-title-link')),
    clubs.length ? h('ul', { class: 'club-list' }, clubs.map((c) => h('li', { class: 'club-row', 'data-club': c.id },
      emblem(c), ctx.link(`/#/club/${c.id}`, c.name, 'club-link'))))
      : h('p', { class: 'muted small' }, ctx.link('/#/clubs', t('clubs.new'))));
}

// A page that needs a player: the name first (a new player), then the page.
function renderNeedsName(root, then, before = null) {
  clear(root).append(h('section', { class: 'panel narrow name-gate' }, before || h('h1', { text: 'Kozyr' }),
    nameForm(async (name) => { await ensurePlayer(name); then(); })));
}

// --- the invite link's page -------------------------------------------------------------------

function clubHead(club, extra = null) {
  return h('div', { class: 'club-head' }, emblem(club, true),
    h('div', { class: 'club-words' },
      h('h1', { 'data-role': 'club-name', text: club.name }),
      club.description ? h('p', { class: 'club-desc', text: club.description }) : null,
      extra));
}

export async function renderClubJoin(root, token, ctx) {
  clear(root).append(h('p', { class: 'muted', text: t('loading') }));
  let club;
  try {
    club = await api.clubInvite(token);
  } catch (ex) {
    clear(root).append(h('section', { class: 'panel narrow' },
      h('p', { class: 'error', 'data-role': 'join-error', text: ex.status === 404 ? t('clubs.invite_gone') : errorText(ex) })));
    return;
  }
  const head = () => h('div', { class: 'club-invite' }, clubHead(club,
    h('p', { class: 'muted small', text: t('clubs.members_n', { n: club.members }) })),
  h('p', { text: t('clubs.invited') }));
  if (!me()) {  // a new player: the name first, as a room's invitation asks it
    renderNeedsName(root, () => renderClubJoin(root, token, ctx), h('div', null, head(),
      h('p', { class: 'muted small', text: t('clubs.name_hint') })));
    return;
  }
  const err = h('p', { class: 'error', role: 'status' });
  clear(root).append(h('section', { class: 'panel narrow club-join', 'data-role': 'club-join' }, head(),
    h('button', { type: 'button', class: 'btn primary', 'data-role': 'join-club', text: t('clubs.join'), onclick: async () => {
      try {
        await ensurePlayer();
        await api.joinClub(token);
        ctx.navigate(`/#/club/${club.id}`);
      } catch (ex) {
        err.textContent = errorText(ex);
      }
    } }), err));
}

// --- the club's page ---------------------------------------------------------------------------

export async function renderClub(root, id, ctx) {
  if (!me()) { renderNeedsName(root, () => renderClub(root, id, ctx)); return; }
  if (!root.querySelector('.club-page')) clear(root).append(h('p', { class: 'muted', text: t('loading') }));
  let data;
  let invites = [];
  let variants = [];
  try {
    data = await api.club(id);
    const admin = data.me && data.me.status === 'active' && ['owner', 'admin'].includes(data.me.role);
    [invites, variants] = await Promise.all([admin ? api.clubInvites(id) : [], admin ? variantsOnce() : []]);
  } catch (ex) {
    clear(root).append(h('p', { class: 'error', text: ex.status === 404 ? t('not_found') : errorText(ex) }));
    return;
  }
  const redraw = () => renderClub(root, id, ctx);
  const page = { data, invites, variants, id, ctx, redraw };
  const y = window.scrollY;
  clear(root).append(h('div', { class: 'club-page', 'data-club': id },
    headPanel(page), roomsPanel(page), eventsPanel(page, actButton, { admin: isAdmin(data), member: isMember(data) }),
    presetsPanel(page), seasonPanel(page), tournamentsPanel(page, ui), duplicatesPanel(page), matchesPanel(page),
    membersPanel(page), adminPanel(page)));
  window.scrollTo(0, y);
}

const isAdmin = (data) => !!(data.me && data.me.status === 'active' && ['owner', 'admin'].includes(data.me.role));
const isOwner = (data) => !!(data.me && data.me.role === 'owner');
const isMember = (data) => !!(data.me && data.me.status === 'active');

function headPanel({ data, id, ctx, redraw }) {
  const club = data.club;
  const who = data.me;
  const mine = who ? (who.status === 'pending' ? t('clubs.pending') : roleText(who.role)) : null;
  const facts = h('p', { class: 'muted small' },
    `${t(club.listed ? 'clubs.listed' : 'clubs.private')} · ${t('clubs.members_n', { n: club.members })} · ${t('clubs.owner_is', { name: club.owner.name })}`,
    mine ? h('span', { class: 'badge my-role', 'data-role': 'my-role', text: mine }) : null);
  const actions = h('div', { class: 'club-actions' });
  if (!who && club.listed) {
    actions.append(actButton(t('clubs.ask_to_join'), 'ask-to-join', () => api.askToJoin(id), redraw, 'btn primary'));
  } else if (who && who.role !== 'owner') {
    actions.append(actButton(who.status === 'pending' ? t('clubs.withdraw') : t('clubs.leave'), 'leave-club',
      () => api.leaveClub(id), () => ctx.navigate('/#/clubs'), 'btn ghost small', true));
  }
  return h('section', { class: 'panel club-top' }, clubHead(club, facts), actions);
}

function roomsPanel({ data, ctx }) {
  if (!isMember(data)) return null;
  return h('section', { class: 'panel', 'data-role': 'club-rooms' },
    h('h2', { text: t('clubs.rooms') }),
    data.rooms.length ? h('ul', { class: 'club-rooms' }, data.rooms.map((r) => h('li', { class: 'club-room', 'data-room': r.code },
      h('div', { class: 'club-room-what' },
        h('b', { text: r.preset || gameName(r.variant) }), r.preset ? h('span', { class: 'muted', text: ` · ${gameName(r.variant)}` }) : null,
        h('div', { class: 'muted small', text: [paceText(r), t('clubs.seats_of', { taken: r.seats_taken, n: r.seat_count }),
          t(r.status === 'playing' ? 'clubs.room_playing' : 'clubs.room_waiting'), r.rated ? t('clubs.rated') : null].filter(Boolean).join(' · ') })),
      ctx.link(r.invite_path, t('join'), `btn${r.status === 'waiting' && r.seats_taken < r.seat_count ? ' primary' : ''}`))))
      : h('p', { class: 'muted', text: t('clubs.no_rooms') }));
}

function presetsPanel({ data, variants, id, ctx, redraw }) {
  if (!isMember(data)) return null;
  const admin = isAdmin(data);
  const list = data.presets.length ? h('ul', { class: 'club-presets' }, data.presets.map((p) => h('li', { class: 'club-preset', 'data-preset': p.id },
    h('div', { class: 'preset-head' },
      h('b', { 'data-role': 'preset-name', text: p.name }), h('span', { class: 'muted', text: ` · ${gameName(p.variant)}` })),
    h('p', { class: 'muted small', text: [paceText(p.room), p.room.seats ? t('clubs.seats_n', { n: p.room.seats }) : null,
      p.room.rated ? t('clubs.rated') : null].filter(Boolean).join(' · ') }),
    differsEl(p.differs),
    h('div', { class: 'preset-actions' },
      actButton(t('clubs.open_room'), 'open-room', () => api.roomFromPreset(p.id), (room) => ctx.navigate(room.invite_path), 'btn primary'),
      admin ? actButton(t('clubs.delete'), 'delete-preset', () => api.deletePreset(id, p.id), redraw, 'btn ghost small', true) : null))))
    : h('p', { class: 'muted', text: t('clubs.no_presets') });
  let form = null;
  if (admin && variants.length) {
    const name = h('label', { class: 'field preset-name-field' }, t('clubs.preset_name'),
      h('input', { type: 'text', name: 'preset_name', maxlength: 80, required: true }));
    form = h('details', { class: 'new-preset', 'data-role': 'new-preset' },
      h('summary', { text: t('clubs.new_preset') }),
      roomForm(variants, { role: 'preset-form', button: 'save_preset', prefix: 'preset', before: name, submit: async (body) => {
        const { variant, options, seats, ...room } = body;
        const field = document.querySelector('[data-role=preset-form] input[name=preset_name]');
        try {
          await api.createPreset(id, { name: field.value, variant, options, room: { seats, ...room } });
        } catch (ex) {  // the form says a refusal by errorText: a name's in the clubs' words
          if (ex.code !== 'invalid_name') throw ex;
          throw Object.assign(new Error(t('clubs.invalid_name')), { status: ex.status });
        }
        redraw();
      } }));
  }
  return h('section', { class: 'panel', 'data-role': 'club-presets' }, h('h2', { text: t('clubs.presets') }), list, form);
}

function seasonTable(data, season) {
  if (!season.table.length) return h('p', { class: 'muted', text: t('clubs.table_empty') });
  const head = [t('place'), t('clubs.player'), t('clubs.points'), t('clubs.matches'), t('clubs.club_rating')];
  const best = new Map();  // a player's best club rating this season (per family: the best of them)
  for (const r of season.ratings) if (!best.has(r.player) || best.get(r.player) < r.ordinal) best.set(r.player, r.ordinal);
  return h('div', { class: 'table-scroll' }, h('table', { class: 'grid season-table', 'data-role': 'season-table' },
    h('thead', null, h('tr', null, head.map((x) => h('th', { scope: 'col', text: x })))),
    h('tbody', null, season.table.map((r) => h('tr', { 'data-player': r.player, class: r.qualified ? '' : 'unranked' },
      h('td', { text: r.rank === null ? '—' : String(r.rank) }),
      h('td', null, h('a', { href: `#/player/${r.player}`, text: r.name }),  // the phone shows the rating here, not in its column
        best.has(r.player) ? h('div', { class: 'rating-line muted', text: `${t('clubs.club_rating')}: ${fmt(best.get(r.player))}` }) : null),
      h('td', { 'data-role': 'points', text: fmt(r.points) }),
      h('td', { 'data-role': 'matches', text: String(r.matches) }),
      h('td', { text: best.has(r.player) ? fmt(best.get(r.player)) : '—' }))))));
}

async function downloadCsv(id, season) {
  saveBlob(await api.seasonCsv(id, season.id), `kozyr-club-${id}-season-${season.id}.csv`);
}

function seasonPanel({ data, id, redraw }) {
  if (!isMember(data)) return null;
  const s = data.season;
  const box = h('section', { class: 'panel', 'data-role': 'club-season' }, h('h2', { text: t('clubs.season') }));
  if (s) {
    box.append(h('p', { class: 'season-head' }, h('b', { 'data-role': 'season-name', text: s.name }),
      h('span', { class: 'muted small', text: ` · ${dateTime(s.starts_at, { dateStyle: 'medium' })} – ${dateTime(s.ends_at, { dateStyle: 'medium' })}` +
        ` · ${listOf(s.families.map((f) => t('families.' + f)))}` +
        ` · ${t('clubs.points_rule', { points: s.points.join(' / ') })}` + (s.min_matches ? ` · ${t('clubs.min_matches_n', { n: s.min_matches })}` : '') })),
    seasonTable(data, s),
    h('div', { class: 'season-actions' },
      actButton(t('clubs.csv'), 'season-csv', () => downloadCsv(id, s), () => {}, 'btn small'),
      isAdmin(data) ? actButton(t('clubs.close_season'), 'close-season', () => api.closeSeason(id, s.id), redraw, 'btn ghost small', true) : null));
  } else {
    box.append(h('p', { class: 'muted', text: t('clubs.no_season') }));
  }
  if (data.past_seasons.length) {
    box.append(h('h3', { text: t('clubs.past_seasons') }), h('ul', { class: 'past-seasons' }, data.past_seasons.map((x) => h('li', { 'data-season': x.id },
      h('b', { text: x.name }), ' ',
      h('span', { class: 'muted small', text: x.winners && x.winners.length
        ? t('clubs.winners', { names: listOf(x.winners.map((w) => w.name)) }) : t('clubs.no_winner') })))));
  }
  return box;
}

function matchesPanel({ data, ctx }) {
  if (!isMember(data)) return null;
  return h('section', { class: 'panel', 'data-role': 'club-matches' }, h('h2', { text: t('clubs.recent') }),
    data.recent_matches.length ? h('ul', { class: 'matches' }, data.recent_matches.map((m) => h('li', { 'data-match': m.id },
      ctx.link(`/#/match/${m.id}`, m.preset || gameName(m.variant)),
      h('span', { class: 'muted', text: ` · ${listOf([...m.seats].sort((a, b) => (a.place ?? 9) - (b.place ?? 9))
        .map((x) => (x.place ? `${x.place}. ${seatName(x)}` : seatName(x))))}` }),
      m.finished_at ? h('span', { class: 'muted small', text: ` · ${dateTime(m.finished_at)}` }) : null)))
      : h('p', { class: 'muted', text: t('no_matches') }));
}

function membersPanel({ data, id, ctx, redraw }) {
  const owner = isOwner(data);
  const admin = isAdmin(data);
  const who = me();
  const row = (x) => {
    const self = who && x.player === who.id;
    const controls = h('span', { class: 'member-actions' });
    if (owner && !self && x.role !== 'owner') {
      controls.append(actButton(x.role === 'admin' ? t('clubs.make_member') : t('clubs.make_admin'), 'set-role',
        () => api.setRole(id, x.player, x.role === 'admin' ? 'member' : 'admin'), redraw, 'btn ghost small'));
      controls.append(actButton(t('clubs.transfer'), 'transfer', () => api.transferClub(id, x.player), redraw, 'btn ghost small', true));
    }
    if (admin && !self && x.role !== 'owner' && (owner || x.role === 'member')) {
      controls.append(actButton(t('clubs.remove'), 'remove-member', () => api.removeMember(id, x.player), redraw, 'btn danger small', true));
    }
    return h('li', { class: 'member', 'data-player': x.player, 'data-club-role': x.role },
      ctx.link(`/#/player/${x.player}`, x.name, 'pname'),
      h('span', { class: `badge role-${x.role}`, text: roleText(x.role) }),
      self ? h('span', { class: 'badge', text: t('you') }) : null,
      x.online ? h('span', { class: 'badge online', 'data-role': 'online', text: t('clubs.online') }) : null,
      controls.childNodes.length ? controls : null);
  };
  const box = h('section', { class: 'panel', 'data-role': 'club-members' },
    h('h2', { text: t('clubs.members') }),
    h('ul', { class: 'member-list' }, data.members.map(row)));
  if (admin && data.pending.length) {
    box.append(h('h3', { text: t('clubs.requests') }), h('ul', { class: 'member-list', 'data-role': 'club-pending' }, data.pending.map((x) => h('li', { class: 'member', 'data-player': x.player },
      h('span', { class: 'pname', text: x.name }),
      x.requested_at ? h('span', { class: 'muted small', text: dateTime(x.requested_at) }) : null,
      h('span', { class: 'member-actions' },
        actButton(t('clubs.approve'), 'approve', () => api.approveMember(id, x.player), redraw, 'btn primary small'),
        actButton(t('clubs.decline'), 'decline', () => api.removeMember(id, x.player), redraw, 'btn ghost small'))))));
  }
  return box;
}

// Admins: invite links (create, share / copy / QR, revoke) and new seasons.
function adminPanel({ data, invites, variants, id, redraw }) {
  if (!isAdmin(data)) return null;
  const club = data.club;
  const links = invites.map((inv) => h('div', { class: 'club-invite-link', 'data-invite': inv.id },
    shareLinkEl({ url: inv.invite_url, qr: api.clubInviteQr(inv.token), title: `Kozyr — ${club.name}`,
      text: t('clubs.share_text', { club: club.name }), label: t('clubs.invite_link') }),
    h('div', null, actButton(t('clubs.revoke'), 'revoke-invite', () => api.revokeClubInvite(id, inv.id), redraw, 'btn danger small', true))));
  return h('section', { class: 'panel club-admin', 'data-role': 'club-admin' },
    h('h2', { text: t('clubs.admin') }),
    h('details', { class: 'club-settings', 'data-role': 'club-settings' }, h('summary', { text: t('clubs.settings') }),
      clubForm(club, { role: 'edit-club', button: 'save-club', save: async (fields) => { await api.changeClub(id, fields); redraw(); } })),
    h('h3', { text: t('clubs.invites') }),
    h('p', { class: 'muted small', text: t('clubs.invites_note') }),
    ...links,
    h('div', null, actButton(t('clubs.new_invite'), 'new-invite', () => api.newClubInvite(id), redraw, 'btn')),
    h('h3', { text: t('clubs.new_season') }),
    seasonForm(data, variants, id, redraw));
}

// A date input's day as an aware time: its start (or its end) in the player's own time zone.
function dayStart(value, end = false) {
  const [y, m, d] = value.split('-').map(Number);
  return new Date(y, m - 1, d + (end ? 1 : 0), 0, 0, end ? -1 : 0).toISOString();
}

function seasonForm(data, variants, id, redraw) {
  const families = [...new Set(variants.map((v) => v.family))];
  const today = new Date();
  const iso = (d) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  const later = new Date(today.getFullYear(), today.getMonth() + 3, today.getDate());
  const err = h('p', { class: 'error', 'data-role': 'season-error' });
  const form = h('form', { class: 'season-form', 'data-role': 'season-form' },
    h('div', { class: 'row' },
      h('label', { class: 'field' }, t('clubs.season_name'), h('input', { type: 'text', name: 'name', maxlength: 80, required: true })),
      h('label', { class: 'field' }, t('clubs.starts'), h('input', { type: 'date', name: 'starts', value: iso(today), required: true })),
      h('label', { class: 'field' }, t('clubs.ends'), h('input', { type: 'date', name: 'ends', value: iso(later), required: true }))),
    h('fieldset', { class: 'field season-families' }, h('legend', { text: t('clubs.families') }),
      families.map((f) => h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'families', value: f, checked: true }),
        h('span', { text: t('families.' + f) })))),
    h('div', { class: 'row' },
      h('label', { class: 'field' }, t('clubs.points_per_place'),
        h('input', { type: 'text', name: 'points', value: '3, 1, 0, 0', 'aria-describedby': 'season-points-desc' }),
        h('small', { class: 'opt-desc', id: 'season-points-desc', text: t('clubs.points_desc') })),
      h('label', { class: 'field' }, t('clubs.min_matches'), h('input', { type: 'number', name: 'min_matches', min: 0, max: 10000, value: 0 }))),
    h('button', { type: 'submit', class: 'btn primary', 'data-role': 'create-season', text: t('clubs.create_season') }), err);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = form.elements;
    const points = placePoints(f.points.value);
    if (!points) {  // said here, nothing sent
      err.textContent = `${t('clubs.points_per_place')}: ${t('clubs.points_desc')}`;
      return;
    }
    try {
      await api.createSeason(id, { name: f.name.value, starts_at: dayStart(f.starts.value), ends_at: dayStart(f.ends.value, true),
        families: [...form.querySelectorAll('input[name=families]:checked')].map((x) => x.value),
        points,
        min_matches: Number(f.min_matches.value || 0) });
      redraw();
    } catch (ex) {
      err.textContent = clubError(ex);
    }
  });
  return form;
}
