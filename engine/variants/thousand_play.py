"""Тысяча: what classic and modern Тысяча share of a deal, and the classic scoring.

:class:`ThousandDeal` is the seating, the talon's mechanics (rules T-14, T-17,
T-19; M-10, M-11), the contract and the trick play (T-20 … T-24; M-15 … M-18)
of both games in one place, parameterised where the modern rule book differs: the duty to beat (``follow``, T-22 / M-15 ``must_beat``), to overtrump
(``must_overtrump``, M-15), a marriage on any lead (``marriage_any_lead``:
1001's T-23, M-16's ``marriage_first_lead``), the ace marriage (M-17) and the
rounding (``_round``, T-24 / M-18).  It declares the state of a deal, which
each match's ``_start_deal`` sets up.  :class:`ThousandPlay` adds the classic
scoring (T-7, T-25 … T-29); the modern one is :mod:`thousand_modern_score`.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from ..actions import Action
from ..errors import EngineError
from ..match import Match
from ..places import places_of
from ..tricks import FollowRule, is_trumped
from .thousand_cards import (
    ACE_MARRIAGE,
    ACES,
    ALL_NINES,
    DECK,
    FINE_AT_850,
    MARRIAGE_SHOWN,
    MARRIAGE_VALUE,
    NEAR_850,
    REFUSAL_GAIN,
    STRENGTH,
    SUIT_CARDS,
    THROWN_FORCED_GAIN,
    card_points,
    discard_face_down,
    in_marriage,
    marriages_held,
    next_bidder,
    play_to_trick,
    take_pair,
)

#: The wire forms of card play, built once (the search bots list legal actions very often).
PLAY_CODES = {c: "play:" + c for c in DECK}
MARRIAGE_CODES = {c: "marriage:" + c for c in DECK if c[0] in "KQA"}
GIVE_CODES = {(c, r): f"give:{c}>{r}" for c in DECK for r in range(4)}


class ThousandDeal(Match):
    # -- what a game sets (class attributes, or from the options in ``_setup``) -----
    follow: FollowRule  # T-21, T-22 (M-15: must_beat)
    must_overtrump: bool = False  # M-15
    marriage_any_lead: bool = False  # T-23: 1001 on any lead; M-16: marriage_first_lead
    ace_marriage: bool = False  # M-17
    MARRIAGE_RULE: ClassVar[str] = "T-23"  # the rule a refused marriage cites
    take_back_never: ClassVar[dict[str, str]] = {"marriage": MARRIAGE_SHOWN}  # rule T-23

    # -- across deals ---------------------------------------------------------------
    step: int
    goal: int
    amounts: list[int]

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
    declarer: Any  # a seat, None until the bidding ends (the view shows null)
    bid: Any  # an amount, None until the bidding ends
    contract: int | None
    shown: list[str]  # the talon (2p: the pair) turned face up
    gives: list[tuple[int, str]]  # (receiver, card)
    discards: list[str]
    aside: list[str]  # 2p: the pair nobody sees
    trick: list[tuple[int, str]]
    trump: Any  # a suit or None
    won: list[list[str]]
    tricks_won: list[int]
    marriages: list[tuple[int, str, str]]  # (seat, suit or "A", card led)
    played_by: dict[str, int]
    bans: list[set[str]]  # cards a seat is known not to hold (for determinize)
    first_lead: bool

    # -- the deal (T-4, T-8) ----------------------------------------------------------------

    def _seat_deal(self) -> None:
        """T-4: the seats dealt in (with four the dealer sits out), first hand first
        (T-8), clockwise."""
        n, dealer = self.seats, self.dealer
        calling = [(dealer + i) % n for i in range(1, n)] if n == 4 else \
            [(dealer + i) % n for i in range(1, n + 1)]
        self.calling = calling
        self.active = sorted(calling)
        self.trick_size = len(calling)
        self.sitting_out = dealer if n == 4 else None
        self.next_seat = {s: calling[(i + 1) % len(calling)] for i, s in enumerate(calling)}

    def _clear_deal(self) -> None:
        """Nothing bid, given, discarded or played yet."""
        n = self.seats
        self.bids = []
        self.passed = set()
        self.declarer = None
        self.bid = None
        self.contract = None
        self.shown = []
        self.gives = []
        self.discards = []
        self.aside = []
        self.trick = []
        self.trump = None
        self.won = [[] for _ in range(n)]
        self.tricks_won = [0] * n
        self.marriages = []
        self.played_by = {}
        self.bans = [set() for _ in range(n)]
        self.first_lead = True

    def _hand(self, seat: int) -> list[str]:
        return self.hands[seat]

    def _face_up(self) -> list[str]:
        """The shown talon (or 2p pair) lies face up until the play (T-14 … T-19, M-10, M-11)."""
        return list(self.shown) if self.stage != "play" else []

    # -- bidding (T-8 … T-12; M-4 … M-8) ---------------------------------------------------

    def _do_call(self, seat: int, act: Action) -> None:
        self.bids.append((seat, act.text))
        self._log(seat, act.text)
        if act.kind == "pass":
            self.passed.add(seat)  # T-11: passing is final
        else:
            self._bid_made(seat, act)
        self._after_call(seat)

    def _bid_made(self, seat: int, act: Action) -> None:
        raise NotImplementedError

    def _after_call(self, seat: int) -> None:
        """T-11: the last seat left in declares; else the next seat still in calls."""
        left = [s for s in self.calling if s not in self.passed]
        if len(left) == 1:
            self._end_bidding(left[0])
            return
        self.turn = next_bidder(self.calling, self.passed, seat)

    def _end_bidding(self, declarer: int) -> None:
        raise NotImplementedError

    # -- the talon and the contract (T-14 … T-19; M-10 … M-12, M-14) -------------------------

    def _quits(self) -> list[str]:
        """What the declarer may do instead of his next step in the talon phase or his
        first lead: throw in or refuse (T-15, T-12, T-18), write off (M-14)."""
        raise NotImplementedError

    def _turn_up_talon(self, cards: list[str] | None = None) -> None:
        self.shown = list(self.talon if cards is None else cards)
        self._log(None, "show:" + ",".join(self.shown))

    def _take_talon(self, declarer: int) -> None:
        """T-14, M-10: the talon turned up for all and taken into his hand; he gives next."""
        self._turn_up_talon()
        self.hands[declarer].extend(self.talon)
        self.talon = []
        self._talon_taken(declarer)
        self.stage = "give"

    def _give_source(self, seat: int) -> list[str]:
        """Where the gives come from: the hand (T-14, M-10; 1000: the talon, T-17)."""
        return self.hands[seat]

    def _legal_give(self, seat: int) -> list[str]:
        done = {r for r, _ in self.gives}
        source = self._give_source(seat)
        codes = GIVE_CODES
        return [codes[c, r] for r in self._opponents() if r not in done for c in source] + self._quits()

    def _do_give(self, seat: int, act: Action) -> None:
        card, receiver = cast(str, act.card), cast(int, act.target)  # give:XX>S
        self._give_source(seat).remove(card)
        self.hands[receiver].append(card)
        self.gives.append((receiver, card))
        # Only the giver and the receiver know the card (rules T-14, T-17, M-10, C-5).
        self._log(seat, act.text, hidden=f"give:??>{receiver}", seen_by=(seat, receiver))
        if len(self.gives) == len(self.calling) - 1:
            self._after_gives(seat)

    def _after_gives(self, seat: int) -> None:
        raise NotImplementedError

    def _legal_take(self, seat: int) -> list[str]:
        return ["take:top", "take:bottom"]  # T-19, M-11

    def _do_take(self, seat: int, act: Action) -> None:
        """T-19, M-11: the top or the bottom pair, shown; the other pair unseen."""
        self._log(seat, act.text)
        take_pair(self, seat, act.arg)
        self.stage = "discard"

    def _legal_discard(self, seat: int) -> list[str]:
        return ["discard:" + c for c in self.hands[seat]] + self._quits()

    def _do_discard(self, seat: int, act: Action) -> None:
        if discard_face_down(self, seat, cast(str, act.card), act.text):  # T-19, M-11
            self._after_discards()

    def _after_discards(self) -> None:
        raise NotImplementedError

    def _stake(self) -> int:
        """T-15, M-21: the contract if one was named, else the winning bid (what a
        declarer who throws in or writes off loses)."""
        return self.contract if self.contract is not None else self.bid

    def _do_contract(self, seat: int, act: Action) -> None:
        self.contract = act.amount
        self._log(seat, act.text)
        self._after_contract(seat)

    def _after_contract(self, seat: int) -> None:
        raise NotImplementedError

    # -- play (rules T-20 … T-23, M-15 … M-17) --------------------------------------------

    def _start_play(self) -> None:
        self.stage = "play"
        self.turn = self._declarer()  # rule T-20: the declarer leads first
        self.first_lead = True

    def _declarer(self) -> int:
        if self.declarer is None:  # pragma: no cover - every stage after bidding has one
            raise EngineError(f"{self.variant.id}: no declarer after the bidding")
        return self.declarer

    def _opponents(self) -> list[int]:
        return [s for s in self.calling if s != self.declarer]

    def _may_declare(self, seat: int) -> bool:
        """T-23 / M-16: after taking a trick (the 1000 form), or on any lead."""
        return self.marriage_any_lead or self.tricks_won[seat] > 0

    def _legal_play(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        codes = PLAY_CODES
        if self.trick:
            if not self.must_overtrump:  # the fast path
                return self.follow.playable_codes(hand, self.trick, self.trump, STRENGTH, codes)
            return [codes[c] for c in self._playable(hand)]
        acts = [codes[c] for c in hand]
        if self._may_declare(seat):
            marry = MARRIAGE_CODES
            for suit in marriages_held(hand):  # T-23, M-16
                acts.append(marry["K" + suit])
                acts.append(marry["Q" + suit])
            if self.ace_marriage and all(a in hand for a in ACES):  # M-17
                acts += [marry[a] for a in ACES]
        if self.first_lead:  # until the first card is led
            acts += self._quits()
        return acts

    def _beat_floor(self, suit: str) -> int:
        return max(STRENGTH[c] for _, c in self.trick if c[1] == suit)

    def _overtrumps(self, card: str) -> bool:
        """M-15: a follower trumping a trumped trick led in another suit."""
        trump = self.trump
        return (self.must_overtrump and trump is not None and card[1] == trump
                and self.trick[0][1][1] != trump and is_trumped(self.trick, trump))

    def _playable(self, hand: list[str]) -> list[str]:
        """T-21, T-22 (the follow rule), then M-15's duty to overtrump."""
        cards = self.follow.playable(hand, self.trick, self.trump, STRENGTH)[0]
        if self._overtrumps(cards[0]):
            best = self._beat_floor(self.trump)
            higher = [c for c in cards if STRENGTH[c] > best]
            if higher:
                return higher
        return cards

    def _note_follow(self, seat: int, card: str) -> None:
        """What a follower's card tells everyone about his hand (for determinize)."""
        voids, below = self.follow.reveals(self.trick, card, self.trump, STRENGTH)
        bans = self.bans[seat]
        for suit in voids:
            bans |= SUIT_CARDS[suit]
        if below is not None:  # he could not beat the led suit: no higher card of it
            bans.update(c for c in SUIT_CARDS[card[1]] if STRENGTH[c] > below)
        if self.must_overtrump and self._overtrumps(card):
            best = self._beat_floor(self.trump)
            if STRENGTH[card] < best:  # he could not overtrump
                bans.update(c for c in SUIT_CARDS[self.trump] if STRENGTH[c] > best)

    def _do_play(self, seat: int, act: Action) -> None:
        card: str = act.card  # type: ignore[assignment]  # play:XX, marriage:XX
        self.hands[seat].remove(card)
        trick = self.trick
        if trick:
            if card[1] != trick[0][1][1] or self.follow.must_beat:
                self._note_follow(seat, card)  # following suit without must_beat shows nothing
        else:
            self.first_lead = False
            if act.kind == "marriage":
                if card[0] == "A":  # M-17: 200, no trump; the other aces are his
                    self.marriages.append((seat, "A", card))
                    for s in range(self.seats):
                        if s != seat:
                            self.bans[s].update(a for a in ACES if a != card)
                else:  # T-23, M-16: the suit is trump at once, the led card included
                    self.trump = card[1]
                    self.marriages.append((seat, card[1], card))
        winner = play_to_trick(self, seat, card, act.public[seat])  # rules C-4, T-20
        if winner is not None and not self.hands[winner]:
            self._score_play()

    def _why_not_card(self, seat: int, kind: str, card: str) -> str | None:
        """Why ``play:`` / ``marriage:`` of ``card`` is refused (C-6)."""
        if self.stage != "play":
            return f"no card play in the {self._phase()} phase"
        if card not in self.hands[seat]:
            return "that card is not in your hand"
        return self._why_not_this_card(seat, kind, card)

    def _why_not_this_card(self, seat: int, kind: str, card: str) -> str | None:
        """Why a held card may not be played (``play``) or declared (``marriage``)."""
        hand = self.hands[seat]
        if kind == "marriage":
            rule = self.MARRIAGE_RULE
            if card[0] not in "KQ" and not (card[0] == "A" and self.ace_marriage):
                return f"a marriage is declared by leading its K or Q (rule {rule})"
            if self.trick:
                return f"a marriage is declared only when leading (rule {rule})"
            if card[0] == "A":
                return "an ace marriage needs all four aces and the option (rule M-17)"
            if not in_marriage(card, hand):
                return f"you do not hold both the K and the Q of that suit (rule {rule})"
            return f"a marriage may be declared only after taking a trick (rule {rule})"
        if not self.trick:
            return None
        why = self.follow.why_not(card, hand, self.trick, self.trump, STRENGTH)
        if why or not self.must_overtrump:
            return why or None
        return "you must play a higher trump than the trick's (rule M-15)"

    # -- points (T-2, T-3, T-24; M-17, M-18, M-19) ----------------------------------------

    def _round(self, points: int) -> int:
        """Rule T-24 / M-18 (each game says how)."""
        raise NotImplementedError

    def _deal_points(self) -> tuple[list[int], list[int], list[int]]:
        """Per seat: the raw card points of the tricks taken (the declarer adds his
        discards, T-19 / M-11), those points rounded (T-24 / M-18), and the
        marriages declared (T-3; the ace marriage 200, M-17)."""
        n, declarer = self.seats, self.declarer
        raw, rounded, married = [0] * n, [0] * n, [0] * n
        for s, suit, _ in self.marriages:
            married[s] += ACE_MARRIAGE if suit == "A" else MARRIAGE_VALUE[suit]
        for s in self.calling:
            raw[s] = card_points(self.won[s])
            if s == declarer:
                raw[s] += card_points(self.discards)  # rule T-19: the discards are his
            rounded[s] = self._round(raw[s])
        return raw, rounded, married

    def _talon_points(self, raw: list[int], rounded: list[int]) -> list[str]:
        """T-7 / M-20: the sitting-out dealer's raw and rounded points are the talon's
        as dealt (at his seat in ``raw`` and ``rounded``); the talon, to score it."""
        talon: list[str] = self._dealt["talon"]
        out = self.sitting_out
        if out is not None:
            raw[out] = card_points(talon)
            rounded[out] = self._round(raw[out])
        return talon

    def _score_play(self) -> None:
        """The deal was played to its last trick: score it (T-25 … / M-19 …)."""
        raise NotImplementedError

    def _end_or_next(self, row: dict, totals: list[int], *, reached: bool) -> None:
        """T-29 / M-29: once a total has ``reached`` the goal the match ends, the
        highest total winning and the declarer taking a tie; else the deal passes
        left (T-5)."""
        if reached:
            top = max(totals)
            tied = [s for s in range(self.seats) if totals[s] == top]
            winners = [self.declarer] if self.declarer in tied else tied
            # first place only is ordered: below it equal totals share a place (places_of)
            self._finish_deal(row, over=True,
                              result={"totals": list(totals), "winners": winners, "goal": self.goal,
                                      "places": places_of(totals, winners)})
        else:
            self._finish_deal(row, next_dealer=(self.dealer + 1) % self.seats)


