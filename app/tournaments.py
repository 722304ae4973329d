"""Club tournaments (issue 37 item 4; README "Clubs", Tournaments): who may do what,
the standings, and the rounds opened by themselves.

A tournament copies a club preset's rules when it is made (variant, options, room
defaults; the preset's seat count is the table size).  Its admins choose entrants,
or members sign up, until the start.  At the start, and whenever every table of the
latest round has ended, the next round is paired (app/tournament_pairing.py) and its
tables opened as club rooms by the one path of a new room (``RoomService.create_room``
with the entrants seated in the same transaction), each match started by the one
path of a start (``Play.start_match``, its host the entrant in seat 0): a player who
is away is played for by the room's own bot rules (the preset's turn timeout, or a
turn-based room's deadlines).  A table's result is its match's standings, written
where every ended match's are (app/ratings.py); ``match_ended`` is told after them
and opens the next round.  The round is claimed in a transaction that locks the
tournament row, so two tables ending together (even in two processes) open it once."""

from __future__ import annotations

import asyncio
import logging
import math
import random
import secrets
from dataclasses import dataclass

from anyio import to_thread
from sqlalchemy.orm import Session

from .clubs import Clubs, named, table_csv
from .db import clubs as csql
from .db import models as m
from .db import tournaments as sql
from .db.session import Database
from .rooms.play import Play
from .rooms.service import RoomService
from .tournament_pairing import Round, circle_round, round_robin_cycle, spread_round, swiss_round

log = logging.getLogger("kozyr.tournaments")

MAX_ENTRANTS = 32
MAX_ROUNDS = 100
STANDINGS_CSV = ["rank", "player", "name", "points", "matches", "byes", "wins", "average_place",
                 "buchholz", "head_to_head"]
PACE_FIELDS = ("pace", "move_seconds", "on_deadline", "vacation_days")
ENDED = ("finished", "abandoned")


@dataclass(frozen=True)
class Seated:
    """A table's host as the room service sees a caller: the entrant in seat 0."""

    id: int


def place_points(points: list, place: int) -> float:
    return float(points[place - 1]) if 1 <= place <= len(points) else 0.0


def standings(fmt: str, points: list, people: list[dict], played: list[tuple[list[int], dict | None, bool]]
              ) -> list[dict]:
    """The standings (README "Clubs", Tournaments): ``people`` the entrants ({player,
    name}); ``played`` each table and bye so far as (seats, {seat: place} or None while
    it has no result, bye).  A bye scores 1st place's points (it is no win and no match).
    Order: points; then, in a Swiss tournament, Buchholz (the points of every opponent
    met, summed), in a round robin head-to-head (among those equal on points, how often
    one finished ahead of the others at a table, less how often behind); then wins;
    then average place (lower first).  Equal on all: a shared rank, listed by name, then
    id."""
    rows = {p["player"]: {"player": p["player"], "name": p["name"], "points": 0.0, "matches": 0, "byes": 0,
                          "wins": 0, "place_sum": 0, "met": [], "head_to_head": 0} for p in people}
    placed_tables = []
    for seats, places, bye in played:
        if bye:
            for pid in seats:
                if pid in rows:
                    rows[pid]["byes"] += 1
                    rows[pid]["points"] += place_points(points, 1)
            continue
        if not places:
            continue
        at: list[tuple[int, int]] = [(pid, int(places[seat])) for seat, pid in enumerate(seats)
                                     if pid in rows and places.get(seat)]
        placed_tables.append(at)
        for pid, place in at:
            r = rows[pid]
            r["matches"] += 1
            r["points"] += place_points(points, place)
            r["wins"] += int(place == 1)
            r["place_sum"] += place
            r["met"] += [q for q, _ in at if q != pid]
    for at in placed_tables:
        for i, (p, pp) in enumerate(at):
            for q, qp in at[i + 1:]:
                if rows[p]["points"] == rows[q]["points"] and pp != qp:
                    rows[p]["head_to_head"] += 1 if pp < qp else -1
                    rows[q]["head_to_head"] += 1 if qp < pp else -1
    out = []
    for r in rows.values():
        out.append({"player": r["player"], "name": r["name"], "points": r["points"], "matches": r["matches"],
                    "byes": r["byes"], "wins": r["wins"],
                    "average_place": round(r["place_sum"] / r["matches"], 3) if r["matches"] else None,
                    "buchholz": sum(rows[q]["points"] for q in r["met"]), "head_to_head": r["head_to_head"]})

    def key(r: dict) -> tuple:
        second = r["buchholz"] if fmt == "swiss" else r["head_to_head"]
        avg = r["average_place"] if r["average_place"] is not None else math.inf
        return (-r["points"], -second, -r["wins"], avg)
    out.sort(key=lambda r: (key(r), r["name"].casefold(), r["player"]))
    rank, last = 0, None
    for n, r in enumerate(out, start=1):
        if key(r) != last:
            rank, last = n, key(r)
        r["rank"] = rank
    return out


