// The card table: seats around, the trick in the middle, your hand and your choices.
// Every control comes from view.legal (and view.confirm); nothing here knows a rule.
// The table is built once per room; each part is rebuilt only when what it shows changes
// (Region keys), and the trick has its own small state: cards arrive, a finished trick is
// held with "<name> takes" and then swept to the winner.

import { h, on } from './dom.js';
import { t, has, listOf, number, titleName, cardName, dateTime, fromNow, WHEN } from './i18n.js';
import { cardEl, backEl, SUIT_ORDER } from './cards.js';
import { announce } from './announce.js';
import { groupLegal, actionLabel, parseAction, reasonText, trickJustTaken } from './actions.js';
import { Region } from './store.js';
import { presetEl } from './lobby.js';
import { play as playSound } from './sounds.js';

export const HOLD_MS = 1200;
const SWEEP_MS = 320;

// Kept for history.js: the family of a variant id (the room's `family` is preferred).
export function familyOf(variant) {
  return String(variant || '').split('-')[0].replace('krol', 'korol');
}

// Where seat `seat` sits on screen, seen from `base` (your seat, or 0 for a spectator).
export function position(seat, base, n) {
  const r = (seat - base + n) % n;
  if (r === 0) return 'bottom';
  if (n === 2) return 'top';
  if (n === 3) return r === 1 ? 'left' : 'right';
  return ['bottom', 'left', 'top', 'right'][r] || 'top';
}

// A label as text nodes, with the red suits (♦ ♥) marked.
export function suitedText(text) {
  return String(text).split(/([♠♣♦♥])/).filter(Boolean).map((part) => {
    const suit = { '♠': 'S', '♣': 'C', '♦': 'D', '♥': 'H' }[part];
    return suit ? h('span', { class: `suit s-${suit}${'DH'.includes(suit) ? ' red' : ''}`, text: part }) : part;
  });
}

const isSeat = (x) => x !== null && x !== undefined;
// The phase's rule help: the family may name its own key (the modern Тысяча's phases).
const helpKey = (view, fam) => (fam.helpKey && fam.helpKey(view)) || `rules.${fam.name}.${view.phase}`;
const mineToAct = (view) => !!view && isSeat(view.seat) && (view.to_act || []).includes(view.seat);

// --- the trick ------------------------------------------------------------------------

class TrickView {
  constructor(table) {
    this.table = table;
    this.el = h('div', { class: 'trick-area' });
    this.box = h('div', { class: 'trick current' });
    this.caption = h('div', { class: 'trick-caption', 'data-role': 'trick-caption' });
    this.el.append(this.box, this.caption);
    this.slots = new Map();  // "seat:card" -> slot element
    this.hold = null;        // {timer, trick} while a finished trick is held
    this.mode = 'current';
  }

  clearHold() {
    if (!this.hold) return;
    clearTimeout(this.hold.timer);
    this.hold = null;
  }

  // Draw `cards` ([[seat, card]]), keeping the slots already there (no re-animation).
  draw(cards, mode, { winner = null, animate = true } = {}) {
    const { base, n } = this.table.geometry();
    const keep = new Set();
    for (const [seat, card] of cards || []) {
      const key = `${seat}:${card}`;
      keep.add(key);
      let slot = this.slots.get(key);
      if (!slot) {
        const pos = position(seat, base, n);
        slot = h('div', { class: `slot slot-${pos}`, 'data-seat': seat },
          cardEl(card), h('span', { class: 'slot-name', text: this.table.ctx.name(seat) }));
        if (animate && seat !== this.table.view.seat) {
          slot.classList.add('arrive', `from-${pos}`);
          playSound('card');
        }
        this.slots.set(key, slot);
        this.box.append(slot);
      }
      slot.classList.toggle('winner', seat === winner);
    }
    for (const [key, slot] of this.slots) {
      if (!keep.has(key)) { slot.remove(); this.slots.delete(key); }
    }
    this.mode = mode;
    this.el.classList.toggle('empty', !(cards || []).length);
    this.box.className = `trick ${mode} n${n}`;
    this.box.dataset.role = mode;
  }

  setCaption(text) {
    this.caption.textContent = text || '';
    this.caption.hidden = !text;
  }

  update(view, prev, showLast) {
    const completed = trickJustTaken(prev, view);
    const trick = view.trick || [];
    if (completed && !trick.length && !showLast) {
      // A trick just finished: hold it with "<name> takes", then sweep it to the winner.
      this.clearHold();
      playSound('trick');
      const lt = view.last_trick;
      this.draw(lt.cards, 'held', { winner: lt.winner });
      const name = this.table.ctx.name(lt.winner);
      this.setCaption(lt.winner === view.seat ? t('you_take') : t('takes', { name }));
      this.hold = { trick: lt, timer: setTimeout(() => this.sweep(lt.winner), HOLD_MS) };
      return;
    }
    if (this.hold && !trick.length && !showLast && !completed) return;  // still holding
    this.clearHold();
    if (showLast && view.last_trick) {
      this.draw(view.last_trick.cards, 'last', { winner: view.last_trick.winner, animate: false });
      this.setCaption(t('trick_won_by', { name: this.table.ctx.name(view.last_trick.winner) }));
      return;
    }
    this.box.classList.remove('sweep');
    this.draw(trick, 'current', { animate: !!prev });
    this.setCaption('');
  }

