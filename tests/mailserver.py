"""A real local SMTP server for the tests (aiosmtpd): every mail it is handed is kept
and can be waited for; a script of statuses makes it refuse first."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes, policy

from aiosmtpd.controller import Controller


class Inbox:
    """aiosmtpd's handler: keeps every mail; answers the statuses of ``script`` first."""

    def __init__(self) -> None:
        self.mails: list = []
        self.script: list[str] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            if self.script:
                return self.script.pop(0)
            self.mails.append(message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"

    def to(self, address: str) -> list:
        with self.lock:
            return [mail for mail in self.mails if mail["To"] == address]

    def wait(self, address: str, count: int = 1, timeout: float = 15.0) -> list:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.to(address)
            if len(got) >= count:
                return got
            time.sleep(0.05)
        raise AssertionError(f"{address} got {len(self.to(address))} mails, wanted {count}")


@contextmanager
def running_inbox() -> Iterator[Inbox]:
    """An Inbox behind an SMTP server on a free local port (``inbox.port``)."""
    box = Inbox()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    box.port = port  # type: ignore[attr-defined]
    try:
        yield box
    finally:
        controller.stop()
