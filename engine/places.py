"""Final places for ``result()["places"]``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any


def places_of(keys: Sequence[Any], winners: Iterable[int]) -> list[int]:
    """Each seat's final place (1 = first) for ``result()["places"]``.

    ``winners`` (the family's winners, its tie rule for first place applied) are
    first; every other seat is placed below them by its ``keys`` entry, higher
    first (a total, or a tuple holding the family's tie-breaks).  Seats whose
    entries are equal share a place and the places they fill are skipped, as in
    a sports table: ``1, 2, 2, 4``.  None of the rules orders ties below first
    place (T-29, M-29, K-14 speak of the winner only), so there equal totals share."""
    first = set(winners)
    ranked = [(seat in first, keys[seat]) for seat in range(len(keys))]
    return [1 + sum(1 for other in ranked if other > mine) for mine in ranked]
