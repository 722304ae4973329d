"""uvicorn's websocket protocol, with two additions.

* A handshake the websockets library refuses while parsing it (a request line over
  8 KiB — e.g. a 10 kB token in the URL — or header lines too long / too many) gets
  the library's answer (414 / 431) at once.  uvicorn's own protocol leaves that
  answer unsent and the connection open, so such a client waited forever (a plain
  GET of the same URL was answered at once).
* A direct send: the scope's extension ``kozyr.direct`` is the connection itself,
  whose ``send_texts`` frames text messages and writes them to the socket at once,
  synchronously.  The hub (app/rooms/hub.py) sends every message this way: no
  queue, no sender task, no ASGI message per frame, and the messages of one moment
  (an ack and its view) in one write.  Everything else (accept, close, receive)
  stays ASGI.  While the connection is open and no extension was negotiated (the
  default: KOZYR_WS_DEFLATE off), a frame is its two-to-ten-byte header and the
  text (RFC 6455 5.2: a server's frames are not masked), built here: the
  library's frame objects cost about five times as much per message, at five messages
  an action.  Otherwise the library frames them.
* A direct receive, the same way round: while the connection is open, no extension
  was negotiated and the library's parser stands between two frames with nothing
  buffered, a chunk of bytes that is nothing but whole, final, masked text frames
  under 64 KiB is parsed here (``simple_text_frames``) and each text goes to the
  app's ASGI queue as the library's path would put it.  Anything else — a partial
  frame, a control frame (ping, close), a fragment, binary, bad UTF-8, a bigger
  frame — goes to the library whole, which was left exactly where such bytes find
  it.  And reading pauses only when ``PAUSE_AT`` messages wait unread, not after
  every message (uvicorn's way: two system calls per message to stop and start
  reading), so a flood is still held back by TCP."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.http11 import Request
from websockets.protocol import Protocol, State
from websockets.streams import StreamReader

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover  (the library's C part is missing)
    from websockets.utils import apply_mask

DIRECT = "kozyr.direct"
#: unread messages in the app's queue at which reading the socket pauses
PAUSE_AT = 8
#: the largest payload the direct receive parses (larger: the library's)
DIRECT_MAX = 65535

_AT_EOF = StreamReader.at_eof.__code__
_PARSE = Protocol.parse.__code__


class PromptRefusalProtocol(WebSocketsSansIOProtocol):
    def data_received(self, data: bytes) -> None:
        if self.handshake_complete and not self.close_sent and self._between_frames():
            limit = self.conn.max_message_size
            texts = simple_text_frames(data, DIRECT_MAX if limit is None else min(limit, DIRECT_MAX))
            if texts is not None:
                put = self.queue.put_nowait
                for text in texts:
                    put({"type": "websocket.receive", "text": text})
                self._pause_if_full()
                return
        super().data_received(data)
        if (not self.handshake_complete and self.conn.handshake_exc is not None
                and not self.transport.is_closing()):
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.transport.close()

    def send_receive_event_to_app(self) -> None:
        """The library's path of a message: as uvicorn's, but reading pauses only
        once ``PAUSE_AT`` messages wait (uvicorn pauses after each one)."""
        paused = self.read_paused
        self.read_paused = True  # uvicorn's own pause is skipped ...
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = paused
        self._pause_if_full()  # ... and taken here instead

    def _pause_if_full(self) -> None:
        """Stop reading the socket once ``PAUSE_AT`` messages wait for the app (uvicorn's
        ``receive`` starts it again when the queue is empty)."""
        if (not self.read_paused and self.queue.qsize() >= PAUSE_AT
                and not self.transport.is_closing()):
            self.read_paused = True
            self.transport.pause_reading()

    def _between_frames(self) -> bool:
        """The library's parser waits for the first byte of a frame, with no message
        begun and nothing buffered: bytes given to it now would start a new frame."""
        conn = self.conn
        if (conn.state is not State.OPEN or conn.extensions or conn.current_size is not None
                or conn.reader.buffer or conn.reader.eof):
            return False
        parser: Any = conn.parser  # ServerProtocol.parse -> Protocol.parse -> at_eof
        outer = parser.gi_yieldfrom
        inner = getattr(outer, "gi_yieldfrom", None)
        return (inner is not None and inner.gi_code is _AT_EOF
                and outer.gi_code is _PARSE and inner.gi_yieldfrom is None)

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][DIRECT] = self

    def send_texts(self, texts: Iterable[str]) -> int:
        """Frame ``texts`` and write them now, in one write; the bytes the transport
        still holds for this client afterwards, or -1 if the socket is closing."""
        if (self.disconnected or self.close_sent or not self.handshake_complete
                or self.initial_response is not None or self.transport.is_closing()):
            return -1
        conn = self.conn
        if conn.state is State.OPEN and not conn.extensions and not conn.expect_continuation_frame:
            out = conn.data_to_send()  # anything the library queued (a pong) goes first
            out.extend(map(text_frame, texts))
        else:
            try:
                for text in texts:
                    conn.send_text(text.encode())
            except InvalidState:
                return -1
            out = conn.data_to_send()
        self.transport.write(b"".join(out))
        return self.transport.get_write_buffer_size()

    def abort(self) -> None:
        """Drop the connection without a closing handshake (a client that does not read)."""
        self.transport.abort()


def text_frame(text: str) -> bytes:
    """One unmasked, final text frame holding ``text`` (RFC 6455 5.2)."""
    data = text.encode()
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + data
    return b"\x81\x7f" + n.to_bytes(8, "big") + data


def simple_text_frames(data: bytes, limit: int = DIRECT_MAX) -> list[str] | None:
    """The texts of ``data`` if it is one or more whole client frames, each final,
    masked, without reserved bits, of opcode text, at most ``limit`` bytes of
    valid UTF-8 (RFC 6455 5.2, 5.3); None if any part of it is anything else."""
    texts = []
    end = len(data)
    pos = 0
    while pos < end:
        if end - pos < 6 or data[pos] != 0x81:  # FIN, no RSV bits, opcode 1
            return None
        n = data[pos + 1]
        if n < 0x80:  # a client's frame is masked
            return None
        n &= 0x7F
        pos += 2
        if n == 126:
            if end - pos < 6:
                return None
            n = int.from_bytes(data[pos:pos + 2], "big")
            pos += 2
        elif n == 127:
            return None  # over 64 KiB: the library's
        start = pos + 4
        if n > limit or start + n > end:
            return None
        try:
            texts.append(apply_mask(data[start:start + n], data[pos:start]).decode())
        except UnicodeDecodeError:
            return None
        pos = start + n
    return texts or None
