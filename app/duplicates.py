"""Duplicate matches and "replay this deal" (issue 37 item 5; README "Clubs (issue 37)",
Duplicate matches).  SQL in app/db/duplicates.py; the tables are rooms of the club
opened from a preset (app/rooms/service.py ``open_seated``), their matches are matches
played by the one match loop; the history hides a table's deal until every table has
finished it (app/rooms/history.py, ``dsql.gate``).

A duplicate of ``n`` seats at ``T`` tables (2 <= T <= n) has a roster of ``n`` entries
(people of the club or bot levels).  Every table's match has the duplicate's seed and
the engine's per-deal seed mode (rule C-3), so engine seat ``i`` is dealt the same hand
at every table; at table ``t`` seat ``i`` is held by roster entry ``(i + t) mod n``
(table 1's seat i by the entry that sat at table 0's seat i + 1).

The comparison takes the deals every table has finished.  A hand is (deal k, seat i);
its average is the mean of its scores over the tables.  Per roster entry: ``raw`` the
sum of his scores in those deals at every table, ``cards`` the sum of the averages of
the hands he held (what the cards gave), ``skill = raw - cards`` (what he made of them).
So ``raw = cards + skill`` for each, and the skills add up to 0 over the roster."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from anyio import to_thread
from sqlalchemy.orm import Session

from engine import find_variant

from .clubs import Clubs
from .db import duplicates as dsql
from .db import models as m
from .db import store
from .db.clubs import UnknownPreset
from .db.errors import BadOptions
from .db.session import Database
from .rooms.history import History
from .rooms.play import Play
from .rooms.service import Caller, RoomService, resolve_rules


def seat_at(position: int, table: int, seats: int) -> int:
    """The seat roster entry ``position`` holds at table ``table``."""
    return (position - table) % seats


def rotated_deal(entry: dict, seats: int, rotation: int) -> dict:
    """A finished deal's history entry as the preset of a new match's first deal in which
    seat ``i`` is dealt what seat ``i + rotation`` was dealt, and deals in its place: the
    same deal with every hand moved ``rotation`` seats to the right (rule C-1 numbering).
    {"preset_deals": [{hands, rest}], "first_dealer"}; the rest (a talon, the undealt
    stock) as it was."""
    hands = entry["hands"]
    rest = entry.get("talon") or entry.get("rest") or entry.get("stock") or []
    return {"preset_deals": [{"hands": [list(hands[(i + rotation) % seats]) for i in range(seats)],
                              "rest": list(rest)}],
            "first_dealer": (entry["dealer"] - rotation) % seats}


def compare(seats: int, rows: list[dict[int, dict]]) -> dict:
    """The deal-by-deal comparison and the standings from each table's scoresheet rows by
    deal (``rows[t]``), over the deals every table has finished (module docstring)."""
    tables = len(rows)
    common = min((len(r) for r in rows), default=0)
    deals = [k for k in range(1, common + 1) if all(k in r for r in rows)]
    raw = [Fraction(0)] * seats
    cards = [Fraction(0)] * seats
    out_deals = []
    for k in deals:
        hands = []
        for i in range(seats):
            scores = [rows[t][k]["scores"][i] for t in range(tables)]
            average = Fraction(sum(scores), tables)
            held_by = [(i + t) % seats for t in range(tables)]
            for t, position in enumerate(held_by):
                raw[position] += scores[t]
                cards[position] += average
            hands.append({"seat": i, "scores": scores, "held_by": held_by, "average": _num(average)})
        out_deals.append({"deal": k, "hands": hands})
    standings = [{"position": r, "raw": _num(raw[r]), "cards": _num(cards[r]),
                  "skill": _num(raw[r] - cards[r])} for r in range(seats)]
    standings.sort(key=lambda x: (-x["skill"], -x["raw"], x["position"]))
    for rank, row in enumerate(standings, start=1):
        row["rank"] = rank
    return {"compared": len(deals), "deals": out_deals, "standings": standings}


def _num(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else round(float(x), 2)


class Duplicates:
    def __init__(self, db: Database, rooms: RoomService, play: Play, clubs: Clubs, history: History) -> None:
        self.db = db
        self.rooms = rooms
        self.play = play
        self.clubs = clubs
        self.history = history

    async def create(self, player: Caller, club_id: int, preset: dict, room: dict, tables: int,
                     roster: list[tuple[int | None, str | None]]) -> dict:
        """A new duplicate of the club's ``preset`` (as ``Clubs.preset_for_room`` gives it) with
        the room fields ``room``: ``tables`` rooms seated by ``roster`` ((person, None) or
        (None, bot level) per position), one transaction; then each table's match starts."""
        if preset["club"] != club_id:
            raise UnknownPreset(f"no preset {preset['id']} in club {club_id}")
        variant, options, seats = resolve_rules(preset["variant"], preset["options"], room.get("seats"))
        if len(roster) != seats:
            raise dsql.BadDuplicate(f"{variant.id} at this preset is played by {seats}: give {seats} players, "
                                    f"not {len(roster)}")
        if not 2 <= tables <= max(2, seats):
            raise dsql.BadDuplicate(f"a duplicate of {seats} seats has 2 to {seats} tables, not {tables}")
        people = [p for p, _ in roster if p is not None]
        if len(set(people)) != len(people):
            raise dsql.BadDuplicate("a person holds one place of the roster")
        seed = store.new_seed()
        rules = {"variant_id": variant.id, "options": options, "seats": seats,
                 "takeover_seconds": room.get("takeover_seconds"), "rated": room.get("rated", False),
                 "takeback": room.get("takeback"), "abandoned": room.get("abandoned", "ignored"),
                 "pace": {k: room.get(k) for k in ("pace", "move_seconds", "on_deadline", "vacation_days")},
                 "preset": {"id": preset["id"], "club": club_id, "name": preset["name"]},
                 "coach": room.get("coach", False)}

        def work(s: Session) -> tuple[int, list[str]]:
            self.clubs.member(s, club_id, player.id)
            for p in people:
                me = s.get(m.ClubMember, (club_id, p))
                if me is None or me.status != "active":
                    raise dsql.BadDuplicate(f"player {p} is not a member of the club")
            codes, ids = [], []
            for t in range(tables):
                seating = [(seat_at(r, t, seats), p, level) for r, (p, level) in enumerate(roster)]
                made = self.rooms.open_seated(s, player.id, rules, seating, deal_seeds=True)
                codes.append(made.code)
                ids.append(made.id)
            dup = dsql.create(s, club_id, preset["name"], variant.id, seats, seed, player.id, ids)
            return dup.id, codes
        dup_id, codes = await self.clubs.write(work)
        for code in codes:  # every seat is taken: each table's match starts with the one seed
            await self.play.start_match(code, player, seed=seed)
        return await self.detail(player, club_id, dup_id)

    async def check_member(self, player: Caller, club_id: int) -> None:
        """UnknownClub (a private club's outsider) or NotMember unless ``player`` is a member."""
        await self.clubs.read(lambda s: self.clubs.member(s, club_id, player.id))

    async def of_club(self, player: Caller, club_id: int) -> list[dict]:
        def work(s: Session) -> list[dict]:
            self.clubs.visible(s, club_id, player.id)
            return [self._brief(s, x) for x in dsql.of_club(s, club_id)]
        return await self.clubs.read(work)

    def _brief(self, s: Session, dup: m.Duplicate) -> dict:
        rows = dsql.tables(s, dup.id)
        over = all(x is not None and x.status in dsql.OVER for _, _, x in rows)
        return {"id": dup.id, "club": dup.club_id, "preset": dup.preset_name, "variant": dup.variant,
                "seat_count": dup.seat_count, "tables": len(rows), "status": "finished" if over else "playing",
                "created_at": store.utc(dup.created_at)}

    async def detail(self, player: Caller, club_id: int, dup_id: int) -> dict:
        """The duplicate's page: its tables (room codes, who holds which seat, how far each
        is), the deals every table has finished compared hand by hand, the standings."""
        def work(s: Session) -> dict:
            self.clubs.visible(s, club_id, player.id)
            dup = dsql.duplicate_row(s, club_id, dup_id)
            rows = dsql.tables(s, dup.id)
            matches = [x for _, _, x in rows if x is not None]
            sheets = dsql.score_rows(s, [x.id for x in matches])
            n = dup.seat_count
            out_tables: list[dict[str, Any]] = []
            for t, room, match in rows:
                seated = {x[0]: (x[1], x[2]) for x in store.seats_of(s, room)}
                out_tables.append({
                    "table": t, "room": room.code, "invite_path": f"/room/{room.code}",
                    "match": None if match is None else match.id,
                    "status": "waiting" if match is None else match.status,
                    "deals_finished": len(sheets.get(match.id, {})) if match is not None else 0,
                    "seats": [{"seat": i, "position": (i + t) % n, "player": seated.get(i, (None, None))[0],
                               "name": seated.get(i, (None, None))[1]} for i in range(n)],
                })
            first = out_tables[0]["seats"] if out_tables else []
            roster = [{"position": x["position"], "player": x["player"], "name": x["name"]}
                      for x in sorted(first, key=lambda x: x["position"])]
            started = len(matches) == len(rows)
            result = compare(n, [sheets[x.id] for x in matches] if started else [])
            names = {x["position"]: x["name"] for x in roster}
            for row in result["standings"]:
                row["name"] = names.get(row["position"])
            brief = self._brief(s, dup)
            # the seed deals every table's cards: secret until every table's match is over (C-3)
            return {**brief, "seed": dup.seed if brief["status"] == "finished" else None,
                    "roster": roster, "table_list": out_tables, **result}
        return await self.clubs.read(work)

    async def replay_deal(self, player: Caller, match_id: str, deal: int, rotation: int) -> dict:
        """"Replay this deal": a new room like the match's whose first match starts with that
        deal, each hand moved ``rotation`` seats (``rotated_deal``); the caller, a player of
        the match, takes his seat, its bots theirs, its other people are called.  Only once
        the match is over (every table's, for a duplicate): MatchNotOver before."""
        row, entry = await to_thread.run_sync(self.history.finished_deal, match_id, deal)
        if not 1 <= rotation < row.seat_count:
            raise dsql.BadRotation(f"the rotation is 1 to {row.seat_count - 1} seats, not {rotation}")
        replay = rotated_deal(entry, row.seat_count, rotation)
        try:  # the engine checks the deal fits a first deal (Король deals only some seats later on)
            find_variant(row.variant).new_match(row.seat_count, seed=0, options=row.options, **replay)
        except ValueError as e:
            raise BadOptions(f"deal {deal} cannot open a match: {e}") from None
        code = await to_thread.run_sync(self._room_code, row)
        old = await self.rooms.snapshot(code)
        room, _ = await self.rooms.call_to_new_room(old, match_id, player,
                                                    "only a player of the match deals its deal again", replay)
        return room

    def _room_code(self, row: m.Match) -> str:
        with self.db.read() as s:
            return store.room_code_of(s, row.room_id)

