// How people, bots and games are named on every page (the lobby, the history): its own
// module, so the pages that show names need not import each other.

import { t, has, variantName, botKeyName } from './i18n.js';

// A seated person's or bot's name as the reader should see it.
export function seatName(s) {
  if (!s) return '';
  if (s.is_bot || s.bot_key) return botKeyName(s.bot_key, s.level);
  return s.name || '';
}

export function gameName(id, fallback) {
  const key = 'house.variant_names.' + id;
  return has(key) ? t(key) : variantName(id, fallback);
}
