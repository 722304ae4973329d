// Russian, Polish and English: the interface and the game terms in the players' own words.

import { LOBBY_WORDS } from './i18n_lobby.js';
import { MODERN_WORDS } from './i18n_modern.js';
import { FRIENDS_WORDS } from './i18n_friends.js';

const LANGS = ['ru', 'pl', 'en'];
const KEY = 'kozyr.lang';

const en = {
  bot: 'bot', bot_name: 'Bot ({level})', bot_levels: { random: 'random', basic: 'basic', strong: 'strong' },
  add_bot: 'Add a bot', remove_bot: 'Remove the bot', bot_level: 'Bot level',
  takeover_seconds: 'A bot plays for a player who waits longer than (seconds; 0 = off)',
  rated_room: 'Rated (the results move the ratings)', takeback_option: 'Take-backs',
  takeback_opt_agree: 'By agreement of all', takeback_opt_off: 'Off',
  takeover_short: 'Bot takeover after (s, 0 = off)', takeover: 'bot plays for them', set: 'Set',
  lobby: 'Lobby', language: 'Language', sound: 'Sound', offline: 'offline', online: 'online',
  connecting: 'connecting…', your_turn: 'Your turn', your_turn_title: '▶ Your turn — Kozyr',
  name: 'Your name', save: 'Save', hello: 'Hello, {name}', change_name: 'Change name',
  create_room: 'Create a room', game: 'Game', variant: 'Variant', seats_n: 'Players',
  house_rules: 'House rules', create: 'Create', join_code: 'Join by code', join: 'Join',
  my_matches: 'My matches', no_matches: 'No matches yet.', open: 'Open',
  room: 'Room', invite: 'Invite link', copy: 'Copy', copied: 'Copied!', seat: 'Seat',
  empty_seat: 'empty', take_seat: 'Take this seat', leave_seat: 'Leave seat', you: 'you', your_hand: 'Your hand', trick: 'Trick', trick_empty: 'No cards on the table',
  keys_help: 'Keys: H your hand, arrows along it, Enter plays; C the buttons; P pass; S the table read aloud.',
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
  took_back: '{name} took back {action}, agreed by all',
  outdated: 'This page is out of date: the game has been updated. Reload it to play on.', reload: 'Reload',
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
  // a card's whole name, for screen readers: card_name with the rank and the suit as it is said
  card_name: '{rank} of {suit}',
  card_ranks: { 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven', 8: 'eight', 9: 'nine', T: 'ten',
    J: 'jack', Q: 'queen', K: 'king', A: 'ace' },
  card_suits: { S: 'spades', C: 'clubs', D: 'diamonds', H: 'hearts' },
};

const ru = {
  bot: 'бот', bot_name: 'Бот ({level})', bot_levels: { random: 'случайный', basic: 'простой', strong: 'сильный' },
  add_bot: 'Посадить бота', remove_bot: 'Убрать бота', bot_level: 'Уровень бота',
  takeover_seconds: 'Бот ходит за игрока, который думает дольше (секунд; 0 — нет)',
  rated_room: 'На рейтинг (результаты меняют рейтинг)', takeback_option: 'Возврат хода',
  takeback_opt_agree: 'С согласия всех', takeback_opt_off: 'Нельзя',
  takeover_short: 'Бот подменяет через (с, 0 — нет)', takeover: 'за него играет бот', set: 'Задать',
  lobby: 'Лобби', language: 'Язык', sound: 'Звук', offline: 'нет связи', online: 'в сети',
  connecting: 'соединение…', your_turn: 'Ваш ход', your_turn_title: '▶ Ваш ход — Козырь',
  name: 'Ваше имя', save: 'Сохранить', hello: 'Привет, {name}', change_name: 'Сменить имя',
  create_room: 'Создать стол', game: 'Игра', variant: 'Вариант', seats_n: 'Игроков',
  house_rules: 'Правила стола', create: 'Создать', join_code: 'Войти по коду', join: 'Войти',
  my_matches: 'Мои партии', no_matches: 'Партий пока нет.', open: 'Открыть',
  room: 'Стол', invite: 'Ссылка-приглашение', copy: 'Копировать', copied: 'Скопировано!', seat: 'Место',
  empty_seat: 'свободно', take_seat: 'Сесть сюда', leave_seat: 'Встать', you: 'вы', your_hand: 'Ваши карты', trick: 'Взятка', trick_empty: 'На столе нет карт',
  keys_help: 'Клавиши: H — ваши карты, стрелки — по картам, Enter — ход; C — кнопки; P — пас; S — прочитать стол.',
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
  took_back: '{name} вернул ход {action} с согласия всех',
  outdated: 'Страница устарела: игра обновилась. Перезагрузите её, чтобы играть дальше.', reload: 'Перезагрузить',
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
  card_name: '{rank} {suit}',
  card_ranks: { 2: 'двойка', 3: 'тройка', 4: 'четвёрка', 5: 'пятёрка', 6: 'шестёрка', 7: 'семёрка', 8: 'восьмёрка',
    9: 'девятка', T: 'десятка', J: 'валет', Q: 'дама', K: 'король', A: 'туз' },
  card_suits: { S: 'пик', C: 'треф', D: 'бубён', H: 'червей' },  // король пик, дама червей
};

