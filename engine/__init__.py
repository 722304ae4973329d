"""Kozyr's game engine: the rules of Тысяча, Кинг and Король / Król.

Pure Python, no I/O.  Three lines to play::

    from engine import find_variant
    match = find_variant("thousand-1001").new_match(seats=3, seed=42)
    match.apply(match.to_act()[0], match.legal_actions(match.to_act()[0])[0])
"""

from .actions import Action
from .errors import AgainstTheRules, EngineError, IllegalAction, MalformedAction, NotYourTurn
from .match import Match
from .options import Option
from .registry import UnknownVariant, Variant, find_variant, registered_ids
from .variants import load_all as _load_all

_load_all()

#: Every variant id, families in the order of the rule book.
VARIANTS: list[str] = registered_ids()

__all__ = ["VARIANTS", "Action", "AgainstTheRules", "EngineError", "IllegalAction",
           "MalformedAction", "Match", "NotYourTurn", "Option", "UnknownVariant", "Variant",
           "find_variant"]