  sweep(winner) {
    const { base, n } = this.table.geometry();
    this.box.classList.add('sweep', `to-${position(winner, base, n)}`);
    this.hold.timer = setTimeout(() => {
      this.hold = null;
      this.box.classList.remove('sweep', 'to-left', 'to-right', 'to-top', 'to-bottom');
      this.draw(this.table.view.trick || [], 'current', { animate: false });
      this.setCaption('');
    }, SWEEP_MS);
  }

  // A language switch: the names on the cards (bots have names per language) and the caption.
  relabel() {
    for (const slot of this.slots.values()) {
      slot.querySelector('.slot-name').textContent = this.table.ctx.name(Number(slot.dataset.seat));
      const card = slot.querySelector('.card');
      card.replaceWith(cardEl(card.dataset.card));  // rank letters are the reader's (В / D / J ...)
    }
    const view = this.table.view;
    if (this.hold) {
      const w = this.hold.trick.winner;
      this.setCaption(w === view.seat ? t('you_take') : t('takes', { name: this.table.ctx.name(w) }));
    } else if (this.mode === 'last' && view.last_trick) {
      this.setCaption(t('trick_won_by', { name: this.table.ctx.name(view.last_trick.winner) }));
    }
  }

  destroy() { this.clearHold(); }
}

// --- the table ------------------------------------------------------------------------

export class Table {
  // ctx: name(seat), seatInfo(seat), connected(seat), request(action), choose(card), cancel(),
  //      confirmYes(), toggleLast(), toggleHelp(), dismissSummary(), back(), takeover(seat),
  //      rematch(), isHost(), historyHref(), family()
  constructor(ctx) {
    this.ctx = ctx;
    this.view = null;
    this.n = 0;
    this.el = h('div', { class: 'felt' });
    this.countdownTimer = setInterval(() => this.tickCountdown(), 250);
    this.onKey = (e) => this.tableKey(e);
    document.addEventListener('keydown', this.onKey);
  }

