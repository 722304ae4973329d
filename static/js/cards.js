// Cards drawn as small inline SVGs: the rank and suit upright in two corners (so a 6 never
// reads as a 9), a centre pip or a court frame.  Colours come from CSS (--suit-S ...), so
// the four-colour deck is a class on <body> and dimmed cards keep their colours.

import { h, s } from './dom.js';
import { SUIT_SYMBOL, rankLabel, cardText, cardName } from './i18n.js';

export const SUIT_ORDER = ['S', 'C', 'D', 'H'];
const RED = new Set(['D', 'H']);
const W = 50;
const H = 72;

export function isCardCode(x) {
  return typeof x === 'string' && /^[2-9TJQKA][SCDH]$/.test(x);
}

function corner(label, sym, x, y, anchor) {
  const narrow = label.length > 1;  // "10": squeezed into about the width of one letter
  return [
    s('text', { x, y, 'text-anchor': anchor, class: 'rank', 'font-size': narrow ? 13 : 14,
      'letter-spacing': narrow ? -1.5 : 0, text: label }),
    s('text', { x, y: y + 12, 'text-anchor': anchor, class: 'csuit', 'font-size': 12, text: sym }),
  ];
}

function face(code) {
  const rank = code[0];
  const sym = SUIT_SYMBOL[code[1]];
  const label = rankLabel(rank);
  const middle = 'JQK'.includes(rank)
    ? [s('rect', { x: 13, y: 18, width: 24, height: 36, rx: 3, class: 'frame' }),
      s('text', { x: 25, y: 36, 'text-anchor': 'middle', class: 'court', 'font-size': 15, text: label }),
      s('text', { x: 25, y: 50, 'text-anchor': 'middle', 'font-size': 12, text: sym })]
    : [s('text', { x: 25, y: rank === 'A' ? 49 : 46, 'text-anchor': 'middle', 'font-size': rank === 'A' ? 30 : 22, text: sym })];
  // Both corners upright (top left, bottom right): a rotated corner makes a 9 read as a 6.
  return s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'face', 'aria-hidden': 'true' },
    corner(label, sym, 3.5, 14, 'start'), corner(label, sym, W - 3.5, H - 16, 'end'), middle);
}

export function cardEl(code, { small = false, extraClass = '' } = {}) {
  if (!isCardCode(code)) return backEl({ small });
  const suit = code[1];
  return h('div', {
    class: `card s-${suit} ${RED.has(suit) ? 'red' : 'black'}${small ? ' small' : ''}${extraClass ? ' ' + extraClass : ''}`,
    'data-card': code, role: 'img', 'aria-label': cardName(code), title: cardText(code),
  }, face(code));
}

export function backEl({ small = false } = {}) {
  return h('div', { class: `card back${small ? ' small' : ''}`, 'aria-hidden': 'true' });
}

export function suitEl(suit) {
  return h('span', { class: `suit s-${suit} ${RED.has(suit) ? 'red' : 'black'}`, text: SUIT_SYMBOL[suit] || '' });
}
