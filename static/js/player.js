// The player's page (#/player/ID): ratings per family with their history chart,
// matches played / won, head-to-head, finished matches (paged, CSV); on one's own
// page the personal sign-in link for another device and the list of signed-in devices
// (each can be signed out).  #/signin/SECRET spends a link.

import { h, clear, append } from './dom.js';
import { t, getLang, variantName, titleName } from './i18n.js';
import { req, me, setMe } from './api.js';
import { chartEl } from './chart.js';

const WORDS = {
  en: {
    pass_title: 'Name and passphrase', pass_note: 'For signing in without a link: choose a name and a passphrase of at least 10 characters, then sign in with them on any device.',
    login: 'Sign-in name', passphrase: 'Passphrase', save_pass: 'Save', pass_set: 'You can sign in as “{login}”.', remove_pass: 'Remove',
    login_taken: 'Another player already uses this name.', pass_short: 'The passphrase needs at least 10 characters.',
    sign_in: 'Sign in', sign_in_btn: 'Sign in', sign_in_note: 'With the name and passphrase you set on your page on another device.', have_pass: 'Sign in with a name and passphrase',
    sign_in_wrong: 'This name and passphrase do not match.', sign_in_locked: 'Too many wrong tries. Wait a little and try again.',
    sign_in_replaces: 'This device now plays as {name}; after signing in it plays as the player you sign in as.',
    again: 'New room with the same people', called: '{name} calls you to a new room ({variant})', join_call: 'Join', dismiss: 'Dismiss',
    stats: 'By game', contracts_made: 'Contracts made', avg_contract: 'Average bid', marriages: 'Marriages', deals: 'Deals', reigns: 'Reigns', per_contract: 'Average per contract', as_title: 'Reigns as each title',
    my_page: 'My page', player_page: 'Player', rating: 'Rating', ratings: 'Ratings',
    no_ratings: 'No rated matches yet. A room created as "rated" counts.', family: 'Game',
    matches: 'Matches', played: 'Played', won: 'Won', avg_place: 'Average place',
    rating_history: 'Rating history', h2h: 'Head-to-head', opponent: 'Opponent', together: 'Together',
    ahead: 'Ahead', behind: 'Behind', finished: 'Finished matches', place: 'Place', total: 'Total',
    more: 'More', csv: 'Download CSV', none: 'Nothing yet.',
    devices: 'Another device', new_link: 'Sign-in link for another device',
    link_note: 'Open this link or scan the code on your phone or another computer to play there as yourself. It works once, for {min} minutes, and is shown only now; a new link replaces it.',
    link_state_open: 'A link made at {time} is still open.', copy: 'Copy', copied: 'Copied!',
    signing_in: 'Signing in…', signed_in: 'This device now plays as {name}.',
    sign_in_failed: 'This sign-in link does not work (used, replaced or expired). Ask for a new one on your page on the other device.',
    to_lobby: 'To the lobby', you: 'you', chart_sampled: '{n} of {of} matches shown, evenly spread.',
    my_devices: 'Signed-in devices', device_row: 'Device {n} · signed in {time}', this_device: 'this device',
    sign_out: 'Sign out', sign_out_others: 'Sign out all other devices',
    devices_note: 'A device you sign out stops playing as you at once; it can come back with a new link or your passphrase.',
  },
  ru: {
    pass_title: 'Имя и кодовая фраза', pass_note: 'Чтобы входить без ссылки: выберите имя и кодовую фразу не короче 10 символов и входите с ними на любом устройстве.',
    login: 'Имя для входа', passphrase: 'Кодовая фраза', save_pass: 'Сохранить', pass_set: 'Можно входить как «{login}».', remove_pass: 'Удалить',
    login_taken: 'Это имя уже занято другим игроком.', pass_short: 'Кодовая фраза — не короче 10 символов.',
    sign_in: 'Вход', sign_in_btn: 'Войти', sign_in_note: 'С именем и кодовой фразой, заданными на вашей странице на другом устройстве.', have_pass: 'Войти по имени и кодовой фразе',
    sign_in_wrong: 'Имя и кодовая фраза не совпадают.', sign_in_locked: 'Слишком много неверных попыток. Подождите немного и попробуйте снова.',
    sign_in_replaces: 'Сейчас это устройство играет как {name}; после входа — как игрок, под которым вы войдёте.',
    again: 'Новая комната с теми же игроками', called: '{name} зовёт вас в новую комнату ({variant})', join_call: 'Войти', dismiss: 'Скрыть',
    stats: 'По играм', contracts_made: 'Сыгранные контракты', avg_contract: 'Средняя заявка', marriages: 'Марьяжи', deals: 'Раздачи', reigns: 'Правления', per_contract: 'В среднем за игру', as_title: 'Правления в каждом титуле',
    my_page: 'Моя страница', player_page: 'Игрок', rating: 'Рейтинг', ratings: 'Рейтинги',
    no_ratings: 'Рейтинговых партий пока нет. Считаются комнаты, созданные как «рейтинговые».', family: 'Игра',
    matches: 'Партии', played: 'Сыграно', won: 'Побед', avg_place: 'Среднее место',
    rating_history: 'История рейтинга', h2h: 'Личные встречи', opponent: 'Соперник', together: 'Вместе',
    ahead: 'Выше', behind: 'Ниже', finished: 'Сыгранные партии', place: 'Место', total: 'Итог',
    more: 'Ещё', csv: 'Скачать CSV', none: 'Пока ничего.',
    devices: 'Другое устройство', new_link: 'Ссылка для входа с другого устройства',
    link_note: 'Откройте ссылку или отсканируйте код на телефоне или другом компьютере, чтобы играть там под своим именем. Она действует один раз, {min} минут, и показывается только сейчас; новая ссылка отменяет старую.',
    link_state_open: 'Ссылка, созданная в {time}, ещё действует.', copy: 'Копировать', copied: 'Скопировано!',
    signing_in: 'Вход…', signed_in: 'Это устройство теперь играет как {name}.',
    sign_in_failed: 'Эта ссылка для входа не действует (использована, заменена или устарела). Создайте новую на своей странице на другом устройстве.',
    to_lobby: 'В лобби', you: 'вы', chart_sampled: 'Показаны {n} из {of} партий, равномерно.',
    my_devices: 'Устройства, где выполнен вход', device_row: 'Устройство {n} · вход {time}', this_device: 'это устройство',
    sign_out: 'Выйти на нём', sign_out_others: 'Выйти на всех других устройствах',
    devices_note: 'Устройство, на котором вы вышли, сразу перестаёт играть от вашего имени; вернуться можно по новой ссылке или кодовой фразе.',
  },
  pl: {
    pass_title: 'Nazwa i hasło', pass_note: 'Aby logować się bez linku: wybierz nazwę i hasło (co najmniej 10 znaków) i loguj się nimi na dowolnym urządzeniu.',
    login: 'Nazwa do logowania', passphrase: 'Hasło', save_pass: 'Zapisz', pass_set: 'Możesz logować się jako „{login}”.', remove_pass: 'Usuń',
    login_taken: 'Tę nazwę ma już inny gracz.', pass_short: 'Hasło musi mieć co najmniej 10 znaków.',
    sign_in: 'Logowanie', sign_in_btn: 'Zaloguj się', sign_in_note: 'Nazwą i hasłem ustawionymi na twojej stronie na innym urządzeniu.', have_pass: 'Zaloguj się nazwą i hasłem',
    sign_in_wrong: 'Nazwa i hasło nie pasują do siebie.', sign_in_locked: 'Zbyt wiele błędnych prób. Odczekaj chwilę i spróbuj ponownie.',
    sign_in_replaces: 'To urządzenie gra teraz jako {name}; po zalogowaniu zagra jako gracz, którym się zalogujesz.',
    again: 'Nowy pokój z tymi samymi graczami', called: '{name} zaprasza cię do nowego pokoju ({variant})', join_call: 'Dołącz', dismiss: 'Ukryj',
    stats: 'Według gier', contracts_made: 'Ugrane kontrakty', avg_contract: 'Średnia licytacja', marriages: 'Meldunki', deals: 'Rozdania', reigns: 'Panowania', per_contract: 'Średnio na grę', as_title: 'Panowania w każdym tytule',
    my_page: 'Moja strona', player_page: 'Gracz', rating: 'Ranking', ratings: 'Rankingi',
    no_ratings: 'Nie ma jeszcze partii rankingowych. Liczą się pokoje utworzone jako „rankingowe”.', family: 'Gra',
    matches: 'Partie', played: 'Rozegrane', won: 'Wygrane', avg_place: 'Średnie miejsce',
    rating_history: 'Historia rankingu', h2h: 'Bezpośrednie pojedynki', opponent: 'Przeciwnik', together: 'Razem',
    ahead: 'Wyżej', behind: 'Niżej', finished: 'Rozegrane partie', place: 'Miejsce', total: 'Wynik',
    more: 'Więcej', csv: 'Pobierz CSV', none: 'Jeszcze nic.',
    devices: 'Inne urządzenie', new_link: 'Link logowania na innym urządzeniu',
    link_note: 'Otwórz ten link lub zeskanuj kod na telefonie albo innym komputerze, aby grać tam jako ty. Działa raz, przez {min} minut, i jest pokazany tylko teraz; nowy link unieważnia stary.',
    link_state_open: 'Link utworzony o {time} jest nadal ważny.', copy: 'Kopiuj', copied: 'Skopiowano!',
    signing_in: 'Logowanie…', signed_in: 'To urządzenie gra teraz jako {name}.',
    sign_in_failed: 'Ten link logowania nie działa (użyty, zastąpiony lub wygasły). Utwórz nowy na swojej stronie na drugim urządzeniu.',
    to_lobby: 'Do lobby', you: 'ty', chart_sampled: 'Pokazano {n} z {of} partii, równomiernie.',
    my_devices: 'Zalogowane urządzenia', device_row: 'Urządzenie {n} · zalogowano {time}', this_device: 'to urządzenie',
    sign_out: 'Wyloguj', sign_out_others: 'Wyloguj wszystkie inne urządzenia',
    devices_note: 'Wylogowane urządzenie od razu przestaje grać jako ty; może wrócić przez nowy link lub hasło.',
  },
};

