"""Bots that play through the same interface as people (see issue: bots).

    from engine.bots import make_bot, LEVELS
    bot = make_bot("strong", seed=7)
    match.apply(seat, bot.act(match, seat))

A bot sees only what its seat may see: ``match.view(seat)`` and, for the
search bot, copies from ``match.determinize(seat, rng)`` (see base.py).
"""

from __future__ import annotations

from .base import Bot
from .heuristic import HeuristicBot
from .random_bot import RandomBot
from .search import ExpertBot, SearchBot

#: The levels a room may seat, weakest first: name -> (class, description).
LEVELS: dict[str, tuple[type[Bot], str]] = {
    "random": (RandomBot, "plays any legal action at random"),
    "basic": (HeuristicBot, "rules of thumb: bids by hand strength, plays sensibly"),
    "strong": (SearchBot, "searches sampled deals, reads the others' bids, plays for the match"),
    "expert": (ExpertBot, "the strong bot's search with three times the time and more options"),
}


def levels() -> list[dict]:
    """The levels for the server to list: ``[{"level", "description"}, ...]``."""
    return [{"level": name, "description": desc} for name, (_, desc) in LEVELS.items()]


def make_bot(level: str, seed: int = 0, *, strict: bool = False, **budget) -> Bot:
    """A bot of that level; ``budget`` (``iterations=``, ``ms=``: the strong bot's, which
    ``expert`` multiplies) is for the search levels only.
    ``strict`` (tests): a failing rule of thumb raises instead of falling back."""
    try:
        cls = LEVELS[level][0]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}") from None
    return cls(seed, strict=strict, **budget)


__all__ = ["LEVELS", "Bot", "ExpertBot", "HeuristicBot", "RandomBot", "SearchBot", "levels", "make_bot"]
