// The modern Тысяча's table words (thousand-ru, tysiac-pl): the scoresheet's marks and their
// legend, the seat stats, the deal summary's sentences, the prompts and the rule help of the
// modern phases.  i18n.js merges them (addStrings); nothing here decides a rule: the marks
// name the events the engine wrote in the scoresheet row (M-30), the help retells the book.

const en = {
  modern: {
    mark: { barrel_on: 'barrel', barrel_off: 'off', barrel_fall: 'fell', knocked_off: 'knocked', zeroed: '→0', dump: '555→0', bolt: 'bolt', bolt_penalty: 'bolt×3', writeoff: 'wrote off', blind: 'blind' },
    ev: {
      barrel_on: 'on the barrel', barrel_off: 'off the barrel', barrel_fall: 'fell off', knocked_off: 'knocked off',
      zeroed: 'third fall: 0', dump: 'dump: 0', bolt: 'bolt', bolt_penalty: 'third bolt', writeoff: 'wrote off',
      blind: 'blind', golden: 'golden',
    },
    say: {
      barrel_on: '{name} on the barrel: {n} deals left', barrel_left: '{name} on the barrel: {n} deals left',
      barrel_off: '{name} is off the barrel', barrel_fall: '{name} fell off the barrel: {v}',
      knocked_off: '{name} was knocked off the barrel: {v}', zeroed: '{name}: third fall from the barrel, back to 0',
      dump: '{name}: dump truck, back to 0', bolt: '{name} gets a bolt ({n} of 3)', bolt_penalty: '{name}: third bolt: {v}',
      writeoff: '{name} wrote off: {v}', blind: '{name} played blind: the score counts double', golden: 'A golden deal: every score doubled',
      struck: 'Redealt: {name} struck', talon_strike: 'Redealt: {name} struck the talon', voided_head: 'No score: the deal is dealt again',
    },
    stat: { barrel: 'barrel: {n}', bolts: 'bolts: {n}', writeoffs: 'write-offs left: {n}', falls: 'falls: {n}' },
    legend: 'Marks', legend_bolt: 'bolt', legend_barrel: 'barrel (deals left)', legend_fall: 'fall from the barrel',
    legend_writeoff: 'write-off', legend_dump: 'dump truck',
    written: 'Written', now: 'Now',
  },
  do: {
    blind: 'Open blind with 120 before seeing your cards (scores double), or open with 100 and look.',
    or_writeoff: 'Or write the deal off.', or_strike: 'A poor talon may be struck for a redeal.',
    strike_modern: 'Your hand lets you ask for a redeal: strike, or accept the deal.',
  },
  rules: {
    modern: {
      bidding: 'Before the cards are dealt the first hand may open blind with 120: that deal scores double. Then each call passes or bids higher (steps of 5 or 10); a pass is final. Without a marriage nobody bids above 120. A player on the barrel must bid at least the barrel floor. Silenced players only pass.',
      strike: 'A player dealt all four nines, or a hand with too few card points (house rule), may strike: the deal is voided and dealt again by the same dealer. Accept to play the hand.',
      talon: 'The declarer takes the talon and gives one card to each opponent, then names a contract at least his bid. Instead he may write the deal off (not blind, not golden, a limited number of times): he writes minus the contract (or 0 with a bomba), each opponent half the contract (or 60). At a bid of 100 a poor talon may be struck for a redeal.',
      play: 'Follow suit if you can, else trump if you can (house rules may force you to beat or overtrump). A marriage is declared by leading its K or Q after taking a trick: that suit becomes trump. Card points: A 11, 10 10, K 4, Q 3, J 2. Bolts: an opponent who scores nothing gets a bolt; the third is fined.',
    },
  },
};