export function pt(key, vars) {
  const v = (WORDS[getLang()] || WORDS.en)[key] ?? WORDS.en[key] ?? key;
  return vars ? v.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m)) : v;
}

const CHART_POINTS = 120;
const fmt = (x, d = 1) => (Math.round(x * 10 ** d) / 10 ** d).toFixed(d);
const familyName = (f) => t('families.' + f);
const when = (iso) => (iso ? new Date(iso).toLocaleString(getLang()) : '');
const whenShort = (iso) => (iso ? new Date(iso).toLocaleString(getLang(), { dateStyle: 'short', timeStyle: 'short' }) : '');

function table(cls, head, rows) {
  return h('table', { class: 'grid ' + cls },
    h('thead', null, h('tr', null, head.map((x) => h('th', { text: x })))),
    h('tbody', null, rows));
}

function signInPanel(mine) {
  if (!mine) return null;
  const box = h('div', { class: 'signin-box' });
  const button = h('button', { class: 'btn primary', type: 'button', id: 'new-sign-in-link', text: pt('new_link') });
  const panel = h('section', { class: 'panel player-devices' }, h('h2', { text: pt('devices') }), button, box);
  req('GET', '/players/me/sign-in-link').then((state) => {
    if (state && state.open && !box.firstChild) {
      box.append(h('p', { class: 'muted small', text: pt('link_state_open', { time: when(state.created_at) }) }));
    }
  }).catch(() => {});
  button.onclick = async () => {
    button.disabled = true;
    try {
      const link = await req('POST', '/players/me/sign-in-link');
      const minutes = Math.round((new Date(link.expires_at) - Date.now()) / 60000);
      const url = h('code', { class: 'invite-link signin-url', text: link.url });
      const copy = h('button', { class: 'btn small', type: 'button', text: pt('copy') });
      copy.onclick = () => navigator.clipboard && navigator.clipboard.writeText(link.url).then(() => { copy.textContent = pt('copied'); });
      clear(box).append(
        h('p', { class: 'small', text: pt('link_note', { min: minutes }) }),
        h('div', { class: 'signin-link' }, url, copy),
        h('img', { class: 'signin-qr', alt: pt('new_link'), width: 180, height: 180,
          src: 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(link.qr_svg) }));
    } finally {
      button.disabled = false;
    }
  };
  panel.append(passphraseBox(), h('p', { class: 'small' }, h('a', { href: '#/signin', 'data-role': 'to-sign-in', text: pt('have_pass') })),
    devicesBox());
  return panel;
}

