"""Exports: the match's scoresheet / role table as CSV (the variant's own columns too,
a column per seat for per-seat lists), and the player's match list as CSV.  Text a
spreadsheet would run as a formula is quoted; the CSV says no more than the match's
page (rule C-5: a running match's scoresheet rows are public already)."""

from __future__ import annotations

import csv
import io

from app.api.matches import _cell, scoresheet_csv_text

from .helpers import auth, make_room
from .test_ratings import play_match, rclient  # noqa: F401  (the module's app with fast bots)

EVIL = "=HYPERLINK(\"http://x\")"


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_cells_numbers_kept_formulas_quoted():
    assert _cell(-20) == -20 and _cell(None) is None and _cell(1.5) == 1.5
    assert _cell("=1+1") == "'=1+1" and _cell("@x") == "'@x" and _cell("+7") == "'+7" and _cell("-x") == "'-x"
    assert _cell("Ольга") == "Ольга" and _cell(["KH", "QS"]) == "KH QS"


def test_thousand_scoresheet_csv_has_the_contract_columns(rclient):  # noqa: F811
    players, _, match_id = play_match(rclient, rated=False, variant="thousand-1000", seats=3, seed=4,
                                      names=[EVIL, "Paweł", "Борис"])
    detail = rclient.get(f"/api/matches/{match_id}").json()
    r = rclient.get(f"/api/matches/{match_id}/scoresheet.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert f'filename="kozyr-{match_id}.csv"' in r.headers["content-disposition"]
    table = rows_of(r.text)
    head, body = table[0], table[1:]
    names = ["'" + EVIL, "Paweł", "Борис"]
    assert head[:8] == ["deal", "dealer", *[f"{n} score" for n in names], *[f"{n} total" for n in names]]
    assert not any(cell.startswith("=") for row in table for cell in row)
    sheet = detail["scoresheet"]
    assert len(body) == len(sheet) and sheet
    for key in ("declarer", "bid"):  # Тысяча's own columns, one each
        assert key in head
        col = head.index(key)
        assert [row[col] for row in body] == ["" if x.get(key) is None else str(x[key]) for x in sheet]
    for row, deal in zip(body, sheet, strict=True):
        assert row[:8] == [str(deal["deal"]), str(deal["dealer"]), *map(str, deal["scores"]), *map(str, deal["totals"])]


def test_korol_csv_has_the_role_table(rclient):  # noqa: F811
    players, _, match_id = play_match(rclient, rated=False, seed=13)
    detail = rclient.get(f"/api/matches/{match_id}").json()
    table = rows_of(rclient.get(f"/api/matches/{match_id}/scoresheet.csv").text)
    names = [s["name"] for s in detail["seats"]]
    blank = table.index([])
    assert blank == 1 + len(detail["scoresheet"])
    head, body = table[blank + 1], table[blank + 2:]
    assert head[:9] == ["round", *[f"{n} title" for n in names], *[f"{n} tricks" for n in names]]
    assert [row[:9] for row in body] == [[str(x["round"]), *x["titles"], *map(str, x["tricks"])]
                                         for x in detail["role_table"]]
    assert scoresheet_csv_text(detail) == rclient.get(f"/api/matches/{match_id}/scoresheet.csv").text


def test_running_match_csv_says_what_its_page_says(rclient):  # noqa: F811
    room, players = make_room(rclient, "king-classic", 4, {}, seed=3)
    match_id = room["match"]["id"]
    detail = rclient.get(f"/api/matches/{match_id}").json()
    r = rclient.get(f"/api/matches/{match_id}/scoresheet.csv", headers=auth(players[0]))
    assert r.status_code == 200 and r.text == scoresheet_csv_text(detail)
    assert len(rows_of(r.text)) == 1 + len(detail["scoresheet"])  # no deal finished: the head only
    assert rclient.get("/api/matches/nope/scoresheet.csv").status_code == 404
