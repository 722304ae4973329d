"""deploy/nginx.conf run for real: nginx in front of two server processes (one
PostgreSQL, one Redis) sends every websocket of a room to the same process (a
consistent hash of the room's code) and, when that process is SIGKILLed, the
room's seats that reconnect through the proxy land on the other one and play on.

The configuration is the shipped file with only the addresses changed (the
upstreams' host names and the listening port) and the lines a process needs to
run outside a container (pid file, logs, temporary folders)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from .procs import METRICS_AUTH, Seat, ServerProc, free_port, new_table, wait_healthy

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
ROOMS = 12
pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(NGINX is None, reason="nginx is not installed (.ci/run installs it)")]


def proxy_config(tmp: Path, port: int, app1: int, app2: int) -> Path:
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "server app1:8000;" in site and "server app2:8000;" in site and "listen 80;" in site
    site = site.replace("server app1:8000;", f"server 127.0.0.1:{app1};") \
               .replace("server app2:8000;", f"server 127.0.0.1:{app2};") \
               .replace("listen 80;", f"listen 127.0.0.1:{port};")
    temp = "\n".join(f"    {kind}_temp_path {tmp / kind};" for kind in
                     ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    conf = tmp / "nginx.conf"
    conf.write_text(f"""{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
daemon off;
pid {tmp / "nginx.pid"};
error_log {tmp / "error.log"} warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
{temp}
{site}
}}
""")
    return conf


def connections(server: ServerProc) -> int:
    text = httpx.get(server.base + "/metrics", timeout=10, headers=METRICS_AUTH).text
    return int(float(re.search(r"^kozyr_connections (\S+)$", text, re.M)[1]))


def welcome_and_view(seat: Seat) -> None:
    seat.until(lambda m: m["type"] == "welcome")
    seat.until(lambda m: m["type"] == "view" and m["view"] is not None)


@pytest.mark.timeout(240)
def test_proxy_keeps_a_room_on_one_process_and_fails_over(tmp_path, pg_database, redis_url):
    servers = [ServerProc(pg_database, tmp_path / f"app{i + 1}.log", REDIS_URL=redis_url).start()
               for i in range(2)]
    port = free_port()
    conf = proxy_config(tmp_path, port, servers[0].port, servers[1].port)
    proxy = subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(conf)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    seats: list[Seat] = []
    try:
        base = f"http://127.0.0.1:{port}"
        error_log = tmp_path / "error.log"
        wait_healthy(base, proxy, 20, lambda: error_log.read_text() if error_log.exists() else "")

        # Every room's four websockets, opened through the proxy, reach one process.
        homes: list[int] = []
        tables = []
        for i in range(ROOMS):
            code, _match, players = new_table(base, "thousand-1001", 4, {"goal": 100}, 100 + i)
            before = [connections(s) for s in servers]
            room = [Seat(f"ws://127.0.0.1:{port}/api/rooms/{code}/ws?token={p['token']}", k)
                    for k, p in enumerate(players)]
            for s in room:
                welcome_and_view(s)
            gained = [connections(s) - b for s, b in zip(servers, before, strict=True)]
            assert sorted(gained) == [0, 4], f"room {code}: the seats went {gained}"
            homes.append(gained.index(4))
            tables.append((code, players, room))
            seats += room
        assert set(homes) == {0, 1}, f"all {ROOMS} rooms hashed to one process: {homes}"

        # The process of room 0 dies; its seats come back through the proxy on the other.
        dead = homes[0]
        servers[dead].kill()
        code, players, room = tables[0]
        for s in room:
            s.close()
        back = [Seat(f"ws://127.0.0.1:{port}/api/rooms/{code}/ws?token={p['token']}", k)
                for k, p in enumerate(players)]
        seats += back
        for s in back:
            welcome_and_view(s)
        assert connections(servers[1 - dead]) >= 4
        view = back[0].view
        actor = back[view["view"]["to_act"][0]]
        version = actor.view["version"]
        actor.ws.send(f'{{"type": "action", "client_id": "after-failover", '
                      f'"action": "{actor.view["view"]["legal"][0]}", "version": {version}}}')
        ack = actor.until(lambda m: m["type"] in ("ack", "error"))
        assert ack["type"] == "ack", ack
        for s in back:
            s.until(lambda m: m["type"] == "view" and m["version"] == version + 1)
    finally:
        for s in seats:
            s.close()
        proxy.terminate()
        try:
            proxy.wait(10)
        except subprocess.TimeoutExpired:
            proxy.kill()
        for s in servers:
            s.stop()