class ThousandPlay(ThousandDeal):
    """The classic games' scoring (T-7, T-25 … T-29) on the shared play."""

    # -- what a variant sets (see the subclasses in thousand.py) ------------------
    QUIT: ClassVar[str]  # "throw" (T-15) or "refuse" (T-18)
    FINES_AT_850: ClassVar[bool] = True  # rule T-27 (not in 1001)

    # -- across deals ---------------------------------------------------------------
    hand_size: int
    talon_size: int
    min_bid: int
    round5_up: bool
    bid_codes: list[str]
    contract_codes: list[str]
    high: int | None
    high_seat: int | None
    forced: bool  # rule T-12: nobody bid

    def _quits(self) -> list[str]:
        return [self.QUIT]  # rules T-15, T-12, T-18

    def _do_quit(self, seat: int, act: Action) -> None:
        """Throw in (T-15, T-12) or refuse (T-18): the deal ends for everyone."""
        self._log(seat, act.text)
        if act.kind == "throw":
            self._score_throw()
        else:
            self._score_refusal()

    # -- scoring (rules T-7, T-24 … T-29) -------------------------------------------------

    def _score_play(self) -> None:
        declarer = self._declarer()
        contract = self.contract or 0
        raw, rounded, married = self._deal_points()
        scores = [0] * self.seats
        made = False  # rule T-25, set at the declarer's seat below
        for s in self.calling:
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
            scores[self._declarer()] = -(self._stake() or 0)
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
        talon = self._talon_points(raw, rounded)
        if out is not None:  # rule T-7: the sitting-out dealer scores the talon
            scores[out] = ALL_NINES if all(c[0] == "9" for c in talon) else rounded[out]
        totals = [t + d for t, d in zip(self.before, scores, strict=True)]
        row = {
            "declarer": self.declarer, "bid": self.bid, "contract": self.contract,
            "forced": self.forced, "points_raw": raw, "points": rounded,
            "marriages": [[s, suit] for s, suit, _ in self.marriages],
            "made": made, "scores": scores, "totals": totals, "thrown": thrown, "refused": refused,
            "fined": fined, "sitting_out": out,
        }
        self._end_or_next(row, totals, reached=max(totals) >= self.goal)  # rules T-29, T-5
