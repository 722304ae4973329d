// Тысяча at the table: calls and marriages by the seats, the contract, the talon, the deal's summary.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { suitEl } from '../cards.js';
import { actionLabel } from '../actions.js';
import { scoresEl } from '../scores.js';
import { seatTable, rowOfDeal, changeCell, fmt } from './common.js';

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
    if (view.tricks_won && view.phase === 'play') bits.push(h('span', { class: 'tricks', text: `${t('tricks')}: ${view.tricks_won[seat]}` }));
    return bits;
  },

  infoItems(view, ctx) {
    const items = [];
    if (view.trump) items.push(h('span', { class: 'trump' }, t('trump') + ': ', suitEl(view.trump)));
    else if (view.phase === 'play') items.push(h('span', { class: 'trump muted', text: t('no_trump') }));
    if (view.declarer !== null && view.declarer !== undefined) {
      items.push(h('span', { class: 'contract', text: `${ctx.name(view.declarer)}: ${view.contract ?? view.bid}` }));
    }
    return items;
  },

  faceUpLabel() { return t('talon'); },

  scores(view, names) { return scoresEl('thousand', view.variant, { scoresheet: view.scoresheet }, names); },

  // Declarer, contract, made / failed, card points, marriages, every player's change.
  summary(view, deal, ctx) {
    const r = rowOfDeal(view, deal);
    if (!r) return null;
    const n = r.scores.length;
    const d = r.declarer;
    const contract = r.contract ?? r.bid;
    let verdict = '';
    if (d !== null && d !== undefined) {
      verdict = r.thrown ? t('thrown_in') : r.refused ? t('refused_play') : (r.scores[d] >= 0 ? t('made') : t('failed'));
    }
    const head = d === null || d === undefined ? null
      : h('p', { class: 'summary-head' }, h('b', { text: ctx.name(d) }), ` · ${t('contract')} ${contract} · `,
        h('b', { class: r.scores[d] >= 0 && !r.thrown && !r.refused ? 'pos' : 'neg', text: verdict }));
    return [head, seatTable(n, ctx, [
      { head: t('card_points'), cls: 'num', cell: (s) => (r.sitting_out === s ? t('sits_out') : fmt((r.points_raw || r.points || [])[s] ?? '')) },
      { head: t('marriages'), cell: (s) => (r.marriages || []).filter(([x]) => x === s).map(([, suit]) => suitEl(suit)) },
      { head: t('change'), cls: 'num', cell: (s) => changeCell(r, s) },
      { head: t('total_short'), cls: 'num', cell: (s) => fmt(r.totals[s]) },
    ], (s) => (s === d ? 'declarer' : ''))];
  },
};
