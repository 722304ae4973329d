// One store for a page: the state, update(patch) and subscribers told which keys changed.
// Updates made in one task are rendered once (a microtask later), so a burst of messages
// costs one render; nothing is rebuilt that did not change (see table.js regions).

export class Store {
  constructor(state = {}) {
    this.state = state;
    this.subscribers = [];
    this.changed = new Set();
    this.scheduled = false;
  }

  // Shallow: a key counts as changed when its value is a different object or value.
  update(patch) {
    for (const [key, value] of Object.entries(patch)) {
      if (this.state[key] === value) continue;
      this.state[key] = value;
      this.changed.add(key);
    }
    if (this.changed.size && !this.scheduled) {
      this.scheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  subscribe(fn) {
    this.subscribers.push(fn);
    return () => { this.subscribers = this.subscribers.filter((f) => f !== fn); };
  }

  flush() {
    this.scheduled = false;
    if (!this.changed.size) return;
    const changed = this.changed;
    this.changed = new Set();
    for (const fn of this.subscribers) fn(this.state, changed);
  }
}

import { patchChildren } from './patch.js';

// A part of the page that is built anew only when its key (the inputs it shows) changes;
// the new build is patched into the live elements (patch.js), so what stayed the same
// stays the same element.
export class Region {
  // fallback(): where the focus goes when the region had it and has nothing left to focus
  // (the table's controls after my last action: the hand)
  constructor(el, { fallback = null } = {}) {
    this.el = el;
    this.key = undefined;
    this.fallback = fallback;
  }

  render(key, build) {
    if (key === this.key) return false;
    this.key = key;
    const active = document.activeElement;
    const had = active && active !== document.body && this.el.contains(active) ? focusKey(active) : undefined;
    patchChildren(this.el, build());
    const now = document.activeElement;
    if (had !== undefined && !(now && this.el.contains(now) && !now.disabled)) refocus(this.el, had, this.fallback);
    return true;
  }
}

// Focus survives a change: the element that had it where the patch kept it, else the
// new twin of the element that had it (the same card, action, role or name), else the
// region's first control, else the region's fallback, else the region itself, so a
// keyboard player never falls back to the top of the page.
export const FOCUSABLE = 'button:not([disabled]), [tabindex="0"], select:not([disabled]), input:not([disabled]), textarea, a[href]';

function focusKey(el) {
  for (const attr of ['data-card', 'data-action', 'data-role', 'name', 'id']) {
    const v = el.getAttribute(attr);
    if (v) return `[${attr}="${CSS.escape(v)}"]`;
  }
  return null;
}

function refocus(root, selector, fallback) {
  const twin = selector ? root.querySelector(selector) : null;
  let target = twin && twin.matches(FOCUSABLE) ? twin : root.querySelector(FOCUSABLE);
  if (!target && fallback) target = fallback();
  if (!target) {
    if (!root.hasAttribute('tabindex')) root.tabIndex = -1;
    target = root;
  }
  target.focus({ preventScroll: true });
}
