"""The direct receive (app/wsserver.py) against a real server process, through a raw
socket that cuts the client's frames where TCP may: several frames in one segment,
one frame byte by byte, a frame and the start of the next, a fragmented message, a
ping between texts, a burst past the reading pause.  Every message is answered, in
order; what the direct path does not take (bad UTF-8, an unmasked frame) closes the
connection with the library's codes, as before."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import time

import pytest

from app.wsserver import PAUSE_AT

from .procs import ServerProc, new_table


def frame(payload: bytes, opcode: int = 1, fin: bool = True, masked: bool = True) -> bytes:
    """A client's frame (RFC 6455 5.2), masked unless told not to."""
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    bit = 0x80 if masked else 0
    if n < 126:
        head += bytes([bit | n])
    elif n < 65536:
        head += bytes([bit | 126]) + struct.pack("!H", n)
    else:
        head += bytes([bit | 127]) + struct.pack("!Q", n)
    if not masked:
        return head + payload
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def ping(nonce: int) -> bytes:
    return frame(json.dumps({"type": "ping", "nonce": nonce}).encode())


class Raw:
    """A websocket client on a bare socket: it writes bytes as told and reads frames."""

    def __init__(self, srv: ServerProc, code: str, token: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", srv.port), timeout=20)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /api/rooms/{code}/ws?token={token} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            self.buf += self._recv()
        head, _, self.buf = self.buf.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head

    def _recv(self) -> bytes:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("closed")
        return data

    def _need(self, n: int) -> None:
        while len(self.buf) < n:
            self.buf += self._recv()

    def next_frame(self) -> tuple[int, bytes]:
        self._need(2)
        opcode, n = self.buf[0] & 0x0F, self.buf[1] & 0x7F
        pos = 2
        if n == 126:
            self._need(4)
            n, pos = struct.unpack("!H", self.buf[2:4])[0], 4
        elif n == 127:
            self._need(10)
            n, pos = struct.unpack("!Q", self.buf[2:10])[0], 10
        self._need(pos + n)
        payload, self.buf = self.buf[pos:pos + n], self.buf[pos + n:]
        return opcode, payload

    def next_message(self, kind: str) -> dict:
        while True:
            opcode, payload = self.next_frame()
            if opcode == 1:
                msg = json.loads(payload)
                if msg["type"] == kind:
                    return msg

    def pongs(self, count: int) -> list[int]:
        return [self.next_message("pong")["nonce"] for _ in range(count)]

    def close_code(self) -> int:
        while True:
            opcode, payload = self.next_frame()
            if opcode == 8:
                return struct.unpack("!H", payload[:2])[0]

    def dribble(self, data: bytes, step: int = 1) -> None:
        """``data`` a few bytes per write, each write its own segment."""
        for i in range(0, len(data), step):
            self.sock.sendall(data[i:i + step])
            time.sleep(0.002)

    def close(self) -> None:
        self.sock.close()


def _seat(server: ServerProc, seed: int) -> Raw:
    code, _, players = new_table(server.base, "thousand-1000-2p", 2, {}, seed=seed)
    raw = Raw(server, code, players[0]["token"])
    raw.next_message("view")
    return raw


def test_frames_cut_anywhere_are_each_answered_in_order(server):
    raw = _seat(server, 1)
    try:
        raw.sock.sendall(ping(1) + ping(2) + ping(3))  # three frames, one segment
        assert raw.pongs(3) == [1, 2, 3]
        raw.dribble(ping(4))  # one frame, byte by byte
        assert raw.pongs(1) == [4]
        both = ping(5) + ping(6)
        cut = len(ping(5)) + 3  # a frame and the first bytes of the next
        raw.sock.sendall(both[:cut])
        time.sleep(0.05)
        raw.sock.sendall(both[cut:])
        assert raw.pongs(2) == [5, 6]
        text = json.dumps({"type": "ping", "nonce": 7}).encode()  # one message in two fragments
        raw.sock.sendall(frame(text[:10], fin=False) + frame(text[10:], opcode=0, fin=True) + ping(8))
        assert raw.pongs(2) == [7, 8]
        raw.sock.sendall(ping(9) + frame(b"are you there", opcode=9) + ping(10))  # a control frame between
        got = [raw.next_frame() for _ in range(3)]  # the library answers the ping at once
        assert (10, b"are you there") in got
        assert [json.loads(d)["nonce"] for op, d in got if op == 1] == [9, 10]
        big = json.dumps({"type": "ping", "nonce": 11, "pad": "Тысяча" * 6000}).encode()
        assert 65535 < len(big) < 64 * 1024 * 1024
        raw.sock.sendall(frame(big) + ping(12))  # a frame past the direct path's size
        err = raw.next_message("error")
        assert err["code"] in ("too_large", "bad_message")
        assert raw.pongs(1) == [12]
    finally:
        raw.close()


def test_a_burst_past_the_reading_pause_is_answered_whole(server):
    raw = _seat(server, 2)
    try:
        count = PAUSE_AT * 4
        raw.sock.sendall(b"".join(ping(100 + i) for i in range(count)))
        assert raw.pongs(count) == [100 + i for i in range(count)]
        raw.sock.sendall(ping(1))  # and reading went on afterwards
        assert raw.pongs(1) == [1]
    finally:
        raw.close()


@pytest.mark.parametrize(("bad", "code"), [
    (frame(b'{"type":"ping","nonce":"\xff"}'), 1007),  # not UTF-8
    (frame(b'{"type":"ping","nonce":1}', masked=False), 1002),  # a client's frame unmasked
])
def test_what_the_direct_path_leaves_to_the_library_closes_as_before(server, bad, code):
    raw = _seat(server, 3)
    try:
        raw.sock.sendall(ping(1))
        assert raw.pongs(1) == [1]
        raw.sock.sendall(bad)
        assert raw.close_code() == code
    finally:
        raw.close()
