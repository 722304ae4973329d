"""Король / Król: the rules common to both versions (R-1 .. R-7), the views,
hidden information (rule C-5) and determinize."""

import random

import pytest

from engine import IllegalAction, find_variant

from .test_korol_crowning import READY_D4, act, autoplay, deal, new, ready_deals, ru_crowned_mixed
from .test_korol_ru import ONE_TRUMP, TRIBUTE

POINTS = {"king": 3, "prince": 2, "soldier": 1, "peasant": 0}
ORDER = ["king", "prince", "soldier", "peasant"]


def random_match(variant: str, seed: int, reigns: int):
    m = find_variant(variant).new_match(4, seed=seed, options={"reigns": reigns})
    rng = random.Random(seed)
    while not m.is_over():
        s = m.to_act()[0]
        m.apply(s, rng.choice(m.legal_actions(s)))
    return m


def test_deck_of_36_all_dealt_to_four_R1_R6():
    for variant in ("korol-ru", "krol-pl"):
        v = find_variant(variant)
        assert v.seat_counts == (4,)  # rule R-6
        with pytest.raises(ValueError):
            v.new_match(3, seed=1)
        m = v.new_match(4, seed=1)
        assert sorted(m.deck) == sorted(r + s for r in "6789TJQKA" for s in "SCDH")  # rule R-1
        assert m.view(None)["hand_sizes"] == [9, 9, 9, 9]


def test_follow_suit_trumping_allowed_not_required_R2():
    m = ru_crowned_mixed(TRIBUTE)
    act(m, "give:6C>3", "give:6D>3", "AC")
    # the Prince has no club: anything, a trump (his KH) or not
    assert len(m.legal_actions(0)) == 9 and "play:KH" in m.legal_actions(0)
    act(m, "7D")
    act(m, "7H")  # the Soldier trumps
    assert m.legal_actions(3) == ["play:6C"]  # the Peasant must follow
    with pytest.raises(IllegalAction, match="R-2"):
        m.apply(3, "play:6S")
    act(m, "6C")
    assert m.view(None)["last_trick"] == {"cards": [[2, "AC"], [0, "7D"], [1, "7H"], [3, "6C"]],
                                          "winner": 1}  # the highest trump


def test_deal_ends_when_the_active_players_are_out_of_cards_R3():
    m = new("korol-ru", ready_deals(), reigns=0)
    autoplay(m, 9)
    assert m.view(None)["deal"] == 2 and len(m.scoresheet()) == 1
    assert m.scoresheet()[0]["scores"] == [9, 0, 0, 0]


def test_reigns_option_and_standings_R4():
    schema = {o["name"]: o for o in find_variant("korol-ru").options_schema()}
    assert schema["reigns"] == {"name": "reigns", "type": "int", "default": 3, "rule": "R-4",
                                "label": "Reigns after the crowning", "min": 0, "max": 10,
                                "step": 1, "group": "match",
                                "description": "How many reigns are played after the crowning round."}
    with pytest.raises(ValueError):
        find_variant("korol-ru").new_match(4, seed=1, options={"reigns": 11})
    m = new("korol-ru", ready_deals() + [READY_D4], reigns=0)
    autoplay(m, 27)
    act(m, "7H", "6C", "AH", "8H")
    assert m.is_over() and len(m.role_table()) == 1  # the crowning alone
    assert m.result() == {"totals": [2, 1, 3, 0], "winners": [2], "places": [2, 3, 1, 4],
                          "kings": [0, 0, 1, 0],
                          "titles": [["prince", "soldier", "king", "peasant"]]}


def title_counts(m) -> tuple[list[int], list[int], list[int]]:
    """Per seat of a finished 4-seat match: title points, reigns as King, and the last
    title's rank (0: King), worked out here from the role table (R-4's three keys)."""
    table = m.role_table()
    points = [sum(POINTS[r["titles"][s]] for r in table) for s in range(4)]
    kings = [sum(r["titles"][s] == "king" for r in table) for s in range(4)]
    last = [ORDER.index(table[-1]["titles"][s]) for s in range(4)]
    return points, kings, last


