// A finished (or running) match: its scoresheet / role table, a chart, and a deal-by-deal
// replay drawn from the engine's deal_positions (GET /api/matches/{id}/deals/{n}/positions):
// where every card is after every step. The client moves no card by itself and needs no
// socket, so History opens as a panel over the live table without touching its connection.

import { holdFocus } from './dialog.js';
import { h, clear, append } from './dom.js';
import { t, has, onLang, listOf, dateTime, SUIT_SYMBOL } from './i18n.js';
import { api, me } from './api.js';
import { replayDealEl } from './club_duplicates.js';
import { cardEl, suitEl } from './cards.js';
import { actionLabel } from './actions.js';
import { scoresEl } from './scores.js';
import { familyModule } from './families/index.js';
import { chartEl } from './chart.js';
import { seatName, gameName } from './names.js';
import { dealReviewEl } from './deal_review.js';

const AUTO_MS = 900;
const COMMON_KEYS = new Set(['action', 'hands', 'talon', 'trick', 'taken', 'trump', 'marriages', 'contract', 'declarer', 'chooser', 'won_by', 'talon_to']);

const live = new Set();  // the drawn history views, redrawn on a language switch

onLang(() => { for (const v of [...live]) { if (v.root.isConnected) v.draw(); else { v.stop(); live.delete(v); } } });

let variantsCache = null;
async function familyOf(detail) {
  if (detail.family) return detail.family;
  variantsCache = variantsCache || api.variants().catch(() => []);
  const v = (await variantsCache).find((x) => x.id === detail.variant);
  return v ? v.family : String(detail.variant).split('-')[0];
}

function marriageText(m, name) {
  const [seat, suit] = m;
  return t('replay_ui.marriage_of', { name: name(seat), suit: suit === 'A' ? t('replay_ui.ace_marriage') : SUIT_SYMBOL[suit] || suit });
}

// --- the deal's summary: the table's own, from the family module ----------------------------

function dealSummaryEl(detail, family, deal, name) {
  const fam = familyModule({ family }, { variant: detail.variant });
  const sheet = { scoresheet: detail.scoresheet, role_table: detail.role_table, variant: detail.variant };
  const body = fam.summary(sheet, deal, { name });
  if (!body) return null;
  return h('section', { class: 'summary replay-summary', 'data-role': 'deal-summary', 'data-deal': deal },
    h('div', { class: 'summary-title' }, h('b', { text: t('deal_n', { n: deal }) })), body);
}

// --- the replay ----------------------------------------------------------------------------

