"""The search bots of issue 36: one sample per round shared by every candidate,
samples weighted by the others' calls, play-outs valued for the match, the
expert level."""

from __future__ import annotations

import random

import pytest

from engine import find_variant
from engine.bots import ExpertBot, SearchBot, make_bot
from engine.bots.fast import from_match, greedy_policy
from engine.bots.heuristic_thousand import estimate
from engine.bots.inference import Reader, calls
from engine.bots.search import EXPERT_TIME
from engine.bots.value import (
    deal_points,
    fast_deal_points,
    fast_match_value,
    match_value,
    position,
    win_chance,
)


def _basic_until(variant_id: str, seed: int, stop, seats: int = 3, limit: int = 400):
    """Basic bots play from ``seed`` until ``stop(match, seat)``; the match and the seat."""
    match = find_variant(variant_id).new_match(seats, seed=seed)
    bots = [make_bot("basic", s, strict=True) for s in range(seats)]
    for _ in range(limit):
        seat = match.to_act()[0]
        if stop(match, seat):
            return match, seat
        match.apply(seat, bots[seat].act(match, seat))
    raise AssertionError("the position was not reached")


def _raised_to_120(match, seat) -> bool:
    v = match.view(seat)
    return v["phase"] == "bidding" and any(w == "bid" and a >= 120 for _, w, a in calls(v))


# -- one sample per round -----------------------------------------------------------


def test_every_candidate_is_judged_on_the_same_samples_drawn_once_a_round():
    match, seat = _basic_until("king-classic", 3, lambda m, s: m.view(s)["phase"] == "play"
                               and len(m.legal_actions(s)) >= 3, seats=4)
    drawn = []

    def determinize(rng):
        drawn.append(1)
        return match.determinize(seat, rng)

    bot = SearchBot(5, iterations=60, ms=None, strict=True)
    action = bot.choose(match.view(seat), None, determinize)
    st = bot.last_stats
    assert action in match.legal_actions(seat)
    assert len(drawn) == st["samples"]  # one determinization a round, not one per candidate
    assert st["rollouts"] >= st["samples"] * st["alive"]
    assert st["rollouts"] <= 60  # card play: the budget as given


def test_search_without_a_clock_depends_on_the_seed_only():
    match, seat = _basic_until("thousand-1001", 2, _raised_to_120)
    picks = {SearchBot(9, iterations=30, ms=None, strict=True).act(match, seat) for _ in range(2)}
    assert len(picks) == 1


# -- inference ----------------------------------------------------------------------


@pytest.mark.parametrize("variant_id", ["thousand-1001", "thousand-ru"])
def test_a_raise_to_120_makes_strong_hands_likelier_T8_T9(variant_id):
    """'He bid 120': weighted by the others' calls, the samples give the bidder a
    stronger hand (by the basic bot's own estimate) than the plain samples do."""
    match, seat = _basic_until(variant_id, 1, _raised_to_120)
    view = match.view(seat)
    bidder = [s for s, w, _ in calls(view) if w == "bid"][-1]
    reader = Reader(view, "thousand")
    assert reader.active
    rng = random.Random(4)
    weights, strength = [], []
    for _ in range(120):
        sample = match.determinize(seat, rng)
        weights.append(reader.weight(sample))
        strength.append(estimate(sample.bot_view(bidder)["hand"], 10))
    plain = sum(strength) / len(strength)
    read = sum(w * x for w, x in zip(weights, strength, strict=True)) / sum(weights)
    assert read > plain + 20
    assert all(0 < w <= 1 for w in weights)


def test_nothing_is_read_where_no_call_was_made():
    match = find_variant("king-classic").new_match(4, seed=1)
    reader = Reader(match.view(match.to_act()[0]), "king")
    assert not reader.active and reader.weight(match) == 1.0


def test_the_weights_read_only_the_seats_own_view_C5():
    """Two matches the seat cannot tell apart give the same weights (the reader
    reads the view and the sample, never the real hands)."""
    match, seat = _basic_until("thousand-ru", 1, _raised_to_120)
    view = match.view(seat)
    twin = match.determinize(seat, random.Random(8))  # other hidden cards, same view
    assert twin.view(seat)["log"] == view["log"]
    a, b = Reader(view, "thousand"), Reader(twin.view(seat), "thousand")
    sample = match.determinize(seat, random.Random(2))
    assert a.weight(sample) == b.weight(sample)


