"""Two server processes (two apps) on one PostgreSQL and one Redis serve the same room."""

from __future__ import annotations

import random
from contextlib import ExitStack

import pytest

from engine import VARIANTS, find_variant

from .conftest import serve_two
from .helpers import Game, auth, connect, make_room, short_options

pytestmark = [pytest.mark.postgres, pytest.mark.skipif(not VARIANTS, reason="no variant yet")]


@pytest.fixture
def two_servers(pg_database):
    yield from serve_two(pg_database)


@pytest.mark.timeout(120)
def test_a_room_split_over_two_processes(two_servers):
    a, b = two_servers
    variant_id = VARIANTS[0]
    seats = find_variant(variant_id).seat_counts[0]
    options = short_options(variant_id)
    rng = random.Random(21)
    room, players = make_room(a, variant_id, seats, options, seed=777)
    with ExitStack() as stack:
        # Seat 0 talks to process A, the others to process B.
        clients = []
        for seat, player in enumerate(players):
            c = connect(a if seat == 0 else b, stack, room["code"], player, seat)
            c.wait_view(0)
            clients.append(c)
        game = Game(variant_id, seats, 777, find_variant(variant_id).resolve_options(options),
                    clients, room, players)
        for _ in range(25):
            if game.ref.is_over():
                break
            game.step(rng)
        # A chat line said in B reaches A.
        clients[1].send({"type": "chat", "text": "Cześć z drugiego procesu"})
        msg, _ = clients[0].recv_until(lambda m: m["type"] == "chat")
        assert msg["text"] == "Cześć z drugiego procesu"
        # Both processes agree on the log.
        va = a.get(f"/api/matches/{room['match']['id']}").json()["version"]
        vb = b.get(f"/api/matches/{room['match']['id']}").json()["version"]
        assert va == vb == game.version
        assert a.get(f"/api/rooms/{room['code']}", headers=auth(players[0])).status_code == 200
