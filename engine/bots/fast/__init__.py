"""A compact state for play-outs: the trick play of one deal with every hand known,
cards as small integers and hands as bitmasks.  For the search bots' rollouts
only; the engine stays the authority (tests/engine/test_playout_agreement.py
checks this state against it on random positions of every variant).

::

    from engine.bots.fast import from_match, playout, random_policy

    state = from_match(match)        # a match (a determinized copy) in its play phase
    state.legal()                    # -> list[int]: the codes the seat to play may play
    state.turn                       # the seat to play
    state.play(code)                 # play it (no check: pick from legal())
    state.done                       # the deal's play is over
    state.trick_winner()             # the winner of the last completed trick (rule C-4)
    state.scores()                   # once done: each seat's score for the deal
    twin = state.copy()              # cheap, independent
    playout(state, random_policy, rng)   # play to the end; returns state.scores()
    playout(state, greedy_policy, rng, exact=2)  # the last two tricks exactly (.endgame)

Codes: a card is ``9 * suit + strength`` (suit in ``SCDH``, strength the rank's
within its suit in the variant's order), so a suit is nine bits of a hand and a
higher code of a suit is a higher card.  Two codes that are not cards:
``card | MARRY`` leads a K or Q as a marriage (``marriage:KH``; an ace with
M-17), ``QUIT`` is Тысяча's ``throw`` / ``refuse`` / ``writeoff`` before the
first lead.  ``state.action_text(code)`` and ``state.code(action)`` convert
to and from the engine's actions; ``state.code_of`` (card -> code) and
``state.name_of`` (code -> card) map cards, ``bits(mask)`` lists a mask's codes.

What ``scores()`` holds, per family:

* Тысяча classic (``thousand-1001``, ``-1000``, ``-1000-2p``): the deal's row
  ``scores`` (T-24 … T-27, the sitting-out dealer T-7, a throw or a refusal);
* modern Тысяча (``thousand-ru``, ``tysiac-pl``): the row's ``written`` scores
  (M-18 … M-22, a write-off M-21); the match rules applied after them (bolts,
  the barrel, the dump: M-23 steps 2-5) stay the engine's;
* Кинг: the row's ``scores`` (K-4 penalties negative, K-13 / K-17 pay; the
  early end K-8 ends the play);
* Король / Król: the row's ``scores``, the tricks each seat took in the deal
  (R-7); ``state.new_titles`` the titles taken in the round so far (R-14,
  R-27, R-35, R-45); ``done`` also when the round ends mid-deal.

Speed: ``bench/playout.py`` (play-outs per second against stepping the engine).

Only the trick play is covered: bidding, the talon, choices and trades before
the play stay on the engine (``from_match`` raises ``ValueError`` outside the
play phase).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ... import Match, find_variant
from .endgame import cards_left, due, solve
from .king import KingState
from .korol import KorolState
from .policy import greedy_policy, random_policy
from .state import MARRY, NO_TRUMP, QUIT, SUITS, PlayState, bits, card_codes
from .thousand import ThousandState

Policy = Callable[[PlayState, list[int], random.Random], int]

_CLASSES: dict[str, type] = {"thousand": ThousandState, "king": KingState, "korol": KorolState}


def from_match(match: Match) -> PlayState:
    """The compact state of ``match``'s deal, which must be in its play phase.  It
    reads every hand (``card_locations``): give it a determinized copy, never the
    real match of a seat that may not see them."""
    view = match.view(None)
    if view["phase"] != "play":
        raise ValueError(f"from_match: the deal is in its {view['phase']!r} phase, not 'play'")
    cls = _CLASSES[find_variant(match.variant.id).family]
    return cls(match, view, match.card_locations())


def playout(state: PlayState, policy: Policy, rng: random.Random, exact: int = 0) -> list[int]:
    """Play ``state`` to the end of the deal with ``policy(state, legal, rng) -> code``
    (a forced card is played without asking it); returns ``state.scores()``.  With
    ``exact``, once the hands hold that many tricks or fewer the rest is played
    exactly (:func:`.endgame.solve`)."""
    while not state.done:
        if exact and due(cards_left(state), state.size, exact):
            for code in solve(state)[1]:
                state.play(code)
            break
        legal = state.legal()
        state.play(legal[0] if len(legal) == 1 else policy(state, legal, rng))
    return state.scores()


__all__ = ["MARRY", "NO_TRUMP", "QUIT", "SUITS", "KingState", "KorolState", "PlayState",
           "Policy", "ThousandState", "bits", "card_codes", "from_match", "greedy_policy",
           "playout", "random_policy"]
