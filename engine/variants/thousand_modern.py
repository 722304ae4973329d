"""Modern Тысяча / Tysiąc: `thousand-ru` and `tysiac-pl`.

The rules are ../shared/rules/thousand-modern.md (M-1 … M-35, with the T-rules
of thousand.md it cites).  This module holds the variants, the deal, the
opening, the redeal requests, the bidding and the talon; the trick play is
the classic game's (:class:`~engine.variants.thousand_play.ThousandDeal`,
set by the options of M-15 … M-18 in ``_setup``), the scoring of a deal is in
:mod:`thousand_modern_score`, the determinization in
:mod:`thousand_modern_hidden`.

A deal moves through stages (the public ``phase`` in brackets), each with its
legal-action method and its action handlers in the tables below:

* ``opening``  the first hand's blind or forced call before the deal (bidding) M-5
* ``strike``   redeal requests (strike)                                       M-6
* ``bidding``  the forced 100 and the calls (bidding)                         M-4, M-7, M-8
* 3, 4 seats: ``give`` → ``contract`` (talon)                                 M-10, M-12, M-13
* 2 seats:   ``take`` → ``discard`` → ``contract`` (talon)                    M-11, M-12
* ``play``     (play)                                                         M-15 … M-17
"""

from __future__ import annotations

import random
from typing import ClassVar

from ..actions import Action
from ..dealing import deal_cards_round
from ..match import Match, Stage
from ..registry import Variant, register
from ..tricks import FollowRule
from . import thousand_hidden, thousand_modern_hidden, thousand_modern_score
from .thousand_cards import (
    DECK,
    MARRIAGE_SHOWN,
    STRENGTH,
    bid_cap,
    card_points,
    locations,
    positions,
    put_deal_keys,
)
from .thousand_modern_options import START_TOTALS, check_options, options_for
from .thousand_modern_state import number_of

# M-15 (T-21, T-22): follow suit, else trump; must_beat adds the duty to beat.
FOLLOW = FollowRule(must_trump=True, why_follow="you must follow the led suit (rule M-15)",
                    why_trump="you cannot follow suit, so you must play a trump (rule M-15)")
FOLLOW_BEAT = FollowRule(must_trump=True, why_follow=FOLLOW.why_follow, why_trump=FOLLOW.why_trump,
                         must_beat=True,
                         why_beat="you must beat the highest card of the led suit (rule M-15)")

NO_CAP = 400  # M-7: bid_cap = none
_CALLS = {"bid": "_do_call", "blind": "_do_call", "pass": "_do_call"}
# The wire forms, built once (the search bots list legal actions very often).
CODES = {kind: {a: f"{kind}:{a}" for a in range(0, NO_CAP + 1, 5)} for kind in ("bid", "contract")}
_QUIT = {"writeoff": "_do_writeoff"}
BLIND_BID = 120  # M-5
GOLDEN_BID = 120  # M-9
OPENING_BID = 100  # M-4


