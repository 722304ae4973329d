"""The engine match of a stored match, built in one place: variant, seats, seed, options,
first dealer, preset deals and the per-deal seed mode (rule C-3; ENGINE_API.md).  The live
match (live.py), the history's replays (replays.py) and the bots' worker processes
(botpool.py) all build theirs here.  Imports only the engine: the workers import it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import find_variant

if TYPE_CHECKING:  # pragma: no cover
    from engine import Match


def new_engine(variant_id: str, seats: int, *, seed: int, options: dict | None,
               first_dealer: int | None, preset_deals: list | None, deal_seeds: bool) -> Match:
    """A fresh engine match as the stored match was started (no action applied)."""
    return find_variant(variant_id).new_match(seats, seed=seed, options=options, first_dealer=first_dealer,
                                              preset_deals=preset_deals, deal_seeds=bool(deal_seeds))
