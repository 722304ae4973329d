"""Every bad message gets a clear error, only to its sender, and changes nothing."""

from __future__ import annotations

import json
import random
from contextlib import ExitStack

import pytest
from starlette.websockets import WebSocketDisconnect

from engine import VARIANTS, find_variant

from .helpers import Client, auth, connect, new_player
from .test_live import start_game

pytestmark = pytest.mark.skipif(not VARIANTS, reason="no variant registered yet")
VARIANT = VARIANTS[0] if VARIANTS else None


def quiet(game, clients) -> None:
    """Nothing was broadcast: each client's next message is the pong to its ping."""
    for i, c in enumerate(clients):
        c.send({"type": "ping", "nonce": i})
        msg, got = c.recv_until(lambda m: m["type"] == "pong")
        for m in got:
            game.check(c, m)
        assert msg == {"type": "pong", "version": game.version, "match": game.room["match"]["id"],
                       "nonce": i}, msg
        assert {m["type"] for m in got} <= {"pong", "presence", "room"}, got


def error_of(game, c: Client) -> dict:
    msg = game.drain(c, lambda m: m["type"] in ("error", "ack", "view"))
    assert msg["type"] == "error", msg
    assert msg["version"] == game.version
    return msg


def stored_version(client, game) -> int:
    return client.get(f"/api/matches/{game.room['match']['id']}").json()["version"]


def test_bad_messages_change_nothing(client):
    rng = random.Random(5)
    seats = find_variant(VARIANT).seat_counts[0]
    with ExitStack() as stack:
        game = start_game(client, stack, VARIANT, seats, seed=1234)
        for _ in range(3):
            game.step(rng)
        before = game.version
        seat = game.ref.to_act()[0]
        idle = next(s for s in range(seats) if s not in game.ref.to_act())
        c, other = game.clients[seat], game.clients[idle]
        legal = game.ref.legal_actions(seat)
        # An illegal move: the engine's reason comes back.
        c.act("play:XX", "bad-1", version=before)
        e = error_of(game, c)
        assert e["code"] == "illegal" and e["client_id"] == "bad-1" and "play:XX" in e["message"]
        # A move out of turn, even one that is legal for the seat on turn.
        other.act(legal[0], "bad-2")
        e = error_of(game, other)
        assert e["code"] == "illegal" and "turn" in e["message"]
        # A stale version.
        c.act(legal[0], "bad-3", version=before - 1)
        assert error_of(game, c)["code"] == "stale"
        # An action for a seat the player does not hold.
        other.act(legal[0], "bad-4", seat=seat)
        e = error_of(game, other)
        assert e["code"] == "not_your_seat" and e["client_id"] == "bad-4"
        # Malformed messages: the connection stays.
        for raw in ["not json", "[]", "{}", '{"type": "nope"}', '{"type": "action"}',
                    '{"type": "action", "client_id": "x", "action": 5}',
                    '{"type": "action", "client_id": "", "action": "pass"}',
                    '{"type": "action", "client_id": "x", "action": "pass", "extra": 1}',
                    json.dumps({"type": "action", "client_id": "x", "action": "p" * 5000})]:
            c.send(raw)
            e = error_of(game, c)
            assert e["code"] == "bad_message", raw
            assert e["message"]
        # Oversized: more than 64 KiB.
        c.send(json.dumps({"type": "chat", "text": "ж" * 40_000}))
        e = error_of(game, c)
        assert e["code"] == "too_large"
        c.ws.send_bytes(b"\xff\xfe not utf-8")
        assert error_of(game, c)["code"] == "bad_message"
        quiet(game, game.clients)
        assert game.version == before == stored_version(client, game)
        # A spectator (no seat) cannot act.
        watcher = connect(client, stack, game.room["code"], new_player(client), None)
        watcher.recv_until(lambda m: m["type"] == "view")
        watcher.act(legal[0], "bad-5")
        msg, _ = watcher.recv_until(lambda m: m["type"] == "error")
        assert msg["code"] == "not_seated"
        # After all that the match goes on normally.
        game.step(rng)
        assert stored_version(client, game) == before + 1


def test_wrong_token_and_unknown_room(client):
    seats = find_variant(VARIANT).seat_counts[0]
    with ExitStack() as stack:
        game = start_game(client, stack, VARIANT, seats, seed=99)
        code = game.room["code"]
        for url in (f"/api/rooms/{code}/ws?token=wrong", "/api/rooms/nope/ws?token=x"):
            with client.websocket_connect(url) as ws:
                c = Client(ws, None)
                msg = c.recv()
                assert msg["type"] == "error"
                assert msg["code"] == ("bad_token" if "wrong" in url else "unknown_room")
                with pytest.raises(WebSocketDisconnect) as closed:
                    c.recv()
                assert closed.value.code in (4403, 4404)
        # Token by first message: wrong, then missing.
        with client.websocket_connect(f"/api/rooms/{code}/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": "wrong"}))
            assert Client(ws, None).recv()["code"] == "bad_token"
        with client.websocket_connect(f"/api/rooms/{code}/ws") as ws:
            ws.send_text(json.dumps({"type": "ping"}))
            assert Client(ws, None).recv()["code"] == "bad_token"
        # A REST call with another player's token cannot leave his seat.
        stranger = new_player(client)
        r = client.delete(f"/api/rooms/{code}/seats/1", headers=auth(stranger))
        assert r.status_code in (403, 409)
        quiet(game, game.clients)
        assert stored_version(client, game) == 0


