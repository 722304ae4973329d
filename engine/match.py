"""The Match: the state of one match, shared by every family (ENGINE_API.md).

A family module subclasses :class:`Match` and fills in a few hooks:

* ``STAGES``                 ``{stage: Stage(phase, legal, do)}``: for each internal
                             stage (``self.stage``) its public phase, the method
                             listing a seat's legal actions (strings, the wire
                             form) and, per action kind, the method carrying out
                             a legal :class:`~engine.actions.Action`
* ``_start_deal()``          deal the next deal (presets first, then the shuffle)
* ``turn``                   (an attribute) the one seat whose action is awaited
* ``_why_illegal(seat, a)``  (optional) a precise reason for a rejected action
* ``_view_extra(v)``         add the family's own keys to a view: only what every
                             seat sees alike (a seat's own keys are the base's:
                             ``_seen_log(seat)`` filters the deal's log)
* ``_locations()``           where every card of the deck lies (for invariants)
* ``_redeal_hidden(seat, rng)`` used by :meth:`Match.determinize`

The base class owns the things that must be the same everywhere: the action
log, legality checking (rule C-6), the per-seat redaction of the deal's log
(rule C-5), the scoresheet and the history, options and seeds (rules C-3, C-7).
Its neighbours, one job each: ``errors`` (the caller's mistakes by cause),
``options`` (house rules), ``registry`` (variants and ``find_variant``),
``dealing`` (the seeded shuffle), ``hidden`` (``determinize``'s placement of
unknown cards) and ``places`` (final places).
"""

from __future__ import annotations

import copy
import marshal
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, NamedTuple, Protocol

from .actions import _CACHE as _PARSED
from .actions import Action, LogEntry, is_well_formed
from .cards import cards_in, hand_order
from .dealing import shuffle
from .errors import AgainstTheRules, MalformedAction, NotYourTurn


class Stage(NamedTuple):
    """One internal stage of a deal: its public phase, the name of the method
    that lists a seat's legal actions, and per action kind the name of the
    method that carries out a legal action ``(seat, Action)``."""

    phase: str
    legal: str
    do: dict[str, str]


class VariantInfo(Protocol):
    """What a match reads of its variant (:class:`engine.registry.Variant`)."""

    id: str
    rules: dict[str, Any]

    def new_match(self, seats: int, *, seed: int, options: dict | None = None,
                  first_dealer: int | None = None,
                  preset_deals: Sequence[dict] | None = None, deal_seeds: bool = False) -> Match: ...


_MUTABLE = (list, dict, set)
_ATOMS = (int, str, bool, float, type(None))


def plain_copy(obj: Any) -> Any:
    """A deep copy of plain data (dicts, lists, tuples, str, int, float, bool,
    None) several times faster than ``copy.deepcopy`` (``marshal`` copies such
    data in C); anything else is handed to ``copy.deepcopy``.  Views, rows and
    history entries are plain data, copied on every call."""
    try:
        return marshal.loads(marshal.dumps(obj))
    except ValueError:  # not plain data
        return copy.deepcopy(obj)


_STALE = object()  # ``Match._legal_seat`` when no legal list is kept


def _changed(kept: tuple, now: tuple) -> bool:
    """Whether a table of ``now`` is another object than the one ``kept`` at its place."""
    for a, b in zip(kept, now):  # noqa: B905 - both are the five public tables
        if a is not b:
            return True
    return False


