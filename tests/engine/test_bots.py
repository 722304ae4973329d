"""Bots: legal actions only, seeded, and blind to cards their seat cannot see."""

from __future__ import annotations

import random

import pytest

from engine import VARIANTS, find_variant
from engine.bots import LEVELS, HeuristicBot, RandomBot, SearchBot, levels
from engine.bots import make_bot as make_any_bot


def make_bot(level: str, seed: int, **budget):
    """A strict bot: a rule of thumb that crashes fails the test, not falls back quietly."""
    return make_any_bot(level, seed, strict=True, **budget)


def seats_of(variant_id: str) -> int:
    return max(find_variant(variant_id).seat_counts)


def play(match, bots, *, max_actions=100_000, deals=None):
    """Let the bots play; every chosen action must be legal (apply checks)."""
    for _ in range(max_actions):
        if match.is_over() or (deals is not None and len(match.scoresheet()) >= deals):
            return
        seat = match.to_act()[0]
        action = bots[seat].act(match, seat)
        assert action in match.legal_actions(seat), (match.variant.id, seat, action)
        match.apply(seat, action)


# -- the registry --------------------------------------------------------------


def test_levels_listed_for_the_server():
    assert [x["level"] for x in levels()] == ["random", "basic", "strong", "expert"]
    assert all(x["description"] for x in levels())
    assert set(LEVELS) == {"random", "basic", "strong", "expert"}


def test_make_bot_builds_each_level():
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("basic", 1), HeuristicBot)
    strong = make_bot("strong", 1, iterations=10, ms=None)
    assert isinstance(strong, SearchBot) and strong.iterations == 10
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("grandmaster", 1)


# -- legal actions in every variant ------------------------------------------------


@pytest.mark.parametrize("variant_id", VARIANTS)
@pytest.mark.parametrize("level", ["random", "basic"])
def test_cheap_bots_finish_whole_matches_legally(variant_id, level):
    for seed in range(3):
        match = find_variant(variant_id).new_match(seats_of(variant_id), seed=seed)
        bots = [make_bot(level, seed * 10 + s) for s in range(match.seats)]
        if level == "random" and find_variant(variant_id).family == "thousand":
            play(match, bots, max_actions=300)  # random bids rarely end a match
        else:
            play(match, bots)
            assert match.is_over(), f"{variant_id} seed {seed} did not end"


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_strong_bot_plays_a_deal_legally(variant_id):
    match = find_variant(variant_id).new_match(seats_of(variant_id), seed=11)
    bots = [make_bot("strong", s, iterations=6, ms=None) for s in range(match.seats)]
    searched = 0
    while not match.scoresheet():
        seat = match.to_act()[0]
        action = bots[seat].act(match, seat)
        searched += bool(bots[seat].last_stats.get("samples"))
        match.apply(seat, action)  # IllegalAction if the bot chose wrong
    assert len(match.scoresheet()) == 1  # the first deal is over, played by the bots alone
    assert searched > 0  # and the strong bot did search, not only fall back to the heuristic
    dealt = {s for s in range(match.seats) if match.history()[0]["hands"][s]}
    assert {s for s, _ in match.actions} >= dealt  # every seat dealt in made its calls


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_every_seat_count_is_handled(variant_id):
    for n in find_variant(variant_id).seat_counts:
        match = find_variant(variant_id).new_match(n, seed=3)
        play(match, [make_bot("basic", s) for s in range(n)], max_actions=400)
        assert len(match.scoresheet()) >= 1, f"{variant_id} with {n}: no deal finished"
        assert all(len(row["scores"]) == n for row in match.scoresheet())
        assert {s for s, _ in match.actions} == set(range(n)), "every seat acts"


# -- seeds ---------------------------------------------------------------------------


def test_random_bot_is_reproducible_with_a_seed():
    def run(seed):
        match = find_variant("king-classic").new_match(4, seed=5)
        bots = [RandomBot(seed + s) for s in range(4)]
        play(match, bots, deals=2)
        return list(match.actions)

    assert run(1) == run(1)
    assert run(1) != run(2)


