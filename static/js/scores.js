// The scoresheet (Тысяча, Кинг) or the role table (Король / Król), from engine rows.

import { h } from './dom.js';
import { t, titleName } from './i18n.js';
import { suitEl } from './cards.js';
import { fmt, signed } from './families/common.js';


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

// The modern Тысяча's marks (M-30 row events): a short word in the cell, the long one in the
// title and in the legend under the sheet.  Only what the row says is shown.
// (the short word: modern.mark.<event> in the catalogs, static/i18n/; the long one: modern.ev.<event>)

function marksOf(r, s) {
  const out = [];
  if (r.writeoff && r.declarer === s) out.push(['writeoff']);
  if (r.blind && r.declarer === s) out.push(['blind']);
  const ev = (r.events || [])[s] || [];
  for (const e of ev) {
    if (e === 'bolt' && ev.includes('bolt_penalty')) continue;
    const count = e === 'bolt' ? (r.bolts || [])[s] : ['barrel_fall', 'knocked_off'].includes(e) ? (r.falls || [])[s] : null;
    out.push([e, count || null]);
  }
  const onBarrel = (r.on_barrel || [])[s];
  if (onBarrel && !ev.includes('barrel_on')) out.push(['barrel_stay', (r.barrel_left || [])[s]]);
  else if (ev.includes('barrel_on')) out[out.findIndex(([e]) => e === 'barrel_on')][1] = (r.barrel_left || [])[s];
  return out;
}

function markEl([e, n]) {
  const key = e === 'barrel_stay' ? 'barrel_on' : e;
  const word = t('modern.ev.' + key);
  const label = n !== null && n !== undefined ? `${word}: ${n}` : word;
  return h('small', { class: `mark m-${key}`, 'data-event': key, title: label, 'aria-label': label,
    text: t('modern.mark.' + key) + (n !== null && n !== undefined ? ` ${n}` : '') });
}

function legendEl(rows) {
  const seen = new Set();
  for (const r of rows) for (let s = 0; s < r.scores.length; s++) for (const [e] of marksOf(r, s)) seen.add(e === 'barrel_stay' ? 'barrel_on' : e);
  if (!seen.size) return null;
  return h('p', { class: 'sheet-legend muted', 'data-role': 'legend' }, t('modern.legend') + ': ',
    [...seen].map((e) => h('span', { class: 'legend-item' }, h('b', { text: t('modern.mark.' + e) }), ' — ' + t('modern.ev.' + e))));
}

// The modern variants' standing counters (view keys of M-33): barrel deals left, bolts,
// falls, write-offs left, as of now, under the rows.
function nowFoot(now, names) {
  if (!now) return null;
  const cell = (s) => {
    const bits = [];
    if ((now.on_barrel || [])[s]) bits.push(['barrel', now.barrel_left[s]]);
    if ((now.bolts || [])[s]) bits.push(['bolts', now.bolts[s]]);
    if ((now.falls || [])[s]) bits.push(['falls', now.falls[s]]);
    const left = (now.writeoffs_left || [])[s];
    if (typeof left === 'number') bits.push(['writeoffs', left]);
    return h('td', { class: 'now' }, bits.map(([k, n]) => h('small', { class: `now-item n-${k}`, 'data-stat': k, text: t('modern.stat.' + k, { n }) })));
  };
  return h('tfoot', null, h('tr', { class: 'now-row', 'data-role': 'now' },
    h('th', { text: '→', title: t('modern.now'), 'aria-label': t('modern.now') }), names.map((_, s) => cell(s))));
}

function thousandSheet(rows, names, now = null) {
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
        marr.length ? h('span', { class: 'marr' }, marr) : null,
        marksOf(r, s).map(markEl));
    })));
  return h('table', { class: 'sheet thousand' }, h('thead', null, headRow(names, ['#'])), h('tbody', null, body),
    rows.length ? nowFoot(now, names) : null);
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
    names.map((_, s) => h('td', { class: `score${r.scores[s] < 0 ? ' neg' : ''}${r.scores[s] > 0 ? ' pos' : ''}`, text: fmt(r.scores[s]) })),
    h('td', { class: 'contract-cell' }, kingContract(r),
      [r.orderer, r.chooser].some((x) => x !== null && x !== undefined)
        ? h('small', { class: 'muted', text: ` · ${shortName(names[r.orderer ?? r.chooser] ?? '')}` }) : null)));
  const last = rows[rows.length - 1];
  const foot = last ? h('tfoot', null, h('tr', null, h('th', { text: 'Σ', title: t('total'), 'aria-label': t('total') }),
    names.map((_, s) => h('th', { class: 'score', text: fmt(last.totals[s]) })), h('th'))) : null;
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
  // a region that may scroll: reachable and scrollable by keyboard, named
  const wrap = { class: 'scores-wrap', tabindex: '0', role: 'region', 'aria-label': t('scores') };
  if (family === 'korol') {
    return h('div', wrap, emptyRow(roleTable(data.role_table || [], names, variant, tallies), names));
  }
  const rows = data.scoresheet || [];
  return h('div', wrap, emptyRow(family === 'king' ? kingSheet(rows, names) : thousandSheet(rows, names, data.now), names),
    family === 'king' ? null : legendEl(rows));
}

