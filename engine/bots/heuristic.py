"""The rule-of-thumb bot: one family module per game, a sensible default for the rest.

Each family module (``heuristic_thousand``, ``heuristic_king``,
``heuristic_korol``) has ``decide(k, rng) -> action | None`` (``k`` is the
view's :class:`~engine.bots.base.Knowledge`) and ``keep_value(k, card)`` (how
much the seat wants to keep a card: used to give, discard and to prune the
search).  Anything a module does not recognise falls back to :func:`fallback`.
"""

from __future__ import annotations

import logging
import random

from . import heuristic_king, heuristic_korol, heuristic_modern, heuristic_thousand
from .base import Bot, Determinize, Knowledge, card_of, kind, play_to_win

log = logging.getLogger(__name__)

FAMILIES = {"thousand": heuristic_thousand, "king": heuristic_king, "korol": heuristic_korol}
#: Variants whose calls differ from their family's (modern Тысяча, M-4 … M-14).
BY_VARIANT = {"thousand-ru": heuristic_modern, "tysiac-pl": heuristic_modern}

# Safe answers to questions a family module does not know, best first.
_SAFE = ("keep", "accept", "pass")
_RISKY = ("throw", "refuse", "strike")


def fallback(k: Knowledge, rng: random.Random) -> str:
    legal = k.legal
    plays = [a for a in legal if kind(a) == "play"]
    if plays:
        return play_to_win(k, [card_of(a) for a in plays])
    for a in _SAFE:
        if a in legal:
            return a
    calm = [a for a in legal if a not in _RISKY]
    return (calm or legal)[0]


class HeuristicBot(Bot):
    level = "basic"

    def choose(self, view: dict, rng: random.Random | None = None,
               determinize: Determinize | None = None) -> str:
        legal = view["legal"]
        if not legal:
            raise ValueError("the seat has no legal action now")
        if len(legal) == 1:
            return legal[0]
        rng = rng or self.rng
        k = Knowledge(view)
        module = BY_VARIANT.get(view["variant"]) or FAMILIES.get(k.family)
        try:
            action = module.decide(k, rng) if module else None
        except Exception:  # a bot must never stop a table: fall back to a default
            if self.strict:
                raise
            log.exception("%s: the %s rule of thumb failed; playing a safe default",
                          view["variant"], k.family)
            action = None
        if action is None or action not in legal:
            action = fallback(k, rng)
        return action


def decide(view: dict, rng: random.Random) -> str:
    """The rule-of-thumb action for a view (what :class:`HeuristicBot` plays)."""
    return HeuristicBot().choose(view, rng)


def candidates(view: dict, best: str, limit: int = 8) -> list[str]:
    """The actions worth searching: all of them when few, else the likely ones."""
    legal = view["legal"]
    kinds = {kind(a) for a in legal}
    if len(legal) <= limit or kinds <= {"play", "marriage", "throw", "refuse", "order", "trump"}:
        return list(legal)  # card play and Кинг's orders: every one is worth a look
    k = Knowledge(view)
    module = BY_VARIANT.get(view["variant"]) or FAMILIES.get(k.family)
    out: list[str] = [best]
    if "bid" in kinds or "contract" in kinds:
        steps = [a for a in legal if kind(a) in ("bid", "contract")]
        out += [a for a in legal if kind(a) == "pass"] + steps[:3]
    elif module is not None and kinds & {"give", "discard", "swap", "take"}:
        cards = sorted(dict.fromkeys(card_of(a) for a in legal if ":" in a),  # give the worst, take the best
                       key=lambda c: module.keep_value(k, c), reverse="take" in kinds)
        wanted = set(cards[:max(2, limit // 2)])
        out += [a for a in legal if ":" in a and card_of(a) in wanted]
        out += [a for a in legal if ":" not in a]
    else:
        out += legal
    uniq = list(dict.fromkeys(out))
    return uniq[:max(limit, 1)] if len(uniq) > limit and best in uniq[:limit] else uniq
