// Тысяча at the table: calls and marriages by the seats, the contract, the talon, the deal's summary.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { suitEl } from '../cards.js';
import { actionLabel } from '../actions.js';
import { scoresEl } from '../scores.js';
import { seatTable, rowOfDeal, changeCell, fmt, signed } from './common.js';

// The modern variants (thousand-ru, tysiac-pl) are told by their view keys (M-33), not by name.
const isModern = (view) => Array.isArray(view.barrel_left);
const seatOk = (x) => x !== null && x !== undefined;

// The summary's sentences for one seat's events of the row (M-30), in the engine's order.
function eventLines(r, s, ctx) {
  const name = ctx.name(s);
  const ev = (r.events || [])[s] || [];
  const lines = [];
  for (const e of ev) {
    if (e === 'bolt' && ev.includes('bolt_penalty')) continue;  // the fine says it
    const vars = { name, n: e === 'bolt' ? (r.bolts || [])[s] : (r.barrel_left || [])[s], v: signed(r.scores[s]) };
    if (e === 'bolt_penalty') vars.v = signed(r.scores[s] - (r.written || [])[s]);  // the fine: the change past the written
    lines.push(h('li', { class: `ev ev-${e}`, 'data-event': e, text: t('modern.say.' + e, vars) }));
  }
  return lines;
}