const pl = {
  bot: 'bot', bot_name: 'Bot ({level})', bot_levels: { random: 'losowy', basic: 'podstawowy', strong: 'mocny' },
  add_bot: 'Dodaj bota', remove_bot: 'Usuń bota', bot_level: 'Poziom bota',
  takeover_seconds: 'Bot gra za gracza, który myśli dłużej niż (sekund; 0 = nigdy)',
  rated_room: 'Rankingowy (wyniki zmieniają ranking)', takeback_option: 'Cofanie ruchów',
  takeback_opt_agree: 'Za zgodą wszystkich', takeback_opt_off: 'Wyłączone',
  takeover_short: 'Bot zastępuje po (s, 0 = nigdy)', takeover: 'gra za niego bot', set: 'Ustaw',
  lobby: 'Poczekalnia', language: 'Język', sound: 'Dźwięk', offline: 'offline', online: 'online',
  connecting: 'łączenie…', your_turn: 'Twój ruch', your_turn_title: '▶ Twój ruch — Kozyr',
  name: 'Twoje imię', save: 'Zapisz', hello: 'Cześć, {name}', change_name: 'Zmień imię',
  create_room: 'Nowy stolik', game: 'Gra', variant: 'Odmiana', seats_n: 'Graczy',
  house_rules: 'Zasady stolika', create: 'Utwórz', join_code: 'Dołącz kodem', join: 'Dołącz',
  my_matches: 'Moje partie', no_matches: 'Brak partii.', open: 'Otwórz',
  room: 'Stolik', invite: 'Link z zaproszeniem', copy: 'Kopiuj', copied: 'Skopiowano!', seat: 'Miejsce',
  empty_seat: 'wolne', take_seat: 'Usiądź tutaj', leave_seat: 'Wstań', you: 'ty', your_hand: 'Twoje karty', trick: 'Lewa', trick_empty: 'Na stole nie ma kart',
  keys_help: 'Klawisze: H — twoje karty, strzałki — po kartach, Enter — zagraj; C — przyciski; P — pas; S — przeczytaj stół.',
  host: 'gospodarz', start: 'Zacznij partię', rematch: 'Rewanż', waiting_players: 'Czekamy na graczy…',
  waiting_host: 'Czekamy, aż gospodarz zacznie.', spectators: 'Widzów: {n}',
  match_over: 'Partia skończona', winners: 'Wygrywa: {names}', history: 'Historia',
  scores: 'Zapis', chat: 'Czat', send: 'Wyślij', say: 'Napisz coś…', last_trick: 'Ostatnia lewa',
  hide: 'Ukryj', trump: 'Atut', no_trump: 'bez atu', contract: 'Kontrakt', deal_n: 'Rozdanie {n}',
  dealer: 'rozdaje', cards_n: 'kart: {n}', waiting_for: 'Ruch: {names}', talon: 'Musik',
  face_up: 'Odkryte', phase: 'Etap', total: 'Razem', deal: 'Rozdanie', round: 'Runda', crowning: 'Koronacja',
  reign_n: 'Panowanie {n}', tricks: 'Lewy', tally: 'Suma lew', declarer: 'Gra', bid: 'Licytacja',
  sitting_out: 'pauzuje', choose: 'Wybierz', cancel: 'Anuluj', replay: 'Powtórka', step: 'Ruch {i} z {n}',
  back: 'Wstecz', forward: 'Dalej', prev_deal: '◀ Poprzednie rozdanie', next_deal: 'Następne rozdanie ▶',
  chart: 'Przebieg partii', export: 'Eksport', match_n: 'Partia nr {n}', status_playing: 'w toku',
  status_finished: 'zakończona', status_waiting: 'oczekuje', loading: 'Ładowanie…', error: 'Błąd',
  not_found: 'Nie znaleziono.', played: 'Zagrane', discarded: 'Zrzucone', no_deals: 'Żadne rozdanie jeszcze się nie skończyło.',
  took_back: '{name} cofnął ruch {action} za zgodą wszystkich',
  outdated: 'Ta strona jest nieaktualna: gra została zaktualizowana. Odśwież ją, aby grać dalej.', reload: 'Odśwież',
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
  card_name: '{rank} {suit}',
  card_ranks: { 2: 'dwójka', 3: 'trójka', 4: 'czwórka', 5: 'piątka', 6: 'szóstka', 7: 'siódemka', 8: 'ósemka',
    9: 'dziewiątka', T: 'dziesiątka', J: 'walet', Q: 'dama', K: 'król', A: 'as' },
  card_suits: { S: 'pik', C: 'trefl', D: 'karo', H: 'kier' },  // król pik, dama kier
};

