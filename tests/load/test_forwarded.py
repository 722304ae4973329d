"""A real ``kozyr serve``: the client address of the per-address limits comes from
X-Forwarded-For only behind a trusted proxy (KOZYR_TRUSTED_PROXIES), and a player's
token never reaches the log (uvicorn's lines of a websocket URL carry ``?token=``)."""

from __future__ import annotations

import httpx
import pytest

from .procs import Seat, ServerProc, new_table

LIMITED = {"KOZYR_PLAYER_CREATE_BURST": "2", "KOZYR_PLAYER_CREATE_PER_MINUTE": "0.001"}


def create(base: str, forwarded_for: str) -> int:
    return httpx.post(base + "/api/players", json={"name": "Ola"}, timeout=10,
                      headers={"X-Forwarded-For": forwarded_for}).status_code


@pytest.mark.timeout(120)
def test_forwarded_addresses_count_apart_behind_a_trusted_proxy(tmp_path):
    server = ServerProc(f"sqlite:///{tmp_path / 'k.db'}", tmp_path / "server.log",
                        KOZYR_TRUSTED_PROXIES="127.0.0.1", **LIMITED).start()
    try:
        assert [create(server.base, "203.0.113.7") for _ in range(3)] == [201, 201, 429]
        # Another client behind the same proxy has its own allowance; a client that puts
        # an address of its own before the proxy's entry is still counted by the proxy's.
        assert create(server.base, "203.0.113.8") == 201
        assert create(server.base, "198.51.100.1, 203.0.113.7") == 429
    finally:
        server.stop()


@pytest.mark.timeout(120)
def test_forwarded_addresses_ignored_from_an_untrusted_peer(tmp_path):
    server = ServerProc(f"sqlite:///{tmp_path / 'k.db'}", tmp_path / "server.log",
                        KOZYR_TRUSTED_PROXIES="192.0.2.1", **LIMITED).start()
    try:
        # Each request claims another address; all are counted as 127.0.0.1's.
        assert [create(server.base, f"203.0.113.{i}") for i in range(3)] == [201, 201, 429]
    finally:
        server.stop()


@pytest.mark.timeout(120)
def test_tokens_never_reach_the_log(tmp_path):
    log = tmp_path / "server.log"
    server = ServerProc(f"sqlite:///{tmp_path / 'k.db'}", log, KOZYR_LOG_LEVEL="INFO",
                        KOZYR_ACCESS_LOG="true").start()
    try:
        code, _, players = new_table(server.base, "thousand-1000", 3, {"goal": 100}, seed=5)
        seat = Seat(server.ws_url(code, players[0]["token"]), 0)
        seat.until(lambda m: m["type"] == "welcome")
        seat.ws.close()
        assert httpx.get(f"{server.base}/api/players/me?token={players[1]['token']}&x=1",
                         headers={"Authorization": f"Bearer {players[1]['token']}"}).status_code == 200
    finally:
        server.stop()
    text = log.read_text()
    assert "token=[redacted]" in text  # the lines that carried it are there ...
    assert f"/api/rooms/{code}/ws" in text and "&x=1" in text
    for player in players:  # ... without it
        assert player["token"] not in text
