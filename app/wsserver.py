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
  an action.  Otherwise the library frames them."""

from __future__ import annotations

from collections.abc import Iterable

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.http11 import Request
from websockets.protocol import State

DIRECT = "kozyr.direct"


class PromptRefusalProtocol(WebSocketsSansIOProtocol):
    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if (not self.handshake_complete and self.conn.handshake_exc is not None
                and not self.transport.is_closing()):
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.transport.close()

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
