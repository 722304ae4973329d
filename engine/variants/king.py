"""Кинг (Russian King): ``king-classic``, ``king-ordered``, ``king-3p`` (rules/king.md).

Deals (rules K-2, K-11, K-16), and so the meaning of a preset deal's ``hands``
(per seat, the cards in the order that seat receives them; ``rest`` is empty):

* a negative deal, and every deal of ``king-ordered``: the whole deck is dealt
  one card at a time clockwise, starting with the dealer's left
  (dealer+1, dealer+2, ..., dealer);
* a positive deal of ``king-classic`` / ``king-3p`` (rule K-11): the chooser
  (the dealer's right) is dealt his first 3 cards, the first three of the
  shuffled deck; when he has chosen, the rest is dealt one card at a time
  clockwise from the dealer's left, a seat whose hand is full being skipped.
  "The last card dealt to him" is the last card of his hand in that order (the
  last of his preset hand).  Before the choice the other cards lie in the
  ``stock``: the other seats hold no cards yet.

Phases: ``choose`` (the trump choice of a positive deal, or the order of
``king-ordered``; a negative deal of the classic game starts in ``play``),
``play``, then the next deal or ``match_over``.

Scoresheet rows (K-15): ``deal``, ``dealer``, ``contract`` (a contract id of
K-4, or ``"trump"`` for a positive deal), ``chooser`` and ``trump`` (positive
deals, else None), ``scores`` (penalties negative), ``totals``; the classic
variants add ``by_last`` (the trump was "by the last card", K-11) and
``king-ordered`` adds ``orderer`` and ``relative``: each total minus the table
average.  A deal's history entry adds ``early_end`` (it ended early, K-8).
With four players the average is a multiple of 1/4, so ``relative``
is a float holding an exact quarter (12.25, -3.75): floats add quarters of
such small numbers exactly, and the row adds up to 0.0 exactly.

Views add ``contract``, ``chooser``, ``tricks_taken`` (per seat) and
``deals_total``; the classic variants ``contract_order`` (K-5), the ordered
one ``orderer``, ``orders`` (the public table of K-16: per seat, the ids he
has ordered, trump deals as ``"trump:H"``) and ``relative``.  ``last_trick``
is ``{"cards": [[seat, card], ...], "winner": seat}``; ``face_up`` holds the
card turned "by the last card" until the deal ends (K-11).

Determinization keeps the voids that play reveals: a discard shows a void in
the led suit (and in trumps, K-12), a heart led under K-6 or a trump led by a
non-chooser under K-12 shows the leader holds nothing else, and a void player
who did not drop the K♥ under K-7 does not hold it.
"""

from __future__ import annotations

import random
from typing import ClassVar, cast

from ..actions import Action
from ..dealing import deal_cards_round
from ..errors import check
from ..hidden import assign_hidden
from ..match import Match, Stage
from ..options import Option
from ..places import places_of
from ..registry import Variant, register
from ..tricks import FollowRule, winning_play
from .king_rules import (
    CONTRACTS,
    EARLY_END_CARDS,
    KING_MUST_GO,
    NO_HEART_LEAD,
    SUITS,
    TRUMP,
    king_deck,
    king_strength,
    penalties,
    trick_pay,
)

PLAY = {r + s: "play:" + r + s for r in "789TJQKA" for s in SUITS}
CHOOSE_TRUMP = [f"trump:{s}" for s in SUITS] + ["trump:last"]  # rule K-11
TRUMP_ORDERS = [f"trump:{s}" for s in SUITS]  # rule K-16

# Reasons for rejected plays (rule C-6).
WHY_FOLLOW = "you must follow the led suit (rules K-3, K-12)"
WHY_HEART_LEAD = "hearts may not be led while you hold another suit (rule K-6)"
WHY_KING = "you must play the K♥ (rule K-7)"
WHY_TRUMP = "you cannot follow suit, so you must play a trump (rule K-12)"
WHY_TRUMP_LEAD = "only the trump chooser may lead a trump while holding other suits (rule K-12)"

