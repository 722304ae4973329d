"""Variants: their fixed metadata, the factory of their matches, and the
registry behind ``find_variant`` / ``VARIANTS`` (ENGINE_API.md)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from .match import Match
from .options import Option


class UnknownVariant(KeyError):
    """``find_variant`` was given an id that no variant has."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message readable
        return str(self.args[0]) if self.args else "unknown variant"


class Variant:
    """Fixed metadata of one variant, and the factory of its matches."""

    def __init__(self, *, id: str, family: str, name: str, seat_counts: Sequence[int],
                 match_class: type[Match], options: Sequence[Option] = (),
                 rules: dict[str, Any] | None = None) -> None:
        self.id = id
        self.family = family
        self.name = name
        self.seat_counts = tuple(seat_counts)
        self.match_class = match_class
        self.options = tuple(options)
        self.rules = dict(rules or {})  # family-specific constants for this variant

    def __repr__(self) -> str:
        return f"find_variant({self.id!r})"

    def options_schema(self) -> list[dict]:
        return [o.schema() for o in self.options]

    def deck(self, seats: int) -> list[str]:
        """The cards this variant is played with at that many seats (rule C-2)."""
        return self.match_class.deck_for(seats)

    def strength(self, seats: int) -> dict[str, int]:
        """Card code -> the strength of its rank within its suit (higher wins)."""
        return self.match_class.strength_for(seats)

    def resolve_options(self, options: dict | None) -> dict:
        """The full option dict: defaults overridden by ``options`` (validated)."""
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ValueError(f"options must be a dict, got {type(options).__name__}")
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise ValueError(f"unknown option(s) for {self.id}: {', '.join(map(str, unknown))}; "
                             f"known: {', '.join(known) or 'none'}")
        out = {}
        for name, opt in known.items():
            out[name] = opt.validate(options[name]) if name in options else copy.deepcopy(opt.default)
        return out

    def new_match(self, seats: int, *, seed: int, options: dict | None = None,
                  first_dealer: int | None = None,
                  preset_deals: Sequence[dict] | None = None, deal_seeds: bool = False) -> Match:
        """A new match (ENGINE_API.md); ``deal_seeds``: the per-deal seed mode (rule C-3,
        ``Match._next_cards``), an engine setting, not a house rule: the rules are the same."""
        if isinstance(seats, bool) or not isinstance(seats, int) or seats not in self.seat_counts:
            raise ValueError(f"{self.id} is played by {' or '.join(map(str, self.seat_counts))} "
                             f"players, not {seats!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer, got {seed!r}")
        opts = self.resolve_options(options)
        if first_dealer is not None and (isinstance(first_dealer, bool)
                                         or not isinstance(first_dealer, int)
                                         or not 0 <= first_dealer < seats):
            raise ValueError(f"first_dealer must be a seat 0..{seats - 1}, got {first_dealer!r}")
        presets = [] if preset_deals is None else list(preset_deals)
        for i, p in enumerate(presets):
            if not isinstance(p, dict) or not isinstance(p.get("hands"), (list, tuple)):
                raise ValueError(f"preset deal {i}: expected a dict with 'hands' and 'rest'")
        if not isinstance(deal_seeds, bool):
            raise ValueError(f"deal_seeds must be True or False, got {deal_seeds!r}")
        return self.match_class(self, seats, seed, opts, first_dealer, presets, deal_seeds)


_REGISTRY: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    _REGISTRY[variant.id] = variant
    return variant


def find_variant(variant_id: str) -> Variant:
    try:
        return _REGISTRY[variant_id]
    except (KeyError, TypeError):
        raise UnknownVariant(f"unknown variant {variant_id!r}; known: {', '.join(_REGISTRY)}") from None


def registered_ids() -> list[str]:
    return list(_REGISTRY)
