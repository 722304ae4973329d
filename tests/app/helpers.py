"""Helpers for the server tests: players, rooms, websocket clients with timeouts."""

from __future__ import annotations

import itertools
import json
import queue
import threading
from contextlib import ExitStack

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.protocol import server_message

_names = itertools.count(1)
NAMES = ["Анна", "Paweł", "Борис", "Zofia Łęcka", "Dmitri", "Grażyna", "Ёжик", "Olek"]


def new_player(client: TestClient, name: str | None = None) -> dict:
    if name is None:
        name = f"{NAMES[next(_names) % len(NAMES)]} {next(_names)}"
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()


def auth(player: dict) -> dict:
    return {"Authorization": f"Bearer {player['token']}"}


def make_room(client: TestClient, variant: str, seats: int, options: dict | None = None,
              *, start: bool = True, seed: int | None = None,
              settings: dict | None = None) -> tuple[dict, list[dict]]:
    """A room with every seat taken (host at seat 0) and, with start, a match started;
    ``settings``: more fields of the room form (``rated``, ``takeback``, ``abandoned`` ...)."""
    players = [new_player(client) for _ in range(seats)]
    r = client.post("/api/rooms", json={"variant": variant, "options": options, "seats": seats, **(settings or {})},
                    headers=auth(players[0]))
    assert r.status_code == 201, r.text
    room = r.json()
    for n, p in enumerate(players[1:], start=1):
        r = client.post(f"/api/rooms/{room['code']}/seats/{n}", headers=auth(p))
        assert r.status_code == 200, r.text
    if start:
        r = client.post(f"/api/rooms/{room['code']}/start", headers=auth(players[0]),
                        json={"seed": seed} if seed is not None else None)
        assert r.status_code == 200, r.text
        room = r.json()
    return room, players


def act_and_wait(clients: list, seat: int, action: str, version: int) -> int:
    """``seat`` plays ``action`` at ``version``; its ack and every client's next view
    arrive; the new version."""
    clients[seat].act(action, f"c{version}", version)
    ack, _ = clients[seat].recv_until(lambda m: m["type"] in ("ack", "error"))
    assert ack["type"] == "ack", ack
    for c in clients:
        c.wait_view(version + 1)
    return version + 1


class Client:
    """One websocket connection, with a receive timeout and a log of every message."""

    def __init__(self, ws, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.seen: list[dict] = []
        self.last_view: dict | None = None
        # The test client's receive() has no timeout: a thread of its own reads the socket and
        # recv() waits on this queue with one.
        self.inbox: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, name="test-ws-reader", daemon=True).start()

    def _read(self) -> None:
        """(Its own thread.)  Every message of the socket, in order, into ``inbox``; the
        session's end (the stream closed when the test leaves the connection) ends it."""
        while True:
            try:
                msg = self.ws.receive()
            except BaseException as e:  # noqa: BLE001 - handed to the reader of the inbox
                self.inbox.put(e)
                return
            self.inbox.put(msg)
            if msg["type"] == "websocket.close":
                return

    def recv(self, timeout: float = 10.0) -> dict:
        try:
            msg = self.inbox.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no message in {timeout} s") from None
        if isinstance(msg, BaseException):
            raise msg
        if msg["type"] == "websocket.close":
            self.inbox.put(msg)  # closed it stays: a later recv says so again
            raise WebSocketDisconnect(code=msg.get("code", 1000), reason=msg.get("reason", ""))
        data = json.loads(msg["text"])
        assert isinstance(data.get("version"), int), data
        server_message.validate_python(data)  # the documented shape (app/protocol.py)
        self.seen.append(data)
        if data["type"] == "view":
            self.last_view = data
        return data

    def recv_until(self, pred, timeout: float = 10.0) -> tuple[dict, list[dict]]:
        got = []
        while True:
            msg = self.recv(timeout)
            got.append(msg)
            if pred(msg):
                return msg, got

    def wait_view(self, version: int, timeout: float = 10.0) -> dict:
        msg, _ = self.recv_until(lambda m: m["type"] == "view" and m["version"] >= version, timeout)
        return msg

    def send(self, obj) -> None:
        if isinstance(obj, (dict, list)):
            self.ws.send_text(json.dumps(obj, ensure_ascii=False))
        else:
            self.ws.send_text(obj)

    def act(self, action: str, client_id: str, version: int | None = None, **extra) -> None:
        msg = {"type": "action", "client_id": client_id, "action": action, **extra}
        if version is not None:
            msg["version"] = version
        self.send(msg)


def connect(client: TestClient, stack: ExitStack, code: str, player: dict | None, seat: int | None,
            *, hello: bool = False, last_version: int | None = None) -> Client:
    url = f"/api/rooms/{code}/ws"
    if player is not None and not hello:
        url += f"?token={player['token']}"
    ws = stack.enter_context(client.websocket_connect(url))
    c = Client(ws, seat)
    if hello:
        c.send({"type": "hello", "token": player["token"] if player else None,
                "last_version": last_version})
    return c


def open_table(client: TestClient, stack: ExitStack, room: dict, players: list[dict]) -> list[Client]:
    """One connection per seat; each has had its welcome and first view."""
    clients = []
    for seat, player in enumerate(players):
        c = connect(client, stack, room["code"], player, seat)
        welcome, _ = c.recv_until(lambda m: m["type"] == "welcome")
        assert welcome["seat"] == seat
        c.wait_view(0)
        clients.append(c)
    return clients