# -- the match's value --------------------------------------------------------------


def test_win_chance_rewards_the_lead_and_sharpens_near_the_end_T29():
    early = win_chance([300.0, 200.0, 200.0], 0, 300.0)
    late = win_chance([300.0, 200.0, 200.0], 0, 60.0)
    assert 1 / 3 < early < late < 1
    assert win_chance([0.0, 0.0, 0.0], 1, 50.0) == pytest.approx(1 / 3)


def test_position_reads_goal_and_deals_from_the_view_T29_K14():
    thousand = find_variant("thousand-1001").new_match(3, seed=1, options={"goal": 500})
    totals, left = position(thousand.view(0), "thousand", 3)
    assert totals == [0.0, 0.0, 0.0] and left == pytest.approx(500 / 55)
    king = find_variant("king-classic").new_match(4, seed=1)
    assert position(king.view(0), "king", 4)[1] == king.view(0)["deals_total"]


def test_a_finished_match_is_worth_one_to_its_winner():
    match = find_variant("thousand-1001").new_match(3, seed=5, options={"goal": 100})
    bots = [make_bot("basic", s) for s in range(3)]
    while not match.is_over():
        s = match.to_act()[0]
        match.apply(s, bots[s].act(match, s))
    winners = match.result()["winners"]
    for s in range(3):
        want = 1 / len(winners) if s in winners else 0.0
        assert match_value(match, s, "thousand", 0, 0) == want


# -- levels -------------------------------------------------------------------------


def test_expert_thinks_longer_over_more_candidates():
    expert = make_bot("expert", 1, ms=200)
    strong = make_bot("strong", 1, ms=200)
    assert isinstance(expert, ExpertBot) and expert.level == "expert"
    assert expert.ms == EXPERT_TIME * strong.ms
    assert expert.max_candidates > strong.max_candidates
    fixed = make_bot("expert", 1, iterations=10, ms=None)
    assert fixed.iterations == 10 * EXPERT_TIME and fixed.ms is None


def test_korols_early_stop_waits_longer_and_the_expert_is_stricter_still():
    strong, expert = SearchBot(1), ExpertBot(1)
    for family in ("thousand", "king", "korol"):
        z, rounds = strong.early_stop(family)
        ez, erounds = expert.early_stop(family)
        assert ez > z and erounds > rounds
    assert strong.early_stop("korol")[1] > strong.early_stop("king")[1]
    assert SearchBot(1, z=1.0, min_rounds=2).early_stop("korol") == (1.0, 2)  # as given
    # a Король card decision: no candidate leaves before the family's rounds
    match, seat = _basic_until("korol-ru", 4, lambda m, s: m.view(s)["phase"] == "play"
                               and len(m.legal_actions(s)) >= 3, seats=4)
    bot = SearchBot(5, iterations=400, ms=None, strict=True)
    bot.choose(match.view(seat), None, lambda rng: match.determinize(seat, rng))
    st = bot.last_stats
    assert st["alive"] == st["candidates"] or st["samples"] >= strong.early_stop("korol")[1]


def test_a_search_needs_a_known_value():
    with pytest.raises(ValueError, match="unknown value"):
        SearchBot(1, iterations=5, ms=None, value="points")


# -- compact play-outs ----------------------------------------------------------------


def _play_positions(variant_id: str, seats: int, seed: int, options: dict, every: int):
    """Basic bots play a match; every ``every``-th step of the trick play is a position
    (the match, the seat to act)."""
    match = find_variant(variant_id).new_match(seats, seed=seed, options=options)
    bots = [make_bot("basic", s, strict=True) for s in range(seats)]
    step = 0
    while not match.is_over():
        seat = match.to_act()[0]
        if match.phase == "play":
            step += 1
            if step % every == 0:
                yield match, seat
        match.apply(seat, bots[seat].act(match, seat))


