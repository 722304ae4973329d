"""Modern Тысяча: the state a match keeps, typed in one place (the play and
scoring mixins and the match read it; :mod:`thousand_modern` sets it up)."""

from __future__ import annotations

from typing import Any

from ..actions import Action
from ..errors import EngineError
from ..match import Match
from ..tricks import FollowRule


def card_of(act: Action) -> str:
    """The card of a card action (the stage tables only pass such actions here)."""
    if act.card is None:
        raise EngineError(f"{act.text}: no card")
    return act.card


def number_of(act: Action) -> int:
    """The amount (bid, contract) or the seat (give) of an action."""
    n = act.amount if act.amount is not None else act.target
    if n is None:
        raise EngineError(f"{act.text}: no number")
    return n


class ModernState(Match):
    # across deals (M-31, M-35)
    hand_size: int
    talon_count: int
    step: int
    goal: int
    barrel: str
    threshold: int
    follow: FollowRule
    totals: list[int]
    bolts: list[int]
    falls: list[int]
    writeoffs: list[int]
    on_barrel: list[bool]
    barrel_left: list[int | None]
    amounts: list[int]
    _struck: list[dict]
    # the deal
    calling: list[int]
    active: list[int]
    trick_size: int
    sitting_out: int | None
    next_seat: dict[int, int]
    before: list[int]
    in_b: set[int]
    golden: bool
    silenced: set[int]
    hands: list[list[str]]
    talon: list[str]
    stock: list[list[str]]
    dealt: bool
    turn: int  # always a seat while the match runs
    bids: list[tuple[int, str]]
    passed: set[int]
    high: int  # 0 until the opening call
    opened: bool
    blind_seat: int | None
    blind_deal: bool
    declarer: Any  # a seat, None until the bidding ends (the view shows null)
    bid: Any  # an amount, None until the bidding ends
    contract: int | None
    asked: list[int]
    requests_done: bool
    shown: list[str]
    gives: list[tuple[int, str]]
    discards: list[str]
    aside: list[str]
    trick: list[tuple[int, str]]
    trump: Any  # a suit or None
    won: list[list[str]]
    tricks_won: list[int]
    marriages: list[tuple[int, str, str]]
    played_by: dict[str, int]
    bans: list[set[str]]
    first_lead: bool
    _try_start: int

    # defined by the match and its mixins
    def _may_write_off(self) -> bool:
        raise NotImplementedError

    def _barrel_floor(self, seat: int | None = None) -> int:
        raise NotImplementedError

    def _opponents(self) -> list[int]:
        raise NotImplementedError

    def _score_played(self) -> None:
        raise NotImplementedError
