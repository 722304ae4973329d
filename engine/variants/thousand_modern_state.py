"""Modern Тысяча: the state a match keeps beyond the shared play's
(:class:`~engine.variants.thousand_play.ThousandDeal`), typed in one place (the
scoring mixin and the match read it; :mod:`thousand_modern` sets it up)."""

from __future__ import annotations

from ..actions import Action
from ..errors import EngineError
from .thousand_play import ThousandDeal


def number_of(act: Action) -> int:
    """The amount of a call (``bid:``, ``blind:``)."""
    n = act.amount if act.amount is not None else act.target
    if n is None:
        raise EngineError(f"{act.text}: no number")
    return n


class ModernState(ThousandDeal):
    MARRIAGE_RULE = "M-16"
    # across deals (M-31, M-35)
    hand_size: int
    talon_count: int
    barrel: str
    threshold: int
    totals: list[int]
    bolts: list[int]
    falls: list[int]
    writeoffs: list[int]
    on_barrel: list[bool]
    barrel_left: list[int | None]
    _struck: list[dict]
    # the deal
    in_b: set[int]
    golden: bool
    silenced: set[int]
    stock: list[list[str]]
    dealt: bool
    high: int  # 0 until the opening call
    opened: bool
    blind_seat: int | None
    blind_deal: bool
    asked: list[int]
    requests_done: bool
    _try_start: int

    # defined by the match
    def _may_write_off(self) -> bool:
        raise NotImplementedError

    def _barrel_floor(self, seat: int | None = None) -> int:
        raise NotImplementedError
