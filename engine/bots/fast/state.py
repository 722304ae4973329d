"""The compact play-out state shared by the families: cards as integers, hands as
bitmasks, one trick at a time (rule C-4).

A card's code is ``9 * suit + strength``: ``suit`` its place in ``SCDH`` (rule
C-2), ``strength`` the rank's strength within its suit in the variant's order
(the engine's own table, ``variant.strength(seats)``: rules T-1, K-1, R-1).  So
within a suit a higher code is a higher card, a suit's cards are the nine bits
``SUIT_MASK[suit]``, and the highest card of a suit in a hand is a bit length.

The families subclass :class:`PlayState` and fill in the lead, the follow and
what happens when a trick is complete (:mod:`.thousand`, :mod:`.king`,
:mod:`.korol`).
"""

from __future__ import annotations

from typing import Any

from ... import Match, find_variant

SUITS = "SCDH"
SUIT_MASK = tuple(0x1FF << (9 * s) for s in range(4))
NO_TRUMP = -1
#: An action that is not a card: a code above every card's (see ``action_text``).
MARRY = 64  # added to a K / Q (an ace, M-17) led as a marriage: ``marriage:KH``
QUIT = 128  # Тысяча: ``throw`` (T-15), ``refuse`` (T-18), ``writeoff`` (M-14)

_TABLES: dict[tuple[str, int], tuple[dict[str, int], tuple[str, ...]]] = {}


def card_codes(variant_id: str, seats: int) -> tuple[dict[str, int], tuple[str, ...]]:
    """``(code_of, name_of)`` for the variant's deck at that many seats: card text ->
    code, and code -> card text ("" where no card of the deck has that code)."""
    tables = _TABLES.get((variant_id, seats))
    if tables is None:
        strength = find_variant(variant_id).strength(seats)
        code_of = {c: 9 * SUITS.index(c[1]) + s for c, s in strength.items()}
        name_of = [""] * 36
        for c, k in code_of.items():
            name_of[k] = c
        tables = _TABLES[variant_id, seats] = (code_of, tuple(name_of))
    return tables


def _suit_bits(suit: int) -> list[list[int]]:
    return [[9 * suit + b for b in range(9) if m >> b & 1] for m in range(512)]


_B0, _B1, _B2, _B3 = (_suit_bits(s) for s in range(4))


def bits(mask: int) -> list[int]:
    """The codes of the cards in ``mask``, low to high (a new list)."""
    return _B0[mask & 511] + _B1[mask >> 9 & 511] + _B2[mask >> 18 & 511] + _B3[mask >> 27 & 511]