const ru = {
  modern: {
    mark: { barrel_on: 'бочка', barrel_off: 'слез', barrel_fall: 'упал', knocked_off: 'сбит', zeroed: '→0', dump: '555→0', bolt: 'болт', bolt_penalty: 'болт×3', writeoff: 'расп.', blind: 'тёмн.' },
    ev: {
      barrel_on: 'на бочке', barrel_off: 'слез с бочки', barrel_fall: 'упал с бочки', knocked_off: 'сбит с бочки',
      zeroed: 'третье падение: 0', dump: 'самосвал: 0', bolt: 'болт', bolt_penalty: 'третий болт', writeoff: 'расписал',
      blind: 'тёмная', golden: 'золотая',
    },
    say: {
      barrel_on: '{name} на бочке: осталось сдач — {n}', barrel_left: '{name} на бочке: осталось сдач — {n}',
      barrel_off: '{name} слез с бочки', barrel_fall: '{name} упал с бочки: {v}',
      knocked_off: '{name} сбит с бочки: {v}', zeroed: '{name}: третье падение с бочки, счёт обнулён',
      dump: '{name}: самосвал, счёт обнулён', bolt: '{name} получает болт ({n} из 3)', bolt_penalty: '{name}: третий болт: {v}',
      writeoff: '{name} расписал: {v}', blind: '{name} играл втёмную: очки удвоены', golden: 'Золотая сдача: все очки удвоены',
      struck: 'Пересдача: {name} потребовал пересдать', talon_strike: 'Пересдача: {name} отказался от прикупа',
      voided_head: 'Без записи: сдача переигрывается',
    },
    stat: { barrel: 'бочка: {n}', bolts: 'болты: {n}', writeoffs: 'росписей осталось: {n}', falls: 'падения: {n}' },
    legend: 'Пометки', legend_bolt: 'болт', legend_barrel: 'бочка (сколько сдач осталось)', legend_fall: 'падение с бочки',
    legend_writeoff: 'роспись', legend_dump: 'самосвал',
    written: 'Записано', now: 'Сейчас',
  },
  do: {
    blind: 'Сыграйте втёмную на 120, не глядя в карты (очки удвоятся), или откройте 100 и посмотрите карты.',
    or_writeoff: 'Или распишите сдачу.', or_strike: 'Бедный прикуп можно отвергнуть — будет пересдача.',
    strike_modern: 'С такими картами можно потребовать пересдачу: пересдать или играть?',
  },
  rules: {
    modern: {
      bidding: 'До раздачи первая рука может сыграть втёмную на 120: очки этой сдачи удваиваются. Затем каждый пасует или торгуется выше (шаг 5 или 10); пас окончателен. Без марьяжа выше 120 не заказывают. Сидящий на бочке заказывает не меньше порога бочки. Игрок «на молчанке» только пасует.',
      strike: 'Кому пришли четыре девятки или слишком мало очков на руке (по правилам стола), может потребовать пересдачу: сдача не записывается, тот же сдающий сдаёт снова. «Играем» — играть с этими картами.',
      talon: 'Заказавший берёт прикуп и отдаёт по карте соперникам, затем называет игру не меньше заказа. Вместо этого он может расписать сдачу (не втёмную, не в золотую, ограниченное число раз): себе минус заказ (или 0 при «бомбе»), соперникам по половине заказа (или по 60). При заказе 100 бедный прикуп можно отвергнуть — будет пересдача.',
      play: 'Ходите в масть, нет масти — козыряйте (по правилам стола — обязательно перебивать). Марьяж объявляют ходом с короля или дамы после взятой взятки: масть становится козырем. Очки: туз 11, десятка 10, король 4, дама 3, валет 2. Болты: соперник без очков получает болт, за третий — штраф.',
    },
  },
};