// The player's signed-in devices (oldest first), each but this one with a sign-out button.
function devicesBox() {
  const list = h('ul', { class: 'device-list', 'data-role': 'devices' });
  const others = h('button', { class: 'btn small', type: 'button', 'data-role': 'sign-out-others', text: pt('sign_out_others'), hidden: true });
  const msg = h('p', { class: 'small', role: 'status' });
  const act = (button, method, path) => async () => {
    button.disabled = true;
    try { await req(method, path); msg.textContent = ''; } catch (e) { msg.textContent = e.message; }
    load();
  };
  const load = () => req('GET', '/players/me/devices').then((devices) => {
    clear(list).append(...devices.map((d, i) => {
      const row = h('li', { class: 'device' + (d.current ? ' current' : ''), 'data-device': d.id },
        h('span', { text: pt('device_row', { n: i + 1, time: whenShort(d.created_at) }) }));
      if (d.current) {
        row.append(h('span', { class: 'badge', text: pt('this_device') }));
      } else {
        const out = h('button', { class: 'btn small', type: 'button', 'data-role': 'sign-out', text: pt('sign_out') });
        out.onclick = act(out, 'DELETE', `/players/me/devices/${d.id}`);
        row.append(out);
      }
      return row;
    }));
    others.hidden = devices.length < 3;  // with one other device its own button says the same
    others.disabled = false;
  }).catch(() => {});
  others.onclick = act(others, 'POST', '/players/me/devices/sign-out-others');
  load();
  return h('div', { class: 'devices-box' }, h('h3', { text: pt('my_devices') }),
    h('p', { class: 'muted small', text: pt('devices_note') }), list, others, msg);
}

