"""Король / Król in the search (issue 36): the match's value from the titles in
force (engine/bots/value.py, ``title_chances`` / ``korol_chance``) and the
reading of the others' plays (engine/bots/inference.py, ``plays_read``) with the
samples drawn by rejection (engine/bots/search.py, ``draw``)."""

from __future__ import annotations

import math
import random

import pytest

from engine import find_variant
from engine.bots.inference import PLAY_FLOOR, TRIES, Reader, played_as_basic, plays_read
from engine.bots.search import EXPERT_TIME, ExpertBot, SearchBot, draw
from engine.bots.value import TITLE_MOVES, TITLE_WEIGHT, korol_chance, race_outcomes, title_chances

from .test_search import _basic_until

KING, PRINCE, SOLDIER, PEASANT = range(4)


# -- the match's value -----------------------------------------------------------------


def test_the_moves_are_whole_permutations_of_the_titles_R4():
    for variant, moves in TITLE_MOVES.items():
        assert variant in ("korol-ru", "krol-pl")
        for move in moves:
            assert sorted(move) == [KING, PRINCE, SOLDIER, PEASANT]


def test_a_crowned_king_is_the_favourite_of_the_match_R4_R14():
    last = (KING, PRINCE, SOLDIER, PEASANT)
    for variant in TITLE_MOVES:
        got = title_chances(variant, (3, 2, 1, 0), (1, 0, 0, 0), last, 3)
        assert sum(got) == pytest.approx(1.0)
        assert got[0] > got[1] > got[2] >= got[3]
        assert got[0] > 0.5  # a King tends to stay King (R-24: he leads every trick)


def test_the_chances_do_not_depend_on_where_the_seats_sit_R4():
    a = title_chances("korol-ru", (5, 3, 3, 1), (1, 0, 1, 0), (SOLDIER, KING, PRINCE, PEASANT), 2)
    b = title_chances("korol-ru", (3, 1, 5, 3), (0, 0, 1, 1), (KING, PEASANT, SOLDIER, PRINCE), 2)
    assert b == pytest.approx((a[1], a[3], a[0], a[2]))


def test_a_finished_match_goes_by_points_then_kings_then_the_last_title_R4():
    # 5 points each for seats 0 and 1: seat 1 has two King titles, seat 0 one
    got = title_chances("korol-ru", (5, 5, 1, 1), (1, 2, 0, 0), (PRINCE, SOLDIER, KING, PEASANT), 0)
    assert got == (0.0, 1.0, 0.0, 0.0)
    # the same points and Kings: the higher title in the last round
    got = title_chances("korol-ru", (5, 5, 1, 1), (1, 1, 0, 0), (SOLDIER, PRINCE, KING, PEASANT), 0)
    assert got == (0.0, 1.0, 0.0, 0.0)


def test_an_open_round_weighs_each_way_it_may_fall_R4_R14():
    # the crowning just begun: everyone alike (a chance of 1/4, and the mean title's 1.5 points)
    v = find_variant("korol-ru").new_match(4, seed=2).view(0)
    assert [korol_chance(v, s) for s in range(4)] == pytest.approx([0.25 + 1.5 * TITLE_WEIGHT] * 4)
    # a seat one trick from the King's ten is far ahead of one with none
    v = {**v, "tallies": [9, 3, 3, 0]}
    assert korol_chance(v, 0) > 0.5 > korol_chance(v, 3)
    assert sum(korol_chance(v, s) for s in range(4)) == pytest.approx(1.0 + 6 * TITLE_WEIGHT)  # every title goes
    ways = race_outcomes((9, 3, 3, 0), 0, (10, 9, 8))
    assert sum(p for _, p in ways) == pytest.approx(1.0)
    assert all(sorted(titles) == [0, 1, 2, 3] for titles, _ in ways)


def test_a_closed_round_is_judged_from_its_titles_in_force_R4():
    m, _ = _basic_until("korol-ru", 4, lambda m, s: bool(m.role_table()), seats=4, limit=2000)
    v = m.view(0)
    row = m.role_table()[0]
    last = tuple(("king", "prince", "soldier", "peasant").index(t) for t in row["titles"])
    kings = tuple(int(t == "king") for t in row["titles"])
    want = title_chances("korol-ru", tuple(v["standings"]), kings, last, v["rounds"] - 1)
    points = [3 - t for t in last]  # rule R-4
    got = [korol_chance(v, s, round_closed=True) for s in range(4)]
    assert got == pytest.approx([w + TITLE_WEIGHT * p for w, p in zip(want, points, strict=True)])


