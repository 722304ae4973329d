"""The compact play-out state (engine/bots/fast) agrees with the engine.

Matches of every variant are played with random legal actions from seeded
seeds (house rules drawn at random too).  Every play step of every deal is a
position: a compact state built there (``from_match``) must list the engine's
legal actions.  From some positions of each deal, shallow and deep, a compact
state is run in lockstep with the engine to the end of the deal: the same
legal actions at every step, the same winner of every trick, the deal ending
at the same moment, and at the end the same scores as the engine's row.

CI: ``POSITIONS`` positions per family; ``KOZYR_LONG=1``: ``LONG_POSITIONS``
(``-s`` prints what was checked and which rules the runs met).  Rules that
random play seldom reaches (M-15 must_overtrump, K-7 king_strict, M-19
declarer_rounds) have scripted positions at the end.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from engine import VARIANTS, find_variant
from engine.bots.fast import QUIT, from_match, greedy_policy

LONG = bool(os.environ.get("KOZYR_LONG"))
POSITIONS = int(os.environ.get("KOZYR_PLAYOUT_POSITIONS", 10_000))
LONG_POSITIONS = 100_000
_QUITS = frozenset({"throw", "refuse", "writeoff"})
_CONTRACTS = ["tricks", "boys", "girls", "hearts", "last2", "king", "all"]


def _options(vid: str, rng: random.Random) -> dict:
    """House rules that change the play or a deal's score, drawn at random."""
    if vid in ("thousand-ru", "tysiac-pl"):
        o = {k: rng.random() < 0.5 for k in ("must_beat", "must_overtrump", "marriage_first_lead",
                                             "declarer_rounds", "round5_up", "golden", "blind")}
        o["ace_marriage"] = rng.random() < 0.7
        o["round_to"] = rng.choice([5, 10])
        o["sitter_scores"] = rng.choice(["points", "aces_marriage"])
        o["writeoff"] = rng.choice(["off", "minus", "bomb"])
        o["writeoff_pays"] = rng.choice(["half", "sixty"])
        o["writeoff_limit"] = 0
        return o
    if vid in ("thousand-1000", "thousand-1000-2p"):
        return {"round5_up": rng.random() < 0.5}
    if vid in ("king-classic", "king-3p"):
        order = list(_CONTRACTS)
        rng.shuffle(order)
        return {"order": order, "king_strict": rng.random() < 0.5}
    if vid == "king-ordered":
        return {"king_strict": rng.random() < 0.5}
    if vid == "krol-pl":
        return {"first_lead_card": rng.choice(find_variant(vid).deck(4))}
    return {}


class Tally(Counter):
    """What was checked: positions, lockstep runs, tricks, deal ends, builds."""


def _codes(state, actions: list[str]) -> list[int]:
    return sorted(state.code(a) for a in actions)


def _pick(actions: list[str], rng: random.Random) -> str:
    """A random action; a marriage (T-23, M-16) when one is offered, half the time."""
    if rng.random() < 0.5:
        marriages = [a for a in actions if a.startswith("marriage:")]
        if marriages:
            return rng.choice(marriages)
    return rng.choice(actions)


def _check_run(m, state, rng: random.Random, tally: Tally, where: str) -> None:
    """Run ``state`` in lockstep with ``m`` (consumed) to the end of the deal."""
    rows = len(m.scoresheet())
    roles = len(m.role_table())
    last_deal = m.last_deal  # replaced when a deal ends (ENGINE_API: the view's last_deal)
    smart = rng.random() < 0.5  # the rule of thumb plays: contracts made or missed narrowly
    while True:
        seat = m.to_act()[0]
        assert state.turn == seat, f"{where}: turn {state.turn} != {seat}"
        legal = m.legal_actions(seat)
        assert sorted(state.legal()) == _codes(state, legal), f"{where}: legal differs"
        tally["lockstep"] += 1
        plays = [a for a in legal if a not in _QUITS]
        quit_now = len(plays) < len(legal) and rng.random() < 0.25  # T-15, T-18, M-14
        if quit_now or not plays:
            action = legal[-1]  # a quit is listed last
        elif smart:
            action = state.action_text(greedy_policy(state, state.legal(), rng))
        else:
            action = _pick(plays, rng)
        before = m.last_trick
        state.play(state.code(action))
        m.apply(seat, action)
        if m.last_trick is not before and action not in _QUITS:  # a trick completed (C-4)
            assert state.trick_winner() == m.last_trick["winner"], f"{where}: trick winner"
            tally["tricks"] += 1
        ended = m.last_deal is not last_deal
        assert state.done == ended, f"{where}: done {state.done}, engine ended {ended}"
        if ended:
            row = m.scoresheet()[rows]
            want = row["written"] if "written" in row else row["scores"]
            assert state.scores() == want, f"{where}: scores {state.scores()} != {want} ({row})"
            if m.variant.family == "korol":
                if len(m.role_table()) > roles:
                    assert state.new_titles == m.role_table()[roles]["titles"], where
                    assert state.round_ended
                else:
                    assert state.new_titles == m.view(None)["new_titles"], where
            tally["deals"] += 1
            _features(m.variant.id, row, state, tally)
            return


