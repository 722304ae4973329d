"""The direct send's own framing (app/wsserver.py text_frame) against the websockets
library's, byte for byte, at each of RFC 6455's three length encodings; the direct
receive's parsing (simple_text_frames) against the library's, and its test of where
the library's parser stands (_between_frames) against the installed library."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol

from app.wsserver import DIRECT_MAX, PromptRefusalProtocol, simple_text_frames, text_frame


@pytest.mark.parametrize("text", ["", "{}", "x" * 125, "x" * 126, "y" * 65535, "z" * 65536,
                                  "Тысяча ♠♥ " * 9, "Król ♦" * 20000])
def test_text_frame_is_the_libraries_frame(text):
    library = ServerProtocol()
    library.state = State.OPEN
    library.send_text(text.encode())
    assert text_frame(text) == b"".join(library.data_to_send())


def test_text_frame_parses_back_unmasked_and_final():
    text = "Кинг " * 40
    frames = []

    def read(data: bytes):
        pos = 0

        def read_exact(n: int):
            nonlocal pos
            chunk = data[pos:pos + n]
            pos += n
            return chunk
            yield  # a generator, as Frame.parse wants

        return read_exact

    parser = Frame.parse(read(text_frame(text)), mask=False)
    try:
        next(parser)
    except StopIteration as done:
        frames.append(done.value)
    assert frames[0].opcode is Opcode.TEXT and frames[0].fin
    assert frames[0].data.decode() == text


def _client_frame(text: str, opcode: Opcode = Opcode.TEXT, fin: bool = True) -> bytes:
    return Frame(opcode, text.encode(), fin).serialize(mask=True)


def test_simple_text_frames_read_what_the_library_reads():
    texts = ["", "{}", "x" * 125, "x" * 126, "Тысяча ♠♥ " * 900, "y" * DIRECT_MAX]
    data = b"".join(_client_frame(t) for t in texts)
    assert simple_text_frames(data) == texts
    library = _open_library()
    library.receive_data(data)
    assert [f.data.decode() for f in library.events_received()] == texts


@pytest.mark.parametrize("data", [
    b"",
    _client_frame("ab")[:-1],  # a frame cut short
    _client_frame("ab") + _client_frame("cd")[:3],  # a whole frame and the start of the next
    _client_frame("ab", fin=False),  # a fragment
    _client_frame("ab", Opcode.CONT),
    _client_frame("ab", Opcode.BINARY),
    _client_frame("ab", Opcode.PING),
    _client_frame("ab", Opcode.CLOSE),
    Frame(Opcode.TEXT, b"ab").serialize(mask=False),  # a client's frame unmasked
    bytes([0xC1]) + _client_frame("ab")[1:],  # a reserved bit (RSV1)
    Frame(Opcode.TEXT, b"\xff\xfe").serialize(mask=True),  # not UTF-8
    _client_frame("z" * (DIRECT_MAX + 1)),  # over the direct path's size
])
def test_simple_text_frames_leave_anything_else_to_the_library(data):
    assert simple_text_frames(data) is None


def test_a_limit_below_the_direct_size_is_kept():
    assert simple_text_frames(_client_frame("x" * 100), limit=99) is None
    assert simple_text_frames(_client_frame("x" * 99), limit=99) == ["x" * 99]


def _open_library() -> ServerProtocol:
    """The library's server side after a real opening handshake."""
    library = ServerProtocol()
    key = "dGhlIHNhbXBsZSBub25jZQ=="
    library.receive_data((f"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    [request] = library.events_received()
    library.send_response(library.accept(request))
    library.data_to_send()
    assert library.state is State.OPEN
    return library


def test_between_frames_follows_the_installed_librarys_parser():
    """The direct receive takes bytes only where the library would start a new frame:
    this reads the library's parser as installed, so an upgrade that moves it turns
    the direct path off (and this test red), never on at the wrong moment."""
    library = _open_library()
    proto = SimpleNamespace(conn=library)

    def between() -> bool:
        return PromptRefusalProtocol._between_frames(proto)  # type: ignore[arg-type]

    assert between()
    frame = _client_frame("hello")
    library.receive_data(frame[:1])
    assert not between()  # a header begun
    library.receive_data(frame[1:2])
    assert not between()  # the header read, nothing buffered, the mask awaited
    library.receive_data(frame[2:])
    assert between()
    library.receive_data(_client_frame("he", fin=False))
    assert not between()  # a message begun
    library.receive_data(_client_frame("llo", Opcode.CONT))
    assert between()
    assert [f.data for f in library.events_received()] == [b"hello", b"he", b"llo"]
    library.receive_data(Frame(Opcode.CLOSE, b"\x03\xe8").serialize(mask=True))
    assert not between()  # closing


def test_the_library_has_the_mask_speedup():
    """The direct receive unmasks with the library's C helper (a pure-Python mask
    would cost more than the parse it saves)."""
    from websockets import speedups

    from app import wsserver
    assert wsserver.apply_mask is speedups.apply_mask
