"""GET /api/players/me/games: my running matches across rooms, whose turn it is (the
engine's to_act of the stored log) and since when; mine first, then the longest waiting."""

from __future__ import annotations

from contextlib import ExitStack

from .helpers import act_and_wait, auth, make_room, new_player, open_table


def seat_and_start(client, host: dict, guests: list[dict], variant: str = "thousand-1001", seed: int = 4) -> dict:
    room = client.post("/api/rooms", json={"variant": variant, "seats": 1 + len(guests)}, headers=auth(host)).json()
    for n, p in enumerate(guests, start=1):
        assert client.post(f"/api/rooms/{room['code']}/seats/{n}", headers=auth(p)).status_code == 200
    r = client.post(f"/api/rooms/{room['code']}/start", headers=auth(host), json={"seed": seed})
    assert r.status_code == 200, r.text
    return r.json()


def test_my_games_lists_running_matches_mine_first_T8(client):
    # T-8: the bidding opens with the seat after the dealer; whoever is to act is the engine's
    me, a, b = new_player(client, "Ja"), new_player(client, "Ala"), new_player(client, "Bob")
    first = seat_and_start(client, a, [me, b], seed=4)
    second = seat_and_start(client, me, [a, b], seed=9)
    games = client.get("/api/players/me/games", headers=auth(me)).json()
    assert {g["room"] for g in games} == {first["code"], second["code"]}
    for g in games:
        mine = next(x["seat"] for x in g["seats"] if x["player"] == me["id"])
        assert g["my_turn"] == (mine in g["to_act"]) and g["to_act"] and g["status"] == "playing"
    assert [g["my_turn"] for g in games] == sorted((g["my_turn"] for g in games), reverse=True)
    # an action moves the turn: the list follows the stored log
    room = next(r for r in (first, second) if r["code"] == games[0]["room"])
    players_of = {g["room"]: g["seats"] for g in games}
    with ExitStack() as stack:
        tokens = {p["id"]: p for p in (me, a, b)}
        seats = sorted(players_of[room["code"]], key=lambda x: x["seat"])
        clients = open_table(client, stack, room, [tokens[x["player"]] for x in seats])
        view = clients[0].last_view["view"]
        seat = view["to_act"][0]
        act_and_wait(clients, seat, "pass" if "pass" in clients[seat].last_view["view"]["legal"] else
                     clients[seat].last_view["view"]["legal"][0], clients[seat].last_view["version"])
    after = next(g for g in client.get("/api/players/me/games", headers=auth(me)).json() if g["room"] == room["code"])
    assert after["version"] == 1 and after["to_act"] != [seat]
    assert after["since"] >= games[0]["since"]
    # others do not see my games; a player with none gets []; no token: 401
    loner = new_player(client, "Sam")
    assert client.get("/api/players/me/games", headers=auth(loner)).json() == []
    assert client.get("/api/players/me/games").status_code == 401


def test_a_finished_or_waiting_room_is_not_a_game(client):
    room, players = make_room(client, "thousand-1001", 3, start=False)
    assert client.get("/api/players/me/games", headers=auth(players[0])).json() == []


def test_a_muted_room_is_listed_but_marked_and_unmuting_undoes_it(client):
    me, a = new_player(client, "Ja"), new_player(client, "Ala")
    room = seat_and_start(client, a, [me, new_player(client, "Bob")], seed=4)
    url = f"/api/players/me/muted-rooms/{room['code']}"
    assert [g["muted"] for g in client.get("/api/players/me/games", headers=auth(me)).json()] == [False]
    assert client.put(url, headers=auth(me)).status_code == 204
    assert client.put(url, headers=auth(me)).status_code == 204  # twice: still muted, no error
    assert [g["muted"] for g in client.get("/api/players/me/games", headers=auth(me)).json()] == [True]
    # muting is mine alone
    assert [g["muted"] for g in client.get("/api/players/me/games", headers=auth(a)).json()] == [False]
    # the code as typed in lower case finds the room
    assert client.delete(f"/api/players/me/muted-rooms/{room['code'].lower()}", headers=auth(me)).status_code == 204
    assert [g["muted"] for g in client.get("/api/players/me/games", headers=auth(me)).json()] == [False]
    assert client.put("/api/players/me/muted-rooms/NOSUCH99", headers=auth(me)).status_code == 404
    assert client.put(url).status_code == 401
