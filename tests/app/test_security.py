"""Bad input and abuse: REST fuzzing from the OpenAPI spec, hostile websocket
messages, floods, slow clients, token strength, and no seat acting or seeing
for another.  SQLite only (the checks are about the server, not the database)."""

from __future__ import annotations

import asyncio
import base64
import random
import tempfile
from contextlib import ExitStack
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.main import create_app
from app.rooms.hub import Conn, Hub
from engine import find_variant

from .conftest import METRICS_AUTH, make_settings, serve
from .helpers import Game, auth, connect, make_room, new_player, open_table

VARIANT, SEATS, OPTIONS = "thousand-1001", 4, {"goal": 100}

_tmp = Path(tempfile.mkdtemp(prefix="kozyr-fuzz-"))
fuzz_app = create_app(make_settings(f"sqlite:///{_tmp / 'fuzz.db'}", max_open_rooms=10_000))
schema = schemathesis.openapi.from_asgi("/openapi.json", fuzz_app)


@pytest.fixture(scope="module")
def fuzz_client():
    with TestClient(fuzz_app) as c:
        player = new_player(c, "Fuzz")
        room, _ = make_room(c, VARIANT, SEATS, OPTIONS, seed=3)
        yield c, player, room


@pytest.fixture(scope="module")
def sec(tmp_path_factory):
    with serve(f"sqlite:///{tmp_path_factory.mktemp('sec') / 'k.db'}", max_open_rooms=3) as c:
        yield c


# -- REST: every route, fuzzed from the OpenAPI spec, never answers 5xx --------------


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_rest_fuzz_never_5xx(case, fuzz_client):
    client, player, room = fuzz_client
    if case.path_parameters:  # half the time aim at things that exist
        for key in ("code", "match_id"):
            if key in case.path_parameters and random.random() < 0.5:
                case.path_parameters[key] = room["code"] if key == "code" else room["match"]["id"]
    if random.random() < 0.7:
        case.headers = {**(case.headers or {}), **auth(player)}
    response = case.call()
    assert response.status_code < 500, (case.method, case.formatted_path, response.text[:500])


# -- hostile websocket messages ---------------------------------------------------------

HOSTILE = [
    "", " ", "null", "true", "42", "1e400", '"action"', "[]", "{}", "[" * 30000 + "]" * 30000,
    '{"a":' * 5000 + "1" + "}" * 5000, "{not json", "\ud800",
    {"type": "action"}, {"type": "action", "client_id": "x"}, {"type": "action", "action": "pass"},
    {"type": "action", "client_id": 7, "action": "pass"},
    {"type": "action", "client_id": "x", "action": ["pass"]},
    {"type": "action", "client_id": "x", "action": "pass", "version": -1},
    {"type": "action", "client_id": "x", "action": "pass", "version": 10**30},
    {"type": "action", "client_id": "x", "action": "pass", "seat": 10**30},
    {"type": "action", "client_id": "x" * 100, "action": "pass"},
    {"type": "action", "client_id": "x", "action": "b" * 1000},
    {"type": "action", "client_id": "x", "action": "zz:\u0000\u202e"},
    {"type": "action", "client_id": "x", "action": "pass", "extra": 1},
    {"type": "chat", "text": 5}, {"type": "chat", "text": "x" * 20_000}, {"type": "ping", "nonce": {"a": 1}},
    {"type": "hello", "token": "z" * 500}, {"type": "hello", "last_version": -5},
    {"type": "nope"}, {"type": None}, {"type": ["action"]},
    "x" * (70 * 1024),
]


