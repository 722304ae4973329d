// The home page (name, new room with house rules, my matches), the room's lobby (seats) and
// the invitation (who invites to what, the seats, share / copy, QR code) — also as a panel
// the table opens during a match (openInvitePanel).

import { holdFocus } from './dialog.js';
import { h, clear, on } from './dom.js';
import { t, has, listOf, cardText, errorText, duration, BOT_LEVELS, onLang } from './i18n.js';
import { api, me, ensurePlayer } from './api.js';
import { openHistoryPanel } from './history.js';
import { seatName, gameName } from './names.js';

// --- words ---------------------------------------------------------------------------

// The catalog's text for a key, or null: the caller has a fallback of its own.
const known = (path) => (has(path) ? t(path) : null);

const START_TOTAL = /^start_total_(\d+)$/;

// The option's label and description by its name (the schema's English as the last resort).
export function optionText(opt) {
  const m = START_TOTAL.exec(opt.name);
  if (m) {
    const seat = t('house.seat_n', { n: Number(m[1]) + 1 });
    return { label: t('house.opt.start_total.label', { seat }), desc: known('house.opt.start_total.desc') || '' };
  }
  return {
    label: known(`house.opt.${opt.name}.label`) || opt.label || opt.name.replace(/_/g, ' '),
    desc: known(`house.opt.${opt.name}.desc`) || opt.description || '',
  };
}

export function optionValueText(name, value) {
  if (Array.isArray(value)) return value.map((x) => known('contracts.' + x) || x).join(' › ');
  if (typeof value === 'boolean') return value ? t('house.on') : t('house.off');
  if (typeof value === 'string' && /^[2-9TJQKA][SCDH]$/.test(value)) return cardText(value);
  if (typeof value === 'string') return known(`house.val.${name}.${value}`) || value.replace(/_/g, ' ');
  return String(value).replace('-', '−');
}

const GROUPS = ['bidding', 'talon', 'play', 'scoring', 'barrel', 'bolts', 'match'];
const FEATURED = ['thousand-ru', 'tysiac-pl'];  // offered first in the form
const SAME = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// --- the house-rule inputs -------------------------------------------------------------

// One input per option of the variant's options_schema: {el, value(), set(v), name}.
function optionInput(opt, onChange) {
  const id = `opt-${opt.name}`;
  let input;
  let value;
  let set;
  switch (opt.type) {
    case 'int': {
      input = h('input', { id, type: 'number', min: opt.min, max: opt.max, step: opt.step || 1, value: opt.default, name: opt.name });
      value = () => Number(input.value);
      set = (v) => { input.value = v; };
      break;
    }
    case 'bool': {
      input = h('input', { id, type: 'checkbox', checked: !!opt.default, name: opt.name });
      value = () => input.checked;
      set = (v) => { input.checked = !!v; };
      break;
    }
    case 'choice':
    case 'card': {
      const key = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
      input = h('select', { id, name: opt.name }, (opt.allowed || []).map((v) => h('option', {
        value: key(v), selected: SAME(v, opt.default), text: opt.type === 'card' ? cardText(v) : optionValueText(opt.name, v),
      })));
      value = () => opt.allowed.find((v) => key(v) === input.value);
      set = (v) => { input.value = key(v); };
      break;
    }
    case 'permutation': {
      let order = [...(opt.default || opt.allowed || [])];
      input = h('ol', { id, class: 'permutation', 'data-name': opt.name });
      const draw = () => {
        clear(input);
        order.forEach((item, i) => input.append(h('li', null,
          h('span', { text: optionValueText(opt.name, [item]) }),
          h('button', { type: 'button', class: 'btn tiny', disabled: i === 0, 'aria-label': '↑',
            onclick: () => { [order[i - 1], order[i]] = [order[i], order[i - 1]]; draw(); onChange(); } }, '↑'),
          h('button', { type: 'button', class: 'btn tiny', disabled: i === order.length - 1, 'aria-label': '↓',
            onclick: () => { [order[i + 1], order[i]] = [order[i], order[i + 1]]; draw(); onChange(); } }, '↓'))));
      };
      draw();
      value = () => [...order];
      set = (v) => { order = [...v]; draw(); };
      break;
    }
    default:
      return null;
  }
  input.addEventListener('change', onChange);
  input.addEventListener('input', onChange);
  const { label, desc } = optionText(opt);
  const descEl = desc ? h('small', { class: 'opt-desc', id: `${id}-desc`, text: desc }) : null;
  if (descEl) input.setAttribute('aria-describedby', descEl.id);
  const el = opt.type === 'bool'
    ? h('div', { class: 'field option check', 'data-option': opt.name }, h('label', { for: id, class: 'check' }, input, h('span', { text: label })), descEl)
    : h('div', { class: 'field option', 'data-option': opt.name }, h('label', { for: id }, h('span', { text: label })), input, descEl);
  return { el, value, set, name: opt.name };
}

