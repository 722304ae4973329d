// A finished (or running) match: its scoresheet / role table, a chart, and a deal-by-deal replay.

import { h, clear, append } from './dom.js';
import { t, variantName } from './i18n.js';
import { api } from './api.js';
import { cardEl } from './cards.js';
import { parseAction, actionLabel } from './actions.js';
import { scoresEl } from './scores.js';
import { chartEl } from './chart.js';
import { familyOf } from './table.js';

const SUITS = 'SCDH';

function sorter(family) {
  const ranks = family === 'thousand' ? 'ATKQJ9' : 'AKQJT98765432';
  return (a, b) => (SUITS.indexOf(a[1]) - SUITS.indexOf(b[1])) || (ranks.indexOf(a[0]) - ranks.indexOf(b[0]));
}

// The position after the first `k` actions of a deal: hands, talon, tricks, discards.
// Cards are moved where the action says; a card is taken from wherever it lies, so
// moves the engine makes by itself (taking the talon, a tribute trump) never break it.
export function replayState(deal, k) {
  const hands = (deal.hands || []).map((x) => [...x]);
  const rest = [...(deal.talon || deal.rest || [])];
  const tricks = [];
  const discards = [];
  let current = null;
  const remove = (card) => {
    for (const list of [...hands, rest]) {
      const i = list.indexOf(card);
      if (i >= 0) { list.splice(i, 1); return; }
    }
  };
  const actions = deal.actions || [];
  for (let i = 0; i < Math.min(k, actions.length); i++) {
    const [seat, a] = actions[i];
    const p = parseAction(a);
    switch (p.kind) {
      case 'play':
      case 'marriage':
        remove(p.card);
        if (!current || current.some(([s]) => s === seat)) { current = []; tricks.push(current); }
        current.push([seat, p.card]);
        break;
      case 'give': remove(p.card); if (hands[p.to]) hands[p.to].push(p.card); break;
      case 'take': remove(p.card); hands[seat].push(p.card); break;
      case 'discard': remove(p.card); discards.push([seat, p.card]); break;
      case 'swap': remove(p.card); rest.push(p.card); break;
      case 'take_pair': {
        const pair = p.which === 'top' ? rest.splice(0, 2) : rest.splice(2, 2);
        hands[seat].push(...pair);
        break;
      }
      case 'hand': hands[p.to].push(...hands[seat].splice(0)); break;
      default: break;
    }
  }
  return { hands, rest, tricks, discards };
}

