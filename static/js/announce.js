// One polite live region (#announcer in index.html) that tells a screen-reader player
// what happens at the table, in the page's language: each action of the deal's log as
// it arrives ("Петя: дама червей"), who takes a trick, each deal's scores, "your turn"
// with what to do, the turn clock, a bot taking a seat, a player gone or back, and chat.
// It reads the view the server sent; it decides nothing.

import { t, listOf, number, dateTime, fromNow, WHEN } from './i18n.js';
import { actionLabel, trickJustTaken } from './actions.js';

const KEEP = 8;  // lines kept in the region (older ones are removed; readers have said them)

export function announce(text) {
  const box = document.getElementById('announcer');
  if (!box || !text) return;
  const line = document.createElement('p');
  line.textContent = text;
  box.append(line);
  while (box.childElementCount > KEEP) box.firstElementChild.remove();
}

// What changed from `before` to `now` ({view, match, version} of one seat), said in
// words.  `name(seat)` names a player; `prompt` is the table's own line of what to do.
export function tellChanges(before, now, name, prompt) {
  const view = now.view;
  if (!view) return;
  const prev = before && before.match === now.match ? before.view : null;
  const who = (seat) => (seat === view.seat ? t('you') : name(seat));
  const log = view.log || [];
  const seen = prev && prev.deal === view.deal ? (prev.log || []).length : null;
  if (seen !== null && log.length > seen) {
    for (const [seat, a] of log.slice(seen)) {
      const said = actionLabel(a, name, { spoken: true });
      announce(seat === null || seat === undefined ? said : `${who(seat)}: ${said}`);
    }
  }
  if (trickJustTaken(prev, view)) {
    const w = view.last_trick.winner;
    announce(w === view.seat ? t('you_take') : t('takes', { name: name(w) }));
  }
  // a deal scored: "Сдача 3: Аня +120, Боря −60" (the engine's last_deal, nothing worked out here)
  const ld = view.last_deal;
  if (prev && ld && Array.isArray(ld.scores) && (!prev.last_deal || prev.last_deal.deal !== ld.deal)) {
    const scores = ld.scores.map((x, s) => `${who(s)} ${number(x, { signDisplay: 'exceptZero' })}`);
    announce(`${t('deal_n', { n: ld.deal })}: ${listOf(scores)}`);
  }
  // my turn: when it comes, and again after each action while it stays mine (two gives)
  const mine = (view.to_act || []).includes(view.seat);
  if (mine && (!prev || before.version !== now.version)) {
    announce(prompt ? `${t('your_turn')}: ${prompt}` : t('your_turn'));
  }
}

// The room's presence changed: a bot took a seat, a player lost the connection or came back.
export function tellPresence(before, now, name, mySeat) {
  if (!before || !now) return;
  const was = new Map((before.seats || []).map((x) => [x.seat, x]));
  for (const s of now.seats || []) {
    const p = was.get(s.seat);
    if (!p || p.player !== s.player || s.is_bot || p.is_bot) continue;
    const mine = s.seat === mySeat;
    if (s.takeover && !p.takeover) announce(mine ? t('bot_plays_you') : t('bot_plays_for', { name: name(s.seat) }));
    else if (!mine && p.connected && !s.connected) announce(t('lost_conn', { name: name(s.seat) }));
    else if (!mine && !p.connected && s.connected) announce(t('is_back', { name: name(s.seat) }));
  }
}

// The turn clock started for my seat: how long before a bot plays for me (live), or the
// deadline of my move (turn-based: said once when my turn begins, not at every timer
// message of that turn — a pause, a reconnect).
let toldTurn = null;  // "<match>:<since>" of the turn-based turn whose deadline was said
export function tellTimer(timer, mySeat) {
  if (!timer || timer.seat !== mySeat || mySeat === null || mySeat === undefined) return;
  if (timer.pace === 'turn') {
    const turn = `${timer.match}:${timer.since}`;
    if (!timer.due || timer.paused || timer.expired || turn === toldTurn) return;
    toldTurn = turn;
    const at = typeof timer.seconds === 'number' ? Date.now() + timer.seconds * 1000 : timer.due;
    announce(t('pace.say_due', { rel: fromNow(at), time: dateTime(timer.due, WHEN) }));
    return;
  }
  if (timer.seconds > 0) announce(t('timer_yours', { s: Math.ceil(timer.seconds) }));
}

// A chat line from someone else (mine I have just typed).
export function tellChat(msg, myId) {
  if (msg.player !== myId) announce(t('chat_said', { name: msg.name, text: msg.text }));
}