def test_strong_bot_is_reproducible_with_a_seed():
    def first_choice(seed):
        match = find_variant("thousand-1001").new_match(3, seed=9, first_dealer=2)
        return SearchBot(seed, iterations=24, ms=None, strict=True).act(match, 0)

    assert first_choice(4) == first_choice(4)


# -- the strong bot cannot see hidden cards ------------------------------------------


def _same_view_two_deals(variant_id, seats, hands_a, hands_b, rest_a, rest_b, first_dealer,
                         actions=()):
    va = find_variant(variant_id)
    ma = va.new_match(seats, seed=1, first_dealer=first_dealer,
                      preset_deals=[{"hands": hands_a, "rest": rest_a}])
    mb = va.new_match(seats, seed=2, first_dealer=first_dealer,
                      preset_deals=[{"hands": hands_b, "rest": rest_b}])
    for seat, action in actions:
        ma.apply(seat, action)
        mb.apply(seat, action)
    return ma, mb


def _decide_both(ma, mb, seat, *, iterations=24):
    assert ma.view(seat) == mb.view(seat), "the test needs equal views"
    assert ma.actions != [] or ma.view(None) == mb.view(None)
    results = []
    for m in (ma, mb):
        bot = SearchBot(77, iterations=iterations, ms=None, strict=True)
        action = bot.act(m, seat)
        results.append((action, bot.last_stats["means"], bot.last_stats["samples"]))
    return results


def test_strong_bot_blind_to_hidden_cards_king():
    # Seat 0 holds the same cards; the other 24 cards lie differently.
    own = ["AS", "KD", "9D", "7D", "QC", "8C", "JH", "7H"]
    trick = ["7S", "8S", "9S"]  # what seats 1, 2, 3 play to the first trick
    others = ["TS", "JS", "QS", "KS", "AC", "KC", "JC", "TC", "9C", "7C", "AD", "QD", "JD",
              "TD", "8D", "AH", "KH", "QH", "TH", "9H", "8H"]
    hands_a = [own] + [[trick[i]] + others[7 * i:7 * i + 7] for i in range(3)]
    shuffled = list(others)
    random.Random(5).shuffle(shuffled)
    # keep every follower holding a spade for the first trick
    hands_b = [own] + [[trick[i]] + shuffled[7 * i:7 * i + 7] for i in range(3)]
    assert hands_a != hands_b
    ma, mb = _same_view_two_deals(
        "king-classic", 4, hands_a, hands_b, [], [], 3,
        actions=[(0, "play:AS"), (1, "play:7S"), (2, "play:8S"), (3, "play:9S")])
    (a1, means1, n1), (a2, means2, n2) = _decide_both(ma, mb, 0)
    assert a1 == a2 and means1 == means2 and n1 == n2


def test_strong_bot_blind_to_hidden_cards_thousand_bidding():
    own = ["AS", "TS", "KH", "QH", "9C", "JD", "AD"]
    rest_cards = ["KS", "QS", "JS", "9S", "AC", "TC", "KC", "QC", "JC", "TD", "KD", "QD", "9D",
                  "AH", "TH", "JH", "9H"]
    hands_a = [own, rest_cards[0:7], rest_cards[7:14]]
    talon_a = rest_cards[14:17]
    shuffled = list(rest_cards)
    random.Random(3).shuffle(shuffled)
    hands_b = [own, shuffled[0:7], shuffled[7:14]]
    talon_b = shuffled[14:17]
    ma, mb = _same_view_two_deals("thousand-1001", 3, hands_a, hands_b, talon_a, talon_b, 2)
    (a1, means1, _), (a2, means2, _) = _decide_both(ma, mb, 0)
    assert a1 == a2 and means1 == means2


def test_strong_bot_blind_to_hidden_cards_korol():
    # korol-ru crowning, dealer 3: his last card (QS) is turned and stays known.
    own = ["AS", "7S", "KH", "QH", "7D", "8D", "AC", "6C", "TC"]
    pool = [c for c in (r + s for s in "SCDH" for r in "6789TJQKA")
            if c not in own and c != "QS"]
    hands_a = [own, pool[0:9], pool[9:18], pool[18:26] + ["QS"]]
    shuffled = list(pool)
    random.Random(8).shuffle(shuffled)
    hands_b = [own, shuffled[0:9], shuffled[9:18], shuffled[18:26] + ["QS"]]
    ma, mb = _same_view_two_deals("korol-ru", 4, hands_a, hands_b, [], [], 3)
    assert ma.to_act() == [0] and sorted(ma.legal_actions(0)) == ["play:7S", "play:AS"]  # rule R-12
    (a1, means1, _), (a2, means2, _) = _decide_both(ma, mb, 0)
    assert a1 == a2 and means1 == means2


