"""Король (``korol-ru``): the crowning (R-10 .. R-15) and the reign (R-20 .. R-27).

Deals and presets: 9 cards to each active player, one at a time; in the
crowning clockwise from the dealer's left (R-11), in a reign in title order
(R-22); the dealer is dealt last.  A preset gives ``hands`` only to the
active seats (an empty list for the others) and ``rest`` holds the undealt
cards; with 4 active players ``rest`` is empty and the trump is the dealer's
last card, else ``rest[0]`` is the turned card.

Phases: ``tribute`` (R-23: the King, then the Prince, take from the Peasant),
``swap`` (R-26: once the King has left) and ``play``.
"""

from __future__ import annotations

from typing import ClassVar, cast

from ..actions import Action
from ..dealing import deal_cards_round
from ..match import Stage
from .korol_play import DECK, HAND, SEATS, STRENGTH, KorolMatch

CROWNING_TARGETS = (10, 9, 8)  # rule R-14
REIGN_TARGETS = (9, 9, 9)  # rule R-27 [reading]


class KorolRuMatch(KorolMatch):
    """A match of the Russian Король."""

    STAGES: ClassVar[dict[str, Stage]] = {
        **KorolMatch.STAGES,
        "tribute": Stage("tribute", "_legal_tribute", {"take": "_do_take", "give": "_do_give",
                                                       "keep": "_do_keep"}),
        "swap": Stage("swap", "_legal_swap", {"swap": "_do_swap", "keep": "_do_swap"}),
    }

    def _round_reset(self) -> None:
        self.prince_leads = 0  # rule R-25: the Prince's leads since the King left

    def _targets(self) -> tuple[int, int, int]:
        return CROWNING_TARGETS if self.round == 0 else REIGN_TARGETS

    # -- the deal -------------------------------------------------------------------

    def _start_deal(self) -> None:
        active = self._active_in_order()
        if self.round == 0:
            if self.deals_in_round:  # rule R-10: to the next active player on the left
                self.dealer = self._next_active(self.dealer)
            first = self._next_active(self.dealer)
            i = active.index(first)
            deal_order = active[i:] + active[:i]  # rule R-11: from the dealer's left, dealer last
        else:
            peasant = self.seat_of("peasant")
            # rule R-21 [reading]: the Peasant deals; once he has left, the lowest active title
            self.dealer = peasant if self.active[peasant] else active[-1]
            deal_order = active  # rule R-22: in title order, King first, dealer last
        self.deals_in_round += 1
        preset, deck = self._next_cards()
        n = len(deal_order)
        if preset is not None:
            shape = [HAND if s in deal_order else 0 for s in range(SEATS)]
            hands, rest = self._check_preset(preset, shape, len(self.deck) - HAND * n)
        else:
            hands, rest = deal_cards_round(deck, deal_order, HAND, SEATS)
        self._dealt = {"hands": [list(h) for h in hands], "rest": list(rest)}
        self._new_deal_state(hands, rest)
        if n == SEATS:  # rule R-11: the dealer's last card, kept in his hand
            self._turn_up(hands[self.dealer][-1], f"hand:{self.dealer}")
        else:  # rule R-11 [reading]: the top undealt card, left in the stock
            self._turn_up(rest[0], "stock")
        if self.round == 0:
            self.stage = "play"
            self._start_play()
            return
        king, peasant = self.seat_of("king"), self.seat_of("peasant")
        if self.active[king] and self.active[peasant]:  # rule R-23
            prince = self.seat_of("prince")
            self.takers = [king] + ([prince] if self.active[prince] else [])
            self._next_taker()
        elif not self.active[king] and self.active[peasant]:  # rule R-26
            self.stage = "swap"
            self.turn = peasant
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.stage = "play"
        if self.round == 0:
            first = self._next_active(self.dealer)  # rule R-12: the first hand leads
            self.turn, self.lead_duty = first, True
        else:
            self._reign_lead()

    # -- leads ---------------------------------------------------------------------

    def _next_lead(self, winner: int) -> None:
        if self.round == 0:
            # rules: the winner (or the next active player) leads;
            # the lead of the deal's second trick must still be a trump
            self.turn = winner if self.active[winner] else self._next_active(winner)
            self.lead_duty = self.deal_trick_no < 2
        else:
            self._reign_lead()

    def _reign_lead(self) -> None:
        leader = self._highest_active()  # rule R-24
        duty = False
        if leader == self.seat_of("prince") and not self.active[self.seat_of("king")]:
            duty = self.prince_leads < 2  # rule R-25: his first two leads are trumps
            self.prince_leads += 1
        self.turn, self.lead_duty = leader, duty

    # -- tribute (rule R-23) ------------------------------------------------------------

    def _next_taker(self) -> None:
        if not self.takers:
            self._start_play()
            return
        taker = self.takers.pop(0)
        peasant = self.seat_of("peasant")
        self.stage = "tribute"
        self.turn = taker
        trumps = [c for c in self.hands[peasant] if c[1] == self.trump]
        if trumps:  # the Peasant's highest trump goes to the taker by itself
            card = max(trumps, key=STRENGTH.__getitem__)
            self._take(taker, peasant, card)
            # so the taker knows the Peasant holds no trump above it
            self.lacks[taker][peasant] = frozenset(
                c for c in DECK if c[1] == self.trump and STRENGTH[c] > STRENGTH[card])
            return
        # no trump: the taker is shown the Peasant's hand (the one look of rule C-5)
        shown = self._sorted(self.hands[peasant])
        self._log(None, "show:" + ",".join(shown), hidden="", seen_by=(taker,))
        for c in shown:
            self.known[taker][c] = f"hand:{peasant}"
        self.taken: str | None = None

    def _take(self, taker: int, peasant: int, card: str) -> None:
        self.hands[peasant].remove(card)
        self.hands[taker].append(card)
        self._moved_unseen(card, f"hand:{peasant}", f"hand:{taker}", (taker, peasant))
        # rule R-23: the taker sees the card he got, nobody else does (the Peasant
        # knows it from his own hand, which is why he still "knows" where it went)
        self._log(taker, "take:" + card, hidden="take:??", seen_by=(taker,))
        self.taken = card

    def _do_take(self, seat: int, act: Action) -> None:
        self._take(seat, self.seat_of("peasant"), cast(str, act.card))

    def _do_keep(self, seat: int, act: Action) -> None:
        self._log(seat, "keep")
        self._next_taker()

    def _do_give(self, taker: int, act: Action) -> None:
        card = cast(str, act.card)
        peasant = self.seat_of("peasant")
        self.hands[taker].remove(card)
        self.hands[peasant].append(card)
        self._moved_unseen(card, f"hand:{taker}", f"hand:{peasant}", (taker, peasant))
        self._log(taker, f"give:{card}>{peasant}", hidden=f"give:??>{peasant}",
                  seen_by=(taker, peasant))
        self._next_taker()

    # -- phases before play -------------------------------------------------------------

    def _legal_tribute(self, seat: int) -> list[str]:
        peasant = self.seat_of("peasant")
        if self.taken is None:  # rule R-23: take any one card, or decline
            return ["take:" + c for c in self._sorted(self.hands[peasant])] + ["keep"]
        return [f"give:{c}>{peasant}" for c in self._sorted(self.hands[seat]) if c != self.taken]

    def _legal_swap(self, seat: int) -> list[str]:
        # rule R-26: the turned card for any card of his own, or decline
        return ["swap:" + c for c in self._sorted(self.hands[seat])] + ["keep"]

    def _do_swap(self, seat: int, act: Action) -> None:
        if act.kind == "swap":  # rule R-26: the trump suit stays
            card, turned = cast(str, act.card), cast(str, self.turned)
            hand = self.hands[seat]
            hand.remove(card)
            self.stock[self.stock.index(turned)] = card
            hand.append(turned)
            self._moved_unseen(card, f"hand:{seat}", "stock", (seat,))
            self._see_all(turned, f"hand:{seat}")
            self._log(seat, act.text, hidden="swap:??", seen_by=(seat,))
        else:
            self._log(seat, "keep")
        self._start_play()

    def _why_illegal(self, seat: int, action: str) -> str | None:
        if self.stage == "tribute":
            if self.taken is None:
                return "take one card of the Peasant's hand, or keep (rule R-23)"
            if action == f"give:{self.taken}>{self.seat_of('peasant')}":
                return "you may not give back the card just taken (rule R-23)"
            return "give the Peasant one card of your hand (rule R-23)"
        if self.stage == "swap":
            return "swap one card of your hand for the turned trump, or keep (rule R-26)"
        return super()._why_illegal(seat, action)

    def _view_extra(self, v: dict) -> None:
        super()._view_extra(v)
        v["prince_leads"] = self.prince_leads  # rule R-25: leads since the King left
