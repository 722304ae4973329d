"""Тысяча: the trick play and the scoring of a deal (rules T-7, T-20 … T-29).

A mixin of :class:`engine.variants.thousand.ThousandMatch`; the state it uses
is set up there in ``_start_deal``.
"""

from __future__ import annotations

from ..core import LogEntry
from ..tricks import is_trumped, winning_play
from .thousand_cards import MARRIAGE_VALUE, STRENGTH, SUIT_CARDS, card_points

PUBLIC: frozenset = frozenset()  # a log entry everyone sees
NEAR_850 = 850  # rules T-13, T-27: "the 850 stays 850 whatever the goal"


class PlayMixin:
    # -- play (rules T-20 … T-23) ------------------------------------------------

    def _start_play(self) -> None:
        self.stage = "play"
        self.turn = self.declarer  # rule T-20: the declarer leads first
        self.first_lead = True

    def _may_declare(self, seat: int) -> bool:
        # rule T-23: 1001 on any lead; 1000 and 2p only after taking a trick
        return self.kind == "1001" or self.tricks_won[seat] > 0

    def _legal_play(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        codes = self.play_codes
        if self.trick:
            return [codes[c] for c in self._playable(hand)]
        acts = [codes[c] for c in hand]
        if self._may_declare(seat):
            marry = self.marriage_codes
            for suit in "SCDH":
                k, q = "K" + suit, "Q" + suit
                if k in hand and q in hand:
                    acts.append(marry[k])
                    acts.append(marry[q])
        if self.first_lead:  # rules T-15, T-12, T-18: until the first card is led
            acts.append(self._quit_action())
        return acts

    def _playable(self, hand: list[str]) -> list[str]:
        trick, trump = self.trick, self.trump
        led = trick[0][1][1]
        follow = [c for c in hand if c[1] == led]
        if follow:  # rule T-21: follow suit
            if self.kind != "1001" and not is_trumped(trick, trump):  # rule T-22: beat it
                best = max(STRENGTH[c] for _, c in trick if c[1] == led)
                higher = [c for c in follow if STRENGTH[c] > best]
                if higher:
                    return higher
            return follow
        if trump is not None:  # rule T-21: else a trump; no duty to overtrump
            trumps = [c for c in hand if c[1] == trump]
            if trumps:
                return trumps
        return list(hand)

    def _note_follow(self, seat: int, card: str) -> None:
        """What a follower's card tells everyone about his hand (for determinize)."""
        trick, trump = self.trick, self.trump
        led = trick[0][1][1]
        bans = self.bans[seat]
        if card[1] != led:  # void in the led suit, and in trumps if he did not trump
            bans |= SUIT_CARDS[led]
            if trump is not None and card[1] != trump:
                bans |= SUIT_CARDS[trump]
        elif self.kind != "1001" and not is_trumped(trick, trump):
            best = max(STRENGTH[c] for _, c in trick if c[1] == led)
            if STRENGTH[card] < best:  # he could not beat: no higher card of the suit
                bans.update(c for c in SUIT_CARDS[led] if STRENGTH[c] > best)

    def _play(self, seat: int, card: str, action: str, marriage: bool) -> None:
        self.hands[seat].remove(card)
        trick = self.trick
        if trick:
            if card[1] != trick[0][1][1] or self.kind != "1001":
                self._note_follow(seat, card)
        else:
            self.first_lead = False
            if marriage:  # rule T-23: the suit is trump at once, the led card included
                self.trump = card[1]
                self.marriages.append((seat, card[1], card))
        trick.append((seat, card))
        self.played_by[card] = seat
        self.log.append(LogEntry(seat, action, None, PUBLIC))  # self._log, without the call
        if len(trick) < self.trick_size:
            self.turn = self.next_seat[seat]
            return
        winner = winning_play(trick, self.trump, STRENGTH)[0]  # rule C-4
        played = [[s, c] for s, c in trick]
        self.won[winner] += [c for _, c in trick]
        self.tricks_won[winner] += 1
        self.last_trick = {"cards": played, "winner": winner}
        self.trick = []
        self.turn = winner  # rule T-20
        if not self.hands[winner]:
            self._score_play()

    def _why_not_this_card(self, seat: int, card: str) -> str | None:
        if not self.trick:
            return None
        led = self.trick[0][1][1]
        hand = self.hands[seat]
        if card[1] != led and any(c[1] == led for c in hand):
            return "you must follow the led suit (rule T-21)"
        if card[1] == led:
            return "you must beat the highest card of the led suit (rule T-22)"
        return "you cannot follow suit, so you must play a trump (rule T-21)"

    def _why_no_marriage(self, seat: int, card: str) -> str:
        if card[0] not in "KQ":
            return "a marriage is declared by leading its K or Q (rule T-23)"
        if self.trick:
            return "a marriage is declared only when leading (rule T-23)"
        if card[1] not in [s for s in "SCDH" if "K" + s in self.hands[seat] and "Q" + s in self.hands[seat]]:
            return "you do not hold both the K and the Q of that suit (rule T-23)"
        return "in this game a marriage may be declared only after taking a trick (rule T-23)"

    # -- scoring (rules T-7, T-24 … T-29) ---------------------------------------

    def _round(self, points: int) -> int:
        """Rule T-24: to 5 in 1001; to 10 in 1000 and 2p, a 5 up (option round5_up)."""
        if self.kind == "1001":
            return 5 * ((points + 2) // 5)
        rest = points % 10
        up = rest > 5 or (rest == 5 and self.round5_up)
        return points - rest + (10 if up else 0)

    def _score_play(self) -> None:
        n, declarer = self.seats, self.declarer
        raw, rounded, scores = [0] * n, [0] * n, [0] * n
        married = [0] * n
        for s, suit, _ in self.marriages:
            married[s] += MARRIAGE_VALUE[suit]
        for s in self.calling:
            raw[s] = card_points(self.won[s])
            if s == declarer:
                raw[s] += card_points(self.discards)  # rule T-19: the discards are his
            rounded[s] = self._round(raw[s])
            total = rounded[s] + married[s]
            if s == declarer:  # rule T-25
                scores[s] = self.contract if total >= self.contract else -self.contract
            else:  # rule T-26
                scores[s] = total
        self._close_deal(scores, raw, rounded)

    def _score_throw(self) -> None:
        scores = [0] * self.seats
        if self.forced:  # rule T-12: the others score 50 each, he scores 0
            for s in self._opponents():
                scores[s] = 50
        else:  # rule T-15: minus the contract, else minus the winning bid
            scores[self.declarer] = -(self.contract if self.contract is not None else self.bid)
        self._close_deal(scores, thrown=True)

    def _score_refusal(self) -> None:
        scores = [0] * self.seats
        scores[self.declarer] = -self.contract  # rule T-18
        for s in self._opponents():
            scores[s] = 60
        self._close_deal(scores, refused=True)

    def _close_deal(self, scores: list[int], raw: list[int] | None = None,
                    rounded: list[int] | None = None, *, thrown: bool = False,
                    refused: bool = False) -> None:
        n = self.seats
        raw = raw or [0] * n
        rounded = rounded or [0] * n
        fined = []
        if self.kind != "1001":  # rule T-27: zero at 850 is fined 100
            for s in self.calling:
                if self.before[s] >= NEAR_850 and scores[s] == 0:
                    scores[s] = -100
                    fined.append(s)
        out = self.sitting_out
        if out is not None:  # rule T-7: the sitting-out dealer scores the talon
            talon = self._dealt["talon"]
            raw[out] = card_points(talon)
            rounded[out] = self._round(raw[out])
            scores[out] = 100 if all(c[0] == "9" for c in talon) else rounded[out]
        totals = [t + d for t, d in zip(self.before, scores, strict=True)]
        row = {
            "declarer": self.declarer, "bid": self.bid, "contract": self.contract,
            "forced": self.forced, "points_raw": raw, "points": rounded,
            "marriages": [[s, suit] for s, suit, _ in self.marriages],
            "scores": scores, "totals": totals, "thrown": thrown, "refused": refused,
            "fined": fined, "sitting_out": out,
        }
        if max(totals) >= self.goal:  # rule T-29
            top = max(totals)
            tied = [s for s in range(n) if totals[s] == top]
            winners = [self.declarer] if self.declarer in tied else tied
            self._finish_deal(row, over=True,
                              result={"totals": totals, "winners": winners, "goal": self.goal})
        else:
            self._finish_deal(row, next_dealer=(self.dealer + 1) % n)  # rule T-5
