"""The random bot: uniform over the legal actions, from its own seeded generator."""

from __future__ import annotations

import random

from .base import Bot, Determinize


class RandomBot(Bot):
    level = "random"

    def choose(self, view: dict, rng: random.Random | None = None,
               determinize: Determinize | None = None) -> str:
        legal = view["legal"]
        if not legal:
            raise ValueError("the seat has no legal action now")
        return (rng or self.rng).choice(legal)