class Replay {
  constructor(detail, family, names) {
    this.detail = detail;
    this.family = family;
    this.names = names;
    this.deals = detail.deals || [];
    this.di = 0;
    this.step = 0;
    this.positions = new Map();  // deal number -> {steps} | {error}
    this.timer = null;
    this.fromTalon = new Set();
    this.root = h('section', { class: 'replay panel', tabIndex: 0 });
    this.root.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowRight') this.go(this.step + 1);
      if (e.key === 'ArrowLeft') this.go(this.step - 1);
    });
    live.add(this);
    this.draw();
  }

  name(s) { return s === null || s === undefined ? '' : (this.names[s] ?? `#${s + 1}`); }

  get deal() { return this.deals[this.di]; }

  steps() {
    const p = this.positions.get(this.deal.deal);
    return p && p.steps ? p.steps : null;
  }

  load() {
    const n = this.deal.deal;
    if (this.positions.has(n)) return;
    this.positions.set(n, { loading: true });
    api.dealPositions(this.detail.id, n)
      .then((p) => { this.positions.set(n, p); })
      .catch((e) => { this.positions.set(n, { error: e }); })
      .finally(() => this.draw());
  }

  go(step) {
    const steps = this.steps();
    if (!steps) return;
    this.step = Math.max(0, Math.min(step, steps.length - 1));
    if (this.step >= steps.length - 1) this.stop();
    this.draw();
  }

  toDeal(di) {
    this.stop();
    this.di = di;
    this.step = 0;
    this.draw();
  }

  toggleAuto() {
    if (this.timer) { this.stop(); this.draw(); return; }
    const steps = this.steps();
    if (!steps) return;
    if (this.step >= steps.length - 1) this.step = 0;
    this.timer = setInterval(() => {
      if (!this.root.isConnected) { this.stop(); return; }
      this.go(this.step + 1);
    }, AUTO_MS);
    this.draw();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  // Who the engine says took the talon (talon_to) at or before this step, and its cards
  // (the talon just before), until the first card is played.
  talonTaker(steps) {
    const now = steps[this.step];
    if ((now.trick || []).length || steps.slice(1, this.step + 1).some((pos) => pos.won_by !== null && pos.won_by !== undefined)) return null;
    for (let k = this.step; k >= 1; k--) {
      const seat = steps[k].talon_to;
      if (seat !== null && seat !== undefined) return { seat, cards: steps[k - 1].talon || [] };
    }
    return null;
  }

  seatEl(pos, seat) {
    const cards = (pos.hands || [])[seat] || [];
    const taken = (pos.taken || [])[seat];
    const badges = [];
    if (this.deal.dealer === seat) badges.push(h('span', { class: 'badge', text: t('dealer') }));
    if (pos.declarer === seat) badges.push(h('span', { class: 'badge declarer', text: t('declarer') }));
    return h('div', { class: `replay-hand${this.deal.dealer === seat ? ' dealer' : ''}`, 'data-seat': seat },
      h('div', { class: 'replay-who' }, h('span', { class: 'pname', text: this.name(seat) }), badges,
        taken ? h('span', { class: 'taken muted small', 'data-role': 'taken', text: t('replay_ui.taken', { n: taken.length }) }) : null),
      h('div', { class: 'cards' }, cards.map((c) => cardEl(c, { small: true, extraClass: this.fromTalon.has(c) ? 'from-talon' : '' }))));
  }

  // Trump, contract, marriages and the talon's fate at this step, as the engine says.
  infoEl(pos, steps) {
    const items = [];
    if (pos.trump) items.push(h('span', { class: 'info-trump', 'data-role': 'replay-trump' }, `${t('trump')}: `, suitEl(pos.trump)));
    else if (pos.trump === null && this.family !== 'thousand') items.push(h('span', { class: 'muted', text: t('no_trump') }));
    if (pos.contract !== null && pos.contract !== undefined) {
      const c = typeof pos.contract === 'number' ? String(pos.contract) : t('contracts.' + pos.contract);
      items.push(h('span', { 'data-role': 'replay-contract' }, `${t('contract')}: `, h('b', { text: c }),
        pos.declarer !== null && pos.declarer !== undefined ? ` · ${this.name(pos.declarer)}` : ''));
    }
    if ((pos.marriages || []).length) {
      items.push(h('span', { 'data-role': 'replay-marriages' }, `${t('marriages')}: `,
        listOf(pos.marriages.map((m) => marriageText(m, (s) => this.name(s))))));
    }
    const taker = this.talonTaker(steps);
    if (taker !== null) {
      items.push(h('span', { class: 'talon-taken', 'data-role': 'talon-taken', 'data-seat': taker.seat,
        text: t('replay_ui.talon_to', { name: this.name(taker.seat) }) }));
    }
    return items.length ? h('p', { class: 'replay-info' }, items.map((x, i) => [i ? h('span', { class: 'sep', text: ' · ' }) : null, x])) : null;
  }

  // The trick completed by this step's card, and who took it: the engine names him
  // (won_by); the cards are the trick before this step and this step's card.
  closedTrick(steps) {
    if (this.step === 0) return null;
    const pos = steps[this.step];
    const winner = pos.won_by;
    if (winner === null || winner === undefined || !pos.action) return null;
    const [seat, action] = pos.action;
    const card = String(action).split(':')[1];
    return { winner, cards: [...(steps[this.step - 1].trick || []), [seat, card]] };
  }

  // The family's own piles (Król's stock and set-aside cards, spare hands, 2p discards ...),
  // each only with the cards not already drawn in a hand, the talon or the trick.
  pilesEl(pos, trick) {
    const shown = new Set([...(pos.hands || []).flat(), ...(pos.talon || []), ...trick.map(([, c]) => c)]);
    return Object.entries(pos).filter(([key]) => !COMMON_KEYS.has(key)).map(([key, pile]) => {
      const cards = (Array.isArray(pile) ? pile.flat(2) : []).filter((c) => typeof c === 'string' && !shown.has(c));
      if (!cards.length) return null;
      return h('div', { class: 'replay-hand rest', 'data-pile': key },
        h('div', { class: 'replay-who' }, h('span', { class: 'pname', text: t(has('replay_ui.piles.' + key) ? 'replay_ui.piles.' + key : 'face_up') })),
        h('div', { class: 'cards' }, cards.map((c) => cardEl(c, { small: true }))));
    });
  }

  boardEl(steps) {
    const pos = steps[this.step];
    const closed = this.closedTrick(steps);
    const trick = closed ? closed.cards : (pos.trick || []);
    const taker = this.talonTaker(steps);
    this.fromTalon = new Set(taker ? taker.cards : []);
    const seats = (pos.hands || []).length;
    const talon = pos.talon || [];
    return h('div', { class: 'replay-board' },
      h('div', { class: 'replay-hands' },
        Array.from({ length: seats }, (_, s) => this.seatEl(pos, s)),
        talon.length ? h('div', { class: 'replay-hand rest', 'data-role': 'replay-talon' },
          h('div', { class: 'replay-who' }, h('span', { class: 'pname', text: this.family === 'thousand' ? t('talon') : t('face_up') })),
          h('div', { class: 'cards' }, talon.map((c) => cardEl(c, { small: true })))) : null,
        this.pilesEl(pos, trick)),
      h('div', { class: `replay-trick${closed ? ' closed' : ''}${trick.length ? '' : ' empty'}` }, h('span', { class: 'label', text: t('played') }),
        closed ? h('span', { class: 'trick-winner', 'data-role': 'trick-winner', 'data-seat': closed.winner, text: t('trick_won_by', { name: this.name(closed.winner) }) }) : null,
        h('div', { class: 'cards' }, trick.map(([seat, c]) => h('figure', {
          class: `replay-slot${pos.action && pos.action[0] === seat && String(pos.action[1]).endsWith(':' + c) ? ' just' : ''}`, 'data-seat': seat },
          cardEl(c, { small: true }), h('figcaption', { class: 'replay-slot-name', text: this.name(seat) }))))));
  }

  // Take-backs of this deal, by the step they came after (the detail's takebacks: deal, step).
  undoneAfter(step) {
    return (this.detail.takebacks || []).filter((x) => x.deal === this.deal.deal && x.step === step)
      .map((x) => h('li', { class: 'undone', 'data-role': 'replay-undone', 'data-step': step },
        h('s', null, h('b', { text: this.name(x.seat) }), h('span', { text: actionLabel(x.action, (s) => this.name(s)) })),
        h('span', { class: 'undone-note', text: ` — ${t('replay_ui.undone')}` })));
  }

  logEl(steps) {
    return h('ol', { class: 'replay-log', 'aria-label': t('replay_ui.log') }, this.undoneAfter(0), steps.slice(1).map((st, i) => {
      const [seat, a] = st.action || [null, ''];
      return [h('li', { class: i === this.step - 1 ? 'now' : (i < this.step ? 'done' : ''), onclick: () => { this.stop(); this.go(i + 1); } },
        seat === null ? null : h('b', { text: this.name(seat) }), h('span', { text: a ? actionLabel(a, (s) => this.name(s)) : '' })),
      this.undoneAfter(i + 1)];
    }));
  }

  // "Replay this deal" for a player of a match that is over (club_duplicates.js).
  againEl() {
    const d = this.detail;
    const mine = me() && d.seats.some((x) => x.player === me().id);
    return mine && ['finished', 'abandoned'].includes(d.status) ? replayDealEl(d, this.deal.deal) : null;
  }

  draw() {
    const box = this.root;
    clear(box);
    if (!this.deals.length) {
      append(box, [h('h2', { text: t('replay') }), h('p', { class: 'muted', text: t('no_deals') })]);
      return;
    }
    this.load();
    const p = this.positions.get(this.deal.deal) || {};
    const steps = this.steps();
    const last = steps ? steps.length - 1 : 0;
    const nav = h('div', { class: 'replay-nav' },
      h('button', { type: 'button', class: 'btn ghost', 'data-role': 'prev-deal', disabled: this.di === 0,
        onclick: () => this.toDeal(this.di - 1) }, t('prev_deal')),
      h('button', { type: 'button', class: 'btn', 'data-role': 'back', disabled: !steps || this.step === 0,
        onclick: () => { this.stop(); this.go(this.step - 1); } }, '◀ ', t('back')),
      h('span', { class: 'step', 'data-role': 'step', text: t('step', { i: this.step, n: last }) }),
      h('button', { type: 'button', class: 'btn', 'data-role': 'forward', disabled: !steps || this.step >= last,
        onclick: () => { this.stop(); this.go(this.step + 1); } }, t('forward'), ' ▶'),
      h('button', { type: 'button', class: `btn${this.timer ? ' on' : ''}`, 'data-role': 'auto-play', disabled: !steps,
        'aria-pressed': String(!!this.timer), onclick: () => this.toggleAuto() }, this.timer ? `❚❚ ${t('replay_ui.pause')}` : `▶ ${t('replay_ui.auto')}`),
      h('button', { type: 'button', class: 'btn ghost', 'data-role': 'next-deal', disabled: this.di >= this.deals.length - 1,
        onclick: () => this.toDeal(this.di + 1) }, t('next_deal')));
    append(box, [h('h2', null, t('replay'), ' — ', t('deal_n', { n: this.deal.deal })), nav, this.againEl()]);
    if (p.error) {
      box.append(h('p', { class: 'muted', 'data-role': 'no-positions', text: t('replay_ui.no_positions') }));
      return;
    }
    if (!steps) {
      box.append(h('p', { class: 'muted', text: t('loading') }));
      return;
    }
    box.dataset.step = String(this.step);
    append(box, [this.infoEl(steps[this.step], steps), this.boardEl(steps),
      this.step >= last ? dealSummaryEl(this.detail, this.family, this.deal.deal, (s) => this.name(s)) : null,
      this.logEl(steps), dealReviewEl(this)]);
  }
}

