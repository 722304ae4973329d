"""Actions as values: parsed once, written the same way on the wire (ENGINE_API.md).

An action's text is ``kind`` or ``kind:argument``; the argument is a card
(``play:TH``), a card and a seat (``give:QS>2``), an amount (``bid:120``), a
seat (``spare:2``) or a word (``take:top``, ``trump:last``, ``order:trump:H``)::

    >>> Action.parse("give:QS>2")
    Action.parse('give:QS>2')
    >>> a = Action.parse("give:QS>2"); (a.kind, a.card, a.target)
    ('give', 'QS', 2)
    >>> str(Action.parse("bid:120")), Action.parse("bid:120").amount
    ('bid:120', 120)

Families build the legal lists as strings (the wire form) and receive the
parsed :class:`Action` in their stage methods; :meth:`Action.parse` caches
every text it has seen, so the hot path parses each distinct action once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import is_card

#: Kinds whose numeric argument is a seat, not an amount.
SEAT_KINDS = frozenset({"spare"})
#: The notation of each kind (ENGINE_API.md, "Action notation"): the forms its
#: argument may take (see :attr:`Action.form`; "" for none).  Only the reason
#: for a refusal reads it (engine/errors.py: malformed or against the rules).
KIND_FORMS: dict[str, frozenset[str]] = {
    **{kind: frozenset({"card"}) for kind in ("play", "marriage", "discard", "swap")},
    "give": frozenset({"card>seat"}),
    **{kind: frozenset({"number"}) for kind in ("bid", "contract", "blind")},
    "spare": frozenset({"seat"}),
    "take": frozenset({"word", "card"}),  # take:top (Тысяча 2p), take:QD (Король)
    **{kind: frozenset({"word"}) for kind in ("trump", "order")},
    **{kind: frozenset({""}) for kind in ("pass", "throw", "refuse", "keep", "strike", "accept",
                                          "writeoff")},
}
_CACHE: dict[str, Action] = {}
_CACHE_LIMIT = 200_000  # distinct texts are few (cards x seats, amounts); garbage is not kept
MAX_SEATS = 4  # the most seats of any variant (Кинг, Тысяча with four, Король)


@dataclass(slots=True)
class LogEntry:
    """One entry of a deal's log (rule C-5): the acting seat (None for a reveal,
    "show:..."), the action as that seat (and those in ``seen_by``) saw it, and
    what everyone else sees (None: the same, the entry is public)."""

    seat: int | None
    action: str  # as the acting seat (and those in ``seen_by``) saw it
    hidden: str | None = None  # what everyone else sees, or None if public
    seen_by: frozenset[int] = field(default_factory=frozenset)  # seats that see ``action``

    def as_seen_by(self, seat: int | None) -> str:
        """The entry's text for ``seat``: ``action`` for the seats that see it,
        else ``hidden`` ("" when the others see nothing of it, e.g. a hand shown
        to one seat only)."""
        if self.hidden is None or (seat is not None and seat in self.seen_by):
            return self.action
        return self.hidden


@dataclass(frozen=True, slots=True)
class Action:
    """One parsed action. ``text`` is its wire form (``str(action)``)."""

    text: str
    kind: str
    arg: str = ""  # everything after the first ":" ("" when there is none)
    card: str | None = None
    target: int | None = None  # a seat: the receiver of a give, the spare hand's seat
    amount: int | None = None  # a bid or a contract
    #: The public log entry of this action by each seat (log entries never change,
    #: so one object serves every match: the hot path of card play).
    public: tuple[LogEntry, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def parse(cls, text: str) -> Action:
        """The action written ``text``; ``ValueError`` for a text that is not one."""
        action = _CACHE.get(text)
        if action is None:
            action = cls._parse(text)
            if len(_CACHE) < _CACHE_LIMIT:
                _CACHE[text] = action
        return action

    @classmethod
    def _parse(cls, text: str) -> Action:
        if type(text) is not str or not text or len(text) > 40:
            raise ValueError(f"not an action: {text!r}")
        kind, colon, arg = text.partition(":")
        if not kind.isalpha() or (colon and not arg):
            raise ValueError(f"not an action: {text!r}")
        card = target = amount = None
        head, arrow, to = arg.partition(">")
        if arrow:
            if not (is_card(head) and to.isdigit()):
                raise ValueError(f"not an action: {text!r} (expected kind:CARD>SEAT)")
            card, target = head, int(to)
        elif is_card(arg):
            card = arg
        elif arg.isdigit():
            if kind in SEAT_KINDS:
                target = int(arg)
            else:
                amount = int(arg)
        return cls(text, kind, arg, card, target, amount,
                   tuple(LogEntry(s, text) for s in range(MAX_SEATS)))

    @classmethod
    def make(cls, kind: str, arg: str | int | None = None, *, to: int | None = None) -> Action:
        """Build an action from its parts: ``make("give", "QS", to=2)`` is ``give:QS>2``."""
        text = kind if arg is None else f"{kind}:{arg}"
        if to is not None:
            text += f">{to}"
        return cls.parse(text)

    @property
    def form(self) -> str:
        """The form of the argument: "" (none), "card", "card>seat", "seat",
        "number" or "word" (anything else: ``top``, ``last``, ``trump:H``)."""
        if not self.arg:
            return ""
        if self.card is not None:
            return "card>seat" if self.target is not None else "card"
        if self.target is not None:
            return "seat"
        return "number" if self.amount is not None else "word"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action.parse({self.text!r})"


def is_well_formed(text: object, kinds: frozenset[str]) -> bool:
    """Whether ``text`` is written as an action of one of ``kinds`` (a variant's)
    in the notation: a string that parses, of a kind in ``kinds`` with an
    argument of a form that kind takes (:data:`KIND_FORMS`)."""
    if type(text) is not str:
        return False
    try:
        action = _CACHE.get(text) or Action._parse(text)  # a refused text is not cached
    except ValueError:
        return False
    return action.kind in kinds and action.form in KIND_FORMS.get(action.kind, ())
