"""A server of its own whose deadline clock the test moves (``KOZYR_CLOCK_FILE``,
app/clock.py): a turn-based deadline passes without sleeping."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from .conftest import _free_port, start_server, stop_server


@contextmanager
def clocked_server(tmp: Path):
    """Yields (base URL, advance(seconds)): the server's deadline clock moved on by ``seconds``."""
    clock = tmp / "clock-offset"
    clock.write_text("0")
    proc, base = start_server(tmp, _free_port(), KOZYR_CLOCK_FILE=str(clock))

    def advance(seconds: float) -> None:
        clock.write_text(str(float(clock.read_text()) + seconds))
    try:
        yield base, advance
    finally:
        stop_server(proc)
