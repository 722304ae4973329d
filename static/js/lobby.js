// The home page (name, new room with house rules, my matches) and the room's lobby (seats).

import { h, clear } from './dom.js';
import { t, variantName, cardText, botName, BOT_LEVELS } from './i18n.js';
import { api, me, ensurePlayer } from './api.js';

const OPTION_LABELS = {
  en: { goal: 'Play to', round5_up: 'A 5 rounds up', order: 'Order of the negative deals',
    king_strict: 'K♥ must also go under a led A♥', reigns: 'Reigns after the crowning', first_lead_card: 'Its holder leads first' },
  ru: { goal: 'Играть до', round5_up: '5 округляется вверх', order: 'Порядок игр на минус',
    king_strict: 'Кинг ♥ сносится и под туза ♥', reigns: 'Правлений после коронации', first_lead_card: 'Первым ходит владелец карты' },
  pl: { goal: 'Gra do', round5_up: '5 zaokrąglamy w górę', order: 'Kolejność gier na minus',
    king_strict: 'Król ♥ musi też pójść pod asa ♥', reigns: 'Panowań po koronacji', first_lead_card: 'Pierwszy wychodzi posiadacz karty' },
};

function optionLabel(opt) {
  const lang = document.documentElement.lang;
  return (OPTION_LABELS[lang] && OPTION_LABELS[lang][opt.name]) || opt.label || opt.name;
}

function optionValue(value) {
  if (Array.isArray(value)) return value.map((x) => (t('contracts.' + x) === x ? x : t('contracts.' + x))).join(' › ');
  if (typeof value === 'boolean') return value ? '✓' : '✗';
  if (typeof value === 'string' && /^[2-9TJQKA][SCDH]$/.test(value)) return cardText(value);
  return String(value);
}

// One input per option of the variant's options_schema; returns {el, value()}.
function optionInput(opt) {
  const id = `opt-${opt.name}`;
  let el;
  let value;
  switch (opt.type) {
    case 'int': {
      el = h('input', { id, type: 'number', min: opt.min, max: opt.max, step: opt.step || 1, value: opt.default, name: opt.name });
      value = () => Number(el.value);
      break;
    }
    case 'bool': {
      el = h('input', { id, type: 'checkbox', checked: !!opt.default, name: opt.name });
      value = () => el.checked;
      break;
    }
    case 'choice':
    case 'card': {
      el = h('select', { id, name: opt.name }, (opt.allowed || []).map((v) => h('option', {
        value: typeof v === 'string' ? v : JSON.stringify(v), selected: v === opt.default,
        text: opt.type === 'card' ? cardText(v) : String(v),
      })));
      value = () => (opt.allowed.find((v) => (typeof v === 'string' ? v : JSON.stringify(v)) === el.value));
      break;
    }
    case 'permutation': {
      const order = [...(opt.default || opt.allowed || [])];
      el = h('ol', { id, class: 'permutation', 'data-name': opt.name });
      const draw = () => {
        clear(el);
        order.forEach((item, i) => el.append(h('li', null,
          h('span', { text: t('contracts.' + item) === item ? item : t('contracts.' + item) }),
          h('button', { type: 'button', class: 'btn tiny', disabled: i === 0, 'aria-label': '↑',
            onclick: () => { [order[i - 1], order[i]] = [order[i], order[i - 1]]; draw(); } }, '↑'),
          h('button', { type: 'button', class: 'btn tiny', disabled: i === order.length - 1, 'aria-label': '↓',
            onclick: () => { [order[i + 1], order[i]] = [order[i], order[i + 1]]; draw(); } }, '↓'))));
      };
      draw();
      value = () => [...order];
      break;
    }
    default:
      return null;
  }
  const rule = h('small', { class: 'muted rule', text: opt.rule || '' });
  if (opt.type === 'bool') {
    return { el: h('div', { class: 'field option check' }, h('label', { for: id, class: 'check' }, el, optionLabel(opt), ' ', rule)), value };
  }
  return { el: h('div', { class: 'field option' }, h('label', { for: id }, h('span', null, optionLabel(opt), ' ', rule)), el), value };
}

function nameForm(onSaved) {
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
      err.textContent = ex.message;
    }
  });
  return form;
}

