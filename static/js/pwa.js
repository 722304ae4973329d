// The installable app, page side: the service worker (sw.js) registered, a new build offered
// as "new version: reload", and the page's standing notices (offline, a move waiting to be
// sent, a new version) in one place under the header (#notices).

import { h } from './dom.js';
import { t, onLang } from './i18n.js';

const notices = new Map();  // id -> { key, action: { key, run } | null }, in the order shown

function draw() {
  const box = document.getElementById('notices');
  if (!box) return;
  box.replaceChildren(...[...notices].map(([id, n]) => h('div', { class: 'notice', 'data-notice': id },
    h('span', { text: t(n.key) }),
    n.action ? h('button', { type: 'button', class: 'btn small primary', 'data-role': `notice-${id}`,
      onclick: n.action.run, text: t(n.action.key) }) : null)));
}

// A notice by id (a second call replaces it): the words' key and an optional button.
export function showNotice(id, key, action = null) {
  notices.set(id, { key, action });
  draw();
}

export function hideNotice(id) {
  if (notices.delete(id)) draw();
}

onLang(draw);

// The notices take room under the header instead of covering the page: their height (with
// the gap below them) is --notices-h, which the page's top and the table's height allow for.
if (typeof ResizeObserver === 'function') {
  const box = document.getElementById('notices');
  if (box) {
    new ResizeObserver(() => {
      const high = box.childElementCount ? box.getBoundingClientRect().height + 8 : 0;
      document.documentElement.style.setProperty('--notices-h', `${Math.ceil(high)}px`);
    }).observe(box);
  }
}

// Register the worker; a newer build's worker waits until the player says "reload", then
// takes over and the page reloads once, so a page never runs two builds' modules.
export function startWorker() {
  if (!('serviceWorker' in navigator)) return;
  let asked = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => { if (asked) location.reload(); });
  const offer = (worker) => {
    if (!worker || !navigator.serviceWorker.controller) return;  // the first worker replaces nothing
    showNotice('version', 'new_version', { key: 'reload', run: () => { asked = true; worker.postMessage({ type: 'take-over' }); } });
  };
  navigator.serviceWorker.register('/sw.js').then((reg) => {
    offer(reg.waiting);
    reg.addEventListener('updatefound', () => {
      const worker = reg.installing;
      if (worker) worker.addEventListener('statechange', () => { if (worker.state === 'installed') offer(worker); });
    });
  }).catch((e) => console.warn('kozyr: no service worker', e));  // eslint-disable-line no-console
}

// The browser says it is offline (any page): "Offline: … comes back by itself"; the room's
// socket uses the same notice for its own state (app.js), so there is never two of them.
export function watchNetwork() {
  const tell = () => (navigator.onLine ? hideNotice('offline') : showNotice('offline', 'offline_note'));
  window.addEventListener('offline', tell);
  window.addEventListener('online', tell);
  tell();
}
