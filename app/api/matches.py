"""Match history: detail with scoresheet / role table and every finished deal, exports.

Rule C-5: a finished deal is public; the seed and the full action log (which
holds face-down cards) are shown only once the whole match is over."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ..db import models as m
from ..db import store
from ..errors import NotFound
from ..rooms.service import Kozyr, utc
from .deps import KozyrDep
from .schemas import MatchDetail

router = APIRouter(prefix="/api/matches", tags=["matches"])

EXPORT_FORMAT = "kozyr-match/1"


def summary(s: Session, kozyr: Kozyr, row: m.Match, room_code: str | None = None) -> dict:
    if room_code is None:
        room_code = s.get(m.Room, row.room_id).code
    live = kozyr.live.get(row.id)
    return {
        "id": row.id, "room": room_code, "number": row.number, "variant": row.variant,
        "options": row.options,
        "seats": store.match_seats(s, row.id),
        "status": row.status, "version": max(row.version, live.version if live else 0),
        "result": row.result, "created_at": utc(row.created_at), "finished_at": utc(row.finished_at),
    }


def summaries(s: Session, kozyr: Kozyr, rows: list[m.Match]) -> list[dict]:
    return [summary(s, kozyr, r) for r in rows]


def _load(kozyr: Kozyr, match_id: str) -> tuple[dict, m.Match, object]:
    with kozyr.db.read() as s:
        row = s.get(m.Match, match_id) if len(match_id) <= 32 else None
        if row is None:
            raise NotFound(f"no match {match_id!r}", code="unknown_match")
        info = summary(s, kozyr, row)
        actions = store.actions_of(s, row.id)
        info["version"] = len(actions)
    # A separate engine object: the live match is never touched outside its lock.
    return info, row, kozyr.replayed(row, actions)


def detail(kozyr: Kozyr, match_id: str) -> dict:
    info, row, match = _load(kozyr, match_id)
    finished = row.status == "finished"
    return {**info,
            "seed": row.seed if finished else None,
            "first_dealer": row.first_dealer if finished else None,
            "scoresheet": match.scoresheet(), "role_table": match.role_table(),
            "deals": match.history()}


def export(kozyr: Kozyr, match_id: str) -> dict:
    info, row, match = _load(kozyr, match_id)
    out = {"format": EXPORT_FORMAT, **info, "seat_count": row.seat_count}
    if row.status == "finished":
        out.update(seed=row.seed, first_dealer=row.first_dealer, preset_deals=row.preset_deals,
                   actions=[list(a) for a in match.actions])
    out.update(scoresheet=match.scoresheet(), role_table=match.role_table(), deals=match.history())
    return out


def export_text(data: dict) -> str:
    names = {p["seat"]: p["name"] for p in data["seats"]}
    lines = [f"Kozyr match {data['id']} — {data['variant']} — room {data['room']}, match #{data['number']}",
             "Players: " + ", ".join(f"{n}: {names[n]}" for n in sorted(names)),
             "Options: " + ", ".join(f"{k}={v}" for k, v in data["options"].items()),
             f"Status: {data['status']} (started {data['created_at']}"
             + (f", finished {data['finished_at']})" if data.get("finished_at") else ")")]
    if data.get("result"):
        r = data["result"]
        lines.append("Result: totals " + " / ".join(map(str, r.get("totals", [])))
                     + "; winners " + ", ".join(names.get(w, str(w)) for w in r.get("winners", [])))
    if "seed" in data:
        lines.append(f"Seed: {data['seed']}  first dealer: {data['first_dealer']}")
    for deal in data["deals"]:
        lines.append("")
        lines.append(f"Deal {deal.get('deal')} (dealer {deal.get('dealer')})")
        for key, value in deal.items():
            if key in ("deal", "dealer", "actions", "row"):
                continue
            lines.append(f"  {key}: {_plain(value)}")
        acts = deal.get("actions", [])
        for i in range(0, len(acts), 8):
            lines.append("  " + "  ".join(f"{names.get(s, s)}:{a}" for s, a in acts[i:i + 8]))
        row = deal.get("row", {})
        lines.append(f"  scores {_plain(row.get('scores'))}  totals {_plain(row.get('totals'))}")
    for role in data.get("role_table", []):
        lines.append(f"Round {role.get('round')}: titles {_plain(role.get('titles'))} "
                     f"tricks {_plain(role.get('tricks'))}")
    if data.get("actions") is not None and not data["deals"]:
        lines.append("Actions: " + " ".join(f"{s}:{a}" for s, a in data["actions"]))
    return "\n".join(lines) + "\n"


def _plain(value) -> str:
    if isinstance(value, list):
        if value and all(isinstance(v, list) for v in value):
            return " | ".join(" ".join(map(str, v)) for v in value)
        return " ".join(map(str, value))
    if isinstance(value, dict):
        return ", ".join(f"{k}={_plain(v)}" for k, v in value.items())
    return str(value)


@router.get("/{match_id}", response_model=MatchDetail)
async def get_match(match_id: str, kozyr: KozyrDep) -> dict:
    return await run_in_threadpool(detail, kozyr, match_id)


@router.get("/{match_id}/export.json", responses={200: {"content": {"application/json": {}}}})
async def export_json(match_id: str, kozyr: KozyrDep) -> Response:
    data = await run_in_threadpool(export, kozyr, match_id)
    return Response(json.dumps(data, ensure_ascii=False, indent=1), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="kozyr-{match_id}.json"'})


@router.get("/{match_id}/export.txt", response_class=PlainTextResponse)
async def export_txt(match_id: str, kozyr: KozyrDep) -> str:
    data = await run_in_threadpool(export, kozyr, match_id)
    return export_text(data)


class DealPositions(BaseModel):
    deal: int
    steps: list[dict[str, Any]] = Field(
        description="step 0 as dealt, then one per action: where every card lies (hands, talon, "
                    "trick, taken ...), trump, marriages, contract, declarer")


def positions(kozyr: Kozyr, match_id: str, deal: int) -> dict:
    """The engine's ``deal_positions(deal)`` of a finished deal (public, rule C-5)."""
    _, _, match = _load(kozyr, match_id)
    if not any(h["deal"] == deal for h in match.history()):
        raise NotFound(f"deal {deal} of match {match_id!r} is not finished", code="unknown_deal")
    return match.deal_positions(deal)


@router.get("/{match_id}/deals/{deal}/positions", response_model=DealPositions)
async def get_deal_positions(match_id: str, deal: int, kozyr: KozyrDep) -> dict:
    return await run_in_threadpool(positions, kozyr, match_id, deal)
