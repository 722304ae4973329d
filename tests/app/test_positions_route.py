"""GET /api/matches/{id}/deals/{n}/positions: the engine's deal_positions of a finished deal."""

from __future__ import annotations

from contextlib import ExitStack

from engine import find_variant

from .helpers import Game, make_room, open_table


def test_deal_positions_route_serves_finished_deals_only(client):
    variant_id, seats, seed = "thousand-1001", 3, 7
    room, players = make_room(client, variant_id, seats, seed=seed)
    match_id = room["match"]["id"]
    url = f"/api/matches/{match_id}/deals/1/positions"
    r = client.get(url)
    assert r.status_code == 404 and r.json()["code"] == "unknown_deal"
    with ExitStack() as stack:
        clients = open_table(client, stack, room, players)
        game = Game(variant_id, seats, seed, find_variant(variant_id).resolve_options(None),
                    clients, room, players)

        def choose(rng):  # the quickest deal: bids end, the declarer throws in (T-15)
            seat = game.ref.to_act()[0]
            legal = game.ref.legal_actions(seat)
            return seat, next((a for a in ("throw", "pass") if a in legal), legal[0])

        game.choose = choose
        while not game.ref.history():
            game.step(None)
    r = client.get(url)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body == game.ref.deal_positions(1)
    assert body["steps"][0]["action"] is None and body["steps"][-1]["action"][1] == "throw"
    assert client.get(f"/api/matches/{match_id}/deals/2/positions").status_code == 404
    assert client.get("/api/matches/nope/deals/1/positions").status_code == 404
