// Russian, Polish and English: the interface and the game terms in the players' own words.

import { LOBBY_WORDS } from './i18n_lobby.js';

const LANGS = ['ru', 'pl', 'en'];
const KEY = 'kozyr.lang';

const en = {
  bot: 'bot', bot_name: 'Bot ({level})', bot_levels: { random: 'random', basic: 'basic', strong: 'strong' },
  add_bot: 'Add a bot', remove_bot: 'Remove the bot', bot_level: 'Bot level',
  takeover_seconds: 'A bot plays for a player who waits longer than (seconds; 0 = off)',
  takeover_short: 'Bot takeover after (s, 0 = off)', takeover: 'bot plays for them', set: 'Set',
  lobby: 'Lobby', language: 'Language', sound: 'Sound', offline: 'offline', online: 'online',
  connecting: 'connecting…', your_turn: 'Your turn', your_turn_title: '▶ Your turn — Kozyr',
  name: 'Your name', save: 'Save', hello: 'Hello, {name}', change_name: 'Change name',
  create_room: 'Create a room', game: 'Game', variant: 'Variant', seats_n: 'Players',
  house_rules: 'House rules', create: 'Create', join_code: 'Join by code', join: 'Join',
  my_matches: 'My matches', no_matches: 'No matches yet.', open: 'Open',
  room: 'Room', invite: 'Invite link', copy: 'Copy', copied: 'Copied!', seat: 'Seat',
  empty_seat: 'empty', take_seat: 'Take this seat', leave_seat: 'Leave seat', you: 'you',
  host: 'host', start: 'Start the match', rematch: 'Rematch', waiting_players: 'Waiting for players…',
  waiting_host: 'Waiting for the host to start.', spectators: 'Spectators: {n}',
  match_over: 'The match is over', winners: 'Winner: {names}', history: 'History',
  scores: 'Scores', chat: 'Chat', send: 'Send', say: 'Say something…', last_trick: 'Last trick',
  hide: 'Hide', trump: 'Trump', no_trump: 'no trump', contract: 'Contract', deal_n: 'Deal {n}',
  dealer: 'dealer', cards_n: '{n} cards', waiting_for: 'Waiting for {names}', talon: 'Talon',
  face_up: 'Face up', phase: 'Phase', total: 'Total', deal: 'Deal', round: 'Round', crowning: 'Crowning',
  reign_n: 'Reign {n}', tricks: 'Tricks', tally: 'Tally', declarer: 'Declarer', bid: 'Bid',
  sitting_out: 'sits out', choose: 'Choose', cancel: 'Cancel', replay: 'Replay', step: 'Step {i} of {n}',
  back: 'Back', forward: 'Forward', prev_deal: '◀ Previous deal', next_deal: 'Next deal ▶',
  chart: 'Running totals', export: 'Export', match_n: 'Match #{n}', status_playing: 'playing',
  status_finished: 'finished', status_waiting: 'waiting', loading: 'Loading…', error: 'Error',
  not_found: 'Not found.', played: 'Played', discarded: 'Discarded', no_deals: 'No finished deal yet.',
  started: 'Started', dealt: 'As dealt', trick_won_by: 'taken by {name}', spectating: 'You are watching.',
  options: 'Options', last_deal: 'Last deal', phases: {
    bidding: 'Bidding', talon: 'Talon', play: 'Play', choose: 'Choosing', spare: 'Spare hands',
    strike: 'Strike?', handover: 'Trimming', pool: 'Pooling', tribute: 'Tribute', swap: 'Trump swap',
    match_over: 'Match over' },
  families: { thousand: 'Thousand', king: 'King', korol: 'King – Prince – Soldier' },
  variants: { 'thousand-1001': 'Thousand (1001)', 'thousand-1000': 'Thousand (1000)',
    'thousand-1000-2p': 'Thousand for two', 'king-classic': 'King (classic)', 'king-ordered': 'King (ordered)',
    'king-3p': 'King for three', 'korol-ru': 'Korol (Russian)', 'krol-pl': 'Król (Polish)' },
  titles: { king: 'King', prince: 'Prince', soldier: 'Soldier', peasant: 'Peasant' },
  titles_pl: { peasant: 'Sweeper' },
  contracts: { tricks: 'No tricks', boys: 'No jacks', girls: 'No queens', hearts: 'No hearts',
    last2: 'Last two', king: 'No King of hearts', all: 'Eralash (all)', trump: 'Trump deal' },
  act: {
    pass: 'Pass', bid: 'Bid {n}', contract: 'Contract {n}', throw: 'Throw in', refuse: 'Refuse to play',
    keep: 'Keep', strike: 'Strike (redeal)', accept: 'Accept', 'take:top': 'Take the top pair',
    'take:bottom': 'Take the bottom pair', 'trump:last': 'Trump by the last card', trump: 'Trump {suit}',
    order: 'Order: {c}', order_trump: 'Order: trump {suit}', spare: 'Take the spare hand ({name})',
    play: 'Play {card}', marriage: 'Marriage {suit}: lead {card}', give: 'Give {card} → {name}',
    discard: 'Discard {card}', swap: 'Put {card}, take the trump card', take: 'Take {card}',
  },
  prompts: {
    bidding: 'Your bid', talon: 'The talon', choose: 'Choose the game', spare: 'A spare hand?',
    strike: 'Strike or accept?', handover: 'Discard down to 9', pool: 'Give back a card',
    tribute: 'Tribute', swap: 'Swap with the trump card?', play: 'Play a card',
  },
  hidden_card: 'a card', whole_hand: 'The whole hand',
  marriage_word: 'Marriage', marriages: 'Marriages', thrown: 'thrown in', refused: 'refused',
  ranks: { T: '10', J: 'J', Q: 'Q', K: 'K', A: 'A' },
  suits: { S: 'spades', C: 'clubs', D: 'diamonds', H: 'hearts' },
};

