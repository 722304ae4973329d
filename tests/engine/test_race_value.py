"""Король / Król: the search's value of a round still open (engine/bots/value.py,
``race_points``) and the round's targets in the view it reads them from."""

import pytest

from engine import find_variant
from engine.bots.value import _round_titles, race_points

from .test_korol_common import random_match


def test_the_view_names_each_titles_target_R14_R27_R35():
    ru = find_variant("korol-ru").new_match(4, seed=3, options={"reigns": 1})
    assert ru.view(0)["targets"] == [10, 9, 8]  # rule R-14: the crowning
    pl = find_variant("krol-pl").new_match(4, seed=3)
    assert pl.view(0)["targets"] == [9, 9, 9]  # rule R-35
    reign = random_match("korol-ru", 5, reigns=1)
    assert reign.view(None)["targets"] == [9, 9, 9]  # rule R-27: the reign (the match is over in it)


def test_a_fresh_round_is_worth_the_mean_title_to_everyone_R4():
    for targets in ((10, 9, 8), (9, 9, 9)):
        assert race_points((0, 0, 0, 0), 0, targets) == pytest.approx((1.5,) * 4)  # (3 + 2 + 1 + 0) / 4


def test_two_left_race_for_the_soldier_R14():
    # seat A needs one trick, B eight: B becomes Soldier only by taking the next eight
    a, b = race_points((7, 0), 2, (10, 9, 8))
    assert a == pytest.approx(1 - 0.5 ** 8)
    assert b == pytest.approx(0.5 ** 8)
    assert race_points((8, 8), 2, (9, 9, 9)) == pytest.approx((0.5, 0.5))  # rule R-27


def test_a_seat_already_at_the_next_target_takes_it_at_once_R15():
    # the first of the two at 9 to take a trick is King; the other is Prince at once
    # (he is already at the Prince's 9); the last two race for the Soldier evenly (unless
    # one of them takes ten tricks before the first two take one: ~1e-5)
    assert race_points((9, 9, 0, 0), 0, (10, 9, 8)) == pytest.approx((2.5, 2.5, 0.5, 0.5), abs=1e-4)


def test_more_tricks_are_worth_more_and_more_so_near_the_end_R4_R14():
    early = race_points((3, 2, 2, 2), 0, (10, 9, 8))
    late = race_points((9, 8, 8, 8), 0, (10, 9, 8))
    assert early[0] > early[1] and late[0] > late[1]
    assert late[0] - late[1] > early[0] - early[1]
    assert sum(early) == pytest.approx(6.0) and sum(late) == pytest.approx(6.0)  # every title goes


def test_titles_taken_count_in_full_and_the_rest_race_R4_R27():
    v = {"new_titles": ["king", None, None, None], "tallies": [9, 4, 4, 0], "targets": [9, 9, 9]}
    got = _round_titles(v, 4)
    assert got[0] == 3.0
    assert got[1] == pytest.approx(got[2]) and got[1] > got[3]
    assert sum(got) == pytest.approx(6.0)
    with pytest.raises(ValueError):
        race_points((0, 0), 2, ())
