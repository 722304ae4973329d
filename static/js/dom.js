// Tiny DOM helpers. Every piece of data goes in as text (textContent), never as HTML.
//
// Event handlers given to h() (onclick: fn ...) or on() are kept per element, behind one
// listener per event type, so the patch step (patch.js) can hand a rebuilt element's
// handlers to the live element it keeps.  A handler therefore must not hold on to other
// elements of the same build (they are thrown away when the live ones are kept): it finds
// them through its event (e.currentTarget, .closest(), form.elements).

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === 'class') el.className = value;
      else if (key === 'text') el.textContent = value;
      else if (key === 'style') setStyle(el, value);
      else if (key.startsWith('on') && typeof value === 'function') on(el, key.slice(2), value);
      else if (key === 'dataset') Object.assign(el.dataset, value);
      else if (value === true) el.setAttribute(key, '');
      else el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

const handlers = new WeakMap();  // element -> { event type: handler }

function dispatch(e) {
  const fn = (handlers.get(e.currentTarget) || {})[e.type];
  if (fn) fn.call(e.currentTarget, e);
}

// el's handler for one event type (one per type; a second call replaces the first).
export function on(el, type, fn) {
  let table = handlers.get(el);
  if (!table) handlers.set(el, table = {});
  table[type] = fn;
  el.addEventListener(type, dispatch);
  return el;
}

// The live element `kept` takes the handlers of its rebuilt twin `built` (patch.js).
export function adoptHandlers(kept, built) {
  const table = handlers.get(built);
  if (!table && !handlers.has(kept)) return;
  handlers.set(kept, table || {});
  for (const type of Object.keys(table || {})) kept.addEventListener(type, dispatch);
}

// Styles go through the CSSOM (the Content-Security-Policy refuses style attributes):
// { color: 'red', '--n': 3 } — custom properties by setProperty, the rest by name.
function setStyle(el, styles) {
  if (typeof styles !== 'object') throw new TypeError('style must be an object, not a style attribute');
  for (const [name, value] of Object.entries(styles)) {
    if (name.startsWith('--')) el.style.setProperty(name, String(value));
    else el.style[name] = value;
  }
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export const SVG_NS = 'http://www.w3.org/2000/svg';

export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null) continue;
    if (key === 'text') el.textContent = value;
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

// A file the page fetched (a Blob) saved under `name`, as a link to it would.
export function saveBlob(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// A "points per place" field's text ("3, 1, 0, 0": up to four whole numbers of at most
// three digits) as numbers, or null when it is not that (seasons and tournaments).
export function placePoints(text) {
  const points = text.split(',').map((x) => x.trim());
  if (points.length > 4 || !points.every((x) => /^\d{1,3}$/.test(x))) return null;
  return points.map(Number);
}

// A live page drawn again: `redraw` after `ms` while `root` still shows `selector` at the
// address `hash`; while a "Sure?" is armed, a call is under way (a button disabled) or the
// tab is hidden, it waits another `ms` instead (the tournament and duplicate pages).
export function redrawLater(root, selector, hash, redraw, ms = 5000) {
  const later = () => {
    if (!root.querySelector(selector) || location.hash !== hash) return;
    if (document.hidden || root.querySelector('[data-armed=true], button:disabled')) setTimeout(later, ms);
    else redraw();
  };
  setTimeout(later, ms);
}
