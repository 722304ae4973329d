"""app/rooms/live.py SharedJson: the values the seats' views share are encoded once,
and every text sent is the view's own JSON, to the byte."""

from __future__ import annotations

import random

import pytest

from app.rooms.hub import dumps
from app.rooms.live import SHARED_KEYS, SharedJson, parts_json
from engine import VARIANTS, find_variant


def view_parts(view: dict) -> dict[str, str]:
    """Each top-level key's JSON, encoded on its own (what the parts must equal)."""
    return {key: dumps(value) for key, value in view.items()}


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_shared_encodings_give_every_seats_own_view(variant_id):
    variant = find_variant(variant_id)
    m = variant.new_match(max(variant.seat_counts), seed=3)
    rng = random.Random(3)
    shared = SharedJson()
    reused = 0
    for _ in range(800):
        if m.is_over():
            break
        for seat in [*range(m.seats), None]:
            public, own = m.view_parts(seat)
            view = m.view(seat)
            assert view == {**public, **own}
            held = {k: v[1] for k, v in shared.held.items()}
            text, parts = shared.encode(public, own, parts=seat != 0)
            if seat == 0:
                assert text == dumps(view) and parts is None
            else:
                assert text is None and parts == view_parts(view)
                assert parts_json(parts) == dumps(view)  # the text of a delta seat's view
            reused += sum(1 for k in SHARED_KEYS if view.get(k) is not None and held.get(k) is shared.held[k][1])
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        m.apply(seat, "pass" if "pass" in legal and rng.random() < 0.5 else rng.choice(legal))
    assert reused > 0  # the same encoding served other seats and later steps


def test_a_value_only_the_standard_library_encodes_still_gives_the_view():
    shared = SharedJson()
    public = {"scoresheet": [{"x": 1}], "big": 2 ** 70, "options": {"a": 1}}
    own = {"seat": 0, "hand": ["AS"]}
    view = {**public, **own}
    text, _ = shared.encode(public, own, parts=False)
    assert text == dumps(view) and '"big":1180591620717411303424' in text
    assert shared.encode(public, own, parts=True) == (None, view_parts(view))
