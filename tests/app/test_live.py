"""Live play over the websocket: whole matches of every variant the engine has.

Each seat is its own client choosing random legal actions from its own view;
every message to every seat is checked against a reference match (no leaked
cards, the view is exactly the engine's)."""

from __future__ import annotations

import random
import time
import zlib
from contextlib import ExitStack

import pytest

from engine import VARIANTS, find_variant

from .helpers import Game, auth, make_room, open_table, short_options

TABLES = [(v, n) for v in VARIANTS for n in find_variant(v).seat_counts]
MATCH_SECONDS = 150  # a match that has not ended by then is stopped (checked so far, reported)


def start_game(client, stack, variant_id: str, seats: int, seed: int) -> Game:
    options = short_options(variant_id)
    room, players = make_room(client, variant_id, seats, options, seed=seed)
    clients = open_table(client, stack, room, players)
    resolved = find_variant(variant_id).resolve_options(options)
    game = Game(variant_id, seats, seed, resolved, clients, room, players)
    for c in clients:
        game.check(c, c.last_view)
    return game


@pytest.mark.timeout(MATCH_SECONDS + 60)
@pytest.mark.parametrize("variant_id,seats", TABLES, ids=[f"{v}-{n}p" for v, n in TABLES])
def test_full_match_over_websockets(client, variant_id, seats):
    rng = random.Random(zlib.crc32(f"{variant_id}:{seats}".encode()))
    seed = rng.randrange(2**40)
    with ExitStack() as stack:
        game = start_game(client, stack, variant_id, seats, seed)
        deadline = time.monotonic() + MATCH_SECONDS
        while not game.ref.is_over():
            if time.monotonic() > deadline:
                pytest.skip(f"{variant_id}: not over after {game.version} actions in {MATCH_SECONDS}s")
            game.step(rng)
        code = game.room["code"]
        match_id = game.room["match"]["id"]
        # The room learns the match is over.
        for c in game.clients:
            msg = game.drain(c, lambda m: m["type"] == "room" and m["room"]["status"] == "finished")
            assert msg["room"]["match"]["version"] == game.version
        # History: scoresheet / role table, every deal, the seed now revealed.
        detail = client.get(f"/api/matches/{match_id}").json()
        assert detail["status"] == "finished" and detail["seed"] == seed
        assert detail["result"] == game.ref.result()
        assert detail["scoresheet"] == game.ref.scoresheet()
        assert detail["role_table"] == game.ref.role_table()
        assert detail["deals"] == game.ref.history()
        # The export replays to the same match.
        data = client.get(f"/api/matches/{match_id}/export.json").json()
        twin = find_variant(data["variant"]).new_match(
            data["seat_count"], seed=data["seed"], options=data["options"],
            first_dealer=data["first_dealer"], preset_deals=data["preset_deals"])
        for s, a in data["actions"]:
            twin.apply(s, a)
        assert twin.is_over() and twin.result() == game.ref.result()
        assert twin.scoresheet() == game.ref.scoresheet()
        text = client.get(f"/api/matches/{match_id}/export.txt").text
        assert game.players[0]["name"] in text and f"Seed: {seed}" in text
        # A rematch: new match, same seats, everyone gets a fresh view.
        r = client.post(f"/api/rooms/{code}/rematch", headers=auth(game.players[0]))
        assert r.status_code == 200, r.text
        new_id = r.json()["match"]["id"]
        assert new_id != match_id and r.json()["match"]["number"] == 2
        for seat, c in enumerate(game.clients):
            msg, _ = c.recv_until(lambda m: m["type"] == "view" and m["match"] == new_id)
            assert msg["version"] == 0 and msg["view"]["seat"] == seat
            assert msg["view"]["legal"] or seat not in msg["view"]["to_act"]
