// "This page is out of date": shown when the server sends a message this page does not
// know (an old cached client after a deploy). The page keeps working; the notice offers
// a reload and stays until the player reloads or closes it.

import { h } from './dom.js';
import { t, onLang } from './i18n.js';

let notice = null;

function label() {
  notice.querySelector('[data-role=outdated-text]').textContent = t('outdated');
  notice.querySelector('[data-role=reload]').textContent = t('reload');
  notice.querySelector('[data-role=close-outdated]').setAttribute('aria-label', t('dismiss'));
}

onLang(() => { if (notice) label(); });

export function showOutdated() {
  if (notice && notice.isConnected) return notice;
  notice = h('div', { class: 'outdated', role: 'alert', 'data-role': 'outdated' },
    h('span', { 'data-role': 'outdated-text' }),
    h('button', { type: 'button', class: 'btn primary small', 'data-role': 'reload', onclick: () => window.location.reload() }),
    h('button', { type: 'button', class: 'btn ghost small', 'data-role': 'close-outdated', onclick: () => { notice.remove(); } }, '✕'));
  label();
  document.body.append(notice);
  return notice;
}