@pytest.mark.parametrize("variant_id,seats,options", [
    ("king-classic", 4, {}), ("korol-ru", 4, {"reigns": 1}), ("krol-pl", 4, {"reigns": 1}),
    ("thousand-1001", 3, {"goal": 300}), ("thousand-ru", 3, {"goal": 300}),
])
def test_a_compact_play_out_is_valued_as_the_engine_values_it_K4_R7_T24_M18(variant_id, seats, options):
    """From play positions of whole matches, a sample is played out on the compact
    state and the same cards are played on the engine: the deal's value is the
    engine's for every seat, and so is the match value (Кинг, Король / Król: exactly;
    Тысяча: where the engine's totals after the deal are the totals before it plus the
    row, i.e. no barrel, bolt or dump rule applied; a tie for a finished match's win is
    shared after R-4's tie-breaks)."""
    family = find_variant(variant_id).family
    checked = ends = 0
    for seed in range(1, 5):
        for match, seat in _play_positions(variant_id, seats, seed, options, every=5):
            sample = match.determinize(seat, random.Random(seed))
            before = sample.view(seat)
            rows0, roles0 = len(sample.scoresheet()), len(sample.role_table())
            state = from_match(sample)
            rng = random.Random(seed)
            while not state.done:
                legal = state.legal()
                code = legal[0] if len(legal) == 1 else greedy_policy(state, legal, rng)
                sample.apply(state.turn, state.action_text(code))
                state.play(code)
            if family == "thousand":  # the row as written (M-18 ... M-22), then M-23's rules
                row = sample.scoresheet()[rows0]
                assert state.scores() == row.get("written", row["scores"])
                after = sample.view(seat).get("totals")
                plain = [b + x for b, x in zip(before["totals"], state.scores(), strict=True)]
                if row["scores"] != state.scores() or after != plain or sample.is_over():
                    continue
            ends += sample.is_over()
            for s in range(seats):
                assert fast_deal_points(state, s, family, before) == pytest.approx(
                    deal_points(sample, s, family, rows0, roles0))
                assert fast_match_value(state, s, family, before) == pytest.approx(
                    match_value(sample, s, family, rows0, roles0))
            checked += 1
    print(variant_id, "positions checked", checked, "match ends", ends)
    assert checked >= 20
    if family != "thousand":
        assert ends >= 1  # the last deal of a match is among the positions


def test_fast_and_engine_play_outs_search_the_same_candidates():
    """Both kinds of play-out judge the same candidates of a card decision and value
    them as chances to win the match (0 to 1); an unknown kind is refused."""
    match, seat = _basic_until("korol-ru", 2, lambda m, s: m.phase == "play"
                               and len(m.legal_actions(s)) >= 3, seats=4)
    seen = []
    for playouts in ("fast", "engine"):
        bot = SearchBot(3, iterations=40, ms=None, strict=True, playouts=playouts)
        assert bot.choose(match.view(seat), None, lambda rng: match.determinize(seat, rng)) \
            in match.legal_actions(seat)
        st = bot.last_stats
        assert st["samples"] >= 1 and len(st["means"]) == st["candidates"] >= 3
        assert all(0.0 <= x <= 1.0 for x in st["means"].values())
        seen.append(set(st["means"]))
    assert seen[0] == seen[1]
    with pytest.raises(ValueError):
        SearchBot(1, iterations=10, ms=None, playouts="slow")


def test_time_waited_for_a_worker_is_taken_off_the_budget():
    """A decision that waited (the server's queue for a worker) thinks only what is left
    of its budget; one that waited the whole budget plays the rule of thumb at once."""
    assert SearchBot(1, ms=800, waited=0.3).ms == pytest.approx(500)
    assert ExpertBot(1, ms=800, waited=0.3).ms == pytest.approx(800 * EXPERT_TIME - 300)
    match, seat = _basic_until("thousand-1001", 2, _raised_to_120)
    late = SearchBot(1, ms=800, waited=1.0, strict=True)
    assert late.ms == 0
    rule = make_bot("basic", 1).choose(match.view(seat), random.Random(1))
    assert late.choose(match.view(seat), random.Random(1), lambda rng: match.determinize(seat, rng)) == rule
    assert late.last_stats["samples"] == 0