FOLLOW = FollowRule(must_trump=True, why_follow=WHY_FOLLOW, why_trump=WHY_TRUMP)  # K-3, K-12
_PLAY = Stage("play", "_legal_play", {"play": "_do_play"})


class KingMatch(Match):
    """What the three variants share; ``KingClassicMatch`` (classic, 3p) and
    ``KingOrderedMatch`` add how a deal's contract is chosen and written."""

    _accepts_start_totals = True
    _SHARED = Match._SHARED | {"deck", "strength", "choices", "left", "penalty_cards",
                               "contract_order"}
    _APPEND_ONLY = Match._APPEND_ONLY | {"trick_winners"}
    hands: list[list[str]]
    turn: int  # always a seat while the match runs

    # -- the match ------------------------------------------------------------

    def _setup(self) -> None:
        n = self.seats
        self.deck = king_deck(n)  # rules K-1, K-17
        self.strength = king_strength(self.deck)
        self.hand_size = len(self.deck) // n  # rule K-2: the whole deck is dealt
        self.king_strict: bool = self.options["king_strict"]
        self.deals_total = self._deals_total()
        self.orders: list[list[str]] = [[] for _ in range(n)]  # rule K-16: the public table
        self.running = [0] * n
        self.left = [(s + 1) % n for s in range(n)]  # rule C-1: play passes to the left

    @classmethod
    def deck_for(cls, seats: int) -> list[str]:
        return king_deck(seats)

    @classmethod
    def strength_for(cls, seats: int) -> dict[str, int]:
        return king_strength(king_deck(seats))

    def _deals_total(self) -> int:
        raise NotImplementedError

    def _totals_changed(self) -> None:
        self.running = list(self.start_totals)

    def _start_deal(self) -> None:
        n = self.seats
        self.contract: str | None = None
        self.chooser: int | None = None
        self.orderer: int | None = None
        self.trump: str | None = None
        self.by_last = False
        self.face_up: list[str] = []
        self.trick: list[tuple[int, str]] = []  # (seat, card) in play order
        self.led: str | None = None
        self.won: list[list[str]] = [[] for _ in range(n)]
        self.trick_winners: list[int] = []
        self.voids: list[set[str]] = [set() for _ in range(n)]  # revealed by play
        self.no_king: set[int] = set()  # seats that showed they do not hold K♥ (rule K-7)
        self.stock: list[list[str]] = [[] for _ in range(n)]  # cards not dealt yet (K-11)
        self.choices: list[str] = []
        self._open_deal()
        self._set_contract_rules()

    def _open_deal(self) -> None:
        """Deal the cards and name (or ask for) the contract of this deal."""
        raise NotImplementedError

    def _deal_cards(self) -> list[list[str]]:
        """The hands of this deal, each in the order its cards are dealt (see the top)."""
        n, size = self.seats, self.hand_size
        preset, deck = self._next_cards()
        if preset is not None:
            hands, _ = self._check_preset(preset, [size] * n, 0)
        else:
            clockwise = [(self.dealer + 1 + i) % n for i in range(n)]
            if self.chooser is None:
                hands, _ = deal_cards_round(deck, clockwise, size, n)
            else:
                hands = [[] for _ in range(n)]
                hands[self.chooser] = deck[:3]  # rule K-11: the chooser's first three
                rest = iter(deck[3:])
                for _ in range(size):
                    for s in clockwise:
                        if len(hands[s]) < size:
                            hands[s].append(next(rest))
        self._dealt = {"hands": [list(h) for h in hands], "rest": [], "early_end": False}
        return hands

    def _set_contract_rules(self) -> None:
        c = self.contract
        self.no_heart_lead = c in NO_HEART_LEAD  # rule K-6
        self.king_must_go = c in KING_MUST_GO  # rule K-7
        self.king_strict_now = self.king_must_go and self.king_strict  # rule K-7 option
        early = EARLY_END_CARDS.get(c) if c else None  # rule K-8
        self.penalty_cards = early
        self.penalty_left = len(early) if early else 0

    # -- hooks: turn and legality --------------------------------------------

    def _hand(self, seat: int) -> list[str]:
        return self.hands[seat]

    def _legal_choose(self, seat: int) -> list[str]:
        return list(self.choices)

    def _legal_play(self, seat: int) -> list[str]:
        if self.trick and not self.king_must_go:  # rules K-3, K-12
            return FOLLOW.playable_codes(self.hands[seat], self.trick, self.trump, self.strength, PLAY)
        if not self.trick and not self.no_heart_lead and self.trump is None:
            return [PLAY[c] for c in self.hands[seat]]  # a free lead (no K-6, no K-12)
        return [PLAY[c] for c in self._playable(seat)[0]]

    def _playable(self, seat: int) -> tuple[list[str], str]:
        """The cards ``seat`` may play now, and the reason why no other card."""
        hand = self.hands[seat]
        trick = self.trick
        if not trick:
            if self.no_heart_lead:  # rule K-6
                other = [c for c in hand if c[1] != "H"]
                if other and len(other) < len(hand):
                    return other, WHY_HEART_LEAD
                return hand, ""
            trump = self.trump
            if trump is not None and seat != self.chooser:  # rule K-12
                other = [c for c in hand if c[1] != trump]
                if other and len(other) < len(hand):
                    return other, WHY_TRUMP_LEAD
            return hand, ""
        if self.king_must_go and "KH" in hand:
            led = self.led
            if not any(c[1] == led for c in hand):  # rule K-7: the King must go
                return ["KH"], WHY_KING
            # rule K-7 [option king_strict]: K♥ under a trick where A♥ already lies
            if self.king_strict_now and led == "H" and any(c == "AH" for _, c in trick):
                return ["KH"], WHY_KING
        return FOLLOW.playable(hand, trick, self.trump, self.strength)

    def _why_illegal(self, seat: int, action: str) -> str | None:
        if self.stage == "choose":
            return self._why_not_choice(action)
        if not action.startswith("play:"):
            return "play a card: play:XX"
        card = action[5:]
        if card not in self.hands[seat]:
            return f"{card!r} is not in your hand"
        return self._playable(seat)[1] or None

    def _why_not_choice(self, action: str) -> str:
        raise NotImplementedError

    # -- hooks: actions ------------------------------------------------------

    def _do_play(self, seat: int, act: Action) -> None:
        card: str = act.card  # type: ignore[assignment]  # play:XX
        self.hands[seat].remove(card)
        self.log.append(act.public[seat])
        trick = self.trick
        if trick:
            led = self.led
            if card[1] != led:  # what a discard reveals (for determinize)
                self.voids[seat].update(FOLLOW.reveals(trick, card, self.trump, self.strength)[0])
                if self.king_must_go and card != "KH":
                    self.no_king.add(seat)  # K-7: he would have had to play it
            elif self.king_strict_now and led == "H" and card != "KH" and any(
                    c == "AH" for _, c in trick):
                self.no_king.add(seat)  # K-7 [king_strict]: likewise
        else:
            suit = self.led = card[1]
            # What a lead reveals: a heart led under K-6, or a trump led by a
            # non-chooser under K-12, means the leader holds nothing else.
            if suit == "H" and self.no_heart_lead:
                self.voids[seat].update("SCD")
            elif suit == self.trump and seat != self.chooser:
                self.voids[seat].update(s for s in SUITS if s != suit)
        trick.append((seat, card))
        if len(trick) < self.seats:
            self.turn = self.left[seat]
            return
        self._complete_trick()

    def _complete_trick(self) -> None:
        trick = self.trick
        winner = winning_play(trick, self.trump, self.strength)[0]  # rule C-4
        cards = [c for _, c in trick]
        self.won[winner] += cards
        self.trick_winners.append(winner)
        self.last_trick = {"cards": [[s, c] for s, c in trick], "winner": winner}
        self.trick = []
        self.led = None
        self.turn = winner  # rules K-3, K-12: the winner leads next
        if self.penalty_cards is not None:  # rule K-8: early end
            self.penalty_left -= sum(1 for c in cards if c in self.penalty_cards)
            if self.penalty_left == 0:
                # a new dict, not an edit: copies for search share _dealt (Match.copy)
                self._dealt = {**self._dealt, "early_end": bool(self.hands[winner])}
                self._end_deal()
                return
        if not self.hands[winner]:
            self._end_deal()

    # -- end of a deal and of the match ---------------------------------------

    def _end_deal(self) -> None:
        n = self.seats
        contract = cast(str, self.contract)
        if contract == TRUMP:
            scores = trick_pay(n, self.trick_winners, self.hand_size)  # rules K-13, K-17
        else:
            scores = [-p for p in penalties(contract, n, self.won, self.trick_winners)]  # K-4, K-9
        self.running = [t + s for t, s in zip(self.running, scores, strict=True)]
        row = {
            "contract": contract,
            "chooser": self.chooser if contract == TRUMP else None,
            "trump": self.trump,
            "scores": scores,
            "totals": list(self.running),
        }
        self._row_extra(row)
        over = self.deal_no == self.deals_total
        result = self._final_result() if over else None
        self._finish_deal(row, next_dealer=self._next_dealer(), over=over, result=result)

    def _row_extra(self, row: dict) -> None:
        """The variant's own columns of a scoresheet row."""

    def _next_dealer(self) -> int:
        return (self.dealer + 1) % self.seats  # rules K-2, K-16: to the left

    def _final_result(self) -> dict:
        """Rule K-14: the totals of the last row; the highest total wins (ties share).
        K-14 says nothing of the other places: equal totals share one (places_of)."""
        best = max(self.running)
        winners = [s for s, t in enumerate(self.running) if t == best]
        return {"totals": list(self.running), "winners": winners,
                "places": places_of(self.running, winners)}

    # -- views, locations, determinization -------------------------------------

    def _view_extra(self, v: dict) -> None:
        v["trick"] = [[s, c] for s, c in self.trick]
        v["trump"] = self.trump
        v["face_up"] = list(self.face_up)
        v["contract"] = self.contract
        v["chooser"] = self.chooser
        v["tricks_taken"] = [self.trick_winners.count(s) for s in range(self.seats)]
        v["deals_total"] = self.deals_total

    def _positions(self) -> dict:
        return {"trick": [[s, c] for s, c in self.trick], "taken": [list(w) for w in self.won],
                "trump": self.trump, "contract": self.contract, "chooser": self.chooser,
                "face_up": list(self.face_up), "stock": [list(p) for p in self.stock]}

    def _locations(self) -> dict[str, list[str]]:
        out = {f"hand:{s}": list(h) for s, h in enumerate(self.hands)}
        out["stock"] = [c for pile in self.stock for c in pile]
        out["trick"] = [c for _, c in self.trick]
        for s, pile in enumerate(self.won):
            out[f"won:{s}"] = list(pile)
        return out

    def _redeal_hidden(self, seat: int, rng: random.Random) -> None:
        """Deal anew every card ``seat`` has not seen: the other hands and the
        undealt stock, keeping hand sizes, the face-up card, revealed voids and
        the K♥ that a player showed he does not hold (rule K-7)."""
        n = self.seats
        shown = set(self.face_up)
        hidden: list[str] = []
        slots: list[tuple[tuple[str, int], int, set[str]]] = []
        for s in range(n):
            if s != seat:
                cards = [c for c in self.hands[s] if c not in shown]
                hidden += cards
                slots.append((("hand", s), len(cards), self.voids[s]))
            if self.stock[s]:
                hidden += self.stock[s]
                slots.append((("stock", s), len(self.stock[s]), set()))
        if not hidden:
            return
        # The K♥ travels as a card of its own pseudo-suit "X", banned where it
        # cannot be: with a heart void or with a player who showed he lacks it.
        hidden = ["KX" if c == "KH" else c for c in hidden]
        banned = []
        for key, size, voids in slots:
            ban = set(voids)
            if "H" in voids or (key[0] == "hand" and key[1] in self.no_king):
                ban.add("X")
            banned.append((key, size, frozenset(ban)))
        dealt = assign_hidden(hidden, banned, rng)
        for (kind, s), cards in dealt.items():
            cards = ["KH" if c == "KX" else c for c in cards]
            if kind == "stock":
                self.stock[s] = cards
            else:
                self.hands[s] = cards + [c for c in self.hands[s] if c in shown]


