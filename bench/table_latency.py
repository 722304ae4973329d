"""The table client in Chromium: how long a played card takes to appear at the other seats,
and how much JavaScript the page loads.

    .venv/bin/python bench/table_latency.py [--deals 2] [--variant king-classic]

Starts the real server (SQLite in a tmp dir), opens one Debian Chromium page per seat
(Playwright), and plays whole deals over the websocket (the first legal card each time).
For every card: the time from sending the action to the card's element appearing in the
trick of each other seat's page (one machine, one clock; the trick hold does not delay a
new card, so it is not counted). Prints p50 / p99 and the bytes of every JS module the
page imports (as served: uncompressed and gzipped)."""

from __future__ import annotations

import argparse
import gzip
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, LAPTOP, _free_port  # noqa: E402
from tests.browser.helpers import WsTable, new_room, open_seat  # noqa: E402

# every new card element put into a trick, with the time it appeared
OBSERVE = """() => { window.cardsShown = []; const seen = new WeakSet();
  new MutationObserver(() => { for (const el of document.querySelectorAll('.trick [data-card]'))
    if (!seen.has(el)) { seen.add(el); window.cardsShown.push([el.dataset.card, Date.now()]); } })
  .observe(document.querySelector('.felt'), { childList: true, subtree: true }); }"""
SHOWN = "([card, since]) => (window.cardsShown.find(([c, at]) => c === card && at >= since) || [null, null])[1]"


def js_bytes(base: str) -> dict[str, tuple[int, int]]:
    """Every module reachable from the page's own module (under the build prefix) by its
    imports, with its served size: (uncompressed, gzipped on the wire)."""
    with urllib.request.urlopen(base + "/") as r:
        entry = re.search(r'<script type="module" src="([^"]+)"', r.read().decode())
    assert entry, "no module script in the page"
    sizes: dict[str, tuple[int, int]] = {}
    todo = [entry.group(1)]
    while todo:
        path = todo.pop()
        if path in sizes:
            continue
        with urllib.request.urlopen(urllib.request.Request(base + path, headers={"Accept-Encoding": "gzip"})) as r:
            wire = r.read()
            body = gzip.decompress(wire) if r.headers.get("Content-Encoding") == "gzip" else wire
        sizes[path] = (len(body), len(wire))
        folder = path.rsplit("/", 1)[0]
        for rel in re.findall(r"""from\s+['"](\.{1,2}/[^'"]+)['"]""", body.decode()):
            parts = (folder + "/" + rel).split("/")
            out: list[str] = []
            for part in parts:
                if part == "..":
                    out.pop()
                elif part not in (".", ""):
                    out.append(part)
            todo.append("/" + "/".join(out))
    return sizes


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=2)
    ap.add_argument("--variant", default="king-classic")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp / 'kozyr.db'}", "KOZYR_LOG_LEVEL": "WARNING",
           "KOZYR_MESSAGES_PER_SECOND": "1000", "KOZYR_MESSAGE_BURST": "2000"}
    env.pop("REDIS_URL", None)
    server = subprocess.Popen([sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port)], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        sizes = js_bytes(base)
        from playwright.sync_api import sync_playwright
        delays: list[float] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            contexts = []

            def new_page(viewport=None, lang="en"):
                ctx = browser.new_context(viewport=viewport or LAPTOP, locale=lang)
                contexts.append(ctx)
                page = ctx.new_page()
                page.errors = []
                return page

            code, players = new_room(base, args.variant, ["L1", "L2", "L3", "L4"][:4])
            pages = [open_seat(new_page, base, code, pl, LAPTOP) for pl in players]
            for page in pages:
                page.evaluate(OBSERVE)
            with WsTable(base, code, [pl["token"] for pl in players]) as table:
                played = 0
                start_deal = table.view["deal"]
                while table.view["deal"] < start_deal + args.deals and table.view["phase"] != "match_over":
                    seat = table.view["to_act"][0]
                    legal = table.views[seat]["view"]["legal"]
                    action = next((a for a in legal if a.startswith("play:")), legal[0])
                    sent = time.time() * 1000
                    table.act(seat, action)
                    if not action.startswith("play:"):
                        continue
                    card = action[5:]
                    for i, page in enumerate(pages):
                        if i != seat:
                            page.wait_for_function(f"() => ({SHOWN})(['{card}', {sent}]) !== null")
                            delays.append(page.evaluate(SHOWN, [card, sent]) - sent)
                    played += 1
            for ctx in contexts:
                ctx.close()
            browser.close()
        delays.sort()
        p99 = delays[min(len(delays) - 1, round(len(delays) * 0.99) - 1)]
        print(f"{args.variant}, {args.deals} deal(s), {played} cards, {len(delays)} arrivals at other seats")
        print(f"card sent -> its element in the other seats' trick: p50 {statistics.median(delays):.0f} ms, "
              f"p99 {p99:.0f} ms, max {delays[-1]:.0f} ms")
        total, wire = (sum(n[i] for n in sizes.values()) for i in (0, 1))
        print(f"JS served: {len(sizes)} modules, {total} bytes ({total / 1024:.1f} KiB) uncompressed, "
              f"{wire} bytes ({wire / 1024:.1f} KiB) gzipped")
        for path, (n, w) in sorted(sizes.items(), key=lambda kv: -kv[1][0]):
            print(f"  {n:7d} {w:7d}  {path}")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
