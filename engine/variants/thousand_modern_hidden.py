"""Modern Тысяча: dealing anew every card a seat does not know (``determinize``).

Once the talon is taken the deal is shaped like ``thousand-1001`` (3, 4 seats:
the talon shown and taken, one face-down give to each opponent, M-10) or like
``thousand-1000-2p`` (the two pairs and the discards, M-11), so
:mod:`thousand_hidden` deals it (it keeps what play revealed, the shown talon,
the gives the seat made, declared marriages; the ace marriage of M-17 is kept
as bans on the other seats).

Before the talon is taken every hand is still as dealt, and the redeal
requests of M-6 are public: a seat that was asked holds a qualifying hand, a
seat that was passed over does not (the seats after the one being asked are
not known yet).  The hidden cards are dealt again until the hands agree with
that **[reading of M-6]**.  After the talon the same is done where the copy
can work the dealt hands out: for the declarer (he made the gives) and with
two seats; an opponent with three or four seats does not know the other
opponent's face-down give, and there the requests are not used.
"""

from __future__ import annotations

import random

from . import thousand_hidden

TRIES = 4000
TRIES_AFTER = 300


def redeal_hidden(m, seat: int, rng: random.Random) -> None:
    if not m.dealt:  # the opening step (M-5): the cards to come are all unknown
        pool = sorted(c for cards in m.stock for c in cards)
        rng.shuffle(pool)
        sizes = [len(cards) for cards in m.stock]
        m.stock = [pool[sum(sizes[:i]):sum(sizes[:i + 1])] for i in range(len(sizes))]
        return
    if m.stage in ("strike", "bidding", "take"):
        _redeal_as_dealt(m, seat, rng)
        return
    _redeal_after_talon(m, seat, rng)


def _dealt_hand(m, s: int) -> list[str] | None:
    """Seat ``s``'s hand as dealt, worked out in the copy; None where the copy
    cannot tell (a face-down give the seat did not see, 3 and 4 seats)."""
    played = [c for c, p in m.played_by.items() if p == s]
    if s != m.declarer:
        got = [c for r, c in m.gives if r == s]
        held = m.hands[s] + played
        return [c for c in held if c not in got]
    if m.seats != 2:
        return None
    return [c for c in m.hands[s] + played + m.discards if c not in m.shown]


def _redeal_after_talon(m, seat: int, rng: random.Random) -> None:
    """thousand_hidden's deal, drawn again until the dealt hands agree with the
    redeal requests where the copy can tell: every hand when ``seat`` is the
    declarer (he made the gives), and with two seats (M-6)."""
    yes, no = _known_requests(m)
    known = [s for s in sorted(yes | no) if s != seat]
    if not known or (seat != m.declarer and m.seats != 2):
        thousand_hidden.redeal_hidden(m, seat, rng)
        return
    places = [m.hands[s] for s in range(m.seats) if s != seat] + [m.talon, m.discards, m.aside]
    saved = [list(cards) for cards in places]
    for _ in range(TRIES_AFTER):
        thousand_hidden.redeal_hidden(m, seat, rng)
        dealt = {s: _dealt_hand(m, s) for s in known}
        if all(h is None or m._qualifies(h) == (s in yes) for s, h in dealt.items()):
            return
        for cards, old in zip(places, saved, strict=True):
            cards[:] = old
    thousand_hidden.redeal_hidden(m, seat, rng)


def _known_requests(m) -> tuple[set[int], set[int]]:
    """Seats known to qualify (asked) and known not to (passed over), M-6."""
    asked = set(m.asked)
    if m.requests_done:
        return asked, {s for s in m.calling if s not in asked}
    last = m.calling.index(m.asked[-1]) if m.asked else -1
    return asked, {s for s in m.calling[:last] if s not in asked}


def _redeal_as_dealt(m, seat: int, rng: random.Random) -> None:
    others = [s for s in m.calling if s != seat]
    places = [m.hands[s] for s in others] + [m.talon]
    pool = sorted(c for cards in places for c in cards)
    sizes = [len(cards) for cards in places]
    yes, no = _known_requests(m)
    check = [(i, s in yes) for i, s in enumerate(others) if s in yes or s in no]
    deal = None
    for _ in range(TRIES):
        rng.shuffle(pool)
        deal, i = [], 0
        for size in sizes:
            deal.append(pool[i:i + size])
            i += size
        if all(m._qualifies(deal[i]) == want for i, want in check):
            break
    for cards, new in zip(places, deal, strict=True):
        cards[:] = new
    # the copy's deal as dealt is its own (the sitter scores the talon as dealt, M-20)
    m._dealt = {"hands": [list(h) for h in m.hands], "talon": list(m.talon)}
