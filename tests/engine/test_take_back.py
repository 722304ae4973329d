"""``match.take_back_refusal()``: may the last action be taken back (README "Agreed
additions")?  A take-back hides only what every seat saw anyway (rule C-5)."""

from __future__ import annotations

import random

import pytest

from engine import VARIANTS, find_variant
from engine.cards import cards_in
from tests.engine.test_thousand import STRONG, STRONG_TALON, act, new

SHOWED = "that action showed cards to another seat; they cannot be unseen"
ENDED = "an action that ended a deal cannot be taken back"


def reach(variant: str, wanted, *, seats: int | None = None, options: dict | None = None):
    """A seeded random match in which the next legal action ``wanted(match, action)``
    picks has just been applied (the first such action of the first seed that has one)."""
    v = find_variant(variant)
    for seed in range(200):
        m = v.new_match(seats or v.seat_counts[0], seed=seed, options=options)
        rng = random.Random(seed)
        while not m.is_over() and len(m.actions) < 400:
            seat = m.to_act()[0]
            legal = m.legal_actions(seat)
            chosen = [a for a in legal if wanted(m, a)]
            if chosen:
                m.apply(seat, chosen[0])
                return m
            m.apply(seat, rng.choice(legal))
    raise AssertionError(f"{variant}: no such action in 200 seeds")


def test_nothing_to_take_back_before_the_first_action_C6():
    m = find_variant("king-classic").new_match(4, seed=1)
    assert m.take_back_refusal() == "there is no action to take back"


def test_a_card_played_face_up_may_be_taken_back_C5():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass")
    assert m.take_back_refusal() is None  # a call shows nothing
    act(m, "pass", "give:JH>2", "give:TH>0", "contract:120", "play:AS")
    assert m.take_back_refusal() is None  # everybody saw the ace; it goes back to the hand
    act(m, "play:9S", "play:9C")  # the trick is complete: still nothing new for anyone
    assert m.view(None)["last_trick"]["winner"] == 1 and m.take_back_refusal() is None


def test_the_talon_turned_up_and_a_card_given_face_down_T14_C5():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass")  # the last pass ends the bidding: the talon is shown
    assert m.take_back_refusal() == SHOWED
    act(m, "give:JH>2")  # a card of the shown talon: seat 2 saw it already
    assert m.take_back_refusal() is None
    act(m, "give:AS>0")  # from the hand, face down: seat 0 sees a card new to him
    assert m.take_back_refusal() == SHOWED


def test_an_action_that_ends_a_deal_C5():
    def ends_the_deal(m, action: str) -> bool:
        twin = m.copy()
        twin.apply(m.to_act()[0], action)
        return len(twin.history()) > len(m.history())

    m = reach("king-classic", ends_the_deal)
    assert len(m.history()) == 1 and m.take_back_refusal() == ENDED


@pytest.mark.parametrize("variant", ["thousand-1001", "thousand-1000", "thousand-1000-2p"])
def test_a_declared_marriage_shows_its_partner_T23(variant):
    m = reach(variant, lambda m, a: a.startswith("marriage:"))
    assert m.take_back_refusal() == "a marriage declared showed where its partner card is; it cannot be unseen"


@pytest.mark.parametrize("variant", ["thousand-ru", "tysiac-pl"])
def test_a_declared_marriage_shows_its_partner_M16(variant):
    m = reach(variant, lambda m, a: a.startswith("marriage:"))
    assert m.take_back_refusal().startswith("a marriage declared")


def test_a_blind_call_M5():
    m = reach("thousand-ru", lambda m, a: a.startswith("blind:"), options={"blind": True})
    assert m.take_back_refusal() == "a blind call cannot be taken back"


def test_a_redeal_demanded_M6():
    m = reach("thousand-ru", lambda m, a: a == "strike")
    assert m.take_back_refusal() == "a strike cannot be taken back"


def test_a_strike_of_the_krol_reign_R42():
    m = reach("krol-pl", lambda m, a: a == "strike")
    assert m.take_back_refusal() == "a strike cannot be taken back"


def test_the_tribute_shown_to_the_taker_R23():
    m = reach("korol-ru", lambda m, a: a.startswith("give:") and m.view(None)["phase"] == "tribute")
    assert m.take_back_refusal() is not None


@pytest.mark.parametrize("variant", VARIANTS)
def test_refusals_over_random_play_change_nothing_C5(variant):
    """Across random play: refused whenever a deal ended or a never-taken-back kind was
    played; allowed only when no seat's view holds a card it did not hold before the
    action (but the action's own card on the table); asking changes nothing."""
    v = find_variant(variant)
    for seed in range(2):
        m = v.new_match(v.seat_counts[-1], seed=seed)
        rng = random.Random(seed)
        while not m.is_over() and len(m.actions) < 150:
            seat = m.to_act()[0]
            before = m.copy()
            action = rng.choice(m.legal_actions(seat))
            m.apply(seat, action)
            views = [m.view(s) for s in range(m.seats)]
            why = m.take_back_refusal()
            assert [m.view(s) for s in range(m.seats)] == views and m.actions[-1] == (seat, action)
            if len(m.history()) != len(before.history()):
                assert why == ENDED
            elif action.partition(":")[0] in type(m).take_back_never:
                assert why == type(m).take_back_never[action.partition(":")[0]]
            elif why is None:
                for s in range(m.seats):
                    new_cards = cards_in(views[s]) - cards_in(before.view(s))
                    assert new_cards <= cards_in(action), (s, action, new_cards)
    over = find_variant("king-classic").new_match(4, seed=3)
    while not over.is_over():
        seat = over.to_act()[0]
        over.apply(seat, over.legal_actions(seat)[0])
    assert over.take_back_refusal() == "the match is over"
