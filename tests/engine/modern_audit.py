"""Hand-made deals for the audit scenarios of modern Тысяча
(tests/engine/test_thousand_modern_audit*.py), worked out from
rules/thousand-modern.md, not from the engine.

The deals are chosen so that the play is forced whatever the opponents play:

* ``strong``: the first hand (declarer) is dealt AS TS AC TC AH KH QH
  (60 points, the ♥ marriage); the talon is AD TD TH (31 points, no nine);
  he gives AD and TD away and keeps the top two cards of ♠ ♣ and ♥ with
  KH QH.  Leading ``LEADS`` he takes every trick: 120 card points, +100
  when he declares the marriage (``LEADS``) and no marriage with
  ``LEADS_PLAIN``.  The second hand holds KS QS KC QC 9S 9C 9D (14 points),
  the third JS JC KD QD JD JH 9H (15 points): nobody qualifies for a
  redeal under the defaults of M-6.
* ``two_seat``: the first hand holds AS TS AC TC AD TD AH KH QH 9S, the
  talon is TH JH | 9C 9D, the dealer KS QS JS KC QC JC KD QD JD 9H.
"""

from __future__ import annotations

from engine import find_variant

STRONG = ["AS", "TS", "AC", "TC", "AH", "KH", "QH"]
SECOND = ["KS", "QS", "KC", "QC", "9S", "9C", "9D"]
THIRD = ["JS", "JC", "KD", "QD", "JD", "JH", "9H"]
TALON = ["AD", "TD", "TH"]
LEADS = ["play:AS", "marriage:KH", "play:QH", "play:AH", "play:TH", "play:TS", "play:AC", "play:TC"]
LEADS_PLAIN = [a.replace("marriage:", "play:") for a in LEADS]

TWO_STRONG = ["AS", "TS", "AC", "TC", "AD", "TD", "AH", "KH", "QH", "9S"]
TWO_OTHER = ["KS", "QS", "JS", "KC", "QC", "JC", "KD", "QD", "JD", "9H"]
TWO_TALON = ["TH", "JH", "9C", "9D"]
TWO_LEADS = ["play:AS", "marriage:KH", "play:QH", "play:AH", "play:TH", "play:TS", "play:AC",
             "play:TC", "play:AD", "play:TD"]


def strong(dealer: int, seats: int = 3, hands: tuple | None = None, talon: list | None = None) -> dict:
    """The ``strong`` deal with the first hand left of ``dealer``."""
    first, second, third = hands or (STRONG, SECOND, THIRD)
    out: list[list[str]] = [[] for _ in range(seats)]
    order = [(dealer + i) % seats for i in range(1, 4)] if seats == 4 else \
        [(dealer + i) % seats for i in range(1, seats + 1)]
    for seat, cards in zip(order, (first, second, third), strict=False):
        out[seat] = list(cards)
    return {"hands": out, "rest": list(talon or TALON)}


def two_seat(dealer: int) -> dict:
    out = [list(TWO_OTHER), list(TWO_OTHER)]
    out[(dealer + 1) % 2] = list(TWO_STRONG)
    return {"hands": out, "rest": list(TWO_TALON)}


def new(variant: str, seats: int = 3, presets: list | None = None, dealer: int = 0, seed: int = 7,
        **options):
    return find_variant(variant).new_match(seats=seats, seed=seed, first_dealer=dealer,
                                           options=options, preset_deals=presets)


def one(m) -> int:
    seats = m.to_act()
    assert len(seats) == 1, seats
    return seats[0]


def do(m, *actions: str) -> None:
    """Apply each action by the one seat to act."""
    for a in actions:
        m.apply(one(m), a)


def legal(m) -> list[str]:
    return m.legal_actions(one(m))


def opening(m) -> None:
    """The forced 100, passing the blind offer when there is one (M-4, M-5)."""
    do(m, "bid:100")


def play_out(m, leads: list[str]) -> None:
    """Play the deal to its end: the leader plays ``leads`` in order, a
    follower plays any legal card (the deals above make it not matter)."""
    deal = m.view(None)["deal"]
    leads = list(leads)
    while not m.is_over() and m.view(None)["deal"] == deal:
        seat = one(m)
        if not m.view(None)["trick"]:
            m.apply(seat, leads.pop(0))
        else:
            m.apply(seat, next(a for a in m.legal_actions(seat) if a.startswith("play:")))


def strong_deal(m, contract: int = 220, leads: list[str] | None = None, bids=("pass", "pass"),
                gives: tuple[int, int] | None = None) -> dict:
    """Open 100, the others' calls, give AD and TD, name ``contract``, play out;
    the scoresheet row of the deal."""
    if m.view(None)["phase"] == "bidding" and not m.view(None)["bids"]:
        opening(m)
    do(m, *bids)
    d = one(m)
    a, b = gives if gives else [s for s in m.view(None)["active"] if s != d]
    do(m, f"give:AD>{a}", f"give:TD>{b}", f"contract:{contract}")
    play_out(m, LEADS if leads is None else leads)
    return m.scoresheet()[-1]


# The ``lose1`` deal (dealer 0): the declarer (seat 1) loses only the first
# trick, 9D JD AD, to seat 0 (13 points); he keeps no marriage (gives QH).
LOSE1 = {"hands": [["AD", "TD", "KD", "QD", "QC", "JC", "9H"],
                   ["AS", "TS", "AC", "TC", "AH", "TH", "9D"],
                   ["JD", "KS", "QS", "JS", "KC", "9C", "JH"]],
         "rest": ["KH", "QH", "9S"]}
LOSE1_PLAY = ["play:9D", "play:JD", "play:AD",
              "play:QC", "play:AC", "play:9C",
              "play:AS", "play:KS", "play:TD",
              "play:TS", "play:QS", "play:KD",
              "play:TC", "play:KC", "play:JC",
              "play:AH", "play:JH", "play:9H",
              "play:TH", "play:JS", "play:QH",
              "play:KH", "play:9S", "play:QD"]


def lose1_deal(m, contract: int) -> dict:
    do(m, "bid:100", "pass", "pass", "give:9S>2", "give:QH>0", f"contract:{contract}", *LOSE1_PLAY)
    return m.scoresheet()[-1]
