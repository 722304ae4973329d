"""Receiving against a real server process (uvicorn's websocket implementation in
front of the app), through a raw socket that cuts the client's frames where TCP may:
several frames in one segment, one frame byte by byte, a frame and the start of the
next, a fragmented message, a ping between texts, a burst that uvicorn's reading pause
holds back.  Every message is answered, in order; bad UTF-8 and an unmasked frame
close the connection with the library's codes."""

from __future__ import annotations

import json
import time

import pytest

from .procs import Raw, ServerProc, frame, new_table, ping


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
        raw.sock.sendall(frame(big) + ping(12))  # a frame with a 64-bit length
        err = raw.next_message("error")
        assert err["code"] in ("too_large", "bad_message")
        assert raw.pongs(1) == [12]
    finally:
        raw.close()


def test_a_burst_in_one_write_is_answered_whole(server):
    raw = _seat(server, 2)
    try:
        count = 32  # fewer than the default burst of the rate limit (40)
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
def test_bad_frames_close_with_the_librarys_codes(server, bad, code):
    raw = _seat(server, 3)
    try:
        raw.sock.sendall(ping(1))
        assert raw.pongs(1) == [1]
        raw.sock.sendall(bad)
        assert raw.close_code() == code
    finally:
        raw.close()
