"""Invariants every variant must keep, checked over seeded random matches.

Each family's property test calls :func:`play_checked` with its own policy
(how a person would choose among the legal actions: random card play, but
bids that a hand can make).  The checks, at every step unless noted:

* every action in ``legal_actions`` is accepted by ``apply`` (rule C-6);
* every card of the deck is in exactly one place (``Match.card_locations``);
* no ``view(seat)`` holds a card that seat has not been shown (rule C-5),
  and no view holds the seed;
* ``determinize(seat, rng)`` keeps the seat's view, the deck, the hand sizes
  and every void that play has revealed (every few steps);
* illegal actions (garbage, a card not held, out of turn, bad seats) raise
  ``IllegalAction`` and change nothing (every few steps);
* at the end, replaying seed + actions gives an equal match.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Callable

import pytest

from engine import IllegalAction, find_variant
from engine.match import Match

# A card code with no letter or digit on either side (the look-behind is put
# after the two characters: the same match, scanned several times faster).
CARD_RE = re.compile(r"([6-9TJQKA][SCDH])(?<![A-Za-z0-9]..)(?![A-Za-z0-9])")

Policy = Callable[[Match, int, list, random.Random], str]


def matches_per_variant(ci_default: int = 50) -> int:
    """50 matches in CI (its 20 minutes); KOZYR_LONG=1 (or KOZYR_MATCHES=N) for the
    1,000-match run."""
    if os.environ.get("KOZYR_MATCHES"):
        return int(os.environ["KOZYR_MATCHES"])
    return 1000 if os.environ.get("KOZYR_LONG") else ci_default


def random_policy(match: Match, seat: int, legal: list, rng: random.Random) -> str:
    return rng.choice(legal)


def cards_in(obj) -> set[str]:
    """Every card code written anywhere inside a view (keys and values)."""
    try:  # fast path: a view is JSON data, and JSON punctuation separates its strings
        return set(CARD_RE.findall(json.dumps(obj, ensure_ascii=False)))
    except (TypeError, ValueError):
        pass
    found: set[str] = set()

    def walk(o):
        if isinstance(o, str):
            found.update(CARD_RE.findall(o))
        elif isinstance(o, dict):
            for k, val in o.items():
                walk(k)
                walk(val)
        elif isinstance(o, (list, tuple)):
            for x in o:
                walk(x)

    walk(obj)
    return found


def check_locations(match: Match) -> dict[str, list[str]]:
    locs = match.card_locations()
    every = [c for cards in locs.values() for c in cards]
    assert sorted(every) == sorted(match.deck), (
        f"cards not conserved: {len(every)} placed of {len(match.deck)}; "
        f"dupes {sorted(c for c in set(every) if every.count(c) > 1)}, "
        f"missing {sorted(set(match.deck) - set(every))}")
    return locs


def hands_of(locs: dict[str, list[str]], seats: int) -> list[set[str]]:
    return [set(locs.get(f"hand:{s}", [])) for s in range(seats)]


class Tracker:
    """What each seat has legitimately seen so far, worked out from outside the
    engine's own redaction: its hands over time and what a spectator sees."""

    def __init__(self, match: Match):
        self.seats = match.seats
        self.public: set[str] = set()
        self.own: list[set[str]] = [set() for _ in range(match.seats)]
        self.voids: list[set[str]] = [set() for _ in range(match.seats)]
        self.deal = None
        self.sizes = [0] * match.seats
        self.held: list[set[str]] = [set() for _ in range(match.seats)]
        self.option_cards = cards_in(match.options)
        self.spectator: dict | None = None
        self._sheet: list | None = None  # the last scoresheet seen: its JSON text, its cards
        self._sheet_json = ""
        self._sheet_cards: set[str] = set()

    def scan(self, v: dict) -> tuple[str, set[str]]:
        """The view as JSON text, and every card code written in it.  The
        scoresheet, long and unchanged for a whole deal, is scanned only when
        it changes (the result is the same)."""
        sheet = v.get("scoresheet")
        if not sheet:
            blob = json.dumps(v, ensure_ascii=False)
            return blob, set(CARD_RE.findall(blob))
        if sheet != self._sheet:
            self._sheet, self._sheet_json = sheet, json.dumps(sheet, ensure_ascii=False)
            self._sheet_cards = set(CARD_RE.findall(self._sheet_json))
        rest = json.dumps({**v, "scoresheet": None}, ensure_ascii=False)
        return rest + self._sheet_json, set(CARD_RE.findall(rest)) | self._sheet_cards

    def observe(self, match: Match, locs: dict[str, list[str]]) -> None:
        spectator = match.view(None)
        if spectator["deal"] != self.deal:
            self.deal = spectator["deal"]
            self.voids = [set() for _ in range(self.seats)]
        for s, hand in enumerate(hands_of(locs, self.seats)):
            self.own[s] |= hand
            # cards received (even as many as were played since): earlier voids may be gone
            if len(hand) > self.sizes[s] or hand - self.held[s]:
                self.voids[s] = set()
            self.sizes[s] = len(hand)
            self.held[s] = hand
        # A spectator may see only cards that are in no hand, or were shown to all.
        in_hands = set().union(*hands_of(locs, self.seats))
        shown = set(spectator["face_up"]) | {
            c for seat, a in spectator["log"] if seat is None and a for c in CARD_RE.findall(a)}
        # The last trick (kept in the view when its deal ends, ENGINE_API.md) was played face up.
        shown |= cards_in(spectator["last_trick"])
        self.public |= shown
        seen = self.scan(spectator)[1] - self.option_cards
        leaked = seen & in_hands - self.public
        assert not leaked, f"spectator view shows cards in hands: {sorted(leaked)}"
        self.public |= seen
        self.spectator = spectator  # the state is unchanged until the next apply

    def check_view(self, match: Match, seat: int) -> dict:
        v = match.view(seat)
        blob, cards = self.scan(v)
        assert "seed" not in blob, "a view mentions the seed"
        reveals = {c for s, a in v["log"] if s is None and a for c in CARD_RE.findall(a)}
        unknown = cards - self.own[seat] - self.public - reveals - self.option_cards
        assert not unknown, f"seat {seat} sees cards it was never shown: {sorted(unknown)}"
        return v

    def note_play(self, match: Match, seat: int, action: str) -> None:
        if not action.startswith("play:"):
            return
        # observe() saw this same state (play_checked calls it before every action)
        trick = (self.spectator or match.view(None))["trick"]
        if trick:
            led = trick[0][1][1]
            if action[-1] != led:
                self.voids[seat].add(led)


