"""The action value (ENGINE_API.md "Action notation"), the shared trick rules
(rule C-4) and the public hooks tests use instead of internals."""

from __future__ import annotations

import random

import pytest

from engine import VARIANTS, Action, IllegalAction, find_variant
from engine.tricks import FollowRule, is_trumped, winning_play
from engine.variants.thousand_cards import STRENGTH


@pytest.mark.parametrize("text,kind,card,target,amount,arg", [
    ("play:TH", "play", "TH", None, None, "TH"),
    ("marriage:KH", "marriage", "KH", None, None, "KH"),
    ("pass", "pass", None, None, None, ""),
    ("bid:120", "bid", None, None, 120, "120"),
    ("contract:140", "contract", None, None, 140, "140"),
    ("give:QS>2", "give", "QS", 2, None, "QS>2"),
    ("take:top", "take", None, None, None, "top"),
    ("take:QD", "take", "QD", None, None, "QD"),
    ("trump:last", "trump", None, None, None, "last"),
    ("order:trump:H", "order", None, None, None, "trump:H"),
    ("spare:2", "spare", None, 2, None, "2"),
    ("strike", "strike", None, None, None, ""),
])
def test_action_parses_once_and_prints_its_wire_form_C6(text, kind, card, target, amount, arg):
    a = Action.parse(text)
    assert (a.kind, a.card, a.target, a.amount, a.arg) == (kind, card, target, amount, arg)
    assert str(a) == text and Action.parse(text) is a
    assert eval(repr(a)) == a  # repr is code you can paste


@pytest.mark.parametrize("bad", ["", "play:", ":TH", "give:QS>", "give:XX>2", "x" * 41, 7, None])
def test_action_refuses_what_is_not_one(bad):
    with pytest.raises(ValueError):
        Action.parse(bad)


def test_action_make_builds_the_text():
    assert Action.make("give", "QS", to=2).text == "give:QS>2"
    assert Action.make("bid", 120).amount == 120 and Action.make("keep").text == "keep"


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_every_legal_action_round_trips(variant_id):
    variant = find_variant(variant_id)
    m = variant.new_match(max(variant.seat_counts), seed=5)
    rng = random.Random(5)
    for _ in range(300):
        if m.is_over():
            break
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        assert [str(Action.parse(a)) for a in legal] == legal
        m.apply(seat, "pass" if "pass" in legal and rng.random() < 0.6 else rng.choice(legal))


def test_one_winner_rule_for_every_family_C4():
    trick = [(0, "9S"), (1, "AS"), (2, "TH")]
    assert winning_play(trick, None, STRENGTH) == (1, "AS")  # the highest of the led suit
    assert winning_play(trick, "H", STRENGTH) == (2, "TH")  # a trump wins
    assert winning_play(trick + [(3, "AH")], "H", STRENGTH) == (3, "AH")  # the highest trump
    assert winning_play([(0, "9S"), (1, "AD")], "H", STRENGTH) == (0, "9S")  # off-suit loses
    assert is_trumped(trick, "H") and not is_trumped(trick, "S")


def test_follow_rule_is_data_C4_T21_T22():
    beat = FollowRule(must_trump=True, why_follow="follow", why_trump="trump", must_beat=True,
                      why_beat="beat")
    trick = [(0, "KS")]
    assert beat.playable(["9S", "AS", "TH"], trick, "H", STRENGTH) == (["AS"], "beat")
    assert beat.why_not("TH", ["9S", "AS", "TH"], trick, "H", STRENGTH) == "follow"
    assert beat.playable(["9D", "TH"], trick, "H", STRENGTH) == (["TH"], "trump")
    assert beat.reveals(trick, "9D", "H", STRENGTH) == (("S", "H"), None)
    assert beat.reveals(trick, "9S", "H", STRENGTH) == ((), STRENGTH["KS"])
    free = FollowRule(must_trump=False, why_follow="follow")
    assert free.playable(["9D", "TH"], trick, "H", STRENGTH) == (["9D", "TH"], "")
    assert free.reveals(trick, "9D", "H", STRENGTH) == (("S",), None)


def test_start_from_totals_is_a_public_hook_before_the_first_action_T13():
    m = find_variant("thousand-1000-2p").new_match(2, seed=1)
    m.start_from_totals([850, 0])
    assert m.view(0)["totals"] == [850, 0]
    assert m.replay().view(0) == m.view(0)
    seat = m.to_act()[0]
    m.apply(seat, m.legal_actions(seat)[0])
    with pytest.raises(ValueError, match="before the first action"):
        m.start_from_totals([0, 0])
    with pytest.raises(ValueError):
        find_variant("thousand-1001").new_match(3, seed=1).start_from_totals([1, 2])
    with pytest.raises(ValueError, match="cannot start"):
        find_variant("korol-ru").new_match(4, seed=1).start_from_totals([0, 0, 0, 0])
    king = find_variant("king-classic").new_match(4, seed=1)
    king.start_from_totals([10, -10, 0, 0])
    assert king.view(None)["totals"] == [10, -10, 0, 0]


def test_illegal_actions_are_the_callers_mistake_C6():
    m = find_variant("king-classic").new_match(4, seed=1)
    seat = m.to_act()[0]
    for bad in ("play:", "bid:120", 42, "play:ZZ"):
        with pytest.raises(IllegalAction):
            m.apply(seat, bad)


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_views_keep_the_public_tables_until_one_changes(variant_id):
    """A view's public tables (last trick, scoresheet, last deal, options, result) are
    copied again only when one changed, and each seat's view of the deal's log is
    kept and extended: at every step every seat's view (a spectator's too) equals
    the one built afresh, and between changes the copies are the same objects."""
    variant = find_variant(variant_id)
    m = variant.new_match(max(variant.seat_counts), seed=11)
    rng = random.Random(11)
    shared_steps = rows_seen = 0
    before = None
    for _ in range(1500):
        if m.is_over():
            break
        views = [m.view(s) for s in [*range(m.seats), None]]
        kept = m._public, m._seen_logs
        m._public, m._seen_logs = None, {}  # what fresh copies give
        assert [m.view(s) for s in [*range(m.seats), None]] == views
        m._public, m._seen_logs = kept
        assert all(v["scoresheet"] is views[0]["scoresheet"] for v in views)  # one copy per moment
        if before is not None and before["scoresheet"] == views[0]["scoresheet"] \
                and before["last_trick"] == views[0]["last_trick"] and before["last_deal"] == views[0]["last_deal"]:
            shared_steps += before["options"] is views[0]["options"]
        before = views[0]
        rows_seen = len(views[0]["scoresheet"])
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        m.apply(seat, "pass" if "pass" in legal and rng.random() < 0.5 else rng.choice(legal))
    assert shared_steps > 0
    assert rows_seen > 0 or m.is_over(), "the play reached no deal's end"
