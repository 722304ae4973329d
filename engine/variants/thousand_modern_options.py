"""Modern Тысяча's options: one list, two sets of defaults (rule M-35).

Each option names its rule, its group in the room form and one English
sentence the client translates by option name (README "Agreed additions").  ``check_options`` holds the checks that involve
more than one option (M-35, M-31).
"""

from __future__ import annotations

from ..options import Option

START_TOTALS = [f"start_total_{k}" for k in range(4)]


# name: (type, ru default, pl default, extra, rule, group, description)
_TABLE: list[tuple] = [
    ("goal", "int", 1000, 1000, {"min": 100, "max": 10000, "step": 5}, "T-30", "match",
     "The match ends when a total reaches this many points."),
    ("bid_step", "choice", 5, 10, {"allowed": (5, 10)}, "M-7", "bidding",
     "Bids and contracts are multiples of this step."),
    ("bid_cap", "choice", "marriages", "marriages", {"allowed": ("marriages", "none")}, "M-7",
     "bidding", "Bids are capped at 120 plus the marriages held, or only at 400."),
    ("round_to", "choice", 5, 10, {"allowed": (5, 10)}, "M-18", "scoring",
     "Card points are rounded to this multiple."),
    ("round5_up", "bool", True, True, {}, "M-18", "scoring",
     "When rounding to 10, a remainder of 5 rounds up."),
    ("declarer_rounds", "bool", False, False, {}, "M-19", "scoring",
     "The declarer's card points are rounded before they are checked against the contract."),
    ("marriage_first_lead", "bool", False, False, {}, "M-16", "play",
     "A marriage may be declared on any lead, not only after taking a trick."),
    ("ace_marriage", "bool", False, False, {}, "M-17", "play",
     "Four aces in one hand may be declared for 200 points."),
    ("must_beat", "bool", False, True, {}, "M-15", "play",
     "A follower of the led suit must play higher than the cards of that suit in the trick."),
    ("must_overtrump", "bool", False, True, {}, "M-15", "play",
     "A follower who trumps must play a higher trump than any trump in the trick."),
    ("blind", "bool", True, False, {}, "M-5", "bidding",
     "The first hand may open with a blind 120 before the cards are dealt; it scores double."),
    ("blind_min_total", "int", 0, 0, {"min": -1000, "max": 1000, "step": 5}, "M-5", "bidding",
     "A blind opening needs at least this total."),
    ("golden", "bool", False, False, {}, "M-9", "bidding",
     "The first round of deals is played at 120 by the first hand, every score doubled."),
    ("silence", "bool", False, False, {}, "M-8", "bidding",
     "A player whose total is low enough may only pass in the bidding."),
    ("silence_below", "int", -300, -300, {"min": -1000, "max": 0, "step": 10}, "M-8", "bidding",
     "The total at or below which a player is silenced."),
    ("redeal_nines", "bool", True, False, {}, "M-6", "talon",
     "A player dealt all four nines may demand a redeal."),
    ("redeal_weak_below", "int", 14, 0, {"min": 0, "max": 40, "step": 1}, "M-6", "talon",
     "A player dealt fewer card points than this may demand a redeal (0: never)."),
    ("redeal_talon_below", "int", 5, 0, {"min": 0, "max": 30, "step": 1}, "M-13", "talon",
     "At a winning bid of 100 the declarer may strike a talon worth fewer points (0: never)."),
    ("redeal_talon_nines", "bool", False, False, {}, "M-13", "talon",
     "At a winning bid of 100 the declarer may strike a talon holding two nines."),
    ("writeoff", "choice", "minus", "bomb", {"allowed": ("off", "minus", "bomb")}, "M-14", "talon",
     "The declarer may give up the deal: minus the contract, or a bomba for 0."),
    ("writeoff_pays", "choice", "half", "sixty", {"allowed": ("half", "sixty")}, "M-21", "scoring",
     "On a write-off each opponent writes half the contract, or 60."),
    ("writeoff_limit", "int", 3, 1, {"min": 0, "max": 10, "step": 1}, "M-14", "talon",
     "How many times a player may write off in a match (0: no limit)."),
    ("sitter_scores", "choice", "points", "aces_marriage",
     {"allowed": ("points", "aces_marriage")}, "M-20", "scoring",
     "The dealer who sits out writes the talon's points, or 50 an ace plus its marriages."),
    ("bolts", "choice", "zero_score", "off", {"allowed": ("off", "zero_score", "zero_tricks")},
     "M-24", "bolts", "An opponent who scores nothing (or takes no trick) gets a bolt."),
    ("bolt_count", "choice", "total", "total", {"allowed": ("total", "row")}, "M-24", "bolts",
     "The fine comes with every third bolt, or only with three in a row."),
    ("bolt_penalty", "int", 120, 120, {"min": 0, "max": 500, "step": 5}, "M-24", "bolts",
     "The fine for three bolts."),
    ("barrel", "choice", "frozen", "open", {"allowed": ("off", "frozen", "open")}, "M-25",
     "barrel", "Near the goal a player sits on the barrel: frozen for a few deals, or open."),
    ("barrel_gap", "int", 120, 200, {"min": 10, "max": 500, "step": 10}, "M-25", "barrel",
     "The barrel starts this many points below the goal."),
    ("barrel_deals", "int", 3, 3, {"min": 1, "max": 5, "step": 1}, "M-25", "barrel",
     "Deals a player may stay on the frozen barrel."),
    ("barrel_penalty", "int", 120, 120, {"min": 0, "max": 500, "step": 5}, "M-25", "barrel",
     "Points lost when falling off the barrel."),
    ("barrel_fail", "choice", "keep", "keep", {"allowed": ("keep", "minus")}, "M-25", "barrel",
     "A failed contract on the barrel costs a barrel deal, or its points and the barrel."),
    ("barrel_knockoff", "bool", True, False, {}, "M-26", "barrel",
     "A player mounting the barrel knocks off the one already on it."),
    ("barrel_third_fall", "choice", "zero", "none", {"allowed": ("none", "zero")}, "M-26",
     "barrel", "The third fall from the barrel sets the total to 0."),
    ("dump", "bool", True, False, {}, "M-28", "scoring",
     "A total of exactly 555 is dumped to 0."),
    ("dump_negative", "bool", False, False, {}, "M-28", "scoring",
     "A total of exactly -555 is dumped to 0 as well."),
    ("goal_strict", "bool", False, False, {}, "M-29", "match",
     "The goal must be passed, not only reached."),
] + [(name, "int", 0, 0, {"min": -1000, "max": 9995, "step": 5}, "M-31", "match",
      f"Seat {k}'s total at the start of the match.") for k, name in enumerate(START_TOTALS)]


def options_for(variant: str) -> list[Option]:
    """The options with the defaults of ``thousand-ru`` or ``tysiac-pl`` (M-35)."""
    column = 2 if variant == "thousand-ru" else 3
    return [Option(row[0], row[1], row[column], row[5], group=row[6], description=row[7],
                         **row[4]) for row in _TABLE]


def check_options(o: dict, seats: int) -> None:
    """Checks across options (M-35, M-31); ValueError with a clear message."""
    goal = o["goal"]
    if o["barrel"] != "off" and o["barrel_gap"] >= goal:
        raise ValueError(f"barrel_gap ({o['barrel_gap']}) must be below the goal ({goal})")
    threshold = goal - o["barrel_gap"]
    for k, name in enumerate(START_TOTALS):
        value = o[name]
        if value == 0:  # M-31: a room form may send every option, zeros included
            continue
        if k >= seats:
            raise ValueError(f"{name}: the match has no seat {k} ({seats} seats)")
        if value >= goal:
            raise ValueError(f"{name} ({value}) must be below the goal ({goal})")
        if o["barrel"] == "frozen" and value > threshold:
            raise ValueError(f"{name} ({value}) is above the barrel ({threshold})")