class KingClassicMatch(KingMatch):
    """``king-classic`` and ``king-3p``: the seven negative deals in the room's
    order (K-5), then each player chooses the trump of two positive deals (K-10, K-11)."""

    STAGES: ClassVar[dict[str, Stage]] = {
        "choose": Stage("choose", "_legal_choose", {"trump": "_do_trump"}), "play": _PLAY}

    def _setup(self) -> None:
        self.contract_order = list(self.options.get("order", CONTRACTS))  # rule K-5
        super()._setup()

    def _deals_total(self) -> int:
        return len(CONTRACTS) + 2 * self.seats  # rule K-10

    def _open_deal(self) -> None:
        n = self.seats
        positive = self.deal_no > len(CONTRACTS)
        if positive:
            self.chooser = (self.dealer - 1) % n  # rule K-10: the dealer's right chooses
        hands = self._deal_cards()
        if positive:  # rule K-11: the chooser sees his first 3 cards only
            ch = cast(int, self.chooser)
            self.hands = [[] for _ in range(n)]
            self.hands[ch] = hands[ch][:3]
            self.stock = [list(h) for h in hands]
            self.stock[ch] = hands[ch][3:]
            self.contract = TRUMP
            self.turn = ch
            self.stage = "choose"
            self.choices = CHOOSE_TRUMP
        else:  # rule K-5: the next negative contract in the room's order
            self.hands = hands
            self.contract = self.contract_order[self.deal_no - 1]
            self.stage = "play"
            self.turn = (self.dealer + 1) % n  # rule K-3: the dealer's left leads

    def _why_not_choice(self, action: str) -> str:
        return "name a trump suit (trump:S/C/D/H) or trump:last; no-trump is not allowed (rule K-11)"

    def _do_trump(self, seat: int, act: Action) -> None:
        """Rule K-11: a suit, or "by the last card" dealt to the chooser."""
        self._log(seat, act.text)
        last = self.stock[seat][-1] if self.stock[seat] else self.hands[seat][-1]
        for s in range(self.seats):  # then all the other cards are dealt
            self.hands[s].extend(self.stock[s])
            self.stock[s] = []
        if act.arg == "last":
            self.trump = last[1]
            self.by_last = True
            self.face_up = [last]  # shown to everyone until the deal ends
            self._log(None, "show:" + last)
        else:
            self.trump = act.arg
        self.stage = "play"
        self.turn = seat  # rule K-12: the chooser leads

    def _row_extra(self, row: dict) -> None:
        row["by_last"] = self.by_last

    def _next_dealer(self) -> int:
        if self.deal_no <= len(CONTRACTS):  # rule K-2 (K-10: also into the first positive deal)
            return (self.dealer + 1) % self.seats
        return cast(int, self.chooser)  # rule K-10: the chooser deals next

    def _final_result(self) -> dict:
        check(sum(self.running) == sum(self.start_totals),
              f"K-14: the totals {self.running} do not add up to zero")
        return super()._final_result()

    def _view_extra(self, v: dict) -> None:
        super()._view_extra(v)
        v["contract_order"] = list(self.contract_order)


