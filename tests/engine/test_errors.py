"""The caller's mistakes split by cause (engine/errors.py): every one an
``IllegalAction`` (a ``ValueError``), and each changes nothing (rule C-6)."""

from __future__ import annotations

import random

import pytest

from engine import (
    VARIANTS,
    AgainstTheRules,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    find_variant,
)
from engine.actions import KIND_FORMS, is_well_formed


def new(variant: str = "thousand-1001", seats: int = 3, seed: int = 1):
    return find_variant(variant).new_match(seats=seats, seed=seed, first_dealer=0)


def refused(m, seat, action, cause: type[IllegalAction]) -> str:
    """Apply, expect ``cause`` (and no other of the three), and check nothing changed."""
    before = (list(m.actions), m.view(None), m.to_act())
    with pytest.raises(cause) as info:
        m.apply(seat, action)
    assert isinstance(info.value, IllegalAction) and isinstance(info.value, ValueError)
    others = {NotYourTurn, MalformedAction, AgainstTheRules} - {cause}
    assert not isinstance(info.value, tuple(others))
    assert (list(m.actions), m.view(None), m.to_act()) == before
    return str(info.value)


def test_errors_are_illegal_actions_and_value_errors_C6():
    for cause in (NotYourTurn, MalformedAction, AgainstTheRules):
        assert issubclass(cause, IllegalAction) and issubclass(cause, ValueError)


@pytest.mark.parametrize("seat", [5, -1, True, "0", None, 1.0])
def test_no_such_seat_is_not_your_turn_C6(seat):
    m = new()
    assert "no seat" in refused(m, seat, "pass", NotYourTurn)


def test_wrong_seat_is_not_your_turn_even_with_garbage_C6():
    m = new()
    (to_act,) = m.to_act()
    other = (to_act + 1) % 3
    message = refused(m, other, m.legal_actions(to_act)[0], NotYourTurn)
    assert message == f"it is not seat {other}'s turn (to act: [{to_act}])"  # the wire's text
    refused(m, other, "fly:away", NotYourTurn)  # the turn is checked before the shape


def test_a_finished_match_has_nobody_to_act_C6():
    m = new("king-classic", seats=4, seed=3)
    rng = random.Random(3)
    while not m.is_over():
        seat = m.to_act()[0]
        m.apply(seat, rng.choice(m.legal_actions(seat)))
    assert refused(m, 0, "play:AH", NotYourTurn) == "the match is over"


@pytest.mark.parametrize("action", [None, 7, ["pass"], "", "bid:", ":100", "x" * 41, "give:QS>",
                                    "fly:AH", "trump:H", "spare:1", "bid:abc", "bid:-5",
                                    "play:ZZ", "play:9", "give:QS", "pass:now", "contract:top",
                                    "take:top"])
def test_malformed_actions_C6(action):
    m = new()  # thousand-1001: no trump:, spare: or take:; bid takes a number, play a card
    refused(m, m.to_act()[0], action, MalformedAction)


@pytest.mark.parametrize("action", ["bid:35", "bid:42", "bid:1000", "contract:120", "throw",
                                    "play:AS", "give:QS>2", "marriage:KH"])
def test_against_the_rules_C6(action):
    m = new()  # bidding: each of these is written right, but not allowed now
    refused(m, m.to_act()[0], action, AgainstTheRules)


def test_a_card_not_held_is_against_the_rules_C6():
    m = new("king-classic", seats=4, seed=5)
    while m.view(None)["phase"] != "play":
        seat = m.to_act()[0]
        m.apply(seat, m.legal_actions(seat)[0])
    seat = m.to_act()[0]
    held = set(m.view(seat)["hand"])
    other = next(c for c in find_variant("king-classic").deck(4) if c not in held)
    assert "not in your hand" in refused(m, seat, f"play:{other}", AgainstTheRules)


def test_every_kind_has_its_notation():
    for vid in VARIANTS:
        kinds = find_variant(vid).match_class._kinds
        assert kinds and kinds <= set(KIND_FORMS), (vid, kinds - set(KIND_FORMS))


@pytest.mark.parametrize("vid", VARIANTS)
def test_legal_actions_are_well_formed_and_others_against_the_rules_C6(vid):
    """Random play: every legal action is well formed; an action legal at some
    other moment of the match, offered when it is not legal, is against the rules."""
    variant = find_variant(vid)
    seats = variant.seat_counts[-1]
    m = variant.new_match(seats=seats, seed=11)
    rng = random.Random(11)
    seen: set[str] = set()
    for step in range(400):
        if m.is_over():
            break
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        assert all(is_well_formed(a, m._kinds) for a in legal), legal
        seen.update(legal)
        if step % 10 == 0:
            for action in sorted(seen - set(legal))[:5]:
                refused(m, seat, action, AgainstTheRules)
        m.apply(seat, rng.choice(legal))
