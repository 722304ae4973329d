"""The typed columns of the score and role rows (plain functions of the engine's rows).

The engine's ``scoresheet()`` rows and ``role_table()`` rows are stored whole (JSON,
``row``) and also as typed, indexed columns that history and the players'
statistics read: per deal (``score_rows``: dealer, declarer, contract, bid, made,
trump, round) and per seat (``seat_results``: score, total, declarer, made, bid,
marriages, tricks, title).  A key a family lacks is null."""

from __future__ import annotations

from typing import Any


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _at(values: Any, seat: int) -> Any:
    return values[seat] if isinstance(values, list) and seat < len(values) else None


def made(row: dict) -> bool | None:
    """Тысяча: did the declarer make the contract?  The engine's row says it (``made``:
    true, false, or null for a deal not played out); a row stored before it did is
    read by the sign of the declarer's score."""
    if "made" in row:
        return row["made"] if isinstance(row["made"], bool) else None
    declarer = _int(row.get("declarer"))
    if declarer is None:
        return None
    score = _num(_at(row.get("scores"), declarer))
    return None if score is None else score > 0


def deal_columns(row: dict) -> dict:
    """The typed columns of a scoresheet row."""
    contract = row.get("contract")
    return {
        "dealer": _int(row.get("dealer")),
        "declarer": _int(row.get("declarer")),
        "contract": None if contract is None else str(contract)[:32],
        "bid": _int(row.get("bid")),
        "made": made(row),
        "trump": row.get("trump") if isinstance(row.get("trump"), str) else None,
        "round": _int(row.get("round")),
    }


def seat_rows(kind: str, idx: int, row: dict, seats: int) -> list[dict]:
    """One typed row per seat of a scoresheet row (kind "deal", idx: the deal number) or
    a role-table row (kind "round", idx: its place in the table)."""
    declarer = _int(row.get("declarer"))
    said = row.get("marriages")
    marriages: list = said if isinstance(said, list) else []
    out = []
    for seat in range(seats):
        is_declarer = declarer == seat
        title = _at(row.get("titles"), seat)
        out.append({
            "kind": kind, "idx": idx, "seat": seat,
            "score": _num(_at(row.get("scores"), seat)),
            "total": _num(_at(row.get("totals"), seat)),
            "declarer": is_declarer,
            "made": made(row) if is_declarer else None,
            "bid": _int(row.get("bid")) if is_declarer else None,
            "marriages": len([m for m in marriages if isinstance(m, list) and m and m[0] == seat]),
            "tricks": _int(_at(row.get("tricks"), seat)),
            "title": title if isinstance(title, str) else None,
        })
    return out
