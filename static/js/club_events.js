// A club's upcoming events on its page (issue 37; README "Clubs", Events): each event's
// time in the reader's own zone (and in the event's, when that differs), the answers
// counted, my answer as three toggle buttons (aria-pressed), "Add to calendar" (the .ics),
// an admin's Change and Cancel; an admin's New event form (a local date and time in a
// chosen zone, the browser's by default).  clubs.js draws the page and passes its button maker, so a
// refusal is said beside the button as everywhere on the club page.

import { h, saveBlob } from './dom.js';
import { t, dateTime, duration, errorText } from './i18n.js';
import { api, req } from './api.js';

const ANSWERS = ['yes', 'maybe', 'no'];
const WHEN = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' };
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const path = (id, ev) => `/clubs/${Number(id)}/events/${Number(ev)}`;

// The UTC instant of a wall-clock `value` ("2026-12-12T19:00", a datetime-local's) in the
// IANA `zone`: the zone's offset at a first guess, then at the corrected one (a DST change).
export function zonedInstant(value, zone) {
  const [d, tm] = value.split('T');
  const [y, mo, da] = d.split('-').map(Number);
  const [hh, mi] = tm.split(':').map(Number);
  const wall = Date.UTC(y, mo - 1, da, hh, mi);
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric',
    day: 'numeric', hour: 'numeric', minute: 'numeric' });
  const offset = (at) => {
    const p = Object.fromEntries(parts.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
    return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute)) - at;
  };
  let at = wall - offset(wall);
  at = wall - offset(at);
  return new Date(at);
}

function whenText(ev) {
  const mine = `${dateTime(ev.starts_at, WHEN)} (${duration(ev.duration_minutes * 60)})`;
  if (ev.time_zone === browserZone()) return [mine];
  const theirs = dateTime(ev.starts_at, { ...WHEN, weekday: undefined, year: undefined, timeZone: ev.time_zone });
  return [mine, t('clubs.events.in_zone', { when: theirs, zone: ev.time_zone.replace(/_/g, ' ') })];
}

function eventItem(ev, { data, id, ctx, redraw }, actButton, admin, member) {
  const started = Date.parse(ev.starts_at) <= Date.now();
  const said = h('span', { class: 'error small act-error', role: 'status' });
  const answers = member ? h('div', { class: 'rsvp', role: 'group', 'aria-label': `${t('clubs.events.answer')}: ${ev.title}`, 'data-role': 'rsvp' },
    ANSWERS.map((a) => h('button', { type: 'button', class: `btn small rsvp-${a}${ev.my_answer === a ? ' chosen' : ''}`, 'data-answer': a,
      'aria-pressed': String(ev.my_answer === a), disabled: started, text: t('clubs.events.' + a), onclick: async (e) => {
        const buttons = e.currentTarget.parentElement.querySelectorAll('button');
        for (const b of buttons) b.disabled = true;
        try {
          await req('PUT', `${path(id, ev.id)}/rsvp`, { answer: a });
          redraw();
        } catch (ex) {
          for (const b of buttons) b.disabled = false;
          said.textContent = errorText(ex);
        }
      } })), said) : null;
  const preset = ev.preset ? data.presets.find((p) => p.id === ev.preset.id) : null;
  return h('li', { class: 'club-event', 'data-event': ev.id },
    h('h3', { class: 'event-title', 'data-role': 'event-title', text: ev.title }),
    h('p', { class: 'event-when', 'data-role': 'event-when' }, ...whenText(ev).flatMap((x, n) => (n ? [h('br'), h('span', { class: 'muted small', text: x })] : [h('b', { text: x })])),
      started ? h('span', { class: 'badge', text: t('clubs.events.started') }) : null),
    ev.note ? h('p', { class: 'event-note', text: ev.note }) : null,
    ev.preset ? h('p', { class: 'muted small' }, `${t('clubs.events.preset')}: `, h('b', { text: ev.preset.name })) : null,
    h('p', { class: 'small', 'data-role': 'event-counts', text: t('clubs.events.counts', ev.counts) }),
    answers,
    h('div', { class: 'event-actions' },
      actButton(t('clubs.events.calendar'), 'event-ics', async () => saveBlob(await api.file(ev.ics_path), `kozyr-event-${ev.id}.ics`), () => {}, 'btn small'),
      member && preset ? actButton(t('clubs.open_room'), 'event-room', () => api.roomFromPreset(preset.id), (room) => ctx.navigate(room.invite_path), 'btn small') : null,
      admin ? actButton(t('clubs.events.cancel'), 'cancel-event', () => req('POST', `${path(id, ev.id)}/cancel`), redraw, 'btn ghost small', true) : null),
    admin && !started ? eventForm({ data, id, redraw }, ev) : null);
}

