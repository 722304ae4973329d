"""``Match.view_parts(seat)``: a view as the part every seat sees alike now and the
seat's own part (rule C-5: what each seat may see), for every variant."""

from __future__ import annotations

import copy
import random

import pytest

from engine import VARIANTS, find_variant

OWN_KEYS = {"seat", "hand", "log", "legal", "confirm"}


def play(variant_id: str, steps: int, seed: int):
    """A match of ``variant_id`` with its most seats, and each moment of ``steps`` random actions."""
    variant = find_variant(variant_id)
    m = variant.new_match(max(variant.seat_counts), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if m.is_over():
            return
        yield m
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        m.apply(seat, "pass" if "pass" in legal and rng.random() < 0.5 else rng.choice(legal))


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_view_parts_make_each_seats_view_and_share_only_the_public_part_C5(variant_id):
    moments = 0
    for m in play(variant_id, 300, seed=5):
        parts = {seat: m.view_parts(seat) for seat in [*range(m.seats), None]}
        public = parts[0][0]
        for seat, (pub, own) in parts.items():
            assert pub is public  # one public part for the whole table at this moment
            assert set(own) == OWN_KEYS and not set(pub) & OWN_KEYS
            assert m.view(seat) == {**pub, **own}
        # a seat's own part is its own: another seat's hand is never in it
        hands = [parts[s][1]["hand"] for s in range(m.seats)]
        assert parts[None][1]["hand"] == []
        assert all(parts[s][1]["legal"] == m.legal_actions(s) for s in range(m.seats))
        assert sum(len(h) for h in hands) == sum(public["hand_sizes"])
        moments += 1
    assert moments > 20


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_a_public_part_handed_out_never_changes_after_the_next_action_C5(variant_id):
    kept = []
    for m in play(variant_id, 120, seed=9):
        public = m.view_parts(0)[0]
        if kept:
            assert public is not kept[-1][0]  # a new moment, a new public part
        kept.append((public, copy.deepcopy(public)))
    assert len(kept) > 20
    for public, snapshot in kept:
        assert public == snapshot  # what a server holds as the last view's base stays as it was


@pytest.mark.parametrize("variant_id", ["thousand-1001", "king-classic", "korol-ru"])
def test_a_copy_builds_its_own_public_part_C5(variant_id):
    m = next(x for i, x in enumerate(play(variant_id, 40, seed=2)) if i == 30)
    public = m.view_parts(0)[0]
    twin = m.copy()
    assert twin.view_parts(0)[0] is not public and twin.view_parts(0)[0] == public
    seat = twin.to_act()[0]
    twin.apply(seat, twin.legal_actions(seat)[0])
    assert m.view_parts(0)[0] is public  # the original's moment is untouched


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_public_tables_copied_only_when_changed_equal_fresh_copies_C5(variant_id):
    """The public tables (last trick, scoresheet, last deal, options, result) are copied
    again only when one changed, the scoresheet row by row as it grows: after every
    action they equal copies made from nothing, across deals."""
    rows_seen = set()
    for m in play(variant_id, 700, seed=11):
        public = m.view_parts(0)[0]
        kept = m._public
        m._public = None  # forget the kept copies: everything copied afresh
        fresh = m._public_view()
        m._public = kept
        assert public == fresh
        assert public["scoresheet"] == m.scoresheet()
        rows_seen.add(len(public["scoresheet"]))
    assert len(rows_seen) >= 3  # the scoresheet grew across several deals