// Seconds after which a bot plays for a player who does not act (0: never).
function takeoverInput(value) {
  return h('input', { type: 'number', name: 'takeover_seconds', min: 0, max: 86400, step: 1, value, placeholder: '0' });
}

// A seat's person or bot: the name (a bot's in the reader's language) and its badges.
function seatWho(s, room, who) {
  if (s.player === null) return [h('span', { class: 'muted', text: t('empty_seat') })];
  if (s.is_bot) {
    return [h('span', { class: 'badge bot', text: t('bot') }),
      h('span', { class: 'pname bot-name', 'data-level': s.level || '', text: botName(s.level || 'basic') })];
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
    onchange: () => { ctx.draft.levels[s.seat] = level.value; } },
  BOT_LEVELS.map((lv) => h('option', { value: lv, selected: lv === chosen, text: t('bot_levels.' + lv) })));
  return h('span', { class: 'add-bot' }, level,
    h('button', { type: 'button', class: 'btn small', 'data-role': 'add-bot', 'data-seat': s.seat,
      onclick: () => ctx.addBot(s.seat, level.value) }, t('add_bot')));
}

function takeoverForm(room, ctx) {
  const current = String(room.takeover_seconds || 0);
  const input = takeoverInput(ctx.draft.takeover ?? current);
  input.addEventListener('input', () => { ctx.draft.takeover = input.value; });
  const form = h('form', { class: 'takeover-form', 'data-role': 'takeover-form' },
    h('label', null, t('takeover_short'), ' ', input),
    h('button', { type: 'submit', class: 'btn small', text: t('set') }));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    ctx.draft.takeover = undefined;
    ctx.setTakeover(input.value.trim() === '' ? 0 : Number(input.value));
  });
  return form;
}

export function renderNameGate(root, onSaved) {
  clear(root).append(h('section', { class: 'panel narrow' }, h('h1', { text: 'Kozyr' }), nameForm(onSaved)));
}

export async function renderHome(root, ctx) {
  if (me()) await ensurePlayer().catch(() => null);
  const who = me();
  clear(root);
  const page = h('div', { class: 'home' });
  root.append(page);
  page.append(h('section', { class: 'panel' },
    who ? h('h1', { text: t('hello', { name: who.name }) }) : h('h1', { text: 'Kozyr' }),
    nameForm(async (name) => { await ctx.savePlayer(name); ctx.rerender(); })));
  if (!who) return;

  // New room
  const variants = await api.variants().catch(() => []);
  const families = [...new Set(variants.map((v) => v.family))];
  const famSel = h('select', { name: 'family' }, families.map((f) => h('option', { value: f, text: t('families.' + f) })));
  const varSel = h('select', { name: 'variant' });
  const seatSel = h('select', { name: 'seats' });
  const optBox = h('div', { class: 'options' });
  const err = h('p', { class: 'error' });
  let inputs = [];
  const fillVariants = () => {
    clear(varSel).append(...variants.filter((v) => v.family === famSel.value)
      .map((v) => h('option', { value: v.id, text: variantName(v.id, v.name) })));
    fillVariant();
  };
  const fillVariant = () => {
    const v = variants.find((x) => x.id === varSel.value);
    if (!v) return;
    clear(seatSel).append(...v.seat_counts.map((n) => h('option', { value: n, text: String(n), selected: n === v.seat_counts[0] })));
    inputs = (v.options || []).map((o) => [o, optionInput(o)]).filter(([, x]) => x);
    clear(optBox).append(inputs.length ? h('h3', { text: t('house_rules') }) : '', h('div', { class: 'option-list' }, inputs.map(([, x]) => x.el)));
  };
  const takeover = takeoverInput('');
  famSel.addEventListener('change', fillVariants);
  varSel.addEventListener('change', fillVariant);
  const form = h('form', { class: 'create-room', 'data-role': 'create-room' },
    h('div', { class: 'row' },
      h('label', { class: 'field' }, t('game'), famSel),
      h('label', { class: 'field' }, t('variant'), varSel),
      h('label', { class: 'field' }, t('seats_n'), seatSel)),
    optBox,
    h('label', { class: 'field takeover' }, t('takeover_seconds'), takeover),
    h('button', { type: 'submit', class: 'btn primary', 'data-role': 'create', text: t('create') }), err);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const options = {};
    for (const [o, x] of inputs) options[o.name] = x.value();
    try {
      const secs = takeover.value.trim() === '' ? undefined : Number(takeover.value);
      const room = await api.createRoom(varSel.value, Number(seatSel.value), options, secs);
      ctx.navigate(room.invite_path);
    } catch (ex) {
      err.textContent = ex.message;
    }
  });
  fillVariants();
  const code = h('input', { type: 'text', name: 'code', placeholder: 'ABC123', maxlength: 32 });
  const join = h('form', { class: 'join', 'data-role': 'join' }, h('label', null, t('join_code'), code),
    h('button', { type: 'submit', class: 'btn', text: t('join') }));
  join.addEventListener('submit', (e) => { e.preventDefault(); if (code.value.trim()) ctx.navigate('/room/' + encodeURIComponent(code.value.trim())); });
  page.append(h('section', { class: 'panel' }, h('h2', { text: t('create_room') }), form), h('section', { class: 'panel' }, join));

  // My matches
  const list = h('section', { class: 'panel' }, h('h2', { text: t('my_matches') }));
  page.append(list);
  const matches = await api.myMatches().catch(() => []);
  if (!matches.length) list.append(h('p', { class: 'muted', text: t('no_matches') }));
  else {
    list.append(h('ul', { class: 'matches' }, matches.map((m) => h('li', null,
      ctx.link(`#/match/${m.id}`, `${variantName(m.variant)} — ${t('match_n', { n: m.number })}`),
      h('span', { class: 'muted', text: ` · ${m.seats.map((x) => x.name).join(', ')} · ${t('status_' + m.status)} · ` }),
      ctx.link(`/room/${m.room}`, `${t('room')} ${m.room}`)))));
  }
}