// The player's sign-in name and passphrase (set, replace, remove); never shown back.
function passphraseBox() {
  const state = h('p', { class: 'small pass-state' });
  const login = h('input', { type: 'text', name: 'login', autocomplete: 'username', maxlength: 40, value: (me() && me().name) || '' });
  const pass = h('input', { type: 'password', name: 'passphrase', autocomplete: 'new-password', minlength: 10, maxlength: 200 });
  const msg = h('p', { class: 'small pass-msg', role: 'status' });
  const save = h('button', { class: 'btn', type: 'submit', text: pt('save_pass') });
  const remove = h('button', { class: 'btn small', type: 'button', text: pt('remove_pass'), hidden: true });
  const show = (st) => {
    state.textContent = st ? pt('pass_set', { login: st.login }) : '';
    remove.hidden = !st;
    if (st) login.value = st.login;
  };
  const form = h('form', { class: 'pass-form', 'data-role': 'passphrase-form' },
    h('label', { class: 'field' }, h('span', { text: pt('login') }), login),
    h('label', { class: 'field' }, h('span', { text: pt('passphrase') }), pass),
    h('div', { class: 'pass-actions' }, save, remove));
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    if (pass.value.length < 10) { msg.textContent = pt('pass_short'); return; }
    save.disabled = true;
    try {
      show(await req('PUT', '/players/me/passphrase', { login: login.value, passphrase: pass.value }));
      pass.value = '';
      msg.textContent = '';
    } catch (e) {
      msg.textContent = e.code === 'login_taken' ? pt('login_taken') : e.message;
    } finally { save.disabled = false; }
  };
  remove.onclick = async () => {
    await req('DELETE', '/players/me/passphrase').catch(() => {});
    show(null);
  };
  req('GET', '/players/me/passphrase').then(show).catch(() => {});
  return h('div', { class: 'pass-box' }, h('h3', { text: pt('pass_title') }), h('p', { class: 'muted small', text: pt('pass_note') }), state, form, msg);
}