def test_ties_go_to_more_kings_then_the_higher_last_title_R4():
    kinds = set()
    for variant in ("korol-ru", "krol-pl"):
        for seed in range(40):
            m = random_match(variant, seed, 1)
            points, kings, last = title_counts(m)
            assert m.result()["totals"] == points
            top = [s for s in range(4) if points[s] == max(points)]
            if len(top) == 1:
                assert m.result()["winners"] == top
                continue
            most = [s for s in top if kings[s] == max(kings[t] for t in top)]
            if len(most) == 1:
                kinds.add("kings")
                assert m.result()["winners"] == most
            else:
                kinds.add("last title")
                assert m.result()["winners"] == [min(most, key=last.__getitem__)]
    assert kinds == {"kings", "last title"}  # both tie-breaks were needed and checked


def test_records_rows_per_deal_and_per_round_R7():
    m = random_match("krol-pl", 5, 2)
    table = m.role_table()
    assert [r["round"] for r in table] == [0, 1, 2]
    assert all(set(r) == {"round", "titles", "tricks"} for r in table)
    sheet = m.scoresheet()
    assert [r["deal"] for r in sheet] == list(range(1, len(sheet) + 1))
    for r in sheet:
        assert sum(r["scores"]) <= 9 and {"deal", "dealer", "round", "scores", "totals"} <= set(r)
    assert m.result()["titles"] == [r["titles"] for r in table]
    assert len(m.history()) == len(sheet)


def test_view_keys():
    m = ru_crowned_mixed(TRIBUTE)
    v = m.view(1)
    for key in ("variant", "phase", "to_act", "hand", "hand_sizes", "trick", "last_trick",
                "trump", "face_up", "scoresheet", "last_deal", "log", "legal", "titles",
                "new_titles", "tallies", "active", "round", "standings", "role_table"):
        assert key in v
    assert v["standings"] == [2, 1, 3, 0] and v["round"] == 1
    assert v["role_table"] == m.role_table()
    pl = find_variant("krol-pl").new_match(4, seed=3)
    assert {"strikes", "spares"} <= set(pl.view(0))


def test_shown_hand_is_kept_by_the_taker_in_determinize_C5_R23():
    m = ru_crowned_mixed(ONE_TRUMP)
    act(m, "give:6C>3")  # the Prince is shown the Peasant's hand
    peasant = sorted(m.card_locations()["hand:3"])
    rng = random.Random(1)
    for _ in range(5):
        twin = m.determinize(0, rng)
        assert sorted(twin.card_locations()["hand:3"]) == peasant  # the Prince knows it
        assert twin.view(0) == m.view(0)
    moved = any(sorted(m.determinize(1, rng).card_locations()["hand:3"]) != peasant for _ in range(5))
    assert moved  # the Soldier does not


def test_spectator_and_others_never_see_face_down_cards_C5_R26():
    from .test_korol_ru import king_leaves
    m = king_leaves()
    act(m, "swap:8H")
    for seat in (None, 0, 1):
        v = m.view(seat)
        assert "8H" not in str(v)  # the card under the stock, and the stock itself
        assert "TS" not in str(v)
    assert "8H" in str(m.view(3))


def test_crowning_preset_shape_mismatch_and_bad_actions_C6():
    with pytest.raises(ValueError):
        new("korol-ru", [deal("6S", "", "", "", rest="")])
    m = new("krol-pl", [])
    with pytest.raises(IllegalAction):
        m.apply(m.to_act()[0], "spare:0")


def walk(variant: str, seeds, reigns: int = 2):
    """Random matches, yielding (match, seat) before every action."""
    for seed in seeds:
        m = find_variant(variant).new_match(4, seed=seed, options={"reigns": reigns})
        rng = random.Random(seed)
        while not m.is_over():
            seat = m.to_act()[0]
            yield m, seat
            m.apply(seat, rng.choice(m.legal_actions(seat)))


def next_active(m, seat: int) -> int:
    """The next active player after ``seat`` in the round's turn order (rule R-5)."""
    order, i = m.view(None)["order"], m.view(None)["order"].index(seat)
    return next(order[(i + k) % 4] for k in range(1, 5) if m.active[order[(i + k) % 4]])


