// Browser notifications for calls ("new room with the same people", README "Friends"):
// while the site is open it looks for new calls now and then; a call not shown before
// becomes a Notification when the player allowed it (the home page's toggle, which asks
// Notification.requestPermission) and the page is a secure context (https, or localhost).
// Otherwise the call is only on the home page (player.js callsBanner).

import { h } from './dom.js';
import { t, variantName } from './i18n.js';
import { req, me } from './api.js';

const KEY = 'kozyr.notify_calls';  // 'on' once the player allowed it here
const SEEN = 'kozyr.calls_notified';  // ids of calls already notified (this browser)
const EVERY_MS = () => Number(window.KOZYR_CALL_POLL_MS) || 30000;

function supported() { return typeof window.Notification === 'function'; }
function allowed() {
  return supported() && window.isSecureContext && localStorage.getItem(KEY) === 'on' && Notification.permission === 'granted';
}

function seen() {
  try { return new Set(JSON.parse(localStorage.getItem(SEEN) || '[]')); } catch { return new Set(); }
}

// One look at the calls: a notification for each call not notified before.
export async function checkCalls(navigate) {
  if (!me() || !allowed()) return 0;
  let calls;
  try { calls = await req('GET', '/players/me/calls'); } catch { return 0; }
  const done = seen();
  let shown = 0;
  for (const c of calls) {
    if (done.has(c.id)) continue;
    done.add(c.id);
    const note = new Notification(t('notify_title'), {
      body: t('player.called', { name: c.from.name, variant: variantName(c.variant) }), tag: `kozyr-call-${c.id}` });
    note.onclick = () => { window.focus(); navigate(`/room/${encodeURIComponent(c.room)}`); note.close(); };
    shown += 1;
  }
  localStorage.setItem(SEEN, JSON.stringify([...done].slice(-200)));
  return shown;
}

let timer = null;
// Look for calls while the site is open (every 30 s; at once when the tab comes back).
export function watchCalls(navigate) {
  if (timer !== null) return;
  const tick = () => { checkCalls(navigate).catch(() => {}); };
  timer = setInterval(tick, EVERY_MS());
  document.addEventListener('visibilitychange', () => { if (!document.hidden) tick(); });
  tick();
}

// The home page's toggle.
export function notifyToggle(navigate) {
  if (!me() || !supported()) return null;
  const secure = window.isSecureContext;
  const box = h('input', { type: 'checkbox', 'data-role': 'notify-calls', disabled: !secure,
    checked: secure && localStorage.getItem(KEY) === 'on' && Notification.permission === 'granted' });
  const note = h('span', { class: 'muted small', 'data-role': 'notify-note',
    text: !secure ? t('notify_needs_https') : (Notification.permission === 'denied' ? t('notify_denied') : '') });
  box.addEventListener('change', async () => {
    if (!box.checked) { localStorage.setItem(KEY, 'off'); return; }
    const answer = await Notification.requestPermission();
    box.checked = answer === 'granted';
    localStorage.setItem(KEY, box.checked ? 'on' : 'off');
    note.textContent = answer === 'denied' ? t('notify_denied') : '';
    if (box.checked) checkCalls(navigate);
  });
  return h('p', { class: 'notify-calls' }, h('label', { class: 'check' }, box, ' ', t('notify_calls')), ' ', note);
}
