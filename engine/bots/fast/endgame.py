"""The last tricks of a deal played exactly on the compact state (every hand known).

Near a deal's end few cards are left and the rest of the play can be searched
whole: each seat, in turn, plays the card after which its own score for the deal
(``state.scores()``, the family's: Тысяча's row, Кинг's row, Король's tricks) is
highest when every seat after it does the same (max^n, the several-player form of
a double-dummy solve); among plays worth the same to it a seat keeps the first
in ``legal()`` (low to high).  A quit (Тысяча's ``QUIT``) is never chosen: the
play-out plays the deal.

Positions met again within a solve are solved once: the same hands, trick, seat to
play and trump, the same winners of the tricks so far with the same cards taken
(all a family's other fields follow from these) and what the family adds
(``extra_key``: Тысяча's marriages declared).

    from engine.bots.fast import from_match
    from engine.bots.fast.endgame import cards_left, solve

    state = from_match(sample)
    if cards_left(state) <= 12:
        end, line = solve(state)  # the deal's end by exact play, and the codes played
        end.scores()
"""

from __future__ import annotations

from .state import QUIT, PlayState


def cards_left(state: PlayState) -> int:
    """The cards still in the hands."""
    return sum(h.bit_count() for h in state.hands)


def due(cards: int, seats: int, exact: int) -> bool:
    """Whether the rest of a deal is played exactly: ``cards`` left in the hands of
    ``seats`` playing, ``exact`` the tricks an exact end may take (0: never)."""
    return exact > 0 and cards <= exact * seats


def solve(state: PlayState) -> tuple[PlayState, tuple[int, ...]]:
    """The state at the end of the deal after exact play from ``state`` (see the module
    doc), and the codes played to reach it; ``state`` itself is not changed.  The cost
    grows fast with the cards left: keep it to the last two tricks or so
    (``bench/endgame.py``)."""
    end, _, line = _solve(state, {})
    return end, line


def _key(state: PlayState) -> tuple:
    return (tuple(state.hands), tuple(state.trick), state.turn, state.trump, tuple(state.winners),
            tuple(state.won), state.extra_key())


Solved = tuple[PlayState, tuple[int, ...], tuple[int, ...]]  # the end, its scores, the line


def _solve(state: PlayState, memo: dict[tuple, Solved]) -> Solved:
    if state.done:
        return state, tuple(state.scores()), ()
    key = _key(state)
    got = memo.get(key)
    if got is not None:
        return got
    seat = state.turn
    best: Solved | None = None
    for code in state.legal():
        if code >= QUIT:
            continue
        twin = state.copy()
        twin.play(code)
        end, scores, line = _solve(twin, memo)
        if best is None or scores[seat] > best[1][seat]:
            best = end, scores, (code, *line)
    assert best is not None  # a seat to play has a card to play
    memo[key] = best
    return best
