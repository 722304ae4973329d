"""uvicorn's websocket protocol, with one fix: a handshake the websockets library refuses
while parsing it (a request line over 8 KiB — e.g. a 10 kB token in the URL — or
header lines too long / too many) gets the library's answer (414 / 431) at once.

uvicorn's own protocol leaves that answer unsent and the connection open, so such a
client waited forever (a plain GET of the same URL was answered at once)."""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class PromptRefusalProtocol(WebSocketsSansIOProtocol):
    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if (not self.handshake_complete and self.conn.handshake_exc is not None
                and not self.transport.is_closing()):
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.transport.close()
