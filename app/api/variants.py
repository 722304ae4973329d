"""The variants the engine has: whatever ``engine.VARIANTS`` lists, with option schemas."""

from __future__ import annotations

from fastapi import APIRouter

from engine import VARIANTS, find_variant

from ..db.errors import UnknownVariant
from .schemas import VariantPublic

router = APIRouter(prefix="/api/variants", tags=["variants"])


def variant_dict(variant_id: str) -> dict:
    v = find_variant(variant_id)
    return {"id": v.id, "family": v.family, "name": v.name, "seat_counts": list(v.seat_counts),
            "options": v.options_schema()}


@router.get("", response_model=list[VariantPublic])
def list_variants() -> list[dict]:
    return [variant_dict(v) for v in VARIANTS]


@router.get("/{variant_id}", response_model=VariantPublic)
def get_variant(variant_id: str) -> dict:
    try:
        return variant_dict(variant_id)
    except KeyError:
        raise UnknownVariant(f"no variant {variant_id!r}") from None
