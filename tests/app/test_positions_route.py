"""GET /api/matches/{id}/deals/{n}/positions: the engine's deal_positions of a finished deal."""

from __future__ import annotations

from contextlib import ExitStack

from engine import find_variant

from .helpers import Game, make_room, open_table


def thrown_in_deal(client, stack: ExitStack, room: dict, players: list[dict], variant_id: str, seats: int,
                   seed: int) -> Game:
    """The room's first deal played over the websocket the quickest way: the bids end (or
    all pass and the forced declarer takes the talon) and the declarer throws in (T-15)."""
    clients = open_table(client, stack, room, players)
    game = Game(variant_id, seats, seed, find_variant(variant_id).resolve_options(None), clients, room, players)

    def choose(rng):
        seat = game.ref.to_act()[0]
        legal = game.ref.legal_actions(seat)
        return seat, next((a for a in ("throw", "pass") if a in legal), legal[0])

    game.choose = choose
    while not game.ref.history():
        game.step(None)
    return game


def test_deal_positions_route_serves_finished_deals_only(client):
    variant_id, seats, seed = "thousand-1001", 3, 7
    room, players = make_room(client, variant_id, seats, seed=seed)
    match_id = room["match"]["id"]
    url = f"/api/matches/{match_id}/deals/1/positions"
    r = client.get(url)
    assert r.status_code == 404 and r.json()["code"] == "unknown_deal"
    with ExitStack() as stack:
        game = thrown_in_deal(client, stack, room, players, variant_id, seats, seed)
    r = client.get(url)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body == game.ref.deal_positions(1)
    assert body["steps"][0]["action"] is None and body["steps"][-1]["action"][1] == "throw"
    assert client.get(f"/api/matches/{match_id}/deals/2/positions").status_code == 404
    assert client.get("/api/matches/nope/deals/1/positions").status_code == 404


def test_match_and_positions_routes_carry_places_won_by_and_talon_to(client):
    """The engine's result places (R-4), each step's trick winner (C-4) and talon taker
    (T-14) pass through the routes as the engine gives them, and the OpenAPI says so."""
    import random

    variant_id, seats, seed = "korol-ru", 4, 11
    room, players = make_room(client, variant_id, seats, {"reigns": 0}, seed=seed)
    match_id = room["match"]["id"]
    rng = random.Random(seed)
    with ExitStack() as stack:
        clients = open_table(client, stack, room, players)
        game = Game(variant_id, seats, seed, find_variant(variant_id).resolve_options({"reigns": 0}),
                    clients, room, players)
        while not game.ref.is_over():
            game.step(rng)
    detail = client.get(f"/api/matches/{match_id}").json()
    assert detail["result"] == game.ref.result()
    assert sorted(detail["result"]["places"]) == [1, 2, 3, 4]
    listed = client.get(f"/api/rooms/{room['code']}/matches").json()
    assert [m["result"]["places"] for m in listed if m["id"] == match_id] == [detail["result"]["places"]]
    body = client.get(f"/api/matches/{match_id}/deals/1/positions").json()
    assert body == game.ref.deal_positions(1)
    assert all("won_by" in s and "talon_to" in s and s["talon_to"] is None for s in body["steps"])
    assert any(s["won_by"] is not None for s in body["steps"])
    schema = client.get("/openapi.json").json()["components"]["schemas"]
    assert {"won_by", "talon_to"} <= set(schema["PositionStep"]["properties"])
    assert "places" in schema["MatchResult"]["properties"]


def test_positions_route_names_the_talon_taker_T14(client):
    variant_id, seats, seed = "thousand-1001", 3, 5
    room, players = make_room(client, variant_id, seats, seed=seed)
    with ExitStack() as stack:  # everyone passes: the forced declarer takes the talon, then throws in
        thrown_in_deal(client, stack, room, players, variant_id, seats, seed)
    steps = client.get(f"/api/matches/{room['match']['id']}/deals/1/positions").json()["steps"]
    taken = [(s["talon_to"], s["declarer"]) for s in steps if s["talon_to"] is not None]
    assert len(taken) == 1 and taken[0][0] == taken[0][1]