def test_a_seat_without_a_chance_still_plays_for_its_title_R4():
    # the last round: seat 3 cannot catch seat 0 (9 points to 0), yet a higher title is worth more to it
    v = {"variant": "korol-ru", "standings": [9, 3, 3, 0], "rounds": 4, "targets": [9, 9, 9],
         "role_table": [{"titles": t} for t in (["king", "prince", "soldier", "peasant"],) * 3],
         "new_titles": [None] * 4}
    ahead = korol_chance({**v, "tallies": [0, 0, 0, 8]}, 3)
    behind = korol_chance({**v, "tallies": [0, 0, 0, 1]}, 3)
    assert ahead > behind > 0.0


# -- reading the plays ----------------------------------------------------------------


def _plays_seen(variant: str, seed: int, at_least: int = 3):
    """Basic bots play until the seat to act has ``at_least`` plays by others in the
    deal to read; the match and that seat."""
    def enough(m, seat) -> bool:
        v = m.view(seat)
        return v["phase"] == "play" and len(plays_read(v)) >= at_least
    return _basic_until(variant, seed, enough, seats=4, limit=2000)


def test_the_others_plays_are_read_as_the_basic_bot_plays_R2_R12():
    for variant, seed in (("korol-ru", 1), ("krol-pl", 2)):
        m, seat = _plays_seen(variant, seed)
        v = m.view(seat)
        for who, seen, card, later in plays_read(v):
            assert who != seat and who in v["active"] and seen["seat"] == who
            assert ["play:" + card] not in [a for _, a in seen["log"]]  # what it saw before its card
            assert seen["trick"] or card[1] != v["trump"]  # a lead of a trump is not read
            held = m.bot_view(who)["hand"]
            # the real hand, as it was then, plays as the basic bot played
            assert played_as_basic(seen, [*held, card, *later], card)
        reader = Reader(v, "korol")
        assert reader.active and reader.rejects
        assert reader.weight(m) == 1.0  # the real deal fits the basic bots' play exactly


def test_samples_that_contradict_a_play_weigh_less_and_are_drawn_less_R2():
    m, seat = _plays_seen("korol-ru", 6, at_least=6)
    v = m.view(seat)
    reader = Reader(v, "korol")
    rng = random.Random(3)
    plain = [reader.weight(m.determinize(seat, random.Random(rng.getrandbits(64)))) for _ in range(200)]
    assert min(plain) <= PLAY_FLOOR * (1 + 1e-9) and max(plain) == 1.0
    drawn = []
    for _ in range(200):
        sample, w = draw(lambda r: m.determinize(seat, r), rng, reader)
        assert w == 1.0
        drawn.append(reader.weight(sample))
    assert sum(drawn) > 3 * sum(plain)  # the samples drawn fit the plays far better


def test_a_steeper_floor_and_more_draws_read_harder_R2():
    """The expert's reading (ExpertBot: more draws, a steeper floor): a sample that
    contradicts k plays weighs the floor to the k, and more draws fit the plays better."""
    m, seat = _plays_seen("korol-ru", 6, at_least=6)
    v = m.view(seat)
    soft, steep = Reader(v, "korol"), Reader(v, "korol", 0.03)
    rng = random.Random(5)
    for _ in range(100):
        sample = m.determinize(seat, random.Random(rng.getrandbits(64)))
        k = round(math.log(soft.weight(sample)) / math.log(PLAY_FLOOR))
        assert steep.weight(sample) == pytest.approx(0.03 ** k)
    fits = {}
    for tries in (4, TRIES * EXPERT_TIME):
        rng = random.Random(7)
        fits[tries] = sum(steep.weight(draw(lambda r: m.determinize(seat, r), rng, steep, tries)[0])
                          for _ in range(100))
    assert fits[TRIES * EXPERT_TIME] > 2 * fits[4]
    assert (ExpertBot.tries, ExpertBot.play_floor) == (TRIES * EXPERT_TIME, 0.03)
    assert (SearchBot.tries, SearchBot.play_floor) == (TRIES, PLAY_FLOOR)


def test_nothing_is_read_of_the_seats_own_plays_or_in_other_families_R2_C5():
    m, seat = _plays_seen("korol-ru", 7)
    v = m.view(seat)
    assert all(who != seat for who, *_ in plays_read(v))
    king = find_variant("king-classic").new_match(4, seed=1)
    assert not Reader(king.view(king.to_act()[0]), "king").plays


def test_a_finished_match_is_worth_its_result_R4():
    from .test_korol_common import random_match
    for variant in TITLE_MOVES:
        for seed in range(6):
            m = random_match(variant, seed, reigns=1)
            winners = m.result()["winners"]
            last = m.role_table()[-1]["titles"]
            for s in range(4):
                won = 1.0 / len(winners) if s in winners else 0.0
                points = {"king": 3, "prince": 2, "soldier": 1, "peasant": 0}[last[s]]
                assert korol_chance(m.view(s), s, round_closed=True) == pytest.approx(won + TITLE_WEIGHT * points)
