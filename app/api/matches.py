"""Match history routes: detail with scoresheet / role table and every finished deal,
exports (app/rooms/history.py; rule C-5 there)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from .deps import KozyrDep
from .schemas import MatchDetail

router = APIRouter(prefix="/api/matches", tags=["matches"])


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
    return await run_in_threadpool(kozyr.history.detail, match_id)


@router.get("/{match_id}/export.json", responses={200: {"content": {"application/json": {}}}})
async def export_json(match_id: str, kozyr: KozyrDep) -> Response:
    data = await run_in_threadpool(kozyr.history.export, match_id)
    return Response(json.dumps(data, ensure_ascii=False, indent=1), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="kozyr-{match_id}.json"'})


@router.get("/{match_id}/export.txt", response_class=PlainTextResponse)
async def export_txt(match_id: str, kozyr: KozyrDep) -> str:
    data = await run_in_threadpool(kozyr.history.export, match_id)
    return export_text(data)


class DealPositions(BaseModel):
    deal: int
    steps: list[dict[str, Any]] = Field(
        description="step 0 as dealt, then one per action: where every card lies (hands, talon, "
                    "trick, taken ...), trump, marriages, contract, declarer")


@router.get("/{match_id}/deals/{deal}/positions", response_model=DealPositions)
async def get_deal_positions(match_id: str, deal: int, kozyr: KozyrDep) -> dict:
    """The engine's ``deal_positions(deal)`` of a finished deal (404 ``unknown_deal`` before)."""
    return await run_in_threadpool(kozyr.history.positions, match_id, deal)
