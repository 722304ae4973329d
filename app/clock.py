"""The wall clock deadlines read (app/rooms/deadlines.py): the system's, moved on by
``offset`` seconds.  Tests set the offset (``Clock.advance``) or, for a server in
another process, write it into the file named by ``KOZYR_CLOCK_FILE`` (a number of
seconds; read again when the file changes) — deadlines are tested by moving the
clock, never by sleeping.  Production has no file: the offset stays 0."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta


class Clock:
    def __init__(self, offset_file: str | None = None) -> None:
        self.offset = 0.0
        self.offset_file = offset_file
        self._file_stamp: float | None = None
        self._file_offset = 0.0

    def advance(self, seconds: float) -> None:
        self.offset += seconds

    def _from_file(self) -> float:
        if not self.offset_file:
            return 0.0
        try:
            stamp = os.stat(self.offset_file).st_mtime_ns
        except OSError:
            return 0.0
        if stamp != self._file_stamp:
            try:
                with open(self.offset_file, encoding="ascii") as f:
                    self._file_offset = float(f.read().strip() or 0)
            except (OSError, ValueError):
                self._file_offset = 0.0
            self._file_stamp = stamp
        return self._file_offset

    def now(self) -> datetime:
        return datetime.now(UTC) + timedelta(seconds=self.offset + self._from_file())
