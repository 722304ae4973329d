// Король / Król at the table: titles and tallies by the seats, the round, the deal's tricks
// and the titles gained and lost.

import { h } from '../dom.js';
import { t, titleName } from '../i18n.js';
import { suitEl } from '../cards.js';
import { scoresEl } from '../scores.js';
import { seatTable, rowOfDeal, changeCell } from './common.js';

const roundName = (round) => (round === 0 ? t('crowning') : t('reign_n', { n: round }));

export default {
  name: 'korol',

  seatStats(view, seat) {
    const bits = [];
    if (view.tallies) bits.push(h('span', { class: 'tricks', text: `${t('tally')}: ${view.tallies[seat]}` }));
    const nt = view.new_titles && view.new_titles[seat];
    if (nt) bits.push(h('span', { class: `badge t-${nt}`, text: '→ ' + titleName(nt, view.variant) }));
    return bits;
  },

  infoItems(view) {
    const items = [];
    if (view.trump) items.push(h('span', { class: 'trump' }, t('trump') + ': ', suitEl(view.trump)));
    else if (view.phase === 'play') items.push(h('span', { class: 'trump muted', text: t('no_trump') }));
    if (view.round !== undefined) items.push(h('span', { class: 'round', text: roundName(view.round) }));
    return items;
  },

  faceUpLabel() { return t('trump'); },

  scores(view, names) {
    return scoresEl('korol', view.variant, { role_table: view.role_table }, names, view.tallies);
  },

  // The deal's tricks and tallies; the titles taken in the round (and, when the round ended
  // with this deal, what each player was before).
  summary(view, deal, ctx) {
    const r = rowOfDeal(view, deal);
    if (!r) return null;
    const roles = view.role_table || [];
    const ended = roles.findIndex((x) => x.round === r.round);
    const after = ended >= 0 ? roles[ended].titles : (view.new_titles || []);
    const before = ended >= 1 ? roles[ended - 1].titles : null;
    const titleCell = (s) => {
      const now = after && after[s];
      if (!now) return '';
      const was = before && before[s];
      return h('span', null, h('span', { class: `badge t-${now}`, text: titleName(now, view.variant) }),
        was && was !== now ? h('small', { class: 'muted', text: ` (${t('title_lost', { title: titleName(was, view.variant) })})` }) : null);
    };
    return [h('p', { class: 'summary-head', text: ended >= 0 ? t('round_over', { round: roundName(r.round) }) : roundName(r.round) }),
      seatTable(r.scores.length, ctx, [
        { head: t('tricks'), cls: 'num', cell: (s) => changeCell(r, s) },
        { head: t('tally'), cls: 'num', cell: (s) => String(r.totals[s]) },
        (after || []).some(Boolean) ? { head: t('titles_col'), cell: titleCell } : null,
      ].filter(Boolean))];
  },
};
