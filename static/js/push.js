// Notifications on the player's own page (README "Notifications (Web Push)"): push on this
// device (pushManager.subscribe with the server's VAPID key, then the subscription POSTed
// with the page's language), what to be told of, and quiet hours.  Where push cannot work
// here (no PushManager, iOS outside the installed app, not https, notifications denied) the
// block says so plainly: the in-page calls go on as before.

import { h, clear } from './dom.js';
import { t, getLang, onLang } from './i18n.js';
import { req } from './api.js';

export const KINDS = ['turn', 'reminder', 'call', 'takeback', 'finished', 'chat', 'club_event'];

// The language this device's subscription was sent with (null: none): when the page's
// language changes, the subscription is sent again so its notifications follow.
let subscribedLang = null;
onLang(() => {
  if (!subscribedLang || subscribedLang === getLang() || unavailable()) return;
  subscribedLang = getLang();
  browserSubscription(false).then((sub) => sub && req('POST', '/players/me/push-subscriptions',
    { ...sub.toJSON(), lang: getLang() })).catch(() => {});
});

function ios() {
  return /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
}

function installed() {
  return window.matchMedia('(display-mode: standalone)').matches || navigator.standalone === true;
}

// Why push cannot work on this device (a catalog key), or null.
export function unavailable() {
  if (!window.isSecureContext) return 'notif.insecure';
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    return ios() && !installed() ? 'notif.ios' : 'notif.unsupported';
  }
  if (Notification.permission === 'denied') return 'notif.denied';
  return null;
}

