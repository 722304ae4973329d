"""A match that ended (finished, or stopped by its host) tells its people by push (kind
``finished``): the match loop calls ``match_over`` after the last action's commit, on
the process that committed it (app/rooms/loop.py); this wraps the standings and
ratings (app/ratings.py) the loop calls there and adds the push after them."""

from __future__ import annotations

import logging

from anyio import to_thread
from sqlalchemy import select

from ..db import models as m
from ..db.session import Database
from ..rooms.ports import MatchResults, Notify

log = logging.getLogger("kozyr.push")


def ended_match(s, match_id: str) -> tuple[str, list[int], int | None] | None:
    """(room code, the people of the match, the player of its last action) of an ended match."""
    row = s.execute(select(m.Room.code, m.Match.status).join(m.Match, m.Match.room_id == m.Room.id)
                    .where(m.Match.id == match_id)).first()
    if row is None or row[1] == "playing":
        return None
    seats = s.execute(select(m.MatchPlayer.seat_no, m.MatchPlayer.player_id)
                      .join(m.Player, m.Player.id == m.MatchPlayer.player_id)
                      .where(m.MatchPlayer.match_id == match_id, m.Player.bot_level.is_(None))).all()
    last = s.scalar(select(m.Action.seat).where(m.Action.match_id == match_id)
                    .order_by(m.Action.seq.desc()).limit(1))
    actor = next((pid for seat, pid in seats if seat == last), None)
    return row[0], [pid for _, pid in seats], actor


class MatchEnds:
    """MatchResults for the loop: the standings first, then the pushes."""

    def __init__(self, results: MatchResults, db: Database, notifier: Notify, present) -> None:
        self.results = results
        self.db = db
        self.notifier = notifier
        self.present = present  # room code -> players with it open now (Hub.connected_players)

    async def match_over(self, match_id: str) -> None:
        await self.results.match_over(match_id)
        try:
            def read() -> tuple[str, list[int], int | None] | None:
                with self.db.read() as s:
                    return ended_match(s, match_id)
            found = await to_thread.run_sync(read)
            if found is None:
                return
            code, people, actor = found
            present = self.present(code)
            for pid in people:
                if pid != actor and pid not in present:
                    self.notifier.notify(pid, "finished", room=code, match=match_id)
        except Exception:
            log.exception("match %s: its end not notified", match_id)
