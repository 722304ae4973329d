// What every family shares: a summary table of one deal and the match's final standings.

import { h } from '../dom.js';
import { t, number } from '../i18n.js';

export const signed = (n) => (typeof n !== 'number' ? String(n ?? '') : (n > 0 ? `+${fmt(n)}` : fmt(n)));
// a score as the language writes it: 12,5 in ru / pl, 12.5 in en; no grouping (a column of totals)
export const fmt = (n) => (typeof n === 'number' ? number(n, { maximumFractionDigits: 1, useGrouping: false }) : String(n ?? ''));

// columns: [{head, cell(seat) -> node|string, cls}]
export function seatTable(n, ctx, columns, rowClass = () => '') {
  return h('table', { class: 'summary-table' },
    h('thead', null, h('tr', null, h('th', { class: 'pname', text: '' }), columns.map((c) => h('th', { class: c.cls || '', text: c.head })))),
    h('tbody', null, Array.from({ length: n }, (_, s) => h('tr', { class: rowClass(s), 'data-seat': s },
      h('th', { class: 'pname', title: ctx.name(s) }, h('span', { class: 'name-lines', text: ctx.name(s) })),
      columns.map((c) => h('td', { class: c.cls || '' }, c.cell(s)))))));
}

export function rowOfDeal(view, deal) {
  return (view.scoresheet || []).find((r) => r.deal === deal) || null;
}

export function changeCell(r, s) {
  const v = r.scores[s];
  return h('b', { class: `change ${v > 0 ? 'pos' : ''}${v < 0 ? 'neg' : ''}`, 'data-role': 'change', text: signed(v) });
}