// The room's seats and invite link (shown while waiting, and above a finished match).
export function roomLobbyEl(room, ctx) {
  const who = me();
  const mySeat = room.seats.find((s) => who && s.player === who.id);
  const isHost = who && room.host.id === who.id;
  const full = room.seats.every((s) => s.player !== null);
  const copyBtn = h('button', { type: 'button', class: 'btn', 'data-role': 'copy-invite', text: t('copy') });
  const link = room.invite_url || (location.origin + room.invite_path);
  copyBtn.addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(link); copyBtn.textContent = t('copied'); } catch {
      const sel = window.getSelection(); const r = document.createRange(); r.selectNodeContents(linkEl); sel.removeAllRanges(); sel.addRange(r);
    }
  });
  const linkEl = h('code', { class: 'invite-link', 'data-role': 'invite-link', text: link });
  const seats = h('ul', { class: 'seat-list' }, room.seats.map((s) => h('li', { class: `seat-row${s.player === (who && who.id) ? ' mine' : ''}`, 'data-seat': s.seat },
    h('span', { class: 'seat-no', text: `${t('seat')} ${s.seat + 1}` }),
    h('span', { class: `dot ${s.connected ? 'on' : 'off'}` }),
    seatWho(s, room, who),
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
  } else if (room.status === 'finished') {
    if (isHost) actions.append(h('button', { type: 'button', class: 'btn primary', 'data-role': 'rematch', disabled: !full, onclick: () => ctx.rematch() }, t('rematch')));
    else actions.append(h('p', { class: 'muted', text: t('waiting_host') }));
  }
  if (room.match) actions.append(ctx.link(`#/match/${room.match.id}`, t('history'), 'btn ghost'));
  const opts = Object.entries(room.options || {});
  return h('section', { class: 'panel lobby', 'data-room': room.code },
    h('h1', null, variantName(room.variant, room.variant_name), ' ', h('small', { class: 'muted', text: `${t('room')} ${room.code}` })),
    h('div', { class: 'invite' }, h('span', { text: t('invite') + ': ' }), linkEl, copyBtn),
    seats,
    isHost ? takeoverForm(room, ctx)
      : (room.takeover_seconds ? h('p', { class: 'muted small', text: `${t('takeover_short')}: ${room.takeover_seconds}` }) : null),
    opts.length ? h('ul', { class: 'room-options muted small' },
      opts.map(([k, v]) => h('li', null, h('span', { text: `${optionLabel({ name: k })}: ` }), h('b', { text: optionValue(v) })))) : null,
    actions);
}
