"""My games (#/games, static/js/games.js): friends' calls to a new room, then my running matches across rooms from
GET /api/players/me/games, those waiting for my move first with a tap into the room, the
count on the header's link."""

from __future__ import annotations

from .helpers import WsTable, call
from .lobby_helpers import SIZES, as_player, no_sideways_overflow, player

GAME = {"ru": "Мои игры", "pl": "Moje gry", "en": "My games"}
YOUR_MOVE = {"ru": "Ваш ход", "pl": "Twój ruch", "en": "Your move"}


def started(server, host: dict, guests: list[dict], seed: int) -> dict:
    room = call(server, "POST", "/api/rooms", host["token"], {"variant": "thousand-1001", "seats": 1 + len(guests)})
    for n, p in enumerate(guests, start=1):
        call(server, "POST", f"/api/rooms/{room['code']}/seats/{n}", p["token"])
    return call(server, "POST", f"/api/rooms/{room['code']}/start", host["token"])


def test_my_games_lists_my_turns_first_and_opens_the_room_T8(server, new_page, screenshots):
    # T-8: who bids first is the engine's; the page only shows the server's to_act
    me, a, b = player(server, "Oleńka"), player(server, "Аркадий"), player(server, "Bob")
    rooms = [started(server, a, [me, b], 1), started(server, me, [a, b], 2), started(server, b, [a, me], 3)]
    # the seeds are the server's: in the first room the others act (over the websocket) until my turn comes
    with WsTable(server, rooms[0]["code"], [a["token"], me["token"], b["token"]]) as table:
        for _ in range(20):
            seat = table.view["to_act"][0]
            if seat == 1:
                break
            table.act(seat, table.views[seat]["view"]["legal"][0])
    assert any(g["my_turn"] for g in call(server, "GET", "/api/players/me/games", me["token"]))
    call(server, "POST", f"/api/rooms/{rooms[0]['code']}/again", a["token"])  # a friend waits in a new room
    games = call(server, "GET", "/api/players/me/games", me["token"])
    mine = [g["room"] for g in games if g["my_turn"]]
    assert {g["room"] for g in games} == {r["code"] for r in rooms}
    for lang in ("ru", "pl", "en"):
        for size, viewport in SIZES.items():
            page = as_player(new_page(viewport, lang=lang), me)
            page.goto(server + "/#/games")
            page.locator("[data-role=games-mine]").wait_for()
            assert page.locator(".games-page h1").inner_text() == GAME[lang]
            page.locator(".games-calls .call").wait_for()  # the friend's call, as on the home page
            assert "Аркадий" in page.locator(".games-calls .call").inner_text()
            assert page.locator("[data-role=games-mine] h2").inner_text() == YOUR_MOVE[lang]
            assert page.locator("[data-role=games-mine] .game-row").evaluate_all(
                "(els) => els.map((e) => e.dataset.room)") == mine
            others = page.locator("[data-role=games-others] .game-row").evaluate_all("(els) => els.map((e) => e.dataset.room)")
            assert sorted(mine + others) == sorted(r["code"] for r in rooms)
            # the count of my turns by the header's link
            page.wait_for_function("(n) => document.querySelector('#games-count').textContent === n",
                                   arg=str(len(mine)) if mine else "")
            no_sideways_overflow(page)
            page.screenshot(path=str(screenshots / f"games-{lang}-{size}.png"), full_page=True)
            assert not page.errors, page.errors
    if mine:  # muting a room of mine: still listed, no longer counted; unmuting counts it again
        row = page.locator(f"[data-role=games-mine] .game-row[data-room='{mine[0]}']")
        row.locator("[data-role=mute]").click()
        page.locator(f".game-row[data-room='{mine[0]}'][data-muted=true]").wait_for()
        page.wait_for_function("(n) => document.querySelector('#games-count').textContent === n",
                               arg=str(len(mine) - 1) if len(mine) > 1 else "")
        page.locator(f".game-row[data-room='{mine[0]}'] [data-role=mute]").click()
        page.locator(f".game-row[data-room='{mine[0]}'][data-muted=false]").wait_for()
        page.wait_for_function("(n) => document.querySelector('#games-count').textContent === n", arg=str(len(mine)))
        # one tap into the room whose move is mine
        page.locator("[data-role=games-mine] .game-row .btn").first.click()
        page.wait_for_url(f"**/room/{mine[0]}")
        page.locator(".felt").wait_for()
