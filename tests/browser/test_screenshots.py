"""`make screenshots`: every family × phase × size × language of the table, written to
tests/browser/screenshots/table-<scene>-<size>-<lang>.png (not part of the CI run)."""

from __future__ import annotations

import os

import pytest

from .conftest import LAPTOP, PHONE
from .helpers import open_seat, registered
from .scenes import SCENES

pytestmark = pytest.mark.skipif(not os.environ.get("KOZYR_SCREENSHOTS"), reason="make screenshots")


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_screenshot(server, new_page, screenshots, scene):
    sc = SCENES[scene]
    if sc.variant not in registered(server):
        pytest.skip(f"{sc.variant} is not registered")
    code, players, seat, table = sc.bring(server)
    try:
        page = open_seat(new_page, server, code, players[seat], LAPTOP, lang="ru")
        page.wait_for_timeout(300)
        for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            for lang in ("ru", "pl", "en"):
                page.locator("#lang").select_option(lang)
                page.wait_for_timeout(100)
                page.screenshot(path=str(screenshots / f"table-{scene}-{size}-{lang}.png"))
        if "summary" in scene:
            pass
        page.locator("[data-role=open-scores]").click()
        page.wait_for_timeout(100)
        page.screenshot(path=str(screenshots / f"table-{scene}-phone-scores.png"))
        assert not page.errors, page.errors
    finally:
        table.close()