// #/signin: a name and passphrase for this device.
function passphraseSignIn(panel, { navigate }) {
  const login = h('input', { type: 'text', name: 'login', autocomplete: 'username', maxlength: 200, required: true });
  const pass = h('input', { type: 'password', name: 'passphrase', autocomplete: 'current-password', maxlength: 200, required: true });
  const msg = h('p', { class: 'error small', role: 'alert' });
  const go = h('button', { class: 'btn primary', type: 'submit', text: pt('sign_in_btn') });
  const who = me();
  const form = h('form', { class: 'pass-form', 'data-role': 'sign-in-form' },
    h('label', { class: 'field' }, h('span', { text: pt('login') }), login),
    h('label', { class: 'field' }, h('span', { text: pt('passphrase') }), pass),
    h('div', { class: 'pass-actions' }, go));
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    go.disabled = true;
    msg.textContent = '';
    try {
      const p = await req('POST', '/sign-in/passphrase', { login: login.value, passphrase: pass.value });
      setMe({ id: p.id, name: p.name, token: p.token });
      signedIn(panel, p, navigate);
    } catch (e) {
      msg.textContent = e.status === 429 ? pt('sign_in_locked') : e.code === 'sign_in_refused' ? pt('sign_in_wrong') : e.message;
    } finally { go.disabled = false; }
  };
  append(panel, [h('h2', { text: pt('sign_in') }), h('p', { class: 'muted small', text: pt('sign_in_note') }),
    who ? h('p', { class: 'small', text: pt('sign_in_replaces', { name: who.name }) }) : null, form, msg]);
}

function signedIn(panel, p, navigate) {
  clear(panel).append(h('p', { class: 'signed-in', text: pt('signed_in', { name: p.name }) }));
  const go = h('button', { class: 'btn primary', type: 'button', text: pt('my_page') });
  go.onclick = () => navigate('/#/player');
  const lobby = h('button', { class: 'btn', type: 'button', text: pt('to_lobby') });
  lobby.onclick = () => navigate('/');
  panel.append(h('div', { class: 'lobby-actions' }, go, lobby));
}

function ratingsPanel(page) {
  const panel = h('section', { class: 'panel player-ratings' }, h('h2', { text: pt('ratings') }));
  if (!page.ratings.length) {
    panel.append(h('p', { class: 'muted', text: pt('no_ratings') }));
    return panel;
  }
  panel.append(table('ratings', [pt('family'), pt('rating'), 'μ ± σ', pt('matches')],
    page.ratings.map((r) => h('tr', { 'data-family': r.family },
      h('td', { text: familyName(r.family) }), h('td', { class: 'num strong', text: fmt(r.ordinal) }),
      h('td', { class: 'num muted', text: `${fmt(r.mu)} ± ${fmt(r.sigma)}` }), h('td', { class: 'num', text: String(r.matches) }))),
  ));
  const charts = h('div', { class: 'rating-charts' });
  panel.append(h('h3', { text: pt('rating_history') }), charts);
  for (const r of page.ratings) {
    // at most CHART_POINTS points, spread over all his rated matches (n: which match)
    req('GET', `/players/${page.player.id}/ratings/${encodeURIComponent(r.family)}/chart?points=${CHART_POINTS}`).then((chart) => {
      const series = chart.points.map((x) => Math.round(x.ordinal * 10) / 10);
      const xs = [0, ...chart.points.map((x) => x.n)];
      const note = chart.points.length < chart.matches ? h('p', { class: 'muted small', text: pt('chart_sampled', { n: chart.points.length, of: chart.matches }) }) : null;
      charts.append(h('div', { class: 'rating-chart', 'data-family': r.family },
        chartEl([series], [familyName(r.family)], { title: `${pt('rating_history')}: ${familyName(r.family)}`, xs }), note));
    }).catch(() => {});
  }
  return panel;
}

