"""A bot about to act right after a trick was completed waits a little longer, so the
people at the table see the held trick (issue 12: "with bots whole tricks flash by")."""

from __future__ import annotations

import pytest

from app.rooms.bots import trick_just_taken
from engine import find_variant


@pytest.mark.parametrize("variant,seats", [("king-classic", 4), ("thousand-1001", 3), ("korol-ru", 4)])
def test_trick_just_taken_only_after_the_last_card_of_a_trick_C4(variant, seats):
    match = find_variant(variant).new_match(seats=seats, seed=11)
    assert not trick_just_taken(match)
    seen = {"in_trick": 0, "taken": 0}
    for _ in range(400):
        if match.is_over():
            break
        seat = match.to_act()[0]
        action = match.legal_actions(seat)[0]
        trick_before = len(match.view(None)["trick"])
        match.apply(seat, action)
        taken = trick_just_taken(match)
        if not action.startswith(("play:", "marriage:")):
            assert not taken
        elif trick_before == 0 or match.view(None)["trick"]:
            # a card that led or followed without ending the trick
            assert not taken
            seen["in_trick"] += 1
        else:
            assert taken  # the trick was completed by this card
            seen["taken"] += 1
    assert seen["taken"] > 3 and seen["in_trick"] > 3