def test_hostile_websocket_messages_change_nothing(sec):
    room, players = make_room(sec, VARIANT, SEATS, OPTIONS, seed=11)
    with ExitStack() as stack:
        clients = open_table(sec, stack, room, players)
        before = [c.last_view["view"] for c in clients]
        actor = clients[before[0]["to_act"][0]]
        other = clients[(actor.seat + 1) % SEATS]
        for c in (actor, other):
            for msg in HOSTILE:
                c.send(msg)
                reply = c.recv_until(lambda m: m["type"] in ("error", "ack", "view", "pong"))[0]
                assert reply["type"] == "error", (msg if len(str(msg)) < 200 else str(msg)[:200], reply)
                assert reply["code"] in ("bad_message", "too_large", "illegal", "stale", "not_your_seat", "chat_invalid")
                assert reply["version"] == 0 and reply["message"]
            for data in (b"\xff\xfe\x00garbage", bytes(range(256)), b""):  # binary frames, bad UTF-8
                c.ws.send_bytes(data)
                reply = c.recv_until(lambda m: m["type"] == "error")[0]
                assert reply["code"] == "bad_message"
        detail = sec.get(f"/api/matches/{room['match']['id']}").json()
        assert detail["version"] == 0
        # The table still works: a legal action is acknowledged.
        legal = actor.last_view["view"]["legal"]
        actor.act(legal[0], "fine", version=0)
        ack = actor.recv_until(lambda m: m["type"] in ("ack", "error"))[0]
        assert ack["type"] == "ack" and ack["seq"] == 0


def test_flood_is_rate_limited_then_closed(tmp_path):
    app = create_app(make_settings(f"sqlite:///{tmp_path / 'f.db'}", messages_per_second=5.0,
                                   message_burst=5, flood_close_after=30))
    with TestClient(app) as c, ExitStack() as stack:
        room, players = make_room(c, VARIANT, SEATS, OPTIONS, seed=2)
        client = connect(c, stack, room["code"], players[0], 0)
        client.wait_view(0)
        for i in range(40):
            client.send({"type": "ping", "nonce": i})
        got = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                got.append(client.recv(5))
        assert closed.value.code == 1008
        pongs = [m for m in got if m["type"] == "pong"]
        limited = [m for m in got if m["type"] == "error"]
        assert 5 <= len(pongs) < 10 and limited and all(m["code"] == "rate_limited" for m in limited)
        metrics = c.get("/metrics", headers=METRICS_AUTH).text
        assert 'kozyr_errors_total{code="rate_limited"}' in metrics
    app.state.db.dispose()


# -- a slow client never slows a room -------------------------------------------------


class StuckSocket:
    """A websocket whose client never reads: every send waits forever."""

    def __init__(self) -> None:
        self.sent = 0
        self.closed_with = None

    async def send_text(self, text: str) -> None:
        self.sent += 1
        await asyncio.Event().wait()

    async def close(self, code: int = 1000) -> None:
        self.closed_with = code
        await asyncio.Event().wait()  # even the close frame does not get out


class FastSocket:
    def __init__(self) -> None:
        self.got: list[str] = []

    async def send_text(self, text: str) -> None:
        self.got.append(text)

    async def close(self, code: int = 1000) -> None:
        pass


def test_slow_client_is_dropped_and_never_awaited():
    async def scenario():
        hub = Hub()
        stuck, fast = StuckSocket(), FastSocket()
        slow = Conn(stuck, "R", 1, "slow", 0, max_queue=16)
        quick = Conn(fast, "R", 2, "quick", 1, max_queue=16)
        slow.close_timeout = 0.1
        slow.on_gone = lambda: hub.leave(slow)  # the route's part (app/api/ws.py)
        hub.join(slow)
        hub.join(quick)
        loop = asyncio.get_running_loop()
        for i in range(100):
            t0 = loop.time()
            hub.broadcast("R", {"type": "pong", "version": i})  # never awaits anybody
            assert loop.time() - t0 < 0.05
            await asyncio.sleep(0)
        await asyncio.sleep(0.05)
        assert slow.closed and stuck.closed_with == 1013
        assert len(fast.got) == 100 and not quick.closed
        assert hub.local_players("R") == {1, 2}  # the close frame may still get out ...
        await asyncio.sleep(0.2)
        assert hub.local_players("R") == {2}  # ... it did not: the room lets it go
        await slow.close()
        await quick.close()
    asyncio.run(scenario())


def test_a_connection_has_a_sender_only_while_messages_wait():
    """Messages go out in order; once they are out the sender task ends, so an idle
    socket keeps no pending future for the collector to walk (app/rooms/hub.py)."""
    async def scenario():
        fast = FastSocket()
        conn = Conn(fast, "R", 1, "p", 0, max_queue=16)
        assert conn.task is None
        conn.send_texts(("a", "b"))
        conn.send({"type": "pong", "version": 1})
        assert conn.task is not None
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert fast.got == ["a", "b", '{"type":"pong","version":1}']
        assert conn.task is None and not conn.queue
        conn.send_texts(("c",))
        await conn.drain()
        assert fast.got[-1] == "c" and conn.task is None
        await conn.close()
    asyncio.run(scenario())


