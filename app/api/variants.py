"""The variants the engine has: whatever ``engine.VARIANTS`` lists, with option schemas."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from engine import VARIANTS, find_variant

from ..db.errors import UnknownVariant
from ..errors import responses
from .schemas import VARIANT_IDS, VariantPublic, enum

router = APIRouter(prefix="/api/variants", tags=["variants"])


def variant_dict(variant_id: str) -> dict:
    v = find_variant(variant_id)
    return {"id": v.id, "family": v.family, "name": v.name, "seat_counts": list(v.seat_counts),
            "options": v.options_schema()}


@router.get("", response_model=list[VariantPublic])
def list_variants() -> list[dict]:
    return [variant_dict(v) for v in VARIANTS]


@router.get("/{variant_id}", response_model=VariantPublic, responses=responses(UnknownVariant))
def get_variant(variant_id: Annotated[str, Path(max_length=64, json_schema_extra=enum(VARIANT_IDS))]) -> dict:
    try:
        return variant_dict(variant_id)
    except KeyError:
        raise UnknownVariant(f"no variant {variant_id!r}") from None