const ru = {
  bot: 'бот', bot_name: 'Бот ({level})', bot_levels: { random: 'случайный', basic: 'простой', strong: 'сильный' },
  add_bot: 'Посадить бота', remove_bot: 'Убрать бота', bot_level: 'Уровень бота',
  takeover_seconds: 'Бот ходит за игрока, который думает дольше (секунд; 0 — нет)',
  takeover_short: 'Бот подменяет через (с, 0 — нет)', takeover: 'за него играет бот', set: 'Задать',
  lobby: 'Лобби', language: 'Язык', sound: 'Звук', offline: 'нет связи', online: 'в сети',
  connecting: 'соединение…', your_turn: 'Ваш ход', your_turn_title: '▶ Ваш ход — Козырь',
  name: 'Ваше имя', save: 'Сохранить', hello: 'Привет, {name}', change_name: 'Сменить имя',
  create_room: 'Создать стол', game: 'Игра', variant: 'Вариант', seats_n: 'Игроков',
  house_rules: 'Правила стола', create: 'Создать', join_code: 'Войти по коду', join: 'Войти',
  my_matches: 'Мои партии', no_matches: 'Партий пока нет.', open: 'Открыть',
  room: 'Стол', invite: 'Ссылка-приглашение', copy: 'Копировать', copied: 'Скопировано!', seat: 'Место',
  empty_seat: 'свободно', take_seat: 'Сесть сюда', leave_seat: 'Встать', you: 'вы',
  host: 'хозяин', start: 'Начать партию', rematch: 'Ещё партию', waiting_players: 'Ждём игроков…',
  waiting_host: 'Ждём, пока хозяин начнёт.', spectators: 'Зрителей: {n}',
  match_over: 'Партия окончена', winners: 'Победитель: {names}', history: 'История',
  scores: 'Запись', chat: 'Чат', send: 'Отправить', say: 'Напишите…', last_trick: 'Последняя взятка',
  hide: 'Скрыть', trump: 'Козырь', no_trump: 'без козыря', contract: 'Заказ', deal_n: 'Сдача {n}',
  dealer: 'сдаёт', cards_n: 'карт: {n}', waiting_for: 'Ходит: {names}', talon: 'Прикуп',
  face_up: 'Открыто', phase: 'Этап', total: 'Итого', deal: 'Сдача', round: 'Круг', crowning: 'Коронация',
  reign_n: 'Правление {n}', tricks: 'Взятки', tally: 'Счёт взяток', declarer: 'Играет', bid: 'Ставка',
  sitting_out: 'на прикупе', choose: 'Выбрать', cancel: 'Отмена', replay: 'Повтор', step: 'Ход {i} из {n}',
  back: 'Назад', forward: 'Вперёд', prev_deal: '◀ Предыдущая сдача', next_deal: 'Следующая сдача ▶',
  chart: 'Ход партии', export: 'Экспорт', match_n: 'Партия №{n}', status_playing: 'идёт',
  status_finished: 'окончена', status_waiting: 'ожидание', loading: 'Загрузка…', error: 'Ошибка',
  not_found: 'Не найдено.', played: 'Сыграно', discarded: 'Снесено', no_deals: 'Ни одной сдачи ещё не сыграно.',
  started: 'Начата', dealt: 'Как сдано', trick_won_by: 'взял(а) {name}', spectating: 'Вы смотрите.',
  options: 'Правила', last_deal: 'Последняя сдача', phases: {
    bidding: 'Торговля', talon: 'Прикуп', play: 'Розыгрыш', choose: 'Выбор игры', spare: 'Лишние руки',
    strike: 'Пересдача?', handover: 'Сброс до 9', pool: 'Обмен', tribute: 'Дань', swap: 'Обмен козыря',
    match_over: 'Партия окончена' },
  families: { thousand: 'Тысяча', king: 'Кинг', korol: 'Король' },
  variants: { 'thousand-1001': 'Тысяча (1001)', 'thousand-1000': 'Тысяча (1000)',
    'thousand-1000-2p': 'Тысяча вдвоём', 'king-classic': 'Кинг (классический)',
    'king-ordered': 'Кинг (с заказом)', 'king-3p': 'Кинг втроём', 'korol-ru': 'Король', 'krol-pl': 'Król (польский)' },
  titles: { king: 'Король', prince: 'Принц', soldier: 'Солдат', peasant: 'Мужик' },
  titles_pl: { peasant: 'Уборщик' },
  contracts: { tricks: 'Не брать взяток', boys: 'Не брать мальчиков', girls: 'Не брать девочек',
    hearts: 'Не брать червей', last2: 'Две последние', king: 'Не брать кинга', all: 'Ералаш',
    trump: 'Отыгрыш (козырь)' },
  act: {
    pass: 'Пас', bid: 'Торгуюсь: {n}', contract: 'Заказ {n}', throw: 'Сдаться',
    refuse: 'Расписать (отказ от игры)', keep: 'Оставить', strike: 'Пересдать', accept: 'Играем',
    'take:top': 'Взять верхнюю пару', 'take:bottom': 'Взять нижнюю пару', 'trump:last': 'Козырь — по последней',
    trump: 'Козырь {suit}', order: 'Заказ: {c}', order_trump: 'Заказ: козырь {suit}',
    spare: 'Взять лишнюю руку ({name})', play: 'Ход: {card}', marriage: 'Марьяж {suit}: ход {card}',
    give: 'Отдать {card} → {name}', discard: 'Снести {card}', swap: 'Положить {card}, взять козырь',
    take: 'Взять {card}',
  },
  prompts: {
    bidding: 'Ваша ставка', talon: 'Прикуп', choose: 'Выберите игру', spare: 'Лишняя рука?',
    strike: 'Пересдать или играть?', handover: 'Снесите до 9 карт', pool: 'Отдайте карту',
    tribute: 'Дань', swap: 'Поменять козырную карту?', play: 'Ваш ход',
  },
  hidden_card: 'карту', whole_hand: 'Все карты',
  marriage_word: 'Марьяж', marriages: 'Марьяжи', thrown: 'расписал', refused: 'отказался',
  ranks: { T: '10', J: 'В', Q: 'Д', K: 'К', A: 'Т' },
  suits: { S: 'пики', C: 'трефы', D: 'бубны', H: 'черви' },
};