class ModernThousandMatch(thousand_modern_score.ScoreMixin):
    strength = STRENGTH
    deck = DECK
    confirm_kinds = frozenset({"writeoff", "strike", "blind"})  # M-14, M-6, M-13, M-5
    take_back_never: ClassVar[dict[str, str]] = {
        "blind": "a blind call cannot be taken back",  # M-5: made before the cards are seen
        "strike": "a strike cannot be taken back",  # M-6, M-13: the others answered it
        "marriage": MARRIAGE_SHOWN}  # M-16, T-23
    STAGES: ClassVar[dict[str, Stage]] = {
        "opening": Stage("bidding", "_legal_opening", _CALLS),  # M-5
        "strike": Stage("strike", "_legal_strike", {"strike": "_do_strike",
                                                    "accept": "_do_accept"}),  # M-6
        "bidding": Stage("bidding", "_legal_bidding", _CALLS),  # M-4, M-7, M-8
        "give": Stage("talon", "_legal_give", {"give": "_do_give", "strike": "_do_strike",
                                              **_QUIT}),  # M-10, M-13, M-14
        "take": Stage("talon", "_legal_take", {"take": "_do_take"}),  # M-11
        "discard": Stage("talon", "_legal_discard", {"discard": "_do_discard", **_QUIT}),
        "contract": Stage("talon", "_legal_contract", {"contract": "_do_contract", **_QUIT}),
        "play": Stage("play", "_legal_play", {"play": "_do_play", "marriage": "_do_play",
                                              **_QUIT}),  # M-15 … M-17
    }
    _SHARED: ClassVar[frozenset[str]] = Match._SHARED | {
        "calling", "active", "next_seat", "before", "amounts", "in_b", "silenced", "follow"}

    # -- across deals (M-31, M-35) --------------------------------------------

    def _setup(self) -> None:
        o = self.options
        check_options(o, self.seats)
        n = self.seats
        self.hand_size = 10 if n == 2 else 7  # M-1
        self.talon_count = 4 if n == 2 else 3
        self.step = o["bid_step"]
        self.follow = FOLLOW_BEAT if o["must_beat"] else FOLLOW  # M-15 (T-21, T-22)
        self.must_overtrump = o["must_overtrump"]  # M-15
        self.marriage_any_lead = o["marriage_first_lead"]  # M-16 (T-23: the 1001 form)
        self.ace_marriage = o["ace_marriage"]  # M-17
        self.goal = o["goal"]
        self.barrel = o["barrel"]
        self.threshold = self.goal - o["barrel_gap"]  # T of M-25, M-27 (unused with barrel off)
        self.totals = [o[START_TOTALS[k]] for k in range(n)]  # M-31
        self.bolts = [0] * n
        self.falls = [0] * n
        self.writeoffs = [0] * n
        self.on_barrel = [False] * n  # the frozen barrel (M-25)
        self.barrel_left: list[int | None] = [None] * n
        if self.barrel == "frozen":  # M-31: a start total of T starts on the barrel
            for s in range(n):
                if self.totals[s] == self.threshold:
                    self.on_barrel[s] = True
                    self.barrel_left[s] = o["barrel_deals"]
        self._struck: list[dict] = []  # voided deals waiting for the next scored one (M-34)
        self.amounts = list(range(OPENING_BID, NO_CAP + 1, self.step))
        self.stage = "opening"

    def _totals(self) -> list[int]:
        return list(self.totals)

    # -- the deal (M-3, T-4, T-5, T-6) ------------------------------------------

    def _start_deal(self) -> None:
        n = self.seats
        self._seat_deal()  # T-4: with four the dealer sits out; T-8
        calling = self.calling
        self._try_start = len(self.actions)
        self.before = list(self.totals)
        self.in_b = self._barrel_seats()  # B of M-23
        self.golden = self.options["golden"] and self.deal_no <= n  # M-9
        o = self.options
        self.silenced = {s for s in calling if o["silence"] and self.before[s] <= o["silence_below"]}
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.talon: list[str] = []
        self.dealt = False
        self._clear_deal()
        self.high = 0
        self.opened = False  # the forced or blind opening call is made (M-4)
        self.blind_seat: int | None = None  # while the blind stands (M-5)
        self.blind_deal = False
        self.asked: list[int] = []  # seats asked to strike so far, in order (M-6)
        self.requests_done = False
        self.turn = calling[0]
        self.stock = self._draw()  # the cards this deal will deal (hidden until dealt)
        first = calling[0]
        if (o["blind"] and not self.golden and not self.in_b  # M-5: a blind call is open
                and self.before[first] >= o["blind_min_total"] and first not in self.silenced):
            self.stage = "opening"  # step 1: before any card is dealt
            return
        self._deal()

    def _barrel_seats(self) -> set[int]:
        if self.barrel == "frozen":
            return {s for s in range(self.seats) if self.on_barrel[s]}
        if self.barrel == "open":  # M-27: a total of T or more at the start of the deal
            return {s for s in range(self.seats) if self.totals[s] >= self.threshold}
        return set()

    def _draw(self) -> list[list[str]]:
        """The next preset (checked) or the seeded shuffle dealt one card at a time
        (T-6): the hands per seat, then the talon.  Drawn when the deal starts;
        nothing shows them before they are dealt (M-5: after the opening call)."""
        preset, deck = self._next_cards()
        n = self.seats
        if preset is not None:
            shape = [self.hand_size if s in self.calling else 0 for s in range(n)]
            hands, talon = self._check_preset(preset, shape, self.talon_count)
        else:
            hands, talon = deal_cards_round(deck, self.calling, self.hand_size, n)
        return [*hands, talon]

    def _deal(self) -> None:
        """Step 2 (T-6), then the redeal requests (M-6)."""
        hands, talon = self.stock[:-1], self.stock[-1]
        self.stock = []
        self.hands, self.talon, self.dealt = hands, talon, True
        self._dealt = {"hands": [list(h) for h in hands], "talon": list(talon)}
        self._next_request(-1)

    def _qualifies(self, hand: list[str]) -> bool:
        """M-6: four nines, or fewer card points than ``redeal_weak_below``."""
        o = self.options
        if o["redeal_nines"] and sum(1 for c in hand if c[0] == "9") == 4:
            return True
        return 0 < o["redeal_weak_below"] and card_points(hand) < o["redeal_weak_below"]

    def _next_request(self, after: int) -> None:
        """Ask the next qualifying seat after position ``after`` of the calling order."""
        for i in range(after + 1, len(self.calling)):
            s = self.calling[i]
            if self._qualifies(self.hands[s]):
                self.asked.append(s)
                self.stage, self.turn = "strike", s
                return
        self.requests_done = True
        if self.golden:  # M-9: no bidding, the first hand declares 120
            self._declare(self.calling[0], GOLDEN_BID)
        else:
            self.stage = "bidding"
            self.turn = self.calling[1] if self.opened else self.calling[0]

    def _void(self, reason: str, seat: int) -> None:
        """M-34: the deal is voided; the same dealer deals again, same deal number.
        The history entry's ``actions`` keep every action since the deal began
        (the struck deals' too, as Król's do), so ``deal_positions`` replays it."""
        start = self._try_start
        self._struck.append({"hands": self._dealt["hands"], "talon": self._dealt["talon"],
                             "actions": [list(a) for a in self.actions[start:]]})
        self.last_deal = {"deal": self.deal_no, "scores": [0] * self.seats, "voided": reason,
                          "seat": seat}
        self.log = []
        self._dealt = {}
        self._start_deal()

    # -- the stage tables -------------------------------------------------------

    # -- opening and bidding (M-4, M-5, M-7, M-8) ------------------------------

    def _legal_opening(self, seat: int) -> list[str]:
        return [f"blind:{BLIND_BID}", f"bid:{OPENING_BID}"]  # M-5

    def _cap(self, hand: list[str]) -> int:
        """M-7 (T-10): 120 plus the marriages held; or 400 with bid_cap = none."""
        return NO_CAP if self.options["bid_cap"] == "none" else bid_cap(hand)

    def _calls(self, low: int, high: int, prefix: str) -> list[str]:
        codes = CODES[prefix]
        return [codes[a] for a in self.amounts if low <= a <= high]

    def _legal_bidding(self, seat: int) -> list[str]:
        if not self.opened:
            return [f"bid:{OPENING_BID}"]  # M-4: the first hand's only call
        if seat in self.silenced:
            return ["pass"]  # M-8
        return ["pass"] + self._calls(self.high + self.step, self._cap(self.hands[seat]), "bid")

    def _bid_made(self, seat: int, act: Action) -> None:
        amount = number_of(act)
        if not self.opened:
            self.opened = True
            if act.kind == "blind":
                self.blind_seat = seat  # M-5: the blind stands
        elif seat != self.blind_seat:
            self.blind_seat = None  # M-5: another seat's bid makes it lapse
        self.high = amount

    def _after_call(self, seat: int) -> None:
        if self.stage == "opening":
            self._deal()  # M-5: the cards are dealt right after the call
            return
        super()._after_call(seat)

    def _end_bidding(self, declarer: int) -> None:
        self.blind_deal = self.blind_seat == declarer  # M-5, M-22
        self._declare(declarer, self.high)

    def _declare(self, declarer: int, bid: int) -> None:
        self.declarer = self.turn = declarer
        self.bid = bid
        if self.seats == 2:
            self.stage = "take"  # M-11
            return
        self._take_talon(declarer)  # M-10: turned up for all and taken

    # -- redeal requests (M-6) ------------------------------------------------

    def _legal_strike(self, seat: int) -> list[str]:
        return ["strike", "accept"]

    def _do_accept(self, seat: int, act: Action) -> None:
        self._log(seat, "accept")
        self._next_request(self.calling.index(seat))

    def _do_strike(self, seat: int, act: Action) -> None:
        self._log(seat, "strike")
        self._void("strike" if self.stage == "strike" else "talon_strike", seat)  # M-6, M-13

    # -- the talon (M-10 … M-14) ----------------------------------------------

    def _barrel_floor(self, seat: int | None = None) -> int:
        """M-12: a frozen-barrel declarer must name what could take him off."""
        if self.barrel != "frozen" or (self.declarer if seat is None else seat) not in self.in_b:
            return 0
        gap = self.options["barrel_gap"]
        floor = -(-gap // self.step) * self.step
        if self.options["goal_strict"] and floor == gap:
            floor += self.step
        return floor

    def _may_write_off(self) -> bool:
        """M-14: not in a golden deal, not with a blind standing, within the limit."""
        o = self.options
        if o["writeoff"] == "off" or self.golden or self.blind_deal:
            return False
        limit = o["writeoff_limit"]
        return limit == 0 or self.writeoffs[self.declarer] < limit

    def _may_strike_talon(self) -> bool:
        """M-13: 3 or 4 seats, not golden, the forced 100 stood, before the first give."""
        if self.seats == 2 or self.golden or self.bid != OPENING_BID or self.gives:
            return False
        o = self.options
        if 0 < o["redeal_talon_below"] and card_points(self.shown) < o["redeal_talon_below"]:
            return True
        return o["redeal_talon_nines"] and sum(1 for c in self.shown if c[0] == "9") >= 2

    def _quits(self) -> list[str]:
        return ["writeoff"] if self._may_write_off() else []  # M-14

    def _legal_give(self, seat: int) -> list[str]:
        acts = super()._legal_give(seat)  # M-10: from the hand, then M-14
        return acts + ["strike"] if self._may_strike_talon() else acts  # M-13

    def _after_gives(self, seat: int) -> None:
        self.stage = "contract"  # M-12

    def _after_discards(self) -> None:
        self.stage = "contract"  # M-11, M-12

    def _legal_contract(self, seat: int) -> list[str]:
        """M-12: from L = max(winning bid, barrel floor) up to max(L, cap); golden: 120."""
        if self.golden:
            return [f"contract:{GOLDEN_BID}"]
        low = max(self.bid, self._barrel_floor())
        return self._calls(low, max(low, self._cap(self.hands[seat])), "contract") + self._quits()

    def _after_contract(self, seat: int) -> None:
        self._start_play()  # T-20: the declarer leads

    def _do_writeoff(self, seat: int, act: Action) -> None:
        self._log(seat, "writeoff")
        self._score_writeoff()

    # -- reasons for a rejected action (C-6) ------------------------------------

    def _why_illegal(self, seat: int, action: str) -> str | None:
        kind, _, arg = action.partition(":")
        stage = self.stage
        if kind in ("play", "marriage"):
            return self._why_not_card(seat, kind, arg)
        if kind == "bid":
            if stage not in ("bidding", "opening"):
                return "the bidding is over"
            if not self.opened:
                return "the first call is the forced bid:100 (rule M-4)"
            if seat in self.silenced:
                return "a silenced player may only pass (rule M-8)"
            return (f"bids are multiples of {self.step} from {self.high + self.step} up to "
                    f"{self._cap(self.hands[seat])} (rule M-7)")
        if kind == "blind":
            return "a blind call is the first hand's call before the deal (rule M-5)"
        if kind == "contract":
            if stage != "contract":
                return "the contract is named after the gives or discards (rule M-12)"
            return "the contract must be one of " + ", ".join(self._legal_contract(seat))
        if kind == "writeoff":
            return ("no write-off now: golden deal, blind, limit used or past the first lead "
                    "(rule M-14)")
        if kind == "strike":
            return "a strike needs a qualifying hand or talon at the forced 100 (rules M-6, M-13)"
        return None

    # -- views (M-33) ---------------------------------------------------------------

    def _view_extra(self, v: dict) -> None:
        o = self.options
        n = self.seats
        put_deal_keys(self, v)
        v["face_up"] = self._face_up()
        v["totals"] = list(self.totals)
        v["bolts"] = list(self.bolts)
        v["falls"] = list(self.falls)
        if self.barrel == "frozen":
            v["on_barrel"] = list(self.on_barrel)
        else:
            v["on_barrel"] = [s in self.in_b for s in range(n)]
        v["barrel_left"] = list(self.barrel_left)
        limit = o["writeoff_limit"]
        if o["writeoff"] == "off":
            v["writeoffs_left"] = [0] * n
        else:
            v["writeoffs_left"] = [None if limit == 0 else limit - w for w in self.writeoffs]
        v["golden"] = self.golden and not self.over
        v["blind"] = self.blind_seat
        v["sitting_out"] = self.sitting_out
        v["barrel_floor"] = [self._barrel_floor(s) for s in range(n)]  # M-12, for a bidder

    def _positions(self) -> dict:
        return {**positions(self, self._face_up()), "stock": [list(cards) for cards in self.stock]}

    def _locations(self) -> dict[str, list[str]]:
        locs = locations(self)
        locs["stock"] = [c for cards in self.stock for c in cards]  # the opening step (M-5)
        return locs

    def _redeal_hidden(self, seat: int, rng: random.Random) -> None:
        thousand_modern_hidden.redeal_hidden(self, seat, rng)

    def _talon_placements(self, m, seat: int, where: dict) -> list:
        """The shown talon's places for :mod:`thousand_hidden` (M-10 as T-14, M-11 as T-19)."""
        fill = thousand_hidden.placements_2p if self.seats == 2 else thousand_hidden.placements_1001
        return fill(m, seat, where)


# --------------------------------------------------------------------------
# The variants (M-1, M-35)

for _id, _name in (("thousand-ru", "Тысяча (modern, Russian)"), ("tysiac-pl", "Tysiąc (Polish)")):
    register(Variant(id=_id, family="thousand", name=_name, seat_counts=(2, 3, 4),
                     match_class=ModernThousandMatch, options=options_for(_id)))
