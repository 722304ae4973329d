// The coach's review of a finished deal in the history's replay (issue 36): the seat's
// decisions where the coach's estimate of the action played was below its own choice by
// more than the server's threshold (GET /api/matches/{id}/deals/{n}/review?seat=S).
// Only for a match played with the coach on; while the match runs only for the viewer's
// own seat (the server refuses anything else); once it is over for any seat.  The reason
// is worded as the table's hint is (actions.js reasonText); a marked decision jumps the
// replay to the step of the action played.

import { h } from './dom.js';
import { t } from './i18n.js';
import { me, req } from './api.js';
import { actionLabel, reasonText } from './actions.js';

const OVER = new Set(['finished', 'abandoned']);

function reviewUrl(matchId, deal, seat) {
  return `/matches/${encodeURIComponent(matchId)}/deals/${Number(deal)}/review?seat=${Number(seat)}`;
}

// The review box under the replay's board, or null where the route would not answer.
export function dealReviewEl(replay) {
  const detail = replay.detail;
  const who = me();
  if (!detail.coached || !who || !replay.deal) return null;
  const mine = (detail.seats || []).find((s) => s.player === who.id);
  if (!mine && !OVER.has(detail.status)) return null;
  const seat = mine ? mine.seat : (replay.reviewSeat ?? 0);
  replay.reviews = replay.reviews || new Map();  // "deal:seat" -> {loading} | {body} | {error}
  const key = `${replay.deal.deal}:${seat}`;
  const got = replay.reviews.get(key);
  const ask = () => {
    replay.reviews.set(key, { loading: true });
    replay.draw();
    req('GET', reviewUrl(detail.id, replay.deal.deal, seat))
      .then((body) => replay.reviews.set(key, { body }))
      .catch((error) => replay.reviews.set(key, { error }))
      .finally(() => { if (replay.root.isConnected) replay.draw(); });
  };
  const head = [h('h3', { text: t('coach_review.title') })];
  if (!mine) {
    head.push(h('label', { class: 'review-seat' }, `${t('coach_review.seat')} `,
      h('select', { 'data-role': 'review-seat', onchange: (e) => { replay.reviewSeat = Number(e.target.value); replay.draw(); } },
        replay.names.map((nm, s) => h('option', { value: s, selected: s === seat, text: nm })))));
  }
  let body;
  if (!got) {
    body = h('button', { type: 'button', class: 'btn small ghost', 'data-role': 'deal-review-ask', onclick: ask }, t('coach_review.ask'));
  } else if (got.loading) {
    body = h('p', { class: 'muted', role: 'status', text: t('coach_review.thinking') });
  } else if (got.error) {
    body = h('p', { class: 'muted', role: 'status', 'data-role': 'deal-review-error',
      text: got.error.status === 429 ? t('coach_review.busy') : t('coach_review.failed') });
  } else {
    body = reviewList(replay, got.body, !!mine);
  }
  return h('section', { class: 'deal-review', 'data-role': 'deal-review', 'data-seat': seat }, head, body);
}

function reviewList(replay, review, mine) {
  const name = (s) => replay.name(s);
  const weighed = h('p', { class: 'muted small', 'data-role': 'deal-review-count', text: t('coach_review.weighed', { n: review.reviewed }) });
  if (!review.marked.length) return [weighed, h('p', { 'data-role': 'deal-review-none', text: t('coach_review.none') })];
  return [weighed, h('ol', { class: 'deal-review-marks' }, review.marked.map((x) => {
    const text = t(mine ? 'coach_review.you' : 'coach_review.they', {
      step: x.step + 1, name: name(review.seat), played: actionLabel(x.action_played, name),
      best: actionLabel(x.best_action, name), why: reasonText(x.reason) });
    // The replay's step after the action played (its log marks it): jump there.
    return h('li', { 'data-role': 'deal-review-mark', 'data-step': x.step + 1 },
      h('button', { type: 'button', onclick: () => { replay.stop(); replay.go(x.step + 1); }, text }));
  }))];
}
