"""Reconnecting, presence, spectators and chat."""

from __future__ import annotations

import random
from contextlib import ExitStack

import pytest

from engine import VARIANTS, find_variant

from .helpers import auth, connect, make_room, new_player
from .test_live import start_game

pytestmark = pytest.mark.skipif(not VARIANTS, reason="no variant registered yet")
VARIANT = VARIANTS[0] if VARIANTS else None


def test_reconnect_mid_deal_gets_what_it_missed(client):
    rng = random.Random(8)
    seats = find_variant(VARIANT).seat_counts[0]
    with ExitStack() as stack:
        game = start_game(client, stack, VARIANT, seats, seed=2024)
        for _ in range(4):
            game.step(rng)
        # Seat 1 drops; the others see it away.
        gone = game.clients[1]
        gone.ws.close()
        msg, _ = game.clients[0].recv_until(
            lambda m: m["type"] == "presence" and not m["seats"][1]["connected"])
        assert msg["seats"][0]["connected"]
        # Play on while seat 1 is away (as long as it is not seat 1's turn).
        others = [c for c in game.clients if c is not gone]
        game.clients = others
        played = 0
        while 1 not in game.ref.to_act() and played < 10:
            seat, action = game.choose(rng)
            idx = [c.seat for c in others].index(seat)
            c = others[idx]
            c.act(action, f"r{played}")
            ack, _ = c.recv_until(lambda m: m["type"] in ("ack", "error"))
            assert ack["type"] == "ack", ack
            game.ref.apply(seat, action)
            game.tracker.observe(game.ref, game.ref._locations())
            game.sync_all()
            played += 1
        # Back with the same token and the last version it saw: a fresh view.
        back = connect(client, stack, game.room["code"], game.players[1], 1, hello=True,
                       last_version=gone.last_view["version"])
        welcome, _ = back.recv_until(lambda m: m["type"] == "welcome")
        assert welcome["seat"] == 1 and welcome["version"] == game.version
        view = game.drain(back, lambda m: m["type"] == "view")
        assert view["version"] == game.version and view["view"] == game.ref.view(1)
        game.clients = sorted(others + [back], key=lambda c: c.seat)
        msg, _ = game.clients[0].recv_until(
            lambda m: m["type"] == "presence" and m["seats"][1]["connected"])
        for _ in range(3):
            game.step(rng)


def test_spectator_sees_the_public_view(client):
    rng = random.Random(2)
    seats = find_variant(VARIANT).seat_counts[0]
    with ExitStack() as stack:
        game = start_game(client, stack, VARIANT, seats, seed=31)
        watcher = connect(client, stack, game.room["code"], new_player(client), None)
        welcome, _ = watcher.recv_until(lambda m: m["type"] == "welcome")
        assert welcome["seat"] is None
        view = game.drain(watcher, lambda m: m["type"] == "view")
        assert view["view"] == game.ref.view(None) and view["view"]["hand"] == []
        presence, _ = game.clients[0].recv_until(lambda m: m["type"] == "presence" and m["spectators"] == 1)
        game.clients.append(watcher)
        for _ in range(5):
            game.step(rng)


def test_chat_is_stored_limited_and_shared(client, kozyr):
    room, players = make_room(client, VARIANT, find_variant(VARIANT).seat_counts[0], start=False)
    code = room["code"]
    with ExitStack() as stack:
        a = connect(client, stack, code, players[0], 0)
        b = connect(client, stack, code, players[1], 1)
        for c in (a, b):
            c.recv_until(lambda m: m["type"] == "view")
        a.send({"type": "chat", "text": "  Привет, Żółw! 🂡  "})
        for c in (a, b):
            msg, _ = c.recv_until(lambda m: m["type"] == "chat")
            assert msg["text"] == "Привет, Żółw! 🂡" and msg["seat"] == 0
            assert msg["name"] == players[0]["name"] and msg["version"] == 0
        a.send({"type": "chat", "text": "x" * (kozyr.settings.max_chat_length + 1)})
        assert a.recv_until(lambda m: m["type"] == "error")[0]["code"] == "chat_invalid"
        a.send({"type": "chat", "text": "bad\x07bell"})
        assert a.recv_until(lambda m: m["type"] == "error")[0]["code"] == "chat_invalid"
        codes = []
        for i in range(kozyr.settings.chat_burst + 2):
            b.send({"type": "chat", "text": f"spam {i}"})
            codes.append(b.recv_until(lambda m: m["type"] in ("chat", "error") and
                                      (m["type"] == "error" or m["player"] == players[1]["id"]))[0])
        assert codes[-1]["type"] == "error" and codes[-1]["code"] == "rate_limited"
        assert codes[0]["type"] == "chat"
    stored = client.get(f"/api/rooms/{code}/chat").json()
    assert stored[0]["text"] == "Привет, Żółw! 🂡"
    assert len(stored) == 1 + kozyr.settings.chat_burst


def test_seat_changes_reach_the_room(client):
    room, players = make_room(client, VARIANT, find_variant(VARIANT).seat_counts[0], start=False)
    code = room["code"]
    with ExitStack() as stack:
        a = connect(client, stack, code, players[0], 0)
        a.recv_until(lambda m: m["type"] == "view")
        r = client.delete(f"/api/rooms/{code}/seats/1", headers=auth(players[1]))
        assert r.status_code == 200
        msg, _ = a.recv_until(lambda m: m["type"] == "room" and m["room"]["seats"][1]["player"] is None)
        assert msg["room"]["status"] == "waiting"
        # The host may also free a seat.
        client.post(f"/api/rooms/{code}/seats/1", headers=auth(players[1]))
        assert client.delete(f"/api/rooms/{code}/seats/1", headers=auth(players[0])).status_code == 200
        # Without a match an action is refused clearly.
        a.act("pass", "early")
        assert a.recv_until(lambda m: m["type"] == "error")[0]["code"] == "no_match"
