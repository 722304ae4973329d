// Reading the engine's action strings (ENGINE_API.md "Action notation") and naming them.
// The client never decides what is legal: it only labels what view.legal lists.

import { t, has, cardText, cardName, SUIT_SYMBOL, titleName } from './i18n.js';

const CARD_ACTION = /^(play|marriage|discard|swap|take|give):([2-9TJQKA?][SCDH?])(?:>(\d+))?$/;

export function parseAction(a) {
  let m = CARD_ACTION.exec(a);
  if (m) return { kind: m[1], card: m[2], to: m[3] === undefined ? null : Number(m[3]), raw: a };
  m = /^(bid|contract):(\d+)$/.exec(a);
  if (m) return { kind: m[1], n: Number(m[2]), raw: a };
  m = /^trump:([SCDH]|last)$/.exec(a);
  if (m) return { kind: 'trump', suit: m[1], raw: a };
  m = /^order:trump:([SCDH])$/.exec(a);
  if (m) return { kind: 'order_trump', suit: m[1], raw: a };
  m = /^order:(\w+)$/.exec(a);
  if (m) return { kind: 'order', contract: m[1], raw: a };
  m = /^spare:(\d+)$/.exec(a);
  if (m) return { kind: 'spare', seat: Number(m[1]), raw: a };
  m = /^take:(top|bottom)$/.exec(a);
  if (m) return { kind: 'take_pair', which: m[1], raw: a };
  m = /^show:(.*)$/.exec(a);
  if (m) return { kind: 'show', cards: m[1].split(',').filter(Boolean), raw: a };
  m = /^title:(\w+)$/.exec(a);
  if (m) return { kind: 'title', title: m[1], raw: a };
  m = /^hand>(\d+)$/.exec(a);
  if (m) return { kind: 'hand', to: Number(m[1]), raw: a };
  return { kind: a, raw: a };
}

// Cards and suits as shown (K♠) or, for a screen reader, as said ("король пик").
const cardOrUnknown = (c, spoken) => (c && !c.includes('?') ? (spoken ? cardName(c) : cardText(c)) : t('hidden_card'));
const suitOf = (suit, spoken) => (spoken ? t('suits.' + suit) : SUIT_SYMBOL[suit] || '');

// A label for an action; `name(seat)` gives a player's name; `spoken`: the words a
// screen reader says (the live announcer, announce.js) instead of card symbols.
export function actionLabel(a, name = (s) => `#${s}`, { spoken = false } = {}) {
  const p = typeof a === 'string' ? parseAction(a) : a;
  const card = (c) => cardOrUnknown(c, spoken);
  switch (p.kind) {
    case 'play': return spoken ? card(p.card) : t('act.play', { card: card(p.card) });  // "Петя: дама червей"
    case 'marriage': return t('act.marriage', { card: card(p.card), suit: suitOf(p.card[1], spoken) });
    case 'give': return t('act.give', { card: card(p.card), name: p.to === null ? '?' : name(p.to) });
    case 'discard': return t('act.discard', { card: card(p.card) });
    case 'swap': return t('act.swap', { card: card(p.card) });
    case 'take': return t('act.take', { card: card(p.card) });
    case 'bid': return t('act.bid', { n: p.n });
    case 'contract': return t('act.contract', { n: p.n });
    case 'trump': return p.suit === 'last' ? t('act.trump:last') : t('act.trump', { suit: suitOf(p.suit, spoken) });
    case 'order': return t('act.order', { c: t('contracts.' + p.contract) });
    case 'order_trump': return t('act.order_trump', { suit: suitOf(p.suit, spoken) });
    case 'spare': return t('act.spare', { name: name(p.seat) });
    case 'take_pair': return t('act.take:' + p.which);
    case 'show': return `${t('face_up')}: ${p.cards.map(card).join(spoken ? ', ' : ' ')}`;
    case 'hand': return `${t('whole_hand')} → ${name(p.to)}`;
    case 'title': return t('act_title', { title: titleName(p.title) });
    case 'aside': return t('act_aside');
    default: return has('act.' + p.kind) ? t('act.' + p.kind) : p.raw;
  }
}

// Split view.legal into: actions on a card (by card), numeric calls (bid / contract) and
// plain buttons.  Order within each group is the engine's.
export function groupLegal(legal) {
  const byCard = new Map();
  const numeric = new Map();
  const buttons = [];
  for (const a of legal || []) {
    const p = parseAction(a);
    if (p.card) {
      if (!byCard.has(p.card)) byCard.set(p.card, []);
      byCard.get(p.card).push(p);
    } else if (p.kind === 'bid' || p.kind === 'contract') {
      if (!numeric.has(p.kind)) numeric.set(p.kind, []);
      numeric.get(p.kind).push(p);
    } else {
      buttons.push(p);
    }
  }
  for (const list of numeric.values()) list.sort((x, y) => x.n - y.n);
  return { byCard, numeric, buttons };
}

// Did a trick end between two views of one seat (a new last_trick)?  The table holds it,
// the announcer names who took it.
export function trickJustTaken(prev, view) {
  return !!(prev && view.last_trick && view.last_trick.cards
    && JSON.stringify(prev.last_trick || null) !== JSON.stringify(view.last_trick));
}

// The coach's reason (engine/bots/coach.py lists the codes and their facts) in words.
export function reasonText(r, { spoken = false } = {}) {
  const card = (c) => cardOrUnknown(c, spoken);
  const facts = () => [
    r.marriages && r.marriages.length
      ? t('coach.f.marriage', { suits: r.marriages.map((s) => suitOf(s, spoken)).join(' ') }) : t('coach.f.no_marriage'),
    t('coach.f.aces', { n: r.aces || 0 }), t('coach.f.tens', { n: r.tens || 0 })].join(', ');
  const key = 'coach.r.' + r.code;
  if (!has(key)) return t('coach.r.best');
  return t(key, { card: r.card ? card(r.card) : '', suit: r.suit ? suitOf(r.suit, spoken) : (r.card ? suitOf(r.card[1], spoken) : ''),
    value: r.value ?? '', count: r.count ?? '', facts: ['bid', 'pass', 'blind', 'contract'].includes(r.code) ? facts() : '' });
}
