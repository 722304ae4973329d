"""Король / Król: ``korol-ru`` and ``krol-pl`` (rules/korol.md).

Four players race for tricks: the first to a target becomes King, then
Prince, Soldier, and the last is the Peasant (Polish: Sweeper, stored as
``peasant`` like every lowest title).  A match is the crowning (round 0)
plus N reigns (option ``reigns``, rule R-4); each reign is played under the
titles of the round before.  The shared machinery is in
:mod:`korol_play`, the versions in :mod:`korol_ru` and :mod:`korol_pl`.

Views add: ``titles`` (the titles in force this round, all null in the
crowning), ``new_titles`` (taken so far this round, null while active),
``tallies``, ``active`` (in turn order), ``order`` (this round's turn order),
``round`` / ``rounds``, ``standings`` (R-4 points so far), ``role_table``,
``spares`` (cards in each seat's face-down spare hand), ``stock`` / ``aside``
(how many cards lie there); Король adds ``prince_leads`` (R-25), Król
``strikes`` and ``striker`` (R-42).  ``face_up`` holds the turned trump card
for the whole deal.

Log events that are not actions: ``[null, "show:6H"]`` (the trump turned, or
the Peasant's hand shown to a taker only, R-23), ``[s, "take:AH"]`` (the
tribute's automatic take: the taker sees the card, all others ``take:??``), ``[s, "title:king"]``, ``[s, "hand>2"]`` (a whole hand passed
face down: R-43, R-46, R-47) and ``[s, "aside"]``.
"""

from __future__ import annotations

from ..options import Option
from ..registry import Variant, register
from .korol_pl import KrolPlMatch
from .korol_play import DECK, SEATS
from .korol_ru import KorolRuMatch

REIGNS = Option("reigns", "int", 3, "R-4", label="Reigns after the crowning", min=0, max=10,
                group="match",
                description="How many reigns are played after the crowning round.")
FIRST_LEAD = Option("first_lead_card", "card", "KC", "R-34",
                    label="Its holder leads first in the crowning", allowed=tuple(DECK),
                    group="play",
                    description="The player who holds this card leads the first trick of the crowning.")

register(Variant(id="korol-ru", family="korol", name="Король (Russian)", seat_counts=(SEATS,),
                 match_class=KorolRuMatch, options=(REIGNS,)))
register(Variant(id="krol-pl", family="korol", name="Król (Polish)", seat_counts=(SEATS,),
                 match_class=KrolPlMatch, options=(REIGNS, FIRST_LEAD)))
