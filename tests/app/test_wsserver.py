"""The direct send's own framing (app/wsserver.py text_frame) against the websockets
library's, byte for byte, at each of RFC 6455's three length encodings."""

from __future__ import annotations

import pytest
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol

from app.wsserver import text_frame


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
