"""The exact play of a deal's last tricks (engine/bots/fast/endgame.py): the line it
finds is legal on the engine and ends where the engine ends with the same scores,
and no seat to play could have done better for itself by another first card."""

from __future__ import annotations

import random

import pytest

from engine import find_variant
from engine.bots import SearchBot
from engine.bots.fast import from_match, greedy_policy, playout
from engine.bots.fast.endgame import cards_left, solve

from .test_search import _basic_until

FAMILIES = ("korol-ru", "krol-pl", "thousand-1001", "thousand-ru", "king-classic")


def _positions(vid: str, tricks_left: int, count: int):
    """``count`` matches of basic bots (one a seed), each stopped at a random moment of
    its first deal's play where the hands hold ``tricks_left`` tricks or fewer:
    ``(match, state)`` pairs (every hand read: a test may)."""
    v = find_variant(vid)
    seats = 4 if 4 in v.seat_counts and v.family != "thousand" else 3
    out = []
    for seed in range(1, count + 1):
        rng = random.Random(seed)

        def late(m, seat, rng=rng):
            return (m.phase == "play" and cards_left(from_match(m)) <= tricks_left * from_match(m).size
                    and rng.random() < 0.4)
        m, _ = _basic_until(vid, seed, late, seats=seats, limit=3000)
        out.append((m, from_match(m)))
    return out


@pytest.mark.parametrize("vid", FAMILIES)
def test_the_exact_line_is_legal_and_scored_as_the_engine_scores_C4_T25_K4_R7(vid):
    for m, state in _positions(vid, 3, 25):
        rows = len(m.scoresheet())
        before = (list(state.hands), list(state.trick), state.turn)
        end, line = solve(state)
        assert (state.hands, state.trick, state.turn) == before  # the state is not changed
        assert end.done and line
        for code in line:  # the engine checks every play (apply raises on an illegal one)
            m.apply(m.to_act()[0], state.action_text(code))
        assert len(m.scoresheet()) == rows + 1  # the deal ended where the line ended
        row = m.scoresheet()[rows]
        assert end.scores() == (row["written"] if "written" in row else row["scores"])


@pytest.mark.parametrize("vid", FAMILIES)
def test_no_first_card_does_better_for_the_seat_to_play_C4(vid):
    for _, state in _positions(vid, 2, 25):
        seat = state.turn
        end, line = solve(state)
        best = end.scores()[seat]
        for code in state.legal():
            twin = state.copy()
            twin.play(code)
            other = twin if twin.done else solve(twin)[0]
            assert other.scores()[seat] <= best
            if code == line[0]:
                assert other.scores() == end.scores()


@pytest.mark.parametrize("vid", ("korol-ru", "thousand-1001"))
def test_a_play_out_ends_exactly_and_the_search_uses_it_C4(vid):
    for m, state in _positions(vid, 2, 10):
        twin = state.copy()
        assert playout(twin, greedy_policy, random.Random(1), exact=2) == solve(state)[0].scores()
        seat = m.to_act()[0]
        for playouts in ("engine", "fast"):
            bot = SearchBot(3, iterations=12, ms=None, strict=True, endgame=2, playouts=playouts)
            action = bot.act(m, seat)
            assert action in m.legal_actions(seat)
