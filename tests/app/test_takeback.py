"""Take-back by agreement (issue 16; README "Take-backs"), over real websockets on
SQLite and PostgreSQL: agreed by all restores every seat's previous view and the
match rebuilds from its stored log (rule C-3); declined or expired changes nothing;
refused for a spectator, another seat's action, across a deal's end, and in a
rated room unless the room allows it."""

from __future__ import annotations

import random
from contextlib import ExitStack

from app.rooms.live import LiveMatch

from .helpers import act_and_wait, auth, connect, make_room, new_player, open_table

VARIANT = "thousand-ru"  # 3 seats; the bidding reveals nothing, so its calls can be taken back


def _table(client, stack, seed=7):
    room, players = make_room(client, VARIANT, 3, seed=seed)
    return room, players, open_table(client, stack, room, players)


def _first_move(clients) -> tuple[int, str, int]:
    """A bid that can be taken back: not the deal's first call, which shows every
    seat its hand (the blind window of rule M-5 closes) and so cannot be unseen."""
    view = clients[0].last_view
    if view["version"] == 0:
        seat = view["view"]["to_act"][0]
        act_and_wait(clients, seat, next(a for a in clients[seat].last_view["view"]["legal"]
                                 if a.startswith("bid:")), 0)
        view = clients[0].last_view
    seat = view["view"]["to_act"][0]
    legal = clients[seat].last_view["view"]["legal"]
    action = next(a for a in legal if a.startswith("bid:"))
    return seat, action, view["version"]


def _answer_all(clients, asker: int, agree: bool = True) -> None:
    for c in clients:
        msg, _ = c.recv_until(lambda m: m["type"] == "takeback")
        assert msg["seat"] == asker and asker not in msg["waiting"]
    for c in clients:
        if c.seat != asker:
            c.send({"type": "takeback_answer", "agree": agree})
            if not agree:
                break


def test_takeback_agreed_restores_views_and_replays_from_the_log_C3(client, kozyr):
    with ExitStack() as stack:
        room, _, clients = _table(client, stack)
        seat, action, v0 = _first_move(clients)
        before = {c.seat: c.last_view["view"] for c in clients}
        v1 = act_and_wait(clients, seat, action, v0)
        clients[seat].send({"type": "takeback"})
        got, _ = clients[seat].recv_until(lambda m: m["type"] in ("takeback", "error"))
        assert got["type"] == "takeback", got["message"]
        msg, _ = clients[(seat + 1) % 3].recv_until(lambda m: m["type"] == "takeback")
        assert msg["seq"] == v0 and msg["action"] == action and sorted(msg["waiting"]) == sorted(
            {0, 1, 2} - {seat}) and msg["expires_in"] > 0
        # While the request is open the match applies nothing.
        other = (seat + 1) % 3
        clients[other].act("pass", "x1", v1)
        err, _ = clients[other].recv_until(lambda m: m["type"] == "error")
        assert err["code"] == "takeback_open"
        for c in clients:
            if c.seat != seat:
                c.send({"type": "takeback_answer", "agree": True})
        for c in clients:
            done, got = c.recv_until(lambda m: m["type"] == "takeback_done")
            assert done["result"] == "undone"
            view = next(m for m in got if m["type"] == "view")  # the view first, then the news
            assert view["version"] == v1 + 1  # the undo is its own entry: versions only grow
            assert view["view"] == before[c.seat]
        match_id = room["match"]["id"]
        # Recovery: the match rebuilt from its stored log (as after a restart) is the same.
        fresh = LiveMatch.load(kozyr.db, match_id)
        assert fresh.version == v1 + 1
        assert [fresh.view(s) for s in range(3)] == [before[s] for s in range(3)]
        # The same seat may now play something else.
        act_and_wait(clients, seat, action, v1 + 1)
        detail = client.get(f"/api/matches/{match_id}").json()
        assert detail["takebacks"][0]["undone"] == v0
        assert detail["takebacks"][0]["text"].endswith(f"took back {action}, agreed by all")


