"""uvloop's event loop, with the listening socket's connections taken in batches.

libuv accepts ONE connection each time the loop polls (libuv 1.45, "unix: don't
accept() connections in a loop"), and relies on the listening socket still being
readable at the next poll.  A loop iteration of a busy server runs the Python work
of up to a thousand ready sockets: under a storm of joins on top of full play each
iteration took 0.5-1 s, so the server took one or two connections a second (strace:
one accept4 per epoll_pwait) while thousands waited in the kernel's queue, the queue
overflowed (TcpExt ListenOverflows) and the clients' SYNs were retried for minutes
(bench/results/server-2026-12-03d.txt).  asyncio's own loop takes up to ``backlog``
connections per wake-up (bpo-27906) and does not starve, but it costs more than
uvloop for everything else.

So ``create_server`` for a TCP host / port or socket, without TLS, listens itself: a
reader on the listening socket accepts up to ``BATCH`` connections each time the
loop finds it readable and hands each to uvloop's ``connect_accepted_socket``, which
makes the same transport uvloop's own server would.  Other servers (TLS, Unix
sockets) are uvloop's.  ``kozyr serve`` runs uvicorn with ``new_event_loop``."""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
from collections.abc import Callable
from typing import Any

import uvloop

log = logging.getLogger("kozyr.accept")

BATCH = 512  # connections taken per wake-up at most (the loop's other work goes on)
_RESOURCE_ERRORS = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


class BatchAcceptServer(asyncio.AbstractServer):
    """What uvicorn uses of a server (``sockets``, ``close``, ``wait_closed``) for
    listening sockets this loop accepts on itself."""

    def __init__(self, loop: BatchAcceptLoop, sockets: list[socket.socket],
                 protocol_factory: Callable[[], asyncio.BaseProtocol]) -> None:
        self._loop = loop
        self._sockets = sockets
        self._factory = protocol_factory
        self._pending: set[asyncio.Task] = set()
        self._serving = False
        self._closed = asyncio.Event()

    @property
    def sockets(self) -> tuple[socket.socket, ...]:
        return tuple(self._sockets)

    def get_loop(self) -> asyncio.AbstractEventLoop:
        return self._loop

    def is_serving(self) -> bool:
        return self._serving

    async def start_serving(self) -> None:
        if self._serving or self._closed.is_set():
            return
        self._serving = True
        for sock in self._sockets:
            self._loop.add_reader(sock.fileno(), self._accept, sock)

    async def serve_forever(self) -> None:
        await self.start_serving()
        await self._closed.wait()

    def close(self) -> None:
        if self._closed.is_set():
            return
        self._serving = False
        for sock in self._sockets:
            self._loop.remove_reader(sock.fileno())
            sock.close()
        self._closed.set()

    async def wait_closed(self) -> None:
        await self._closed.wait()
        if self._pending:  # connections accepted just before the close get their transports
            await asyncio.gather(*self._pending, return_exceptions=True)

    def _accept(self, sock: socket.socket) -> None:
        for _ in range(BATCH):
            try:
                conn, _addr = sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:  # the client gave up while queued
                continue
            except OSError as e:
                if e.errno not in _RESOURCE_ERRORS:
                    raise
                # Out of descriptors or memory: stop taking connections for a second (they
                # wait in the kernel's queue) rather than spin on a readable socket.
                log.error("accepting a connection failed: %s; pausing for a second", e)
                self._loop.remove_reader(sock.fileno())
                self._loop.call_later(1.0, self._resume, sock)
                return
            conn.setblocking(False)
            task = self._loop.create_task(self._connect(conn))
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)

    def _resume(self, sock: socket.socket) -> None:
        if self._serving:
            self._loop.add_reader(sock.fileno(), self._accept, sock)

    async def _connect(self, conn: socket.socket) -> None:
        try:
            await self._loop.connect_accepted_socket(self._factory, conn)
        except Exception as e:  # the client left already: nothing to serve
            log.debug("an accepted connection failed to start: %s", e)
            conn.close()


class BatchAcceptLoop(uvloop.Loop):  # type: ignore[misc]
    async def create_server(  # type: ignore[override]  # returns an AbstractServer
            self, protocol_factory: Callable[[], asyncio.BaseProtocol], host: Any = None,
            port: Any = None, *, sock: socket.socket | None = None, backlog: int = 100,
            ssl: Any = None, reuse_address: bool | None = None, reuse_port: bool | None = None,
            start_serving: bool = True, **kwargs: Any) -> asyncio.AbstractServer:
        if ssl is not None or kwargs or reuse_port or (sock is None and (host is None or port is None)) \
                or (sock is not None and sock.family not in (socket.AF_INET, socket.AF_INET6)):
            return await super().create_server(
                protocol_factory, host, port, sock=sock, backlog=backlog, ssl=ssl,
                reuse_address=reuse_address, reuse_port=reuse_port, start_serving=start_serving, **kwargs)
        if sock is None:
            infos = await self.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
            sockets: list[socket.socket] = []
            try:
                for info in dict.fromkeys(infos):  # each address once
                    sockets.append(_listen(info, backlog))
            except BaseException:
                for made in sockets:
                    made.close()
                raise
        else:
            sock.setblocking(False)
            sock.listen(backlog)
            sockets = [sock]
        server = BatchAcceptServer(self, sockets, protocol_factory)
        if start_serving:
            await server.start_serving()
        return server


def _listen(info: tuple, backlog: int) -> socket.socket:
    family, kind, proto, _, address = info
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
        sock.listen(backlog)
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    return sock


def new_event_loop() -> asyncio.AbstractEventLoop:
    return BatchAcceptLoop()