  // Keys at the table (listed in its help): H the hand, C the controls, B the bids (or the
  // contracts), P pass when pass is on offer, S the table said in words.  Never while
  // typing in a field.
  tableKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || !this.el.isConnected || !this.view) return;
    if (e.target.closest && e.target.closest('input, textarea, select, [contenteditable]')) return;
    const key = { KeyH: 'h', KeyC: 'c', KeyB: 'b', KeyP: 'p', KeyS: 's' }[e.code];  // the key's place: any layout (ru: з for P)
    if (!key) return;
    const first = (sel) => this.el.querySelector(sel);
    let target = null;
    if (key === 'h') target = first('.hand .card[tabindex="0"]') || first('.hand');
    else if (key === 'c') target = first('.controls button:not([disabled]), .controls select');
    else if (key === 'b') target = first('.controls :is([data-action^="bid:"], [data-action^="contract:"]):not([disabled]), .controls .num-select');
    else if (key === 'p') target = first('.controls [data-action="pass"]:not([disabled])');
    else if (key === 's') { announce(describeTable(this.view, (seat) => this.ctx.name(seat))); e.preventDefault(); return; }
    if (!target) return;
    e.preventDefault();
    if (key === 'p') target.click();
    else target.focus();
  }

  geometry() {
    return { base: this.view && isSeat(this.view.seat) ? this.view.seat : 0, n: this.n };
  }

  build(n) {
    this.n = n;
    this.seatRegions = [];
    this.opponents = h('div', { class: 'opponents' });
    const base = this.geometry().base;
    for (let s = 0; s < n; s++) {
      const r = new Region(h('div', { class: `seat-slot seat-slot-${position(s, base, n)}` }));
      this.seatRegions[s] = r;
      if (s !== base) this.opponents.append(r.el);
    }
    this.info = new Region(h('div', { class: 'info-row' }));
    this.pace = new Region(h('div', { class: 'pace-box' }));
    this.banners = new Region(h('div', { class: 'banners' }));
    this.summary = new Region(h('div', { class: 'summary-box' }));
    this.help = new Region(h('div', { class: 'help-box' }));
    this.trick = new TrickView(this);
    this.centerRow = new Region(h('div', { class: 'center-row' }));
    this.log = new Region(h('div', { class: 'log-box' }));
    // after my last action the focus goes back to the hand (a card I may act with, else the hand)
    this.controls = new Region(h('div', { class: 'controls' }),
      { fallback: () => this.el.querySelector('.hand .card[tabindex="0"]') || this.el.querySelector('.hand') });
    this.controls.el.addEventListener('keydown', moveAmong('button:not([disabled])'));
    this.takeback = new Region(h('div', { class: 'takeback-box' }));
    this.coach = new Region(h('div', { class: 'coach-box' }));
    this.hand = new Region(h('div', { class: 'hand-box' }), { fallback: () => this.el.querySelector('.hand') });
    this.center = h('div', { class: 'center' }, this.info.el, this.pace.el, this.banners.el, this.help.el,
      h('div', { class: 'mid' }, this.trick.el, this.summary.el), this.centerRow.el, this.log.el);
    this.me = h('div', { class: 'me' }, this.seatRegions[base].el, this.takeback.el, this.coach.el, this.controls.el, this.hand.el);
    this.el.replaceChildren(this.opponents, this.center, this.me);
    this.builtFor = `${n}:${base}`;
  }

  render(state) {
    const view = state.view;
    if (!view) return;
    const prev = this.view;
    const n = view.seats || (view.hand_sizes || []).length;
    const base = isSeat(view.seat) ? view.seat : 0;
    this.view = view;
    if (this.builtFor !== `${n}:${base}`) this.build(n);
    const fam = this.ctx.family();
    const lang = state.lang;
    const groups = groupLegal(view.legal);
    const mine = mineToAct(view);
    const names = Array.from({ length: n }, (_, s) => this.ctx.name(s));
    const seatsInfo = Array.from({ length: n }, (_, s) => this.ctx.seatInfo(s));
    const timer = state.timer && isSeat(state.timer.seat) ? state.timer : null;
    // a live room's countdown by the seat; a turn-based room's deadline on its own line (paceEl)
    const clock = timer && timer.pace !== 'turn' && timer.deadline !== null ? timer : null;
    Object.assign(this.el.dataset, {
      phase: view.phase, myTurn: mine ? 'true' : 'false', variant: view.variant, deal: view.deal,
      version: state.version ?? '', busy: state.busy ? 'true' : 'false', family: fam.name,
    });
    this.el.className = `felt seats-${n}${mine ? ' my-turn' : ''}${isSeat(view.seat) ? '' : ' spectating'}`;

    for (let s = 0; s < n; s++) {
      const pos = position(s, base, n);
      const key = JSON.stringify([lang, names[s], seatsInfo[s], (view.hand_sizes || [])[s], (view.to_act || []).includes(s),
        view.dealer, view.active, view.titles, fam.seatStats(view, s).map((x) => x.textContent),
        clock && clock.seat === s ? [clock.deadline, clock.total] : null]);
      this.seatRegions[s].render(key, () => this.seatBox(view, s, pos, fam, clock));
    }
    this.info.render(JSON.stringify([lang, view.deal, view.phase, view.trump, view.contract, view.bid, view.declarer,
      view.chooser, view.round, names, state.help, this.ctx.preset(), this.ctx.coach()]), () => this.infoStrip(view, fam, state));
    this.help.render(JSON.stringify([lang, state.help, view.phase]), () => this.helpBox(view, fam, state));
    const turnTimer = timer && timer.pace === 'turn' && view.phase !== 'match_over' ? timer : null;
    this.pace.render(JSON.stringify([lang, turnTimer, turnTimer && names[turnTimer.seat], turnTimer && state.minute,
      view.seat, !!state.takeback, this.ctx.isHost()]), () => this.paceEl(view, turnTimer, state));
    this.banners.render(JSON.stringify([lang, names, seatsInfo, view.phase, view.seat, this.ctx.isHost(), this.ctx.pace()]),
      () => this.bannersEl(view, seatsInfo));
    const over = view.phase === 'match_over';
    this.summary.render(JSON.stringify([lang, names, state.summaryDeal, over && view.result, state.summaryDeal && view.scoresheet && view.scoresheet.length]),
      () => [over ? this.standingsEl(view) : null, this.summaryEl(view, fam, state.summaryDeal)]);
    if (!prev || prev !== view || this.lastShowLast !== state.showLast) this.trick.update(view, prev, state.showLast);
    this.lastShowLast = state.showLast;
    if (this.lastLang !== undefined && this.lastLang !== lang) this.trick.relabel();
    this.lastLang = lang;
    this.trick.el.hidden = over && !(view.trick || []).length && !state.showLast && !this.trick.hold;
    this.centerRow.render(JSON.stringify([lang, view.face_up, view.talon_size, !!view.last_trick, state.showLast]),
      () => this.centerRowEl(view, fam, state));
    this.log.render(JSON.stringify([lang, names, (view.log || []).slice(-3)]), () => this.logEl(view));
    const lastEntry = (view.log || []).slice(-1)[0];
    const lastMine = !!(lastEntry && isSeat(view.seat) && lastEntry[0] === view.seat && state.version === this.ctx.myLast());
    this.takeback.render(JSON.stringify([lang, names, state.takeback, lastMine, view.seat, state.busy]),
      () => this.takebackEl(view, state, lastMine));
    if (!isSeat(view.seat)) {
      this.controls.render(JSON.stringify([lang, names, view.to_act, view.phase, 'spectator']),
        () => [this.promptEl(view, groups, false), h('p', { class: 'muted spectating-note', text: t('spectating') })]);
      this.hand.render('spectator', () => null);
      this.me.classList.add('spectator');
      return;
    }
    this.me.classList.remove('spectator');
    this.controls.render(JSON.stringify([lang, names, view.legal, view.confirm, view.to_act, view.phase, state.busy,
      state.chooser, state.confirm, view.hand, view.seat]), () => this.controlsEl(view, groups, state));
    this.hand.render(JSON.stringify([lang, view.hand, view.legal, view.to_act, state.busy, state.chooser]),
      () => this.handEl(view, groups, state));
    const hint = this.ctx.coach() && state.hint && state.hint.version === state.version && state.hint.seat === view.seat
      ? state.hint : null;
    const asked = state.hintAsked === state.version && !hint;
    this.coach.render(JSON.stringify([lang, this.ctx.coach(), mine, hint, asked, state.busy, view.phase]),
      () => this.coachEl(view, mine, hint, asked, state));
    this.markHint(hint);
  }

  // The coach (a room with it on): a Hint button at my turn; its advice in words, and the
  // card or button it names marked until the match moves on.
  coachEl(view, mine, hint, asked, state) {
    if (!this.ctx.coach() || view.phase === 'match_over') return null;
    if (hint) {
      const text = t('coach.says', { action: actionLabel(hint.action, this.ctx.name), why: reasonText(hint.reason) });
      return h('p', { class: 'coach-hint', 'data-role': 'hint-text', role: 'status' }, suitedText(text));
    }
    if (!mine) return null;
    if (asked) return h('p', { class: 'coach-hint muted', 'data-role': 'hint-wait', role: 'status', text: t('coach.thinking') });
    return h('button', { type: 'button', class: 'btn small ghost', 'data-role': 'hint', disabled: state.busy,
      onclick: () => this.ctx.hint(), text: t('coach.ask') });
  }

  markHint(hint) {
    for (const el of this.el.querySelectorAll('.hinted')) el.classList.remove('hinted');
    if (!hint) return;
    const p = parseAction(hint.action);
    const target = this.el.querySelector(`.controls [data-action="${CSS.escape(hint.action)}"]`)
      || (p.card ? this.el.querySelector(`.hand [data-card="${CSS.escape(p.card)}"]`) : null);
    if (target) target.classList.add('hinted');
  }

  tickCountdown() {
    const el = this.el.querySelector('[data-role=countdown]');
    if (!el) return;
    const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - Date.now()) / 1000));
    const text = t('seconds_left', { s: left });
    if (el.textContent !== text) el.textContent = text;
    el.dataset.left = String(left);
  }

  seatBox(view, seat, pos, fam, timer) {
    const ctx = this.ctx;
    const toAct = (view.to_act || []).includes(seat);
    const active = !view.active || view.active.includes(seat);
    const title = view.titles && view.titles[seat];
    const count = (view.hand_sizes || [])[seat] ?? 0;
    const info = ctx.seatInfo(seat) || {};
    const connected = !!info.connected || info.is_bot;
    const fan = pos === 'bottom' ? null : h('div', { class: 'fan' },
      Array.from({ length: Math.min(count, 8) }, () => backEl({ small: true })),
      h('span', { class: 'count', text: String(count), title: t('cards_n', { n: count }) }));
    const clock = timer && timer.seat === seat
      ? h('span', { class: 'countdown', 'data-role': 'countdown', 'data-deadline': timer.deadline, text: '' }) : null;
    const el = h('div', {
      class: `seat seat-${pos}${toAct ? ' to-act' : ''}${info.takeover ? ' takeover' : ''}${active ? '' : ' inactive'}${seat === view.seat ? ' mine' : ''}`,
      'data-seat': seat,
    },
    h('div', { class: 'seat-head' },
      h('span', { class: `dot ${connected ? 'on' : 'off'}`, title: connected ? t('online') : t('offline') }),
      info.is_bot ? h('span', { class: 'badge bot', text: t('bot') }) : null,
      h('span', { class: 'pname', text: ctx.name(seat), title: ctx.name(seat) }),
      isSeat(view.dealer) && view.dealer === seat ? h('span', { class: 'chip', title: t('dealer'), text: 'D' }) : null,
      clock),
    h('div', { class: 'seat-stats' },
      info.takeover && !info.is_bot ? h('span', { class: 'badge takeover', 'data-role': 'takeover', text: t('takeover') }) : null,
      title ? h('span', { class: `badge t-${title}`, text: titleName(title, view.variant) }) : null,
      fam.seatStats(view, seat)),
    fan);
    if (clock) queueMicrotask(() => this.tickCountdown());
    return el;
  }

  // A turn-based match: who is awaited and since when, the deadline ("in 5 hours" and the
  // moment, redrawn each minute), or why it is paused, or that it has passed and the match
  // waits (the host may let a bot make the move or end the match).  All as the server's
  // timer message says; my own turn stands out.
  paceEl(view, timer, state) {
    if (!timer) return null;
    const mine = isSeat(view.seat) && timer.seat === view.seat;
    const name = this.ctx.name(timer.seat);
    const status = timer.expired ? 'expired' : timer.paused ? 'paused' : 'due';
    // running: "in …" from the seconds left as received (this page's clock may differ from
    // the server's); paused: the seconds stand still, the due time (a vacation's) is the server's
    const at = status === 'due' && timer.deadline !== null ? timer.deadline : timer.due;
    const due = at ? t('pace.due', { rel: fromNow(at), time: dateTime(timer.due || at, WHEN) }) : '';
    let line;
    if (status === 'expired') {
      line = h('span', { class: 'pace-due', text: mine ? t('pace.expired_mine') : t('pace.expired') });
    } else if (status === 'paused') {
      line = [h('span', { class: 'pace-due', text: state.takeback ? t('pace.paused_takeback') : t('pace.paused_away', { names: name }) }),
        due ? h('span', { class: 'pace-later', text: ` · ${due}` }) : null];
    } else {
      line = h('span', { class: 'pace-due', 'data-due': timer.due || '', text: due });
    }
    const host = status === 'expired' && this.ctx.isHost() && !mine;  // my own move: I just play it
    return h('div', { class: `pace-line${mine ? ' mine' : ''}`, 'data-role': 'pace-line', 'data-state': status, 'data-seat': timer.seat },
      h('p', { class: 'pace-who' },
        h('b', { text: mine ? t('pace.yours') : t('pace.awaited', { names: name }) }),
        timer.since ? h('span', { class: 'pace-since', text: ` · ${t('pace.since', { time: dateTime(timer.since, WHEN) })}` }) : null),
      h('p', { class: 'pace-when' }, line),
      host ? h('div', { class: 'pace-host', 'data-role': 'pace-host' },
        h('p', { class: 'pace-host-q', text: t('pace.expired_host') }),
        h('div', { class: 'pace-host-buttons' },
          h('button', { type: 'button', class: 'btn small primary', 'data-role': 'pace-bot', 'data-seat': timer.seat,
            onclick: (e) => this.ctx.takeover(Number(e.currentTarget.dataset.seat)), text: t('bot_now') }),
          h('button', { type: 'button', class: 'btn small danger', 'data-role': 'pace-end',
            onclick: () => this.ctx.askEnd(), text: t('end_match') }))) : null);
  }

  infoStrip(view, fam, state) {
    const hasHelp = has(helpKey(view, fam));
    const preset = this.ctx.preset();
    return h('div', { class: 'info-strip' },
      // a club preset's room: its name, and what it changes on a tap (lobby.js presetEl)
      preset ? h('details', { class: 'preset-chip', 'data-role': 'preset-chip' },
        h('summary', { 'data-role': 'preset-chip-name', text: preset.name }),
        h('div', { class: 'preset-pop' }, presetEl(preset))) : null,
      h('span', { class: 'phase', text: `${t('deal_n', { n: view.deal ?? '' })} · ${t('phases.' + view.phase)}` }),
      fam.infoItems(view, this.ctx),
      this.ctx.coach() ? h('span', { class: 'badge coach', 'data-role': 'coach-on', title: t('coach.on_title'), text: t('coach.on') }) : null,
      hasHelp ? h('button', { type: 'button', class: `help-btn${state.help ? ' on' : ''}`, 'data-role': 'help', title: t('help'),
        'aria-label': t('help'), 'aria-expanded': state.help ? 'true' : 'false', onclick: () => this.ctx.toggleHelp() }, '?') : null);
  }

  helpBox(view, fam, state) {
    if (!state.help) return null;
    const text = t(helpKey(view, fam));
    if (typeof text !== 'string' || text === view.phase) return null;
    return h('div', { class: 'help', 'data-role': 'help-text' },
      h('p', { text }),
      h('p', { class: 'keys', 'data-role': 'help-keys', text: t('keys_help') }),
      h('button', { type: 'button', class: 'btn small ghost', onclick: () => this.ctx.toggleHelp(), text: t('close') }));
  }

  bannersEl(view, seatsInfo) {
    if (view.phase === 'match_over') return null;
    const out = [];
    seatsInfo.forEach((info, seat) => {
      if (!info || info.is_bot || info.player === null || info.player === undefined) return;
      if (seat === view.seat) {
        if (info.takeover) {
          out.push(h('div', { class: 'banner-line me-bot', 'data-role': 'bot-plays-you' }, t('bot_plays_you'), ' ',
            h('button', { type: 'button', class: 'btn small primary', 'data-role': 'im-back', onclick: () => this.ctx.back(), text: t('im_back') })));
        }
        return;
      }
      // in a turn-based match nobody is expected to sit at an open page: no "connection lost"
      if (!info.connected && this.ctx.pace() !== 'turn') {
        out.push(h('div', { class: 'banner-line', 'data-role': 'disconnected', 'data-seat': seat },
          h('span', { text: info.takeover ? `${t('lost_conn', { name: this.ctx.name(seat) })} · ${t('bot_plays_for', { name: this.ctx.name(seat) })}`
            : t('lost_conn', { name: this.ctx.name(seat) }) }),
          this.ctx.isHost() && !info.takeover
            ? h('button', { type: 'button', class: 'btn small', 'data-role': 'bot-now', 'data-seat': seat,
              onclick: () => this.ctx.takeover(seat), text: t('bot_now') }) : null));
      }
    });
    return out;
  }

  summaryEl(view, fam, deal) {
    if (!deal) return null;
    const body = fam.summary(view, deal, this.ctx);
    if (!body) return null;
    return h('section', { class: 'summary', 'data-role': 'deal-summary', 'data-deal': deal },
      h('div', { class: 'summary-title' }, h('b', { text: t('deal_n', { n: deal }) }),
        h('button', { type: 'button', class: 'btn small', 'data-role': 'dismiss-summary', onclick: () => this.ctx.dismissSummary(),
          text: t('dismiss') })),
      body);
  }

  // The final standings as the engine placed them (result.places: the family's tie rules,
  // equal places shared). A match the host stopped has no places: its seats in seat order.
  standingsEl(view) {
    const result = view.result || {};
    const totals = result.totals || view.totals || [];
    const places = result.places || [];
    const placed = places.length === totals.length;
    const order = totals.map((v, s) => s);
    if (placed) order.sort((a, b) => places[a] - places[b] || a - b);
    const winners = listOf((result.winners || []).map((s) => this.ctx.name(s)));
    const href = this.ctx.historyHref();
    return h('section', { class: 'standings', 'data-role': 'match-over' },
      h('h2', { text: t('standings') }),
      view.abandoned ? h('p', { class: 'winners', 'data-role': 'abandoned-standings', text: t('match_abandoned') })  // the host stopped it
        : h('p', { class: 'winners', text: t('winners', { names: winners }) }),
      h(placed ? 'ol' : 'ul', { class: 'standings-list' }, order.map((s) => h('li', { class: (result.winners || []).includes(s) ? 'winner' : '', 'data-seat': s,
        'data-place': placed ? places[s] : null },
        placed ? h('span', { class: 'place', text: `${places[s]}.` }) : null, h('span', { class: 'pname', text: this.ctx.name(s) }),
        h('b', { text: String(totals[s]) })))),
      h('div', { class: 'standings-actions' },
        this.ctx.isHost() ? h('button', { type: 'button', class: 'btn primary', 'data-role': 'standings-rematch',
          onclick: () => this.ctx.rematch(), text: t('rematch') }) : null,
        href ? h('a', { class: 'btn ghost', href, target: '_blank', rel: 'noopener', 'data-role': 'history-link', text: t('open_history') }) : null));
  }

  centerRowEl(view, fam, state) {
    const parts = [];
    if (view.face_up && view.face_up.length) {
      parts.push(h('div', { class: 'face-up' }, h('span', { class: 'label', text: fam.faceUpLabel(view) }),
        h('div', { class: 'cards' }, view.face_up.map((c) => cardEl(c, { small: true })))));
    } else if (view.talon_size) {
      parts.push(h('div', { class: 'face-up' }, h('span', { class: 'label', text: t('talon') }),
        h('div', { class: 'cards' }, Array.from({ length: view.talon_size }, () => backEl({ small: true })))));
    }
    if (view.last_trick) {
      parts.push(h('button', { type: 'button', class: `btn ghost small${state.showLast ? ' on' : ''}`, 'data-role': 'last-trick',
        onclick: () => this.ctx.toggleLast() }, state.showLast ? t('hide') : t('last_trick')));
    }
    return parts;
  }

  logEl(view) {
    const entries = (view.log || []).slice(-3);
    if (!entries.length) return null;
    return h('ol', { class: 'deal-log' }, entries.map(([seat, a]) => h('li', null,
      isSeat(seat) ? h('b', { text: this.ctx.name(seat) + ': ' }) : null,
      h('span', null, suitedText(actionLabel(a, this.ctx.name))))));
  }

  // What to do, in words: from the kinds of action on offer (mine), or the phase (others).
  promptEl(view, groups, mine) {
    if (view.phase === 'match_over') return h('div', { class: 'prompt muted', 'data-role': 'prompt', text: t('match_over') });
    if (!mine) {
      const who = listOf((view.to_act || []).map((s) => this.ctx.name(s)));
      const text = t(has('wait.' + view.phase) ? 'wait.' + view.phase : 'wait.other', { name: who });
      return h('div', { class: 'prompt muted', 'data-role': 'prompt', text });
    }
    const kinds = new Set([...groups.byCard.values()].flat().map((p) => p.kind).concat(groups.buttons.map((p) => p.kind)));
    const min = (kind) => (groups.numeric.get(kind) || [])[0];
    let text;
    if (kinds.has('give')) text = view.phase === 'talon' ? t('do.give') : view.phase === 'tribute' ? t('do.tribute') : t('do.pool');
    else if (min('contract')) text = t('do.contract', { n: min('contract').n });
    else if (this.ctx.family().prompt && this.ctx.family().prompt(view, kinds)) text = this.ctx.family().prompt(view, kinds);
    else if (min('bid')) text = t('do.bid', { n: min('bid').n });
    else if (kinds.has('take_pair')) text = t('do.take_pair');
    else if (kinds.has('discard')) text = t('do.discard');
    else if (kinds.has('swap')) text = t('do.swap');
    else if (kinds.has('take')) text = t('do.take');
    else if (kinds.has('trump')) text = t('do.trump');
    else if (kinds.has('order') || kinds.has('order_trump')) text = t('do.order');
    else if (kinds.has('spare')) text = t('do.spare');
    else if (kinds.has('strike') || kinds.has('accept')) text = t('do.strike');
    else if (kinds.has('play') || kinds.has('marriage')) text = t('do.play');
    else if (kinds.has('throw')) text = t('do.throw');
    else text = t('do.other');
    if (kinds.has('writeoff')) text += ' ' + t('do.or_writeoff');
    if (kinds.has('strike') && !kinds.has('accept')) text += ' ' + t('do.or_strike');
    return h('div', { class: 'prompt mine', 'data-role': 'prompt', text });
  }

  button(action, state, cls = '') {
    return h('button', {
      type: 'button', class: `btn ${cls}`, 'data-action': action, disabled: state.busy,
      onclick: () => this.ctx.request(action),
    }, suitedText(actionLabel(action, this.ctx.name)));
  }

  numericControl(kind, list, state) {
    const quick = list.slice(0, 4);
    const rest = list.slice(quick.length);
    const wrap = h('div', { class: 'numeric' }, quick.map((p) => this.button(p.raw, state, 'call')));
    if (rest.length) {
      const chosen = this.numChoice && rest.some((p) => p.raw === this.numChoice) ? this.numChoice : rest[0].raw;
      const select = h('select', { class: 'num-select', 'aria-label': t(kind) },
        rest.map((p) => h('option', { value: p.raw, selected: p.raw === chosen, text: String(p.n) })));
      const go = h('button', { class: 'btn call', type: 'button', 'data-action': chosen, 'data-role': 'num-go', disabled: state.busy,
        onclick: (e) => this.ctx.request(e.currentTarget.dataset.action) }, suitedText(actionLabel(chosen)));
      on(select, 'change', (e) => {
        const value = e.currentTarget.value;
        const button = e.currentTarget.parentElement.querySelector('[data-role="num-go"]');
        this.numChoice = value;
        button.dataset.action = value;
        button.replaceChildren(...suitedText(actionLabel(value)));
      });
      wrap.append(h('span', { class: 'more' }, select, go));
    }
    return wrap;
  }

  // The opponents of a give chooser always in seat order, starting at your left.
  chooserList(view, list) {
    const n = this.n;
    const me = isSeat(view.seat) ? view.seat : 0;
    return [...list].sort((a, b) => {
      if (a.to === null || b.to === null) return 0;
      return ((a.to - me + n) % n) - ((b.to - me + n) % n);
    });
  }

  // Take-backs (README "Take-backs"): the server decides what may be taken back;
  // the asker's Undo shows after his own last action, the others answer the request.
  takebackEl(view, state, lastMine) {
    const req = state.takeback;
    if (req) {
      const text = suitedText(t('takeback_asks', { name: req.asker, action: actionLabel(req.action, this.ctx.name) }));
      if (isSeat(view.seat) && req.waiting.includes(view.seat)) {
        return h('div', { class: 'confirm takeback-prompt', 'data-role': 'takeback-prompt', role: 'alertdialog' },
          h('span', { class: 'confirm-q' }, text),
          h('button', { type: 'button', class: 'btn primary', 'data-role': 'takeback-agree',
            onclick: () => this.ctx.takebackAnswer(true), text: t('takeback_agree') }),
          h('button', { type: 'button', class: 'btn ghost', 'data-role': 'takeback-decline',
            onclick: () => this.ctx.takebackAnswer(false), text: t('takeback_decline') }));
      }
      return h('p', { class: 'muted', 'data-role': 'takeback-waiting' }, text, ' ', t('takeback_waiting'));
    }
    if (!lastMine || state.busy) return null;
    return h('button', { type: 'button', class: 'btn small ghost', 'data-role': 'takeback',
      onclick: () => this.ctx.takeback(), text: t('takeback_undo') });
  }

  controlsEl(view, groups, state) {
    const mine = mineToAct(view);
    const rows = [this.promptEl(view, groups, mine)];
    if (!mine) return rows;
    if (state.confirm && (view.legal || []).includes(state.confirm)) {
      rows.push(h('div', { class: 'confirm', 'data-role': 'confirm', role: 'alertdialog' },
        h('span', { class: 'confirm-q' }, suitedText(t('confirm_q', { action: actionLabel(state.confirm, this.ctx.name) }))),
        h('button', { type: 'button', class: 'btn danger', 'data-role': 'confirm-yes', 'data-confirm': state.confirm,
          disabled: state.busy, onclick: () => this.ctx.confirmYes(), text: t('yes') }),
        h('button', { type: 'button', class: 'btn ghost', 'data-role': 'confirm-no', onclick: () => this.ctx.cancel(), text: t('no') })));
      return rows;
    }
    if (state.chooser && groups.byCard.has(state.chooser)) {
      rows.push(h('div', { class: 'chooser', 'data-role': 'chooser' },
        cardEl(state.chooser, { small: true }),
        this.chooserList(view, groups.byCard.get(state.chooser)).map((p) => this.button(p.raw, state, p.kind === 'marriage' ? 'marriage' : 'primary')),
        h('button', { type: 'button', class: 'btn ghost', onclick: () => this.ctx.choose(null), text: t('cancel') })));
    }
    // Card actions on cards that are not in your hand (a shown talon, the Peasant's shown hand).
    const hand = new Set(view.hand || []);
    const outside = [...groups.byCard.keys()].filter((c) => !hand.has(c));
    if (outside.length) rows.push(h('div', { class: 'outside-cards' }, outside.map((c) => this.playableCard(c, groups.byCard.get(c), state))));
    for (const [kind, list] of groups.numeric) rows.push(this.numericControl(kind, list, state));
    if (groups.buttons.length) {
      const risky = new Set(view.confirm || []);
      rows.push(h('div', { class: 'buttons' }, groups.buttons.map((p) =>
        this.button(p.raw, state, risky.has(p.raw) ? 'danger' : (p.kind === 'pass' ? 'pass' : 'primary')))));
    }
    return rows;
  }

  playableCard(card, list, state) {
    const el = cardEl(card, { extraClass: 'playable' });
    el.dataset.actions = list.map((p) => p.raw).join(' ');
    el.tabIndex = 0;
    el.setAttribute('role', 'button');
    el.title = list.map((p) => actionLabel(p, this.ctx.name)).join(' / ');
    on(el, 'click', () => {
      if (state.busy) return;
      if (list.length === 1) this.ctx.request(list[0].raw);  // one action: do it; several: ask
      else this.ctx.choose(card);
    });
    on(el, 'keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); e.currentTarget.click(); } });
    if (state.chooser === card) el.classList.add('chosen');
    return el;
  }

  handEl(view, groups, state) {
    const mine = mineToAct(view);
    const anyCardAction = groups.byCard.size > 0;
    const cards = (view.hand || []).map((c) => {
      const list = groups.byCard.get(c) || [];
      if (mine && list.length) return this.playableCard(c, list, state);
      const el = cardEl(c, { extraClass: mine && anyCardAction ? 'dimmed' : '' });
      if (mine && anyCardAction) el.setAttribute('aria-disabled', 'true');
      return el;
    });
    // a phone lays a long hand (Król's 18 before the trim) in two rows, so each card shows a strip one can touch
    const row = cards.length > LONG_HAND ? Math.ceil(cards.length / 2) : cards.length;
    if (row < cards.length) cards[row].dataset.rowStart = 'true';
    const hand = h('div', { class: 'hand', 'data-count': cards.length, style: { '--n': Math.max(cards.length, 1), '--row': Math.max(row, 1) },
      role: 'group', 'aria-label': t('your_hand'), tabindex: '-1' }, cards);
    on(hand, 'keydown', moveAmong('.card[tabindex="0"]'));
    return hand;
  }

  destroy() {
    clearInterval(this.countdownTimer);
    document.removeEventListener('keydown', this.onKey);
    if (this.trick) this.trick.destroy();
  }
}