class KingOrderedMatch(KingMatch):
    """``king-ordered``: 36 deals, each ordered by the dealer's left from what he
    still owes, every contract once and two trump deals (K-16)."""

    STAGES: ClassVar[dict[str, Stage]] = {
        "choose": Stage("choose", "_legal_choose", {"order": "_do_order"}), "play": _PLAY}

    def _deals_total(self) -> int:
        return 9 * self.seats  # rule K-16

    def _open_deal(self) -> None:
        # rule K-16: everyone sees his cards, then the dealer's left orders
        self.hands = self._deal_cards()
        self.orderer = self.turn = (self.dealer + 1) % self.seats
        self.stage = "choose"
        self.choices = ["order:" + c for c in self._owed(self.orderer)]

    def _owed(self, seat: int) -> list[str]:
        """Rule K-16: the orders ``seat`` still owes (each contract once, two trump deals)."""
        done = self.orders[seat]
        owed = [c for c in CONTRACTS if c not in done]
        if sum(1 for o in done if o.startswith(TRUMP)) < 2:
            owed += TRUMP_ORDERS
        return owed

    def _why_not_choice(self, action: str) -> str:
        if action.startswith("order:") and action[6:] in CONTRACTS + tuple(TRUMP_ORDERS):
            return f"you have already ordered {action[6:]!r} as often as allowed (rule K-16)"
        return "order one of: " + ", ".join(self.choices) + " (rule K-16)"

    def _do_order(self, seat: int, act: Action) -> None:
        """Rule K-16: the dealer's left orders a contract or a trump deal, then leads."""
        what = act.arg
        self._log(seat, act.text)
        self.orders[seat].append(what)
        if what.startswith(TRUMP):
            self.contract = TRUMP
            self.trump = what[6:]
            self.chooser = seat  # the orderer is the chooser of an ordered trump deal
        else:
            self.contract = what
        self._set_contract_rules()
        self.stage = "play"
        self.turn = seat

    def _relative(self) -> list[float]:
        """Rule K-16: each total minus the table average (exact quarters, sum 0)."""
        average = sum(self.running) / self.seats
        return [t - average for t in self.running]

    def _row_extra(self, row: dict) -> None:
        row["orderer"] = self.orderer
        row["relative"] = self._relative()

    def _final_result(self) -> dict:
        return {**super()._final_result(), "relative": self._relative()}

    def _view_extra(self, v: dict) -> None:
        super()._view_extra(v)
        v["orderer"] = self.orderer
        v["orders"] = [list(o) for o in self.orders]  # rule K-16: the public table
        v["relative"] = self._relative()


def _options(with_order: bool) -> list[Option]:
    opts = []
    if with_order:
        opts.append(Option("order", "permutation", list(CONTRACTS), "K-5",
                           label="Order of the negative deals", allowed=CONTRACTS, group="match",
                           description="The order in which the seven negative deals are played."))
    opts.append(Option("king_strict", "bool", False, "K-7",
                       label="K♥ must also go under a led A♥", group="play",
                       description="In the king and all deals, the K♥ must also be played "
                                   "when hearts are led and the A♥ already lies in the trick."))
    return opts


register(Variant(id="king-classic", family="king", name="King (classic)", seat_counts=(4,),
                 match_class=KingClassicMatch, options=_options(True)))
register(Variant(id="king-ordered", family="king", name="King (ordered)", seat_counts=(4,),
                 match_class=KingOrderedMatch, options=_options(False)))
register(Variant(id="king-3p", family="king", name="King (3 players)", seat_counts=(3,),
                 match_class=KingClassicMatch, options=_options(True)))