const DICTS_BY_LANG = { en, ru, pl };
const DICTS = DICTS_BY_LANG;

// The table's words (prompts, waits, rule help, summaries, absent friends, errors).
const TABLE = {
  en: {
    titles_col: 'Title',
    bot_names: { random: ['Dotty', 'Lotty', 'Scotty'], basic: ['Sam', 'Max', 'Tom'], strong: ['Ada', 'Alan', 'Grace'] },
    takes: '{name} takes', you_take: 'You take the trick', four_colour: '4 colours', dismiss: 'OK',
    confirm_q: 'Sure? {action}', yes: 'Yes', no: 'No', help: 'Rules of this phase', close: 'Close',
    lost_conn: '{name} lost the connection', bot_now: 'Let a bot play now', bot_plays_you: 'A bot is playing for you.',
    takeback_undo: 'Undo', takeback_asks: '{name} asks to take back {action}.', takeback_agree: 'Agree',
    takeback_decline: 'Decline', takeback_waiting: 'Waiting for every answer…', takeback_undone: 'Taken back.',
    takeback_declined: 'The take-back was declined.', takeback_expired: 'The take-back request expired.', takeback_overtaken: 'The take-back came too late: the game had moved on.',
    im_back: "I'm back", bot_plays_for: 'a bot plays for {name}', seconds_left: '{s} s',
    unread: '{n} new', scores_btn: 'Scores', standings: 'Final standings', place: 'Place', points_word: 'Points',
    open_history: 'Open the history', winner_is: 'Winner: {names}', summary_deal: 'Deal {n}',
    made: 'made', failed: 'failed', card_points: 'Card points', change: 'Change', total_short: 'Total',
    thrown_in: 'thrown in', refused_play: 'refused to play', sits_out: 'sits out', barrel: 'on the barrel',
    tricks_n: 'tricks: {n}', title_gained: 'becomes {title}', title_kept: 'stays {title}', title_lost: 'was {title}',
    round_over: '{round}: results', not_connected: 'Not connected: the action was not sent.',
    act_aside: 'Cards set aside', act_title: '{title}',
    errors: {
      forbidden: 'That is not allowed for you.', conflict: 'That clashes with the room as it is now.', not_found: 'Not found.',
      invalid: 'That is not valid.', invalid_name: 'A name is 1 to 40 characters, no control characters.', invalid_options: 'These house rules are not valid.',
      match_running: 'A match is running: seats change between matches.', seat_taken: 'That seat is taken.', seats_empty: 'Every seat must be taken first.',
      too_many_rooms: 'You host too many open rooms.', too_many_bots: 'Too many bots.', bots_disabled: 'Bots are switched off on this server.',
      no_bot: 'There is no bot in that seat.', unknown_level: 'Unknown bot level.', unknown_match: 'There is no such match.', unknown_variant: 'Unknown game.', unknown_deal: 'That deal is not finished.', invalid_request: 'The request was not understood.',
      stale: 'The table moved on before your action arrived; it has been refreshed.',
      illegal: 'That move is not allowed now.',
      takeback_refused: 'That action cannot be taken back now.', takeback_open: 'A take-back request is open; answer it first.', not_seated: 'You are watching: only seated players act.',
      not_your_seat: 'That is not your seat.', no_match: 'No match is running.', rate_limited: 'Too fast: wait a moment.',
      chat_invalid: 'That message cannot be sent.', bad_message: 'The server did not understand the message.',
      too_large: 'The message is too large.', internal: 'Server error: please try again.', offline: 'Not connected: the action was not sent.',
      not_host: 'Only the host can do that.', bad_token: 'Your player token is not known here.', unknown_room: 'There is no such room.',
    },
    do: {
      give: 'Give one card to each opponent: click a card, then who gets it.',
      contract: 'Name your contract: at least {n}.', bid: 'Bid at least {n}, or pass.',
      take_pair: 'Take the top or the bottom pair of the talon.', discard: 'Discard a card face down: click it.',
      swap: 'Take the trump card for one of yours, or keep your hand.', take: "Take one card of the Peasant's hand, or keep yours.",
      trump: 'Name the trump suit from your first three cards, or let the last card decide.',
      order: 'Order the next deal: a contract you still owe, or a trump deal.',
      spare: 'Swap your hand for a spare hand, unseen, or keep it.', strike: 'Strike for a redeal, or accept the deal.',
      play: 'Play a card: click it.', throw: 'Play on, or throw in your cards.', other: 'Your turn: choose.',
      tribute: 'Give a card back: click one of yours.', pool: 'Give back a card: click a card, then who gets it.',
    },
    wait: {
      bidding: '{name} is bidding', talon: '{name} is taking the talon', play: '{name} is playing',
      choose: '{name} is choosing the game', spare: '{name} is deciding on a spare hand', strike: '{name} is deciding on a redeal',
      handover: '{name} is discarding', pool: '{name} is giving cards back', tribute: '{name} is taking the tribute',
      swap: '{name} is deciding on the trump card', other: 'Waiting for {name}',
    },
    rules: {
      thousand: {
        bidding: 'Each call passes or bids higher than the last; a pass is final. Without a marriage nobody bids above 120. The last bidder takes the talon and must score at least his contract.',
        talon: 'The declarer takes the talon (1001: shows it, takes it, gives one card to each opponent, then names a contract at least his bid). Throwing in or refusing ends the deal for the declarer at once.',
        play: 'Follow suit if you can, else trump if you can (1000: beat the highest card of the led suit if you can). Leading the K or Q of a marriage you hold may declare it: that suit becomes trump and you score its value. Card points: A 11, 10 10, K 4, Q 3, J 2.',
      },
      king: {
        choose: 'The chooser sees his first three cards and names the trump suit, or lets the last card dealt to him decide.',
        play: 'Follow suit if you can. Negative deals: avoid what the contract names (tricks, jacks, queens, hearts, the last two tricks, the King of hearts, or all of them). Trump deals: trump when you cannot follow; every trick pays.',
      },
      korol: {
        play: 'Follow suit if you can; trumping is allowed, never required. Each trick counts towards your tally; reaching the target gives you the next free title and you leave the round.',
        tribute: 'The King (then the Prince) takes the Peasant\'s highest trump and gives back any other card of his own.',
        swap: 'After the King has left, the Peasant may take the turned trump card for a card of his own.',
        spare: 'Swap your whole hand for a spare hand, unseen, or keep it. Each player decides once.',
        strike: 'The King may demand a redeal (at most three times); the Prince only without a trump above the 9.',
        pool: 'The King and the Prince each hold 18 cards and give back 9, one at a time.',
        handover: 'A receiver holding more than 9 cards discards down to 9.',
      },
    },
  },
  ru: {
    titles_col: 'Титул',
    bot_names: { random: ['Тоша', 'Гоша', 'Кеша'], basic: ['Вася', 'Петя', 'Коля'], strong: ['Михалыч', 'Семёныч', 'Петрович'] },
    takes: 'Берёт {name}', you_take: 'Взятка ваша', four_colour: '4 цвета', dismiss: 'Понятно',
    confirm_q: 'Точно? {action}', yes: 'Да', no: 'Нет', help: 'Правила этого этапа', close: 'Закрыть',
    lost_conn: '{name}: связь потеряна', bot_now: 'Пусть сейчас играет бот', bot_plays_you: 'За вас сейчас играет бот.',
    takeback_undo: 'Отменить ход', takeback_asks: '{name} просит вернуть ход {action}.', takeback_agree: 'Согласен',
    takeback_decline: 'Нет', takeback_waiting: 'Ждём ответа всех…', takeback_undone: 'Ход возвращён.',
    takeback_declined: 'Возврат хода отклонён.', takeback_expired: 'Просьба вернуть ход истекла.', takeback_overtaken: 'Поздно: игра уже пошла дальше.',
    im_back: 'Я вернулся', bot_plays_for: 'за игрока {name} играет бот', seconds_left: '{s} с',
    unread: 'новых: {n}', scores_btn: 'Запись', standings: 'Итоги партии', place: 'Место', points_word: 'Очки',
    open_history: 'Открыть историю', winner_is: 'Победитель: {names}', summary_deal: 'Сдача {n}',
    made: 'сыграл', failed: 'не сыграл', card_points: 'Очки в картах', change: 'Изменение', total_short: 'Итого',
    thrown_in: 'сдался', refused_play: 'расписал', sits_out: 'на прикупе', barrel: 'на бочке',
    tricks_n: 'взяток: {n}', title_gained: 'теперь {title}', title_kept: 'остаётся: {title}', title_lost: 'был: {title}',
    round_over: '{round}: итоги', not_connected: 'Нет связи: ход не отправлен.',
    act_aside: 'Карты отложены', act_title: '{title}',
    errors: {
      forbidden: 'Вам это нельзя.', conflict: 'Это не сходится с тем, что сейчас за столом.', not_found: 'Не найдено.',
      invalid: 'Так нельзя.', invalid_name: 'Имя: от 1 до 40 знаков, без управляющих символов.', invalid_options: 'Такие правила стола не подходят.',
      match_running: 'Идёт партия: места меняют между партиями.', seat_taken: 'Это место занято.', seats_empty: 'Сначала нужно занять все места.',
      too_many_rooms: 'У вас слишком много открытых столов.', too_many_bots: 'Слишком много ботов.', bots_disabled: 'Боты на этом сервере выключены.',
      no_bot: 'На этом месте нет бота.', unknown_level: 'Неизвестный уровень бота.', unknown_match: 'Такой партии нет.', unknown_variant: 'Неизвестная игра.', unknown_deal: 'Эта сдача ещё не сыграна.', invalid_request: 'Запрос не понят.',
      stale: 'Стол ушёл вперёд раньше вашего хода; обновили.',
      takeback_refused: 'Этот ход сейчас вернуть нельзя.', takeback_open: 'Открыта просьба вернуть ход; сначала ответьте.', illegal: 'Так сейчас ходить нельзя.',
      not_seated: 'Вы зритель: ходят только игроки за столом.', not_your_seat: 'Это не ваше место.',
      no_match: 'Партия не идёт.', rate_limited: 'Слишком быстро: подождите немного.', chat_invalid: 'Это сообщение нельзя отправить.',
      bad_message: 'Сервер не понял сообщение.', too_large: 'Сообщение слишком большое.', internal: 'Ошибка сервера: попробуйте ещё раз.',
      offline: 'Нет связи: ход не отправлен.', not_host: 'Это может только хозяин стола.', bad_token: 'Ваш игрок здесь неизвестен.',
      unknown_room: 'Такого стола нет.',
    },
    do: {
      give: 'Отдайте по карте каждому сопернику: нажмите карту, затем кому.',
      contract: 'Назначьте игру: не меньше {n}.', bid: 'Торгуйтесь: не меньше {n}, или пас.',
      take_pair: 'Возьмите верхнюю или нижнюю пару прикупа.', discard: 'Снесите карту рубашкой вверх: нажмите её.',
      swap: 'Возьмите козырную карту за свою или оставьте как есть.', take: 'Возьмите карту из руки мужика или оставьте свои.',
      trump: 'Назовите козырь по первым трём картам или «по последней».',
      order: 'Закажите сдачу: игру, которую вы ещё должны, или козырь.',
      spare: 'Поменяйте руку на лишнюю, не глядя, или оставьте свою.', strike: 'Потребуйте пересдачу или играйте.',
      play: 'Ваш ход: нажмите карту.', throw: 'Играйте дальше или сдайтесь.', other: 'Ваш ход: выберите.',
      tribute: 'Верните карту: нажмите одну из своих.', pool: 'Раздайте карты обратно: нажмите карту, затем кому.',
    },
    wait: {
      bidding: '{name} торгуется', talon: '{name} берёт прикуп', play: 'Ходит {name}', choose: '{name} выбирает игру',
      spare: '{name} решает насчёт лишней руки', strike: '{name} решает насчёт пересдачи', handover: '{name} сносит карты',
      pool: '{name} раздаёт карты обратно', tribute: '{name} берёт дань', swap: '{name} решает насчёт козырной карты',
      other: 'Ждём: {name}',
    },
    rules: {
      thousand: {
        bidding: 'Каждый либо пасует, либо торгуется выше; пас — окончательно. Без марьяжа выше 120 не торгуются. Последний торговавшийся берёт прикуп и должен набрать не меньше заказа.',
        talon: 'Играющий берёт прикуп (1001: открывает, берёт, отдаёт по карте каждому сопернику и назначает игру не ниже своей ставки). Сдаться или отказаться — сдача для играющего сразу кончается.',
        play: 'Ходят в масть, нет масти — козырем, если есть (1000: в масть — старше лежащих, если можно). Заходя с короля или дамы марьяжа на руке, можно объявить его: масть становится козырной, марьяж идёт в очки. Очки карт: туз 11, десятка 10, король 4, дама 3, валет 2.',
      },
      king: {
        choose: 'Выбирающий видит свои первые три карты и называет козырь или говорит «по последней»: тогда козырь — масть последней сданной ему карты.',
        play: 'Ходят в масть, если есть. В минусовых сдачах не берите то, что названо (взятки, мальчиков, девочек, червей, две последние, кинга или всё сразу). В отыгрыше без масти бьют козырем; каждая взятка в плюс.',
      },
      korol: {
        play: 'Ходят в масть, если есть; бить козырем можно, но не обязательно. Взятки идут в счёт; набравший нужное число получает следующий свободный титул и выходит из круга.',
        tribute: 'Король (затем принц) забирает у мужика старший козырь и отдаёт ему любую свою другую карту.',
        swap: 'Когда король вышел, мужик может взять открытую козырную карту за свою.',
        spare: 'Поменяйте всю руку на лишнюю, не глядя, или оставьте свою. Каждый решает один раз.',
        strike: 'Король может потребовать пересдачу (не больше трёх раз), принц — только без козырей старше девятки.',
        pool: 'Король и принц держат по 18 карт и возвращают 9, по одной.',
        handover: 'У кого больше 9 карт, сносит лишние до 9.',
      },
    },
  },
  pl: {
    titles_col: 'Tytuł',
    bot_names: { random: ['Bolek', 'Lolek', 'Tola'], basic: ['Jaś', 'Staś', 'Franek'], strong: ['Zbyszek', 'Heniek', 'Władek'] },
    takes: 'Bierze {name}', you_take: 'Twoja lewa', four_colour: '4 kolory', dismiss: 'OK',
    confirm_q: 'Na pewno? {action}', yes: 'Tak', no: 'Nie', help: 'Zasady tego etapu', close: 'Zamknij',
    lost_conn: '{name}: utracono połączenie', bot_now: 'Niech teraz gra bot', bot_plays_you: 'Teraz gra za ciebie bot.',
    takeback_undo: 'Cofnij ruch', takeback_asks: '{name} prosi o cofnięcie ruchu {action}.', takeback_agree: 'Zgoda',
    takeback_decline: 'Nie', takeback_waiting: 'Czekamy na odpowiedź wszystkich…', takeback_undone: 'Ruch cofnięty.',
    takeback_declined: 'Cofnięcie ruchu odrzucone.', takeback_expired: 'Prośba o cofnięcie ruchu wygasła.', takeback_overtaken: 'Za późno: gra już poszła dalej.',
    im_back: 'Wracam', bot_plays_for: 'za gracza {name} gra bot', seconds_left: '{s} s',
    unread: 'nowe: {n}', scores_btn: 'Zapis', standings: 'Wyniki partii', place: 'Miejsce', points_word: 'Punkty',
    open_history: 'Otwórz historię', winner_is: 'Wygrywa: {names}', summary_deal: 'Rozdanie {n}',
    made: 'ugrane', failed: 'nieugrane', card_points: 'Punkty z kart', change: 'Zmiana', total_short: 'Razem',
    thrown_in: 'poddał', refused_play: 'zrezygnował', sits_out: 'pauzuje', barrel: 'na beczce',
    tricks_n: 'lew: {n}', title_gained: 'zostaje: {title}', title_kept: 'nadal: {title}', title_lost: 'był: {title}',
    round_over: '{round}: wyniki', not_connected: 'Brak połączenia: ruch nie został wysłany.',
    act_aside: 'Karty odłożone', act_title: '{title}',
    errors: {
      forbidden: 'Nie możesz tego zrobić.', conflict: 'To się nie zgadza z obecnym stanem stolika.', not_found: 'Nie znaleziono.',
      invalid: 'To jest niepoprawne.', invalid_name: 'Imię: od 1 do 40 znaków, bez znaków sterujących.', invalid_options: 'Te zasady stolika są niepoprawne.',
      match_running: 'Trwa partia: miejsca zmienia się między partiami.', seat_taken: 'To miejsce jest zajęte.', seats_empty: 'Najpierw trzeba zająć wszystkie miejsca.',
      too_many_rooms: 'Masz za dużo otwartych stolików.', too_many_bots: 'Za dużo botów.', bots_disabled: 'Boty są na tym serwerze wyłączone.',
      no_bot: 'Na tym miejscu nie ma bota.', unknown_level: 'Nieznany poziom bota.', unknown_match: 'Nie ma takiej partii.', unknown_variant: 'Nieznana gra.', unknown_deal: 'To rozdanie jeszcze się nie skończyło.', invalid_request: 'Nie zrozumiano żądania.',
      stale: 'Stół poszedł dalej przed twoim ruchem; odświeżono.',
      takeback_refused: 'Tego ruchu nie można teraz cofnąć.', takeback_open: 'Jest prośba o cofnięcie ruchu; najpierw odpowiedz.', illegal: 'Tego ruchu nie można teraz zrobić.',
      not_seated: 'Oglądasz: grają tylko gracze przy stole.', not_your_seat: 'To nie twoje miejsce.',
      no_match: 'Partia nie trwa.', rate_limited: 'Za szybko: chwilę poczekaj.', chat_invalid: 'Tej wiadomości nie można wysłać.',
      bad_message: 'Serwer nie zrozumiał wiadomości.', too_large: 'Wiadomość jest za duża.', internal: 'Błąd serwera: spróbuj ponownie.',
      offline: 'Brak połączenia: ruch nie został wysłany.', not_host: 'Tylko gospodarz może to zrobić.', bad_token: 'Twój gracz nie jest tu znany.',
      unknown_room: 'Nie ma takiego stolika.',
    },
    do: {
      give: 'Daj każdemu przeciwnikowi po karcie: kliknij kartę, potem komu.',
      contract: 'Zadeklaruj grę: co najmniej {n}.', bid: 'Licytuj co najmniej {n} albo pas.',
      take_pair: 'Weź górną albo dolną parę musiku.', discard: 'Zrzuć kartę zakrytą: kliknij ją.',
      swap: 'Weź kartę atutową za swoją albo zostaw rękę.', take: 'Weź kartę z ręki sprzątacza albo zostaw swoje.',
      trump: 'Wybierz atut po pierwszych trzech kartach albo z ostatniej karty.',
      order: 'Zamów rozdanie: grę, którą jeszcze jesteś winien, albo atu.',
      spare: 'Zamień rękę na wolną rękę, w ciemno, albo zostaw swoją.', strike: 'Zażądaj nowego rozdania albo graj.',
      play: 'Twój ruch: kliknij kartę.', throw: 'Graj dalej albo się poddaj.', other: 'Twój ruch: wybierz.',
      tribute: 'Oddaj kartę: kliknij jedną ze swoich.', pool: 'Oddaj karty: kliknij kartę, potem komu.',
    },
    wait: {
      bidding: '{name} licytuje', talon: '{name} bierze musik', play: 'Gra {name}', choose: '{name} wybiera grę',
      spare: '{name} decyduje o wolnej ręce', strike: '{name} decyduje o strajku', handover: '{name} zrzuca karty',
      pool: '{name} oddaje karty', tribute: '{name} bierze daninę', swap: '{name} decyduje o karcie atutowej',
      other: 'Czekamy na: {name}',
    },
    rules: {
      thousand: {
        bidding: 'Każdy pasuje albo licytuje wyżej; pas jest ostateczny. Bez meldunku nie licytuje się powyżej 120. Ostatni licytujący bierze musik i musi ugrać co najmniej swoją grę.',
        talon: 'Grający bierze musik (1001: odkrywa go, bierze, daje po karcie przeciwnikom i deklaruje grę nie niższą od licytacji). Poddanie albo rezygnacja od razu kończy rozdanie grającego.',
        play: 'Do koloru, jeśli masz; jeśli nie — atutem, jeśli masz (1000: do koloru wyżej od leżących, jeśli możesz). Wychodząc królem lub damą z meldunku na ręce możesz go zgłosić: ten kolor zostaje atutem, a meldunek się liczy. Punkty kart: as 11, dziesiątka 10, król 4, dama 3, walet 2.',
      },
      king: {
        choose: 'Wybierający widzi trzy pierwsze karty i wybiera atut albo mówi „z ostatniej”: atutem jest kolor ostatniej rozdanej mu karty.',
        play: 'Do koloru, jeśli masz. W rozdaniach ujemnych nie bierz tego, co nazwano (lew, waletów, dam, kierów, dwóch ostatnich lew, króla kier albo wszystkiego). W odgrywce bez koloru bij atutem; każda lewa się liczy.',
      },
      korol: {
        play: 'Do koloru, jeśli masz; przebijanie atutem wolno, ale nie trzeba. Lewy się sumują; kto dojdzie do celu, dostaje następny wolny tytuł i wychodzi z rundy.',
        tribute: 'Król (potem książę) bierze najwyższy atut chłopa i oddaje mu dowolną inną swoją kartę.',
        swap: 'Gdy król wyszedł, chłop może wziąć odkrytą kartę atutową za swoją.',
        spare: 'Zamień całą rękę na wolną, w ciemno, albo zostaw swoją. Każdy decyduje raz.',
        strike: 'Król może zażądać nowego rozdania (najwyżej trzy razy); książę tylko bez atutu wyższego od dziewiątki.',
        pool: 'Król i książę mają po 18 kart i oddają 9, po jednej.',
        handover: 'Kto ma więcej niż 9 kart, zrzuca do 9.',
      },
    },
  },
};