def mask_of(cards: Any, code_of: dict[str, int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << code_of[c]
    return m


class PlayState:
    """One deal in its trick play, every hand known (a determinized match).

    The public attributes are read-only for callers: ``seats``, ``hands`` (per
    seat a mask), ``turn`` (the seat to play), ``trick`` (``[(seat, code)]`` in
    play order), ``trump`` (a suit index or ``NO_TRUMP``), ``winners`` (the
    winner of each trick completed since the state was built), ``tricks``
    (tricks taken per seat in this deal, before the state was built included),
    ``done`` (the deal's play is over)."""

    __slots__ = ("variant_id", "seats", "code_of", "name_of", "hands", "won", "tricks",
                 "turn", "trick", "trump", "led", "best_seat", "best", "trumped",
                 "winners", "done", "nxt", "size")
    variant_id: str
    seats: int
    code_of: dict[str, int]
    name_of: tuple[str, ...]
    hands: list[int]  # per seat, a mask of codes
    won: list[int]  # per seat, the cards of the tricks taken (this deal)
    tricks: list[int]  # per seat, the tricks taken (this deal)
    turn: int
    trick: list[tuple[int, int]]
    trump: int
    led: int  # the led suit (-1 between tricks)
    best_seat: int  # who leads the trick so far, with ``best``
    best: int
    trumped: bool  # a trump lies on a trick led in another suit
    winners: list[int]
    done: bool
    nxt: dict[int, int]  # the next seat to play after each seat
    size: int  # cards in a full trick

    # -- building ---------------------------------------------------------------

    def _base(self, match: Match, view: dict, where: dict[str, list[str]]) -> None:
        self.variant_id = match.variant.id
        self.seats = n = match.seats
        self.code_of, self.name_of = code_of, _ = card_codes(self.variant_id, n)
        self.hands = [mask_of(where.get(f"hand:{s}", ()), code_of) for s in range(n)]
        self.won = [mask_of(where.get(f"won:{s}", ()), code_of) for s in range(n)]
        self.trump = NO_TRUMP if view["trump"] is None else SUITS.index(view["trump"])
        self.turn = match.to_act()[0]
        self.winners: list[int] = []
        self.done = False
        self.trick: list[tuple[int, int]] = []
        self.led = -1
        self.best_seat = -1
        self.best = -1
        self.trumped = False

    def _lay_trick(self, view: dict) -> None:
        """The view's trick laid again through :meth:`play` (the family's ``nxt`` and
        ``size`` are set), each card back in its player's hand first."""
        turn = self.turn
        for s, c in view["trick"]:
            code = self.code_of[c]
            self.hands[s] |= 1 << code
            self.turn = s
            self.play(code)
        self.turn = turn

    def copy(self) -> PlayState:
        """An independent copy: the changing lists copied, the tables shared."""
        t = object.__new__(type(self))
        t.variant_id, t.seats, t.code_of, t.name_of = self.variant_id, self.seats, self.code_of, self.name_of
        t.hands, t.won, t.tricks = self.hands.copy(), self.won.copy(), self.tricks.copy()
        t.trick, t.winners = self.trick.copy(), self.winners.copy()
        t.turn, t.trump, t.led, t.best_seat, t.best = self.turn, self.trump, self.led, self.best_seat, self.best
        t.trumped, t.done, t.nxt, t.size = self.trumped, self.done, self.nxt, self.size
        self._copy_into(t)
        return t

    def _copy_into(self, t: Any) -> None:
        """The family's part of :meth:`copy` (its own slots)."""
        raise NotImplementedError

    # -- the trick (rule C-4) -----------------------------------------------------

    def wants_tricks(self) -> bool:
        """Whether tricks are worth taking in this deal (False: Кинг's negative deals)."""
        return True

    def trick_winner(self) -> int | None:
        """The winner of the last completed trick (None before the first)."""
        return self.winners[-1] if self.winners else None

    def legal(self) -> list[int]:
        """The codes the seat to play may play now (``MARRY``/``QUIT`` codes included)."""
        raise NotImplementedError

    def play(self, code: int) -> None:
        """Play card ``code`` for the seat to play; no check (``legal()`` lists what is
        legal).  Тысяча's state takes its ``MARRY`` / ``QUIT`` codes too."""
        if code >= MARRY:  # not a plain card: the family's (Тысяча: a marriage, a quit)
            code = self._special(code)
            if code < 0:
                return
        seat = self.turn
        self.hands[seat] &= ~(1 << code)
        trick = self.trick
        if not trick:  # rule C-4: the best card so far (the led suit's, or a trump)
            self.led = code // 9
            self.best_seat, self.best = seat, code
            self.trumped = False
        else:
            best = self.best
            if code // 9 == best // 9:
                if code > best:
                    self.best_seat, self.best = seat, code
            elif code // 9 == self.trump:
                self.best_seat, self.best = seat, code
                self.trumped = True
        trick.append((seat, code))
        if len(trick) < self.size:
            self.turn = self.nxt[seat]
            return
        winner = self.best_seat
        m = 0
        for _, c in self.trick:
            m |= 1 << c
        self.won[winner] |= m
        self.tricks[winner] += 1
        self.winners.append(winner)
        self.trick = []
        self._after_trick(winner)

    def _after_trick(self, winner: int) -> None:
        raise NotImplementedError

    def _special(self, code: int) -> int:
        """Carry out a code above the cards' (``MARRY``, ``QUIT``): the card to play
        then, or -1 when no card is played."""
        raise ValueError(f"not a card code: {code}")

    def scores(self) -> list[int]:
        """Each seat's score for the deal, once ``done`` (see the family's class)."""
        raise NotImplementedError

    def extra_key(self) -> tuple:
        """What of the family's own fields does not follow from the hands, the trick,
        the trump and the tricks' winners and cards (:mod:`.endgame`'s memo key)."""
        return ()

    # -- text ----------------------------------------------------------------------

    def action_text(self, code: int) -> str:
        """The engine's action for a code: ``play:TH``, ``marriage:KH``, a quit."""
        if code >= QUIT:
            return self._quit_text()
        if code & MARRY:
            return "marriage:" + self.name_of[code & 63]
        return "play:" + self.name_of[code]

    def _quit_text(self) -> str:
        raise ValueError("no quit in this game")

    def code(self, action: str) -> int:
        """The code of an engine action (``play:TH``, ``marriage:KH``, the quit)."""
        kind, _, arg = action.partition(":")
        if kind == "play":
            return self.code_of[arg]
        if kind == "marriage":
            return self.code_of[arg] | MARRY
        if action == self._quit_text():
            return QUIT
        raise ValueError(f"not a play action: {action!r}")

    def __repr__(self) -> str:
        hands = " | ".join(" ".join(self.name_of[c] for c in bits(h)) for h in self.hands)
        return f"<{type(self).__name__} {self.variant_id} turn={self.turn} {hands}>"