function keyBytes(b64) {
  const raw = atob(b64.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function browserSubscription(make) {
  const reg = await navigator.serviceWorker.ready;
  const old = await reg.pushManager.getSubscription();
  if (old || !make) return old;
  const { public_key: key } = await req('GET', '/push/key');
  return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
}

function zoneName() {
  try { return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'; } catch { return 'UTC'; }
}

// The block: this device's switch, then the choices (kept on the server for every device).
export function notificationsPanel() {
  const panel = h('section', { class: 'panel player-notifications', 'aria-labelledby': 'notif-title' },
    h('h2', { id: 'notif-title', text: t('notif.title') }),
    h('p', { class: 'muted small', text: t('notif.note') }));
  const state = h('p', { class: 'small', role: 'status', 'data-role': 'push-state' });
  const toggle = h('button', { type: 'button', class: 'btn', 'data-role': 'push-toggle', hidden: true });
  const msg = h('p', { class: 'small', role: 'status', 'data-role': 'notif-saved' });
  let on = false;
  const why = unavailable();
  const draw = () => {
    if (why) {
      state.textContent = t(why);
      state.className = 'small notif-why';
      toggle.hidden = true;
      return;
    }
    state.textContent = t(on ? 'notif.on_here' : 'notif.off_here');
    toggle.textContent = t(on ? 'notif.turn_off' : 'notif.turn_on');
    toggle.className = on ? 'btn' : 'btn primary';
    toggle.hidden = false;
  };
  const device = h('div', { class: 'notif-device' }, h('h3', { text: t('notif.device_on') }), state, toggle);

  toggle.onclick = async () => {
    toggle.disabled = true;
    try {
      if (on) {
        const sub = await browserSubscription(false).catch(() => null);
        if (sub) await sub.unsubscribe().catch(() => {});
        await req('DELETE', '/players/me/push-subscriptions');
        on = false;
        subscribedLang = null;
      } else {
        if (await Notification.requestPermission() !== 'granted') {
          state.textContent = t('notif.denied');
          return;
        }
        const sub = await browserSubscription(true);
        await req('POST', '/players/me/push-subscriptions', { ...sub.toJSON(), lang: getLang() });
        await save();  // the choices with this device's time zone (deadlines are shown in it)
        on = true;
        subscribedLang = getLang();
      }
      draw();
    } catch (e) {
      state.textContent = t('notif.failed', { error: e.message || String(e) });
    } finally {
      toggle.disabled = false;
    }
  };

  // What to be told of, and quiet hours: saved at each change.
  const boxes = Object.fromEntries(KINDS.map((k) => [k, h('input', { type: 'checkbox', 'data-kind': k })]));
  const kinds = h('fieldset', { class: 'notif-kinds' }, h('legend', { text: t('notif.kinds') }),
    KINDS.map((k) => h('label', { class: 'check' }, boxes[k], ' ', t('notif.kind_' + k))));
  const quietOn = h('input', { type: 'checkbox', 'data-role': 'quiet-on' });
  const from = h('input', { type: 'time', 'data-role': 'quiet-start', value: '22:00', id: 'quiet-start' });
  const to = h('input', { type: 'time', 'data-role': 'quiet-to', value: '08:00', id: 'quiet-to' });
  const zone = zoneName();
  const quiet = h('fieldset', { class: 'notif-quiet' }, h('legend', { text: t('notif.quiet') }),
    h('label', { class: 'check' }, quietOn, ' ', t('notif.quiet_on')),
    h('div', { class: 'notif-times' },
      h('label', { for: 'quiet-start', text: t('notif.quiet_from') }), from,
      h('label', { for: 'quiet-to', text: t('notif.quiet_to') }), to),
    h('p', { class: 'muted small', text: t('notif.quiet_note', { zone }) }));
  const setTimes = () => { from.disabled = to.disabled = !quietOn.checked; };
  let loaded = false;  // the choices as stored: nothing is saved before they are known
  const save = async () => {
    setTimes();
    if (!loaded) return;
    const body = { kinds: Object.fromEntries(KINDS.map((k) => [k, boxes[k].checked])),
      quiet_from: quietOn.checked && from.value ? from.value : null,
      quiet_to: quietOn.checked && to.value ? to.value : null, time_zone: zone, email: mailOn.checked };
    try {
      await req('PUT', '/players/me/notifications', body);
      msg.textContent = t('notif.saved');
    } catch (e) {
      msg.textContent = e.message || String(e);
    }
  };
  for (const el of [...Object.values(boxes), quietOn, from, to]) el.addEventListener('change', save);

  const mailOn = h('input', { type: 'checkbox', 'data-role': 'email-on' });
  mailOn.addEventListener('change', save);
  panel.append(device, kinds, quiet, emailBlock(mailOn), msg);
  draw();
  req('GET', '/players/me/notifications').then((p) => {
    for (const k of KINDS) boxes[k].checked = !!p.kinds[k];
    quietOn.checked = !!(p.quiet_from && p.quiet_to);
    if (p.quiet_from) from.value = p.quiet_from;
    if (p.quiet_to) to.value = p.quiet_to;
    mailOn.checked = p.email !== false;
    loaded = true;
    setTimes();
  }).catch(() => {});
  req('GET', '/players/me/push-subscriptions').then((sub) => { on = !!sub; subscribedLang = sub && sub.lang; draw(); }).catch(() => {});
  return panel;
}

// Email, the second channel (shown only where the server sends mail): an address, confirmed
// by the link mailed to it; the same choices apply.
function emailBlock(mailOn) {
  const box = h('fieldset', { class: 'notif-email', hidden: true }, h('legend', { text: t('email.title') }));
  const input = h('input', { type: 'email', id: 'notif-email', autocomplete: 'email', 'data-role': 'email-address' });
  const send = h('button', { type: 'submit', class: 'btn small', 'data-role': 'email-save', text: t('email.save') });
  const remove = h('button', { type: 'button', class: 'btn small', 'data-role': 'email-remove', text: t('email.remove'), hidden: true });
  const state = h('p', { class: 'small', role: 'status', 'data-role': 'email-state' });
  const form = h('form', { class: 'notif-email-form' },
    h('label', { for: 'notif-email', text: t('email.address') }), input, send);
  const show = (e) => {
    box.hidden = !e.available;
    input.value = e.address || '';
    remove.hidden = !e.address;
    state.textContent = !e.address ? '' : t(e.verified ? 'email.verified' : 'email.sent', { address: e.address });
  };
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    send.disabled = true;
    try { show(await req('PUT', '/players/me/email', { address: input.value.trim(), lang: getLang() })); }
    catch (e) { state.textContent = e.message || String(e); }
    finally { send.disabled = false; }
  });
  remove.onclick = async () => {
    await req('DELETE', '/players/me/email').catch(() => {});
    show({ available: true, address: null });
  };
  box.append(form, state, h('label', { class: 'check' }, mailOn, ' ', t('email.on')), remove);
  req('GET', '/players/me/email').then(show).catch(() => {});
  return box;
}

// #/email/verify/SECRET confirms an address; #/email/unsubscribe/SECRET stops the mails.  A
// link's answer is asked once (a fragment change renders the page twice: popstate and
// hashchange); then the secret leaves the address bar.
const outcomes = new Map();  // secret -> Promise<[key, vars, ok]>

function outcome(action, secret) {
  if (!outcomes.has(secret)) {
    outcomes.set(secret, (async () => {
      try {
        if (action === 'verify') {
          const out = await req('POST', '/email/verify', { token: secret });
          return ['email.confirmed', { address: out.address }, true];
        }
        await req('POST', `/email/unsubscribe/${encodeURIComponent(secret)}`);
        return ['email.unsubscribed', null, true];
      } catch {
        return ['email.confirm_failed', null, false];
      }
    })());
  }
  return outcomes.get(secret);
}

export async function renderEmailLink(main, action, secret) {
  const say = h('p', { role: 'status', 'data-role': 'email-link', text: t('email.confirming') });
  main.append(h('section', { class: 'panel narrow email-link' }, say));
  const [key, vars, ok] = await outcome(action, secret);
  say.textContent = t(key, vars);
  if (!ok) say.className = 'error';
  if (location.hash.includes(secret)) history.replaceState(null, '', '/#/email');
}
