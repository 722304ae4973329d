// A dialog over the page (the invite panel, the history panel): the focus goes in,
// Tab and Shift+Tab stay inside, Escape closes it, and on closing the focus goes back
// to where it was before.

import { FOCUSABLE } from './store.js';

// Keep the focus inside `overlay` while it is open; `close()` is what Escape does.
// Returns the function that gives the focus back (call it after closing).
export function holdFocus(overlay, close) {
  const back = document.activeElement;
  overlay.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { close(); return; }
    if (e.key !== 'Tab') return;
    const items = [...overlay.querySelectorAll(FOCUSABLE)].filter((el) => el.getClientRects().length);
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && (document.activeElement === first || !overlay.contains(document.activeElement))) {
      e.preventDefault(); last.focus();
    } else if (!e.shiftKey && (document.activeElement === last || !overlay.contains(document.activeElement))) {
      e.preventDefault(); first.focus();
    }
  });
  return () => {
    if (back && back !== document.body && back.isConnected) back.focus({ preventScroll: true });
  };
}
