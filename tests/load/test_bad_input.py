"""Bad input against a real server process (uvicorn and the websocket library in front
of the app, which the in-process test client skips): oversized messages up to the
hard cap get ``too_large`` and the connection stays; above the cap the socket closes
with 1009; an over-long request line gets a prompt refusal, never a hang; a client
that leaves before its refusal leaves no traceback in the log."""

from __future__ import annotations

import json
import socket
import time

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from .procs import METRICS_AUTH, Seat, ServerProc, new_table


def _upgrade(port: int, target: str, timeout: float = 5.0) -> tuple[float, bytes]:
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(timeout)
    req = (f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    start = time.monotonic()
    s.sendall(req.encode())
    try:
        data = s.recv(200)
    except TimeoutError:
        data = b""
    s.close()
    return time.monotonic() - start, data


def test_an_over_long_request_line_is_refused_at_once(server):
    for size in (9_000, 10_000, 70_000):
        took, answer = _upgrade(server.port, f"/api/rooms/ABCD2345/ws?token={'x' * size}")
        assert answer.startswith(b"HTTP/1.1 414"), (size, answer)
        assert took < 3.0
    # A header line over the limit: 431.
    s = socket.create_connection(("127.0.0.1", server.port))
    s.settimeout(5)
    s.sendall(("GET /api/rooms/ABCD2345/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               f"Sec-WebSocket-Version: 13\r\nX-Big: {'y' * 9000}\r\n\r\n").encode())
    assert s.recv(200).startswith(b"HTTP/1.1 431")
    s.close()
    # The same short request still opens a socket.
    _, answer = _upgrade(server.port, "/api/rooms/ABCD2345/ws")
    assert answer.startswith(b"HTTP/1.1 101")


def test_oversized_messages_up_to_the_hard_cap_get_too_large(server):
    code, _, players = new_table(server.base, "thousand-1000-2p", 2, {}, seed=1)
    ws = ws_connect(server.ws_url(code, players[0]["token"]), open_timeout=20, max_size=2**22, legacy=True)
    try:
        def next_of(kind: str) -> dict:
            while True:
                msg = json.loads(ws.recv(timeout=20))
                if msg["type"] == kind:
                    return msg
        next_of("view")
        for size in (65_537, 200 * 1024, 1024 * 1024, 4 * 1024 * 1024 - 64):
            ws.send(json.dumps({"type": "chat", "text": "x" * size}))
            err = next_of("error")
            assert err["code"] == "too_large", size
            ws.send(json.dumps({"type": "ping", "nonce": size}))
            assert next_of("pong")["nonce"] == size  # the connection stays
        # Over the hard cap: the server refuses the frame from its header and closes with
        # 1009.  The client may still be sending the rest of the 4 MiB when the socket goes,
        # and then the close frame is lost with the reset: the send itself fails.  Either
        # way the connection must end (a recv timeout would fail the test).
        with pytest.raises(ConnectionClosed) as closed:
            ws.send("x" * (4 * 1024 * 1024 + 1))
            while True:
                ws.recv(timeout=20)
        if closed.value.rcvd is not None:
            assert closed.value.rcvd.code == 1009
    finally:
        ws.close()


def test_clients_that_leave_early_leave_no_traceback(server):
    for _ in range(20):
        # Opened and dropped at once: the refusal (unknown room / bad token) finds nobody.
        s = socket.create_connection(("127.0.0.1", server.port))
        s.sendall(b"GET /api/rooms/NOPE2345/ws?token=x HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                   b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                   b"Sec-WebSocket-Version: 13\r\n\r\n")
        s.close()
    code, _, players = new_table(server.base, "thousand-1000-2p", 2, {}, seed=2)
    for _ in range(10):
        s = socket.create_connection(("127.0.0.1", server.port))
        s.sendall((f"GET /api/rooms/{code}/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                   "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        s.close()  # before its hello
    time.sleep(1.5)
    log = server.log_path.read_text(errors="replace")
    assert "Traceback" not in log and "WebSocketDisconnect" not in log, log[-3000:]


def test_a_client_that_does_not_read_is_dropped_and_the_room_plays_on(tmp_path):
    """A socket that does not read holds its sender back (uvicorn's send waits while
    the write buffer is full); once KOZYR_MAX_SEND_QUEUE messages wait behind it, it is
    dropped, and nobody else waits for it."""
    srv = ServerProc(f"sqlite:///{tmp_path / 'kozyr.db'}", tmp_path / "server.log",
                     KOZYR_MAX_SEND_QUEUE="64", KOZYR_MESSAGE_BURST="100000").start()
    try:
        code, _, players = new_table(srv.base, "thousand-1000-2p", 2, {}, seed=3)
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a reader that gives up early
        s.connect(("127.0.0.1", srv.port))
        s.settimeout(10)
        s.sendall((f"GET /api/rooms/{code}/ws?token={players[0]['token']} HTTP/1.1\r\nHost: x\r\n"
                   "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        assert s.recv(12).startswith(b"HTTP/1.1 101")
        hello = json.dumps({"type": "hello", "token": players[0]["token"]}).encode()
        frame = bytes([0x81, 0x80 | len(hello)]) + b"\0\0\0\0" + hello  # masked with a zero key
        start = time.monotonic()

        def dropped() -> bool:
            return "too slow; disconnecting" in srv.log_path.read_text(errors="replace")

        # Each hello is answered with the whole view (~600 B), never read: past what the
        # kernel holds for the socket (up to 4 MiB here), the server's own buffer grows.
        for _ in range(100):
            if dropped():
                break
            try:
                s.sendall(frame * 500)
            except OSError:
                break  # cut off already
            other = Seat(srv.ws_url(code, players[1]["token"]), 1)
            try:  # meanwhile the room answers others at once
                assert other.until(lambda m: m["type"] == "view", timeout=5)["match"]
            finally:
                other.close()
        deadline = time.monotonic() + 10
        while not dropped():
            assert time.monotonic() < deadline, srv.log_path.read_text(errors="replace")[-2000:]
            time.sleep(0.1)
        assert time.monotonic() - start < 60
        metrics = httpx.get(srv.base + "/metrics", headers=METRICS_AUTH).text
        assert "kozyr_slow_clients_total 1.0" in metrics
        s.close()
    finally:
        srv.stop()
