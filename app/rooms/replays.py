"""Engine matches rebuilt from the log for the history routes, kept per (match, version).

The history of a match (its detail, a deal's positions, its export) is read from an
engine match replayed from the stored log (rule C-3), in a worker thread.  Replays are
kept per version: a finished match's for good (until ``history_cache`` newer ones push
it out), a running match's until its next action, so the spectators of a running
match share one replay per version instead of each replaying it.  Requests for a
version being replayed wait for that replay rather than start another.  A kept match
is shared by every reader: history only reads it."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from .engines import new_engine
from .live import played_log

if TYPE_CHECKING:  # pragma: no cover
    from engine import Match

    from ..db import models as m


class ReplayCache:
    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[str, int], Match] = OrderedDict()  # (match id, version)
        self._busy: dict[tuple[str, int], threading.Event] = {}  # replays under way
        self._lock = threading.Lock()  # used from worker threads
        self.made = 0  # replays made (tests)

    def get(self, row: m.Match, actions: list) -> Match:
        """The engine match of ``row`` with its log ``actions`` applied (take-backs skipped)."""
        key = (row.id, len(actions))
        while True:
            with self._lock:
                match = self._kept.get(key)
                if match is not None:
                    self._kept.move_to_end(key)
                    return match
                busy = self._busy.get(key)
                mine = busy is None
                if mine:
                    busy = self._busy[key] = threading.Event()
            assert busy is not None
            if not mine:
                busy.wait()  # then its result, or (it failed) a try of our own
                continue
            try:
                match = self._replay(row, actions)
                self._keep(key, match)
                return match
            finally:
                with self._lock:
                    del self._busy[key]
                busy.set()

    def _replay(self, row: m.Match, actions: list) -> Match:
        match = new_engine(row.variant, row.seat_count, seed=row.seed, options=row.options,
                           first_dealer=row.first_dealer, preset_deals=row.preset_deals,
                           deal_seeds=row.deal_seeds)
        for a in played_log(actions):  # take-backs skipped (app/rooms/live.py)
            match.apply(a.seat, a.action)
        self.made += 1
        return match

    def _keep(self, key: tuple[str, int], match: Match) -> None:
        with self._lock:
            same = [k for k in self._kept if k[0] == key[0]]
            if any(k[1] > key[1] for k in same):
                return  # a later version is kept already: this one is asked for no more
            for old in same:
                del self._kept[old]  # an earlier version of the same match: likewise
            self._kept[key] = match
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