def check_determinize(match: Match, tracker: Tracker, seat: int, rng: random.Random) -> None:
    before = match.view(seat)
    twin = match.determinize(seat, rng)
    assert twin.view(seat) == before, "determinize changed what the seat sees"
    assert match.view(seat) == before, "determinize changed the original match"
    locs = check_locations(twin)
    hands = hands_of(locs, match.seats)
    own = set(before["hand"])
    assert hands[seat] == own, "determinize moved the seat's own cards"
    for s in range(match.seats):
        assert len(hands[s]) == before["hand_sizes"][s]
        if s != seat:
            bad = {c for c in hands[s] if c[1] in tracker.voids[s]}
            assert not bad, f"determinize gave seat {s} {sorted(bad)} of a suit it showed void in"
    # The copy plays on like a match.
    for s in twin.to_act():
        acts = twin.legal_actions(s)
        assert acts, f"seat {s} is to act in the copy but has no legal action"


GARBAGE = ["", "play", "play:", "play:XX", "bid:", "bid:-5", "bid:1e9", "bid:abc",
           "pass ", "PLAY:AS", "give:AS>9", "give:AS>-1", "x" * 5000, "play:AS;drop table",
           "\x00", "спасибо", "order:nothing", "trump:X", "spare:7", "discard:", "take:",
           "swap:", "contract:", "marriage:AS"]


def check_illegal(match: Match, rng: random.Random, locs: dict[str, list[str]]) -> None:
    views = [match.view(s) for s in range(match.seats)]
    n = len(match.actions)
    to_act = match.to_act()
    tries: list[tuple[object, object]] = [(s, g) for s in to_act for g in rng.sample(GARBAGE, 5)]
    idle = [s for s in range(match.seats) if s not in to_act]
    for s in idle:
        # Out of turn: even an action that would be legal for the seat on turn.
        other = to_act[0] if to_act else 0
        tries += [(s, a) for a in match.legal_actions(other)[:2]] + [(s, "pass")]
    for s in to_act:
        held = set(locs.get(f"hand:{s}", []))
        not_held = [c for c in match.deck if c not in held]
        if not_held:
            tries.append((s, "play:" + rng.choice(not_held)))
        legal = set(match.legal_actions(s))
        kinds = {a.split(":")[0] for a in legal}
        for a in legal:
            if a.startswith("bid:"):
                tries.append((s, f"bid:{int(a[4:]) + 1}"))
        if "play" in kinds:
            bad = [f"play:{c}" for c in held if f"play:{c}" not in legal]
            tries += [(s, b) for b in bad[:2]]
    tries += [(-1, "pass"), (match.seats, "pass"), (None, "pass"), ("0", "pass"), (True, "pass")]
    if to_act:
        tries += [(to_act[0], None), (to_act[0], 5), (to_act[0], ["play:AS"])]
    for seat, action in tries:
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < match.seats \
                and isinstance(action, str) and action in match.legal_actions(seat):
            continue
        with pytest.raises(IllegalAction):
            match.apply(seat, action)  # type: ignore[arg-type]
        assert len(match.actions) == n
    assert [match.view(s) for s in range(match.seats)] == views, "an illegal action changed the match"


def play_checked(variant_id: str, seats: int, seed: int, *, options: dict | None = None,
                 policy: Policy = random_policy, max_actions: int = 20000,
                 every: int = 7) -> Match:
    """Play one seeded random match, checking the invariants; return it."""
    variant = find_variant(variant_id)
    match = variant.new_match(seats, seed=seed, options=options)
    rng = random.Random(seed * 7919 + 17)
    tracker = Tracker(match)
    step = 0
    while not match.is_over():
        assert step < max_actions, f"match not over after {max_actions} actions"
        locs = check_locations(match)
        tracker.observe(match, locs)
        for s in range(seats):
            tracker.check_view(match, s)
        to_act = match.to_act()
        assert to_act, "nobody to act in a match that is not over"
        if step % every == 0:
            check_illegal(match, rng, locs)
            check_determinize(match, tracker, rng.randrange(seats), rng)
        seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
        legal = match.legal_actions(seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        for s in range(seats):
            if s not in to_act:
                assert match.legal_actions(s) == [], f"seat {s} not to act but has actions"
        action = policy(match, seat, legal, rng)
        assert action in legal, f"policy chose {action!r}, not legal"
        tracker.note_play(match, seat, action)
        match.apply(seat, action)  # every legal action is accepted
        step += 1
    check_locations(match)
    assert match.to_act() == []
    result = match.result()
    assert result is not None and len(result["totals"]) == seats and result["winners"]
    twin = match.replay()
    for s in [None, *range(seats)]:
        assert twin.view(s) == match.view(s), "replaying seed + actions gave another match"
    assert twin.scoresheet() == match.scoresheet()
    assert twin.history() == match.history()
    assert twin.result() == match.result()
    return match
