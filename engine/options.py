"""House rules a room sets when it is created (rule C-7): :class:`Option`,
one entry of ``Variant.options_schema()`` and its check of a value."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from .cards import is_card
from .errors import EngineError

#: The groups a room-creation form shows the options in (``Option.group``).
OPTION_GROUPS = ("bidding", "talon", "play", "scoring", "barrel", "bolts", "match")


@dataclass(frozen=True)
class Option:
    """One house rule a room may set when it is created.

    ``description`` is one English sentence saying what the option does (the
    client translates it by the option's name) and ``group`` one of
    :data:`OPTION_GROUPS`."""

    name: str
    type: str  # "int" | "bool" | "choice" | "permutation" | "card"
    default: Any
    rule: str
    label: str = ""
    description: str = ""
    group: str = "match"
    min: int | None = None
    max: int | None = None
    step: int | None = None
    allowed: tuple | None = None

    def schema(self) -> dict:
        out: dict[str, Any] = {"name": self.name, "type": self.type,
                               "default": copy.deepcopy(self.default), "rule": self.rule}
        if self.label:
            out["label"] = self.label
        out["description"] = self.description
        out["group"] = self.group
        if self.type == "int":
            out.update(min=self.min, max=self.max, step=self.step or 1)
        if self.allowed is not None:
            out["allowed"] = list(self.allowed)
        return out

    def validate(self, value: Any) -> Any:
        bad = f"option {self.name!r}: "
        if self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(bad + f"expected an integer, got {value!r}")
            if self.min is not None and value < self.min:
                raise ValueError(bad + f"{value} is below the minimum {self.min}")
            if self.max is not None and value > self.max:
                raise ValueError(bad + f"{value} is above the maximum {self.max}")
            step = self.step or 1
            if (value - (self.min or 0)) % step:
                raise ValueError(bad + f"{value} is not a multiple of {step}")
            return value
        if self.type == "bool":
            if not isinstance(value, bool):
                raise ValueError(bad + f"expected true or false, got {value!r}")
            return value
        if self.type == "choice":
            if value not in (self.allowed or ()):
                raise ValueError(bad + f"{value!r} is not one of {list(self.allowed or ())}")
            return value
        if self.type == "permutation":
            allowed = list(self.allowed or ())
            if (not isinstance(value, (list, tuple)) or len(value) != len(allowed)
                    or sorted(map(str, value)) != sorted(allowed)):
                raise ValueError(bad + f"expected each of {allowed} exactly once, got {value!r}")
            return list(value)
        if self.type == "card":
            if not is_card(value) or (self.allowed is not None and value not in self.allowed):
                raise ValueError(bad + f"{value!r} is not a card of this deck")
            return value
        raise EngineError(f"unknown option type {self.type}")
