// How people, bots and games are named on every page (the lobby, the history): its own
// module, so the pages that show names need not import each other.

import { t, variantName, botKeyName } from './i18n.js';

// t() gives back the last part of the key when a word is missing: tell that apart.
function known(path) {
  const v = t(path);
  return typeof v === 'string' && v !== path.split('.').pop() ? v : null;
}

// A seated person's or bot's name as the reader should see it.
export function seatName(s) {
  if (!s) return '';
  if (s.is_bot || s.bot_key) return botKeyName(s.bot_key, s.level);
  return s.name || '';
}

export function gameName(id, fallback) {
  return known('house.variant_names.' + id) || variantName(id, fallback);
}
