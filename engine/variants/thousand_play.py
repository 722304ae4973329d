"""Тысяча: the trick play and the scoring of a deal (rules T-7, T-20 … T-29).

:class:`ThousandPlay` is the base of :class:`engine.variants.thousand.ThousandMatch`;
it declares the whole state of a deal, which ``ThousandMatch._start_deal`` sets up.
"""

from __future__ import annotations

from typing import ClassVar

from ..actions import Action
from ..errors import EngineError
from ..match import Match
from ..places import places_of
from ..tricks import FollowRule
from .thousand_cards import (
    ALL_NINES,
    FINE_AT_850,
    MARRIAGE_SHOWN,
    MARRIAGE_VALUE,
    NEAR_850,
    REFUSAL_GAIN,
    STRENGTH,
    SUIT_CARDS,
    THROWN_FORCED_GAIN,
    card_points,
    marriages_held,
    play_to_trick,
)


class ThousandPlay(Match):
    # -- what a variant sets (see the subclasses in thousand.py) ------------------
    QUIT: ClassVar[str]  # "throw" (T-15) or "refuse" (T-18)
    FOLLOW: ClassVar[FollowRule]  # rules T-21, T-22
    FINES_AT_850: ClassVar[bool] = True  # rule T-27 (not in 1001)
    take_back_never: ClassVar[dict[str, str]] = {"marriage": MARRIAGE_SHOWN}  # rule T-23

    # -- across deals ---------------------------------------------------------------
    hand_size: int
    talon_size: int
    min_bid: int
    step: int
    goal: int
    round5_up: bool
    amounts: list[int]
    bid_codes: list[str]
    contract_codes: list[str]
    play_codes: dict[str, str]
    marriage_codes: dict[str, str]
    give_codes: dict[tuple[str, int], str]

    # -- the deal ---------------------------------------------------------------------
    calling: list[int]  # the seats dealt in, first hand first (rule T-8)
    active: list[int]
    trick_size: int
    sitting_out: int | None
    next_seat: dict[int, int]
    hands: list[list[str]]
    talon: list[str]
    before: list[int]  # the totals before this deal (rules T-13, T-27)
    turn: int  # always a seat while the match runs
    bids: list[tuple[int, str]]
    passed: set[int]
    high: int | None
    high_seat: int | None
    declarer: int | None
    bid: int | None
    forced: bool  # rule T-12: nobody bid
    contract: int | None
    shown: list[str]  # the talon (2p: the pair) turned face up
    gives: list[tuple[int, str]]  # (receiver, card)
    discards: list[str]
    aside: list[str]  # 2p: the pair nobody sees
    trick: list[tuple[int, str]]
    trump: str | None
    won: list[list[str]]
    tricks_won: list[int]
    marriages: list[tuple[int, str, str]]  # (seat, suit, card led)
    played_by: dict[str, int]
    bans: list[set[str]]  # cards a seat is known not to hold (for determinize)
    first_lead: bool

    # -- play (rules T-20 … T-23) -------------------------------------------------------

    def _start_play(self) -> None:
        self.stage = "play"
        self.turn = self._declarer()  # rule T-20: the declarer leads first
        self.first_lead = True

    def _declarer(self) -> int:
        if self.declarer is None:  # pragma: no cover - every stage after bidding has one
            raise EngineError(f"{self.variant.id}: no declarer after the bidding")
        return self.declarer

    def _may_declare(self, seat: int) -> bool:
        """Rule T-23: 1000 and 2p only after taking a trick (1001 overrides: any lead)."""
        return self.tricks_won[seat] > 0

    def _legal_play(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        codes = self.play_codes
        if self.trick:
            return self.FOLLOW.playable_codes(hand, self.trick, self.trump, STRENGTH, codes)
        acts = [codes[c] for c in hand]
        if self._may_declare(seat):
            marry = self.marriage_codes
            for suit in marriages_held(hand):
                acts.append(marry["K" + suit])
                acts.append(marry["Q" + suit])
        if self.first_lead:  # rules T-15, T-12, T-18: until the first card is led
            acts.append(self.QUIT)
        return acts

    def _note_follow(self, seat: int, card: str) -> None:
        """What a follower's card tells everyone about his hand (for determinize)."""
        trick = self.trick
        voids, limit = self.FOLLOW.reveals(trick, card, self.trump, STRENGTH)
        bans = self.bans[seat]
        for suit in voids:
            bans |= SUIT_CARDS[suit]
        if limit is not None:  # he could not beat: no higher card of the led suit
            bans.update(c for c in SUIT_CARDS[trick[0][1][1]] if STRENGTH[c] > limit)

    def _do_play(self, seat: int, act: Action) -> None:
        card: str = act.card  # type: ignore[assignment]  # play:XX, marriage:XX
        self.hands[seat].remove(card)
        trick = self.trick
        if trick and (card[1] != trick[0][1][1] or self.FOLLOW.must_beat):
            self._note_follow(seat, card)  # following suit in 1001 shows nothing
        else:
            self.first_lead = False
            if act.kind == "marriage":  # rule T-23: the suit is trump at once, the led card included
                self.trump = card[1]
                self.marriages.append((seat, card[1], card))
        winner = play_to_trick(self, seat, card, act.public[seat])  # rules C-4, T-20
        if winner is not None and not self.hands[winner]:
            self._score_play()

    def _why_not_this_card(self, seat: int, card: str) -> str | None:
        if not self.trick:
            return None
        return self.FOLLOW.why_not(card, self.hands[seat], self.trick, self.trump, STRENGTH) or None

    def _why_no_marriage(self, seat: int, card: str) -> str:
        if card[0] not in "KQ":
            return "a marriage is declared by leading its K or Q (rule T-23)"
        if self.trick:
            return "a marriage is declared only when leading (rule T-23)"
        if card[1] not in marriages_held(self.hands[seat]):
            return "you do not hold both the K and the Q of that suit (rule T-23)"
        return "in this game a marriage may be declared only after taking a trick (rule T-23)"

    def _do_quit(self, seat: int, act: Action) -> None:
        """Throw in (T-15, T-12) or refuse (T-18): the deal ends for everyone."""
        self._log(seat, act.text)
        if act.kind == "throw":
            self._score_throw()
        else:
            self._score_refusal()

    # -- scoring (rules T-7, T-24 … T-29) -------------------------------------------------

    def _round(self, points: int) -> int:
        """Rule T-24 (each variant says how)."""
        raise NotImplementedError

    def _opponents(self) -> list[int]:
        return [s for s in self.calling if s != self.declarer]

    def _score_play(self) -> None:
        n, declarer = self.seats, self._declarer()
        contract = self.contract or 0
        raw, rounded, scores = [0] * n, [0] * n, [0] * n
        married = [0] * n
        made = False  # rule T-25, set at the declarer's seat below
        for s, suit, _ in self.marriages:
            married[s] += MARRIAGE_VALUE[suit]
        for s in self.calling:
            raw[s] = card_points(self.won[s])
            if s == declarer:
                raw[s] += card_points(self.discards)  # rule T-19: the discards are his
            rounded[s] = self._round(raw[s])
            total = rounded[s] + married[s]
            if s == declarer:  # rule T-25
                made = total >= contract
                scores[s] = contract if made else -contract
            else:  # rule T-26
                scores[s] = total
        self._close_deal(scores, raw, rounded, made=made)

    def _score_throw(self) -> None:
        scores = [0] * self.seats
        if self.forced:  # rule T-12: the others score 50 each, he scores 0
            for s in self._opponents():
                scores[s] = THROWN_FORCED_GAIN
        else:  # rule T-15: minus the contract, else minus the winning bid
            lost = self.contract if self.contract is not None else self.bid
            scores[self._declarer()] = -(lost or 0)
        self._close_deal(scores, thrown=True)

    def _score_refusal(self) -> None:
        scores = [0] * self.seats
        scores[self._declarer()] = -(self.contract or 0)  # rule T-18
        for s in self._opponents():
            scores[s] = REFUSAL_GAIN
        self._close_deal(scores, refused=True)

    def _close_deal(self, scores: list[int], raw: list[int] | None = None,
                    rounded: list[int] | None = None, *, thrown: bool = False,
                    refused: bool = False, made: bool | None = None) -> None:
        """The deal's row (T-28), then the end of the match (T-29) or the next deal.
        ``made``: whether the declarer made his contract (T-25); None when the deal
        was not played out (thrown in, T-15, T-12; refused, T-18)."""
        n = self.seats
        raw = raw or [0] * n
        rounded = rounded or [0] * n
        fined = []
        if self.FINES_AT_850:  # rule T-27: zero at 850 is fined 100
            for s in self.calling:
                if self.before[s] >= NEAR_850 and scores[s] == 0:
                    scores[s] = FINE_AT_850
                    fined.append(s)
        out = self.sitting_out
        if out is not None:  # rule T-7: the sitting-out dealer scores the talon
            talon = self._dealt["talon"]
            raw[out] = card_points(talon)
            rounded[out] = self._round(raw[out])
            scores[out] = ALL_NINES if all(c[0] == "9" for c in talon) else rounded[out]
        totals = [t + d for t, d in zip(self.before, scores, strict=True)]
        row = {
            "declarer": self.declarer, "bid": self.bid, "contract": self.contract,
            "forced": self.forced, "points_raw": raw, "points": rounded,
            "marriages": [[s, suit] for s, suit, _ in self.marriages],
            "made": made, "scores": scores, "totals": totals, "thrown": thrown, "refused": refused,
            "fined": fined, "sitting_out": out,
        }
        if max(totals) >= self.goal:  # rule T-29
            top = max(totals)
            tied = [s for s in range(n) if totals[s] == top]
            winners = [self.declarer] if self.declarer in tied else tied
            # T-29 orders first place only: below it equal totals share a place (places_of)
            self._finish_deal(row, over=True,
                              result={"totals": totals, "winners": winners, "goal": self.goal,
                                      "places": places_of(totals, winners)})
        else:
            self._finish_deal(row, next_dealer=(self.dealer + 1) % n)  # rule T-5
