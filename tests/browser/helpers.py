"""Flows a person goes through in the browser: name, room, seats, and playing by clicking."""

from __future__ import annotations

import json
import random
import time
import urllib.request
from contextlib import ExitStack
from typing import TYPE_CHECKING

from websockets.sync.client import connect

if TYPE_CHECKING:  # Playwright may be missing: the server fixture then skips every test
    from playwright.sync_api import Page


def registered(base: str) -> list[str]:
    """The variant ids the running server's engine has."""
    with urllib.request.urlopen(base + "/healthz") as r:
        return json.load(r)["variants"]


def set_name(page: Page, name: str) -> None:
    form = page.locator("[data-role=name-form]")
    form.locator("input[name=name]").fill(name)
    form.locator("button[type=submit]").click()


def host_room(page: Page, base: str, name: str, family: str, variant: str, seats: int,
              options: dict | None = None) -> str:
    """The host opens the site, gives a name and creates a room; returns the invite link."""
    page.goto(base + "/")
    set_name(page, name)
    form = page.locator("[data-role=create-room]")
    form.wait_for()
    form.locator("select[name=family]").select_option(family)
    form.locator("select[name=variant]").select_option(variant)
    form.locator("select[name=seats]").select_option(str(seats))
    for key, value in (options or {}).items():
        field = form.locator(f"[name={key}]")
        if isinstance(value, bool):
            field.set_checked(value)
        else:
            field.fill(str(value))
    form.locator("[data-role=create]").click()
    page.wait_for_url("**/room/*")
    link = page.locator("[data-role=invite-link]")
    link.wait_for()
    return link.inner_text().strip()


def join_room(page: Page, invite: str, name: str) -> int:
    """A guest follows the invite link, gives a name and takes the first free seat."""
    page.goto(invite)
    set_name(page, name)
    button = page.locator("[data-role=take-seat]").first
    button.wait_for()
    seat = int(button.get_attribute("data-seat"))
    button.click()
    page.locator(f".seat-row.mine[data-seat='{seat}']").wait_for()
    return seat


def start(host: Page) -> None:
    button = host.locator("[data-role=start]")
    button.wait_for()
    host.wait_for_function("() => !document.querySelector('[data-role=start]').disabled")
    button.click()


STATE_JS = """() => {
  const felt = document.querySelector('.felt');
  if (!felt) return null;
  return {
    mine: felt.dataset.myTurn === 'true', busy: felt.dataset.busy === 'true',
    version: felt.dataset.version === '' ? -1 : Number(felt.dataset.version),
    deal: Number(felt.dataset.deal), phase: felt.dataset.phase,
    controls: [...document.querySelectorAll('.controls [data-action]')].map((b) => b.dataset.action),
    cards: [...document.querySelectorAll('.hand .card.playable, .outside-cards .card.playable')]
      .map((c) => ({ card: c.dataset.card, actions: c.dataset.actions.split(' ') })),
    dimmed: document.querySelectorAll('.hand .card.dimmed').length,
    hand: document.querySelectorAll('.hand .card').length,
    trick: document.querySelectorAll('.trick.current .slot').length,
  };
}"""


def state(page: Page) -> dict | None:
    return page.evaluate(STATE_JS)


class Player:
    """The clicking policy of one seat: bid once if asked first, else pass; play the first
    playable card; answer choosers with their first offer; never throw in or refuse when
    anything else is offered."""

    def __init__(self, page: Page, bid_first: bool = False, on_chooser=None) -> None:
        self.page = page
        self.bid_first = bid_first
        self.on_chooser = on_chooser  # called with the page when a chooser (play or marriage? to whom?) opens
        self.clicked: list[str] = []

    def click(self, locator) -> None:
        self.clicked.append(locator.first.get_attribute("data-action") or locator.first.get_attribute("data-card"))
        locator.first.click()

    def move(self, st: dict) -> str:
        page = self.page
        controls = st["controls"]
        chooser = page.locator(".chooser [data-action]")
        if chooser.count():
            self.click(chooser)
            return "chooser"
        bids = [a for a in controls if a.startswith("bid:")]
        if bids and self.bid_first:
            self.bid_first = False
            self.click(page.locator(f".controls [data-action='{bids[0]}']"))
            return bids[0]
        if "pass" in controls:
            self.click(page.locator(".controls [data-action='pass']"))
            return "pass"
        contracts = [a for a in controls if a.startswith("contract:")]
        if contracts:
            self.click(page.locator(f".controls [data-action='{contracts[0]}']"))
            return contracts[0]
        if st["cards"]:
            card = st["cards"][0]["card"]
            self.click(page.locator(f".hand .card.playable[data-card='{card}'], .outside-cards .card.playable[data-card='{card}']"))
            if len(st["cards"][0]["actions"]) > 1:
                chooser = page.locator(".chooser [data-action]")
                chooser.first.wait_for()
                if self.on_chooser:
                    self.on_chooser(page)
                self.click(chooser)
            return card
        safe = [a for a in controls if a not in ("throw", "refuse", "strike")] or controls
        if safe:
            self.click(page.locator(f".controls [data-action='{safe[0]}']"))
            return safe[0]
        raise AssertionError(f"no control to click: {st}")


