"""Messages in version order: within one match id, every message a connection receives
carries a version never lower than one it has already received — while extra
connections open and close around every action (their room / presence messages)
and bots act (a bot's action takes the people's path)."""

from __future__ import annotations

import random
from contextlib import ExitStack

from starlette.testclient import TestClient

from app.main import create_app

from .conftest import make_settings
from .helpers import Client, auth, make_room, new_player, short_options

VARIANT, SEATS = "thousand-1000", 3


class Watcher:
    """A connection that checks the order of everything it receives."""

    def __init__(self, client, code: str, player: dict, seat: int | None) -> None:
        self.stack = ExitStack()
        self.c = Client(self.stack.enter_context(
            client.websocket_connect(f"/api/rooms/{code}/ws?token={player['token']}")), seat)
        self.top: dict[str | None, int] = {}
        self.count = 0

    def take(self, timeout: float = 0.05) -> list[dict]:
        got = []
        while True:
            try:
                msg = self.c.recv(timeout)
            except TimeoutError:
                return got
            match, version = msg["match"], msg["version"]
            if match is not None:
                assert version >= self.top.get(match, 0), \
                    f"{msg['type']} at version {version} after {self.top[match]}"
                self.top[match] = version
            self.count += 1
            got.append(msg)

    def close(self) -> None:
        self.take()
        self.stack.close()


def test_versions_never_go_down_around_every_action(client):
    rng = random.Random(3)
    room, players = make_room(client, VARIANT, SEATS, short_options(VARIANT), seed=42)
    code = room["code"]
    seats = [Watcher(client, code, p, n) for n, p in enumerate(players)]
    extra: list[Watcher] = []
    ids = iter(range(10**6))
    version = 0
    try:
        for seat in seats:
            seat.take(0.2)
        for step in range(40):
            # Open one more connection (a spectator, or a second one of a seat) ...
            if step % 2:
                extra.append(Watcher(client, code, new_player(client), None))
            else:
                n = rng.randrange(SEATS)
                extra.append(Watcher(client, code, players[n], n))
            view = seats[0].c.last_view["view"]
            if view["result"] is not None:
                break
            actor = view["to_act"][0]
            legal = seats[actor].c.last_view["view"]["legal"]
            action = "pass" if "pass" in legal and rng.random() < 0.6 else rng.choice(legal)
            seats[actor].c.act(action, f"o{next(ids)}", version=version)
            version += 1
            # ... and close one, while the views of the action go out.
            if len(extra) > 3:
                extra.pop(0).close()
            for w in seats + extra:
                w.take(0.01)  # what has come; the rest is read (and checked) at the next take
            for w in seats:
                while w.c.last_view["version"] < version:
                    w.take(0.2)
        assert version >= 20
        assert all(w.count > version for w in seats)
    finally:
        for w in seats + extra:
            w.close()


def test_versions_never_go_down_with_bots_and_a_finished_match(database_url):
    app = create_app(make_settings(database_url, bot_delay=0.0))
    with TestClient(app) as client:
        _bots_to_the_end(client)
    app.state.db.dispose()


def _bots_to_the_end(client) -> None:
    host = new_player(client)
    r = client.post("/api/rooms", json={"variant": "king-3p", "options": short_options("king-3p"),
                                        "seats": 3}, headers=auth(host))
    code = r.json()["code"]
    for seat in (1, 2):
        assert client.post(f"/api/rooms/{code}/seats/{seat}/bot", json={"level": "random"},
                           headers=auth(host)).status_code == 200
    w = Watcher(client, code, host, 0)
    spectator = Watcher(client, code, new_player(client), None)
    try:
        w.take(0.2)
        client.post(f"/api/rooms/{code}/start", headers=auth(host))
        ids = iter(range(10**6))
        for _ in range(2000):
            got = w.take(0.05)
            spectator.take(0.0)
            last = w.c.last_view
            if last is None or last["view"] is None:
                continue
            if last["view"]["result"] is not None:
                break
            if 0 in last["view"]["to_act"] and any(m["type"] == "view" for m in got):
                legal = last["view"]["legal"]
                w.c.act(rng_choice(legal), f"k{next(ids)}", version=last["version"])
        assert w.c.last_view["view"]["result"] is not None, "the match did not end"
        room_msgs = [m for m in w.c.seen if m["type"] == "room"]
        assert room_msgs[-1]["room"]["status"] == "finished"
        assert room_msgs[-1]["version"] == w.c.last_view["version"]
        # An action after the match is over: illegal (the engine's reason), not no_match.
        w.c.act("pass", "after-the-end")
        err, _ = w.c.recv_until(lambda m: m["type"] == "error")
        assert err["code"] == "illegal" and err["client_id"] == "after-the-end", err
    finally:
        w.close()
        spectator.close()


def rng_choice(legal: list[str]) -> str:
    return legal[len(legal) // 2]