const LONG_HAND = 13;  // more cards than this lie in two rows on the phone (css: .hand on a narrow screen)

// Arrow keys (and Home / End) move the focus along the cards one may act with, or along
// the buttons of the controls (a select keeps its own arrows).
function moveAmong(selector) {
  return (e) => {
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[e.key];
    if (step === undefined && e.key !== 'Home' && e.key !== 'End') return;
    if (e.target.closest('select, input, textarea')) return;
    const items = [...e.currentTarget.querySelectorAll(selector)];
    if (!items.length) return;
    e.preventDefault();
    const at = items.indexOf(document.activeElement);
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? items.length - 1
      : at < 0 ? 0 : (at + step + items.length) % items.length;
    items[next].focus();
  };
}

// The table in words, for the S key: my hand by suit, the trick on the table, the totals.
function describeTable(view, name) {
  const parts = [];
  const hand = view.hand || [];
  if (hand.length) {
    const bySuit = SUIT_ORDER.map((suit) => hand.filter((c) => c[1] === suit))
      .filter((cards) => cards.length)
      .map((cards) => `${t('suits.' + cards[0][1])}: ${listOf(cards.map((c) => t('card_ranks.' + c[0])), { type: 'unit' })}`);
    parts.push(`${t('your_hand')}: ${bySuit.join('; ')}`);
  }
  const trick = view.trick || [];
  parts.push(trick.length ? `${t('trick')}: ${listOf(trick.map(([seat, c]) => `${name(seat)} ${cardName(c)}`))}`
    : t('trick_empty'));
  if (Array.isArray(view.totals)) parts.push(`${t('total')}: ${listOf(view.totals.map((x, s) => `${name(s)} ${number(x)}`))}`);
  return parts.join('. ');
}
