"""The room form: every house rule with a translated label and description, grouped, and no
rule id or raw option name anywhere (ru, pl, en; desktop and phone); bot controls fit the phone."""

from __future__ import annotations

import pytest

from .helpers import call, registered
from .lobby_helpers import SIZES, as_player, no_raw_ids, no_sideways_overflow, player, room_with

CYRILLIC_OR_POLISH = {"ru": "абвгдеёжзийклмнопрстуфхцчшщъыьэюя", "pl": "ąćęłńóśźżabcdefghijklmnoprstuwyz"}


def open_form(page, server, who):
    as_player(page, who)
    page.goto(server + "/")
    form = page.locator("[data-role=create-room]")
    form.wait_for()
    return form


def variants_in_form(page):
    return page.evaluate("""() => {
      const fam = document.querySelector('[name=family]');
      const out = [];
      for (const f of fam.options) {
        fam.value = f.value; fam.dispatchEvent(new Event('change'));
        for (const v of document.querySelector('[name=variant]').options) out.push([f.value, v.value]);
      }
      return out;
    }""")


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("lang", ["ru", "pl", "en"])
def test_room_form_shows_translated_rules_and_no_rule_ids_T30_K5_R4(server, new_page, screenshots, lang, size):
    variants = {v["id"]: v for v in call(server, "GET", "/api/variants")}
    page = new_page(SIZES[size], lang=lang)
    form = open_form(page, server, player(server, f"Форма {lang}"))
    listed = variants_in_form(page)
    assert {v for _, v in listed} == set(variants)
    for family, vid in listed:
        form.locator("select[name=family]").select_option(family)
        form.locator("select[name=variant]").select_option(vid)
        page.evaluate("() => document.querySelectorAll('.opt-group').forEach((d) => { d.open = true; })")
        text = form.inner_text()
        no_raw_ids(text)
        for opt in variants[vid]["options"]:
            field = form.locator(f"[data-option='{opt['name']}']")
            if field.is_hidden():  # a start total of a seat the room does not have
                continue
            label = field.locator("label span").first.inner_text()
            desc = field.locator(".opt-desc").inner_text()
            assert label and desc, (vid, opt["name"])
            if lang != "en":  # translated, not the schema's English
                assert label != opt.get("label") and desc != opt.get("description"), (vid, opt["name"], label)
                assert any(ch in CYRILLIC_OR_POLISH[lang] for ch in (label + desc).lower())
        no_sideways_overflow(page)
    form.locator("select[name=family]").select_option(listed[0][0])
    form.locator("select[name=variant]").select_option(listed[0][1])
    page.screenshot(path=str(screenshots / f"lobby-form-{lang}-{size}.png"), full_page=True)
    page.evaluate("() => document.querySelectorAll('.opt-group').forEach((d) => { d.open = true; })")
    no_sideways_overflow(page)
    page.screenshot(path=str(screenshots / f"lobby-form-open-{lang}-{size}.png"), full_page=True)
    assert not page.errors


def test_room_form_sends_only_changed_rules_T30_T24(server, new_page):
    page = new_page()
    form = open_form(page, server, player(server, "Opcje"))
    form.locator("select[name=family]").select_option("thousand")
    form.locator("select[name=variant]").select_option("thousand-1000")
    form.locator("input[name=goal]").fill("500")
    form.locator("[data-role=create]").click()
    page.wait_for_url("**/room/*")
    code = page.url.rsplit("/", 1)[1]
    room = call(server, "GET", f"/api/rooms/{code}")
    assert room["variant"] == "thousand-1000" and room["options"]["goal"] == 500
    # the lobby lists what differs from the variant's own rules, in words
    page.locator(".room-options li").first.wait_for()
    assert page.locator(".room-options li").all_inner_texts() == ["Play to: 500"]
    no_raw_ids(page.locator(".lobby").inner_text())
    assert not page.errors


