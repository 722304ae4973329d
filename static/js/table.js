// The card table: seats around, the trick in the middle, your hand and your choices.
// Every control comes from view.legal; nothing here knows a rule of any game.

import { h } from './dom.js';
import { t, titleName } from './i18n.js';
import { cardEl, backEl, suitEl } from './cards.js';
import { groupLegal, actionLabel } from './actions.js';
import { scoresEl } from './scores.js';

// Where seat `seat` sits on screen, seen from `base` (your seat, or 0 for a spectator).
function position(seat, base, n) {
  const r = (seat - base + n) % n;
  if (r === 0) return 'bottom';
  if (n === 2) return 'top';
  if (n === 3) return r === 1 ? 'left' : 'right';
  return ['bottom', 'left', 'top', 'right'][r] || 'top';
}

function seatStats(view, seat) {
  const bits = [];
  const fam = familyOf(view.variant);
  if (fam === 'thousand') {
    const calls = (view.bids || []).filter(([s]) => s === seat);
    if (calls.length && view.phase === 'bidding') {
      const last = calls[calls.length - 1][1];
      bits.push(h('span', { class: 'call', text: actionLabel(last) }));
    }
    if (view.declarer === seat) {
      bits.push(h('span', { class: 'badge declarer', text: `${t('declarer')} ${view.contract ?? view.bid ?? ''}` }));
    }
    const marr = (view.marriages || []).filter(([s]) => s === seat);
    if (marr.length) bits.push(h('span', { class: 'badge' }, t('marriage_word') + ' ', marr.map(([, suit]) => suitEl(suit))));
    if (view.tricks_won && view.phase === 'play') bits.push(h('span', { class: 'tricks', text: `${t('tricks')}: ${view.tricks_won[seat]}` }));
  } else if (fam === 'king') {
    if (view.tricks_taken) bits.push(h('span', { class: 'tricks', text: `${t('tricks')}: ${view.tricks_taken[seat]}` }));
  } else if (fam === 'korol') {
    if (view.tallies) bits.push(h('span', { class: 'tricks', text: `${t('tally')}: ${view.tallies[seat]}` }));
    const nt = view.new_titles && view.new_titles[seat];
    if (nt) bits.push(h('span', { class: `badge t-${nt}`, text: '→ ' + titleName(nt, view.variant) }));
  }
  return bits;
}

export function familyOf(variant) {
  return String(variant || '').split('-')[0].replace('krol', 'korol');
}

function seatBox(view, seat, ctx, pos) {
  const toAct = (view.to_act || []).includes(seat);
  const isDealer = view.dealer === seat;
  const active = !view.active || view.active.includes(seat);
  const title = view.titles && view.titles[seat];
  const count = (view.hand_sizes || [])[seat] ?? 0;
  const info = (ctx.seatInfo && ctx.seatInfo(seat)) || {};
  const fan = pos === 'bottom' ? null : h('div', { class: 'fan' },
    Array.from({ length: Math.min(count, 9) }, () => backEl({ small: true })),
    h('span', { class: 'count', text: String(count) }));
  return h('div', {
    class: `seat seat-${pos}${toAct ? ' to-act' : ''}${info.takeover ? ' takeover' : ''}${active ? '' : ' inactive'}${seat === view.seat ? ' mine' : ''}`,
    'data-seat': seat,
  },
  h('div', { class: 'seat-head' },
    h('span', { class: `dot ${ctx.connected(seat) ? 'on' : 'off'}`, title: ctx.connected(seat) ? t('online') : t('offline') }),
    info.is_bot ? h('span', { class: 'badge bot', text: t('bot') }) : null,
    h('span', { class: 'pname', text: ctx.name(seat) }),
    info.takeover && !info.is_bot ? h('span', { class: 'badge takeover', 'data-role': 'takeover', text: t('takeover') }) : null,
    title ? h('span', { class: `badge t-${title}`, text: titleName(title, view.variant) }) : null,
    isDealer ? h('span', { class: 'chip', title: t('dealer'), text: 'D' }) : null,
    toAct ? h('span', { class: 'turn-arrow', 'aria-label': t('your_turn'), text: '◂' }) : null),
  h('div', { class: 'seat-stats' }, seatStats(view, seat)),
  fan);
}

function infoStrip(view, ctx) {
  const fam = familyOf(view.variant);
  const items = [
    h('span', { class: 'phase', text: `${t('deal_n', { n: view.deal ?? '' })} · ${t('phases.' + view.phase)}` }),
  ];
  if (view.trump) items.push(h('span', { class: 'trump' }, t('trump') + ': ', suitEl(view.trump)));
  else if (view.phase === 'play' && fam !== 'king') items.push(h('span', { class: 'trump muted', text: t('no_trump') }));
  if (fam === 'king' && view.contract) {
    const label = view.contract === 'trump'
      ? t('contracts.trump') : t('contracts.' + view.contract);
    items.push(h('span', { class: 'contract' }, label));
    if (view.chooser !== null && view.chooser !== undefined) items.push(h('span', { class: 'muted', text: ctx.name(view.chooser) }));
  }
  if (fam === 'thousand' && view.declarer !== null && view.declarer !== undefined) {
    items.push(h('span', { class: 'contract', text: `${ctx.name(view.declarer)}: ${view.contract ?? view.bid}` }));
  }
  if (fam === 'korol' && view.round !== undefined) {
    items.push(h('span', { class: 'round', text: view.round === 0 ? t('crowning') : t('reign_n', { n: view.round }) }));
  }
  return h('div', { class: 'info-strip' }, items);
}