const pl = {
  modern: {
    mark: { barrel_on: 'beczka', barrel_off: 'zszedł', barrel_fall: 'spadł', knocked_off: 'zrzuc.', zeroed: '→0', dump: '555→0', bolt: 'kreska', bolt_penalty: 'kreska×3', writeoff: 'bomba', blind: 'ciemno' },
    ev: {
      barrel_on: 'na beczce', barrel_off: 'zszedł z beczki', barrel_fall: 'spadł z beczki', knocked_off: 'zrzucony z beczki',
      zeroed: 'trzeci upadek: 0', dump: 'wywrotka: 0', bolt: 'kreska', bolt_penalty: 'trzecia kreska', writeoff: 'rezygnacja',
      blind: 'w ciemno', golden: 'złote',
    },
    say: {
      barrel_on: '{name} na beczce: zostało rozdań: {n}', barrel_left: '{name} na beczce: zostało rozdań: {n}',
      barrel_off: '{name} zszedł z beczki', barrel_fall: '{name} spadł z beczki: {v}',
      knocked_off: '{name} zrzucony z beczki: {v}', zeroed: '{name}: trzeci upadek z beczki, wynik na 0',
      dump: '{name}: wywrotka, wynik na 0', bolt: '{name} dostaje kreskę ({n} z 3)', bolt_penalty: '{name}: trzecia kreska: {v}',
      writeoff: '{name} zrezygnował: {v}', blind: '{name} grał w ciemno: wynik podwójny', golden: 'Złote rozdanie: wszystko podwójnie',
      struck: 'Nowe rozdanie: {name} zażądał strajku', talon_strike: 'Nowe rozdanie: {name} odrzucił musik',
      voided_head: 'Bez zapisu: rozdanie od nowa',
    },
    stat: { barrel: 'beczka: {n}', bolts: 'kreski: {n}', writeoffs: 'rezygnacji zostało: {n}', falls: 'upadki: {n}' },
    legend: 'Oznaczenia', legend_bolt: 'kreska', legend_barrel: 'beczka (ile rozdań zostało)', legend_fall: 'upadek z beczki',
    legend_writeoff: 'rezygnacja (bomba)', legend_dump: 'wywrotka',
    written: 'Zapisane', now: 'Teraz',
  },
  do: {
    blind: 'Zagraj w ciemno za 120, nie patrząc w karty (wynik podwójny), albo otwórz 100 i zobacz karty.',
    or_writeoff: 'Albo zrezygnuj z gry (bomba).', or_strike: 'Ubogi musik można odrzucić — będzie nowe rozdanie.',
    strike_modern: 'Z takimi kartami możesz żądać nowego rozdania: strajk czy gramy?',
  },
  rules: {
    modern: {
      bidding: 'Przed rozdaniem pierwsza ręka może zagrać w ciemno za 120: wynik tego rozdania liczy się podwójnie. Potem każdy pasuje albo podbija (co 5 lub 10); pas jest ostateczny. Bez meldunku nikt nie licytuje powyżej 120. Gracz na beczce licytuje co najmniej próg beczki. Milczący tylko pasują.',
      strike: 'Kto dostał cztery dziewiątki albo zbyt mało punktów (zasada stołu), może zażądać nowego rozdania: rozdanie przepada, ten sam gracz rozdaje od nowa. „Gramy” — grać tymi kartami.',
      talon: 'Grający bierze musik i daje po karcie przeciwnikom, potem ogłasza kontrakt nie niższy od licytacji. Zamiast tego może zrezygnować (nie w ciemno, nie w złotym rozdaniu, ograniczoną liczbę razy): sobie minus kontrakt (albo 0 przy bombie), przeciwnikom po połowie kontraktu (albo po 60). Przy 100 ubogi musik można odrzucić — nowe rozdanie.',
      play: 'Dokładaj do koloru, a gdy nie masz — atutem (zasady stołu mogą kazać przebijać). Meldunek ogłasza się wyjściem z króla lub damy po wziętej lewie: ten kolor staje się atutem. Punkty: as 11, dziesiątka 10, król 4, dama 3, walet 2. Kreski: przeciwnik bez punktów dostaje kreskę, za trzecią jest kara.',
    },
  },
};

export const MODERN_WORDS = { en, ru, pl };