function replayEl(detail, names, family) {
  const deals = detail.deals || [];
  const box = h('section', { class: 'replay panel' });
  if (!deals.length) {
    box.append(h('h2', { text: t('replay') }), h('p', { class: 'muted', text: t('no_deals') }));
    return box;
  }
  let di = 0;
  let step = 0;
  const name = (s) => names[s] ?? `#${s}`;
  const sort = sorter(family);
  const draw = () => {
    const deal = deals[di];
    const actions = deal.actions || [];
    const st = replayState(deal, step);
    const trick = st.tricks[st.tricks.length - 1] || [];
    clear(box);
    append(box, [
      h('h2', null, t('replay'), ' — ', t('deal_n', { n: deal.deal })),
      h('div', { class: 'replay-nav' },
        h('button', { type: 'button', class: 'btn ghost', 'data-role': 'prev-deal', disabled: di === 0,
          onclick: () => { di -= 1; step = 0; draw(); } }, t('prev_deal')),
        h('button', { type: 'button', class: 'btn', 'data-role': 'back', disabled: step === 0,
          onclick: () => { step -= 1; draw(); } }, '◀ ', t('back')),
        h('span', { class: 'step', 'data-role': 'step', text: t('step', { i: step, n: actions.length }) }),
        h('button', { type: 'button', class: 'btn', 'data-role': 'forward', disabled: step >= actions.length,
          onclick: () => { step += 1; draw(); } }, t('forward'), ' ▶'),
        h('button', { type: 'button', class: 'btn ghost', 'data-role': 'next-deal', disabled: di >= deals.length - 1,
          onclick: () => { di += 1; step = 0; draw(); } }, t('next_deal'))),
      h('div', { class: 'replay-board' },
        h('div', { class: 'replay-hands' },
          st.hands.map((cards, seat) => h('div', { class: `replay-hand${deal.dealer === seat ? ' dealer' : ''}`, 'data-seat': seat },
            h('span', { class: 'pname', text: name(seat) + (deal.dealer === seat ? ` (${t('dealer')})` : '') }),
            h('div', { class: 'cards' }, [...cards].sort(sort).map((c) => cardEl(c, { small: true }))))),
          st.rest.length ? h('div', { class: 'replay-hand rest' }, h('span', { class: 'pname', text: family === 'thousand' ? t('talon') : '·' }),
            h('div', { class: 'cards' }, st.rest.map((c) => cardEl(c, { small: true })))) : null,
          st.discards.length ? h('div', { class: 'replay-hand rest' }, h('span', { class: 'pname', text: t('discarded') }),
            h('div', { class: 'cards' }, st.discards.map(([, c]) => cardEl(c, { small: true })))) : null),
        h('div', { class: 'replay-trick' }, h('span', { class: 'label', text: t('played') }),
          h('div', { class: 'cards' }, trick.map(([seat, c]) => h('div', { class: 'played' }, cardEl(c, { small: true }),
            h('span', { class: 'slot-name', text: name(seat) })))))),
      h('ol', { class: 'replay-log' }, actions.map(([seat, a], i) => h('li', {
        class: i === step - 1 ? 'now' : (i < step ? 'done' : ''),
        onclick: () => { step = i + 1; draw(); },
      }, h('b', { text: name(seat) + ': ' }), h('span', { text: actionLabel(a, name) })))),
      deal.row && step >= actions.length ? h('p', { class: 'deal-result' },
        (deal.row.scores || []).map((v, s) => h('span', { class: 'ld', text: `${name(s)} ${v > 0 ? '+' : ''}${v}` }))) : null]);
  };
  box.tabIndex = 0;
  box.addEventListener('keydown', (e) => {
    const n = (deals[di].actions || []).length;
    if (e.key === 'ArrowRight' && step < n) { step += 1; draw(); }
    if (e.key === 'ArrowLeft' && step > 0) { step -= 1; draw(); }
  });
  draw();
  return box;
}

export async function renderHistory(root, matchId, { link }) {
  clear(root).append(h('p', { class: 'muted', text: t('loading') }));
  let detail;
  try {
    detail = await api.match(matchId);
  } catch (e) {
    clear(root).append(h('p', { class: 'error', text: e.status === 404 ? t('not_found') : `${t('error')}: ${e.message}` }));
    return;
  }
  const n = Math.max(detail.seats.length, ...(detail.scoresheet || []).map((r) => (r.totals || []).length));
  const names = Array.from({ length: n }, (_, s) => (detail.seats.find((x) => x.seat === s) || {}).name ?? `#${s}`);
  const family = familyOf(detail.variant);
  const rows = detail.scoresheet || [];
  const series = names.map((_, s) => rows.map((r) => (r.totals || [])[s] ?? 0));
  const winners = detail.result && detail.result.winners ? detail.result.winners.map((s) => names[s]).join(', ') : null;
  clear(root).append(h('div', { class: 'history', 'data-match': detail.id },
    h('header', { class: 'history-head panel' },
      h('h1', null, variantName(detail.variant), ' — ', t('match_n', { n: detail.number })),
      h('p', null,
        h('span', { text: `${t('room')} ` }), link(`/room/${detail.room}`, detail.room),
        h('span', { class: 'muted', text: ` · ${t('status_' + detail.status)} · ${new Date(detail.created_at).toLocaleString()}` })),
      h('p', { class: 'players' }, names.map((nm, s) => h('span', { class: 'player-chip', text: nm, 'data-seat': s }))),
      winners ? h('p', { class: 'winners', text: t('winners', { names: winners }) }) : null,
      h('p', { class: 'muted small' }, h('a', { href: `/api/matches/${encodeURIComponent(detail.id)}/export.txt`, text: t('export') + ' (txt)' }),
        ' · ', h('a', { href: `/api/matches/${encodeURIComponent(detail.id)}/export.json`, text: 'JSON' }))),
    h('div', { class: 'history-grid' },
      h('section', { class: 'panel' }, h('h2', { text: t('scores') }),
        scoresEl(family, detail.variant, detail, names)),
      h('section', { class: 'panel' }, h('h2', { text: t('chart') }),
        rows.length ? chartEl(series, names, { title: t('chart') }) : h('p', { class: 'muted', text: t('no_deals') }))),
    replayEl(detail, names, family)));
}