def test_takeback_declined_or_expired_changes_nothing(client, kozyr):
    with ExitStack() as stack:
        _, _, clients = _table(client, stack, seed=8)
        seat, action, v0 = _first_move(clients)
        v1 = act_and_wait(clients, seat, action, v0)
        after = {c.seat: c.last_view["view"] for c in clients}
        clients[seat].send({"type": "takeback"})
        _answer_all(clients, seat, agree=False)
        for c in clients:
            done, _ = c.recv_until(lambda m: m["type"] == "takeback_done")
            assert done["result"] == "declined" and done["version"] == v1
        old = kozyr.settings.takeback_seconds
        kozyr.settings.takeback_seconds = 0.3
        try:
            clients[seat].send({"type": "takeback"})
            for c in clients:
                done, _ = c.recv_until(lambda m: m["type"] == "takeback_done")
                assert done["result"] == "expired" and done["version"] == v1
        finally:
            kozyr.settings.takeback_seconds = old
        live = kozyr.live[clients[0].last_view["match"]]
        assert live.version == v1 and [live.view(s) for s in range(3)] == [after[s] for s in range(3)]
        # A late answer is refused, and the match goes on.
        clients[(seat + 1) % 3].send({"type": "takeback_answer", "agree": True})
        err, _ = clients[(seat + 1) % 3].recv_until(lambda m: m["type"] == "error")
        assert err["code"] == "takeback_refused"


def test_takeback_refused_for_spectator_and_another_seats_action(client, kozyr):
    with ExitStack() as stack:
        room, _, clients = _table(client, stack, seed=9)
        seat, action, v0 = _first_move(clients)
        act_and_wait(clients, seat, action, v0)
        watcher = connect(client, stack, room["code"], new_player(client), None)
        watcher.recv_until(lambda m: m["type"] == "welcome")
        watcher.send({"type": "takeback"})
        err, _ = watcher.recv_until(lambda m: m["type"] == "error")
        assert err["code"] == "takeback_refused" and "spectator" in err["message"]
        other = clients[(seat + 1) % 3]
        other.send({"type": "takeback"})
        err, _ = other.recv_until(lambda m: m["type"] == "error")
        assert err["code"] == "takeback_refused" and "your own" in err["message"]
        assert kozyr.live[room["match"]["id"]].takeback is None


def test_takeback_refused_across_a_deal_end(client, kozyr):
    rng = random.Random(3)
    with ExitStack() as stack:
        room, _, clients = _table(client, stack, seed=11)
        live = kozyr.live[room["match"]["id"]]
        while True:
            view = clients[0].last_view
            seat = view["view"]["to_act"][0]
            legal = clients[seat].last_view["view"]["legal"]
            act = "pass" if "pass" in legal else rng.choice(legal)
            deals = len(live.engine.history())
            act_and_wait(clients, seat, act, view["version"])
            if len(live.engine.history()) > deals:
                break
        clients[seat].send({"type": "takeback"})
        err, _ = clients[seat].recv_until(lambda m: m["type"] == "error")
        assert err["code"] == "takeback_refused" and "deal" in err["message"]


def _rated_room(client, takeback: str | None) -> tuple[dict, list[dict]]:
    return make_room(client, VARIANT, 3, seed=5,
                     settings={"rated": True, **({"takeback": takeback} if takeback is not None else {})})


def test_takeback_refused_in_rated_room_unless_allowed(client):
    for allowed in (None, "agree"):
        room, players = _rated_room(client, allowed)
        assert room["takeback"] == (allowed or "off")
        with ExitStack() as stack:
            clients = open_table(client, stack, room, players)
            seat, action, v0 = _first_move(clients)
            act_and_wait(clients, seat, action, v0)
            clients[seat].send({"type": "takeback"})
            msg, _ = clients[seat].recv_until(lambda m: m["type"] in ("error", "takeback"))
            if allowed:
                assert msg["type"] == "takeback"
            else:
                assert msg["code"] == "takeback_refused" and "rated" in msg["message"]


def test_takeback_bots_count_as_agreeing(client, kozyr):
    """A bot's seat is not asked: only the other person answers."""
    people = [new_player(client) for _ in range(2)]
    room = client.post("/api/rooms", json={"variant": VARIANT, "seats": 3}, headers=auth(people[0])).json()
    code = room["code"]
    assert client.post(f"/api/rooms/{code}/seats/1", headers=auth(people[1])).status_code == 200
    assert client.post(f"/api/rooms/{code}/seats/2/bot", headers=auth(people[0]),
                       json={"level": "basic"}).status_code == 200
    room = client.post(f"/api/rooms/{code}/start", headers=auth(people[0]), json={"seed": 21}).json()
    with ExitStack() as stack:
        clients = open_table(client, stack, room, people)
        live = kozyr.live[room["match"]["id"]]
        for _ in range(20):  # the people bid until seat 0 bids after the deal's first call
            view = clients[0].last_view
            to_act = view["view"]["to_act"]
            if to_act and to_act[0] == 0 and view["version"] > 0:
                break
            if to_act and to_act[0] in (0, 1):
                legal = clients[to_act[0]].last_view["view"]["legal"]
                act_and_wait(clients, to_act[0], next(a for a in legal if a.startswith("bid:")), view["version"])
            else:
                for c in clients:
                    c.wait_view(view["version"] + 1)
        seat, action, v0 = _first_move(clients)
        assert seat == 0
        v1 = act_and_wait(clients, 0, action, v0)
        clients[0].send({"type": "takeback"})
        msg, _ = clients[1].recv_until(lambda m: m["type"] == "takeback")
        assert msg["waiting"] == [1]  # not the bot's seat 2
        clients[1].send({"type": "takeback_answer", "agree": True})
        done, _ = clients[0].recv_until(lambda m: m["type"] == "takeback_done")
        assert done["result"] == "undone" and live.version == v1 + 1