function mergeInto(target, extra) {
  for (const [k, v] of Object.entries(extra)) {
    if (v && typeof v === 'object' && !Array.isArray(v) && target[k] && typeof target[k] === 'object') mergeInto(target[k], v);
    else target[k] = v;
  }
  return target;
}

// Other modules add their strings: addStrings({en: {...}, ru: {...}, pl: {...}}).
export function addStrings(dicts) {
  for (const [l, d] of Object.entries(dicts)) if (DICTS_BY_LANG[l]) mergeInto(DICTS_BY_LANG[l], d);
}

addStrings(TABLE);
addStrings(LOBBY_WORDS);  // the lobby's, invite's and history's words (i18n_lobby.js)
addStrings(MODERN_WORDS);  // the modern Тысяча's table words (i18n_modern.js)
addStrings(FRIENDS_WORDS);  // ending a match, take-backs in the replay, call notifications (i18n_friends.js)


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

// A card's whole name in the page's language ("король пик", "dama kier", "ten of hearts").
export function cardName(code) {
  return t('card_name', { rank: t('card_ranks.' + code[0]), suit: t('card_suits.' + code[1]) });
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

// A bot's own name from its bot_key ("basic-2" -> Петя in Russian); without a key, its level.
export function botKeyName(key, level) {
  const m = /^(\w+)-(\d+)$/.exec(key || '');
  const names = m && t('bot_names.' + m[1]);
  if (Array.isArray(names) && names[Number(m[2]) - 1]) return names[Number(m[2]) - 1];
  return botName(level || 'basic');
}

// An error message in the reader's language (the server's English text only as a last resort).
export function errorText(err) {
  const code = err && err.code;
  const known = code && lookup(DICTS[lang], 'errors.' + code);
  return known || lookup(en, 'errors.' + code) || (err && err.message) || t('error');
}

export function variantName(id, fallback) {
  const v = lookup(DICTS[lang], 'variants.' + id);
  return v || fallback || id;
}

document.documentElement.lang = lang;
