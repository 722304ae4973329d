"""Where the CPU-bound work runs (README "Where the work runs"): strong bots decide in
worker processes, never on the worker threads that serve the database reads, so a
table of strong bots plays on while those threads are all taken and while other
rooms join and chat; argon2 hashes on threads of its own; the history of a running
match is replayed once per version, however many ask."""

from __future__ import annotations

import dataclasses
import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager

import pytest
from anyio import to_thread
from starlette.testclient import TestClient

from app.main import create_app
from app.rooms.botpool import Ask, ask_for, think
from engine import IllegalAction, find_variant
from engine.bots import make_bot

from .conftest import make_settings
from .helpers import act_and_wait, auth, connect, make_room, new_player, open_table
from .test_bots_server import add_bot, new_room, start


@pytest.fixture(scope="module")
def sclient(database_url):
    """An app whose bots (and takeovers) are strong, with two database worker threads."""
    app = create_app(make_settings(database_url, bot_delay=0.0, bot_think_ms=20, takeover_level="strong",
                                   worker_threads=2, passphrase_time_cost=1, passphrase_memory_kib=8192))
    with TestClient(app) as c:
        yield c
    app.state.db.dispose()


async def _borrow_all() -> list[object]:
    limiter = to_thread.current_default_thread_limiter()
    owners = [object() for _ in range(int(limiter.total_tokens))]
    for owner in owners:
        await limiter.acquire_on_behalf_of(owner)
    return owners


def _release(owners: list[object]) -> None:
    limiter = to_thread.current_default_thread_limiter()
    for owner in owners:
        limiter.release_on_behalf_of(owner)


@contextmanager
def database_threads_taken(client: TestClient):
    """Every token of the app's default thread limiter (the database's worker threads,
    ``worker_threads``) held by the test: nothing else runs there meanwhile."""
    owners = client.portal.call(_borrow_all)
    try:
        yield
    finally:
        client.portal.call(_release, owners)


def _bot_table(client: TestClient) -> tuple[dict, dict, str]:
    host = new_player(client)
    room = new_room(client, host, "thousand-1001", 3)
    for seat in (1, 2):
        assert add_bot(client, room["code"], seat, host, "strong").status_code == 200
    room = start(client, room["code"], host, seed=5)
    return host, room, room["match"]["id"]


def _host_at_bot_table(client: TestClient, stack: ExitStack):
    """A strong-bot table with its host connected (welcomed): (connection, match id)."""
    host, room, match_id = _bot_table(client)
    c = connect(client, stack, room["code"], host, 0)
    c.recv_until(lambda m: m["type"] == "welcome")
    return c, match_id


def test_strong_bots_play_on_while_the_database_threads_are_all_taken(sclient):
    state = sclient.app.state
    with ExitStack() as stack:
        c, match_id = _host_at_bot_table(sclient, stack)
        live = state.live[match_id]
        with database_threads_taken(sclient):
            c.send({"type": "takeover", "seat": 0})  # a strong bot plays the host's seat too
            c.wait_view(live.version + 8, timeout=120)  # eight decisions, no database thread free
        assert 0 in state.bots.takeover_of(match_id)
        c.send({"type": "back"})
        c.recv_until(lambda m: m["type"] == "presence" and not m["seats"][0]["takeover"])
    pool = state.bots.pool
    assert pool.decisions >= 8 and pool.pids and os.getpid() not in pool.pids


def test_a_strong_table_plays_on_while_another_room_joins_and_chats(sclient):
    state = sclient.app.state
    with ExitStack() as stack:
        c, match_id = _host_at_bot_table(sclient, stack)
        c.send({"type": "takeover", "seat": 0})
        live = state.live[match_id]
        c.wait_view(live.version + 2, timeout=120)
        decided = state.bots.pool.decisions
        # Meanwhile: another room, joined and chatted in.
        other, players = make_room(sclient, "king-classic", 4, start=False)
        guest = connect(sclient, stack, other["code"], players[1], 1)
        guest.recv_until(lambda m: m["type"] == "welcome")
        guest.send({"type": "chat", "text": "привет"})
        said, _ = guest.recv_until(lambda m: m["type"] == "chat")
        assert said["text"] == "привет"
        c.wait_view(live.version + 3, timeout=120)  # and the table still plays
        assert state.bots.pool.decisions > decided
        c.send({"type": "back"})
        c.recv_until(lambda m: m["type"] == "presence" and not m["seats"][0]["takeover"])