class Match:
    """The whole state of one match; see ENGINE_API.md for the public methods."""

    # Families set these.
    strength: dict[str, int] = {}
    deck: list[str] = []
    STAGES: ClassVar[dict[str, Stage]] = {}
    #: Attributes never changed in place (replaced when they change, or shared
    #: on purpose): a copy shares them.  ``_APPEND_ONLY``: lists only appended
    #: to, whose items never change: a copy copies the list, not the items.
    _SHARED: ClassVar[frozenset[str]] = frozenset({
        "variant", "options", "preset_deals", "start_totals", "last_trick", "last_deal",
        "_result", "_dealt", "rng", "_legal_seat", "_legal_list", "_public_now", "_hand_order"})
    _APPEND_ONLY: ClassVar[frozenset[str]] = frozenset({
        "actions", "log", "_scoresheet", "_history", "_presets_left"})
    _phase_of: ClassVar[dict[str, str]] = {}
    _legal_of: ClassVar[dict[str, Callable[[Any, int], list[str]]]] = {}
    _do_of: ClassVar[dict[str, dict[str, Callable[[Any, int, Action], None]]]] = {}
    _kinds: ClassVar[frozenset[str]] = frozenset()  # every kind of action of the variant
    #: Kinds of actions (the part before ":") that a page confirms before sending:
    #: calls that end the deal for the caller or cost points at once (``view["confirm"]``).
    confirm_kinds: frozenset[str] = frozenset()
    #: Kinds of actions never taken back, each with why (``take_back_refusal``): what
    #: they reveal or commit to is not in the views' cards.
    take_back_never: ClassVar[dict[str, str]] = {}
    _hand_order: dict[str, tuple[int, int]] | None = None  # _sorted's keys, made at its first call
    _record_end = False  # deal_positions: keep the positions as a deal ends
    _end_positions: dict | None = None
    _talon_went_to: int | None = None  # deal_positions: set by _talon_taken during an action

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Resolve the ``STAGES`` table to the class's own (maybe overridden) methods."""
        super().__init_subclass__(**kwargs)
        cls._phase_of = {name: st.phase for name, st in cls.STAGES.items()}
        cls._legal_of = {name: getattr(cls, st.legal) for name, st in cls.STAGES.items()}
        cls._do_of = {name: {kind: getattr(cls, fn) for kind, fn in st.do.items()}
                      for name, st in cls.STAGES.items()}
        cls._kinds = frozenset(kind for st in cls.STAGES.values() for kind in st.do)

    @classmethod
    def deck_for(cls, seats: int) -> list[str]:
        return list(cls.deck)

    @classmethod
    def strength_for(cls, seats: int) -> dict[str, int]:
        return dict(cls.strength)

    def __init__(self, variant: VariantInfo, seats: int, seed: int, options: dict,
                 first_dealer: int | None, preset_deals: list[dict], deal_seeds: bool = False) -> None:
        self.variant = variant
        self.seats = seats
        self.seed = seed
        self.options = options
        self.first_dealer_arg = first_dealer
        self.preset_deals = preset_deals
        self._presets_left = list(preset_deals)
        self.rng = random.Random(seed)  # rule C-3: every shuffle and draw from the seed
        # The per-deal seed mode (duplicate matches; see _next_cards): the shuffles of
        # deal k come from a generator of (deal key, k) alone.  The key is the seed; a
        # determinized copy gets a key of its own (its future deals are not the real ones).
        self.deal_seeds = deal_seeds
        self._deal_key = seed
        self._rng_deal = 0  # the deal whose generator ``rng`` is (per-deal mode)
        self.actions: list[tuple[int, str]] = []
        self.log: list[LogEntry] = []
        self.deal_no = 0
        self._scoresheet: list[dict] = []
        self._history: list[dict] = []
        self._deal_actions_start = 0
        self._dealt: dict = {}
        self._legal_seat: object = _STALE  # the seat whose legal list is kept (see legal_actions)
        self._legal_list: list[str] = []
        self.turn: int | None = None  # the seat to act (families set it)
        self.last_trick: dict | None = None
        self.last_deal: dict | None = None
        self.over = False
        self._result: dict | None = None
        self._public: tuple | None = None  # (rows, the public tables, their copies): _public_tables
        self._seen_logs: dict[int | None, tuple[list, list]] = {}  # seat: (log, its view): _seen_log
        self._public_now: dict | None = None  # the public part of this moment's views: view_parts
        self.start_totals = [0] * seats  # see start_from_totals
        self.stage = ""
        if first_dealer is None:
            first_dealer = self.rng.randrange(seats)  # rule C-3: draw for the first dealer
        self.dealer = first_dealer
        self._setup()
        self._begin_deal()

    # -- public interface ---------------------------------------------------

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.variant.id} seats={self.seats} "
                f"deal={self.deal_no} actions={len(self.actions)}>")

    def to_act(self) -> list[int]:
        if self.over:
            return []
        return [self.turn]  # type: ignore[list-item]  # None only once the match is over

    def legal_actions(self, seat: int) -> list[str]:
        # The list of the one seat to act is kept until the next action (the hot
        # path: a bot lists, then applies).  ``is``: the very int object the list
        # was made for, never a bool or a float equal to it.
        if seat is self._legal_seat:
            return self._legal_list.copy()
        if type(seat) is not int or not 0 <= seat < self.seats:
            self._check_seat(seat)  # raises ValueError
        if self.over or seat != self.turn:
            return []
        legal = self._legal_list = self._legal_of[self.stage](self, seat)
        self._legal_seat = seat
        return legal.copy()

    def apply(self, seat: int, action: str) -> None:
        """Check an action (rule C-6) and carry it out; IllegalAction otherwise."""
        if seat is self._legal_seat:
            legal = self._legal_list
        else:
            if type(seat) is not int or not 0 <= seat < self.seats:  # bool is not a seat either
                raise NotYourTurn(f"no seat {seat!r} at this table (seats 0..{self.seats - 1})")
            legal = [] if self.over or seat != self.turn else self._legal_of[self.stage](self, seat)
        if action not in legal or type(action) is not str:
            self._reject(seat, action)
        self._legal_seat = _STALE
        self._public_now = None
        self.actions.append((seat, action))
        act = _PARSED.get(action) or Action.parse(action)  # _do, inlined (the hot path)
        self._do_of[self.stage][act.kind](self, seat, act)

    def _reject(self, seat: int, action: object) -> None:
        """Raise the :class:`IllegalAction` that says why (engine/errors.py)."""
        if not isinstance(action, str):
            raise MalformedAction(f"an action is a string, not {type(action).__name__}")
        if self.over:
            raise NotYourTurn("the match is over")
        if seat not in self.to_act():
            raise NotYourTurn(f"it is not seat {seat}'s turn (to act: {self.to_act()})")
        reason = self._why_illegal(seat, action) or "not a legal action now"
        cause = AgainstTheRules if is_well_formed(action, self._kinds) else MalformedAction
        raise cause(f"{action[:40]!r}: {reason}")

    def apply_unchecked(self, seat: int, action: str) -> None:
        """Fast path: carry out an action known to be legal (no checks)."""
        self._legal_seat = _STALE
        self._public_now = None
        self.actions.append((seat, action))
        self._do(seat, action)

    def _public_tables(self) -> tuple:
        """Copies of the tables every seat sees alike (last trick, scoresheet, last deal,
        options, result), made again only when one of them changed: the views of one
        moment, and of the steps until a table changes, share them (and the server
        encodes them once: app/rooms/live.py), so a view is read, not changed, by
        whoever receives it."""
        tables = (self.last_trick, self._scoresheet, self.last_deal, self.options, self._result)
        rows = len(self._scoresheet)
        cached = self._public
        # Each table is replaced when it changes; the scoresheet only grows (its rows are
        # new dicts, never changed after).  The originals are kept with the copies, so
        # ``is`` cannot meet a reused id.  Only a changed table is copied again: the
        # others keep their copies (a trick's end does not copy the scoresheet).
        if cached is not None and cached[0] == rows and not _changed(cached[1], tables):
            return cached[2]
        if cached is None:
            copies = [plain_copy(t) for t in tables]
        else:
            had, was, kept = cached
            copies = [k if t is w else plain_copy(t) for t, w, k in zip(tables, was, kept)]  # noqa: B905
            sheet = self._scoresheet
            if sheet is was[1] and had != rows:  # the same list, grown: copy only the new rows
                copies[1] = kept[1] + plain_copy(sheet[had:]) if had < rows else plain_copy(sheet)
        self._public = (rows, tables, tuple(copies))
        return self._public[2]

    def view(self, seat: int | None) -> dict:
        public, own = self.view_parts(seat)
        return {**public, **own}

    def view_parts(self, seat: int | None) -> tuple[dict, dict]:
        """``view(seat)`` in two dicts, ``view(seat) == {**public, **own}`` with no key
        in both: ``public``, the keys every seat (and a spectator) sees alike now, the
        very same dict for every seat until the next action (built once per moment:
        a server shows one moment to every seat, and may encode this part once), to
        be read, never changed; ``own``, what only ``seat`` sees (``seat``, ``hand``,
        ``log``, ``legal``, ``confirm``), made for this call."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.seats):
            self._check_seat(seat)  # raises ValueError
        legal = [] if seat is None else self.legal_actions(seat)
        kinds = self.confirm_kinds
        own = {
            "seat": seat,
            "hand": [] if seat is None else self._sorted(self._hand(seat)),
            "log": self._seen_log(seat),
            "legal": legal,
            "confirm": [a for a in legal if a.partition(":")[0] in kinds] if legal and kinds else [],
        }
        public = self._public_now
        if public is None:
            public = self._public_now = self._public_view()
        return public, own

    def _public_view(self) -> dict:
        """The keys of a view alike for every seat (see view_parts), with the family's."""
        last_trick, scoresheet, last_deal, options, result = self._public_tables()
        v: dict[str, Any] = {
            "variant": self.variant.id,
            "seats": self.seats,
            "phase": self.phase,
            "deal": self.deal_no,
            "dealer": self.dealer,
            "to_act": self.to_act(),
            "hand_sizes": [len(self._hand(s)) for s in range(self.seats)],
            "trick": [],
            "last_trick": last_trick,
            "trump": None,
            "face_up": [],
            "scoresheet": scoresheet,
            "totals": self._totals(),
            "last_deal": last_deal,
            "options": options,
            "result": result,
        }
        self._view_extra(v)
        return v

    def _seen_log(self, seat: int | None) -> list:
        """The deal's log as ``seat`` sees it.  An entry never changes once logged and
        a deal's log only grows (a new deal starts a new list), so each seat's view
        of it is kept and extended; the view gets a copy of the list (its [seat,
        text] pairs are shared, read like the rest of a view)."""
        log = self.log
        kept = self._seen_logs.get(seat)
        if kept is None or kept[0] is not log or len(kept[1]) > len(log):
            kept = self._seen_logs[seat] = (log, [])
        seen = kept[1]
        if len(seen) < len(log):
            seen += [[e.seat, e.as_seen_by(seat)] for e in log[len(seen):]]
        return seen.copy()

    def bot_view(self, seat: int) -> dict:
        """The part of ``view(seat)`` the rule-of-thumb bots read, built without
        copying the public tables (scoresheet, last deal, last trick, result,
        options): the search bots build one for every step of every play-out.
        Every key but ``rows`` (how many scoresheet rows there are) holds what
        ``view(seat)`` holds; nothing hidden from ``seat`` is in it."""
        v: dict[str, Any] = {
            "variant": self.variant.id,
            "seats": self.seats,
            "seat": seat,
            "deal": self.deal_no,
            "dealer": self.dealer,
            "hand": self._sorted(self._hand(seat)),
            "hand_sizes": [len(self._hand(s)) for s in range(self.seats)],
            "trick": [],
            "trump": None,
            "face_up": [],
            "rows": len(self._scoresheet),
            "log": self._seen_log(seat),
            "legal": self.legal_actions(seat),
        }
        self._view_extra(v)
        return v

    def scoresheet(self) -> list[dict]:
        return plain_copy(self._scoresheet)

    def role_table(self) -> list[dict]:
        return []

    def history(self) -> list[dict]:
        return plain_copy(self._history)

    def is_over(self) -> bool:
        return self.over

    def result(self) -> dict | None:
        return copy.deepcopy(self._result)

    def determinize(self, seat: int, rng: random.Random) -> Match:
        """A copy where every card ``seat`` does not know is dealt anew."""
        self._check_seat(seat)
        twin = self.copy()
        # Future deals must not be the real ones: the copy gets its own chance.
        bits = rng.getrandbits(64)
        twin.rng = random.Random(bits)
        # The per-deal mode: later deals from a key of the copy's own (``rng`` is drawn
        # from as before), and a redeal of this deal from twin.rng.
        twin._deal_key = bits
        twin._rng_deal = twin.deal_no
        twin._presets_left = []
        twin._legal_seat = _STALE
        twin._redeal_hidden(seat, rng)
        return twin

    def copy(self) -> Match:
        """An independent copy of the match (the search bots' hot path).

        Every family keeps its changing state as plain data at most two levels
        deep (lists, dicts and sets of atoms, tuples or such containers), so
        the copy copies those two levels; attributes in ``_SHARED`` are shared
        and lists in ``_APPEND_ONLY`` copied without their items."""
        twin = object.__new__(type(self))
        d = twin.__dict__
        shared, append_only = self._SHARED, self._APPEND_ONLY
        for key, value in self.__dict__.items():
            t = type(value)
            if key in shared:
                d[key] = value
            elif key in append_only:
                d[key] = value.copy()
            elif t is list:
                d[key] = [x.copy() if type(x) in _MUTABLE else x for x in value]
            elif t is dict:
                d[key] = {k: x.copy() if type(x) in _MUTABLE else x for k, x in value.items()}
            elif t is set:
                d[key] = set(value)
            elif t in _ATOMS or t is tuple or t is frozenset:
                d[key] = value
            else:
                d[key] = copy.deepcopy(value)
        twin.rng = random.Random()  # the same generator state, without copying it item by item
        twin.rng.setstate(self.rng.getstate())
        twin._legal_seat = _STALE
        twin._public = None
        twin._public_now = None
        twin._seen_logs = {}
        return twin

    __copy__ = copy

    def __deepcopy__(self, memo: dict) -> Match:
        return self.copy()

    def start_from_totals(self, totals: Sequence[int]) -> None:
        """Test hook (ENGINE_API.md): play this match as if earlier deals had
        left these running totals, one per seat.  Only before the first action;
        ``ValueError`` otherwise, or for a family whose totals are not points
        carried from deal to deal (Король / Król count tricks per round)."""
        if self.actions or self._scoresheet:
            raise ValueError("start_from_totals: only before the first action")
        if (len(totals) != self.seats
                or any(isinstance(t, bool) or not isinstance(t, int) for t in totals)):
            raise ValueError(f"start_from_totals: expected {self.seats} integers, got {totals!r}")
        if not self._accepts_start_totals:
            raise ValueError(f"{self.variant.id}: a match cannot start from given totals")
        self.start_totals = list(totals)
        self._legal_seat = _STALE
        self._public = None
        self._public_now = None
        self._totals_changed()

    def card_locations(self) -> dict[str, list[str]]:
        """Every card of the deck by the place it lies in (``hand:S``, ``won:S``,
        ``talon``, ``trick`` ...): the whole truth, for tests and invariant checks,
        never for a player."""
        return self._locations()

    def replay(self) -> Match:
        """A new match from the same seed and options with the same actions applied."""
        twin = self._fresh()
        for seat, action in self.actions:
            twin.apply(seat, action)
        return twin

    def take_back_refusal(self) -> str | None:
        """Why the last action may not be taken back (None: it may).  A take-back may
        hide only what every seat saw anyway (rule C-5): it is refused once the match
        is over, for a kind the family never takes back (``take_back_never``: a blind
        call, a redeal demanded, a marriage declared), for an action that ended a deal
        (its score is written), and for an action after which some seat's view holds
        a card it did not hold before, other than a card of the action now face up on
        the trick (a talon shown, a card given face down, the next hand dealt).  The
        state before the action is rebuilt from the seed and the log (``replay``)."""
        if not self.actions:
            return "there is no action to take back"
        if self.over:
            return "the match is over"
        seat, text = self.actions[-1]
        why = self.take_back_never.get(text.partition(":")[0])
        if why is not None:
            return why
        before = self._fresh()
        for s, a in self.actions[:-1]:
            before.apply_unchecked(s, a)
        if len(before._history) != len(self._history):
            return "an action that ended a deal cannot be taken back"
        named = cards_in(text)
        for s in range(self.seats):
            after = self.view(s)
            on_table = named & cards_in([after["trick"], after["last_trick"]])
            if cards_in(after) - cards_in(before.view(s)) - on_table:
                return "that action showed cards to another seat; they cannot be unseen"
        return None

    def deal_positions(self, deal: int) -> dict:
        """Where every card lay at each step of a finished deal (public, rule C-5).

        ``{"deal", "steps"}``: step 0 is the deal as dealt, then one step per
        action of the deal (a struck Król deal's actions included), each
        ``{"action": [seat, action] | None, "hands", "talon", "trick",
        "taken", "trump", "marriages", "contract", "declarer", "won_by",
        "talon_to"}`` plus the family's own piles (``face_up``, ``stock``,
        ``aside`` ...); a key the family lacks is None.  The last step shows
        the deal as it ended, before the next deal is dealt.  ``ValueError``
        for a deal that is not finished.

        What happened at a step, as the engine decided it (a client infers
        nothing from the piles):

        * ``won_by``: the seat that took the trick this step's card completed
          (rule C-4; that trick is already in his ``taken`` pile, its cards are
          the previous step's ``trick`` and this step's card), else None;
        * ``talon_to``: the seat into whose hand the talon (Тысяча's прикуп /
          musik) went at this step, else None (always None in the families
          without a talon, Кинг and Король / Król).  Тысяча 1001 and the modern
          3-4 seat game: the declarer, at the call that ends the bidding (T-14,
          M-10); the two-player games: the declarer, at ``take:`` (his pair;
          T-19, M-11); ``thousand-1000``: the declarer, at the last ``give:``,
          when the talon's last card goes into his hand (T-17)."""
        numbers = [h["deal"] for h in self._history]
        if type(deal) is not int or deal not in numbers:
            raise ValueError(f"deal {deal!r} is not a finished deal of this match "
                             f"(finished: {numbers[0] if numbers else 0}..{len(numbers)})")
        index = numbers.index(deal)
        start = sum(len(h["actions"]) for h in self._history[:index])
        twin = self._fresh()
        for seat, action in self.actions[:start]:
            twin.apply_unchecked(seat, action)
        twin._record_end = True
        steps = [{"action": None, **twin._positions_now(), "won_by": None, "talon_to": None}]
        for seat, action in self._history[index]["actions"]:
            trick_before = twin.last_trick
            twin._talon_went_to = None
            twin.apply_unchecked(seat, action)
            ended, twin._end_positions = twin._end_positions, None
            # Every family replaces last_trick (a new dict naming its winner) when a
            # trick is complete, and only then (rule C-4).
            closed = twin.last_trick if twin.last_trick is not trick_before else None
            steps.append({"action": [seat, action], **(ended or twin._positions_now()),
                          "won_by": closed["winner"] if closed else None,
                          "talon_to": twin._talon_went_to})
        return {"deal": deal, "steps": steps}

    def _fresh(self) -> Match:
        """A new match from the same seed, options, first dealer, presets and totals."""
        twin = self.variant.new_match(self.seats, seed=self.seed, options=self.options,
                                      first_dealer=self.first_dealer_arg,
                                      preset_deals=self.preset_deals, deal_seeds=self.deal_seeds)
        if any(self.start_totals):
            twin.start_from_totals(self.start_totals)
        return twin

    def _positions_now(self) -> dict:
        """One step of :meth:`deal_positions`: the common keys, then the family's."""
        out: dict[str, Any] = {
            "hands": [self._sorted(self._hand(s)) for s in range(self.seats)],
            "talon": None, "trick": [], "taken": None, "trump": None,
            "marriages": None, "contract": None, "declarer": None,
        }
        out.update(self._positions())
        return out

    # -- helpers for families ----------------------------------------------

    @property
    def phase(self) -> str:
        return "match_over" if self.over else self._phase()

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise ValueError(f"no seat {seat!r} at this table (seats 0..{self.seats - 1})")

    def _sorted(self, cards: Iterable[str]) -> list[str]:
        order = self._hand_order
        if order is None:
            order = self._hand_order = hand_order(self.strength)
        return sorted(cards, key=order.__getitem__)

    def _next_cards(self) -> tuple[dict | None, list[str]]:
        """The next preset deal (checked by the family), else a seeded shuffle.

        Rule C-3.  By default every shuffle comes from the match's one generator,
        so a redeal shifts every later deal.  In the per-deal seed mode
        (``new_match(..., deal_seeds=True)``) deal number k (``deal_no``: 1, 2, ...
        the deal's row in the scoresheet; a redeal or a voided deal keeps its
        number) is shuffled by ``random.Random(f"{seed}:{k}")``, made when deal k
        is first shuffled; a redeal of deal k takes that generator's next shuffle.
        Two matches of one seed in this mode deal the same cards as deal k's r-th
        shuffle whatever happened before.  The first dealer is drawn from
        ``random.Random(seed)`` in both modes."""
        if self._presets_left:
            return self._presets_left.pop(0), []
        if self.deal_seeds and self._rng_deal != self.deal_no:
            self.rng = random.Random(f"{self._deal_key}:{self.deal_no}")
            self._rng_deal = self.deal_no
        deck = list(self.deck)
        shuffle(self.rng, deck)
        return None, deck

    def _check_preset(self, preset: dict, shape: Sequence[int], rest_size: int) -> tuple[list[list[str]], list[str]]:
        """Validate a preset against hand sizes per seat and the rest's size."""
        hands = [list(h) for h in preset.get("hands", [])]
        rest = list(preset.get("rest", []))
        if len(hands) != len(shape):
            raise ValueError(f"preset deal: {len(hands)} hands for {len(shape)} seats")
        for s, (h, n) in enumerate(zip(hands, shape, strict=True)):
            if len(h) != n:
                raise ValueError(f"preset deal: seat {s} must be dealt {n} cards, got {len(h)}")
        if len(rest) != rest_size:
            raise ValueError(f"preset deal: 'rest' must hold {rest_size} cards, got {len(rest)}")
        every = [c for h in hands for c in h] + rest
        bad = [c for c in every if c not in self.strength]
        if bad:
            raise ValueError(f"preset deal: not cards of this deck: {bad}")
        if len(set(every)) != len(every) or len(every) != len(self.deck):
            raise ValueError("preset deal: each card of the deck must appear exactly once")
        return hands, rest

    def _talon_taken(self, seat: int) -> None:
        """A family calls this where its rule puts the talon into ``seat``'s hand:
        ``deal_positions`` reports it as the step's ``talon_to``."""
        if self._record_end:
            self._talon_went_to = seat

    def _log(self, seat: int | None, action: str, hidden: str | None = None,
             seen_by: Iterable[int] = ()) -> None:
        self.log.append(LogEntry(seat, action, hidden, frozenset(seen_by)))

    def _begin_deal(self) -> None:
        self.deal_no += 1
        self.log = []
        self._deal_actions_start = len(self.actions)
        self._dealt = {}
        self._start_deal()

    def _finish_deal(self, row: dict, *, next_dealer: int | None = None, over: bool = False,
                     result: dict | None = None) -> None:
        """Record the deal's row and history entry, then start the next deal or end."""
        row = {"deal": self.deal_no, "dealer": self.dealer, **row}
        if self._record_end:
            self._end_positions = self._positions_now()
        self._scoresheet.append(row)
        self._history.append({
            "deal": self.deal_no,
            "dealer": self.dealer,
            **plain_copy(self._dealt),
            "actions": [list(a) for a in self.actions[self._deal_actions_start:]],
            "row": plain_copy(row),
        })
        self.last_deal = {"deal": self.deal_no, "scores": list(row.get("scores", []))}
        if over:
            self.over = True
            self._result = result
            return
        if next_dealer is not None:
            self.dealer = next_dealer
        self._begin_deal()

    def _totals(self) -> list[int]:
        if self._scoresheet:
            return list(self._scoresheet[-1]["totals"])
        return list(self.start_totals)

    # -- hooks ----------------------------------------------------------------

    _accepts_start_totals = False

    def _totals_changed(self) -> None:
        """``start_totals`` was set before the first action (families that accept it)."""

    def _setup(self) -> None:
        """Family state that lives across deals (scores, titles, ...)."""

    def _start_deal(self) -> None:
        raise NotImplementedError

    def _phase(self) -> str:
        return self._phase_of[self.stage]

    def _do(self, seat: int, action: str) -> None:
        """Carry out a legal action: the stage's method for the action's kind."""
        act = _PARSED.get(action) or Action.parse(action)
        self._do_of[self.stage][act.kind](self, seat, act)

    def _why_illegal(self, seat: int, action: str) -> str | None:
        return None

    def _hand(self, seat: int) -> list[str]:
        raise NotImplementedError

    def _view_extra(self, v: dict) -> None:
        pass

    def _locations(self) -> dict[str, list[str]]:
        """Every card of the deck by where it lies (for invariant tests)."""
        raise NotImplementedError

    def _positions(self) -> dict[str, Any]:
        """The family's keys of a :meth:`deal_positions` step (plain data)."""
        return {}

    def _redeal_hidden(self, seat: int, rng: random.Random) -> None:
        raise NotImplementedError
