// Кинг at the table: tricks taken, the contract and its chooser, the deal's penalties or gains.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { suitEl } from '../cards.js';
import { scoresEl } from '../scores.js';
import { seatTable, rowOfDeal, changeCell, fmt } from './common.js';

function contractName(contract, trump) {
  if (contract === 'trump' || trump) return [t('contracts.trump'), trump ? [' ', suitEl(trump)] : null];
  return t('contracts.' + contract);
}

export default {
  name: 'king',

  seatStats(view, seat) {
    return view.tricks_taken ? [h('span', { class: 'tricks', text: t('tricks_n', { n: view.tricks_taken[seat] }) })] : [];
  },

  infoItems(view, ctx) {
    const items = [];
    if (view.trump) items.push(h('span', { class: 'trump' }, t('trump') + ': ', suitEl(view.trump)));
    if (view.contract) {
      items.push(h('span', { class: 'contract' }, view.contract === 'trump' ? t('contracts.trump') : t('contracts.' + view.contract)));
      if (view.chooser !== null && view.chooser !== undefined) items.push(h('span', { class: 'muted', text: ctx.name(view.chooser) }));
    }
    return items;
  },

  faceUpLabel() { return t('trump'); },

  scores(view, names) { return scoresEl('king', view.variant, { scoresheet: view.scoresheet }, names); },

  summary(view, deal, ctx) {
    const r = rowOfDeal(view, deal);
    if (!r) return null;
    const who = r.orderer ?? r.chooser;
    return [h('p', { class: 'summary-head' }, h('b', null, contractName(r.contract, r.trump)),
      who !== null && who !== undefined ? ` · ${ctx.name(who)}` : null),
    seatTable(r.scores.length, ctx, [
      { head: t('change'), cls: 'num', cell: (s) => changeCell(r, s) },
      { head: t('total'), cls: 'num', cell: (s) => fmt(r.totals[s]) },
    ])];
  },
};
