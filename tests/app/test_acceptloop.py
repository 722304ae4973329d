"""The event loop ``kozyr serve`` runs (app/acceptloop.py): uvloop, with the listening
socket's queued connections taken in batches rather than one per loop iteration.

Counted in loop iterations, not seconds: every iteration here runs one callback that
holds the loop 5 ms, as a busy server's iterations run the work of many sockets."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest
import uvloop

from app.acceptloop import BatchAcceptServer, new_event_loop

QUEUED = 300


def iterations_to_accept(loop: asyncio.AbstractEventLoop) -> tuple[int, type, list]:
    """Queue QUEUED connections (the kernel completes them; nobody accepts yet), then
    run the loop with one 5 ms callback per iteration: the iterations it took until the
    server had made a transport for every one, the server's type, each transport's
    TCP_NODELAY."""
    made: list[int] = []  # each transport's TCP_NODELAY

    class Proto(asyncio.Protocol):
        def connection_made(self, transport) -> None:  # type: ignore[override]
            made.append(transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    async def main() -> tuple[int, type]:
        server = await loop.create_server(Proto, "127.0.0.1", 0, backlog=1024)
        port = server.sockets[0].getsockname()[1]
        clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(QUEUED)]
        ticks = 0

        def busy() -> None:
            nonlocal ticks
            ticks += 1
            time.sleep(0.005)
            if len(made) < QUEUED and ticks < 2 * QUEUED:
                loop.call_soon(busy)

        loop.call_soon(busy)
        while len(made) < QUEUED and ticks < 2 * QUEUED:
            await asyncio.sleep(0)
        for c in clients:
            c.close()
        server.close()
        await server.wait_closed()
        return ticks, type(server)

    try:
        ticks, kind = loop.run_until_complete(main())
    finally:
        loop.close()
    return ticks, kind, made


def test_queued_connections_are_taken_in_one_wake_up():
    ticks, kind, made = iterations_to_accept(new_event_loop())
    assert kind is BatchAcceptServer
    assert len(made) == QUEUED
    assert ticks <= 3, f"{ticks} busy iterations to accept {QUEUED} queued connections"
    # uvloop's own TCP transports, as its server makes them (no Nagle delay)
    assert set(made) == {1}


def test_uvloop_alone_takes_one_connection_per_iteration():
    """Why app/acceptloop.py exists: libuv's server accepts one connection per poll."""
    ticks, kind, made = iterations_to_accept(uvloop.new_event_loop())
    assert kind is not BatchAcceptServer
    assert ticks >= QUEUED * 0.9, f"uvloop accepted {len(made)} in {ticks} iterations"


def test_a_closed_server_refuses_new_connections():
    loop = new_event_loop()

    async def main() -> None:
        server = await loop.create_server(asyncio.Protocol, "127.0.0.1", 0)
        assert server.is_serving()
        port = server.sockets[0].getsockname()[1]
        server.close()
        await server.wait_closed()
        assert not server.is_serving()
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=2)

    try:
        loop.run_until_complete(main())
    finally:
        loop.close()


def test_unix_socket_servers_stay_uvloops(tmp_path):
    loop = new_event_loop()

    async def main() -> None:
        server = await loop.create_unix_server(asyncio.Protocol, str(tmp_path / "s.sock"))
        assert not isinstance(server, BatchAcceptServer)
        server.close()
        await server.wait_closed()

    try:
        loop.run_until_complete(main())
    finally:
        loop.close()