def _features(vid: str, row: dict, state, tally: Tally) -> None:
    """Which rules the finished run went through (the tests ask for each)."""
    seen = tally.setdefault("seen", Counter())
    fam = find_variant(vid).family
    if fam == "thousand":
        suits = [suit for _, suit in row["marriages"]]
        seen.update({"marriage": bool(suits), "ace_marriage": "A" in suits,
                     "quit": bool(row.get("thrown") or row.get("refused") or row.get("writeoff")),
                     "sitter": row["sitting_out"] is not None, "fined_850": bool(row.get("fined")),
                     "doubled": bool(row.get("blind") or row.get("golden")),
                     "failed": row["made"] is False, "made": bool(row["made"])})
    elif fam == "king":
        seen.update({"contract:" + row["contract"]: True,
                     "early_end": any(state.hands) and row["contract"] != "trump"})
    else:
        seen.update({f"{vid}:round{min(row['round'], 1)}": True, "round_end": state.round_ended,
                     "left_mid_deal": any(state.new_titles) and not state.round_ended})


def _aces_in_one_hand(v, seats: int, rng: random.Random) -> list[dict]:
    """Preset deals (ENGINE_API) in which one seat holds the four aces (2 or 3 seats)."""
    out = []
    size = 10 if seats == 2 else 7
    for _ in range(3):
        deck = v.deck(seats)
        rng.shuffle(deck)
        aces = [c for c in deck if c[0] == "A"]
        rest = [c for c in deck if c[0] != "A"]
        lucky = rng.randrange(seats)
        hands = []
        for s in range(seats):
            n = size - 4 if s == lucky else size
            hands.append(rest[:n] + (aces if s == lucky else []))
            rest = rest[n:]
        talon = rest
        out.append({"hands": hands, "rest": talon})
    return out


def _sample(vid: str, seed: int, tally: Tally, limit: int) -> None:
    """One match of ``vid`` played at random; its play positions checked."""
    rng = random.Random(seed)
    v = find_variant(vid)
    seats = rng.choice(v.seat_counts)
    options = _options(vid, rng)
    near = [0, 0, 850, 880, 900, 960, -120]  # T-27 fines at 850, barrels (M-25, M-27)
    if vid in ("thousand-ru", "tysiac-pl") and rng.random() < 0.4:
        options.update({f"start_total_{k}": rng.choice(near[:4]) for k in range(seats)})
    presets = None
    if vid in ("thousand-ru", "tysiac-pl") and seats < 4 and rng.random() < 0.3:
        presets = _aces_in_one_hand(v, seats, rng)  # M-17 needs all four aces in a hand
    m = v.new_match(seats, seed=seed, options=options, preset_deals=presets)
    if vid.startswith("thousand-10") and rng.random() < 0.4:
        m.start_from_totals([rng.choice(near) for _ in range(seats)])
    deals, most = 0, rng.randint(1, 12)
    cards = len(v.deck(seats))  # at most this many plays in a deal

    def starts() -> set[int]:
        """The play steps of a deal where lockstep runs start: any depth alike, and the
        first lead often (the quits are offered there)."""
        out = {rng.randrange(cards) for _ in range(rng.randint(1, 2))}
        return out | {0} if rng.random() < 0.3 else out

    run_at, step = starts(), 0
    while not m.is_over() and tally["positions"] < limit and deals < most:
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        if m.phase == "play":
            src = m if rng.random() < 0.7 else m.determinize(seat, rng)  # hidden cards anew
            state = from_match(src)
            where = f"{vid} seed={seed} action={len(m.actions)}"
            assert state.turn == seat
            assert sorted(state.legal()) == _codes(state, src.legal_actions(seat)), f"{where}: legal"
            tally["positions"] += 1
            step += 1
            if step - 1 in run_at:
                twin = m.copy() if src is m else src
                _check_run(twin, state, random.Random(rng.getrandbits(32)), tally, where)
                tally["runs"] += 1
        plays = [a for a in legal if a.partition(":")[0] not in _QUITS]
        action = _pick(plays, rng) if plays and rng.random() < 0.95 else rng.choice(legal)
        last_deal = m.last_deal
        m.apply(seat, action)
        if m.last_deal is not last_deal:
            deals += 1
            run_at, step = starts(), 0