def test_presets_as_in_russia_and_as_in_poland_M35(server, new_page, screenshots):
    if not {"thousand-ru", "tysiac-pl"} <= set(registered(server)):
        pytest.skip("the modern Тысяча variants are not registered yet")
    variants = {v["id"]: v for v in call(server, "GET", "/api/variants")}
    page = new_page(lang="ru")
    form = open_form(page, server, player(server, "Пресет"))
    # the modern variants come first, with the presets and the custom choice
    assert form.locator("select[name=family]").input_value() == "thousand"
    assert form.locator("select[name=variant] option").first.get_attribute("value") == "thousand-ru"
    presets = form.locator("[data-role=presets] [data-preset]")
    assert [presets.nth(i).get_attribute("data-preset") for i in range(presets.count())] == ["thousand-ru", "tysiac-pl", "custom"]
    assert presets.nth(0).inner_text() == "Как в России"
    form.locator("[data-preset=tysiac-pl]").click()
    assert form.locator("select[name=variant]").input_value() == "tysiac-pl"
    assert form.locator("[data-preset=tysiac-pl]").get_attribute("aria-checked") == "true"
    pl_defaults = {o["name"]: o["default"] for o in variants["tysiac-pl"]["options"]}
    assert form.locator("input[name=must_beat]").is_checked() == pl_defaults["must_beat"]
    # one change makes it custom; only that change is sent
    form.locator("[data-group=barrel] summary").click()
    form.locator("input[name=barrel_gap]").fill(str(pl_defaults["barrel_gap"] - 10))
    assert form.locator("[data-preset=custom]").get_attribute("aria-checked") == "true"
    page.screenshot(path=str(screenshots / "lobby-presets-ru.png"), full_page=True)
    form.locator("[data-role=create]").click()
    page.wait_for_url("**/room/*")
    room = call(server, "GET", f"/api/rooms/{page.url.rsplit('/', 1)[1]}")
    assert room["variant"] == "tysiac-pl" and room["options"]["barrel_gap"] == pl_defaults["barrel_gap"] - 10
    page.locator(".room-options li").first.wait_for()
    assert page.locator(".room-options li").count() == 1
    assert not page.errors


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_bot_controls_fit_the_phone(server, new_page, screenshots, lang):
    host = player(server, "Хозяин стола с очень длинным именем")
    room = room_with(server, host, "king-classic", 4, bots={1: "strong"})
    page = new_page(SIZES["phone"], lang=lang)
    as_player(page, host)
    page.goto(server + room["invite_path"])
    page.locator("[data-role=add-bot]").first.wait_for()
    assert page.locator("[data-role=add-bot]").count() == 2
    no_sideways_overflow(page)
    edges = page.evaluate("""() => [...document.querySelectorAll('[data-role=add-bot], [data-role=bot-level], [data-role=remove-bot]')]
      .map((b) => { const r = b.getBoundingClientRect(); return [r.left, r.right]; })""")
    assert len(edges) == 5 and all(left >= 0 and right <= 390 for left, right in edges), edges
    no_raw_ids(page.locator(".lobby").inner_text())
    page.screenshot(path=str(screenshots / f"lobby-bots-phone-{lang}.png"), full_page=True)
    assert not page.errors


def test_rules_that_do_not_go_together_are_named_in_words_M35(server, new_page):
    if "thousand-ru" not in registered(server):
        pytest.skip("thousand-ru is not registered yet")
    page = new_page(SIZES["phone"], lang="ru")
    form = open_form(page, server, player(server, "Несовместимо"))
    form.locator("select[name=variant]").select_option("thousand-ru")
    page.evaluate("() => document.querySelectorAll('.opt-group').forEach((d) => { d.open = true; })")
    form.locator("input[name=goal]").fill("200")
    form.locator("input[name=barrel_gap]").fill("200")  # the barrel must lie below the goal
    form.locator("[data-role=create]").click()
    error = form.locator("[data-role=create-error]")
    page.wait_for_function("() => document.querySelector('[data-role=create-error]').textContent !== ''")
    assert error.inner_text() == "Эти правила не сочетаются: Играть до и Бочка ниже цели на"
    no_raw_ids(error.inner_text())
    assert form.locator(".field.option.invalid").count() == 2
    assert page.url.endswith("/")
    assert not page.errors
