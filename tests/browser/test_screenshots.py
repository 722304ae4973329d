"""`make screenshots`: every family × phase × size × language of the table, written to
tests/browser/screenshots/table-<scene>-<size>-<lang>.png (not part of the CI run)."""

from __future__ import annotations

import os

import pytest

from .conftest import LAPTOP, PHONE
from .helpers import call, open_seat
from .scenes import SCENES

pytestmark = pytest.mark.skipif(not os.environ.get("KOZYR_SCREENSHOTS"), reason="make screenshots")


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_screenshot(server, new_page, screenshots, scene):
    with SCENES[scene].shown(server, new_page) as (page, code, _, _):
        for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            for lang in ("ru", "pl", "en"):
                page.locator("#lang").select_option(lang)
                page.wait_for_timeout(100)
                page.screenshot(path=str(screenshots / f"table-{scene}-{size}-{lang}.png"))
        page.locator("[data-role=open-scores]").click()
        page.wait_for_timeout(100)
        page.screenshot(path=str(screenshots / f"table-{scene}-phone-scores.png"))
        page.locator("[data-role=open-scores]").click()
        if scene.endswith("-play"):  # the four-colour deck, and a spectator's table
            page.locator("#four-colour").check()
            page.set_viewport_size(LAPTOP)
            page.screenshot(path=str(screenshots / f"table-{scene}-laptop-four-colour.png"))
            watcher = call(server, "POST", "/api/players", body={"name": "Widz"})
            spectator = open_seat(new_page, server, code, watcher, PHONE, lang="pl")
            spectator.wait_for_timeout(300)
            spectator.screenshot(path=str(screenshots / f"table-{scene}-phone-spectator.png"))
            assert not spectator.errors, spectator.errors
        assert not page.errors, page.errors


def test_screenshot_notification_settings(server, new_page, screenshots):
    """The player's page's notification settings (js/push.js), each size and language:
    notifications-<size>-<lang>.png (the block), notifications-phone-<lang>-unavailable.png
    (a browser without PushManager)."""
    import json
    player = call(server, "POST", "/api/players", body={"name": "Zofia Łęcka"})
    me = json.dumps(json.dumps({"id": player["id"], "name": player["name"], "token": player["token"]}))
    for broken in (False, True):
        page = new_page(LAPTOP)
        if broken:
            page.add_init_script("delete window.PushManager")
        page.goto(server + "/healthz")
        page.evaluate(f"localStorage.setItem('kozyr.player', {me})")
        page.goto(f"{server}/#/player/{player['id']}")
        panel = page.locator(".player-notifications")
        panel.wait_for()
        for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
            if broken and size == "laptop":
                continue
            page.set_viewport_size(viewport)
            for lang in ("ru", "pl", "en"):
                page.locator("#lang").select_option(lang)
                panel = page.locator(".player-notifications")
                panel.wait_for()
                page.wait_for_timeout(200)
                panel.scroll_into_view_if_needed()
                name = f"notifications-{size}-{lang}" + ("-unavailable" if broken else "")
                panel.screenshot(path=str(screenshots / f"{name}.png"))
                if size == "phone" and not broken:
                    page.screenshot(path=str(screenshots / f"{name}-page.png"))
        assert not page.errors, page.errors
