"""Match history routes: detail with scoresheet / role table and every finished deal,
exports (app/rooms/history.py; rule C-5 there)."""

from __future__ import annotations

import csv
import io
import json
from typing import Annotated

from fastapi import APIRouter, Path, Query
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from ..db.errors import CoachOff, NotYourSeat, RateLimited, UnknownDeal, UnknownMatch, UnknownSeat
from ..errors import responses
from .deps import AUTH, HistoryDep, PlayerDep, ReviewsDep
from .schemas import MAX_COUNT, MatchDetail, MatchKey

MatchId = Annotated[MatchKey, Path(description="a match's id")]
MATCH = responses(UnknownMatch)

router = APIRouter(prefix="/api/matches", tags=["matches"])


def export_text(data: dict) -> str:
    names = {p["seat"]: p["name"] for p in data["seats"]}
    lines = [f"Kozyr match {data['id']} — {data['variant']} — room {data['room']}, match #{data['number']}",
             "Players: " + ", ".join(f"{n}: {names[n]}" for n in sorted(names)),
             "Options: " + ", ".join(f"{k}={v}" for k, v in data["options"].items()),
             *([f"Preset: {data['preset']}"] if data.get("preset") else []),
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


@router.get("/{match_id}", response_model=MatchDetail, responses=MATCH)
async def get_match(match_id: MatchId, history: HistoryDep) -> dict:
    return await run_in_threadpool(history.detail, match_id)


@router.get("/{match_id}/export.json", responses={200: {"content": {"application/json": {}}}, **MATCH})
async def export_json(match_id: MatchId, history: HistoryDep) -> Response:
    data = await run_in_threadpool(history.export, match_id)
    return Response(json.dumps(data, ensure_ascii=False, indent=1), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="kozyr-{match_id}.json"'})


@router.get("/{match_id}/export.txt", response_class=Response,  # the errors stay JSON
            responses={200: {"content": {"text/plain": {}}}, **MATCH})
async def export_txt(match_id: MatchId, history: HistoryDep) -> PlainTextResponse:
    data = await run_in_threadpool(history.export, match_id)
    return PlainTextResponse(export_text(data))


def _cell(value) -> object:
    """A CSV cell: numbers as they are, other values as text, and text a spreadsheet
    would take for a formula (=, +, -, @ first) quoted with a leading apostrophe."""
    if value is None or isinstance(value, bool | int | float):
        return value
    text = value if isinstance(value, str) else _plain(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _columns(rows: list[dict], skip: tuple[str, ...], seats: int) -> list[tuple[str, bool]]:
    """The rows' own columns after ``skip``, in first-seen order: (key, per seat) — a key
    whose every value is a list of one scalar per seat gets a column per seat."""
    keys: dict[str, bool] = {}
    for row in rows:
        for key, value in row.items():
            if key in skip:
                continue
            per_seat = (isinstance(value, list) and len(value) == seats
                        and all(v is None or isinstance(v, str | int | float) for v in value))
            keys[key] = keys.get(key, True) and per_seat
    return list(keys.items())


def scoresheet_csv_text(detail: dict) -> str:
    """The scoresheet as CSV, a row per finished deal: deal, dealer, each seat's score and
    total, then the variant's own columns (contract, declarer, bid, ...; per-seat lists
    as a column per seat) — after a row ``preset, <name>`` and a blank line when the
    room was opened from a club's preset; then, where the family has one, a blank line and the role
    table, a row per round: each seat's title and tricks (and any further columns)."""
    names = [_cell(x["name"]) for x in detail["seats"]]
    n = len(names)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")

    def table(rows: list[dict], first: tuple[str, ...], per_seat: dict[str, str]) -> None:
        extra = _columns(rows, first + tuple(per_seat), n)
        w.writerow([*first, *[f"{name} {label}" for label in per_seat.values() for name in names],
                    *[f"{name} {k}" if seat_wise else k for k, seat_wise in extra
                      for name in (names if seat_wise else [None])]])
        for row in rows:
            cells = [_cell(row.get(k)) for k in first]
            for k in per_seat:
                values = row.get(k) or []
                cells += [_cell(values[i]) if i < len(values) else None for i in range(n)]
            for k, seat_wise in extra:
                if seat_wise:
                    cells += [_cell(v) for v in (row.get(k) or [None] * n)]
                else:
                    cells.append(_cell(row.get(k)))
            w.writerow(cells)

    if detail.get("preset"):  # a club's house rules by name (issue 37): a row of its own first
        w.writerow(["preset", _cell(detail["preset"])])
        w.writerow([])
    table(detail["scoresheet"], ("deal", "dealer"), {"scores": "score", "totals": "total"})
    if detail["role_table"]:
        w.writerow([])
        table(detail["role_table"], ("round",), {"titles": "title", "tricks": "tricks"})
    return out.getvalue()


@router.get("/{match_id}/scoresheet.csv", response_class=Response,
            responses={200: {"content": {"text/csv": {}}}, **MATCH})
async def scoresheet_csv(match_id: MatchId, history: HistoryDep) -> Response:
    """The scoresheet and the role table as CSV (scoresheet_csv_text): what the match's
    page shows, nothing more (rule C-5)."""
    detail = await run_in_threadpool(history.detail, match_id)
    return Response(scoresheet_csv_text(detail), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="kozyr-{match_id}.csv"'})


class PositionStep(BaseModel):
    """One step of the engine's ``deal_positions``: where every card lies after the step's
    action, and what the engine decided at it; the family's own piles (face_up, stock,
    aside, spares, discards, chooser ...) as further keys."""

    model_config = ConfigDict(extra="allow")
    action: list[int | str] | None = Field(description="[seat, action]; null at step 0, the deal as dealt")
    hands: list[list[str]] = Field(description="per seat, sorted")
    talon: list[str] | None
    trick: list[list[int | str]] = Field(description="[seat, card] in play order")
    taken: list[list[str]] | None = Field(description="per seat, the cards of the tricks taken")
    trump: str | None
    marriages: list[list[int | str]] | None
    contract: int | str | None
    declarer: int | None
    won_by: int | None = Field(description="the seat that took the trick this step's card completed (rule C-4)")
    talon_to: int | None = Field(description="the seat into whose hand the talon went at this step (Тысяча)")


class DealPositions(BaseModel):
    deal: int
    steps: list[PositionStep] = Field(
        description="step 0 as dealt, then one per action: where every card lies (hands, talon, "
                    "trick, taken ...), trump, marriages, contract, declarer, who took the trick "
                    "(won_by) and the talon (talon_to)")


@router.get("/{match_id}/deals/{deal}/positions", response_model=DealPositions,
            responses=responses(UnknownMatch, UnknownDeal))
async def get_deal_positions(match_id: MatchId, deal: Annotated[int, Path(ge=0, le=MAX_COUNT)], history: HistoryDep) -> dict:
    """The engine's ``deal_positions(deal)`` of a finished deal (404 ``unknown_deal`` before)."""
    return await run_in_threadpool(history.positions, match_id, deal)


class ReviewMark(BaseModel):
    """A decision of the seat where the coach's estimate of the action played was below
    the best by more than the threshold."""

    step: int = Field(description="the decision's place in the deal: the deal's positions step before it")
    version: int = Field(description="the decision's place in the match's played log")
    action_played: str
    best_action: str = Field(description="what the coach (the strong bot) would have played")
    gap: float = Field(description="the estimate of the best action less that of the action played: "
                                   "the seat's chance of winning the match, 0..1")
    reason: dict = Field(description="why the best action: a code with its facts (engine/bots/coach.py)")


class DealReviewOut(BaseModel):
    match: str
    deal: int
    seat: int
    reviewed: int = Field(description="the seat's decisions in the deal that were weighed (more than one choice)")
    threshold: float = Field(description="a decision is marked when its gap exceeds this")
    marked: list[ReviewMark]


@router.get("/{match_id}/deals/{deal}/review", response_model=DealReviewOut,
            responses=responses(*AUTH, UnknownMatch, UnknownSeat, UnknownDeal, NotYourSeat, CoachOff,
                                RateLimited))
async def get_deal_review(match_id: MatchId, deal: Annotated[int, Path(ge=0, le=MAX_COUNT)],
                          seat: Annotated[int, Query(ge=0, le=3, description="the seat reviewed")],
                          player: PlayerDep, reviews: ReviewsDep) -> dict:
    """The coach's review of ``seat``'s decisions in a finished deal of a match played
    with the coach on (app/rooms/review.py): worked out once in the bots' worker
    processes, then stored.  Once the match is over anybody signed in may ask; before,
    only the seat's player (403 ``not_your_seat``)."""
    return await reviews.review(player.id, match_id, deal, seat)