// --- the page / the panel --------------------------------------------------------------------

function historyBody(detail, family, { link }) {
  const n = Math.max(detail.seats.length, ...(detail.scoresheet || []).map((r) => (r.totals || []).length));
  const names = Array.from({ length: n }, (_, s) => seatName(detail.seats.find((x) => x.seat === s)) || `#${s + 1}`);
  const rows = detail.scoresheet || [];
  const series = names.map((_, s) => rows.map((r) => (r.totals || [])[s] ?? 0));
  const winners = detail.result && detail.result.winners ? listOf(detail.result.winners.map((s) => names[s])) : null;
  const roomLink = link ? link(`/room/${detail.room}`, detail.room) : h('a', { href: `/room/${encodeURIComponent(detail.room)}`, text: detail.room });
  const replay = new Replay(detail, family, names);
  return h('div', { class: 'history', 'data-match': detail.id },
    h('header', { class: 'history-head panel' },
      h('h1', null, gameName(detail.variant), ' — ', t('match_n', { n: detail.number })),
      h('p', null,
        h('span', { text: `${t('room')} ` }), roomLink,
        h('span', { class: 'muted', text: ` · ${t('status_' + detail.status)} · ${dateTime(detail.created_at)}` })),
      h('p', { class: 'players' }, names.map((nm, s) => h('span', { class: 'player-chip', text: nm, 'data-seat': s }))),
      winners ? h('p', { class: 'winners', text: t('winners', { names: winners }) }) : null,
      (detail.takebacks || []).length ? h('ul', { class: 'takebacks muted small', 'data-role': 'takebacks' },
        detail.takebacks.map((x) => h('li', { text: t('took_back', {
          name: names[x.seat] || `#${x.seat + 1}`, action: actionLabel(x.action, (s) => names[s] || `#${s + 1}`) }) }))) : null,
      h('p', { class: 'muted small' }, h('a', { href: `/api/matches/${encodeURIComponent(detail.id)}/export.txt`, text: t('export') + ' (txt)' }),
        ' · ', h('a', { href: `/api/matches/${encodeURIComponent(detail.id)}/export.json`, text: 'JSON' }),
        ' · ', h('a', { href: `/api/matches/${encodeURIComponent(detail.id)}/scoresheet.csv`, download: '', 'data-role': 'scoresheet-csv', text: t('scores') + ' (CSV)' }))),
    h('div', { class: 'history-grid' },
      h('section', { class: 'panel' }, h('h2', { text: t('scores') }),
        scoresEl(family, detail.variant, detail, names)),
      h('section', { class: 'panel' }, h('h2', { text: t('chart') }),
        rows.length ? chartEl(series, names, { title: t('chart') }) : h('p', { class: 'muted', text: t('no_deals') }))),
    replay.root);
}