function recordPanel(page) {
  const panel = h('section', { class: 'panel player-record' }, h('h2', { text: pt('matches') }));
  if (!page.record.length) return panel.append(h('p', { class: 'muted', text: pt('none') })), panel;
  panel.append(table('record', [pt('family'), pt('played'), pt('won'), pt('avg_place')],
    page.record.map((r) => h('tr', null, h('td', { text: familyName(r.family) }),
      h('td', { class: 'num', text: String(r.played) }), h('td', { class: 'num', text: `${r.won} (${Math.round((100 * r.won) / r.played)}%)` }),
      h('td', { class: 'num', text: fmt(r.average_place, 2) })))));
  return panel;
}

function statsPanel(page) {
  const st = page.stats || {};
  const panel = h('section', { class: 'panel player-stats' }, h('h2', { text: pt('stats') }));
  if (st.thousand) {
    const x = st.thousand;
    panel.append(h('h3', { text: familyName('thousand') }), h('dl', { class: 'stat-list', 'data-family': 'thousand' },
      h('dt', { text: pt('contracts_made') }), h('dd', { text: `${x.made} / ${x.declared}${x.made_percent === null ? '' : ` (${x.made_percent}%)`}` }),
      h('dt', { text: pt('avg_contract') }), h('dd', { text: x.average_bid === null ? '—' : fmt(x.average_bid, 0) }),
      h('dt', { text: pt('marriages') }), h('dd', { text: String(x.marriages) }),
      h('dt', { text: pt('deals') }), h('dd', { text: String(x.deals) })));
  }
  if (st.king) {
    panel.append(h('h3', { text: `${familyName('king')}: ${pt('per_contract')}` }),
      table('king-stats', [t('contract'), pt('deals'), pt('total')], st.king.per_contract.map((g) => h('tr', null,
        h('td', { text: t('contracts.' + g.contract) }), h('td', { text: String(g.deals) }), h('td', { text: fmt(g.average) })))));
  }
  if (st.korol) {
    panel.append(h('h3', { text: `${familyName('korol')}: ${pt('as_title')}` }),
      table('korol-stats', ['', pt('reigns')], Object.entries(st.korol.titles)
        .map(([title, n]) => h('tr', null, h('td', { text: titleName(title) }), h('td', { text: String(n) })))));
  }
  return Object.keys(st).length ? panel : null;
}

function h2hPanel(id, link) {
  const panel = h('section', { class: 'panel player-h2h' }, h('h2', { text: pt('h2h') }));
  req('GET', `/players/${id}/head-to-head?limit=50`).then((rows) => {
    if (!rows.length) return panel.append(h('p', { class: 'muted', text: pt('none') }));
    panel.append(table('h2h', [pt('opponent'), pt('together'), pt('ahead'), pt('behind')],
      rows.map((r) => h('tr', null,
        h('td', null, link(`#/player/${r.player}`, r.bot_key ? `${r.name} 🤖` : r.name)),
        h('td', { class: 'num', text: String(r.matches) }), h('td', { class: 'num', text: String(r.ahead) }),
        h('td', { class: 'num', text: String(r.behind) })))));
  }).catch(() => {});
  return panel;
}

// Calls to new rooms with the same people, at the top of the home page.
export async function callsBanner(main, { navigate }) {
  if (!me()) return;
  let calls;
  try { calls = await req('GET', '/players/me/calls'); } catch { return; }
  if (!calls.length) return;
  const box = h('section', { class: 'panel calls' }, calls.map((c) => {
    const row = h('div', { class: 'call', 'data-room': c.room });
    const join = h('button', { class: 'btn primary small', type: 'button', text: pt('join_call') });
    join.onclick = () => navigate(`/room/${encodeURIComponent(c.room)}`);
    const dismiss = h('button', { class: 'btn small', type: 'button', text: pt('dismiss') });
    dismiss.onclick = async () => { await req('DELETE', `/players/me/calls/${c.id}`).catch(() => {}); row.remove(); };
    row.append(h('span', { text: pt('called', { name: c.from.name, variant: variantName(c.variant) }) }), join, dismiss);
    return row;
  }));
  main.prepend(box);
}

