"""Тысяча (Thousand): `thousand-1001`, `thousand-1000`, `thousand-1000-2p`.

The rules are ../shared/rules/thousand.md (T-1 … T-30).  This module holds the
variants, the deal, the bidding and the talon; the trick play and the scoring
are in :mod:`thousand_play`, the determinization in :mod:`thousand_hidden`.

A deal moves through internal stages (the public ``phase`` in brackets):

* ``bidding``                              (bidding)
* 1001: ``give`` → ``contract``            (talon)   rule T-14
* 1000: ``contract`` → ``give``            (talon)   rules T-16, T-17
* 2p:   ``contract`` → ``take`` → ``discard`` (talon) rules T-16, T-19
* ``play``                                 (play)
"""

from __future__ import annotations

import copy
import random

from ..core import Match, Option, Variant, deal_cards_round, register
from . import thousand_hidden, thousand_play
from .thousand_cards import BASE_CAP, DECK, MARRIAGE_VALUE, STRENGTH, bid_cap

PHASE_OF_STAGE = {"bidding": "bidding", "give": "talon", "contract": "talon", "take": "talon",
                  "discard": "talon", "play": "play"}


class ThousandMatch(thousand_play.PlayMixin, Match):
    strength = STRENGTH
    deck = DECK
    confirm_kinds = frozenset({"throw", "refuse"})  # rules T-15, T-12, T-18

    # -- across deals ---------------------------------------------------------

    def _setup(self) -> None:
        r = self.variant.rules
        self.kind: str = r["kind"]  # "1001" | "1000" | "2p"
        self.hand_size: int = r["hand"]
        self.talon_size: int = r["talon"]
        self.min_bid: int = r["min_bid"]
        self.step: int = r["step"]
        self.goal: int = self.options["goal"]
        self.round5_up: bool = self.options.get("round5_up", True)
        top = BASE_CAP + sum(MARRIAGE_VALUE.values())
        self.amounts = list(range(self.min_bid, top + 1, self.step))
        self.bid_codes = [f"bid:{n}" for n in self.amounts]
        self.contract_codes = [f"contract:{n}" for n in self.amounts]
        self.play_codes = {c: "play:" + c for c in DECK}
        self.marriage_codes = {c: "marriage:" + c for c in DECK if c[0] in "KQ"}
        self.give_codes = {(c, r): f"give:{c}>{r}" for c in DECK for r in range(self.seats)}
        self.stage = "bidding"

    # -- the deal (rules T-4, T-5, T-6) --------------------------------------

    def _start_deal(self) -> None:
        n, dealer = self.seats, self.dealer
        if n == 4:  # rule T-4: with four, the dealer sits out
            calling = [(dealer + i) % 4 for i in (1, 2, 3)]
        else:
            calling = [(dealer + i) % n for i in range(1, n + 1)]
        self.calling = calling  # first hand first (rule T-8), clockwise
        self.active = sorted(calling)
        self.trick_size = len(calling)
        self.sitting_out = dealer if n == 4 else None
        self.next_seat = {s: calling[(i + 1) % len(calling)] for i, s in enumerate(calling)}
        preset, deck = self._next_cards()
        if preset is not None:
            shape = [self.hand_size if s in calling else 0 for s in range(n)]
            hands, talon = self._check_preset(preset, shape, self.talon_size)
        else:  # rule T-6: one card at a time from first hand, then the talon
            hands, talon = deal_cards_round(deck, calling, self.hand_size, n)
        self.hands: list[list[str]] = hands
        self.talon: list[str] = talon
        self._dealt = {"hands": [list(h) for h in hands], "talon": list(talon)}
        self.before = self._totals()  # the totals before this deal (rules T-13, T-27)
        # bidding
        self.stage = "bidding"
        self.turn = calling[0]
        self.bids: list[tuple[int, str]] = []
        self.passed: set[int] = set()
        self.high: int | None = None
        self.high_seat: int | None = None
        self.declarer: int | None = None
        self.bid: int | None = None
        self.forced = False  # rule T-12: nobody bid
        self.contract: int | None = None
        # talon
        self.shown: list[str] = []  # the talon (2p: the pair) turned face up
        self.gives: list[tuple[int, str]] = []  # (receiver, card)
        self.discards: list[str] = []
        self.aside: list[str] = []  # 2p: the pair nobody sees
        # play
        self.trick: list[tuple[int, str]] = []
        self.trump: str | None = None
        self.won: list[list[str]] = [[] for _ in range(n)]
        self.tricks_won = [0] * n
        self.marriages: list[tuple[int, str, str]] = []  # (seat, suit, card led)
        self.played_by: dict[str, int] = {}
        self.bans: list[set[str]] = [set() for _ in range(n)]  # cards a seat cannot hold
        self.first_lead = True

    # -- hooks ----------------------------------------------------------------

    def _phase(self) -> str:
        return PHASE_OF_STAGE[self.stage]

    def _to_act(self) -> list[int]:
        return [self.turn]

    def _hand(self, seat: int) -> list[str]:
        return self.hands[seat]

    def _legal(self, seat: int) -> list[str]:
        stage = self.stage
        if stage == "play":
            return self._legal_play(seat)
        if stage == "bidding":
            return self._legal_bidding(seat)
        if stage == "contract":
            acts = self._contract_choices()
            return acts + ["throw"] if self.kind == "1001" else acts
        if stage == "give":
            return self._give_choices() + [self._quit_action()]
        if stage == "take":
            return ["take:top", "take:bottom"]
        # stage == "discard"
        return ["discard:" + c for c in self.hands[seat]] + ["refuse"]

    def _do(self, seat: int, action: str) -> None:
        kind, _, arg = action.partition(":")
        if kind == "play":
            self._play(seat, arg, action, False)
        elif kind == "marriage":
            self._play(seat, arg, action, True)
        elif kind == "bid" or kind == "pass":
            self._call(seat, action, int(arg) if arg else None)
        elif kind == "contract":
            self._name_contract(seat, int(arg))
        elif kind == "give":
            card, _, receiver = arg.partition(">")
            self._give(seat, card, int(receiver))
        elif kind == "take":
            self._take(seat, arg)
        elif kind == "discard":
            self._discard(seat, arg)
        elif kind == "throw":
            self._log(seat, "throw")
            self._score_throw()
        elif kind == "refuse":
            self._log(seat, "refuse")
            self._score_refusal()
        else:  # pragma: no cover - _legal never offers anything else
            raise AssertionError(action)

    def _why_illegal(self, seat: int, action: str) -> str | None:
        kind, _, arg = action.partition(":")
        phase = self._phase()
        if kind in ("play", "marriage"):
            if phase != "play":
                return f"no card play in the {phase} phase"
            if arg not in self.hands[seat]:
                return "that card is not in your hand"
            if kind == "marriage":
                return self._why_no_marriage(seat, arg)
            return self._why_not_this_card(seat, arg)
        if kind == "bid":
            if phase != "bidding":
                return "the bidding is over"
            return (f"bids go from {self._lowest_bid()} to {bid_cap(self.hands[seat])} "
                    f"in steps of {self.step} (rules T-9, T-10)")
        if kind == "contract":
            if self.stage != "contract":
                return "no contract can be named now (rules T-14, T-16)"
            return f"the contract must be one of {', '.join(self._contract_choices())}"
        if kind == "throw" and self.kind != "1001":
            return "throwing in is a rule of thousand-1001 (T-15); here you may refuse (T-18)"
        if kind == "refuse" and self.kind == "1001":
            return "refusing is a rule of thousand-1000 (T-18); here you may throw in (T-15)"
        return None

    def _view_extra(self, seat: int | None, v: dict) -> None:
        v["trick"] = [[s, c] for s, c in self.trick]
        v["trump"] = self.trump
        v["face_up"] = list(self.shown) if self.stage != "play" else []
        v["bids"] = [[s, call] for s, call in self.bids]
        v["declarer"] = self.declarer
        v["bid"] = self.bid
        v["forced"] = self.forced
        v["contract"] = self.contract
        v["marriages"] = [[s, suit] for s, suit, _ in self.marriages]
        v["talon_size"] = len(self.talon)
        v["active"] = list(self.active)
        v["tricks_won"] = list(self.tricks_won)
        v["goal"] = self.goal

    def _locations(self) -> dict[str, list[str]]:
        locs = {f"hand:{s}": list(h) for s, h in enumerate(self.hands)}
        locs.update({f"won:{s}": list(w) for s, w in enumerate(self.won)})
        locs["talon"] = list(self.talon)
        locs["trick"] = [c for _, c in self.trick]
        locs["discard"] = list(self.discards)
        locs["aside"] = list(self.aside)
        return locs

    def _positions(self) -> dict:
        return {"talon": list(self.talon), "trick": [[s, c] for s, c in self.trick],
                "taken": [list(w) for w in self.won], "trump": self.trump,
                "marriages": [[s, suit] for s, suit, _ in self.marriages],
                "contract": self.contract, "declarer": self.declarer,
                "face_up": list(self.shown) if self.stage != "play" else [],
                "discards": list(self.discards), "aside": list(self.aside)}

    def _redeal_hidden(self, seat: int, rng: random.Random) -> None:
        thousand_hidden.redeal_hidden(self, seat, rng)

    # The state that a deal changes in place; everything else is either never
    # changed in place (shared by a copy) or left to copy.deepcopy.
    _LISTS = ("actions", "log", "_scoresheet", "_history", "_presets_left", "talon", "bids",
              "shown", "gives", "discards", "aside", "trick", "won", "tricks_won", "marriages",
              "hands", "bans", "passed", "played_by")
    _SHARED = ("variant", "preset_deals", "options", "calling", "active", "next_seat", "before",
               "amounts", "bid_codes", "contract_codes", "play_codes", "marriage_codes", "give_codes",
               "last_trick", "last_deal", "_result", "_dealt")

    def __deepcopy__(self, memo: dict) -> ThousandMatch:
        """A fast deep copy for ``determinize`` (search bots copy a match very often)."""
        twin = object.__new__(type(self))
        state = self.__dict__
        out = {}
        for key, value in state.items():
            if key in self._SHARED:
                out[key] = value
            elif key == "hands" or key == "won":
                out[key] = [list(x) for x in value]
            elif key == "bans":
                out[key] = [set(x) for x in value]
            elif key in self._LISTS:
                out[key] = value.copy()
            elif key == "rng":
                out[key] = random.Random()
                out[key].setstate(value.getstate())
            elif key == "_legal_cache":
                out[key] = {}
            else:
                out[key] = copy.deepcopy(value, memo)
        twin.__dict__ = out
        return twin

    # -- bidding (rules T-8 … T-13) ------------------------------------------

    def _lowest_bid(self) -> int:
        return self.min_bid if self.high is None else self.high + self.step  # rule T-8

    def _legal_bidding(self, seat: int) -> list[str]:
        may_pass = may_bid = True
        if self.kind == "2p":  # rule T-13: 850 in the two-player game
            other = 1 - seat
            mine, theirs = self.before[seat] >= 850, self.before[other] >= 850
            if mine and not theirs:
                may_bid = False
            elif theirs and not mine:
                may_pass = False
        acts = ["pass"] if may_pass else []
        if may_bid:  # rules T-9, T-10
            lo = (self._lowest_bid() - self.min_bid) // self.step
            hi = (bid_cap(self.hands[seat]) - self.min_bid) // self.step
            acts += self.bid_codes[lo:hi + 1]
        return acts

    def _call(self, seat: int, action: str, amount: int | None) -> None:
        self.bids.append((seat, action))
        self._log(seat, action)
        if amount is None:
            self.passed.add(seat)  # rule T-11: passing is final
        else:
            self.high, self.high_seat = amount, seat
        left = [s for s in self.calling if s not in self.passed]
        if len(left) == 1:
            self._end_bidding(left[0])
            return
        i = self.calling.index(seat)
        for k in range(1, len(self.calling) + 1):
            nxt = self.calling[(i + k) % len(self.calling)]
            if nxt not in self.passed:
                self.turn = nxt
                return

    def _end_bidding(self, declarer: int) -> None:
        self.declarer = self.turn = declarer
        if self.high_seat is None:  # rule T-12: nobody bid; the last hand plays at the minimum
            self.forced = True
            self.bid = self.min_bid
        else:  # rule T-11
            self.bid = self.high
        if self.kind == "1001":
            self._turn_up_talon()  # rule T-14: turned up and taken into hand
            self.hands[declarer].extend(self.talon)
            self.talon = []
            self.stage = "give"
        else:
            self.stage = "contract"  # rule T-16: the contract before the talon

    # -- the talon (rules T-14 … T-19) ---------------------------------------

    def _turn_up_talon(self, cards: list[str] | None = None) -> None:
        self.shown = list(self.talon if cards is None else cards)
        self._log(None, "show:" + ",".join(self.shown))

    def _contract_choices(self) -> list[str]:
        """Rules T-14, T-16: from the winning bid (offered first) up to the cap."""
        lo = (self.bid - self.min_bid) // self.step
        hi = (bid_cap(self.hands[self.declarer]) - self.min_bid) // self.step
        return [self.contract_codes[lo]] + self.contract_codes[lo + 1:hi + 1]

    def _name_contract(self, seat: int, amount: int) -> None:
        self.contract = amount
        self._log(seat, f"contract:{amount}")
        if self.kind == "1001":
            self._start_play()
        elif self.kind == "1000":
            self._turn_up_talon()  # rule T-17
            self.stage = "give"
        else:
            self.stage = "take"  # rule T-19

    def _opponents(self) -> list[int]:
        return [s for s in self.calling if s != self.declarer]

    def _give_choices(self) -> list[str]:
        """1001: any card of the hand (T-14); 1000: a card of the shown talon (T-17)."""
        done = {r for r, _ in self.gives}
        source = self.hands[self.declarer] if self.kind == "1001" else self.talon
        codes = self.give_codes
        return [codes[c, r] for r in self._opponents() if r not in done for c in source]

    def _give(self, seat: int, card: str, receiver: int) -> None:
        source = self.hands[seat] if self.kind == "1001" else self.talon
        source.remove(card)
        self.hands[receiver].append(card)
        self.gives.append((receiver, card))
        # Only the giver and the receiver know the card (rules T-14, T-17, C-5).
        self._log(seat, f"give:{card}>{receiver}", hidden=f"give:??>{receiver}",
                  seen_by=(seat, receiver))
        if len(self.gives) < len(self.calling) - 1:
            return
        if self.kind == "1001":
            self.stage = "contract"
        else:
            self.hands[seat].extend(self.talon)  # rule T-17: the last card is the declarer's
            self.talon = []
            self._start_play()

    def _take(self, seat: int, which: str) -> None:
        """Rule T-19: the top or the bottom pair, shown; the other pair unseen."""
        if which == "top":
            pair, self.aside = self.talon[:2], self.talon[2:]
        else:
            pair, self.aside = self.talon[2:], self.talon[:2]
        self.talon = []
        self._log(seat, "take:" + which)
        self._turn_up_talon(pair)
        self.hands[seat].extend(pair)
        self.stage = "discard"

    def _discard(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.discards.append(card)
        self._log(seat, "discard:" + card, hidden="discard:??", seen_by=(seat,))
        if len(self.discards) == 2:
            self._start_play()

    def _quit_action(self) -> str:
        return "throw" if self.kind == "1001" else "refuse"  # rules T-15, T-12 / T-18


# --------------------------------------------------------------------------
# Variants (the table at the top of thousand.md; options rules T-24, T-30)


def _goal(default: int) -> Option:
    return Option("goal", "int", default, "T-30", label="Play to", min=100, max=10000, step=1,
                  group="match", description="The total a player must reach to win the match.")


ROUND5 = Option("round5_up", "bool", True, "T-24", label="A 5 rounds up", group="scoring",
                description="Card points ending in 5 are rounded up to the next ten, not down.")

register(Variant(id="thousand-1001", family="thousand", name="Thousand (1001)",
                 seat_counts=(3, 4), match_class=ThousandMatch, options=[_goal(1001)],
                 rules={"kind": "1001", "hand": 7, "talon": 3, "min_bid": 40, "step": 5}))
register(Variant(id="thousand-1000", family="thousand", name="Thousand (1000)",
                 seat_counts=(3, 4), match_class=ThousandMatch, options=[_goal(1000), ROUND5],
                 rules={"kind": "1000", "hand": 7, "talon": 3, "min_bid": 60, "step": 10}))
register(Variant(id="thousand-1000-2p", family="thousand", name="Thousand (1000, two players)",
                 seat_counts=(2,), match_class=ThousandMatch, options=[_goal(1000), ROUND5],
                 rules={"kind": "2p", "hand": 10, "talon": 4, "min_bid": 60, "step": 10}))
