"""permessage-deflate (KOZYR_WS_DEFLATE=1): a client that asks for it and one that
does not play the same match, and each gets every view whole and in order."""

from __future__ import annotations

import json
import random

from websockets.sync.client import connect as ws_connect

from .procs import ServerProc, new_table, person_like


def test_deflate_and_plain_clients_get_the_same_views(tmp_path):
    srv = ServerProc(f"sqlite:///{tmp_path / 'kozyr.db'}", tmp_path / "server.log",
                     KOZYR_WS_DEFLATE="1").start()
    try:
        code, match_id, players = new_table(srv.base, "thousand-1000-2p", 2, {}, seed=5)
        socks = [ws_connect(srv.ws_url(code, players[0]["token"]), compression="deflate", open_timeout=20, legacy=True),
                 ws_connect(srv.ws_url(code, players[1]["token"]), compression=None, open_timeout=20, legacy=True)]
        assert socks[0].protocol.extensions and not socks[1].protocol.extensions
        views: list[list[dict]] = [[], []]

        def next_view(i: int) -> dict:
            while True:
                msg = json.loads(socks[i].recv(timeout=20))
                if msg["type"] == "view":
                    views[i].append(msg)
                    return msg

        latest = [next_view(0), next_view(1)]
        rng = random.Random(2)
        for n in range(12):
            seat = latest[0]["view"]["to_act"][0]
            legal = latest[seat]["view"]["legal"]
            socks[seat].send(json.dumps({"type": "action", "action": person_like(legal, rng),
                                         "version": latest[seat]["version"], "client_id": f"c{n}"}))
            latest = [next_view(0), next_view(1)]
            assert latest[0]["version"] == latest[1]["version"]
        for i in (0, 1):
            assert [v["version"] for v in views[i]] == list(range(views[i][0]["version"], views[i][-1]["version"] + 1))
            assert all(v["match"] == match_id and v["view"]["seat"] == i for v in views[i])
        for s in socks:
            s.close()
    finally:
        srv.stop()