function finishedPanel(id, link, mine, navigate) {
  const list = h('tbody');
  const more = h('button', { class: 'btn small', type: 'button', text: pt('more') });
  const panel = h('section', { class: 'panel player-finished' },
    h('div', { class: 'panel-head' }, h('h2', { text: pt('finished') }),
      h('a', { class: 'btn small', href: `/api/players/${id}/matches.csv`, download: '', text: pt('csv') })),
    h('div', { class: 'table-wrap' }, h('table', { class: 'grid finished' },
      h('thead', null, h('tr', null, [t('variant'), pt('place'), pt('total'), '', ''].map((x) => h('th', { text: x })))), list)),
    more);
  let before = null;  // keyset paging: the last match id shown
  const PAGE = 20;
  const load = async () => {
    more.disabled = true;
    const rows = await req('GET', `/players/${id}/finished?limit=${PAGE}${before ? `&before=${encodeURIComponent(before)}` : ''}`);
    if (rows.length) before = rows[rows.length - 1].match;
    for (const r of rows) {
      list.append(h('tr', { class: r.place === 1 ? 'won' : '' },
        h('td', { text: variantName(r.variant) }), h('td', { class: 'num', text: String(r.place) }),
        h('td', { class: 'num', text: String(r.total) }),
        h('td', { class: 'when' }, link(`#/match/${r.match}`, whenShort(r.finished_at))),
        h('td', null, mine ? againButton(r.room, navigate) : null)));
    }
    more.hidden = rows.length < PAGE;
    more.disabled = false;
  };
  more.onclick = load;
  load().catch(() => { more.hidden = true; });
  return panel;
}

function againButton(room, navigate) {
  const b = h('button', { class: 'btn tiny again', type: 'button', title: pt('again'), 'aria-label': pt('again'), text: '↻' });
  b.onclick = async () => {
    b.disabled = true;
    try {
      const out = await req('POST', `/rooms/${encodeURIComponent(room)}/again`);
      navigate(`/room/${encodeURIComponent(out.room.code)}`);
    } finally { b.disabled = false; }
  };
  return b;
}

export async function renderPlayer(main, id, { link, navigate }) {
  const who = me();
  const pid = id ?? (who && who.id);
  if (!pid) {
    main.append(h('section', { class: 'panel narrow' }, h('p', { text: pt('none') }), link('/', pt('to_lobby'), 'btn')));
    return;
  }
  const wrap = h('div', { class: 'player-page' }, h('p', { class: 'muted', text: t('loading') }));
  main.append(wrap);
  let page;
  try {
    page = await req('GET', `/players/${pid}/page`);
  } catch (e) {
    clear(wrap).append(h('section', { class: 'panel' }, h('p', { class: 'error', text: e.message })));
    return;
  }
  const mine = who && who.id === page.player.id;
  clear(wrap).append(
    h('h1', { class: 'player-name' }, page.player.name, mine ? h('span', { class: 'badge', text: pt('you') }) : null),
    h('div', { class: 'player-grid' },
      h('div', { class: 'player-main' }, ratingsPanel(page), finishedPanel(page.player.id, link, mine, navigate)),
      h('div', { class: 'player-side' }, recordPanel(page), statsPanel(page), h2hPanel(page.player.id, link), signInPanel(mine))));
}

// #/signin/SECRET spends a sign-in link; #/signin (or a refused link) offers the name +
// passphrase form.
export async function renderSignIn(main, secret, { navigate }) {
  const panel = h('section', { class: 'panel narrow signin-page' });
  main.append(panel);
  if (!secret) return passphraseSignIn(panel, { navigate });
  panel.append(h('p', { text: pt('signing_in') }));
  history.replaceState(null, '', '/#/signin');  // the secret leaves the address bar and history at once
  try {
    const p = await req('POST', '/sign-in', { link: secret });
    setMe({ id: p.id, name: p.name, token: p.token });
    signedIn(panel, p, navigate);
  } catch (e) {
    clear(panel).append(h('p', { class: 'error sign-in-failed', text: pt('sign_in_failed') }));
    passphraseSignIn(panel, { navigate });
  }
}