// The variants that share one option list in one family are presets of each other
// ("as in Russia", "as in Poland"): found from the schema alone.
function presetsOf(variants, v) {
  const names = (x) => (x.options || []).map((o) => o.name).sort().join(',');
  if ((v.options || []).length < 2) return [];
  const same = variants.filter((x) => x.family === v.family && names(x) === names(v));
  return same.length > 1 ? same : [];
}

function defaultsOf(v) {
  return Object.fromEntries((v.options || []).map((o) => [o.name, o.default]));
}

// --- the home page ---------------------------------------------------------------------

export function nameForm(onSaved) {
  const who = me();
  const input = h('input', { type: 'text', name: 'name', maxlength: 40, required: true, value: who ? who.name : '',
    placeholder: t('name'), autocomplete: 'nickname' });
  const err = h('p', { class: 'error' });
  const form = h('form', { class: 'name-form', 'data-role': 'name-form' },
    h('label', null, t('name'), input),
    h('button', { type: 'submit', class: 'btn primary', text: t('save') }), err);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      await onSaved(input.value.trim());
    } catch (ex) {
      err.textContent = errorText(ex);
    }
  });
  return form;
}

// Seconds after which a bot plays for a player who does not act (0: never).
function takeoverInput(value) {
  return h('input', { type: 'number', name: 'takeover_seconds', min: 0, max: 86400, step: 1, value, placeholder: '0' });
}

// --- the room's pace (README "Pace, deadlines, vacations") --------------------------------

// The deadlines a host picks from for a turn-based room; the server's default is 24 h.
const MOVE_SECONDS = [300, 3600, 43200, 86400, 259200, 604800];
const PACE_DEFAULTS = { pace: 'live', move_seconds: 86400, on_deadline: 'bot', vacation_days: 14 };

// The pace as a form has it: {pace, move_seconds, on_deadline, vacation_days, takeover_seconds}.
function readPace(form) {
  const f = form.elements;
  const checked = form.querySelector('input[name=pace]:checked');
  const takeover = f.takeover_seconds.value.trim();
  return {
    pace: checked ? checked.value : 'live',
    move_seconds: Number(f.move_seconds.value),
    on_deadline: f.on_deadline.value,
    vacation_days: Number(f.vacation_days.value || 0),
    takeover_seconds: takeover === '' ? undefined : Number(takeover),
  };
}

// What a room's POST / PATCH carries of it: a turn-based room's deadline, what happens when
// it passes and the vacation limit; a live room's turn clock.
function paceBody(p, { takeoverZero = false } = {}) {
  if (p.pace === 'turn') return { pace: 'turn', move_seconds: p.move_seconds, on_deadline: p.on_deadline, vacation_days: p.vacation_days };
  const takeover = p.takeover_seconds === undefined && takeoverZero ? 0 : p.takeover_seconds;
  return { pace: 'live', ...(takeover === undefined ? {} : { takeover_seconds: takeover }) };
}

// Live or turn-based; for turn-based the time per move, what happens when it runs out and
// the vacation limit; for live the turn clock (a bot takes over).  The handlers find the
// parts from the event (this fieldset may sit in a patched region).
function paceFieldset(values, { prefix, onInput = null }) {
  const v = { ...PACE_DEFAULTS, ...values };
  const turn = v.pace === 'turn';
  const seconds = Number(v.move_seconds) || PACE_DEFAULTS.move_seconds;
  const times = MOVE_SECONDS.includes(seconds) ? MOVE_SECONDS : [...MOVE_SECONDS, seconds].sort((a, b) => a - b);
  const show = (e) => {
    const box = e.currentTarget;
    const checked = box.querySelector('input[name=pace]:checked');
    const isTurn = !!checked && checked.value === 'turn';
    box.querySelector('[data-role=pace-turn]').hidden = !isTurn;
    box.querySelector('[data-role=pace-live]').hidden = isTurn;
    if (onInput) onInput(e);
  };
  const choice = (pace) => h('label', { class: 'pace-choice', 'data-pace': pace },
    h('input', { type: 'radio', name: 'pace', value: pace, checked: v.pace === pace, 'aria-describedby': `${prefix}-${pace}-desc` }),
    h('span', { class: 'pace-words' }, h('b', { text: t('pace.' + pace) }),
      h('small', { class: 'opt-desc', id: `${prefix}-${pace}-desc`, text: t(`pace.${pace}_desc`) })));
  return h('fieldset', { class: 'pace', 'data-role': 'pace', onchange: show, oninput: onInput },
    h('legend', { text: t('pace.title') }),
    h('div', { class: 'pace-choices' }, choice('live'), choice('turn')),
    h('div', { class: 'pace-turn row', 'data-role': 'pace-turn', hidden: !turn },
      h('label', { class: 'field' }, t('pace.move_time'),
        h('select', { name: 'move_seconds' }, times.map((s) => h('option', { value: s, selected: s === seconds, text: duration(s) })))),
      h('label', { class: 'field on-deadline' }, t('pace.on_deadline'),
        h('select', { name: 'on_deadline', 'aria-describedby': `${prefix}-deadline-desc` },
          ['bot', 'wait'].map((x) => h('option', { value: x, selected: x === v.on_deadline, text: t('pace.on_deadline_' + x) }))),
        h('small', { class: 'opt-desc', id: `${prefix}-deadline-desc`, text: t('pace.on_deadline_desc') })),
      h('label', { class: 'field vacation' }, t('pace.vacation_days'),
        h('input', { type: 'number', name: 'vacation_days', min: 0, max: 60, step: 1, value: v.vacation_days, 'aria-describedby': `${prefix}-vacation-desc` }),
        h('small', { class: 'opt-desc', id: `${prefix}-vacation-desc`, text: t('pace.vacation_desc') }))),
    h('label', { class: 'field takeover', 'data-role': 'pace-live', hidden: turn }, t('takeover_seconds'),
      takeoverInput(v.takeover_seconds ?? '')));
}