FAMILIES = {fam: [v for v in VARIANTS if find_variant(v).family == fam]
            for fam in ("thousand", "king", "korol")}


def _family(fam: str, base: int) -> Tally:
    tally = Tally()
    limit = LONG_POSITIONS if LONG else POSITIONS
    ids = FAMILIES[fam]
    seed = base
    while tally["positions"] < limit:
        vid = ids[seed % len(ids)]
        _sample(vid, seed, tally, limit)
        seed += 1
    tally["matches"] = seed - base
    seen = tally.pop("seen", Counter())
    print(f"\n{fam}: {dict(tally)}\n  rules met in runs: {dict(sorted(seen.items()))}")
    tally["seen"] = seen
    return tally


def _enough(t: Tally) -> None:
    """Each run ended with its deal; runs and tricks in proportion to the positions."""
    assert t["deals"] == t["runs"] > t["positions"] // 100 and t["tricks"] > t["positions"] // 10


def test_thousand_play_agrees_T20_T21_T22_T23_T25_M15_M16_M17_M19_M21() -> None:
    # rules T-20 leads, T-21 following, T-22 beating, T-23 marriages, T-24 … T-27 and T-7
    # scores, T-15 / T-18 quits; M-15 must_beat / must_overtrump, M-16, M-17, M-18 … M-22
    t = _family("thousand", 1_000_000)
    _enough(t)


def test_king_play_agrees_K3_K4_K6_K7_K8_K12_K13() -> None:
    # rules K-3 following, K-6 no heart lead, K-7 the King must go (king_strict), K-8
    # early end, K-12 trumps, K-4 / K-9 / K-13 / K-17 scores, C-4 trick winner
    t = _family("king", 2_000_000)
    _enough(t)


def test_korol_play_agrees_R2_R3_R5_R12_R14_R15_R25_R46() -> None:
    # rules R-2 following, R-3 deal end, R-5 / R-24 / R-44 leads, R-12 / R-25 trump leads,
    # titles, R-46 hand-over, R-7 deal scores
    t = _family("korol", 3_000_000)
    _enough(t)


def test_codes_round_trip_C2() -> None:
    # rule C-2: every engine action of a play phase maps to a code and back
    rng = random.Random(5)
    for vid in VARIANTS:
        v = find_variant(vid)
        m = v.new_match(v.seat_counts[-1], seed=7)
        while m.view(None)["phase"] != "play":
            s = m.to_act()[0]
            legal = [a for a in m.legal_actions(s) if a.partition(":")[0] not in _QUITS]
            m.apply(s, rng.choice(legal))
        state = from_match(m)
        for a in m.legal_actions(m.to_act()[0]):
            assert state.action_text(state.code(a)) == a
        assert sorted(state.legal()) == _codes(state, m.legal_actions(state.turn))
        assert all(0 <= c < 36 for c in state.legal() if c < QUIT)


def test_from_match_refuses_other_phases() -> None:
    m = find_variant("thousand-1001").new_match(3, seed=1)
    with pytest.raises(ValueError, match="play"):
        from_match(m)


def _scripted(m, script: list[str]) -> None:
    """Apply ``script`` in order, each by the seat to act (every action must be legal)."""
    for action in script:
        m.apply(m.to_act()[0], action)


def _both_legal(m) -> list[str]:
    """The engine's legal actions, after checking the compact state lists the same."""
    state = from_match(m)
    legal = m.legal_actions(m.to_act()[0])
    assert sorted(state.legal()) == _codes(state, legal)
    _check_run(m.copy(), state, random.Random(1), Tally(), "scripted")
    return legal


@pytest.mark.parametrize("overtrump", [True, False])
def test_must_overtrump_M15(overtrump: bool) -> None:
    # rule M-15: a follower trumping a trumped trick must trump higher if he can
    hands = [["AS", "KD", "QD", "9D", "9H", "JH", "QH"], ["AD", "AC", "KC", "QC", "JC", "TC", "9C"],
             ["TD", "JD", "9S", "JS", "KH", "TH", "AH"]]
    m = find_variant("tysiac-pl").new_match(3, seed=1, first_dealer=2, options={
        "must_overtrump": overtrump}, preset_deals=[{"hands": hands, "rest": ["QS", "KS", "TS"]}])
    _scripted(m, ["bid:100", "pass", "pass", "give:QS>1", "give:TS>2", "contract:100",
                  "play:AS", "play:QS", "play:9S",  # seat 0 takes a trick, so may declare (M-16)
                  "marriage:KD", "play:AD", "play:TD",  # ♦ trump; seat 1 wins with A♦
                  "play:AC", "play:JD"])  # seat 2 trumps the ♣ lead with J♦
    legal = _both_legal(m)  # seat 0, void in ♣, holds Q♦ and 9♦
    assert sorted(legal) == (["play:QD"] if overtrump else ["play:9D", "play:QD"])


