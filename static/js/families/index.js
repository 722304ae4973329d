// The family modules, chosen by room.family (the view's variant only as a fallback).

import thousand from './thousand.js';
import king from './king.js';
import korol from './korol.js';

const FAMILIES = { thousand, king, korol };

export function familyModule(room, view) {
  const name = (room && room.family) || String((view && view.variant) || '').split('-')[0].replace('krol', 'korol');
  return FAMILIES[name] || thousand;
}
