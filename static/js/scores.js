// The scoresheet (Тысяча, Кинг) or the role table (Король / Król), from engine rows.

import { h } from './dom.js';
import { t, titleName } from './i18n.js';
import { suitEl } from './cards.js';

const signed = (n) => (n > 0 ? `+${n}` : String(n));
const num = (n) => (typeof n === 'number' && !Number.isInteger(n) ? n.toFixed(1) : String(n));

// A column head short enough for four players in a narrow panel: the first 7 letters.
export function shortName(name) {
  const s = [...String(name)];
  return s.length > 8 ? s.slice(0, 7).join('') + '…' : s.join('');
}

function headRow(names, first, last = []) {
  return h('tr', null, first.map((x) => h('th', { text: x })),
    names.map((n) => h('th', { class: 'pname', title: n, text: shortName(n) })),
    last.map((x) => h('th', { class: 'contract-head', text: x })));
}

function thousandSheet(rows, names) {
  const body = rows.map((r) => h('tr', null,
    h('td', { class: 'dealno', text: String(r.deal) }),
    names.map((_, s) => {
      const out = r.sitting_out === s || (r.active && !r.active.includes(s));
      const cls = ['score', r.declarer === s ? 'declarer' : '', r.scores[s] < 0 ? 'neg' : ''].join(' ');
      const marr = (r.marriages || []).filter(([seat]) => seat === s).map(([, suit]) => suitEl(suit));
      return h('td', { class: cls, title: r.declarer === s ? `${t('contract')}: ${r.contract ?? r.bid}` : null },
        h('span', { class: 'total', text: String(r.totals[s]) }),
        out ? h('small', { class: 'delta muted', text: ' —' })
          : h('small', { class: 'delta', text: ` ${signed(r.scores[s])}` }),
        r.declarer === s ? h('small', { class: 'contract-tag', text: ` ${r.contract ?? r.bid}${r.thrown ? ' ✗' : ''}${r.refused ? ' ✗' : ''}` }) : null,
        marr.length ? h('span', { class: 'marr' }, marr) : null);
    })));
  return h('table', { class: 'sheet thousand' }, h('thead', null, headRow(names, ['#'])), h('tbody', null, body));
}

function kingContract(r) {
  if (r.contract === 'trump' || r.trump) {
    return h('span', null, t('contracts.trump') + ' ', r.trump ? suitEl(r.trump) : null);
  }
  return t('contracts.' + r.contract);
}

function kingSheet(rows, names) {
  // the players' numbers first, the contract (the widest column) last
  const body = rows.map((r) => h('tr', null,
    h('td', { class: 'dealno', text: String(r.deal) }),
    names.map((_, s) => h('td', { class: `score${r.scores[s] < 0 ? ' neg' : ''}${r.scores[s] > 0 ? ' pos' : ''}`, text: num(r.scores[s]) })),
    h('td', { class: 'contract-cell' }, kingContract(r),
      [r.orderer, r.chooser].some((x) => x !== null && x !== undefined)
        ? h('small', { class: 'muted', text: ` · ${shortName(names[r.orderer ?? r.chooser] ?? '')}` }) : null)));
  const last = rows[rows.length - 1];
  const foot = last ? h('tfoot', null, h('tr', null, h('th', { text: t('total') }),
    names.map((_, s) => h('th', { class: 'score', text: num(last.totals[s]) })), h('th'))) : null;
  return h('table', { class: 'sheet king' }, h('thead', null, headRow(names, ['#'], [t('contract')])), h('tbody', null, body), foot);
}

function roleTable(roles, names, variant, tallies) {
  const body = roles.map((r) => h('tr', null,
    h('td', { class: 'round', text: r.round === 0 ? t('crowning') : t('reign_n', { n: r.round }) }),
    names.map((_, s) => h('td', { class: `title t-${r.titles[s]}` },
      h('span', { text: titleName(r.titles[s], variant) }),
      h('small', { class: 'delta', text: ` ${r.tricks[s]}` })))));
  if (tallies) {
    body.push(h('tr', { class: 'current' }, h('td', { text: t('tally') }),
      names.map((_, s) => h('td', { class: 'score', text: String(tallies[s]) }))));
  }
  return h('table', { class: 'sheet korol' }, h('thead', null, headRow(names, [t('round')])), h('tbody', null, body));
}

function emptyRow(table, names) {
  const body = table.querySelector('tbody');
  if (body && !body.children.length) {
    body.append(h('tr', { class: 'empty' }, h('td', { colspan: names.length + 2, class: 'muted', text: t('no_deals') })));
  }
  return table;
}

// family: 'thousand' | 'king' | 'korol'; data: {scoresheet, role_table}; tallies: the current round's.
export function scoresEl(family, variant, data, names, tallies = null) {
  if (family === 'korol') {
    return h('div', { class: 'scores-wrap' }, emptyRow(roleTable(data.role_table || [], names, variant, tallies), names));
  }
  const rows = data.scoresheet || [];
  return h('div', { class: 'scores-wrap' }, emptyRow(family === 'king' ? kingSheet(rows, names) : thousandSheet(rows, names), names));
}

