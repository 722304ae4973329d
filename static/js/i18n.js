// Russian, Polish and English: the interface and the game terms in the players' own words.
// The words are in one catalog per language, static/i18n/<lang>.json, loaded here (the
// chosen language's and English, the fallback) before any module that imports this one
// runs, so every page's first render is already translated.  Dates, lists and numbers go
// through Intl in the chosen language, never the browser's.

const LANGS = ['ru', 'pl', 'en'];
const FALLBACK = 'en';
const KEY = 'kozyr.lang';
// a catalog entry that is an object with only these keys (and `other`) is a plural form
const PLURAL_FORMS = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);

const catalogs = {};  // lang -> the parsed catalog, once loaded
const loading = {};  // lang -> its fetch

// The catalogs sit beside js/ under the same build prefix (/v/<build>/i18n/ru.json), so
// they are cached like the modules and change with them.
function load(l) {
  loading[l] = loading[l] || fetch(new URL(`../i18n/${l}.json`, import.meta.url))
    .then((r) => {
      if (!r.ok) throw new Error(`catalog ${l}: HTTP ${r.status}`);
      return r.json();
    })
    .then((cat) => { catalogs[l] = cat; return cat; })
    .catch((e) => { delete loading[l]; throw e; });
  return loading[l];
}

function pick() {
  const saved = localStorage.getItem(KEY);
  if (LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || FALLBACK]) {
    const code = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(code)) return code;
  }
  return FALLBACK;
}

let lang = pick();
const listeners = [];

await Promise.all([load(FALLBACK),
  lang === FALLBACK ? null : load(lang).catch((e) => { console.warn(String(e)); lang = FALLBACK; })]);
document.documentElement.lang = lang;

export function getLang() { return lang; }
export function languages() { return LANGS; }

// Switches the language once its catalog is loaded; the listeners re-translate the page.
// The last choice wins when two loads overlap; a catalog that cannot be loaded keeps the
// current language.
let switching = 0;
export async function setLang(l) {
  if (!LANGS.includes(l)) return;
  const ticket = ++switching;
  try {
    await load(l);
  } catch (e) {
    console.warn(String(e));
    return;
  }
  if (ticket !== switching) return;
  lang = l;
  localStorage.setItem(KEY, l);
  document.documentElement.lang = l;
  for (const fn of listeners) fn(l);
}
export function onLang(fn) { listeners.push(fn); }

function lookup(cat, path) {
  let v = cat;
  for (const part of path.split('.')) {
    if (v == null || typeof v !== 'object') return undefined;
    v = v[part];
  }
  return v;
}

const isPlural = (v) => !!v && typeof v === 'object' && !Array.isArray(v) && 'other' in v
  && Object.keys(v).every((k) => PLURAL_FORMS.has(k));
const isText = (v) => typeof v === 'string' || isPlural(v);

// The entry for a key and the language it came from: the chosen one, else English.
function entry(path) {
  const own = lookup(catalogs[lang], path);
  if (isText(own)) return [own, lang];
  const en = lookup(catalogs[FALLBACK], path);
  return isText(en) ? [en, FALLBACK] : [undefined, null];
}

const warned = new Set();
function warnOnce(path, why) {
  if (warned.has(lang + ':' + path)) return;
  warned.add(lang + ':' + path);
  console.warn(`i18n: ${why} "${path}" (${lang})`);
}

const pluralRules = {};
function pluralForm(forms, n, l) {
  pluralRules[l] = pluralRules[l] || new Intl.PluralRules(l);
  return forms[pluralRules[l].select(Number(n))] ?? forms.other;
}

// Whether the catalogs have a text for a key (in the chosen language or in English).
export function has(path) {
  return entry(path)[0] !== undefined;
}

// t('act.bid', {n: 120}).  An entry {one, few, many, other} is chosen by vars.n through
// Intl.PluralRules of its language.  A missing key says so once in the console and shows
// the English text, else the key itself.
export function t(path, vars) {
  const [v, from] = entry(path);
  if (v === undefined) {
    warnOnce(path, 'no text for');
    return path;
  }
  if (from !== lang) warnOnce(path, 'English for');
  const text = typeof v === 'string' ? v : pluralForm(v, vars && vars.n, from);
  return vars ? text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m)) : text;
}

