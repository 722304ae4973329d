"""Clubs (issue 37): who may do what in a club, the club page, presets and seasons
(``Clubs``).  SQL in app/db/clubs.py, run in worker threads; a club's rooms are
rooms (app/rooms/service.py, opened from a preset), its matches are matches, and
a season's table and ratings are added to as each counted match ends
(app/ratings.py) — no second game path.

Roles: the owner (one; hands the club over, names admins), admins (change the
club, invite links, approve and remove members, presets, seasons), members
(open rooms from presets).  A private club is visible to its members only (404
``unknown_club`` to anybody else, as for no club at all); a listed one to every
signed-in player, who may ask to join (an admin approves)."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from datetime import UTC, datetime

from anyio import to_thread
from sqlalchemy.orm import Session

from .clock import Clock
from .db import club_events as events_sql
from .db import clubs as sql
from .db import models as m
from .db import ratings as rsql
from .db import tournaments as tsql
from .db.errors import BadName
from .db.session import Database
from .ratings import fill_season, ordinal, places
from .rooms.service import Caller, option_changes, resolve_rules
from .rooms.text import clean_chat, clean_name

CLUB_FIELDS = ("name", "description", "colour", "listed")
NAME_LENGTH = 80  # a club's, a preset's, a season's name
DESCRIPTION_LENGTH = 2000
TABLE_CSV = ["rank", "player", "name", "matches", "points", "wins", "average_place", "qualified"]


def named(raw: str, what: str) -> str:
    """A club's, preset's or season's name by the rule of display names (README
    "Names"): 422 ``invalid_name`` otherwise."""
    try:
        return clean_name(raw, NAME_LENGTH, what=what)
    except ValueError as e:
        raise BadName(str(e)) from None


def described(raw: str) -> str:
    """A club's description (may be empty): text as a chat line is (no control characters
    but line breaks), 422 ``invalid_name`` otherwise."""
    if not raw.strip():
        return ""
    try:
        return clean_chat(raw, DESCRIPTION_LENGTH)
    except ValueError as e:
        raise BadName(f"the description: {e}") from None


def rank_table(rows: list[dict], min_matches: int) -> list[dict]:
    """A season's table in its order (README "Clubs", tie-breaks): those with at least
    ``min_matches`` first, ranked by points (more first), then wins, then average place
    (lower first), then matches played (more first); rows equal on all four share a rank
    and are listed by name, then id.  The others follow, unranked, in the same order."""
    def key(r: dict) -> tuple:
        return (-r["points"], -r["wins"], r["average_place"], -r["matches"])
    out = []
    for r in rows:
        out.append({"player": r["player"], "name": r["name"], "matches": r["matches"],
                    "points": r["points"], "wins": r["wins"],
                    "average_place": round(r["place_sum"] / r["matches"], 3) if r["matches"] else 0.0,
                    "qualified": r["matches"] >= min_matches})
    out.sort(key=lambda r: (not r["qualified"], key(r), r["name"].casefold(), r["player"]))
    rank, last = 0, None
    for n, r in enumerate(out, start=1):
        if not r["qualified"]:
            r["rank"] = None
            continue
        if key(r) != last:
            rank, last = n, key(r)
        r["rank"] = rank
    return out


def table_csv(table: list[dict], columns: list[str] = TABLE_CSV) -> str:
    """A table as CSV (a season's; a tournament's standings with its own ``columns``)."""
    out = io.StringIO()
    w = csv.DictWriter(out, columns, lineterminator="\n", extrasaction="ignore")
    w.writeheader()
    for r in table:  # a name a spreadsheet would take for a formula starts with '
        w.writerow({**r, "name": ("'" + r["name"]) if r["name"][:1] in "=+-@\t\r" else r["name"]})
    return out.getvalue()


def preset_dict(row: m.ClubPreset) -> dict:
    return {"id": row.id, "club": row.club_id, "name": row.name, "variant": row.variant,
            "options": row.options, "room": row.room, "differs": option_changes(row.variant, row.options),
            "updated_at": m.utcnow().isoformat() if row.updated_at is None else sql.utc(row.updated_at)}


def invite_dict(row: m.ClubInvite) -> dict:
    return {"id": row.id, "token": row.token, "invite_path": f"/club/join/{row.token}",
            "created_at": sql.utc(row.created_at)}


def club_dict(club: m.Club, owner_name: str, members: int) -> dict:
    return {"id": club.id, "name": club.name, "description": club.description, "colour": club.colour,
            "listed": bool(club.listed), "owner": {"id": club.owner_id, "name": owner_name},
            "members": members, "created_at": sql.utc(club.created_at)}


class Clubs:
    def __init__(self, db: Database, clock: Clock | None = None) -> None:
        self.db = db
        self.clock = clock or Clock()  # which events are upcoming (app/club_events.py)
        #: who is at a table now (the server sets it to ``Hub.online``: every process's
        #: sockets, through the presence reports with Redis)
        self.online: Callable[[], set[int]] = set

    async def read(self, work, *args):
        def run():
            with self.db.read() as s:
                return work(s, *args)
        return await to_thread.run_sync(run)

    async def write(self, work, *args):
        def run():
            with self.db.write() as s:
                s.info["lock"] = self.db.is_postgres  # the club row, in a write (_visible)
                return work(s, *args)
        return await to_thread.run_sync(run)

    # -- who may --------------------------------------------------------------------------

    def visible(self, s: Session, club_id: int, player_id: int) -> tuple[m.Club, m.ClubMember | None]:
        """The club and the player's membership; a private club's outsiders get UnknownClub."""
        club = sql.club_row(s, club_id, lock=s.info.get("lock", False))
        me = sql.membership(s, club_id, player_id)
        if not club.listed and (me is None or me.status != "active"):
            raise sql.UnknownClub(f"no club {club_id}")
        return club, me

    def member(self, s: Session, club_id: int, player_id: int) -> tuple[m.Club, m.ClubMember]:
        club, me = self.visible(s, club_id, player_id)
        if me is None or me.status != "active":
            raise sql.NotMember("only the club's members may do this")
        return club, me

    def admin(self, s: Session, club_id: int, player_id: int) -> tuple[m.Club, m.ClubMember]:
        club, me = self.member(s, club_id, player_id)
        if me.role not in ("owner", "admin"):
            raise sql.NotClubAdmin("only the club's owner and admins may do this")
        return club, me

    def _owner(self, s: Session, club_id: int, player_id: int) -> m.Club:
        club, me = self.member(s, club_id, player_id)
        if me.role != "owner":
            raise sql.NotClubOwner("only the club's owner may do this")
        return club

    # -- clubs and members ----------------------------------------------------------------

    async def create(self, player: Caller, fields: dict) -> dict:
        fields = {**fields, "name": named(fields["name"], "the club's name"),
                  "description": described(fields["description"])}

        def work(s: Session) -> int:
            return sql.create_club(s, player.id, fields["name"], fields["description"], fields["colour"],
                                   fields["listed"]).id
        return await self.page(player, await self.write(work))

    async def change(self, player: Caller, club_id: int, fields: dict) -> dict:
        if fields.get("name") is not None:
            fields = {**fields, "name": named(fields["name"], "the club's name")}
        if fields.get("description") is not None:
            fields = {**fields, "description": described(fields["description"])}

        def work(s: Session) -> None:
            club, _ = self.admin(s, club_id, player.id)
            for key in CLUB_FIELDS:
                if fields.get(key) is not None:
                    setattr(club, key, fields[key])
        await self.write(work)
        return await self.page(player, club_id)

    async def listed(self, q: str | None, limit: int, offset: int) -> list[dict]:
        return await self.read(sql.listed_clubs, q, limit, offset)

    async def mine(self, player: Caller) -> list[dict]:
        return await self.read(sql.my_clubs, player.id)

    async def page(self, player: Caller, club_id: int) -> dict:
        """The club page's data: the club, my membership, members (join requests for
        admins), its waiting and playing rooms, recent matches, presets, the current
        season's table, past seasons' winners, upcoming events (app/club_events.py)."""
        def work(s: Session) -> dict:
            club, me = self.visible(s, club_id, player.id)
            admin = me is not None and me.status == "active" and me.role in ("owner", "admin")
            people = sql.members(s, club_id, "active")
            online = self.online()
            owner = next((x["name"] for x in people if x["role"] == "owner"), "")
            recent = sql.recent_matches(s, club_id)
            for match in recent:
                placed = places(match.pop("result"), match.pop("seat_count"))
                for seat in match["seats"]:
                    seat["place"] = placed[seat["seat"]] if seat["seat"] < len(placed) else None
            all_seasons = sql.seasons(s, club_id)
            now = m.utcnow()
            current = next((x for x in all_seasons if x.closed_at is None and _aware(x.starts_at) <= now), None)
            return {
                "club": club_dict(club, owner, len(people)),
                "me": None if me is None else {"role": me.role, "status": me.status},
                "members": [{**{k: x[k] for k in ("player", "name", "role", "joined_at")},
                             "online": x["player"] in online} for x in people],
                "pending": ([{k: x[k] for k in ("player", "name", "requested_at")}
                             for x in sql.members(s, club_id, "pending")] if admin else []),
                "rooms": sql.club_rooms(s, club_id),
                "recent_matches": recent,
                "presets": [preset_dict(x) for x in sql.presets(s, club_id)],
                "season": None if current is None else self._season(s, current),
                "past_seasons": [self._season_brief(x) for x in all_seasons if x.closed_at is not None][:10],
                "tournaments": tsql.page_tournaments(s, club_id),
                "events": events_sql.upcoming(s, club_id, player.id, self.clock.now()),
            }
        return await self.read(work)

    async def invite_info(self, token: str) -> dict:
        """What an invite link shows before joining: the club (any invitee may see it)."""
        def work(s: Session) -> dict:
            invite = sql.invite_by_token(s, token)
            club = sql.club_row(s, invite.club_id)
            return {"id": club.id, "name": club.name, "description": club.description, "colour": club.colour,
                    "members": sql.member_count(s, club.id)}
        return await self.read(work)

    async def join_by_invite(self, player: Caller, token: str) -> dict:
        """A valid invite makes the caller an active member at once (a join request of his
        is granted; an active member stays as he is)."""
        def work(s: Session) -> dict:
            invite = sql.invite_by_token(s, token)
            sql.club_row(s, invite.club_id, lock=s.info["lock"])
            me = sql.membership(s, invite.club_id, player.id)
            now = m.utcnow()
            if me is None:
                me = m.ClubMember(club_id=invite.club_id, player_id=player.id, role="member", status="active",
                                  requested_at=now, joined_at=now)
                s.add(me)
            elif me.status == "pending":
                me.status, me.joined_at = "active", now
            s.flush()
            return {"club": invite.club_id, "player": player.id, "role": me.role, "status": me.status}
        return await self.write(work)

    async def ask_to_join(self, player: Caller, club_id: int) -> dict:
        """A join request to a listed club (pending until an admin approves it)."""
        def work(s: Session) -> dict:
            _, me = self.visible(s, club_id, player.id)
            if me is not None and me.status == "active":
                raise sql.AlreadyMember("you are a member of this club already")
            if me is None:
                me = m.ClubMember(club_id=club_id, player_id=player.id, role="member", status="pending",
                                  requested_at=m.utcnow())
                s.add(me)
                s.flush()
            return {"club": club_id, "player": player.id, "role": me.role, "status": me.status}
        return await self.write(work)

    async def approve(self, player: Caller, club_id: int, who: int) -> dict:
        def work(s: Session) -> dict:
            self.admin(s, club_id, player.id)
            them = self._target(s, club_id, who)
            if them.status == "active":
                raise sql.AlreadyMember("this player is a member already")
            them.status, them.joined_at = "active", m.utcnow()
            return {"club": club_id, "player": who, "role": them.role, "status": them.status}
        return await self.write(work)

    def _target(self, s: Session, club_id: int, who: int) -> m.ClubMember:
        them = sql.membership(s, club_id, who)
        if them is None:
            raise sql.UnknownMember(f"player {who} is not a member of this club, nor asked to be")
        return them

    async def remove(self, player: Caller, club_id: int, who: int) -> None:
        """An admin removes a member or declines a join request; an admin is removed by the
        owner only; the owner by nobody (he hands the club over first)."""
        def work(s: Session) -> None:
            _, me = self.admin(s, club_id, player.id)
            them = self._target(s, club_id, who)
            if them.role == "owner":
                raise sql.OwnerStays("the owner cannot be removed; he hands the club over first")
            if them.role == "admin" and me.role != "owner":
                raise sql.NotClubOwner("only the owner removes an admin")
            sql.remove_member(s, club_id, who)
        await self.write(work)

    async def leave(self, player: Caller, club_id: int) -> None:
        """The caller leaves (or withdraws his join request); the owner hands over first."""
        def work(s: Session) -> None:
            sql.club_row(s, club_id, lock=s.info["lock"])
            me = sql.membership(s, club_id, player.id)
            if me is None:
                raise sql.UnknownMember("you are not a member of this club")
            if me.role == "owner":
                raise sql.OwnerStays("the owner leaves only after handing the club over (transfer)")
            sql.remove_member(s, club_id, player.id)
        await self.write(work)

    async def set_role(self, player: Caller, club_id: int, who: int, role: str) -> dict:
        def work(s: Session) -> dict:
            self._owner(s, club_id, player.id)
            them = self._target(s, club_id, who)
            if them.status != "active":
                raise sql.UnknownMember(f"player {who} has asked to join; approve him first")
            if them.role == "owner":
                raise sql.OwnerStays("the owner's role changes only by handing the club over")
            them.role = role
            return {"club": club_id, "player": who, "role": them.role, "status": them.status}
        return await self.write(work)

    async def transfer(self, player: Caller, club_id: int, to: int) -> dict:
        """The owner hands the club to an active member, and stays on as an admin."""
        def work(s: Session) -> None:
            club = self._owner(s, club_id, player.id)
            them = self._target(s, club_id, to)
            if them.status != "active":
                raise sql.UnknownMember(f"player {to} has asked to join; approve him first")
            if to == player.id:
                return
            sql.membership(s, club_id, player.id).role = "admin"  # type: ignore[union-attr]
            them.role = "owner"
            club.owner_id = to
        await self.write(work)
        return await self.page(player, club_id)

    # -- invites --------------------------------------------------------------------------

    async def create_invite(self, player: Caller, club_id: int) -> dict:
        def work(s: Session) -> dict:
            self.admin(s, club_id, player.id)
            return invite_dict(sql.new_invite(s, club_id, player.id))
        return await self.write(work)

    async def invites(self, player: Caller, club_id: int) -> list[dict]:
        def work(s: Session) -> list[dict]:
            self.admin(s, club_id, player.id)
            return [invite_dict(x) for x in sql.open_invites(s, club_id)]
        return await self.read(work)

    async def revoke_invite(self, player: Caller, club_id: int, invite_id: int) -> None:
        def work(s: Session) -> None:
            self.admin(s, club_id, player.id)
            invite = s.get(m.ClubInvite, invite_id)
            if invite is None or invite.club_id != club_id or invite.revoked_at is not None:
                raise sql.UnknownInvite(f"no open invite {invite_id} in this club")
            invite.revoked_at = m.utcnow()
        await self.write(work)

    # -- presets ---------------------------------------------------------------------------

    async def presets(self, player: Caller, club_id: int) -> list[dict]:
        def work(s: Session) -> list[dict]:
            self.visible(s, club_id, player.id)
            return [preset_dict(x) for x in sql.presets(s, club_id)]
        return await self.read(work)

    async def save_preset(self, player: Caller, club_id: int, preset_id: int | None, name: str, variant: str,
                          options: dict | None, room: dict) -> dict:
        """Create (``preset_id`` None) or replace a preset: its rules checked as a new
        room's are (rooms.service.resolve_rules), its room's seats with them."""
        name = named(name, "the preset's name")
        variant_row, resolved, seats = resolve_rules(variant, options, room.get("seats"))

        def work(s: Session) -> dict:
            self.admin(s, club_id, player.id)
            sql.check_preset_name(s, club_id, name, but=preset_id)
            if preset_id is None:
                row = m.ClubPreset(club_id=club_id)
                s.add(row)
            else:
                row = sql.preset_row(s, club_id, preset_id)
            row.name, row.variant, row.options = name, variant_row.id, resolved
            row.room, row.updated_at = {**room, "seats": seats}, m.utcnow()
            s.flush()
            return preset_dict(row)
        return await self.write(work)

    async def delete_preset(self, player: Caller, club_id: int, preset_id: int) -> None:
        """Rooms opened from it keep their copy (their ``preset_id`` becomes null)."""
        def work(s: Session) -> None:
            self.admin(s, club_id, player.id)
            s.delete(sql.preset_row(s, club_id, preset_id))
        await self.write(work)

    async def preset_for_room(self, player: Caller, preset_id: int, variant: str | None,
                              options: dict | None) -> dict:
        """A preset a member opens a room from: {id, club, name, variant, options, room}."""
        if variant is not None or options is not None:
            raise sql.PresetFixesRules("a room from a preset takes its variant and options; give neither")

        def work(s: Session) -> dict:
            row = sql.preset_row(s, None, preset_id)
            me = sql.membership(s, row.club_id, player.id)
            if me is None or me.status != "active":
                raise sql.NotMember("only the club's members open rooms from its presets")
            return {"id": row.id, "club": row.club_id, "name": row.name, "variant": row.variant,
                    "options": row.options, "room": row.room}
        return await self.read(work)

    # -- seasons ----------------------------------------------------------------------------

    def _season_brief(self, row: m.Season) -> dict:
        return {"id": row.id, "name": row.name, "starts_at": sql.utc(row.starts_at), "ends_at": sql.utc(row.ends_at),
                "families": row.families, "points": row.points, "min_matches": row.min_matches,
                "closed_at": sql.utc(row.closed_at), "winners": row.winners}

    def _season(self, s: Session, row: m.Season) -> dict:
        table = rank_table(sql.table_rows(s, row.id), row.min_matches)
        ratings = sorted(({**r, "ordinal": round(ordinal(r["mu"], r["sigma"]), 3)} for r in sql.rating_rows(s, row.id)),
                         key=lambda r: (r["family"], -r["ordinal"], r["player"]))
        return {**self._season_brief(row), "table": table, "ratings": ratings}

    async def create_season(self, player: Caller, club_id: int, fields: dict) -> dict:
        """A season; the club's matches already ended within its dates count at once."""
        if fields["ends_at"] <= fields["starts_at"]:
            raise sql.BadSeason("a season ends after it starts")
        # kept in UTC (SQLite keeps no zone: a time stored with another offset would move)
        fields = {**fields, "name": named(fields["name"], "the season's name"),
                  "starts_at": fields["starts_at"].astimezone(UTC), "ends_at": fields["ends_at"].astimezone(UTC)}

        def work(s: Session) -> dict:
            rsql.lock_ratings(s)  # matches ending now wait, then count in it (app/ratings.py)
            self.admin(s, club_id, player.id)
            row = m.Season(club_id=club_id, name=fields["name"], starts_at=fields["starts_at"],
                           ends_at=fields["ends_at"], families=sorted(set(fields["families"])),
                           points=list(fields["points"]), min_matches=fields["min_matches"])
            s.add(row)
            s.flush()
            fill_season(s, row)
            s.flush()
            return self._season(s, row)
        return await self.write(work)

    async def seasons(self, player: Caller, club_id: int) -> list[dict]:
        def work(s: Session) -> list[dict]:
            self.visible(s, club_id, player.id)
            return [self._season_brief(x) for x in sql.seasons(s, club_id)]
        return await self.read(work)

    async def season(self, player: Caller, club_id: int, season_id: int) -> dict:
        def work(s: Session) -> dict:
            self.visible(s, club_id, player.id)
            return self._season(s, sql.season_row(s, club_id, season_id))
        return await self.read(work)

    async def close_season(self, player: Caller, club_id: int, season_id: int) -> dict:
        """No more matches count; the winners (rank 1, with those sharing it) are kept."""
        def work(s: Session) -> dict:
            rsql.lock_ratings(s)
            self.admin(s, club_id, player.id)
            row = sql.season_row(s, club_id, season_id, lock=s.info["lock"])
            if row.closed_at is not None:
                raise sql.SeasonClosed("this season is closed already")
            table = rank_table(sql.table_rows(s, row.id), row.min_matches)
            row.closed_at = m.utcnow()
            row.winners = [{k: r[k] for k in ("player", "name", "points", "matches")}
                           for r in table if r["rank"] == 1]
            s.flush()
            return self._season(s, row)
        return await self.write(work)

    async def season_csv(self, player: Caller, club_id: int, season_id: int) -> tuple[str, str]:
        season = await self.season(player, club_id, season_id)
        return table_csv(season["table"]), season["name"]


def _aware(dt: datetime) -> datetime:
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)