# -- tokens, seats and hands -----------------------------------------------------------


def test_tokens_carry_at_least_128_bits(sec):
    tokens = [new_player(sec)["token"] for _ in range(20)]
    assert len(set(tokens)) == 20
    for t in tokens:
        raw = base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))
        assert len(raw) * 8 >= 128


def test_nobody_acts_for_another_seat_or_sees_its_hand(sec):
    room, players = make_room(sec, VARIANT, SEATS, OPTIONS, seed=99)
    outsider = new_player(sec)  # a spectator: no seat in this room
    other_room, other_players = make_room(sec, VARIANT, SEATS, OPTIONS, seed=5)
    with ExitStack() as stack:
        clients = open_table(sec, stack, room, players)
        spectator = connect(sec, stack, room["code"], outsider, None)
        stranger = connect(sec, stack, room["code"], other_players[0], None)  # seated elsewhere
        for c in (spectator, stranger):
            welcome = c.recv_until(lambda m: m["type"] == "welcome")[0]
            assert welcome["seat"] is None
            view = c.wait_view(0)["view"]
            assert view["hand"] in (None, [])
            assert view["legal"] == []
        game = Game(VARIANT, SEATS, 99, find_variant(VARIANT).resolve_options(OPTIONS),
                    clients, room, players)
        rng = random.Random(4)
        for step in range(20):
            if game.ref.is_over():
                break
            to_act = game.ref.to_act()[0]
            legal = game.ref.legal_actions(to_act)
            wrong = clients[(to_act + 1) % SEATS]
            # Naming the other seat, or simply sending its move, does not act for it.
            wrong.act(legal[0], f"w{step}", version=game.version, seat=to_act)
            err = game.drain(wrong, lambda m: m["type"] in ("error", "ack"))
            assert err["type"] == "error" and err["code"] == "not_your_seat"
            wrong.act(legal[0], f"v{step}", version=game.version)
            err = game.drain(wrong, lambda m: m["type"] in ("error", "ack"))
            assert err["type"] == "error" and err["code"] in ("illegal",)
            for c in (spectator, stranger):
                c.act(legal[0], f"s{step}")
                err = c.recv_until(lambda m: m["type"] in ("error", "ack"))[0]
                assert err["type"] == "error" and err["code"] == "not_seated"
            game.step(rng)  # checks every message of every seat for other hands' cards
            for c in (spectator, stranger):
                view = c.wait_view(game.version)
                assert view["view"] == game.ref.view(None)
        assert game.version > 0
        # REST does not show hands or the seed of a match being played.
        detail = sec.get(f"/api/matches/{room['match']['id']}").json()
        assert detail.get("seed") is None
        export = sec.get(f"/api/matches/{room['match']['id']}/export.json").json()
        assert export.get("seed") is None and "actions" not in export
        # Only finished deals are public (rule C-5): never the deal being played.
        assert len(export["deals"]) == len(game.ref.history())
        assert len(export["deals"]) == len(game.ref.scoresheet())
    assert other_room["code"] != room["code"]


def test_open_rooms_per_player_are_capped(sec):
    host = new_player(sec)
    for _ in range(3):
        assert sec.post("/api/rooms", json={"variant": VARIANT}, headers=auth(host)).status_code == 201
    r = sec.post("/api/rooms", json={"variant": VARIANT}, headers=auth(host))
    assert r.status_code == 409 and r.json()["code"] == "too_many_rooms"  # a cap, not a rate: no Retry-After


def test_long_names_are_refused(sec):
    r = sec.post("/api/players", json={"name": "Я" * 41})
    assert r.status_code == 422