const pl = {
  bot: 'bot', bot_name: 'Bot ({level})', bot_levels: { random: 'losowy', basic: 'podstawowy', strong: 'mocny' },
  add_bot: 'Dodaj bota', remove_bot: 'Usuń bota', bot_level: 'Poziom bota',
  takeover_seconds: 'Bot gra za gracza, który myśli dłużej niż (sekund; 0 = nigdy)',
  takeover_short: 'Bot zastępuje po (s, 0 = nigdy)', takeover: 'gra za niego bot', set: 'Ustaw',
  lobby: 'Poczekalnia', language: 'Język', sound: 'Dźwięk', offline: 'offline', online: 'online',
  connecting: 'łączenie…', your_turn: 'Twój ruch', your_turn_title: '▶ Twój ruch — Kozyr',
  name: 'Twoje imię', save: 'Zapisz', hello: 'Cześć, {name}', change_name: 'Zmień imię',
  create_room: 'Nowy stolik', game: 'Gra', variant: 'Odmiana', seats_n: 'Graczy',
  house_rules: 'Zasady stolika', create: 'Utwórz', join_code: 'Dołącz kodem', join: 'Dołącz',
  my_matches: 'Moje partie', no_matches: 'Brak partii.', open: 'Otwórz',
  room: 'Stolik', invite: 'Link z zaproszeniem', copy: 'Kopiuj', copied: 'Skopiowano!', seat: 'Miejsce',
  empty_seat: 'wolne', take_seat: 'Usiądź tutaj', leave_seat: 'Wstań', you: 'ty',
  host: 'gospodarz', start: 'Zacznij partię', rematch: 'Rewanż', waiting_players: 'Czekamy na graczy…',
  waiting_host: 'Czekamy, aż gospodarz zacznie.', spectators: 'Widzów: {n}',
  match_over: 'Partia skończona', winners: 'Wygrywa: {names}', history: 'Historia',
  scores: 'Zapis', chat: 'Czat', send: 'Wyślij', say: 'Napisz coś…', last_trick: 'Ostatnia lewa',
  hide: 'Ukryj', trump: 'Atut', no_trump: 'bez atu', contract: 'Kontrakt', deal_n: 'Rozdanie {n}',
  dealer: 'rozdaje', cards_n: 'kart: {n}', waiting_for: 'Ruch: {names}', talon: 'Musik',
  face_up: 'Odkryte', phase: 'Etap', total: 'Razem', deal: 'Rozdanie', round: 'Runda', crowning: 'Koronacja',
  reign_n: 'Panowanie {n}', tricks: 'Lewy', tally: 'Lewy', declarer: 'Gra', bid: 'Licytacja',
  sitting_out: 'pauzuje', choose: 'Wybierz', cancel: 'Anuluj', replay: 'Powtórka', step: 'Ruch {i} z {n}',
  back: 'Wstecz', forward: 'Dalej', prev_deal: '◀ Poprzednie rozdanie', next_deal: 'Następne rozdanie ▶',
  chart: 'Przebieg partii', export: 'Eksport', match_n: 'Partia nr {n}', status_playing: 'w toku',
  status_finished: 'zakończona', status_waiting: 'oczekuje', loading: 'Ładowanie…', error: 'Błąd',
  not_found: 'Nie znaleziono.', played: 'Zagrane', discarded: 'Zrzucone', no_deals: 'Żadne rozdanie jeszcze się nie skończyło.',
  started: 'Początek', dealt: 'Rozdane', trick_won_by: 'bierze {name}', spectating: 'Oglądasz.',
  options: 'Zasady', last_deal: 'Ostatnie rozdanie', phases: {
    bidding: 'Licytacja', talon: 'Musik', play: 'Rozgrywka', choose: 'Wybór gry', spare: 'Wolne ręce',
    strike: 'Strajk?', handover: 'Zrzutka do 9', pool: 'Wymiana', tribute: 'Danina', swap: 'Wymiana atu',
    match_over: 'Koniec partii' },
  families: { thousand: 'Tysiąc', king: 'King', korol: 'Król' },
  variants: { 'thousand-1001': 'Tysiąc (1001)', 'thousand-1000': 'Tysiąc (1000)',
    'thousand-1000-2p': 'Tysiąc we dwóch', 'king-classic': 'King (klasyczny)', 'king-ordered': 'King (z zamówieniem)',
    'king-3p': 'King we trzech', 'korol-ru': 'Król (rosyjski)', 'krol-pl': 'Król' },
  titles: { king: 'Król', prince: 'Książę', soldier: 'Żołnierz', peasant: 'Chłop' },
  titles_pl: { peasant: 'Sprzątacz' },
  contracts: { tricks: 'Bez lew', boys: 'Bez waletów', girls: 'Bez dam', hearts: 'Bez kierów',
    last2: 'Bez dwóch ostatnich', king: 'Bez króla kier', all: 'Rozbójnik', trump: 'Odgrywka (atu)' },
  act: {
    pass: 'Pas', bid: 'Licytuję {n}', contract: 'Gram {n}', throw: 'Poddaję', refuse: 'Bomba (nie gram)',
    keep: 'Zostawiam', strike: 'Strajk (nowe rozdanie)', accept: 'Gramy', 'take:top': 'Biorę górną parę',
    'take:bottom': 'Biorę dolną parę', 'trump:last': 'Atu z ostatniej karty', trump: 'Atu {suit}',
    order: 'Zamawiam: {c}', order_trump: 'Zamawiam: atu {suit}', spare: 'Biorę wolną rękę ({name})',
    play: 'Zagraj {card}', marriage: 'Meldunek {suit}: zagraj {card}', give: 'Daj {card} → {name}',
    discard: 'Zrzuć {card}', swap: 'Połóż {card}, weź atu', take: 'Weź {card}',
  },
  prompts: {
    bidding: 'Licytacja', talon: 'Musik', choose: 'Wybierz grę', spare: 'Wolna ręka?',
    strike: 'Strajk czy gramy?', handover: 'Zrzuć do 9 kart', pool: 'Oddaj kartę',
    tribute: 'Danina', swap: 'Wymienić kartę atutową?', play: 'Twój ruch',
  },
  hidden_card: 'kartę', whole_hand: 'Wszystkie karty',
  marriage_word: 'Meldunek', marriages: 'Meldunki', thrown: 'poddał', refused: 'zrezygnował',
  ranks: { T: '10', J: 'W', Q: 'D', K: 'K', A: 'A' },
  suits: { S: 'piki', C: 'trefle', D: 'kara', H: 'kiery' },
};

