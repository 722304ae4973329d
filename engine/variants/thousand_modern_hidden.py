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
that **[reading of M-6]**.  After the talon the requests are not used (the
dealt hands can no longer be told apart from the gives); see the report.
"""

from __future__ import annotations

import random

from . import thousand_hidden

TRIES = 4000


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
