// The keyed patch step: a region's new content is built as fresh elements (dom.js h()),
// then morphdom (static/vendor/morphdom, MIT) turns the live elements into it, so only what
// changed changes: the focused card or button stays the same element, a half-typed field
// keeps its text, an opened <details> stays open, a card keeps its node (and its
// animation) from the hand to the trick.  Elements are matched by id, data-key or
// data-card where they have one (a hand's cards), else by place and tag.
import morphdom from '../vendor/morphdom/morphdom-esm.js';
import { adoptHandlers } from './dom.js';

function nodeKey(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return undefined;
  return node.id || node.getAttribute('data-key') || node.getAttribute('data-card') || undefined;
}

const TEXT_INPUT = /^(text|search|number|email|url|tel|password)$/;

// What the user changed in a kept element stays, unless the new build sets that value itself
// (a field's value attribute, a box's checked, a select's selected option differ from before).
function keepUserState(kept, built) {
  const tag = kept.tagName;
  if (tag === 'TEXTAREA' && kept.defaultValue === built.defaultValue) built.value = kept.value;
  else if (tag === 'INPUT') {
    const type = kept.type;
    if ((type === 'checkbox' || type === 'radio') && kept.defaultChecked === built.defaultChecked) built.checked = kept.checked;
    else if (TEXT_INPUT.test(type) && kept.getAttribute('value') === built.getAttribute('value')) built.value = kept.value;
  } else if (tag === 'SELECT') {
    const chosen = (sel) => { const o = [...sel.options].find((x) => x.defaultSelected); return o ? o.value : null; };
    const option = [...built.options].find((o) => o.value === kept.value);
    if (chosen(kept) === chosen(built) && option) {
      for (const o of built.options) o.defaultSelected = o === option;
    } else if (chosen(built) === null && built.options.length) {
      built.options[0].defaultSelected = true;  // morphdom selects the option marked selected, else none
    }
  } else if (tag === 'DETAILS') built.open = kept.open;
}

// Styles go through the CSSOM (the Content-Security-Policy refuses a style attribute that
// morphdom would copy): the kept element takes the built one's declarations in their order,
// so both attributes read the same and morphdom leaves it alone.
function copyStyle(kept, built) {
  if (!kept.style || kept.getAttribute('style') === built.getAttribute('style')) return;
  while (kept.style.length) kept.style.removeProperty(kept.style[0]);
  for (const name of built.style) kept.style.setProperty(name, built.style.getPropertyValue(name), built.style.getPropertyPriority(name));
}

// The children of `el` become `children` (elements, text, nested arrays; null / false skipped).
export function patchChildren(el, children) {
  const next = el.cloneNode(false);
  next.append(...[children].flat(Infinity).filter((x) => x !== null && x !== undefined && x !== false));
  morphdom(el, next, {
    childrenOnly: true,
    getNodeKey: nodeKey,
    onBeforeElUpdated(kept, built) {
      adoptHandlers(kept, built);
      keepUserState(kept, built);
      copyStyle(kept, built);
      return true;
    },
  });
}