def test_a_decision_is_only_a_proposal_and_a_stale_one_is_dropped(sclient):
    """A worker answers for the version it was asked about; submitted through the match
    loop once the match has moved on, the answer is refused as stale, nothing applied."""
    state = sclient.app.state
    host, room, match_id = _bot_table(sclient)
    live = state.live[match_id]
    with ExitStack() as stack:
        c = connect(sclient, stack, room["code"], host, 0)
        c.recv_until(lambda m: m["type"] == "welcome")
        view, _ = c.recv_until(lambda m: m["type"] == "view" and 0 in m["view"]["to_act"], 60)
        version = view["version"]  # the bots wait for the host now
        proposal = sclient.portal.call(state.bots.pool.decide, ask_for(live, 0, "strong", 2, 20))
        assert proposal in view["view"]["legal"] and live.version == version
        c.act(view["view"]["legal"][-1], "mine", version)  # the person acts first
        ack, _ = c.recv_until(lambda m: m["type"] in ("ack", "error"))
        assert ack["type"] == "ack" and ack["seq"] == version
        seq = sclient.portal.call(state.matches.submit, live, 0, proposal, None, version)
        assert seq is None  # stale: dropped
        assert [(a.seat, a.client_id) for a in live.log[version:] if a.seat == 0] == [(0, "mine")]


def _ask(match, seat: int, bot_seed: int) -> Ask:
    return Ask("m-replayed", match.variant.id, match.seats, match.seed, None, None, None,
               list(match.actions), seat, "strong", bot_seed, 10)


def test_a_worker_brings_its_match_up_to_date_or_replays_it_after_a_take_back():
    """(think() itself, in this process.)  A worker's kept match is brought up to date by
    the new actions only; a log that does not extend it (a take-back) is replayed from
    the seed; an action the engine refuses raises."""
    v = find_variant("king-classic")
    match = v.new_match(4, seed=3)
    for _ in range(3):
        for _ in range(5):
            seat = match.to_act()[0]
            match.apply(seat, match.legal_actions(seat)[0])
        seat = match.to_act()[0]
        assert think(_ask(match, seat, 4))[0] in match.legal_actions(seat)
    shorter = v.new_match(4, seed=3)
    for s, a in match.actions[:-4]:
        shorter.apply(s, a)
    seat = shorter.to_act()[0]
    assert think(_ask(shorter, seat, 5))[0] in shorter.legal_actions(seat)
    bad = _ask(shorter, seat, 6)
    with pytest.raises(IllegalAction):
        think(dataclasses.replace(bad, actions=[*bad.actions, (seat, "play:XX")]))


def test_a_decision_that_waited_for_a_worker_thinks_only_what_is_left():
    """(think() in this process.)  The wait since ``asked_at`` comes off the budget: a
    decision asked a whole budget ago plays the rule of thumb at once (README "Where the
    work runs"); ``ask_for`` stamps the time it asked."""
    v = find_variant("thousand-1001")
    match = v.new_match(3, seed=4)
    seat = match.to_act()[0]
    ask = dataclasses.replace(_ask(match, seat, 7), ms=800, asked_at=time.time() - 2.0)
    assert ask.waited() >= 2.0 and _ask(match, seat, 7).waited() == 0.0
    action, _ = think(ask)
    assert action == make_bot("basic", 7).choose(match.view(seat), random.Random(7))
    assert make_bot("strong", 7, ms=800, waited=ask.waited()).ms == 0  # no search left to run


def test_argon2_runs_on_threads_of_its_own(sclient):
    state = sclient.app.state
    player = new_player(sclient)
    with database_threads_taken(sclient):  # hashing waits for none of them
        digest = sclient.portal.call(state.hashing.hash, "a passphrase of mine")
        assert sclient.portal.call(state.hashing.check, digest, "a passphrase of mine") == (True, None)
        assert sclient.portal.call(state.hashing.check, None, "a passphrase of mine") == (False, None)
    assert any(t.name.startswith("kozyr-argon2") for t in threading.enumerate())
    r = sclient.put("/api/players/me/passphrase", json={"login": f"login {player['id']}",
                                                        "passphrase": "another passphrase"},
                    headers=auth(player))
    assert r.status_code == 200, r.text
    r = sclient.post("/api/sign-in/passphrase", json={"login": f"login {player['id']}",
                                                      "passphrase": "another passphrase"})
    assert r.status_code == 200 and r.json()["id"] == player["id"]


def test_a_running_matchs_history_is_replayed_once_per_version(sclient):
    state = sclient.app.state
    room, players = make_room(sclient, "king-classic", 4, seed=4)
    match_id = room["match"]["id"]
    cache = state.replays
    with ExitStack() as stack:
        clients = open_table(sclient, stack, room, players)
        before = cache.made
        with ThreadPoolExecutor(8) as spectators:  # eight at once, each in its own thread
            details = list(spectators.map(lambda _: state.history.detail(match_id), range(8)))
        assert cache.made == before + 1 and all(d == details[0] for d in details)
        assert sclient.get(f"/api/matches/{match_id}").json()["version"] == details[0]["version"] == 0
        assert cache.made == before + 1
        view = clients[0].last_view["view"]
        seat = view["to_act"][0]
        act_and_wait(clients, seat, clients[seat].last_view["view"]["legal"][0], 0)
        assert sclient.get(f"/api/matches/{match_id}").json()["version"] == 1
        assert cache.made == before + 2  # a new version: one more replay
        assert sclient.get(f"/api/matches/{match_id}").json()["version"] == 1
        assert cache.made == before + 2
