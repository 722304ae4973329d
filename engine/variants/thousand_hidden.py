"""Тысяча: dealing anew every card a seat does not know (``Match.determinize``).

What a seat knows, and so what is kept:

* its own hand, every card played (and who played it), the hand sizes;
* the cards it gave away itself (rules T-14, T-17) and the discards if it is
  the 2p declarer (T-19) — they stay where it put them;
* the partner of every declared marriage stays with the declaring player while
  unplayed (leading KH as a marriage shows that he holds QH, rule T-23);
* a shown talon (T-14, T-17, T-19): each of its cards is somewhere the seat
  can narrow down (the declarer's hand, a face-down give, the talon, the 2p
  discards); one consistent placement is drawn among all possible;
* what play revealed: a void in the led suit, a void in trumps when a void
  player did not trump (T-21), no higher card of the led suit when a player
  could not beat it (T-22) — kept as cards each seat cannot hold.

Everything else (other hands, an unshown talon, face-down cards, the unseen 2p
pair) is pooled and dealt again.  Only public facts and the seat's own actions
are read, and every choice is made from canonically sorted lists, so two
matches with equal views give the same distribution.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from ..errors import EngineError
from ..hidden import assign_hidden

NON_TALON_WEIGHT = 7  # 1001: odds that a face-down give was not a talon card


def redeal_hidden(m: Any, seat: int, rng: random.Random) -> None:
    holders = _hidden_places(m, seat)
    where = {c: key for key, cards in holders.items() for c in cards}
    bans = {f"hand:{s}": m.bans[s] for s in range(m.seats)}
    sizes = {key: len(cards) for key, cards in holders.items()}
    fixed = _known_places(m, seat, where)
    choices = _talon_placements(m, seat, where)
    for _ in range(max(1, len(choices))):
        pins = dict(fixed)
        if choices:
            pins.update(_pick(choices, rng))
        placed = _fill(where, pins, sizes, bans, rng)
        if placed is not None:
            for key, cards in holders.items():
                cards[:] = placed[key]
            return
    raise EngineError("determinize: no placement fits what the seat knows")


def _hidden_places(m, seat: int) -> dict[str, list[str]]:
    """Places whose cards may be hidden from ``seat`` (the real lists)."""
    out = {f"hand:{s}": m.hands[s] for s in m.calling if s != seat}
    declarer = seat == m.declarer
    if m.talon and not (declarer and m.shown):
        out["talon"] = m.talon  # unshown; or (1000) shown but given out unseen
    if m.discards and not declarer:
        out["discard"] = m.discards
    if m.aside:
        out["aside"] = m.aside
    return out


def _known_places(m, seat: int, where: dict[str, str]) -> dict[str, str]:
    """Cards among the hidden places whose place ``seat`` knows exactly."""
    pins = {}
    if seat == m.declarer:
        for receiver, card in m.gives:  # he gave them himself
            pins[card] = f"hand:{receiver}"
    for s, suit, led in m.marriages:  # rule T-23: the partner was shown to be there
        pins[("Q" if led[0] == "K" else "K") + suit] = f"hand:{s}"
    return {c: key for c, key in pins.items() if c in where}


def _talon_placements(m, seat: int, where: dict[str, str]) -> list[tuple[int, dict]]:
    """Every placement of the shown talon consistent with what ``seat`` saw,
    as ``(weight, {card: place})``; [] when there is nothing to place."""
    if not m.shown or seat == m.declarer:
        return []
    return m._talon_placements(m, seat, where)


Placements = list[tuple[int, dict[str, str]]]


def placements_2p(m: Any, seat: int, where: dict[str, str]) -> Placements:
    """Rule T-19: each shown card is in the declarer's hand or discarded."""
    d = f"hand:{m.declarer}"
    cards = sorted(c for c in m.shown if c in where)
    options: Placements = []
    for spots in itertools.product([d, "discard"], repeat=len(cards)):
        if spots.count("discard") <= len(m.discards):
            options.append((1, dict(zip(cards, spots, strict=True))))
    return options


def _given_unseen(m: Any, seat: int) -> tuple[list[str], list[str]]:
    """The shown cards ``seat`` was not given, and the receivers of gives it did not see."""
    mine = {c for r, c in m.gives if r == seat}
    return sorted(c for c in m.shown if c not in mine), [f"hand:{r}" for r, _ in m.gives if r != seat]


def placements_1000(m: Any, seat: int, where: dict[str, str]) -> Placements:
    """Rule T-17: one talon card to each receiver, the last to the declarer."""
    cards, unseen = _given_unseen(m, seat)
    targets = unseen + ["talon"] * len(m.talon)
    if len(m.gives) == len(m.calling) - 1 and not m.talon:
        targets.append(f"hand:{m.declarer}")
    options: Placements = []
    for perm in sorted(set(itertools.permutations(targets))):
        placing = dict(zip(cards, perm, strict=True))
        if _agrees(m, placing):
            options.append((1, {c: k for c, k in placing.items() if c in where}))
    return options


def placements_1001(m: Any, seat: int, where: dict[str, str]) -> Placements:
    """Rule T-14: the talon went into the declarer's hand; each face-down give
    may have been one of its cards."""
    d = f"hand:{m.declarer}"
    cards, unseen = _given_unseen(m, seat)
    options: Placements = []
    for picks in itertools.product([None, *cards], repeat=len(unseen)):
        chosen = [c for c in picks if c is not None]
        if len(set(chosen)) != len(chosen):
            continue
        placing = {c: d for c in cards}
        for key, c in zip(unseen, picks, strict=True):
            if c is not None:
                placing[c] = key
        if _agrees(m, placing):
            weight = NON_TALON_WEIGHT ** (len(picks) - len(chosen))
            options.append((weight, {c: k for c, k in placing.items() if c in where}))
    return options


def _agrees(m, placing: dict[str, str]) -> bool:
    """A played card must have been played by the seat it was placed with."""
    for card, key in placing.items():
        by = m.played_by.get(card)
        if by is not None and key != f"hand:{by}":
            return False
    return True


def _pick(choices: list[tuple[int, dict]], rng) -> dict:
    """Draw one placement by weight and remove it (so a failed one is not retried)."""
    total = sum(w for w, _ in choices)
    x = rng.randrange(total)
    for i, (w, placing) in enumerate(choices):
        if x < w:
            del choices[i]
            return placing
        x -= w
    raise EngineError("_pick: the weights do not add up")


def _fill(where: dict[str, str], pins: dict[str, str], sizes: dict[str, int],
          bans: dict[str, set], rng: random.Random) -> dict[str, list[str]] | None:
    """Deal the cards that are not pinned into the places' free room, never a
    card into a hand that cannot hold it.  None when nothing fits."""
    placed: dict[str, list[str]] = {key: [] for key in sizes}
    for card, key in sorted(pins.items()):
        if card in bans.get(key, ()):
            return None
        placed[key].append(card)
    room = {key: sizes[key] - len(placed[key]) for key in sizes}
    if min(room.values(), default=0) < 0:
        return None
    pool = [c for c in where if c not in pins]
    slots = [(key, room[key], frozenset(bans.get(key, ()))) for key in sorted(room)]
    try:
        got = assign_hidden(pool, slots, rng)
    except ValueError:
        return None
    for key, cards in got.items():
        placed[key].extend(cards)
    return placed
