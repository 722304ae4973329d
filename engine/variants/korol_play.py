"""Король / Król: what both versions share (rules/korol.md, R-1 .. R-7).

:class:`KorolMatch` holds the state of a round (titles in force, the titles
taken so far, tallies, who is still active), plays the tricks, hands out the
titles, writes the records (scoresheet, role table, result) and builds the
views.  The two versions (:mod:`korol_ru`, :mod:`korol_pl`) add their deals
and the phases before play.

Locations of the cards (``_locations``): ``hand:S`` (a player's hand),
``spare:S`` (Król: the face-down hand dealt to a seat that has left),
``stock`` (Король: the undealt cards, the turned one first), ``aside`` (cards
set aside face down), ``won:S`` and ``trick``.

What each seat knows of the hidden cards is kept in ``known[seat]``: card ->
location, updated at every move the seat sees (its own cards, the turned
trump, a hand shown to it, a card given to it, a whole hand passed in public).
When a card leaves a place unseen by a seat, that seat forgets everything it
knew about that place.  ``lacks[seat]``: hand's seat -> cards ``seat`` knows that
hand does not hold (Король's tribute, R-23: the taker got the Peasant's highest
trump, so the Peasant holds none above it); a card that comes into that hand
where ``seat`` sees it leaves the set, one it does not see ends it.
``determinize`` keeps known cards where they are and deals the rest anew, off
the voids and the cards known to be lacking.
"""

from __future__ import annotations

import random
from typing import ClassVar, cast

from ..actions import Action
from ..cards import SUIT_ORDER, card_strengths, make_deck
from ..errors import EngineError
from ..hidden import assign_hidden
from ..match import Match, Stage
from ..places import places_of
from ..tricks import FollowRule, winning_play

RANKS = "6789TJQKA"
DECK = make_deck(RANKS)  # rule R-1: 36 cards, A high
STRENGTH = card_strengths(DECK, RANKS)
PLAY = {c: "play:" + c for c in DECK}
GIVE = [{c: f"give:{c}>{s}" for c in DECK} for s in range(4)]  # give:CARD>SEAT
DISCARD = {c: "discard:" + c for c in DECK}
SORT_KEY = {c: SUIT_ORDER[c[1]] * 10 - STRENGTH[c] for c in DECK}  # the view's order
SEATS = 4  # rule R-6
HAND = 9
TITLES = ("king", "prince", "soldier", "peasant")
RANK_OF = {t: i for i, t in enumerate(TITLES)}
POINTS = {"king": 3, "prince": 2, "soldier": 1, "peasant": 0}  # rule R-4


def standing_key(points: float, kings: int, last_title: str) -> tuple:
    """Rule R-4: a seat's place at the end, higher first: its points, then its King
    titles, then the higher title in the last round."""
    return (points, kings, -RANK_OF[last_title])

WHY_FOLLOW = "you must follow the led suit (rule R-2)"
WHY_NOT_HELD = "you do not hold that card"
FOLLOW = FollowRule(must_trump=False, why_follow=WHY_FOLLOW)  # rule R-2: no duty to trump