def test_same_seat_twice_at_once_applies_one(client, kozyr):
    """Two connections of one seat send the same action at the same moment (with and
    without the version field): exactly one is applied, the other gets an error."""
    rng = random.Random(11)
    seats = find_variant(VARIANT).seat_counts[0]
    with ExitStack() as stack:
        game = start_game(client, stack, VARIANT, seats, seed=4321)
        for round_no in range(6):
            seat = game.ref.to_act()[0]
            twin = connect(client, stack, game.room["code"], game.players[seat], seat)
            twin.recv_until(lambda m: m["type"] == "view")
            action = rng.choice(game.ref.legal_actions(seat))
            v = game.version
            version = v if round_no % 2 == 0 else None
            game.clients[seat].act(action, f"x{round_no}", version=version)
            twin.act(action, f"y{round_no}", version=version)
            first = game.drain(game.clients[seat], lambda m: m["type"] in ("ack", "error"))
            second, _ = twin.recv_until(lambda m: m["type"] in ("ack", "error"))
            assert sorted([first["type"], second["type"]]) == ["ack", "error"], (first, second)
            error = first if first["type"] == "error" else second
            assert error["code"] in ("stale", "illegal")
            game.ref.apply(seat, action)
            game.tracker.observe(game.ref, game.ref._locations())
            assert stored_version(client, game) == v + 1
            game.sync_all()
            twin.ws.close()
            game.step(rng)


def test_repeated_client_id_is_not_applied_twice(client):
    rng = random.Random(3)
    seats = find_variant(VARIANT).seat_counts[0]
    with ExitStack() as stack:
        game = start_game(client, stack, VARIANT, seats, seed=777)
        seat, action = game.step(rng)
        cid = f"c{next(game.ids) - 1}"
        game.clients[seat].act(action, cid)
        ack = game.drain(game.clients[seat], lambda m: m["type"] in ("ack", "error"))
        assert ack["type"] == "ack" and ack["seq"] == game.version - 1 and ack["client_id"] == cid
        quiet(game, game.clients)
        assert stored_version(client, game) == game.version


def test_leak_checker_catches_a_foreign_hand(client):
    """The test harness itself: a message with another seat's cards is caught."""
    seats = find_variant(VARIANT).seat_counts[0]
    with ExitStack() as stack:
        game = start_game(client, stack, VARIANT, seats, seed=55)
        spy = game.clients[0]
        stolen = dict(game.clients[1].last_view)
        with pytest.raises(AssertionError):
            game.check(spy, stolen)
        with pytest.raises(AssertionError):
            game.check(spy, {"type": "chat", "version": 0, "text": " ".join(game.ref.view(1)["hand"])})


def test_a_failed_commit_is_not_acknowledged_and_rolled_back(client, kozyr, monkeypatch):
    """The database fails after the engine applied: error, no ack, the match is
    rebuilt from the log and play goes on."""
    from app.db import pg_writer, store
    rng = random.Random(9)
    seats = find_variant(VARIANT).seat_counts[0]
    # Every path logs actions through one of them (SQLite's writer, PostgreSQL's).
    real = {"record_actions": store.record_actions, "record_batch": pg_writer.record_batch}
    calls = {"n": 0}

    def failing_once(name):
        def flaky(*args, **kw):
            calls["n"] += 1
            if calls["n"] == 1:
                raise RuntimeError("disk on fire")
            return real[name](*args, **kw)
        return flaky

    with ExitStack() as stack:
        game = start_game(client, stack, VARIANT, seats, seed=606)
        game.step(rng)
        monkeypatch.setattr(store, "record_actions", failing_once("record_actions"))
        monkeypatch.setattr(pg_writer, "record_batch", failing_once("record_batch"))
        seat, action = game.choose(rng)
        game.clients[seat].act(action, "doomed")
        msg = game.drain(game.clients[seat], lambda m: m["type"] in ("ack", "error"))
        assert msg["type"] == "error" and msg["code"] == "internal"
        live = kozyr.live[game.room["match"]["id"]]
        assert live.version == game.version == stored_version(client, game)
        assert live.view(seat) == game.ref.view(seat)
        for c in game.clients:  # everyone is re-sent the (unchanged) state
            game.drain(c, lambda m: m["type"] == "view" and m["version"] == game.version)
        for _ in range(3):
            game.step(rng)
        assert stored_version(client, game) == game.version
