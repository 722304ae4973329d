"""One translation system (static/i18n/<lang>.json loaded by js/i18n.js): plural forms
through Intl.PluralRules, has() and the English fallback for a missing key, dates, lists
and numbers in the chosen language (not the browser's), and the player page switching
language with the rest of the page."""

from __future__ import annotations

import json

from .helpers import client_module, set_name

# the page's own i18n module (the instance its other modules use)
I18N = client_module("i18n.js")


def i18n(page, body: str, arg=None):
    """Runs `body` (a JS expression over `m`, the page's i18n module) in the page."""
    return page.evaluate(f"(arg) => {I18N}.then(async (m) => {body})", arg)


def open_home(page, base: str) -> None:
    page.goto(base + "/")
    page.locator("[data-role=name-form]").wait_for()


def test_plural_forms_follow_the_language_rules(server, new_page):
    page = new_page(lang="ru")
    open_home(page, server)
    counts = [0, 1, 2, 4, 5, 11, 12, 21, 22, 25, 101, 111]
    cards = "arg.map((n) => m.t('cards_n', {n}))"
    assert i18n(page, cards, counts) == [
        "0 карт", "1 карта", "2 карты", "4 карты", "5 карт", "11 карт", "12 карт", "21 карта",
        "22 карты", "25 карт", "101 карта", "111 карт"]
    assert i18n(page, "m.t('modern.say.barrel_on', {name: 'Аня', n: 1})") == "Аня на бочке: осталась 1 сдача"
    assert i18n(page, "m.t('modern.say.barrel_on', {name: 'Аня', n: 3})") == "Аня на бочке: осталось 3 сдачи"
    assert i18n(page, "m.t('invite_ui.free_n', {n: 5})") == "5 свободных мест"
    i18n(page, "m.setLang('pl')")
    assert i18n(page, cards, counts) == [
        "0 kart", "1 karta", "2 karty", "4 karty", "5 kart", "11 kart", "12 kart", "21 kart",
        "22 karty", "25 kart", "101 kart", "111 kart"]
    assert i18n(page, "m.t('modern.stat.bolts', {n: 2})") == "2 kreski"
    i18n(page, "m.setLang('en')")
    assert i18n(page, cards, [0, 1, 2, 21]) == ["0 cards", "1 card", "2 cards", "21 cards"]
    assert i18n(page, "m.t('modern.say.barrel_left', {name: 'Ann', n: 1})") == "Ann on the barrel: 1 deal left"
    assert not page.errors


def test_has_and_a_missing_key_falls_back_to_english_once_logged(server, new_page):
    page = new_page(lang="ru")
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)

    def ru_without_lobby(route):
        catalog = json.loads(route.fetch().text())
        del catalog["lobby"]  # a word not yet translated
        route.fulfill(status=200, content_type="application/json", body=json.dumps(catalog, ensure_ascii=False))

    page.route("**/i18n/ru.json", ru_without_lobby)
    open_home(page, server)
    assert page.locator("#home-link").inner_text() == "Lobby"  # English, not "lobby" or the key
    assert i18n(page, "[m.has('lobby'), m.has('language'), m.has('no.such.key'), m.has('house')]") == [True, True, False, False]
    assert i18n(page, "[m.t('no.such.key'), m.t('no.such.key'), m.t('language')]") == ["no.such.key", "no.such.key", "Язык"]
    said = [w for w in warnings if "no.such.key" in w]
    assert len(said) == 1, warnings  # once, however often it is asked for
    assert any('"lobby"' in w for w in warnings), warnings
    assert not page.errors


def test_dates_lists_and_numbers_follow_the_chosen_language_not_the_browser(server, new_page):
    page = new_page(lang="en")  # the browser speaks English
    open_home(page, server)
    when = "m.dateTime('2026-03-05T14:07:00Z', {dateStyle: 'long', timeZone: 'UTC'})"
    both = f"[{when}, m.listOf(['Аня', 'Боря', 'Вика']), m.number(1234.5)]"
    assert i18n(page, both) == ["March 5, 2026", "Аня, Боря, and Вика", "1,234.5"]
    i18n(page, "m.setLang('ru')")
    assert i18n(page, both) == ["5 марта 2026 г.", "Аня, Боря и Вика", "1\u00a0234,5"]
    i18n(page, "m.setLang('pl')")
    assert i18n(page, both) == ["5 marca 2026", "Аня, Боря i Вика", "1234,5"]
    assert i18n(page, "m.dateTime(null)") == ""
    assert not page.errors


def test_the_player_page_switches_language_with_the_rest(server, new_page):
    page = new_page(lang="en")
    open_home(page, server)
    set_name(page, "Зоя")
    page.wait_for_function("() => localStorage.getItem('kozyr.player')")
    page.goto(server + "/#/player")
    ratings = page.locator(".player-ratings h2")
    ratings.wait_for()
    assert ratings.inner_text() == "Ratings"
    assert page.locator("#player-link").inner_text() == "My page"
    page.locator("#lang").select_option("pl")
    page.wait_for_function("() => document.querySelector('.player-ratings h2')?.textContent === 'Rankingi'")
    assert page.locator("#player-link").inner_text() == "Moja strona"
    assert page.evaluate("document.documentElement.lang") == "pl"
    page.locator("#lang").select_option("ru")
    page.wait_for_function("() => document.querySelector('.player-ratings h2')?.textContent === 'Рейтинги'")
    page.locator(".player-devices h2", has_text="Другое устройство").wait_for()
    # the choice is kept: a reload comes back in Russian, already at the first render
    page.reload()
    page.locator(".player-ratings h2").wait_for()
    assert page.locator(".player-ratings h2").inner_text() == "Рейтинги"
    assert not page.errors


def test_deadlines_in_words_follow_the_chosen_language(server, new_page):
    """A turn-based deadline said as "in 5 hours" (Intl.RelativeTimeFormat: minutes under an
    hour, hours under two days, then days, each rounded) and a room's time per move (Intl
    units), in the page's language."""
    page = new_page(lang="en")
    open_home(page, server)
    now = 1_800_000_000_000  # a fixed moment (ms): the words do not depend on the test's clock
    words = ("[m.fromNow(arg + 5 * 3600e3, arg), m.fromNow(arg + 3 * 86400e3 - 60e3, arg), m.fromNow(arg + 40 * 60e3, arg),"
             " m.fromNow(arg - 2 * 3600e3, arg), m.fromNow(arg + 59.7 * 60e3, arg),"
             " m.duration(300), m.duration(3600), m.duration(86400), m.duration(259200)]")
    expected = {
        "en": ["in 5 hours", "in 3 days", "in 40 minutes", "2 hours ago", "in 1 hour", "5 minutes", "1 hour", "24 hours", "3 days"],
        "ru": ["через 5 часов", "через 3 дня", "через 40 минут", "2 часа назад", "через 1 час", "5 минут", "1 час", "24 часа", "3 дня"],
        "pl": ["za 5 godzin", "za 3 dni", "za 40 minut", "2 godziny temu", "za 1 godzinę", "5 minut", "1 godzina", "24 godziny", "3 dni"],
    }
    for lang, said in expected.items():
        i18n(page, f"m.setLang('{lang}')")
        assert i18n(page, words, now) == said, lang
    assert not page.errors
