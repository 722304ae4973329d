"""Browser tests: the real server (uvicorn, SQLite in a tmp dir) and Debian's Chromium.

Chromium is /usr/bin/chromium driven by Playwright for Python; `playwright install`
is never needed.  Every test module is marked ``browser``."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DESKTOP = {"width": 1280, "height": 800}
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(tmp: Path, port: int, **extra_env: str):
    """The real server (uvicorn, SQLite in ``tmp``) on ``port``; returns (process, base URL)
    once /healthz answers.  ``extra_env``: more settings (KOZYR_STATIC_DIR ...)."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp / 'kozyr.db'}", "KOZYR_LOG_LEVEL": os.environ.get("KOZYR_TEST_LOG_LEVEL", "WARNING"),
           "KOZYR_PUBLIC_URL": "", "KOZYR_CHAT_BURST": "50", "KOZYR_CHAT_PER_SECOND": "50",
           "KOZYR_BOT_DELAY": "0", "KOZYR_BOT_THINK_MS": "100", "KOZYR_BOTS_ENABLED": "true",
           # drive() plays whole matches over the websocket as fast as the server answers
           "KOZYR_MESSAGES_PER_SECOND": "1000", "KOZYR_MESSAGE_BURST": "2000",
           "KOZYR_COACH_REVIEW_ROLLOUTS": "8",  # the coach's reviews: a small fixed budget
           "KOZYR_PLAYER_CREATE_BURST": "1000000", **extra_env}  # every test makes players from one address
    env.pop("REDIS_URL", None)
    env.pop("KOZYR_REDIS_URL", None)
    log = open(tmp / "server.log", "a")
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1",
                             "--port", str(port)], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    log.close()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60  # a busy machine (make test runs two streams) starts it slowly
    while True:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1) as r:
                if r.status == 200:
                    return proc, base
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            stop_server(proc)
            pytest.fail("the server did not start:\n" + (tmp / "server.log").read_text()[-3000:])
        time.sleep(0.2)


def stop_server(proc) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The real server on a free port; yields its base URL."""
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.skip("Debian's Chromium (/usr/bin/chromium) is not installed")
    pytest.importorskip("playwright.sync_api")
    proc, base = start_server(tmp_path_factory.mktemp("server"), _free_port())
    try:
        yield base
    finally:
        stop_server(proc)


@pytest.fixture(scope="session")
def browser(server):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser):
    """new_page(viewport=DESKTOP, lang="en") -> a page in a fresh context (own localStorage).

    Each page records JavaScript dialogs in page.dialogs, page errors in page.errors and
    Content-Security-Policy violations in page.csp; a violation fails the test that made it
    (after the test: every page of every browser test runs under the app's CSP).  Under
    that CSP (no 'unsafe-eval') page.wait_for_function takes a function, "() => ...": a
    bare expression is eval'ed by Playwright on each poll, which the CSP refuses."""
    contexts = []
    pages = []

    def make(viewport=None, lang="en"):
        ctx = browser.new_context(viewport=viewport or DESKTOP, locale=lang,
                                  device_scale_factor=2 if viewport == PHONE else 1)
        ctx.add_init_script(f"localStorage.getItem('kozyr.lang') || localStorage.setItem('kozyr.lang', '{lang}')")
        ctx.add_init_script(CSP_WATCH)
        ctx.set_default_timeout(15000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.dialogs = []
        page.errors = []
        page.csp = []
        page.expose_function("kozyrCspViolation", lambda v, page=page: page.csp.append(v))
        pages.append(page)

        def on_dialog(d):
            page.dialogs.append(d.message)
            d.dismiss()
        page.on("dialog", on_dialog)
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        return page

    yield make
    violations = [v for page in pages for v in page.csp]
    for ctx in contexts:
        ctx.close()
    assert not violations, f"Content-Security-Policy violations: {violations}"


# Reports every securitypolicyviolation of the page to Python (page.csp).
CSP_WATCH = """
document.addEventListener('securitypolicyviolation', (e) => window.kozyrCspViolation(
  `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber} ${e.sample}`));
"""


@pytest.fixture(scope="session")
def screenshots():
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS
