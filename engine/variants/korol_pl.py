"""Król (``krol-pl``): the crowning (R-30 .. R-35) and the reign (R-40 .. R-47).

Every deal gives 9 cards to each of the four seats, one at a time: in the
crowning clockwise from the dealer's left (R-31), in a reign in the order
Prince, King, Soldier, Sweeper (R-41), the Prince's first card face up.  A
preset's ``hands`` are per seat in seat order, each in the order dealt, and
``rest`` is empty.

A hand dealt to a seat whose player has left lies face down at ``spare:S``:
in the crowning the active players may swap for it (``spare``, R-32); in a
reign it goes to that seat's receiver after the strikes (R-47).

Phases: ``spare`` (crowning), ``strike`` (R-42), ``handover`` (the receivers
trim to 9, R-47), ``pool`` (R-43), ``play``.
"""

from __future__ import annotations

from typing import ClassVar, cast

from ..actions import Action
from ..dealing import deal_cards_round
from ..match import Stage
from .korol_play import DISCARD, GIVE, HAND, RANKS, SEATS, STRENGTH, KorolMatch

TARGETS = (9, 9, 9)  # rules
KING_STRIKES, PRINCE_STRIKES = 3, 2  # rule R-42
NINE = RANKS.index("9")


class KrolPlMatch(KorolMatch):
    """A match of the Polish Król."""

    confirm_kinds = frozenset({"strike"})  # rule R-42: a redeal demanded
    take_back_never: ClassVar[dict[str, str]] = {"strike": "a strike cannot be taken back"}

    STAGES: ClassVar[dict[str, Stage]] = {
        **KorolMatch.STAGES,
        "spare": Stage("spare", "_legal_spare", {"spare": "_do_spare", "keep": "_do_spare"}),
        "strike": Stage("strike", "_legal_strike", {"strike": "_do_strike",
                                                    "accept": "_do_strike"}),
        "handover": Stage("handover", "_legal_handover", {"discard": "_do_discard"}),
        "pool": Stage("pool", "_legal_pool", {"give": "_do_pool_give"}),
    }

    def _round_reset(self) -> None:
        self.strikes = {"king": 0, "prince": 0}  # rule R-42: since the last played deal
        self.striker: str | None = None
        self.spare_queue: list[int] = []
        self.trim_queue: list[int] = []
        self.pool_queue: list[tuple[int, int]] = []

    def _targets(self) -> tuple[int, int, int]:
        return TARGETS

    # -- dealing ----------------------------------------------------------------------

    def _deal_all(self, order: list[int]) -> list[list[str]]:
        """Rules R-31, R-41: 9 cards to every seat, one at a time in ``order``."""
        preset, deck = self._next_cards()
        if preset is not None:
            hands, _ = self._check_preset(preset, [HAND] * SEATS, 0)
        else:
            hands, _ = deal_cards_round(deck, order, HAND, SEATS)
        self._dealt = {"hands": [list(h) for h in hands], "rest": []}
        self._new_deal_state(hands, [])
        for s in range(SEATS):
            if not self.active[s]:  # a face-down spare hand nobody has seen
                self.spares[s] = self.hands[s]
                self.hands[s] = []
                self.known[s] = {}
        return hands

    def _start_deal(self) -> None:
        if self.round == 0:
            if self.deals_in_round:  # rule R-30: the next seat to the left, titled or not
                self.dealer = (self.dealer + 1) % SEATS
            self.deals_in_round += 1
            self._deal_all([(self.dealer + 1 + i) % SEATS for i in range(SEATS)])  # rule R-31
            if self.spares:  # rule R-32: each active player decides once, from the dealer's left
                first = self._next_active(self.dealer)
                i = self.order.index(first)
                self.spare_queue = [s for s in self.order[i:] + self.order[:i] if self.active[s]]
                self.stage = "spare"
                self.turn = self.spare_queue[0]
            else:
                self._start_play()
            return
        self.dealer = self.seat_of("peasant")  # rule R-41: the Sweeper deals every deal
        self.deals_in_round += 1
        self._deal_reign()

    def _deal_reign(self, struck: list[dict] | None = None) -> None:
        king, prince, soldier, sweeper = (self.seat_of(t) for t in
                                          ("king", "prince", "soldier", "peasant"))
        self._deal_all([prince, king, soldier, sweeper])  # rule R-41
        if struck:
            self._dealt["struck"] = struck
        where = f"hand:{prince}" if self.active[prince] else f"spare:{prince}"
        self._turn_up(self._dealt["hands"][prince][0], where)  # rule R-41: the Prince's first card sets trump
        self._ask_strike("king")

    # -- spare hands (rule R-32) ---------------------------------------------------------

    def _do_spare(self, seat: int, act: Action) -> None:
        if act.kind == "spare":
            at = cast(int, act.target)
            mine, theirs = self.hands[seat], self.spares[at]
            self.hands[seat], self.spares[at] = theirs, mine  # unseen; his hand lies there now
            self._moved_pile(mine, f"hand:{seat}", f"spare:{at}")
            self._moved_pile(theirs, f"spare:{at}", f"hand:{seat}", (seat,))
        self._log(seat, act.text)
        self.spare_queue.pop(0)
        if self.spare_queue:
            self.turn = self.spare_queue[0]
        else:
            self._start_play()

    # -- strikes (rule R-42) ---------------------------------------------------------------

    def _ask_strike(self, who: str) -> None:
        king, prince = self.seat_of("king"), self.seat_of("prince")
        self.stage = "strike"
        if who == "king" and self.active[king]:
            self.striker, self.turn = "king", king
        elif self.active[prince]:  # the Prince is asked although the King has left
            self.striker, self.turn = "prince", prince
        else:
            self._after_strikes()

    def _may_strike(self, seat: int) -> bool:
        if self.striker == "king":
            return self.strikes["king"] < KING_STRIKES
        trump = self.trump
        high_trump = any(c[1] == trump and STRENGTH[c] > NINE for c in self.hands[seat])
        return self.strikes["prince"] < PRINCE_STRIKES and not high_trump

    def _do_strike(self, seat: int, act: Action) -> None:
        self._log(seat, act.text)
        if act.kind == "accept":
            if self.striker == "king":
                self._ask_strike("prince")
            else:
                self._after_strikes()
            return
        self.strikes[cast(str, self.striker)] += 1
        # a redeal by the Sweeper; the struck deal is kept inside this deal's history
        struck = list(self._dealt.get("struck", []))
        struck.append({k: v for k, v in self._dealt.items() if k != "struck"})
        self._deal_reign(struck)

    def _after_strikes(self) -> None:
        self.strikes = {"king": 0, "prince": 0}  # this deal is played
        # rule R-47: the hands of departed seats go to their receivers
        for i, seat in enumerate(self.leavers):
            cards = self.spares.pop(seat)
            receiver = self._receiver(i)
            if receiver is not None and self.active[receiver]:
                self.hands[receiver] += cards
                self._moved_pile(cards, f"spare:{seat}", f"hand:{receiver}", (receiver,))
                self._log(seat, f"hand>{receiver}")
            else:
                self._to_aside(f"spare:{seat}", cards)
                self._log(seat, "aside")
        soldier, sweeper = self.seat_of("soldier"), self.seat_of("peasant")
        # rule R-47 [reading]: the Soldier, then the Sweeper, discard down to 9
        self.trim_queue = [s for s in (soldier, sweeper) if self.active[s] and len(self.hands[s]) > HAND]
        self._next_trim()

    def _receiver(self, i: int) -> int | None:
        """Rule R-46: the first to leave hands on to the Soldier, the second to the Sweeper."""
        if i == 0:
            return self.seat_of("soldier")
        if i == 1:
            return self.seat_of("peasant")
        return None

    # -- trimming (rule R-47) and pooling (rule R-43) ------------------------------------------

    def _next_trim(self) -> None:
        if self.trim_queue:
            self.stage = "handover"
            self.turn = self.trim_queue[0]
        else:
            self._start_pool()

    def _do_discard(self, seat: int, act: Action) -> None:
        card = cast(str, act.card)
        self.hands[seat].remove(card)
        self.aside.append(card)
        self._moved_unseen(card, f"hand:{seat}", "aside", (seat,))
        self._log(seat, "discard:" + card, hidden="discard:??", seen_by=(seat,))
        if len(self.hands[seat]) <= HAND:
            self.trim_queue.pop(0)
            self._next_trim()

    def _start_pool(self) -> None:
        titled = [self.seat_of(t) for t in ("king", "prince", "soldier", "peasant")]
        king, prince, soldier, sweeper = titled
        self.pool_queue = []
        for giver, receiver in ((king, soldier), (prince, sweeper)):
            if self.active[giver] and self.active[receiver]:  # a pair pools while both are active
                cards = self.hands[receiver]
                self.hands[giver] += cards
                self.hands[receiver] = []
                self._moved_pile(cards, f"hand:{receiver}", f"hand:{giver}", (giver,))
                self._log(receiver, f"hand>{giver}")
                self.pool_queue.append((giver, receiver))
        self._next_pool()

    def _next_pool(self) -> None:
        if self.pool_queue:
            self.stage = "pool"
            self.turn = self.pool_queue[0][0]
        else:
            self._start_play()

    def _do_pool_give(self, seat: int, act: Action) -> None:
        card = cast(str, act.card)
        receiver = self.pool_queue[0][1]
        self.hands[seat].remove(card)
        self.hands[receiver].append(card)
        self._moved_unseen(card, f"hand:{seat}", f"hand:{receiver}", (seat, receiver))
        self._log(seat, f"give:{card}>{receiver}", hidden=f"give:??>{receiver}",
                  seen_by=(seat, receiver))
        if len(self.hands[seat]) <= HAND:
            self.pool_queue.pop(0)
            self._next_pool()

    # -- play -------------------------------------------------------------------------------

    def _start_play(self) -> None:
        self.stage = "play"
        self.lead_duty = False
        if self.round:
            self.turn = self._highest_active()  # rule R-44: the King, else the highest active title
            return
        first = self._next_active(self.dealer)
        card = self.options["first_lead_card"]  # rule R-34
        holder = next((s for s in range(SEATS) if self.active[s] and card in self.hands[s]), None)
        if holder is None:  # in a spare hand: the first hand leads
            self.turn = first
            return
        self.turn = holder
        if not (self.spares and holder == first):  # else nobody can tell where it lies
            self._see_all(card, f"hand:{holder}")

    def _next_lead(self, winner: int) -> None:
        # rules: the winner leads; rule R-5: the next active player if he left
        self.turn = winner if self.active[winner] else self._next_active(winner)

    def _release(self, seat: int) -> None:
        """Rule R-46: in a reign, the cards of a player who leaves go to his receiver."""
        receiver = self._receiver(len(self.leavers) - 1) if self.round else None
        cards = self.hands[seat]
        if receiver is None or not self.active[receiver] or not cards:
            super()._release(seat)
            return
        self.hands[receiver] += cards
        self.hands[seat] = []
        self.voids[receiver] = set()  # the new cards may be of any suit
        self._moved_pile(cards, f"hand:{seat}", f"hand:{receiver}", (receiver,))
        self._log(seat, f"hand>{receiver}")

    # -- the phases before play --------------------------------------------------------------

    def _legal_spare(self, seat: int) -> list[str]:
        return [f"spare:{s}" for s in sorted(self.spares)] + ["keep"]

    def _legal_strike(self, seat: int) -> list[str]:
        return (["strike"] if self._may_strike(seat) else []) + ["accept"]

    def _legal_handover(self, seat: int) -> list[str]:
        return [DISCARD[c] for c in self._sorted(self.hands[seat])]

    def _legal_pool(self, seat: int) -> list[str]:
        give = GIVE[self.pool_queue[0][1]]
        return [give[c] for c in self._sorted(self.hands[seat])]

    def _why_illegal(self, seat: int, action: str) -> str | None:
        stage = self.stage
        if stage == "spare":
            return "swap for a spare hand (spare:SEAT) or keep your hand (rule R-32)"
        if stage == "strike":
            if action == "strike":
                if self.striker == "king":
                    return "the King may strike at most 3 times in a row (rule R-42)"
                return ("the Prince may strike at most twice, and only without a trump "
                        "above the 9 (rule R-42)")
            return "strike or accept (rule R-42)"
        if stage == "handover":
            return "discard one card of your hand (rule R-47)"
        if stage == "pool":
            return f"give one card of your hand to seat {self.pool_queue[0][1]} (rule R-43)"
        return super()._why_illegal(seat, action)

    def _view_extra(self, v: dict) -> None:
        super()._view_extra(v)
        v["strikes"] = dict(self.strikes)
        v["striker"] = self.striker if self.stage == "strike" else None
