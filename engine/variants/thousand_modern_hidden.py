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
that **[reading of M-6]**.  After the talon the same holds for the hands as
dealt, rebuilt from what each seat holds and has played: the declarer's
without the shown talon and with his gives, an opponent's without the card he
was given.  A give the seat did not see may have been any card its receiver
holds or has played, so a deal is kept when some choice of the unseen gives
agrees with the requests.
"""

from __future__ import annotations

import itertools
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
    check = _request_checks(m, seat)
    for _ in range(TRIES_AFTER if check else 1):
        thousand_hidden.redeal_hidden(m, seat, rng)
        if not check or _agrees_dealt(m, seat, check):
            return


def _request_checks(m, seat: int) -> list[tuple[int, bool]]:
    """(seat, qualified) for every other seat whose request is known (M-6)."""
    yes, no = _known_requests(m)
    return [(s, s in yes) for s in m.calling if s != seat and (s in yes or s in no)]


def _agrees_dealt(m, seat: int, check: list[tuple[int, bool]]) -> bool:
    """Some choice of the gives ``seat`` did not see rebuilds dealt hands that
    qualify exactly as the requests said (M-6, M-10, M-11)."""
    held = {s: set(m.hands[s]) for s in m.calling}
    for card, by in m.played_by.items():
        held[by].add(card)
    d, shown = m.declarer, set(m.shown)
    if m.seats == 2:  # M-11: the declarer took a pair and discarded two
        held[d] = (held[d] | set(m.discards)) - shown
        return all(m._qualifies(sorted(held[s])) == want for s, want in check)
    known = {r: c for r, c in m.gives if seat in (d, r)}
    unseen = [r for r, _ in m.gives if r not in known]
    for picks in itertools.product(*(sorted(held[r]) for r in unseen)):
        given = {**known, **dict(zip(unseen, picks, strict=True))}
        dealt = {s: held[s] - {given.get(s)} for s in m.calling}
        dealt[d] = (held[d] | set(given.values())) - shown
        if all(m._qualifies(sorted(dealt[s])) == want for s, want in check):
            return True
    return False


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