// The pace in words, for those who do not set it (guests, the invitation).
export function paceText(room) {
  if (room.pace !== 'turn') return room.takeover_seconds ? `${t('pace.summary_live')} · ${t('takeover_short')}: ${room.takeover_seconds}` : t('pace.summary_live');
  return t('pace.summary_turn', { time: duration(room.move_seconds || PACE_DEFAULTS.move_seconds),
    what: t('pace.what_' + (room.on_deadline === 'wait' ? 'wait' : 'bot')),
    days: duration((room.vacation_days ?? PACE_DEFAULTS.vacation_days) * 86400) });
}

// The room form: game, variant (presets first), seats, house rules in groups, the pace and
// the room's defaults.  `submit(body)` gets what POST /api/rooms takes besides take_seat
// ({variant, seats, options, rated, takeback, abandoned, pace ...}); it throws the API's
// error, which the form shows (an invalid_options one on the fields it names).  The lobby
// opens a room with it; a club's preset form (clubs.js) keeps it as a preset, with
// `before` (its name field) on top.
export function roomForm(variants, { submit, role = 'create-room', button = 'create', prefix = 'new', before = null }) {
  const ordered = [...variants].sort((a, b) => {
    const fa = FEATURED.indexOf(a.id), fb = FEATURED.indexOf(b.id);
    return (fa < 0 ? 99 : fa) - (fb < 0 ? 99 : fb);
  });
  const families = [...new Set(ordered.map((v) => v.family))];
  const famSel = h('select', { name: 'family' }, families.map((f) => h('option', { value: f, text: t('families.' + f) })));
  const varSel = h('select', { name: 'variant' });
  const seatSel = h('select', { name: 'seats' });
  const presetBox = h('div', { class: 'presets', 'data-role': 'presets' });
  const optBox = h('div', { class: 'options' });
  const err = h('p', { class: 'error', 'data-role': 'create-error' });
  let inputs = [];
  let base = null;  // the variant whose defaults the inputs are compared with

  const changed = () => inputs.filter((x) => !SAME(x.value(), base.defaults[x.name]));
  const showSeats = () => {
    for (const x of inputs) {
      const m = START_TOTAL.exec(x.name);
      if (m) x.el.hidden = Number(m[1]) >= Number(seatSel.value);
    }
    for (const d of optBox.querySelectorAll('details')) {
      d.querySelector('summary small').textContent = ` · ${d.querySelectorAll('.field.option:not([hidden])').length}`;
    }
  };
  const drawPresets = () => {
    const v = base.variant;
    const presets = presetsOf(variants, v);
    clear(presetBox);
    presetBox.hidden = !presets.length;
    if (!presets.length) return;
    const diff = changed().length;
    const pick = (p) => {
      varSel.value = p.id;
      fillVariant();
    };
    presetBox.append(h('span', { class: 'preset-label', text: t('house.preset') }),
      h('div', { class: 'preset-buttons', role: 'radiogroup' },
        presets.map((p) => h('button', { type: 'button', class: `btn preset${p.id === v.id && !diff ? ' on' : ''}`,
          role: 'radio', 'aria-checked': String(p.id === v.id && !diff), 'data-preset': p.id,
          onclick: () => pick(p) }, known('house.presets.' + p.id) || gameName(p.id, p.name))),
        h('button', { type: 'button', class: `btn preset${diff ? ' on' : ''}`, role: 'radio', 'aria-checked': String(!!diff),
          'data-preset': 'custom', onclick: () => { for (const d of optBox.querySelectorAll('details')) d.open = true; } },
        diff ? t('house.customised', { n: diff }) : t('house.custom'))));
  };
  const fillVariants = () => {
    clear(varSel).append(...ordered.filter((v) => v.family === famSel.value)
      .map((v) => h('option', { value: v.id, text: gameName(v.id, v.name) })));
    fillVariant();
  };
  const fillVariant = () => {
    const v = variants.find((x) => x.id === varSel.value);
    if (!v) return;
    const seats = seatSel.value;
    clear(seatSel).append(...v.seat_counts.map((n) => h('option', { value: n, text: String(n) })));
    const usual = v.seat_counts.includes(3) ? 3 : v.seat_counts[0];  // a table of three, when the game allows it
    seatSel.value = v.seat_counts.map(String).includes(seats) ? seats : String(usual);
    base = { variant: v, defaults: defaultsOf(v) };
    const onChange = () => drawPresets();
    inputs = (v.options || []).map((o) => [o, optionInput(o, onChange)]).filter(([, x]) => x);
    const grouped = inputs.some(([o]) => o.group);
    const many = inputs.length > 8;
    clear(optBox);
    if (inputs.length) optBox.append(h('h3', { text: t('house_rules') }));
    if (!grouped) {
      optBox.append(h('div', { class: 'option-list' }, inputs.map(([, x]) => x.el)));
    } else {
      for (const g of GROUPS.concat(['other'])) {
        const mine = inputs.filter(([o]) => (GROUPS.includes(o.group) ? o.group : 'other') === g);
        if (!mine.length) continue;
        const title = g === 'other' ? t('options') : t('house.groups.' + g);
        optBox.append(h('details', { class: 'opt-group', 'data-group': g, open: !many },
          h('summary', null, h('span', { text: title }), h('small', { class: 'muted', text: ` · ${mine.length}` })),
          h('div', { class: 'option-list' }, mine.map(([, x]) => x.el))));
      }
    }
    inputs = inputs.map(([, x]) => x);
    showSeats();
    drawPresets();
  };
  famSel.addEventListener('change', fillVariants);
  varSel.addEventListener('change', fillVariant);
  seatSel.addEventListener('change', showSeats);
  // Rated rooms and take-backs (README "Take-backs"): a rated room allows them only when it says so.
  const rated = h('input', { type: 'checkbox', name: 'rated' });
  const takebackSel = h('select', { name: 'takeback' },
    ['agree', 'off'].map((v) => h('option', { value: v, text: t(`takeback_opt_${v}`) })));
  // The coach (hints at the table) never in a rated room: the server refuses it; the form says so.
  const coach = h('input', { type: 'checkbox', name: 'coach' });
  rated.addEventListener('change', () => {
    takebackSel.value = rated.checked ? 'off' : 'agree';
    if (rated.checked) coach.checked = false;
    coach.disabled = rated.checked;
  });
  // Does a match the host stops before its end count (README "Abandoned matches")?
  const abandonedSel = h('select', { name: 'abandoned' },
    ['ignored', 'counts'].map((v) => h('option', { value: v, text: t(`abandoned_opt_${v}`) })));
  const form = h('form', { class: 'create-room', 'data-role': role },
    before,
    h('div', { class: 'row' },
      h('label', { class: 'field' }, t('game'), famSel),
      h('label', { class: 'field' }, t('variant'), varSel),
      h('label', { class: 'field' }, t('seats_n'), seatSel)),
    presetBox, optBox,
    paceFieldset({}, { prefix: `${prefix}-pace` }),
    h('div', { class: 'row' },
      h('label', { class: 'field check' }, rated, t('rated_room')),
      h('label', { class: 'field' }, t('takeback_option'), takebackSel)),
    h('div', { class: 'row' }, h('label', { class: 'field' }, t('abandoned_option'), abandonedSel),
      h('label', { class: 'field check' }, coach, t('coach_room'))),
    h('button', { type: 'submit', class: 'btn primary', 'data-role': button, text: t(button === 'create' ? 'create' : 'clubs.' + button) }), err);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const options = {};  // only what differs from the chosen variant's own defaults
    for (const x of changed()) if (!(x.el.hidden)) options[x.name] = x.value();
    try {
      await submit({ variant: varSel.value, seats: Number(seatSel.value), options, rated: rated.checked,
        takeback: takebackSel.value, abandoned: abandonedSel.value, coach: coach.checked, ...paceBody(readPace(form)) });
    } catch (ex) {
      err.textContent = errorText(ex);
      for (const el of optBox.querySelectorAll('.field.option.invalid')) el.classList.remove('invalid');
      if (ex.code !== 'invalid_options') return;
      // the engine's sentence names the options: show their labels and mark their fields instead
      const named = inputs.filter((x) => new RegExp(`\\b${x.name}\\b`).test(ex.message || ''));
      for (const x of named) {
        x.el.classList.add('invalid');
        const group = x.el.closest('details');
        if (group) group.open = true;
      }
      const opts = base.variant.options || [];
      err.textContent += ': ' + (named.length ? listOf(named.map((x) => optionText(opts.find((o) => o.name === x.name)).label)) : ex.message);
    }
  });
  fillVariants();
  return form;
}