function trickEl(cards, base, n, cls, winner, ctx) {
  return h('div', { class: `trick ${cls} n${n}` },
    (cards || []).map(([seat, card]) => h('div', { class: `slot slot-${position(seat, base, n)}${seat === winner ? ' winner' : ''}` },
      cardEl(card), h('span', { class: 'slot-name', text: ctx.name(seat) }))));
}

function faceUpEl(view) {
  if (!view.face_up || !view.face_up.length) return null;
  const fam = familyOf(view.variant);
  const label = fam === 'thousand' ? t('talon') : t('trump');
  return h('div', { class: 'face-up' }, h('span', { class: 'label', text: label }),
    h('div', { class: 'cards' }, view.face_up.map((c) => cardEl(c, { small: true }))));
}

function talonBacks(view) {
  const n = view.talon_size;
  if (!n || (view.face_up && view.face_up.length)) return null;
  return h('div', { class: 'face-up' }, h('span', { class: 'label', text: t('talon') }),
    h('div', { class: 'cards' }, Array.from({ length: n }, () => backEl({ small: true }))));
}

function numericControl(kind, list, ctx) {
  const quick = list.slice(0, 4);
  const rest = list.slice(quick.length);
  const chosen = ctx.numChoice[kind] && rest.some((p) => p.raw === ctx.numChoice[kind]) ? ctx.numChoice[kind] : (rest[0] || list[0]).raw;
  const wrap = h('div', { class: 'numeric' },
    quick.map((p) => actButton(p.raw, ctx, 'call')));
  if (list.length > quick.length) {
    const select = h('select', { class: 'num-select', 'aria-label': t(kind) },
      rest.map((p) => h('option', { value: p.raw, selected: p.raw === chosen, text: String(p.n) })));
    const go = h('button', { class: 'btn call', type: 'button', 'data-action': chosen, disabled: ctx.busy,
      onclick: () => ctx.act(go.dataset.action) }, actionLabel(chosen));
    select.addEventListener('change', () => {
      ctx.numChoice[kind] = select.value;
      go.dataset.action = select.value;
      go.replaceChildren(...suitedText(actionLabel(select.value)));
    });
    wrap.append(h('span', { class: 'more' }, select, go));
  }
  return wrap;
}

// A label as text nodes, with the red suits (♦ ♥) in red.
export function suitedText(text) {
  return String(text).split(/([♦♥])/).filter(Boolean).map((part) => (part === '♦' || part === '♥'
    ? h('span', { class: 'suit red', text: part }) : part));
}

function actButton(action, ctx, cls = '') {
  return h('button', {
    type: 'button', class: `btn ${cls}`, 'data-action': action, disabled: ctx.busy,
    onclick: () => ctx.act(action),
  }, suitedText(actionLabel(action, ctx.name)));
}

function cardChoice(card, list, ctx) {
  // One action: do it.  Several (play or marriage; give to whom): ask.
  if (list.length === 1) return ctx.act(list[0].raw);
  ctx.choose(card);
}

function controlsEl(view, groups, ctx) {
  const mine = view.seat !== null && view.seat !== undefined && (view.to_act || []).includes(view.seat);
  const rows = [];
  if (!mine) {
    const waiting = (view.to_act || []).map((s) => ctx.name(s)).join(', ');
    rows.push(h('div', { class: 'prompt muted', text: view.phase === 'match_over' ? t('match_over') : t('waiting_for', { names: waiting }) }));
    return h('div', { class: 'controls', 'data-mine': 'false' }, rows);
  }
  rows.push(h('div', { class: 'prompt mine', text: `${t('your_turn')}: ${t('prompts.' + view.phase)}` }));
  if (ctx.chooser && groups.byCard.has(ctx.chooser)) {
    rows.push(h('div', { class: 'chooser' },
      cardEl(ctx.chooser, { small: true }),
      groups.byCard.get(ctx.chooser).map((p) => actButton(p.raw, ctx, p.kind === 'marriage' ? 'marriage' : 'primary')),
      h('button', { type: 'button', class: 'btn ghost', onclick: () => ctx.choose(null), text: t('cancel') })));
  }
  // Card actions on cards that are not in your hand (a shown talon, the Peasant's shown hand).
  const hand = new Set(view.hand || []);
  const outside = [...groups.byCard.keys()].filter((c) => !hand.has(c));
  if (outside.length) {
    rows.push(h('div', { class: 'outside-cards' }, outside.map((c) => {
      const list = groups.byCard.get(c);
      const el = cardEl(c, { extraClass: 'playable' });
      el.dataset.actions = list.map((p) => p.raw).join(' ');
      el.tabIndex = 0;
      el.title = list.map((p) => actionLabel(p, ctx.name)).join(' / ');
      el.addEventListener('click', () => { if (!ctx.busy) cardChoice(c, list, ctx); });
      return el;
    })));
  }
  for (const [kind, list] of groups.numeric) rows.push(numericControl(kind, list, ctx));
  if (groups.buttons.length) {
    rows.push(h('div', { class: 'buttons' }, groups.buttons.map((p) =>
      actButton(p.raw, ctx, ['throw', 'refuse', 'strike'].includes(p.kind) ? 'danger' : (p.kind === 'pass' ? 'pass' : 'primary')))));
  }
  return h('div', { class: 'controls', 'data-mine': 'true' }, rows);
}

