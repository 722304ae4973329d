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

  // Mark keys as changed without a new value (e.g. the language).
  touch(...keys) {
    for (const key of keys) this.changed.add(key);
    this.update({});
    if (!this.scheduled) { this.scheduled = true; queueMicrotask(() => this.flush()); }
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

// A part of the page that is rebuilt only when its key (the inputs it shows) changes.
export class Region {
  constructor(el) {
    this.el = el;
    this.key = undefined;
  }

  render(key, build) {
    if (key === this.key) return false;
    this.key = key;
    const content = build();
    this.el.replaceChildren(...[content].flat(Infinity).filter((x) => x !== null && x !== undefined && x !== false));
    return true;
  }
}