class KorolMatch(Match):
    """The shared part of a match of Король / Król."""

    strength = STRENGTH
    deck = DECK

    STAGES: ClassVar[dict[str, Stage]] = {"play": Stage("play", "_legal_play", {"play": "_do_play"})}
    _SHARED = Match._SHARED | {"order", "_title_seat"}
    _APPEND_ONLY = Match._APPEND_ONLY | {"role_rows", "leavers"}

    # -- rounds ---------------------------------------------------------------

    def _setup(self) -> None:
        self.reigns: int = self.options["reigns"]  # rule R-4
        self.round = 0
        self.titles: list[str | None] = [None] * SEATS  # in force this round (none in the crowning)
        self.role_rows: list[dict] = []
        self.standings = [0] * SEATS  # rule R-4
        self.king_count = [0] * SEATS
        self.stage = "play"
        self.turn = None
        self._clear_deal()
        self._start_round()

    def _start_round(self) -> None:
        self.order = self._round_order()  # the turn order of this round
        self._title_seat = {t: s for s, t in enumerate(self.titles) if t}
        self.new_titles: list[str | None] = [None] * SEATS
        self.active = [True] * SEATS
        self.n_active = SEATS
        self.leavers: list[int] = []
        self.tally = [0] * SEATS
        self.won_at: list[list[int]] = [[] for _ in range(SEATS)]  # round trick numbers
        self.round_tricks = 0
        self.deals_in_round = 0
        self._recount()
        self._round_reset()

    def _clear_deal(self) -> None:
        self.hands: list[list[str]] = [[] for _ in range(SEATS)]
        self.spares: dict[int, list[str]] = {}
        self.stock: list[str] = []
        self.aside: list[str] = []
        self.won: list[list[str]] = [[] for _ in range(SEATS)]
        self.trick: list[tuple[int, str]] = []
        self.trump: str | None = None
        self.turned: str | None = None
        self.deal_tricks = [0] * SEATS
        self.deal_trick_no = 0
        self.lead_duty = False
        self.voids: list[set[str]] = [set() for _ in range(SEATS)]
        self.known: list[dict[str, str]] = [{} for _ in range(SEATS)]
        self.lacks: list[dict[int, frozenset[str]]] = [{} for _ in range(SEATS)]

    def seat_of(self, title: str) -> int:
        """The seat holding ``title`` in this round (from the round before)."""
        return self._title_seat[title]

    def round_tricks_won(self, seat: int) -> list[int]:
        """The round's trick numbers (1, 2, ... over the deals of this round) of the
        tricks ``seat`` took in this round: the trick at which its tally reached each
        count (rule R-15).  Public, read-only (the compact play-out state reads it)."""
        return list(self.won_at[seat])

    def _active_in_order(self) -> list[int]:
        return [s for s in self.order if self.active[s]]

    def _next_active(self, seat: int) -> int:
        """The next active player after ``seat`` in this round's turn order (rule R-5)."""
        return self._succ[seat]  # type: ignore[return-value]  # never None while anyone plays

    def _highest_active(self) -> int:
        return self._top  # type: ignore[return-value]  # never None while anyone plays

    def _recount(self) -> None:
        """Cache who follows whom among the active players (the hot path asks often)."""
        order, active = self.order, self.active
        live = [s for s in order if active[s]]
        self._top = live[0] if live else None
        self._succ = {}
        for i, s in enumerate(order):
            self._succ[s] = next((order[(i + k) % SEATS] for k in range(1, SEATS + 1)
                                  if active[order[(i + k) % SEATS]]), None)

    # -- hooks of the versions --------------------------------------------------

    def _round_order(self) -> list[int]:
        if self.round == 0:
            return list(range(SEATS))  # clockwise (rule C-1)
        titles = self.titles
        return sorted(range(SEATS), key=lambda s: RANK_OF[cast(str, titles[s])])  # rules

    def _round_reset(self) -> None:
        """Version state that restarts with every round."""

    def _targets(self) -> tuple[int, int, int]:
        raise NotImplementedError

    def _next_lead(self, winner: int) -> None:
        """Set ``cur`` and ``lead_duty`` for the next trick."""
        raise NotImplementedError

    def _release(self, seat: int) -> None:
        """The cards of a player who has just left: set aside (R-46 may hand them on)."""
        self._to_aside(f"hand:{seat}", self.hands[seat])

    # -- dealing ------------------------------------------------------------------

    def _new_deal_state(self, hands: list[list[str]], rest: list[str]) -> None:
        """Fresh deal state; every seat knows its own hand."""
        self._clear_deal()
        self.hands = hands
        self.stock = rest
        for s in range(SEATS):
            self.known[s] = {c: f"hand:{s}" for c in hands[s]}

    def _turn_up(self, card: str, where: str) -> None:
        """A card turned face up for all; its suit is trump (rules R-11, R-41)."""
        self.turned = card
        self.trump = card[1]
        self._see_all(card, where)
        self._log(None, "show:" + card)

    # -- what each seat knows (for determinize) -----------------------------------

    def _see_all(self, card: str, where: str) -> None:
        for k in self.known:
            k[card] = where
        self._came(where, (card,), range(SEATS))

    def _moved_unseen(self, card: str, src: str, dst: str, seers: tuple[int, ...]) -> None:
        """One card moved face down from ``src`` to ``dst``; only ``seers`` know which."""
        for s, k in enumerate(self.known):
            if s in seers:
                k[card] = dst
            else:
                for c in [c for c, w in k.items() if w == src]:
                    del k[c]
        self._came(dst, (card,), seers)

    def _came(self, dst: str, cards, seers) -> None:
        """``cards`` came to ``dst``: what a hand lacks (``lacks``) loses them for the
        seats that saw them, and is no longer known to the others."""
        if not dst.startswith("hand:"):
            return
        holder = int(dst[5:])
        for s, lacks in enumerate(self.lacks):
            if holder in lacks:
                if s in seers:
                    lacks[holder] = lacks[holder].difference(cards)
                else:
                    del lacks[holder]

    def _moved_pile(self, cards: list[str], src: str, dst: str, seers: tuple[int, ...] = ()) -> None:
        """A whole pile moved in public; ``seers`` look at the cards."""
        self._came(dst, cards, seers)
        for s, k in enumerate(self.known):
            if s in seers:
                for c in cards:
                    k[c] = dst
            else:
                for c in cards:
                    if k.get(c) == src:
                        k[c] = dst

    def _to_aside(self, src: str, cards: list[str]) -> None:
        self._moved_pile(cards, src, "aside")
        self.aside += cards
        cards.clear()

    # -- play -------------------------------------------------------------------

    def _hand(self, seat: int) -> list[str]:
        return self.hands[seat]

    def _sorted(self, cards) -> list[str]:
        return sorted(cards, key=SORT_KEY.__getitem__)

    def _legal_play(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        trick = self.trick
        if not trick:
            if self.lead_duty:  # rules: lead a trump if you hold one
                trump = self.trump
                trumps = [PLAY[c] for c in hand if c[1] == trump]
                if trumps:
                    return trumps
            return [PLAY[c] for c in hand]
        return FOLLOW.playable_codes(hand, trick, self.trump, STRENGTH, PLAY)  # rule R-2

    def _do_play(self, seat: int, act: Action) -> None:
        card: str = act.card  # type: ignore[assignment]  # play:XX
        self.hands[seat].remove(card)
        for k in self.known:  # a played card is public
            k.pop(card, None)
        trick = self.trick
        if trick and card[1] != trick[0][1][1]:  # a discard shows a void (FOLLOW.reveals)
            self.voids[seat].update(FOLLOW.reveals(trick, card, self.trump, STRENGTH)[0])
        elif not trick and self.lead_duty and self.trump is not None and card[1] != self.trump:
            self.voids[seat].add(self.trump)  # rules: he holds no trump
        trick.append((seat, card))
        self.log.append(act.public[seat])
        if len(trick) < self.n_active:
            self.turn = self._succ[seat]  # _next_active, inlined (the hot path)
            return
        self._end_trick()

    def _why_illegal(self, seat: int, action: str) -> str | None:
        if self.stage == "play" and action.startswith("play:"):
            card = action[5:]
            if card not in self.hands[seat]:
                return WHY_NOT_HELD
            if self.trick:
                return WHY_FOLLOW
            return "you must lead a trump (rules R-12, R-25)"
        return None

    def _end_trick(self) -> None:
        trick = self.trick
        winner = winning_play(trick, self.trump, STRENGTH)[0]  # rules C-4, R-2
        self.won[winner] += [c for _, c in trick]
        self.last_trick = {"cards": [[s, c] for s, c in trick], "winner": winner}
        self.trick = []
        self.deal_tricks[winner] += 1
        self.tally[winner] += 1  # rules
        self.round_tricks += 1
        self.won_at[winner].append(self.round_tricks)
        self.deal_trick_no += 1
        if self.tally[winner] >= self._targets()[len(self.leavers)]:
            self._award_titles()
        if self.n_active <= 1:
            self._end_round()
            return
        for s in self.order:  # rule R-3: the deal ends when an active player runs out
            if self.active[s] and not self.hands[s]:
                self._end_deal()
                return
        self._next_lead(winner)

    # -- titles -------------------------------------------------------------------

    def _award_titles(self) -> None:
        """Rules R-14, R-15, R-27, R-35, R-45: titles in order, each at its target."""
        targets = self._targets()
        while self.n_active > 1:
            k = len(self.leavers)
            target = targets[k]
            ready = [s for s in self.order if self.active[s] and self.tally[s] >= target]
            if not ready:
                break
            # rule R-15: the one who reached the target at the earlier trick goes first
            seat = min(ready, key=lambda s: self.won_at[s][target - 1])
            self._leave(seat, TITLES[k])
        if self.n_active == 1:  # the one player left takes the lowest title
            last = self._highest_active()
            self.new_titles[last] = "peasant"
            self.active[last] = False
            self.n_active = 0
            self._recount()
            self._log(last, "title:peasant")

    def _leave(self, seat: int, title: str) -> None:
        self.new_titles[seat] = title
        self.active[seat] = False
        self.n_active -= 1
        self._recount()
        self.leavers.append(seat)
        self._log(seat, "title:" + title)
        self._release(seat)

    # -- end of a deal, a round, the match ------------------------------------------

    def _deal_row(self) -> dict:
        """Rule R-7: the tricks of this deal and the tallies of the round after it."""
        return {"round": self.round, "scores": list(self.deal_tricks),
                "totals": list(self.tally), "trump": self.trump}

    def _set_aside_all(self) -> None:
        """Rule R-3: the cards still held (and spare hands) are set aside."""
        for s in range(SEATS):
            if self.hands[s]:
                self._to_aside(f"hand:{s}", self.hands[s])
        for s, pile in self.spares.items():
            self._to_aside(f"spare:{s}", pile)
        self.spares = {}

    def _end_deal(self) -> None:
        self._set_aside_all()
        self._finish_deal(self._deal_row())

    def _end_round(self) -> None:
        self._set_aside_all()
        row = self._deal_row()
        titles = list(self.new_titles)
        self.role_rows.append({"round": self.round, "titles": titles, "tricks": list(self.tally)})
        for s, t in enumerate(titles):
            self.standings[s] += POINTS[cast(str, t)]  # rule R-4: every seat has a title now
            self.king_count[s] += t == "king"
        if self.round == self.reigns:  # rule R-4: the crowning plus N reigns
            self.turn = None
            self._finish_deal(row, over=True, result=self._final_result())
            return
        self.round += 1
        self.titles = titles
        self._start_round()
        self._finish_deal(row)

    def _final_result(self) -> dict:
        """Rule R-4: points; ties to more King titles, then the higher last title."""
        last = self.role_rows[-1]["titles"]
        keys = [standing_key(self.standings[s], self.king_count[s], last[s]) for s in range(SEATS)]
        best = max(keys)
        winners = [s for s in range(SEATS) if keys[s] == best]
        return {"totals": list(self.standings), "winners": winners,
                "places": places_of(keys, winners),  # every place by the same tie-breaks
                "kings": list(self.king_count),
                "titles": [list(r["titles"]) for r in self.role_rows]}

    def role_table(self) -> list[dict]:
        return [{"round": r["round"], "titles": list(r["titles"]), "tricks": list(r["tricks"])}
                for r in self.role_rows]

    # -- views ------------------------------------------------------------------------

    def _seen_log(self, seat: int | None) -> list:
        # A reveal meant for one seat only (R-23) is left out of the others' logs.
        return [[e.seat, t] for e in self.log if (t := e.as_seen_by(seat))]

    def _view_extra(self, v: dict) -> None:
        v["trick"] = [[s, c] for s, c in self.trick]
        v["trump"] = self.trump
        v["face_up"] = [self.turned] if self.turned else []
        v["round"] = self.round
        v["rounds"] = self.reigns + 1
        v["titles"] = list(self.titles)
        v["new_titles"] = list(self.new_titles)
        v["tallies"] = list(self.tally)
        v["targets"] = list(self._targets())  # the tricks King, Prince, Soldier need this round
        v["active"] = self._active_in_order()
        v["order"] = list(self.order)
        v["standings"] = list(self.standings)
        v["role_table"] = self.role_table()
        v["spares"] = [len(self.spares.get(s, ())) for s in range(SEATS)]
        v["aside"] = len(self.aside)
        v["stock"] = len(self.stock)

    # -- locations and determinization -----------------------------------------------

    def _hidden_piles(self) -> list[tuple[str, list[str]]]:
        piles = [(f"hand:{s}", self.hands[s]) for s in range(SEATS)]
        piles += [(f"spare:{s}", self.spares[s]) for s in sorted(self.spares)]
        piles += [("stock", self.stock), ("aside", self.aside)]
        return piles

    def _positions(self) -> dict:
        return {"trick": [[s, c] for s, c in self.trick], "taken": [list(w) for w in self.won],
                "trump": self.trump, "face_up": [self.turned] if self.turned else [],
                "stock": list(self.stock), "aside": list(self.aside),
                "spares": [list(self.spares.get(s, ())) for s in range(SEATS)]}

    def _locations(self) -> dict[str, list[str]]:
        out = {key: list(pile) for key, pile in self._hidden_piles()}
        for s in range(SEATS):
            out[f"won:{s}"] = list(self.won[s])
        out["trick"] = [c for _, c in self.trick]
        return out

    def _redeal_hidden(self, seat: int, rng: random.Random) -> None:
        """Deal anew every hidden card whose place ``seat`` does not know,
        keeping pile sizes, pile order of known cards and revealed voids."""
        known = self.known[seat]
        piles = [(k, p) for k, p in self._hidden_piles() if k != f"hand:{seat}"]
        pool: list[str] = []
        slots = []
        for key, pile in piles:
            free = [c for c in pile if known.get(c) != key]
            pool += free
            banned: frozenset[str] = frozenset()
            if key.startswith("hand:"):
                holder = int(key[5:])
                banned = frozenset(self.voids[holder]) | self.lacks[seat].get(holder, frozenset())
            slots.append((key, len(free), banned))
        dealt = assign_hidden(pool, slots, rng)
        for key, pile in piles:
            fill = iter(dealt[key])
            pile[:] = [c if known.get(c) == key else next(fill) for c in pile]
        # The copy's other seats keep only what is still true of their knowledge.
        where = {c: key for key, pile in self._hidden_piles() for c in pile}
        for s in range(SEATS):
            if s != seat:
                self.known[s] = {c: w for c, w in self.known[s].items() if where.get(c) == w}
                self.known[s].update((c, f"hand:{s}") for c in self.hands[s])
                self.lacks[s] = {h: c for h, c in self.lacks[s].items() if not c.intersection(self.hands[h])}
        self._after_redeal()

    def _after_redeal(self) -> None:
        """Version state that names hidden cards, made consistent in a copy."""

    def check_knowledge(self) -> None:
        """For tests: every card a seat believes it knows is really there."""
        where = {c: key for key, pile in self._hidden_piles() for c in pile}
        for s in range(SEATS):
            for c, w in self.known[s].items():
                if where.get(c) != w:
                    raise EngineError(f"seat {s} believes {c} is in {w}, it is in {where.get(c)}")
            for c in self.hands[s]:
                if self.known[s].get(c) != f"hand:{s}":
                    raise EngineError(f"seat {s} does not know its {c}")
                if c[1] in self.voids[s]:
                    raise EngineError(f"seat {s} holds {c} but counts as void")
            for holder, cards in self.lacks[s].items():
                if cards.intersection(self.hands[holder]):
                    raise EngineError(f"seat {s} believes seat {holder} lacks {sorted(cards)}")