def test_every_lead_follows_the_lead_rules_R5_R12_R24_R25():
    prince_leads = {}
    for m, seat in walk("korol-ru", range(12)):
        if m.phase != "play" or m.trick:
            continue
        hand = m.hands[seat]
        trumps = sorted("play:" + c for c in hand if c[1] == m.trump)
        legal = sorted(m.legal_actions(seat))
        if m.round == 0:
            if m.deal_trick_no == 0:  # rule R-12: the first hand leads
                assert seat == next_active(m, m.dealer)
            else:  # the winner leads, or the next active after him (rule R-5)
                w = m.last_trick["winner"]
                assert seat == (w if m.active[w] else next_active(m, w))
            forced = m.deal_trick_no < 2
        else:
            assert seat == next(s for s in m.order if m.active[s])  # rule R-24
            key = (m.seed, m.round)
            forced = False
            if m.titles[seat] == "prince" and not m.active[m.titles.index("king")]:
                prince_leads[key] = prince_leads.get(key, 0) + 1  # counted across deals
                forced = prince_leads[key] <= 2  # rule R-25
        assert legal == (trumps if forced and trumps else sorted("play:" + c for c in hand))
    assert any(n > 2 for n in prince_leads.values())


def test_every_lead_in_krol_R34_R44_R5():
    for m, seat in walk("krol-pl", range(10)):
        if m.phase != "play" or m.trick:
            continue
        if m.deal_trick_no == 0:
            if m.round:
                assert seat == next(s for s in m.order if m.active[s])  # rule R-44
            else:
                card = m.options["first_lead_card"]  # rule R-34
                holder = [s for s in range(4) if m.active[s] and card in m.hands[s]]
                assert [seat] == (holder or [next_active(m, m.dealer)])
        else:
            w = m.last_trick["winner"]
            assert seat == (w if m.active[w] else next_active(m, w))  # rule R-5


def test_face_up_card_follows_a_departed_princes_hand_R41_R47():
    seen = 0
    gone_at_start = {}
    for m, seat in walk("krol-pl", range(25)):
        if not m.round:
            continue
        prince = m.titles.index("prince")
        gone = gone_at_start.setdefault((m.seed, m.deal_no), not m.active[prince])
        if not gone or m.phase not in ("handover", "pool"):
            continue
        i = m.leavers.index(prince)
        receiver = m.titles.index("soldier" if i == 0 else "peasant")
        assert m.trump == m.turned[1]  # it still sets trump
        locs = m.card_locations()
        if not m.active[receiver]:
            assert m.turned in locs["aside"]
            seen += 1
        elif m.phase == "handover" and seat == receiver:  # received, some maybe discarded
            assert m.turned in locs[f"hand:{receiver}"] + locs["aside"]
            seen += 1
    assert seen


def test_a_hand_given_up_is_known_to_its_old_owner_in_determinize_R32_R43():
    from .test_korol_crowning import clubs_to
    from .test_korol_pl import FIVE_FOUR, pl_crowned

    m = new("krol-pl", [clubs_to(0), clubs_to(1)], reigns=0)
    autoplay(m, 9)
    old = sorted(m.view(2)["hand"])
    act(m, "spare:0")  # seat 2's old hand now lies at seat 0
    rng = random.Random(2)
    assert all(sorted(m.determinize(2, rng).card_locations()["spare:0"]) == old for _ in range(5))
    assert any(sorted(m.determinize(3, rng).card_locations()["spare:0"]) != old for _ in range(5))

    m = pl_crowned(FIVE_FOUR)
    act(m, "accept", "accept")  # the Soldier (3) handed his spades to the King (2)
    twin = m.determinize(3, rng)
    assert set("6S 7S 8S 9S TS JS QS KS AS".split()) <= set(twin.card_locations()["hand:2"])
    assert twin.view(3) == m.view(3)


def test_a_lead_off_trump_under_the_duty_shows_a_trump_void_in_determinize_R12():
    """Rule R-12: the first hand must lead a trump if he holds one; leading another
    suit then tells everyone he holds none, and determinize keeps it."""
    from engine.bots import make_bot
    for seed in range(200):
        m = find_variant("korol-ru").new_match(4, seed=seed)
        bots = [make_bot("basic", s) for s in range(4)]
        while m.phase != "play":
            s = m.to_act()[0]
            m.apply(s, bots[s].act(m, s))
        leader = m.to_act()[0]
        trump = m.view(None)["trump"]
        if any(c[1] == trump for c in m.view(leader)["hand"]):
            continue  # he must lead a trump: nothing to learn
        m.apply(leader, m.legal_actions(leader)[0])
        other = (leader + 1) % 4
        rng = random.Random(seed)
        for _ in range(30):
            held = m.determinize(other, rng).card_locations()[f"hand:{leader}"]
            assert not any(c[1] == trump for c in held)
        return
    raise AssertionError("no first hand without a trump in 200 deals")
