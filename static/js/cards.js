// Cards drawn with plain DOM + CSS: corner indices, a centre pip or a court frame.

import { h } from './dom.js';
import { SUIT_SYMBOL, rankLabel, cardText, t } from './i18n.js';

export const SUIT_ORDER = ['S', 'C', 'D', 'H'];
const RED = new Set(['D', 'H']);

export function isCardCode(x) {
  return typeof x === 'string' && /^[2-9TJQKA][SCDH]$/.test(x);
}

export function cardEl(code, { small = false, extraClass = '' } = {}) {
  if (!isCardCode(code)) return backEl({ small });
  const rank = code[0];
  const suit = code[1];
  const sym = SUIT_SYMBOL[suit];
  const label = rankLabel(rank);
  const court = 'JQK'.includes(rank);
  const el = h('div', {
    class: `card ${RED.has(suit) ? 'red' : 'black'}${small ? ' small' : ''}${extraClass ? ' ' + extraClass : ''}`,
    'data-card': code, role: 'img', 'aria-label': `${label} ${t('suits.' + suit)}`, title: cardText(code),
  },
  h('span', { class: 'corner tl' }, h('b', { text: label }), h('i', { text: sym })),
  court
    ? h('span', { class: 'court' }, h('b', { text: label }), h('i', { text: sym }))
    : h('span', { class: rank === 'A' ? 'pip ace' : 'pip', text: sym }),
  h('span', { class: 'corner br' }, h('b', { text: label }), h('i', { text: sym })));
  return el;
}

export function backEl({ small = false } = {}) {
  return h('div', { class: `card back${small ? ' small' : ''}`, 'aria-hidden': 'true' });
}

export function suitEl(suit) {
  return h('span', { class: `suit ${RED.has(suit) ? 'red' : 'black'}`, text: SUIT_SYMBOL[suit] || '' });
}