@pytest.mark.parametrize("strict", [True, False])
def test_king_strict_K7(strict: bool) -> None:
    # rule K-7 [king_strict]: K♥ must go under a heart lead with A♥ already in the trick
    hands = [["AS", "AC", "AD", "AH", "QH", "JH", "TH", "9H"], ["KH", "8H", "7S", "8S", "7C", "8C", "7D", "8D"],
             ["9S", "TS", "JS", "9C", "TC", "JC", "9D", "TD"], ["QS", "KS", "QC", "KC", "JD", "QD", "KD", "7H"]]
    order = ["king", "tricks", "boys", "girls", "hearts", "last2", "all"]
    m = find_variant("king-classic").new_match(4, seed=1, first_dealer=3, options={
        "order": order, "king_strict": strict}, preset_deals=[{"hands": hands, "rest": []}])
    _scripted(m, ["play:AS", "play:7S", "play:9S", "play:QS", "play:AC", "play:7C", "play:9C", "play:QC",
                  "play:AD", "play:7D", "play:9D", "play:JD",
                  "play:AH"])  # seat 0 holds only hearts now: he may lead one (K-6)
    legal = _both_legal(m)
    assert sorted(legal) == (["play:KH"] if strict else ["play:8H", "play:KH"])


def _to_play(vid: str, seats: int, seed: int, options: dict) -> tuple:
    """A match brought to its first lead by seeded random calls (no quits)."""
    rng = random.Random(seed)
    m = find_variant(vid).new_match(seats, seed=seed, options=options)
    while m.phase != "play":
        s = m.to_act()[0]
        plays = [a for a in m.legal_actions(s) if a.partition(":")[0] not in _QUITS]
        m.apply(s, rng.choice(plays))
    return m, list(m.actions)


def test_declarer_rounds_M19() -> None:
    # rule M-19: the declarer's count is his raw points (rounded with declarer_rounds):
    # a play-out found on the compact state where rounding decides, judged by the engine
    for seed in range(200):
        m, prefix = _to_play("thousand-ru", 3, seed, {"declarer_rounds": False})
        base = from_match(m)
        rng = random.Random(seed)
        for _ in range(200):
            state, line = base.copy(), []
            while not state.done:
                legal = [c for c in state.legal() if c < QUIT]
                code = greedy_policy(state, legal, rng) if rng.random() < 0.7 else rng.choice(legal)
                line.append(state.action_text(code))
                state.play(code)
            d = state.declarer
            raw = state.points_raw()[d] + state.married[d]
            if raw < state.contract <= state._round(raw - state.married[d]) + state.married[d]:
                break
        else:
            continue
        for rounds in (False, True):
            m2 = find_variant("thousand-ru").new_match(3, seed=seed, options={"declarer_rounds": rounds})
            for s, a in prefix:
                m2.apply(s, a)
            state = from_match(m2)
            _scripted(m2, line[:-1])
            for a in line[:-1]:
                state.play(state.code(a))
            _check_run(m2, state, random.Random(0), Tally(), f"seed {seed}")  # one card left
            assert state.scores()[d] == (state.contract if rounds else -state.contract)
        return
    pytest.fail("no play-out where rounding decides the contract")


def test_no_duty_to_beat_a_trumped_trick_T22_M15() -> None:
    # rules T-22, M-15: a follower of the led suit need not beat it once the trick is trumped
    hands = [["AS", "KD", "QD", "9D", "KC", "9C", "9H"], ["AD", "AC", "QC", "JC", "TC", "JH", "QH"],
             ["TD", "JD", "9S", "JS", "KH", "TH", "AH"]]
    m = find_variant("tysiac-pl").new_match(3, seed=1, first_dealer=2, options={"must_beat": True},
                                            preset_deals=[{"hands": hands, "rest": ["QS", "KS", "TS"]}])
    _scripted(m, ["bid:100", "pass", "pass", "give:QS>1", "give:TS>2", "contract:100",
                  "play:AS", "play:QS", "play:9S", "marriage:KD", "play:AD", "play:TD",
                  "play:QC"])  # seat 1 leads Q♣; seat 2, void in ♣, must trump (T-21)
    assert _both_legal(m) == ["play:JD"]
    m.apply(2, "play:JD")
    assert sorted(_both_legal(m)) == ["play:9C", "play:KC"]  # not only the K♣ that beats Q♣