def test_action_counts_expose_what_the_librarys_counter_and_histogram_would():
    """kozyr_actions_total and kozyr_action_seconds are plain counts on the loop
    (app/metrics.py ActionTimes): /metrics shows them as prometheus_client's own
    Counter and Histogram fed the same values would, bounds and +Inf included."""
    from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

    from app.metrics import BUCKETS, ActionTimes
    theirs, ours = CollectorRegistry(), CollectorRegistry()
    counter = Counter("kozyr_actions", "Actions applied", registry=theirs)
    histogram = Histogram("kozyr_action_seconds", "From receiving an action to every view being queued",
                          buckets=BUCKETS, registry=theirs)
    times = ActionTimes()
    ours.register(times)
    rnd = random.Random(3)
    for seconds in [0.0, *BUCKETS, 2.6, 9.0] + [rnd.random() * 0.3 for _ in range(500)]:
        counter.inc()
        histogram.observe(seconds)
        times.observe(seconds)

    def shown(registry: CollectorRegistry) -> list[str]:
        return [x for x in generate_latest(registry).decode().splitlines() if "_created" not in x]
    assert shown(ours) == shown(theirs)
    assert 'kozyr_action_seconds_bucket{le="+Inf"} 514.0' in shown(ours)


def test_metrics_in_prometheus_format(sec):
    room, players = make_room(sec, VARIANT, SEATS, OPTIONS, seed=8)
    with ExitStack() as stack:
        clients = open_table(sec, stack, room, players)
        seat = clients[0].last_view["view"]["to_act"][0]
        clients[seat].act(clients[seat].last_view["view"]["legal"][0], "m1", version=0)
        clients[seat].recv_until(lambda m: m["type"] == "ack")
        r = sec.get("/metrics", headers=METRICS_AUTH)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    text = r.text
    for name in ("kozyr_rooms ", "kozyr_connections ", "kozyr_actions_total ", "kozyr_action_seconds_bucket",
                 "kozyr_errors_total", "kozyr_matches_recovered_total", "kozyr_live_matches "):
        assert name in text, name
    actions = next(float(x.split()[-1]) for x in text.splitlines() if x.startswith("kozyr_actions_total "))
    assert actions >= 1
    # The stall watch: the event loop's lag is sampled all along, by cause.
    lag = sum(float(x.split()[-1]) for x in text.splitlines() if x.startswith("kozyr_loop_lag_seconds_count{"))
    assert lag >= 1
    assert 'cause="' in text


def test_stall_causes():
    from app.metrics import stall_cause
    assert stall_cause(0.1, 0.09, 0.0) == "loop"  # the loop's own thread was busy
    assert stall_cause(0.1, 0.01, 0.08) == "threads"  # the writer / worker threads held the GIL
    assert stall_cause(0.1, 0.005, 0.005) == "off_cpu"  # the process hardly ran at all
    # A collection of generation 2 took most of the lag (it holds the GIL, in any thread).
    assert stall_cause(0.1, 0.09, 0.0, [0.001, 0.0, 0.06], lag=0.09) == "gc2"
    assert stall_cause(0.1, 0.09, 0.0, [0.002, 0.0, 0.0], lag=0.09) == "loop"  # a short one: not the cause


def test_a_full_collection_is_named_as_the_stall_cause():
    """A stall of the event loop by a generation-2 collection is counted as ``gc2``
    in kozyr_loop_lag_seconds (app/metrics.py: gc.callbacks time each collection).
    The collector's time is CPU time: on a machine so busy that the collection itself
    waits for a core (seen: 2.6 s of lag, 5 ms of CPU) the stall is rightly
    ``off_cpu``, so the run is tried again, three times at most."""
    import asyncio
    import gc

    from app.config import Settings
    from app.metrics import Metrics

    async def main(metrics: Metrics) -> None:
        metrics.start_watch()
        await asyncio.sleep(0.05)
        held = [[i] for i in range(600_000)]  # tracked objects a full collection must walk
        for _ in range(3):
            await asyncio.sleep(0.012)  # the watch is waiting on its timer ...
            gc.collect(2)  # ... while the loop is stuck in the collector
        await asyncio.sleep(0.05)
        metrics.stop_watch()
        del held

    seen = []
    for _ in range(3):
        metrics = Metrics(Settings(stall_log_ms=0), rooms=lambda: 0, live_matches=lambda: 0, connections=lambda: 0)
        asyncio.run(main(metrics))
        causes = metrics.lag_by_cause()
        seen.append(causes)
        if causes.get("gc2", {}).get("count", 0) >= 1:
            break
        assert set(causes) <= {"off_cpu", "gc2"}, causes  # nothing else stalled it
    assert causes.get("gc2", {}).get("count", 0) >= 1, seen