const DICTS = { en, ru, pl };
for (const l of LANGS) Object.assign(DICTS[l], LOBBY_WORDS[l]);  // the lobby's, invite's and history's words

function pick() {
  const saved = localStorage.getItem(KEY);
  if (LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const code = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(code)) return code;
  }
  return 'en';
}

let lang = pick();
const listeners = [];

export function getLang() { return lang; }
export function languages() { return LANGS; }
export function setLang(l) {
  if (!LANGS.includes(l)) return;
  lang = l;
  localStorage.setItem(KEY, l);
  document.documentElement.lang = l;
  for (const fn of listeners) fn(l);
}
export function onLang(fn) { listeners.push(fn); }

function lookup(dict, path) {
  let v = dict;
  for (const part of path.split('.')) {
    if (v == null) return undefined;
    v = v[part];
  }
  return v;
}

// t('act.bid', {n: 120}); a missing key falls back to English, then to the key itself.
export function t(path, vars) {
  let v = lookup(DICTS[lang], path);
  if (v === undefined) v = lookup(en, path);
  if (v === undefined) return path.split('.').pop();
  if (typeof v !== 'string') return v;
  return vars ? v.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m)) : v;
}

export const SUIT_SYMBOL = { S: '♠', C: '♣', D: '♦', H: '♥' };

export function rankLabel(rank) {
  return lookup(DICTS[lang], 'ranks.' + rank) || (rank === 'T' ? '10' : rank);
}

export function cardText(code) {
  return rankLabel(code[0]) + SUIT_SYMBOL[code[1]];
}

export function titleName(title, variant) {
  if (!title) return '';
  if (title === 'peasant' && variant === 'krol-pl') return t('titles_pl.peasant');
  return t('titles.' + title);
}

export const BOT_LEVELS = ['random', 'basic', 'strong'];

// 'Bot (basic)' in the reader's language.
export function botName(level) {
  return t('bot_name', { level: t('bot_levels.' + level) });
}

export function variantName(id, fallback) {
  const v = lookup(DICTS[lang], 'variants.' + id);
  return v || fallback || id;
}

document.documentElement.lang = lang;
