"""Тысяча (Thousand): `thousand-1001`, `thousand-1000`, `thousand-1000-2p`.

The rules are ../shared/rules/thousand.md (T-1 … T-30).  This module holds the
deal, the bidding and the talon, and the three variants as small subclasses of
:class:`ThousandMatch`; the trick play and the scoring are in
:mod:`thousand_play`, the rule tables in :mod:`thousand_cards`, the
determinization in :mod:`thousand_hidden`.

A deal moves through internal stages (the public ``phase`` in brackets):

* ``bidding``                              (bidding)
* 1001: ``give`` → ``contract``            (talon)   rule T-14
* 1000: ``contract`` → ``give``            (talon)   rules T-16, T-17
* 2p:   ``contract`` → ``take`` → ``discard`` (talon) rules T-16, T-19
* ``play``                                 (play)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from ..actions import Action
from ..dealing import deal_cards_round
from ..match import Match, Stage
from ..options import Option
from ..registry import Variant, register
from . import thousand_hidden
from .thousand_cards import (
    BASE_CAP,
    DECK,
    FOLLOW_1000,
    FOLLOW_1001,
    MARRIAGE_VALUE,
    NEAR_850,
    STRENGTH,
    bid_cap,
    locations,
    positions,
    put_deal_keys,
    round_to_5,
    round_to_10,
)
from .thousand_play import ThousandPlay

_BIDDING = Stage("bidding", "_legal_bidding", {"pass": "_do_call", "bid": "_do_call"})
_CONTRACT = Stage("talon", "_legal_contract", {"contract": "_do_contract", "throw": "_do_quit"})
_GIVE = Stage("talon", "_legal_give", {"give": "_do_give", "throw": "_do_quit",
                                        "refuse": "_do_quit"})
_PLAY = Stage("play", "_legal_play", {"play": "_do_play", "marriage": "_do_play",
                                      "throw": "_do_quit", "refuse": "_do_quit"})


class ThousandMatch(ThousandPlay):
    """What the three seed variants share; each is a small subclass below."""

    strength = STRENGTH
    deck = DECK
    confirm_kinds = frozenset({"throw", "refuse"})  # rules T-15, T-12, T-18
    _accepts_start_totals = True
    _SHARED = Match._SHARED | {"calling", "active", "next_seat", "before", "amounts",
                               "bid_codes", "contract_codes"}
    _APPEND_ONLY = Match._APPEND_ONLY | {"bids", "gives", "discards", "marriages"}
    #: The talon placements a seat may believe in (``thousand_hidden``).
    _talon_placements: ClassVar[Callable[..., list]]

    # -- across deals ---------------------------------------------------------

    def _setup(self) -> None:
        r = self.variant.rules
        self.hand_size = r["hand"]
        self.talon_size = r["talon"]
        self.min_bid = r["min_bid"]
        self.step = r["step"]
        self.goal = self.options["goal"]
        self.round5_up = self.options.get("round5_up", True)
        top = BASE_CAP + sum(MARRIAGE_VALUE.values())
        self.amounts = list(range(self.min_bid, top + 1, self.step))
        self.bid_codes = [f"bid:{n}" for n in self.amounts]
        self.contract_codes = [f"contract:{n}" for n in self.amounts]
        self.stage = "bidding"

    def _totals_changed(self) -> None:
        self.before = self._totals()

    # -- the deal (rules T-4, T-5, T-6) --------------------------------------

    def _start_deal(self) -> None:
        n = self.seats
        self._seat_deal()  # rules T-4, T-8
        calling = self.calling
        preset, deck = self._next_cards()
        if preset is not None:
            shape = [self.hand_size if s in calling else 0 for s in range(n)]
            hands, talon = self._check_preset(preset, shape, self.talon_size)
        else:  # rule T-6: one card at a time from first hand, then the talon
            hands, talon = deal_cards_round(deck, calling, self.hand_size, n)
        self.hands = hands
        self.talon = talon
        self._dealt = {"hands": [list(h) for h in hands], "talon": list(talon)}
        self.before = self._totals()  # the totals before this deal (rules T-13, T-27)
        # bidding
        self.stage = "bidding"
        self.turn = calling[0]
        self._clear_deal()
        self.high = None
        self.high_seat = None
        self.forced = False  # rule T-12: nobody bid

    # -- hooks ----------------------------------------------------------------

    def _why_illegal(self, seat: int, action: str) -> str | None:
        kind, _, arg = action.partition(":")
        phase = self._phase()
        if kind in ("play", "marriage"):
            return self._why_not_card(seat, kind, arg)
        if kind == "bid":
            if phase != "bidding":
                return "the bidding is over"
            return (f"bids go from {self._lowest_bid()} to {bid_cap(self.hands[seat])} "
                    f"in steps of {self.step} (rules T-9, T-10)")
        if kind == "contract":
            if self.stage != "contract":
                return "no contract can be named now (rules T-14, T-16)"
            return f"the contract must be one of {', '.join(self._contract_choices())}"
        if kind in ("throw", "refuse") and kind != self.QUIT:
            return self.WHY_NO_QUIT
        return None

    WHY_NO_QUIT: ClassVar[str] = ""

    def _view_extra(self, v: dict) -> None:
        put_deal_keys(self, v)
        v["face_up"] = self._face_up()
        v["forced"] = self.forced

    def _locations(self) -> dict[str, list[str]]:
        return locations(self)

    def _positions(self) -> dict:
        return positions(self, self._face_up())

    def _redeal_hidden(self, seat: int, rng: random.Random) -> None:
        thousand_hidden.redeal_hidden(self, seat, rng)

    # -- bidding (rules T-8 … T-13) ------------------------------------------

    def _lowest_bid(self) -> int:
        return self.min_bid if self.high is None else self.high + self.step  # rule T-8

    def _may_pass_or_bid(self, seat: int) -> tuple[bool, bool]:
        return True, True

    def _legal_bidding(self, seat: int) -> list[str]:
        may_pass, may_bid = self._may_pass_or_bid(seat)
        acts = ["pass"] if may_pass else []
        if may_bid:  # rules T-9, T-10
            lo = (self._lowest_bid() - self.min_bid) // self.step
            hi = (bid_cap(self.hands[seat]) - self.min_bid) // self.step
            acts += self.bid_codes[lo:hi + 1]
        return acts

    def _bid_made(self, seat: int, act: Action) -> None:
        self.high, self.high_seat = act.amount, seat

    def _end_bidding(self, declarer: int) -> None:
        self.declarer = self.turn = declarer
        if self.high_seat is None:  # rule T-12: nobody bid; the last hand plays at the minimum
            self.forced = True
            self.bid = self.min_bid
        else:  # rule T-11
            self.bid = self.high
        self._after_bidding(declarer)

    def _after_bidding(self, declarer: int) -> None:
        self.stage = "contract"  # rule T-16: the contract before the talon

    # -- the talon (rules T-14 … T-19) ---------------------------------------

    def _contract_choices(self) -> list[str]:
        """Rules T-14, T-16: from the winning bid (offered first) up to the cap."""
        lo = ((self.bid or self.min_bid) - self.min_bid) // self.step
        hi = (bid_cap(self.hands[self._declarer()]) - self.min_bid) // self.step
        return [self.contract_codes[lo]] + self.contract_codes[lo + 1:hi + 1]

    def _legal_contract(self, seat: int) -> list[str]:
        return self._contract_choices()



class Thousand1001Match(ThousandMatch):
    """``thousand-1001``: the talon into the declarer's hand, then the gives, then
    the contract (T-14); throwing in (T-15); rounding to 5; no fine at 850."""

    STAGES = {"bidding": _BIDDING, "give": _GIVE, "contract": _CONTRACT, "play": _PLAY}
    QUIT = "throw"  # rules T-15, T-12
    WHY_NO_QUIT = "refusing is a rule of thousand-1000 (T-18); here you may throw in (T-15)"
    follow = FOLLOW_1001
    marriage_any_lead = True  # rule T-23: on any lead
    FINES_AT_850 = False
    _talon_placements = staticmethod(thousand_hidden.placements_1001)

    def _after_bidding(self, declarer: int) -> None:
        self._take_talon(declarer)  # rule T-14: turned up and taken into hand

    def _after_gives(self, seat: int) -> None:
        self.stage = "contract"

    def _legal_contract(self, seat: int) -> list[str]:
        return self._contract_choices() + self._quits()

    def _after_contract(self, seat: int) -> None:
        self._start_play()

    def _round(self, points: int) -> int:
        return round_to_5(points)  # rule T-24


class Thousand1000Match(ThousandMatch):
    """``thousand-1000``: the contract, then the talon shown and given out one
    card to each opponent, the last to the declarer (T-16, T-17); refusing (T-18)."""

    STAGES = {"bidding": _BIDDING, "contract": _CONTRACT, "give": _GIVE, "play": _PLAY}
    QUIT = "refuse"  # rules T-12, T-18
    WHY_NO_QUIT = "throwing in is a rule of thousand-1001 (T-15); here you may refuse (T-18)"
    follow = FOLLOW_1000
    _talon_placements = staticmethod(thousand_hidden.placements_1000)

    def _after_contract(self, seat: int) -> None:
        self._turn_up_talon()  # rule T-17
        self.stage = "give"

    def _give_source(self, seat: int) -> list[str]:
        return self.talon

    def _after_gives(self, seat: int) -> None:
        self.hands[seat].extend(self.talon)  # rule T-17: the last card is the declarer's
        self.talon = []
        self._talon_taken(seat)
        self._start_play()

    def _round(self, points: int) -> int:
        return round_to_10(points, self.round5_up)  # rule T-24


class Thousand2pMatch(Thousand1000Match):
    """``thousand-1000-2p``: the contract, then the top or the bottom pair of the
    talon shown and two cards discarded (T-19); the 850 rule of bidding (T-13)."""

    STAGES = {"bidding": _BIDDING, "contract": _CONTRACT,
              "take": Stage("talon", "_legal_take", {"take": "_do_take"}),
              "discard": Stage("talon", "_legal_discard", {"discard": "_do_discard",
                                                           "refuse": "_do_quit"}),
              "play": _PLAY}
    _talon_placements = staticmethod(thousand_hidden.placements_2p)

    def _may_pass_or_bid(self, seat: int) -> tuple[bool, bool]:
        """Rule T-13: at 850 a player may not bid against one below it, who must bid."""
        mine, theirs = self.before[seat] >= NEAR_850, self.before[1 - seat] >= NEAR_850
        return not (theirs and not mine), not (mine and not theirs)

    def _after_contract(self, seat: int) -> None:
        self.stage = "take"  # rule T-19

    def _after_discards(self) -> None:
        self._start_play()  # rule T-19: the discards made, he leads


# --------------------------------------------------------------------------
# Variants (the table at the top of thousand.md; options rules T-24, T-30)


def _goal(default: int) -> Option:
    return Option("goal", "int", default, "T-30", label="Play to", min=100, max=10000, step=1,
                  group="match", description="The total a player must reach to win the match.")


ROUND5 = Option("round5_up", "bool", True, "T-24", label="A 5 rounds up", group="scoring",
                description="Card points ending in 5 are rounded up to the next ten, not down.")

register(Variant(id="thousand-1001", family="thousand", name="Thousand (1001)",
                 seat_counts=(3, 4), match_class=Thousand1001Match, options=[_goal(1001)],
                 rules={"hand": 7, "talon": 3, "min_bid": 40, "step": 5}))
register(Variant(id="thousand-1000", family="thousand", name="Thousand (1000)",
                 seat_counts=(3, 4), match_class=Thousand1000Match, options=[_goal(1000), ROUND5],
                 rules={"hand": 7, "talon": 3, "min_bid": 60, "step": 10}))
register(Variant(id="thousand-1000-2p", family="thousand", name="Thousand (1000, two players)",
                 seat_counts=(2,), match_class=Thousand2pMatch, options=[_goal(1000), ROUND5],
                 rules={"hand": 10, "talon": 4, "min_bid": 60, "step": 10}))