# -- a table followed by a reference engine match ----------------------------------


def short_options(variant_id: str) -> dict:
    """The lowest goal / number of reigns the variant allows, to keep matches short.
    Modern Тысяча: no barrel (its barrel_gap must stay below the goal, M-35), no
    bolts, and seats 0 and 1 start 20 below the goal (M-31): contracts start at
    100, so random play loses more than it scores and a match might never end."""
    from engine import find_variant
    out = {}
    names = set()
    for opt in find_variant(variant_id).options_schema():
        names.add(opt["name"])
        if opt["type"] == "int" and opt["name"] in ("goal", "reigns", "rounds", "target"):
            out[opt["name"]] = opt["min"]
    if "barrel" in names:
        out.update(barrel="off", bolts="off")
    if "start_total_1" in names:
        out.update(start_total_0=out["goal"] - 20, start_total_1=out["goal"] - 20)
    return out


class Game:
    """Clients at a table plus a reference match replayed beside the server's.

    Every message a seat receives is checked: it carries a version, a view is
    exactly the engine's view for that seat, and no message holds a card of
    another seat's hand that the seat has not been shown (rule C-5)."""

    def __init__(self, variant_id: str, seats: int, seed: int, options: dict, clients: list[Client],
                 room: dict, players: list[dict]) -> None:
        from engine import find_variant
        from tests.engine.invariants import Tracker
        self.ref = find_variant(variant_id).new_match(seats, seed=seed, options=options)
        self.tracker = Tracker(self.ref)
        self.tracker.observe(self.ref, self.ref._locations())
        self.clients = clients
        self.room = room
        self.players = players
        self.ids = itertools.count()
        self.checked = 0
        self._hands_at = -1
        self._hands: list[set[str]] = []

    @property
    def version(self) -> int:
        return len(self.ref.actions)

    def check(self, client: Client, msg: dict) -> None:
        from tests.engine.invariants import CARD_RE, cards_in
        seat = client.seat
        assert isinstance(msg["version"], int)
        blob = json.dumps(msg, ensure_ascii=False)
        assert "seed" not in blob, msg["type"]
        known = self.tracker.public | self.tracker.option_cards
        if seat is not None:
            known = known | self.tracker.own[seat]
        if msg["type"] == "view" and msg["view"] is not None:
            assert msg["version"] == self.version, (msg["version"], self.version)
            assert msg["view"] == self.ref.view(seat), f"seat {seat}: the view is not the engine's"
            log = msg["view"]["log"]
            known = known | {c for s, a in log if s is None and a for c in CARD_RE.findall(a)}
        others = set()
        for s, hand in enumerate(self.true_hands()):
            if s != seat:
                others |= hand
        leaked = (cards_in(msg) & others) - known
        assert not leaked, f"seat {seat} was sent cards of other hands: {sorted(leaked)} in {msg['type']}"
        self.checked += 1

    def true_hands(self) -> list[set[str]]:
        """The engine's real hands now (cached per version)."""
        if self._hands_at != self.version:
            locs = self.ref._locations()
            self._hands = [set(locs.get(f"hand:{s}", [])) for s in range(self.ref.seats)]
            self._hands_at = self.version
        return self._hands

    def drain(self, client: Client, pred, timeout: float = 10.0) -> dict:
        msg, got = client.recv_until(pred, timeout)
        for m in got:
            self.check(client, m)
        return msg

    def sync_all(self) -> None:
        """Every client receives (and checks) the view at the current version."""
        v = self.version
        for c in self.clients:
            if c.last_view is not None and c.last_view["version"] == v:
                continue
            self.drain(c, lambda m, v=v: m["type"] == "view" and m["version"] == v)

    def choose(self, rng) -> tuple[int, str]:
        to_act = self.ref.to_act()
        seat = rng.choice(to_act)
        legal = self.clients[seat].last_view["view"]["legal"]
        assert legal == self.ref.legal_actions(seat)
        if "pass" in legal and rng.random() < 0.6:  # keep random bidding modest
            return seat, "pass"
        return seat, rng.choice(legal)

    def step(self, rng) -> tuple[int, str]:
        seat, action = self.choose(rng)
        cid = f"c{next(self.ids)}"
        client = self.clients[seat]
        client.act(action, cid, version=self.version)
        ack = self.drain(client, lambda m: m["type"] in ("ack", "error"))
        assert ack["type"] == "ack", ack
        assert ack["client_id"] == cid and ack["seq"] == self.version
        self.ref.apply(seat, action)
        self.tracker.observe(self.ref, self.ref._locations())
        assert ack["version"] == self.version
        self.sync_all()
        return seat, action


def make_matches(db, n: int, seats: int = 2) -> list[str]:
    """``n`` Тысяча 1001 matches of ``seats`` seated players, straight through the store
    (the writer tests need match rows, not a server)."""
    from app.db import store
    ids = []
    with db.write() as s:
        host, _ = store.create_player(s, "host")
        for _ in range(n):
            room = store.create_room(s, host, "thousand-1001", {}, seats, 0)
            for seat in range(1, seats):
                guest, _ = store.create_player(s, "guest")
                store.take_seat(s, room, seat, guest.id)
            ids.append(store.create_match(s, room, seed=1).id)
    return ids