def play_until(players: list[Player], done, max_actions: int = 400, timeout: float = 240.0) -> list[dict]:
    """Let the seat whose turn it is click, until done(states) holds; returns the last states."""
    deadline = time.monotonic() + timeout
    actions = 0
    while True:
        states = [state(p.page) for p in players]
        if all(s is not None for s in states) and done(states):
            return states
        assert time.monotonic() < deadline, f"timed out after {actions} actions: {states}"
        versions = {s["version"] for s in states if s}
        movers = [(p, s) for p, s in zip(players, states, strict=True)
                  if s and s["mine"] and not s["busy"] and len(versions) == 1]
        if not movers:
            time.sleep(0.05)
            continue
        player, st = movers[0]
        player.move(st)
        actions += 1
        assert actions <= max_actions, "too many actions"
        version = st["version"]
        player.page.wait_for_function(
            f"() => {{ const f = document.querySelector('.felt'); return f && Number(f.dataset.version) > {version}; }}",
            timeout=15000)


# --- the API side: filling rooms and matches quickly, without the browser -------------

def call(base: str, method: str, path: str, token: str | None = None, body=None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("X-Player-Token", token)
    with urllib.request.urlopen(req) as r:
        return json.load(r)


def play_whole_match_over_api(base: str, variant: str, seats: int, names: list[str],
                              options: dict | None = None) -> tuple[str, list[dict]]:
    """Fill the history quickly: a whole match played with random legal actions over the
    websocket protocol (the clicking itself is tested in test_play.py)."""
    players = [call(base, "POST", "/api/players", body={"name": n}) for n in names[:seats]]
    room = call(base, "POST", "/api/rooms", players[0]["token"],
                {"variant": variant, "seats": seats, "options": options})
    for n, p in enumerate(players[1:], start=1):
        call(base, "POST", f"/api/rooms/{room['code']}/seats/{n}", p["token"])
    room = call(base, "POST", f"/api/rooms/{room['code']}/start", players[0]["token"])
    return finish_match(base, room["code"], [p["token"] for p in players]), players


def finish_match(base: str, code: str, tokens: list[str]) -> str:
    """Play the room's running match to its end with random legal actions; returns its id."""
    return drive(base, code, tokens, lambda views: None)[0]


class WsTable:
    """Every seat of a room's running match connected over the websocket (the protocol, not
    the browser): views per seat, and actions sent with their version."""

    def __init__(self, base: str, code: str, tokens: list[str]) -> None:
        self.seats = len(tokens)
        ws_url = base.replace("http", "ws") + f"/api/rooms/{code}/ws"
        self.stack = ExitStack()
        self.socks = [self.stack.enter_context(connect(f"{ws_url}?token={tok}")) for tok in tokens]
        self.views: list[dict | None] = [None] * self.seats
        self.other: list[dict] = []  # messages other than views (timer, presence ...)
        for i in range(self.seats):
            self.read_until_view(i)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        self.stack.close()

    def read_until_view(self, i: int) -> None:
        while True:
            msg = json.loads(self.socks[i].recv(timeout=10))
            assert msg["type"] != "error", f"seat {i}: {msg}"  # e.g. rate_limited: fail at once, not after 10 s
            if msg["type"] == "view":
                self.views[i] = msg
                return
            self.other.append(msg)

    @property
    def view(self) -> dict:
        return self.views[0]["view"]

    def act(self, seat: int, action: str) -> None:
        """Send one action and read every seat's next view."""
        self.socks[seat].send(json.dumps({"type": "action", "client_id": f"c{random.random()}",
                                          "action": action, "version": self.views[seat]["version"]}))
        for i in range(self.seats):
            self.read_until_view(i)

    def run(self, stop, rng: random.Random, choose=None, limit: int = 5000) -> int | None:
        """Random legal actions (or choose(view, legal) when it names one) until stop(views)
        names a seat; None when the match ends first."""
        for _ in range(limit):
            found = stop(self.views)
            if found is not None:
                return found
            if self.view["phase"] == "match_over":
                return None
            seat = self.view["to_act"][0]
            legal = self.views[seat]["view"]["legal"]
            pick = choose(self.views[seat]["view"], legal) if choose else None
            self.act(seat, pick or rng.choice(legal))
        raise AssertionError("the match did not reach the state")


def drive(base: str, code: str, tokens: list[str], stop, seed: int = 7) -> tuple[str, int | None, dict]:
    """Random legal actions over the websocket until stop(views) names a seat (or the match
    ends); returns (match id, that seat, its last view message)."""
    with WsTable(base, code, tokens) as table:
        found = table.run(stop, random.Random(seed))
        if found is None:
            assert table.view["phase"] == "match_over"
            return table.views[0]["match"], None, table.views[0]
        return table.views[0]["match"], found, table.views[found]


def long_name(stem: str, length: int = 40) -> str:
    """A name of exactly `length` characters (the longest the server allows)."""
    return (stem + " " + "Константинопольская-Wierzbicka-" * 3)[:length]


def new_room(base: str, variant: str, names: list[str], options: dict | None = None,
             bots: dict[int, str] | None = None, takeover: int | None = None,
             pace: dict | None = None) -> tuple[str, list[dict]]:
    """A room with people in the first seats, bots (seat -> level) in the others, started;
    ``pace``: the room's pace fields ({"pace": "turn", "move_seconds": ...})."""
    seats = len(names) + len(bots or {})
    players = [call(base, "POST", "/api/players", body={"name": n}) for n in names]
    body = {"variant": variant, "seats": seats, "options": options, **(pace or {})}
    if takeover is not None:
        body["takeover_seconds"] = takeover
    room = call(base, "POST", "/api/rooms", players[0]["token"], body)
    code = room["code"]
    for n, p in enumerate(players[1:], start=1):
        call(base, "POST", f"/api/rooms/{code}/seats/{n}", p["token"])
    for seat, level in (bots or {}).items():
        call(base, "POST", f"/api/rooms/{code}/seats/{seat}/bot", players[0]["token"], {"level": level})
    call(base, "POST", f"/api/rooms/{code}/start", players[0]["token"])
    return code, players


def open_seat(new_page, base: str, code: str, player: dict, viewport=None, lang: str = "en"):
    """A browser for `player` at the room's table (the token put in localStorage first)."""
    page = new_page(viewport, lang=lang)
    page.goto(base + "/healthz")
    me = {"id": player["id"], "name": player["name"], "token": player["token"]}
    page.evaluate(f"localStorage.setItem('kozyr.player', {json.dumps(json.dumps(me))})")
    page.goto(f"{base}/room/{code}")
    page.locator(".felt").wait_for()
    return page


# Text a player must never see at the table: rule ids, raw action / key names.
RAW_TEXT = r"\b[TKRC]-\d+\b|\b(title|hand|show|play|give|bid|contract|trump|order|spare|swap|take|discard):|" \
           r"\b(phases|act|prompts|contracts|do|wait|rules|errors|titles)\.[a-z]|\baside\b|\bundefined\b|\bnull\b|\bNaN\b"


def client_module(name: str) -> str:
    """A JS expression importing the client's module ``name`` ("history.js") from where the
    page loaded its own (the build prefix, app/static.py): the page's module instance."""
    return f"import(new URL({name!r}, document.querySelector('script[type=module][src]').src).href)"


def visible_text(page, selector: str = "body") -> str:
    return page.evaluate("(sel) => document.querySelector(sel).innerText", selector)


def no_sideways_overflow(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def hand_inside_viewport(page) -> list[str]:
    """The cards of the own hand that lie (even partly) outside the window."""
    return page.evaluate("""() => {
      const w = window.innerWidth, h = window.innerHeight;
      return [...document.querySelectorAll('.hand .card')].filter((c) => {
        const r = c.getBoundingClientRect();
        return r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5;
      }).map((c) => c.dataset.card);
    }""")


class SlowSeats:
    """People at some seats, over the websocket, who play their first legal action `delay`
    seconds after their turn comes (in a thread), so they are never taken over and a match
    with bots at the other seats moves at a person's pace."""

    def __init__(self, base: str, code: str, tokens: list[str], delay: float = 1.0) -> None:
        import threading
        self.url = base.replace("http", "ws") + f"/api/rooms/{code}/ws"
        self.tokens, self.delay = tokens, delay
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._seat, args=(tok,), daemon=True) for tok in tokens]

    def __enter__(self):
        for th in self.threads:
            th.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for th in self.threads:
            th.join(timeout=5)

    def _seat(self, token: str) -> None:
        import time
        with connect(f"{self.url}?token={token}") as ws:
            view = None
            while not self.stop.is_set():
                try:
                    msg = json.loads(ws.recv(timeout=0.2))
                except TimeoutError:
                    msg = None
                if msg and msg["type"] == "view" and msg.get("view"):
                    view = msg
                if view and view["view"]["legal"] and (msg is None or msg["type"] == "view"):
                    if self.stop.wait(self.delay):
                        return
                    ws.send(json.dumps({"type": "action", "client_id": f"s{time.monotonic()}",
                                        "action": view["view"]["legal"][0], "version": view["version"]}))
                    view = None