class Tournaments:
    def __init__(self, db: Database, clubs: Clubs, rooms: RoomService, play: Play) -> None:
        self.db = db
        self.clubs = clubs  # who may (the club's roles), and its reads and writes
        self.rooms = rooms
        self.play = play
        self._locks: dict[int, asyncio.Lock] = {}  # one advance of a tournament at a time here

    # -- reads -------------------------------------------------------------------------------

    def _full(self, s: Session, row: m.Tournament, me: int) -> dict:
        people = sql.entrants(s, row.id)
        tables = sql.tables(s, row.id)
        found = sql.results(s, [t.match_id for t in tables if t.match_id])
        codes = sql.room_codes(s, [t.room_id for t in tables if t.room_id and not t.match_id])
        named_ = {p["player"]: p["name"] for p in people}
        missing = [pid for t in tables for pid in t.seats if pid not in named_]
        named_.update(sql.names(s, missing))  # an entrant removed since (never after the start)
        played: list[tuple[list[int], dict | None, bool]] = []
        schedule: dict[int, dict] = {}
        for t in tables:
            rnd = schedule.setdefault(t.round, {"round": t.round, "tables": [], "byes": []})
            if t.bye:
                rnd["byes"] += [{"player": pid, "name": named_.get(pid, "")} for pid in t.seats]
                played.append((t.seats, None, True))
                continue
            res = found.get(t.match_id) if t.match_id else None
            places = res["places"] if res and res["status"] in ENDED else None
            played.append((t.seats, places, False))
            code = res["room"] if res else codes.get(t.room_id) if t.room_id else None
            rnd["tables"].append({
                "table": t.table_no, "room": code, "invite_path": f"/room/{code}" if code else None,
                "match": t.match_id, "status": res["status"] if res else "waiting",
                "seats": [{"seat": n, "player": pid, "name": named_.get(pid, ""),
                           "place": (places or {}).get(n),
                           "points": place_points(row.points, places[n]) if places and places.get(n) else None}
                          for n, pid in enumerate(t.seats)]})
        return {**sql.brief(row, len(people)),
                "entrants": [{"player": p["player"], "name": p["name"]} for p in people],
                "me": {"entrant": any(p["player"] == me for p in people)},
                "schedule": [schedule[k] for k in sorted(schedule)],
                "standings": standings(row.format, row.points, people, played)}

    async def listing(self, player, club_id: int) -> list[dict]:
        def work(s: Session) -> list[dict]:
            self.clubs.visible(s, club_id, player.id)
            return [sql.brief(r, sql.entrant_count(s, r.id)) for r in sql.club_tournaments_of(s, club_id)]
        return await self.clubs.read(work)

    async def get(self, player, club_id: int, tournament_id: int) -> dict:
        def work(s: Session) -> dict:
            self.clubs.visible(s, club_id, player.id)
            return self._full(s, sql.tournament_row(s, club_id, tournament_id), player.id)
        return await self.clubs.read(work)

    async def standings_csv(self, player, club_id: int, tournament_id: int) -> str:
        full = await self.get(player, club_id, tournament_id)
        return table_csv(full["standings"], STANDINGS_CSV)

    # -- changes before the start -----------------------------------------------------------

    def _add(self, s: Session, row: m.Tournament, club_id: int, pid: int) -> None:
        me = csql.membership(s, club_id, pid)
        if me is None or me.status != "active":
            raise csql.UnknownMember(f"player {pid} is not an active member of this club")
        if sql.entrant(s, row.id, pid) is not None:
            return
        if sql.entrant_count(s, row.id) >= MAX_ENTRANTS:
            raise sql.TournamentFull(f"a tournament has at most {MAX_ENTRANTS} entrants")
        s.add(m.TournamentEntrant(tournament_id=row.id, player_id=pid, joined_at=m.utcnow()))
        s.flush()

    @staticmethod
    def _open_only(row: m.Tournament) -> None:
        if row.status != "open":
            raise sql.TournamentStarted("the entrants change only before the tournament starts")

    async def create(self, player, club_id: int, fields: dict) -> dict:
        name = named(fields["name"], "the tournament's name")
        if fields["format"] == "swiss" and fields.get("rounds") is None:
            raise sql.BadTournament("a Swiss tournament needs its number of rounds")

        def work(s: Session) -> dict:
            self.clubs.admin(s, club_id, player.id)
            preset = csql.preset_row(s, club_id, fields["preset"])
            row = m.Tournament(club_id=club_id, name=name, preset_id=preset.id, preset_name=preset.name,
                               variant=preset.variant, options=preset.options, room=dict(preset.room),
                               seat_count=int(preset.room["seats"]), format=fields["format"],
                               rounds=fields.get("rounds"), points=list(fields["points"]),
                               sign_up=fields["sign_up"], status="open", round=0,
                               seed=secrets.randbits(63), created_by=player.id, created_at=m.utcnow())
            s.add(row)
            s.flush()
            for pid in dict.fromkeys(fields.get("entrants") or []):
                self._add(s, row, club_id, pid)
            return self._full(s, row, player.id)
        return await self.clubs.write(work)

    async def add_entrant(self, player, club_id: int, tournament_id: int, who: int) -> dict:
        """An admin enters a member; a member enters himself where ``sign_up`` allows."""
        def work(s: Session) -> dict:
            _, me = self.clubs.member(s, club_id, player.id)
            row = sql.tournament_row(s, club_id, tournament_id, lock=s.info["lock"])
            if me.role not in ("owner", "admin"):
                if who != player.id:
                    raise csql.NotClubAdmin("only the club's owner and admins enter other members")
                if not row.sign_up:
                    raise sql.SignUpClosed("the admins choose this tournament's entrants")
            self._open_only(row)
            self._add(s, row, club_id, who)
            return self._full(s, row, player.id)
        return await self.clubs.write(work)

    async def remove_entrant(self, player, club_id: int, tournament_id: int, who: int) -> dict:
        """An admin takes an entrant out; an entrant withdraws himself."""
        def work(s: Session) -> dict:
            _, me = self.clubs.member(s, club_id, player.id)
            if who != player.id and me.role not in ("owner", "admin"):
                raise csql.NotClubAdmin("only the club's owner and admins take other entrants out")
            row = sql.tournament_row(s, club_id, tournament_id, lock=s.info["lock"])
            self._open_only(row)
            found = sql.entrant(s, row.id, who)
            if found is None:
                raise csql.UnknownMember(f"player {who} has not entered this tournament")
            s.delete(found)
            s.flush()
            return self._full(s, row, player.id)
        return await self.clubs.write(work)

    # -- start, end, rounds --------------------------------------------------------------------

    async def start(self, player, club_id: int, tournament_id: int) -> dict:
        """The entrants' order is shuffled by the tournament's seed, a round robin's rounds
        fixed (a whole cycle unless given), and the first round opened."""
        def work(s: Session) -> None:
            self.clubs.admin(s, club_id, player.id)
            row = sql.tournament_row(s, club_id, tournament_id, lock=s.info["lock"])
            if row.status != "open":
                raise sql.TournamentStarted("this tournament has started already")
            people = [p["player"] for p in sql.entrants(s, row.id)]
            if len(people) < row.seat_count:
                raise sql.TournamentTooSmall(f"a table has {row.seat_count} seats; the tournament has "
                                             f"{len(people)} entrants")
            random.Random(row.seed).shuffle(people)
            for n, pid in enumerate(people, start=1):
                sql.entrant(s, row.id, pid).number = n  # type: ignore[union-attr]
            if row.rounds is None:
                row.rounds = round_robin_cycle(people, row.seat_count)
            row.status, row.started_at = "running", m.utcnow()
        await self.clubs.write(work)
        await self.advance(tournament_id)
        return await self.get(player, club_id, tournament_id)

    async def end(self, player, club_id: int, tournament_id: int) -> dict:
        """Ended early: no more rounds (matches at its tables play on and count)."""
        def work(s: Session) -> dict:
            self.clubs.admin(s, club_id, player.id)
            row = sql.tournament_row(s, club_id, tournament_id, lock=s.info["lock"])
            if row.status not in ("open", "running"):
                raise sql.TournamentOver("this tournament is over already")
            row.status, row.ended_at = "ended", m.utcnow()
            s.flush()
            return self._full(s, row, player.id)
        return await self.clubs.write(work)

    async def match_ended(self, match_id: str) -> None:
        """(After the match's standings, app/ratings.py.)  A tournament table's match
        ended: the next round, if this was the round's last table."""
        try:
            def find() -> int | None:
                with self.db.read() as s:
                    table = sql.table_of_match(s, match_id)
                    return table.tournament_id if table is not None else None
            tid = await to_thread.run_sync(find)
            if tid is not None:
                await self.advance(tid)
        except Exception:
            log.exception("match %s: its tournament's next round not opened", match_id)

    async def advance(self, tournament_id: int) -> None:
        """Open what is due: the next round when every table of the latest has ended (or
        none was opened yet), until a round is under way or the tournament is over."""
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            for _ in range(MAX_ROUNDS + 1):  # a round whose matches all ended at once: the next
                new = await to_thread.run_sync(self._next_round, tournament_id)
                if not new:
                    return
                for table in new:
                    try:
                        await self._open(table)
                    except Exception:  # its entrants see it waiting; a restart tries again (catch_up)
                        log.exception("tournament %s: table %s not opened", tournament_id, table["id"])
                        return

    def _next_round(self, tournament_id: int) -> list[dict]:
        """(A worker thread.)  In one transaction, the tournament row locked: if its latest
        round is over, the next round's tables and byes (or the tournament finished).  The
        tables to open ([] when nothing is due)."""
        with self.db.write() as s:
            row = s.get(m.Tournament, tournament_id, with_for_update=self.db.is_postgres)
            if row is None or row.status != "running":
                return []
            tables = sql.tables(s, row.id)
            latest = [t for t in tables if t.round == row.round and not t.bye]
            if any(t.match_id is None for t in latest):
                return []  # being opened
            found = sql.results(s, [t.match_id for t in latest if t.match_id])
            if any(found.get(str(t.match_id), {}).get("status") not in ENDED for t in latest):
                return []
            if row.round >= (row.rounds or 0):
                row.status, row.ended_at = "finished", m.utcnow()
                return []
            people = sql.entrants(s, row.id)
            order = [p["player"] for p in people]
            before: list[Round] = []
            for n in range(1, row.round + 1):
                this = [t for t in tables if t.round == n]
                before.append(([t.seats for t in this if not t.bye], [p for t in this if t.bye for p in t.seats]))
            if row.format == "swiss":
                ranked = [r["player"] for r in sorted(self._full(s, row, 0)["standings"],
                                                      key=lambda r: (r["rank"], order.index(r["player"])))]
                seats, byes = swiss_round(ranked, row.seat_count, before)
            elif row.seat_count == 2:
                seats, byes = circle_round(order, row.round)
            else:
                seats, byes = spread_round(order, row.seat_count, before)
            row.round += 1
            made = [m.TournamentTable(tournament_id=row.id, round=row.round, table_no=n, seats=list(t))
                    for n, t in enumerate(seats, start=1)]
            made += [m.TournamentTable(tournament_id=row.id, round=row.round, table_no=0, seats=[p], bye=True)
                     for p in byes]
            s.add_all(made)
            s.flush()
            rules = {"tournament": row.id, "club": row.club_id, "preset_id": row.preset_id,
                     "preset_name": row.preset_name, "variant": row.variant, "options": row.options,
                     "room": row.room, "seat_count": row.seat_count}
            return [{**rules, "id": t.id, "seats": t.seats} for t in made if not t.bye]

    async def _open(self, table: dict) -> None:
        """A table's room, from the tournament's copy of the preset, its entrants seated,
        then its match started (the host: the entrant in seat 0)."""
        host = Seated(table["seats"][0])
        room = table["room"]

        def link(s: Session, made: m.Room) -> None:
            s.get_one(m.TournamentTable, table["id"]).room_id = made.id
        made = await self.rooms.create_room(
            host, table["variant"], table["options"], table["seat_count"], False, room.get("takeover_seconds"),
            bool(room.get("rated", False)), room.get("takeback"), room.get("abandoned", "ignored"),
            {k: room.get(k) for k in PACE_FIELDS},
            {"id": table["preset_id"], "club": table["club"], "name": table["preset_name"]},
            bool(room.get("coach", False)), seated=list(table["seats"]), then=link)
        started = await self.play.start_match(made["code"], host)

        def keep() -> None:
            with self.db.write() as s:
                s.get_one(m.TournamentTable, table["id"]).match_id = started["match"]["id"]
        await to_thread.run_sync(keep)
        log.info("tournament %s: table %s opened in room %s", table["tournament"], table["id"], made["code"])

    async def catch_up(self) -> None:
        """(Start-up.)  Running tournaments: a table left without its match (the process
        stopped while opening it) gets the match of its room or a new one; then what is due."""
        def read() -> list[tuple[int, list[tuple[int, int | None, list[int]]]]]:
            with self.db.read() as s:
                out = []
                for tid in sql.unopened(s):
                    row = s.get_one(m.Tournament, tid)
                    out.append((tid, [(t.id, t.room_id, t.seats) for t in sql.tables(s, tid)
                                      if t.round == row.round and not t.bye and t.match_id is None]))
                return out
        for tid, stuck in await to_thread.run_sync(read):
            try:
                for table_id, room_id, seats in stuck:
                    await self._resume(tid, table_id, room_id, seats)
                await self.advance(tid)
            except Exception:
                log.exception("tournament %s: not resumed", tid)

    async def _resume(self, tid: int, table_id: int, room_id: int | None, seats: list[int]) -> None:
        def rules() -> dict:
            with self.db.read() as s:
                row = s.get_one(m.Tournament, tid)
                return {"tournament": tid, "club": row.club_id, "preset_id": row.preset_id,
                        "preset_name": row.preset_name, "variant": row.variant, "options": row.options,
                        "room": row.room, "seat_count": row.seat_count, "id": table_id, "seats": seats}
        if room_id is None:
            await self._open(await to_thread.run_sync(rules))
            return

        def current() -> tuple[str, str | None]:
            with self.db.read() as s:
                room = s.get_one(m.Room, room_id)
                return room.code, room.current_match_id
        code, match_id = await to_thread.run_sync(current)
        if match_id is None:
            match_id = (await self.play.start_match(code, Seated(seats[0])))["match"]["id"]

        def keep() -> None:
            with self.db.write() as s:
                s.get_one(m.TournamentTable, table_id).match_id = match_id
        await to_thread.run_sync(keep)