async function fill(root, matchId, ctx, resume = null) {
  clear(root).append(h('p', { class: 'muted', text: t('loading') }));
  let detail;
  try {
    detail = await api.match(matchId);
  } catch (e) {
    clear(root).append(h('p', { class: 'error', text: e.status === 404 ? t('not_found') : `${t('error')}: ${e.message}` }));
    return;
  }
  const family = await familyOf(detail);
  clear(root).append(historyBody(detail, family, ctx));
  const replay = [...live].find((v) => root.contains(v.root));
  if (replay && resume) { replay.di = Math.min(resume.di, Math.max(0, replay.deals.length - 1)); replay.step = resume.step; replay.draw(); }
}

let panel = null;  // the open history panel: {matchId, content, giveBack}

onLang(() => {
  if (!panel || !panel.content.isConnected) return;
  const replay = [...live].find((v) => panel.content.contains(v.root));
  fill(panel.content, panel.matchId, {}, replay ? { di: replay.di, step: replay.step } : null);
});

// The history as a page (the route #/match/ID).
export async function renderHistory(root, matchId, ctx = {}) {
  await fill(root, matchId, ctx);
}

// The history as a panel over the current page (the table, the lobby): the live
// connection and the seat's presence stay as they are.
export function openHistoryPanel(matchId) {
  closeHistoryPanel();
  const content = h('div', { class: 'history-panel-body' });
  const overlay = h('div', { class: 'lobby-overlay history-overlay', 'data-role': 'history-panel' },
    h('div', { class: 'lobby-dialog wide', role: 'dialog', 'aria-modal': 'true', 'aria-label': t('history') },
      h('div', { class: 'dialog-head' }, h('h2', { text: t('history') }),
        h('button', { type: 'button', class: 'btn ghost small', 'data-role': 'close-history', 'aria-label': t('close'),
          onclick: () => closeHistoryPanel() }, '✕')),
      content));
  overlay.addEventListener('click', (e) => { if (e.target === overlay) closeHistoryPanel(); });
  const giveBack = holdFocus(overlay, () => closeHistoryPanel());
  document.body.append(overlay);
  document.body.classList.add('has-overlay');
  panel = { matchId, content, giveBack };
  fill(content, matchId, {});
  overlay.querySelector('[data-role=close-history]').focus();  // Escape closes it from the start
  return overlay;
}

export function closeHistoryPanel() {
  const giveBack = panel && panel.giveBack;
  panel = null;
  for (const el of document.querySelectorAll('[data-role=history-panel]')) el.remove();
  for (const v of [...live]) if (!v.root.isConnected) { v.stop(); live.delete(v); }
  document.body.classList.remove('has-overlay');
  if (giveBack) giveBack();
}