def test_takeback_messages_hide_face_down_cards_C5():
    from engine.cards import masked
    assert masked("give:9S>2") == "give:??>2"
    assert masked("discard:9S,TH") == "discard:??,??"
    assert masked("bid:120") == "bid:120" and masked("pass") == "pass"


def test_history_marks_takebacks_in_the_replay_and_positions_follow_played_log(client, kozyr):
    """The detail's take-back says where the replay marks it (deal, step); the positions
    of that deal are the played log's (the undone action is not a step)."""
    rng = random.Random(4)
    with ExitStack() as stack:
        room, _, clients = _table(client, stack, seed=13)
        seat, action, v0 = _first_move(clients)
        v1 = act_and_wait(clients, seat, action, v0)
        clients[seat].send({"type": "takeback"})
        _answer_all(clients, seat)
        for c in clients:
            c.recv_until(lambda m: m["type"] == "takeback_done")
        match_id = room["match"]["id"]
        masked_now = client.get(f"/api/matches/{match_id}").json()["takebacks"]
        assert masked_now[0]["deal"] is None and masked_now[0]["step"] is None  # its deal goes on
        live = kozyr.live[match_id]
        while not live.engine.history():
            view = clients[0].last_view
            s = view["view"]["to_act"][0]
            legal = clients[s].last_view["view"]["legal"]
            act_and_wait(clients, s, "pass" if "pass" in legal else rng.choice(legal), view["version"])
        detail = client.get(f"/api/matches/{match_id}").json()
        (mark,) = detail["takebacks"]
        assert (mark["deal"], mark["step"], mark["undone"], mark["action"]) == (1, v0, v0, action)
        positions = client.get(f"/api/matches/{match_id}/deals/1/positions").json()
        steps = [tuple(st["action"]) for st in positions["steps"][1:]]
        from app.rooms.live import played_log
        log = LiveMatch.load(kozyr.db, match_id).log
        assert (log[v0].seat, log[v0].action, log[v1].action) == (seat, action, f"undo:{v0}")
        kept = played_log(log)
        assert v0 not in {r.seq for r in kept} and v1 not in {r.seq for r in kept}
        assert steps == [(r.seat, r.action) for r in kept][:len(steps)]
        assert len(steps) == len(detail["deals"][0]["actions"])


def test_undo_written_by_a_client_is_refused_and_changes_nothing_C6(client, kozyr):
    """``undo:`` entries are the server's own (an agreed take-back): a client's action
    ``undo:x`` (or any ``undo:...``) is answered ``illegal`` with a reason; the socket
    stays, the match and the log do not move, and the seat plays on."""
    with ExitStack() as stack:
        room, _, clients = _table(client, stack, seed=10)
        seat, action, v0 = _first_move(clients)
        live = kozyr.live[room["match"]["id"]]
        views = [live.view(s) for s in range(3)]
        for n, bad in enumerate(["undo:x", "undo:", "undo:-1", f"undo:{v0 - 1}", "undo:" + "9" * 40,
                                 "undo:1e3", "undo:٣"]):
            clients[seat].act(bad, f"u{n}", v0)
            err, got = clients[seat].recv_until(lambda m: m["type"] in ("error", "ack"))
            assert err["type"] == "error" and err["code"] == "illegal", err
            assert err["client_id"] == f"u{n}" and "takeback" in err["message"]
            assert not [m for m in got if m["type"] == "view"]
        assert live.version == v0 and [live.view(s) for s in range(3)] == views
        assert LiveMatch.load(kozyr.db, live.id).version == v0  # nothing logged
        clients[seat].send({"type": "ping", "nonce": 1})
        pong, _ = clients[seat].recv_until(lambda m: m["type"] == "pong")
        assert pong["nonce"] == 1  # the socket is still open
        act_and_wait(clients, seat, action, v0)  # and the seat plays on
