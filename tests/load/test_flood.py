"""The flood guard against a real ``kozyr serve`` with the default rate limit (20
messages a second, 40 at once, KOZYR_FLOOD_CLOSE_AFTER 100): a client that sends 400
messages at once on one socket is answered for its burst, told ``rate_limited``, and
closed with 1008 once 100 in a row were refused; the room plays on for the others."""

from __future__ import annotations

import json
import time

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from .procs import Raw, Seat, ServerProc, new_table, ping

COUNT = 400
BURST = 40  # KOZYR_MESSAGE_BURST's default
CLOSE_AFTER = 100  # KOZYR_FLOOD_CLOSE_AFTER's default


@pytest.fixture(scope="module")
def limited(tmp_path_factory):
    """A server with the default message rate limit (the tests' servers lift it)."""
    path = tmp_path_factory.mktemp("flood")
    srv = ServerProc(f"sqlite:///{path / 'kozyr.db'}", path / "server.log",
                     KOZYR_MESSAGES_PER_SECOND="20").start()
    yield srv
    srv.stop()


def test_400_messages_in_one_write_close_the_socket_with_1008(limited):
    code, _, players = new_table(limited.base, "thousand-1000-2p", 2, {}, seed=1)
    raw = Raw(limited, code, players[0]["token"])
    try:
        raw.next_message("view")
        raw.sock.sendall(b"".join(ping(i) for i in range(COUNT)))
        pongs, refusals = [], 0
        while True:
            opcode, payload = raw.next_frame()
            if opcode == 8:
                close_code = int.from_bytes(payload[:2], "big")
                break
            if opcode == 1:
                msg = json.loads(payload)
                if msg["type"] == "pong":
                    pongs.append(msg["nonce"])
                elif msg["type"] == "error":
                    assert msg["code"] == "rate_limited", msg
                    refusals += 1
        assert close_code == 1008
        # The burst was answered in order; the refill (20 a second) may let a few more in.
        assert pongs[:BURST] == list(range(BURST)) and len(pongs) < BURST + 20, pongs
        assert refusals >= 1  # told why (not once per refused message)
        assert len(pongs) + CLOSE_AFTER <= COUNT
    finally:
        raw.close()
    # The room and the server are fine: the other seat joins and gets its view.
    other = Seat(limited.ws_url(code, players[1]["token"]), 1)
    try:
        assert other.until(lambda m: m["type"] == "view")["match"]
    finally:
        other.close()


def test_400_messages_sent_back_to_back_by_a_websocket_client_are_closed_with_1008(limited):
    """The same flood from the websockets library's client, one send per message."""
    code, _, players = new_table(limited.base, "thousand-1000-2p", 2, {}, seed=2)
    ws = ws_connect(limited.ws_url(code, players[0]["token"]), open_timeout=20, legacy=True)
    try:
        for i in range(COUNT):
            try:
                ws.send(json.dumps({"type": "ping", "nonce": i}))
            except ConnectionClosed:
                break  # closed before the last one went out
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=20)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    finally:
        ws.close()


def test_a_flood_paced_at_1000_a_second_is_closed_with_1008(limited):
    """A flood that is not sent at once: 1,000 messages a second, so the refill (20 a
    second) lets one in every fifty or so.  Such a message leaves the bucket empty and
    must not start the count again (before, each one did, and the socket stayed open
    however long the flood went on)."""
    code, _, players = new_table(limited.base, "thousand-1000-2p", 2, {}, seed=3)
    raw = Raw(limited, code, players[0]["token"])
    try:
        raw.next_message("view")
        sent = 0
        for i in range(COUNT):
            try:
                raw.sock.sendall(ping(i))
            except OSError:
                break  # closed already
            sent += 1
            time.sleep(0.001)
        close_code, pongs = None, 0
        while True:
            opcode, payload = raw.next_frame()
            if opcode == 8:
                close_code = int.from_bytes(payload[:2], "big")
                break
            if opcode == 1 and json.loads(payload)["type"] == "pong":
                pongs += 1
        assert close_code == 1008
        # the burst and what the refill let in over the flood's time, never the flood
        assert BURST <= pongs < sent - CLOSE_AFTER, pongs
    finally:
        raw.close()