// A room code as typed (any case, spaces) or a whole invite link: the part the server looks up.
function codeFromInput(text) {
  const s = text.trim();
  const m = /\/room\/([^/?#\s]+)/.exec(s);
  return (m ? decodeURIComponent(m[1]) : s).replace(/\s+/g, '');
}

export function renderNameGate(root, onSaved, code) {
  const form = nameForm(onSaved);
  const box = h('section', { class: 'panel narrow name-gate' }, h('h1', { text: 'Kozyr' }), form);
  clear(root).append(box);
  const roomCode = code || (/^\/room\/([^/]+)\/?$/.exec(location.pathname) || [])[1];
  if (roomCode) {  // a guest who followed an invite: say who invites to what before asking the name
    api.room(decodeURIComponent(roomCode)).then((room) => {
      box.querySelector('h1').replaceWith(h('h1', { class: 'invite-who', 'data-role': 'invite-who', text: inviteLine(room) }));
      box.insertBefore(seatsSummaryEl(room), form);
      box.insertBefore(h('p', { class: 'muted small', text: t('invite_ui.name_hint') }), form);
    }).catch(() => {});
  }
}

export async function renderHome(root, ctx) {
  if (me()) await ensurePlayer().catch(() => null);
  if (ctx.stale && ctx.stale()) return;  // the page moved on (a link, the address) meanwhile
  const who = me();
  clear(root);
  const page = h('div', { class: 'home' });
  root.append(page);
  page.append(h('section', { class: 'panel' },
    who ? h('h1', { text: t('hello', { name: who.name }) }) : h('h1', { text: 'Kozyr' }),
    nameForm(async (name) => { await ctx.savePlayer(name); ctx.rerender(); })));
  if (!who) return;

  const variants = await api.variants().catch(() => []);
  const code = h('input', { type: 'text', name: 'code', placeholder: 'AB3K9XQ2', maxlength: 200, autocapitalize: 'characters',
    autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'join-hint' });
  const join = h('form', { class: 'join', 'data-role': 'join' }, h('label', null, t('join_code'), code),
    h('button', { type: 'submit', class: 'btn', text: t('join') }),
    h('small', { class: 'muted', id: 'join-hint', text: t('invite_ui.join_hint') }));
  join.addEventListener('submit', (e) => {
    e.preventDefault();
    const c = codeFromInput(code.value);
    if (c) ctx.navigate('/room/' + encodeURIComponent(c));
  });
  page.append(h('section', { class: 'panel' }, h('h2', { text: t('create_room') }), roomForm(variants, { submit: async (body) => {
    const room = await api.createRoom(body.variant, body.seats, body.options, body.takeover_seconds, body);
    ctx.navigate(room.invite_path);
  } })),
    h('section', { class: 'panel' }, join));

  const list = h('section', { class: 'panel' }, h('h2', { text: t('my_matches') }));
  page.append(list);
  const matches = await api.myMatches().catch(() => []);
  if (!matches.length) list.append(h('p', { class: 'muted', text: t('no_matches') }));
  else {
    list.append(h('ul', { class: 'matches' }, matches.map((m) => h('li', null,
      ctx.link(`#/match/${m.id}`, `${gameName(m.variant)} — ${t('match_n', { n: m.number })}`),
      h('span', { class: 'muted', text: ` · ${listOf(m.seats.map(seatName))} · ${t('status_' + m.status)} · ` }),
      ctx.link(`/room/${m.room}`, `${t('room')} ${m.room}`)))));
  }
}

// --- the invitation --------------------------------------------------------------------

function inviteLine(room) {
  const host = room.host ? seatName(room.host) : '';
  const game = gameName(room.variant, room.variant_name);
  return t('invite_ui.invites', { host, game: room.preset ? `${room.preset.name} · ${game}` : game });
}

function isHostOf(room) {
  const who = me();
  return !!(who && room.host && room.host.id === who.id);
}

function seatsSummaryEl(room) {
  const free = room.seats.filter((s) => s.player === null).length;
  return h('div', { class: 'invite-seats', 'data-role': 'invite-seats' },
    h('p', { class: 'muted small', text: [t('invite_ui.game_seats', { game: t('families.' + room.family), n: room.seat_count }),
      room.status === 'playing' ? t('invite_ui.playing') : t('invite_ui.free_n', { n: free })].join(' · ') }),
    room.pace === 'turn' ? h('p', { class: 'muted small', 'data-role': 'invite-pace', text: paceText(room) }) : null,
    h('ol', { class: 'invite-seat-list' }, room.seats.map((s) => h('li', { 'data-seat': s.seat, class: s.player === null ? 'free' : '' },
      h('span', { class: `dot ${s.connected ? 'on' : 'off'}` }),
      s.player === null ? h('span', { class: 'muted', text: t('empty_seat') }) : h('span', { class: 'pname', text: seatName(s) })))));
}

function inviteUrl(room) {
  return room.invite_url || (location.origin + room.invite_path);
}

// Copy without navigator.clipboard (plain http): select the link in a textarea and copy.
function copyFallback(field, url) {
  field.value = url;
  field.hidden = false;
  field.focus();
  field.select();
  field.setSelectionRange(0, url.length);
  let ok = false;
  try { ok = document.execCommand('copy'); } catch { ok = false; }
  return ok;
}

// The invite link with Share (Web Share API where present, else copy) and its QR code.
export function inviteEl(room, { qr = true } = {}) {
  const game = gameName(room.variant, room.variant_name);
  return shareLinkEl({ url: inviteUrl(room), qr: qr ? api.qrPath(room.code) : null,
    title: `Kozyr — ${game}`, text: t('invite_ui.share_text', { game }) });
}

// A link to hand on (a room's invitation, a club's invite link): the link, Share (Web Share
// API where present, else copy) and its QR code image (`qr`: its address, or none).
export function shareLinkEl({ url, qr = null, title, text, label = t('invite') }) {
  // The handlers find the link's parts from the button pressed (dom.js: a patch may keep older elements).
  const parts = (e) => {
    const box = e.currentTarget.closest('[data-role="invite"]');
    const part = (role) => box.querySelector(`[data-role="${role}"]`);
    return { status: part('copy-status'), field: part('invite-copy-field'), link: part('invite-link') };
  };
  const copy = async (e) => {
    const { status, field, link } = parts(e);
    let ok = false;
    if (navigator.clipboard && window.isSecureContext) {
      try { await navigator.clipboard.writeText(url); ok = true; } catch { ok = false; }
    }
    if (!ok) {
      ok = copyFallback(field, url);
      link.hidden = true;  // the selected field shows the link now
    }
    status.textContent = ok ? t('copied') : t('invite_ui.copy_hint');
    status.dataset.copied = String(ok);
  };
  const share = async (e) => {
    try {
      await navigator.share({ title, text, url });
    } catch (err) {
      if (!err || err.name !== 'AbortError') await copy(e);
    }
  };
  const canShare = typeof navigator.share === 'function';
  const buttons = h('div', { class: 'invite-buttons' },
    canShare ? h('button', { type: 'button', class: 'btn primary', 'data-role': 'share-invite', onclick: share }, t('invite_ui.share')) : null,
    h('button', { type: 'button', class: `btn${canShare ? '' : ' primary'}`, 'data-role': 'copy-invite', onclick: copy }, t('invite_ui.copy')));
  const qrImg = qr ? h('img', { class: 'qr', 'data-role': 'invite-qr', src: qr,
    alt: t('invite_ui.qr_alt'), width: 136, height: 136, loading: 'lazy' }) : null;
  return h('div', { class: 'invite', 'data-role': 'invite' },
    h('div', { class: 'invite-main' },
      h('span', { class: 'invite-label', text: label }),
      h('code', { class: 'invite-link', 'data-role': 'invite-link', text: url }),
      h('textarea', { class: 'copy-field', 'data-role': 'invite-copy-field', readonly: true, rows: 2, hidden: true, 'aria-label': label }),
      buttons,
      h('p', { class: 'copy-status small', 'data-role': 'copy-status', 'aria-live': 'polite' })),
    qrImg ? h('figure', { class: 'qr-box' }, qrImg, h('figcaption', { class: 'muted small', text: t('invite_ui.scan') })) : null);
}

let panel = null;  // the open invite panel: {room, el, giveBack}

function drawInvitePanel() {
  if (!panel) return;
  const { room } = panel;
  const close = () => closeInvitePanel();
  const body = h('div', { class: 'lobby-dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'invite-title', 'data-role': 'invite-panel' },
    h('div', { class: 'dialog-head' },
      h('h2', { id: 'invite-title', text: t('invite_ui.title') }),
      h('button', { type: 'button', class: 'btn ghost small', 'data-role': 'close-invite', onclick: close, 'aria-label': t('close') }, '✕')),
    h('p', { class: 'invite-who', 'data-role': 'invite-who', text: isHostOf(room) ? gameName(room.variant, room.variant_name) : inviteLine(room) }),
    seatsSummaryEl(room),
    inviteEl(room),
    h('p', { class: 'muted small', text: t('invite_ui.watch') }));
  clear(panel.el).append(body);
}

// The invite link, the QR code and the seats over the page (the table opens it during a match).
export function openInvitePanel(room) {
  if (!panel) {
    const el = h('div', { class: 'lobby-overlay', 'data-role': 'invite-overlay' });
    el.addEventListener('click', (e) => { if (e.target === el) closeInvitePanel(); });
    const giveBack = holdFocus(el, () => closeInvitePanel());
    document.body.append(el);
    panel = { el, giveBack };
  }
  panel.room = room;
  drawInvitePanel();
  const first = panel.el.querySelector('[data-role=copy-invite]');
  if (first) first.focus();
  return { update: (r) => { if (panel) { panel.room = r; drawInvitePanel(); } }, close: closeInvitePanel };
}

export function closeInvitePanel() {
  const open = panel;
  panel = null;
  if (open) {
    open.el.remove();
    open.giveBack();
  }
}

onLang(() => drawInvitePanel());

// --- the room's lobby ------------------------------------------------------------------

// A seat's person or bot: the name (a bot's in the reader's language) and its badges.
function seatWho(s, room, who) {
  if (s.player === null) return [h('span', { class: 'muted', text: t('empty_seat') })];
  if (s.is_bot) {
    return [h('span', { class: 'badge bot', text: t('bot') }),
      h('span', { class: 'pname bot-name', 'data-level': s.level || '', text: seatName(s) })];
  }
  return [h('span', { class: 'pname', text: s.name }),
    s.player === room.host.id ? h('span', { class: 'badge', text: t('host') }) : null,
    who && s.player === who.id ? h('span', { class: 'badge', text: t('you') }) : null,
    s.takeover ? h('span', { class: 'badge takeover', text: t('takeover') }) : null];
}

// The host's controls for one seat between matches: a bot with a level in an empty seat, or away with it.
function botControls(s, ctx) {
  if (s.is_bot) {
    return h('button', { type: 'button', class: 'btn ghost small', 'data-role': 'remove-bot', 'data-seat': s.seat,
      onclick: () => ctx.removeBot(s.seat) }, t('remove_bot'));
  }
  if (s.player !== null) return null;
  const chosen = ctx.draft.levels[s.seat] || 'basic';
  const level = h('select', { class: 'bot-level', 'data-role': 'bot-level', 'data-seat': s.seat, 'aria-label': t('bot_level'),
    onchange: (e) => { ctx.draft.levels[s.seat] = e.currentTarget.value; } },
  BOT_LEVELS.map((lv) => h('option', { value: lv, selected: lv === chosen, text: t('bot_levels.' + lv), title: t('bot_about.' + lv) })));
  return h('span', { class: 'add-bot' }, level,
    h('button', { type: 'button', class: 'btn small', 'data-role': 'add-bot', 'data-seat': s.seat,
      onclick: (e) => ctx.addBot(s.seat, e.currentTarget.parentElement.querySelector('select').value) }, t('add_bot')));
}

// The host's room settings between matches: the pace (live with its turn clock, or
// turn-based with its deadline).  Unsent choices live in ctx.draft, so a redraw of the
// lobby (someone sits down) shows them, not the room's.
function takeoverForm(room, ctx) {
  const saved = { pace: room.pace || 'live', move_seconds: room.move_seconds, on_deadline: room.on_deadline,
    vacation_days: room.vacation_days, takeover_seconds: String(room.takeover_seconds || 0) };
  const values = { ...saved, ...(ctx.draft.pace || {}) };
  if (ctx.draft.takeover !== undefined) values.takeover_seconds = ctx.draft.takeover;
  const remember = (e) => {
    const form = e.currentTarget.closest('form');
    ctx.draft.pace = readPace(form);
    ctx.draft.takeover = form.elements.takeover_seconds.value;
  };
  return h('form', { class: 'takeover-form room-settings', 'data-role': 'takeover-form', onsubmit: (e) => {
    e.preventDefault();
    const p = readPace(e.currentTarget);
    ctx.draft.takeover = undefined;
    ctx.draft.pace = undefined;
    ctx.setSettings(paceBody(p, { takeoverZero: true }));
  } },
  h('h2', { class: 'settings-title', text: t('pace.settings') }),
  paceFieldset(values, { prefix: 'room-pace', onInput: remember }),
  h('button', { type: 'submit', class: 'btn', 'data-role': 'save-settings', text: t('save') }));
}

let variantList = null;  // GET /api/variants, once: the defaults the room's rules are compared with
export function variantsOnce() {
  variantList = variantList || api.variants().catch(() => { variantList = null; return []; });
  return variantList;
}

// The room's house rules in words: the preset when nothing differs, else what differs from it.
// `variants` (GET /api/variants) comes with the page's state: a region is drawn from what it
// is given, never filled in later (a patch may keep an older element in its place).
function roomOptionsEl(room, variants) {
  if (!variants) return h('div', { class: 'room-rules', 'data-role': 'room-rules' });
  const v = variants.find((x) => x.id === room.variant);
  const defaults = v ? defaultsOf(v) : {};
  const opts = Object.entries(room.options || {}).filter(([k, val]) => !(k in defaults) || !SAME(val, defaults[k]));
  const preset = known('house.presets.' + room.variant);
  return h('div', { class: 'room-rules', 'data-role': 'room-rules' },
    preset ? h('p', { class: 'muted small', text: `${t('house.preset')}: ${preset}` }) : null,
    opts.length ? h('ul', { class: 'room-options muted small' },
      opts.map(([k, val]) => h('li', null, h('span', { text: `${optionText({ name: k }).label}: ` }), h('b', { text: optionValueText(k, val) })))) : null);
}

// What a club preset's rules change from the variant's defaults, in words (the API's
// `differs`: [{option, value, default}]); none: "the game's usual rules".
export function differsEl(differs) {
  if (!differs || !differs.length) return h('p', { class: 'muted small', 'data-role': 'preset-differs', text: t('clubs.usual_rules') });
  return h('ul', { class: 'room-options muted small', 'data-role': 'preset-differs' }, differs.map((d) => h('li', { 'data-option': d.option },
    h('span', { text: `${optionText({ name: d.option }).label}: ` }), h('b', { text: optionValueText(d.option, d.value) }),
    h('span', { text: ` (${t('clubs.instead_of', { value: optionValueText(d.option, d.default) })})` }))));
}

// A room opened from a club preset: the club, the preset's name and what it changes.
export function presetEl(preset) {
  return h('div', { class: 'preset-info', 'data-role': 'preset-info' },
    h('p', { class: 'preset-name' }, preset.club ? h('span', { class: 'muted', text: `${preset.club.name} · ` }) : null,
      h('b', { 'data-role': 'preset-name', text: preset.name })),
    differsEl(preset.differs));
}

// A link to a match's history that opens it as a panel over the room (the live
// connection stays); a click with a modifier still opens the page in a new tab.
export function historyLink(matchId, text, cls) {
  return h('a', { href: `#/match/${matchId}`, class: cls, text, 'data-role': 'history-link', onclick: (e) => {
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    openHistoryPanel(matchId);
  } });
}

// The room's seats and invitation (shown while waiting, and above a finished match).
export function roomLobbyEl(room, ctx) {
  const who = me();
  const mySeat = room.seats.find((s) => who && s.player === who.id);
  const isHost = who && room.host.id === who.id;
  const full = room.seats.every((s) => s.player !== null);
  const seats = h('ul', { class: 'seat-list' }, room.seats.map((s) => h('li', { class: `seat-row${s.player === (who && who.id) ? ' mine' : ''}`, 'data-seat': s.seat },
    h('span', { class: 'seat-no', text: `${t('seat')} ${s.seat + 1}` }),
    h('span', { class: `dot ${s.connected ? 'on' : 'off'}` }),
    h('span', { class: 'seat-who' }, seatWho(s, room, who)),
    room.status !== 'playing' && s.player === null && !mySeat
      ? h('button', { type: 'button', class: 'btn primary small', 'data-role': 'take-seat', 'data-seat': s.seat,
        onclick: () => ctx.seat(s.seat, true) }, t('take_seat')) : null,
    room.status !== 'playing' && who && s.player === who.id
      ? h('button', { type: 'button', class: 'btn ghost small', 'data-role': 'leave-seat', onclick: () => ctx.seat(s.seat, false) }, t('leave_seat')) : null,
    room.status !== 'playing' && isHost ? botControls(s, ctx) : null)));
  const actions = h('div', { class: 'lobby-actions' });
  if (room.status === 'waiting') {
    if (isHost) {
      actions.append(h('button', { type: 'button', class: 'btn primary', 'data-role': 'start', disabled: !full, onclick: () => ctx.start() }, t('start')));
    }
    if (!full || !isHost) actions.append(h('p', { class: 'muted', text: full ? t('waiting_host') : t('waiting_players') }));
  } else if (room.status === 'finished' || room.status === 'abandoned') {
    if (room.status === 'abandoned') actions.append(h('p', { class: 'abandoned-note', 'data-role': 'abandoned-note', text: t('match_abandoned') }));
    if (isHost) actions.append(h('button', { type: 'button', class: 'btn primary', 'data-role': 'rematch', disabled: !full, onclick: () => ctx.rematch() }, t('rematch')));
    else actions.append(h('p', { class: 'muted', text: t('waiting_host') }));
  }
  if (room.match) actions.append(historyLink(room.match.id, t('history'), 'btn ghost'));
  return h('section', { class: 'panel lobby', 'data-room': room.code },
    h('h1', null, gameName(room.variant, room.variant_name), ' ', h('small', { class: 'muted', text: `${t('room')} ${room.code}` })),
    isHost ? null : h('p', { class: 'invite-who', 'data-role': 'invite-who', text: inviteLine(room) }),
    room.preset ? presetEl(room.preset) : null,  // a club preset's room: its name and what it changes, first
    inviteEl(room),
    seats,
    isHost ? takeoverForm(room, ctx)
      : h('p', { class: 'muted small room-pace', 'data-role': 'room-pace', 'data-pace': room.pace || 'live', text: paceText(room) }),
    room.preset ? null : roomOptionsEl(room, ctx.variants),
    actions);
}