export default {
  name: 'thousand',

  seatStats(view, seat) {
    const bits = [];
    const calls = (view.bids || []).filter(([s]) => s === seat);
    if (calls.length && view.phase === 'bidding') {
      bits.push(h('span', { class: 'call', text: actionLabel(calls[calls.length - 1][1]) }));
    }
    if (view.declarer === seat) {
      bits.push(h('span', { class: 'badge declarer', text: `${t('declarer')} ${view.contract ?? view.bid ?? ''}` }));
    }
    const marr = (view.marriages || []).filter(([s]) => s === seat);
    if (marr.length) bits.push(h('span', { class: 'badge' }, t('marriage_word') + ' ', marr.map(([, suit]) => suitEl(suit))));
    if (view.tricks_won && view.phase === 'play') bits.push(h('span', { class: 'tricks', text: t('tricks_n', { n: view.tricks_won[seat] }) }));
    if (isModern(view)) {
      if ((view.on_barrel || [])[seat]) bits.push(h('span', { class: 'badge barrel', 'data-role': 'barrel', text: t('modern.stat.barrel', { n: view.barrel_left[seat] }) }));
      if ((view.bolts || [])[seat]) bits.push(h('span', { class: 'badge bolts', 'data-role': 'bolts', text: t('modern.stat.bolts', { n: view.bolts[seat] }) }));
      if ((view.falls || [])[seat]) bits.push(h('span', { class: 'badge falls', 'data-role': 'falls', text: t('modern.stat.falls', { n: view.falls[seat] }) }));
    }
    return bits;
  },

  infoItems(view, ctx) {
    const items = [];
    if (view.trump) items.push(h('span', { class: 'trump' }, t('trump') + ': ', suitEl(view.trump)));
    else if (view.phase === 'play') items.push(h('span', { class: 'trump muted', text: t('no_trump') }));
    if (view.declarer !== null && view.declarer !== undefined) {
      items.push(h('span', { class: 'contract', text: `${ctx.name(view.declarer)}: ${view.contract ?? view.bid}` }));
      const left = isModern(view) ? (view.writeoffs_left || [])[view.declarer] : undefined;
      if (typeof left === 'number' && view.phase === 'talon') items.push(h('span', { class: 'muted writeoffs', 'data-role': 'writeoffs-left', text: t('modern.stat.writeoffs', { n: left }) }));
    }
    if (isModern(view) && view.blind !== null && view.blind !== undefined) items.push(h('span', { class: 'badge blind', text: `${t('modern.ev.blind')}: ${ctx.name(view.blind)}` }));
    if (isModern(view) && view.golden) items.push(h('span', { class: 'badge golden', text: t('modern.ev.golden') }));
    return items;
  },

  faceUpLabel() { return t('talon'); },

  helpKey(view) { return isModern(view) ? `rules.modern.${view.phase}` : null; },

  // The blind opening (M-5) is a call of its own: the engine lists it as "blind:120".
  prompt(view, kinds) { return [...kinds].some((k) => k.startsWith('blind')) ? t('do.blind') : null; },

  scores(view, names) {
    const now = isModern(view) ? { on_barrel: view.on_barrel, barrel_left: view.barrel_left, bolts: view.bolts, falls: view.falls,
      writeoffs_left: view.writeoffs_left } : null;
    return scoresEl('thousand', view.variant, { scoresheet: view.scoresheet, now }, names);
  },

  // Declarer, contract, made / failed, card points, marriages, every player's change.
  summary(view, deal, ctx) {
    const r = rowOfDeal(view, deal);
    const ld = view.last_deal;
    if (!r && ld && ld.voided && ld.deal === deal) {  // M-34: a voided deal has no row
      return [h('p', { class: 'summary-head', text: t('modern.say.voided_head') }),
        h('ul', { class: 'events', 'data-role': 'events' }, h('li', { class: 'ev ev-struck', 'data-event': ld.voided,
          text: t(ld.voided === 'talon_strike' ? 'modern.say.talon_strike' : 'modern.say.struck', { name: ctx.name(ld.seat) }) }))];
    }
    if (!r) return null;
    const n = r.scores.length;
    const d = r.declarer;
    const contract = r.contract ?? r.bid;
    // made / failed is the engine's word (the row's made: T-25, M-30), never a score's sign
    let verdict = '';
    if (d !== null && d !== undefined) {
      verdict = r.thrown ? t('thrown_in') : r.refused ? t('refused_play') : r.writeoff ? t('modern.ev.writeoff')
        : r.made === true ? t('made') : r.made === false ? t('failed') : '';
    }
    const good = r.made === true;
    const head = d === null || d === undefined ? null
      : h('p', { class: 'summary-head' }, h('b', { text: ctx.name(d) }), ` · ${t('contract')} ${contract} · `,
        h('b', { class: good ? 'pos' : 'neg', text: verdict }));
    const lines = [];
    if (r.golden) lines.push(h('li', { class: 'ev', text: t('modern.say.golden') }));
    if (r.blind && seatOk(d)) lines.push(h('li', { class: 'ev ev-blind', 'data-event': 'blind', text: t('modern.say.blind', { name: ctx.name(d) }) }));
    if (r.writeoff && seatOk(d)) lines.push(h('li', { class: 'ev ev-writeoff', 'data-event': 'writeoff', text: t('modern.say.writeoff', { name: ctx.name(d), v: signed(r.written[d]) }) }));
    for (let s = 0; s < n; s++) lines.push(...eventLines(r, s, ctx));
    for (let s = 0; s < n; s++) {  // still sitting on the barrel, not mounted this deal
      if ((r.on_barrel || [])[s] && !((r.events || [])[s] || []).includes('barrel_on') && (r.barrel_left || [])[s]) {
        lines.push(h('li', { class: 'ev ev-barrel', 'data-event': 'barrel_left', text: t('modern.say.barrel_left', { name: ctx.name(s), n: r.barrel_left[s] }) }));
      }
    }
    return [head, lines.length ? h('ul', { class: 'events', 'data-role': 'events' }, lines) : null, seatTable(n, ctx, [
      { head: t('card_points'), cls: 'num', cell: (s) => (r.sitting_out === s ? t('sits_out') : fmt((r.points_raw || r.points || [])[s] ?? '')) },
      { head: t('marriages'), cell: (s) => (r.marriages || []).filter(([x]) => x === s).map(([, suit]) => suitEl(suit)) },
      // M-30: what each wrote before the barrel, the bolts and the dump changed it
      Array.isArray(r.written) ? { head: t('modern.written'), cls: 'num', cell: (s) => signed(r.written[s]) } : null,
      { head: t('change'), cls: 'num', cell: (s) => changeCell(r, s) },
      { head: t('total'), cls: 'num', cell: (s) => fmt(r.totals[s]) },
    ].filter(Boolean), (s) => (s === d ? 'declarer' : ''))];
  },
};
