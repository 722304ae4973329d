"""Match history: summaries, the detail with scoresheet / role table and every finished
deal, exports, and the players' own records (worker threads; SQL in app/db/store.py).

Rule C-5: a finished deal is public; the seed and the full action log (which
holds face-down cards) are shown only once the whole match is over.  A duplicate's
table (app/duplicates.py) shows a deal only once every table has finished it, and its
seed and log once every table's match is over (``dsql.gate``)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from ..db import duplicates as dsql
from ..db import models as m
from ..db import ratings as rsql
from ..db import store
from ..db.errors import UnknownDeal, UnknownPlayer
from ..db.session import Database
from ..ratings import with_places
from .live import ABANDON, LiveMatch, undone_target
from .replays import ReplayCache
from .takeback import masked

EXPORT_FORMAT = "kozyr-match/1"
#: A match is over when it finished or its host stopped it (app/rooms/abandon.py): then
#: its seed and whole log are public.
OVER = ("finished", "abandoned")


def takebacks(actions: list, seats: list[dict], deals: list[dict], *, finished: bool) -> list[dict]:
    """The match's take-backs, each as the history shows it (every one logged was agreed by all),
    with where the replay marks it: ``deal`` and ``step`` (the undone action came after step
    ``step`` of that deal's ``deal_positions``; both None while its deal is not finished).
    The positions come from the log as ``played_log`` reads it, so the steps are the same.
    Cards are written ``??`` until the deal is over (rule C-5: an undone action may have been
    face down; once the deal is over its hands are public)."""
    names = {s["seat"]: s["name"] for s in seats}
    by_seq = {a.seq: a for a in actions}
    kept: list[int] = []  # the seqs played_log keeps so far
    before: dict[int, int] = {}  # seq -> actions played before it
    for a in actions:
        target = undone_target(a.action)
        if a.action == ABANDON:
            continue
        if target is None:
            before[a.seq] = len(kept)
            kept.append(a.seq)
        elif kept and kept[-1] == target:
            kept.pop()
    starts, at = [], 0
    for d in deals:
        starts.append((d["deal"], at, len(d["actions"])))
        at += len(d["actions"])
    out = []
    for a in actions:
        target = undone_target(a.action)
        if target is None or target not in by_seq:
            continue
        undone = by_seq[target]
        index = before.get(target, -1)
        deal, step = next(((n, index - first) for n, first, length in starts
                           if first <= index < first + length), (None, None))
        action = undone.action if finished or deal is not None else masked(undone.action)
        name = names.get(undone.seat) or f"seat {undone.seat}"
        out.append({"seq": a.seq, "undone": target, "seat": undone.seat, "action": action,
                    "deal": deal, "step": step, "text": f"{name} took back {action}, agreed by all"})
    return out


class History:
    def __init__(self, db: Database, live: dict[str, LiveMatch], replays: ReplayCache) -> None:
        self.db = db
        self.live = live  # the live matches (their version is ahead of the row's)
        self.replays = replays  # engine matches rebuilt from the log, per (match, version)

    def summary(self, s: Session, row: m.Match, room_code: str | None = None) -> dict:
        live = self.live.get(row.id)
        return {
            "id": row.id, "room": room_code or store.room_code_of(s, row.room_id), "number": row.number,
            "variant": row.variant, "options": row.options, "seats": store.match_seats(s, row.id),
            "status": row.status, "version": max(row.version, live.version if live else 0),
            "result": with_places(row.result, row.seat_count), "created_at": store.utc(row.created_at),
            "finished_at": store.utc(row.finished_at), "preset": row.preset_name,
            "coached": row.coached,
        }

    def matches(self, *, room_code: str | None = None, **filters) -> list[dict]:
        """Matches of a room or of a player (store.list_matches filters), newest first."""
        with self.db.read() as s:
            room_id = store.room_by_code(s, room_code).id if room_code is not None else None
            rows = store.list_matches(s, room_id=room_id, **filters)
            return [self.summary(s, r) for r in rows]

    def games(self, player_id: int, limit: int = 100) -> list[dict]:
        """The player's running matches with whose turn it is (the engine's ``to_act`` of
        the log as stored) and since when (the latest action, else the start): his turn
        first, then the longest waiting first."""
        with self.db.read() as s:
            rows = store.list_matches(s, player_id=player_id, status="playing", limit=limit)
            muted = store.muted_room_ids(s, player_id)
            loaded = [(row, self.summary(s, row), store.actions_of(s, row.id),
                       store.last_action_at(s, row.id) or row.created_at) for row in rows]
            clocks = store.clocks_of(s, [row.id for row in rows])
        out = []
        for row, info, actions, since in loaded:
            match = self.replays.get(row, actions)
            to_act = [] if match.is_over() else match.to_act()
            mine = {x["seat"] for x in info["seats"] if x["player"] == player_id}
            pace, due, state = clocks.get(row.id, ("live", None, None))
            out.append({**info, "version": len(actions), "to_act": to_act,
                        "my_turn": bool(mine & set(to_act)), "since": store.utc(since),
                        "muted": row.room_id in muted, "pace": pace,
                        "due": store.utc(due) if state == "running" else None, "expired": state == "expired"})
        # Mine first, the soonest deadline first (an expired one before all), then the
        # longest waiting.
        out.sort(key=lambda g: (not g["my_turn"], not g["expired"], g["due"] is None, g["due"] or "",
                                g["since"]))
        return out

    def mute(self, player_id: int, code: str, muted: bool) -> None:
        """Mute (or unmute) a room for the player: ``UnknownRoom`` for a code no room has."""
        with self.db.write() as s:
            store.set_muted(s, player_id, store.room_by_code(s, code).id, muted)

    def _load(self, match_id: str):
        """The match's summary, row, engine match (replayed) and gate (a duplicate's table)."""
        with self.db.read() as s:
            row = store.match_row(s, match_id)
            info = self.summary(s, row)
            actions = store.actions_of(s, row.id)
            info["version"] = len(actions)
            gate = dsql.gate(s, row)
        # A separate engine object: the live match is never touched outside its lock.
        match = self.replays.get(row, actions)
        marks = takebacks(actions, info["seats"], match.history(), finished=row.status in OVER)
        info["takebacks"] = [t for t in marks if gate.shown is None
                             or (t["deal"] is not None and t["deal"] <= gate.shown)]
        return info, row, match, gate

    @staticmethod
    def _shown(match, gate: dsql.Gate) -> dict:
        """The scoresheet, role table and finished deals as far as ``gate`` shows them."""
        def upto(rows: list[dict]) -> list[dict]:
            return rows if gate.shown is None else [r for r in rows if r["deal"] <= gate.shown]
        return {"scoresheet": upto(match.scoresheet()), "role_table": match.role_table(),
                "deals": upto(match.history())}

    def detail(self, match_id: str) -> dict:
        info, row, match, gate = self._load(match_id)
        public = row.status in OVER and gate.all_over
        if match.is_over():  # the engine's own result (its places by the family's tie rules)
            info["result"] = match.result()
        return {**info,
                "seed": row.seed if public else None,
                "first_dealer": row.first_dealer if public else None,
                **self._shown(match, gate)}

    def positions(self, match_id: str, deal: int) -> dict:
        """The engine's ``deal_positions(deal)`` of a finished deal (public, rule C-5; a
        duplicate's deal once every table has finished it: DealHidden before)."""
        _, _, match, gate = self._load(match_id)
        if not any(h["deal"] == deal for h in match.history()):
            raise UnknownDeal(f"deal {deal} of match {match_id!r} is not finished")
        if gate.shown is not None and deal > gate.shown:
            raise dsql.DealHidden(f"deal {deal} is a duplicate's deal that another table has not finished")
        return match.deal_positions(deal)

    def finished_deal(self, match_id: str, deal: int) -> tuple[m.Match, dict]:
        """A deal of a match that is over, to be dealt again ("replay this deal"): the match's
        row and the deal's history entry.  MatchNotOver while the match (or another table
        of its duplicate) is still played; UnknownDeal for a deal it did not finish."""
        _, row, match, gate = self._load(match_id)
        if row.status not in OVER or not gate.all_over:
            raise dsql.MatchNotOver("a deal is dealt again only once its match is over "
                                    "(every table's, for a duplicate)")
        entry = next((h for h in match.history() if h["deal"] == deal), None)
        if entry is None:
            raise UnknownDeal(f"deal {deal} of match {match_id!r} is not a finished deal")
        return row, entry

    def export(self, match_id: str) -> dict:
        info, row, match, gate = self._load(match_id)
        out = {"format": EXPORT_FORMAT, **info, "seat_count": row.seat_count}
        if row.status in OVER and gate.all_over:
            out.update(seed=row.seed, first_dealer=row.first_dealer, preset_deals=row.preset_deals,
                       actions=[list(a) for a in match.actions])
        out.update(self._shown(match, gate))
        return out

    def stats(self, player_id: int, club: int | None = None, preset: str | None = None) -> dict:
        with self.db.read() as s:
            if store.find_player(s, player_id) is None:
                raise UnknownPlayer(f"no player {player_id}")
            return {**store.player_stats(s, player_id, club=club, preset=preset),
                    "families": rsql.family_stats_from_rows(s, player_id, club=club, preset=preset)}