function handEl(view, groups, ctx) {
  const mine = (view.to_act || []).includes(view.seat);
  const anyCardAction = groups.byCard.size > 0;
  const cards = (view.hand || []).map((c) => {
    const list = groups.byCard.get(c) || [];
    const playable = mine && list.length > 0;
    const el = cardEl(c, { extraClass: playable ? 'playable' : (mine && anyCardAction ? 'dimmed' : '') });
    if (playable) {
      el.dataset.actions = list.map((p) => p.raw).join(' ');
      el.tabIndex = 0;
      el.setAttribute('role', 'button');
      el.title = list.map((p) => actionLabel(p, ctx.name)).join(' / ');
      el.addEventListener('click', () => { if (!ctx.busy) cardChoice(c, list, ctx); });
      el.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); el.click(); } });
      if (ctx.chooser === c) el.classList.add('chosen');
    } else if (mine && anyCardAction) {
      el.setAttribute('aria-disabled', 'true');
    }
    return el;
  });
  return h('div', { class: `hand${cards.length > 12 ? ' many' : ''}`, 'data-count': cards.length }, cards);
}

function logEl(view, ctx) {
  const entries = (view.log || []).slice(-4);
  if (!entries.length) return null;
  return h('ol', { class: 'deal-log' }, entries.map(([seat, a]) => h('li', null,
    seat === null ? null : h('b', { text: ctx.name(seat) + ': ' }),
    h('span', null, suitedText(actionLabel(a, ctx.name))))));
}

function lastDealEl(view, ctx) {
  if (!view.last_deal || !view.last_deal.scores) return null;
  const n = view.last_deal.scores.length;
  return h('div', { class: 'last-deal' }, h('span', { class: 'label', text: `${t('last_deal')} (${view.last_deal.deal}):` }),
    Array.from({ length: n }, (_, s) => h('span', { class: 'ld', text: `${ctx.name(s)} ${view.last_deal.scores[s] > 0 ? '+' : ''}${view.last_deal.scores[s]}` })));
}

export function tableEl(view, ctx) {
  const n = view.seats || (view.hand_sizes || []).length;
  const base = view.seat ?? 0;
  const groups = groupLegal(view.legal);
  const others = [];
  for (let s = 0; s < n; s++) if (s !== base) others.push(seatBox(view, s, ctx, position(s, base, n)));
  const showLast = ctx.showLast && view.last_trick;
  const center = h('div', { class: 'center' },
    infoStrip(view, ctx),
    showLast || view.phase === 'play' || (view.trick && view.trick.length)
      ? h('div', { class: 'trick-area' },
        showLast
          ? trickEl(view.last_trick.cards, base, n, 'last', view.last_trick.winner, ctx)
          : trickEl(view.trick, base, n, 'current', null, ctx))
      : null,
    h('div', { class: 'center-row' },
      faceUpEl(view), talonBacks(view),
      view.last_trick ? h('button', { type: 'button', class: `btn ghost small${showLast ? ' on' : ''}`, 'data-role': 'last-trick',
        onclick: () => ctx.toggleLast() }, showLast ? t('hide') : t('last_trick')) : null),
    showLast && view.last_trick.winner !== undefined
      ? h('div', { class: 'muted small', text: t('trick_won_by', { name: ctx.name(view.last_trick.winner) }) }) : null,
    lastDealEl(view, ctx),
    logEl(view, ctx));
  const meBox = view.seat === null || view.seat === undefined
    ? h('div', { class: 'me spectator' }, seatBox(view, 0, ctx, 'bottom'), h('p', { class: 'muted', text: t('spectating') }))
    : h('div', { class: 'me' }, seatBox(view, view.seat, ctx, 'bottom'), controlsEl(view, groups, ctx), handEl(view, groups, ctx));
  const mine = view.seat !== null && (view.to_act || []).includes(view.seat);
  return h('div', {
    class: `felt seats-${n}${mine ? ' my-turn' : ''}`, 'data-phase': view.phase, 'data-my-turn': mine ? 'true' : 'false',
    'data-variant': view.variant, 'data-deal': view.deal, 'data-version': ctx.version ?? '',
    'data-busy': ctx.busy ? 'true' : 'false',
  }, h('div', { class: 'opponents' }, others), center, meBox);
}

export function sideScoresEl(view, names) {
  const fam = familyOf(view.variant);
  return scoresEl(fam, view.variant, { scoresheet: view.scoresheet, role_table: view.role_table }, names,
    fam === 'korol' ? view.tallies : null);
}

