"""The typed columns of the stored score rows (app/db/rows.py)."""

from __future__ import annotations

from app.db.rows import made


def test_made_is_the_engine_s_word_T25_M30():
    # a modern row whose change is negative (a bolt fine) though the contract was made
    assert made({"declarer": 0, "made": True, "scores": [-20, 10, 5]}) is True
    assert made({"declarer": 0, "made": False, "scores": [-120, 10, 5]}) is False
    assert made({"declarer": 0, "made": None, "thrown": True, "scores": [-100, 0, 0]}) is None
    # rows stored before the engine wrote made: the sign of the declarer's score
    assert made({"declarer": 1, "scores": [0, 120, 0]}) is True
    assert made({"declarer": None, "scores": [1, 2, 3]}) is None
