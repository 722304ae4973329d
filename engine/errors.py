"""The engine's errors: the caller's mistakes, split by cause, and its own bugs.

Every caller's mistake is an :class:`IllegalAction` (a ``ValueError``), so
``except IllegalAction`` still catches them all; the subclasses say why, as a
server or a test may want to know without reading the message:

* :class:`NotYourTurn`: the seat may not act now — it is not its turn, nobody
  is to act (the match is over), or there is no such seat;
* :class:`MalformedAction`: the action is not one at all in this variant — not
  a string, not of the notation (ENGINE_API.md), a kind the variant never has,
  or an argument of the wrong form (``bid:abc``, ``play:ZZ``);
* :class:`AgainstTheRules`: a well-formed action of the seat to act that the
  rules do not allow now (rule C-6).
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """The caller's mistake: an action that is not legal in the current state
    (rule C-6), a seat that is not to act or does not exist.  Nothing changed."""


class NotYourTurn(IllegalAction):
    """The seat may not act now: not its turn, nobody to act, or no such seat."""


class MalformedAction(IllegalAction):
    """The action cannot be read as one of this variant's actions."""


class AgainstTheRules(IllegalAction):
    """A well-formed action of the seat to act that the rules forbid now (rule C-6)."""


class EngineError(RuntimeError):
    """A state the rules cannot reach: a bug in the engine, never the caller's
    mistake (the caller's are :class:`IllegalAction` and ``ValueError``)."""


def check(condition: bool, message: str) -> None:
    """Raise :class:`EngineError` unless ``condition`` holds (an invariant of the rules)."""
    if not condition:
        raise EngineError(message)