// The zones the browser knows (`chosen` first, the browser's own by default), for the
// event form.
function zoneSelect(chosen = browserZone()) {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const zones = [chosen, ...all.filter((z) => z !== chosen), ...(all.includes('UTC') || chosen === 'UTC' ? [] : ['UTC'])];
  return h('select', { name: 'time_zone' }, zones.map((z) => h('option', { value: z, selected: z === chosen, text: z.replace(/_/g, ' ') })));
}

// The New event form, or with `ev` the Change form filled in with it (its start as the
// wall clock of its own zone, the server's `local_start`): a change sends only what
// differs from the event.
function eventForm({ data, id, redraw }, ev = null) {
  const err = h('p', { class: 'error', 'data-role': 'event-error', role: 'status' });
  const tomorrow = new Date(Date.now() + 86400e3);
  const pad = (n) => String(n).padStart(2, '0');
  const wall = ev ? ev.local_start.slice(0, 16)
    : `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T19:00`;
  const presetId = ev && ev.preset ? ev.preset.id : null;
  const form = h('form', { class: 'event-form', 'data-role': ev ? 'edit-event-form' : 'event-form' },
    h('label', { class: 'field' }, t('clubs.events.name'), h('input', { type: 'text', name: 'title', maxlength: 80, required: true, value: ev ? ev.title : '' })),
    h('div', { class: 'row' },
      h('label', { class: 'field' }, t('clubs.events.starts'), h('input', { type: 'datetime-local', name: 'starts', value: wall, required: true })),
      h('label', { class: 'field' }, t('clubs.events.zone'), zoneSelect(ev ? ev.time_zone : undefined)),
      h('label', { class: 'field' }, t('clubs.events.duration'), h('input', { type: 'number', name: 'duration', min: 5, max: 10080, value: ev ? ev.duration_minutes : 120, required: true }))),
    data.presets.length || presetId ? h('label', { class: 'field' }, t('clubs.events.preset'),
      h('select', { name: 'preset' }, h('option', { value: '', text: t('clubs.events.no_preset') }),
        data.presets.map((p) => h('option', { value: p.id, selected: p.id === presetId, text: p.name })))) : null,
    h('label', { class: 'field' }, t('clubs.events.note'), h('textarea', { name: 'note', maxlength: 2000, rows: 2, text: ev ? ev.note : '' })),
    ev ? null : h('p', { class: 'muted small', text: t('clubs.events.reminder') }),
    h('button', { type: 'submit', class: 'btn primary', 'data-role': ev ? 'save-event' : 'create-event', text: t(ev ? 'clubs.events.save' : 'clubs.events.create') }), err);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = form.elements;
    const body = { title: f.title.value, duration_minutes: Number(f.duration.value), note: f.note.value,
      preset: f.preset && f.preset.value ? Number(f.preset.value) : null };
    if (!ev || f.starts.value !== wall || f.time_zone.value !== ev.time_zone) {
      Object.assign(body, { starts_at: zonedInstant(f.starts.value, f.time_zone.value).toISOString(), time_zone: f.time_zone.value });
    }
    if (ev) {
      for (const key of ['title', 'duration_minutes', 'note']) if (body[key] === ev[key]) delete body[key];
      if (body.preset === presetId) delete body.preset;
    }
    try {
      await (ev ? req('PATCH', path(id, ev.id), body) : req('POST', `/clubs/${Number(id)}/events`, body));
      redraw();
    } catch (ex) {
      err.textContent = ex.code === 'invalid_name' ? t('clubs.invalid_name') : errorText(ex);
    }
  });
  return ev ? h('details', { class: 'edit-event', 'data-role': 'edit-event' }, h('summary', { class: 'btn small', text: t('clubs.events.change') }), form)
    : h('details', { class: 'new-event', 'data-role': 'new-event' }, h('summary', { text: t('clubs.events.new') }), form);
}

export function eventsPanel(page, actButton, { admin, member }) {
  const events = page.data.events || [];
  return h('section', { class: 'panel', 'data-role': 'club-events' },
    h('h2', { text: t('clubs.events.title') }),
    events.length ? h('ul', { class: 'club-events' }, events.map((ev) => eventItem(ev, page, actButton, admin, member)))
      : h('p', { class: 'muted', text: t('clubs.events.none') }),
    admin ? eventForm(page) : null);
}
