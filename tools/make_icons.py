"""Draw the app's PNG icons from their SVG sources with the browser the tests use.

    .venv/bin/python tools/make_icons.py

static/icons/icon.svg -> icon-192.png, icon-512.png (rounded, transparent corners);
static/icons/maskable.svg -> maskable-512.png (full bleed, the picture inside the safe
circle of 80 %).  The PNGs are committed; run this again after changing an SVG."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"
OUT = [("icon.svg", "icon-192.png", 192), ("icon.svg", "icon-512.png", 512), ("maskable.svg", "maskable-512.png", 512)]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main() -> None:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
        for source, target, size in OUT:
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = (ICONS / source).read_text()
            page.set_content(f'<body style="margin:0;background:transparent">'
                             f'<img src="data:image/svg+xml;utf8,{svg.replace(chr(34), chr(39)).replace("#", "%23")}"'
                             f' width="{size}" height="{size}" style="display:block"></body>')
            page.wait_for_load_state()
            page.screenshot(path=str(ICONS / target), omit_background=True)
            page.close()
            print(target, size)
        browser.close()


if __name__ == "__main__":
    main()