def test_act_passes_only_the_view_and_determinize():
    """The search reads the match through view(seat) and determinize(seat, rng) only."""
    calls = []
    match = find_variant("king-classic").new_match(4, seed=3, first_dealer=3)

    class Guard:
        def view(self, seat):
            calls.append(("view", seat))
            return match.view(seat)

        def determinize(self, seat, rng):
            calls.append(("determinize", seat))
            return match.determinize(seat, rng)

    SearchBot(1, iterations=8, ms=None, strict=True).act(Guard(), 0)
    assert {c[0] for c in calls} == {"view", "determinize"} and {c[1] for c in calls} == {0}


def test_strong_bot_ducks_under_a_trick_in_the_no_tricks_deal_K4():
    # deal 1 of king-classic is `tricks` (rule K-4, K-5): seat 3, last to a spade
    # trick led by 9S, should play 7S under it rather than win with AS.
    hands = [["9S", "AC", "KC", "QC", "JC", "TC", "9C", "8C"],
             ["TS", "7C", "AD", "KD", "QD", "JD", "TD", "9D"],
             ["JS", "8D", "7D", "AH", "KH", "QH", "JH", "TH"],
             ["AS", "7S", "KS", "QS", "8S", "9H", "8H", "7H"]]
    match = find_variant("king-classic").new_match(4, seed=1, first_dealer=3,
                                                   preset_deals=[{"hands": hands, "rest": []}])
    for seat, action in [(0, "play:9S"), (1, "play:TS"), (2, "play:JS")]:
        match.apply(seat, action)
    bot = SearchBot(3, iterations=60, ms=None, strict=True)
    assert bot.act(match, 3) in ("play:7S", "play:8S")
    assert HeuristicBot(3, strict=True).act(match, 3) == "play:8S"  # the highest card that ducks


def test_wall_clock_cap_ends_the_search_on_whole_rounds():
    """``ms`` caps a decision however many iterations are allowed: the search
    stops on the clock, counts whole rounds only (when not even one fits in a
    busy machine's 30 ms, the rule of thumb plays) and plays a legal action."""
    match = find_variant("thousand-1001").new_match(3, seed=5)
    bot = SearchBot(2, iterations=100_000, ms=30, strict=True)
    for _ in range(60):
        seat = match.to_act()[0]
        action = bot.act(match, seat)
        stats = bot.last_stats
        if stats and stats["stop"] == "deadline":
            assert stats["rollouts"] >= stats["samples"] * stats["alive"] and stats["seconds"] < 5
            assert action in match.legal_actions(seat)
            return
        match.apply(seat, action)
    raise AssertionError("no decision was searched long enough to meet the cap")


# -- the play-outs' light view ---------------------------------------------------------


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_bot_view_is_part_of_the_view_and_decides_alike(variant_id):
    """The search's play-outs read ``bot_view(seat)``: every key but ``rows`` holds
    what ``view(seat)`` holds (so nothing hidden), and the rule of thumb decides
    the same from either."""
    match = find_variant(variant_id).new_match(seats_of(variant_id), seed=4)
    bots = [HeuristicBot(s, strict=True) for s in range(match.seats)]
    for _ in range(300):
        if match.is_over():
            break
        seat = match.to_act()[0]
        full, light = match.view(seat), match.bot_view(seat)
        assert light["rows"] == len(full["scoresheet"])
        assert {k: v for k, v in light.items() if k != "rows"} == {k: full[k] for k in light
                                                                   if k != "rows"}
        assert HeuristicBot(9, strict=True).choose(light, random.Random(1)) == \
            HeuristicBot(9, strict=True).choose(full, random.Random(1))
        match.apply(seat, bots[seat].act(match, seat))