// --- Intl in the chosen language -------------------------------------------------------------

// "Аня, Петя и Коля", "Ania, Piotr i Kasia", "Ann, Pete, and Kate".
// opts as Intl.ListFormat's ({type: 'unit'}: no "and").
export function listOf(items, opts) {
  return new Intl.ListFormat(lang, opts).format(items.map(String));
}

// A date and time (an ISO string, a number or a Date); opts as Intl.DateTimeFormat's,
// by default the short date and time.
export function dateTime(value, opts = { dateStyle: 'short', timeStyle: 'short' }) {
  if (value === null || value === undefined || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? '' : new Intl.DateTimeFormat(lang, opts).format(d);
}

// A number as the language writes it (decimal comma in ru / pl, grouping); opts as
// Intl.NumberFormat's (e.g. {signDisplay: 'exceptZero'}, {style: 'percent'}).
export function number(n, opts) {
  return typeof n === 'number' ? new Intl.NumberFormat(lang, opts).format(n) : String(n ?? '');
}

// How far a moment is from now, in words: "in 5 hours", "через 5 часов", "za 5 godzin",
// "2 minutes ago": minutes under an hour, hours under two days, then days, each rounded
// to the nearest (the exact moment goes beside it).
export function fromNow(value, now = Date.now()) {
  const at = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (Number.isNaN(at)) return '';
  const ms = at - now;
  const sign = ms < 0 ? -1 : 1;
  const format = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  const minutes = Math.round(Math.abs(ms) / 60e3);
  if (minutes < 60) return format.format(sign * Math.max(1, minutes), 'minute');
  const hours = Math.round(Math.abs(ms) / 3600e3);
  if (hours < 48) return format.format(sign * hours, 'hour');
  return format.format(sign * Math.round(Math.abs(ms) / 86400e3), 'day');
}

// A deadline's moment for dateTime(): weekday, date and time ("Fri, 4 Dec, 21:30").
export const WHEN = { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' };

// A length of time in whole days (from two), hours or minutes ("24 hours", "3 дня", "5 minut").
export function duration(seconds) {
  const s = Number(seconds) || 0;
  const [n, unit] = s >= 172800 && s % 86400 === 0 ? [s / 86400, 'day']
    : s >= 3600 && s % 3600 === 0 ? [s / 3600, 'hour'] : [Math.round(s / 60), 'minute'];
  return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'long' }).format(n);
}

// --- game words --------------------------------------------------------------------------------

export const SUIT_SYMBOL = { S: '♠', C: '♣', D: '♦', H: '♥' };

export function rankLabel(rank) {
  return has('ranks.' + rank) ? t('ranks.' + rank) : (rank === 'T' ? '10' : rank);
}

export function cardText(code) {
  return rankLabel(code[0]) + SUIT_SYMBOL[code[1]];
}

// A card's whole name in the page's language ("король пик", "dama kier", "ten of hearts").
export function cardName(code) {
  return t('card_name', { rank: t('card_ranks.' + code[0]), suit: t('card_suits.' + code[1]) });
}

export function titleName(title, variant) {
  if (!title) return '';
  if (title === 'peasant' && variant === 'krol-pl') return t('titles_pl.peasant');
  return t('titles.' + title);
}

export const BOT_LEVELS = ['random', 'basic', 'strong', 'expert'];

// 'Bot (basic)' in the reader's language.
export function botName(level) {
  return t('bot_name', { level: t('bot_levels.' + level) });
}

// A bot's own name from its bot_key ("basic-2" -> Петя in Russian); without a key, its level.
export function botKeyName(key, level) {
  const m = /^(\w+)-(\d+)$/.exec(key || '');
  const names = m && (lookup(catalogs[lang], 'bot_names.' + m[1]) || lookup(catalogs[FALLBACK], 'bot_names.' + m[1]));
  if (Array.isArray(names) && names[Number(m[2]) - 1]) return names[Number(m[2]) - 1];
  return botName(level || 'basic');
}

// An error message in the reader's language (the server's English text only as a last resort).
export function errorText(err) {
  const code = err && err.code;
  if (code && has('errors.' + code)) return t('errors.' + code);
  return (err && err.message) || t('error');
}

export function variantName(id, fallback) {
  return has('variants.' + id) ? t('variants.' + id) : fallback || id;
}
