"""The deployment files are read by the tools that will run them."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("docker-compose") is None, reason="docker-compose not installed")
def test_compose_file_is_accepted_by_docker_compose():
    out = subprocess.run(["docker-compose", "-f", str(ROOT / "docker-compose.yml"), "config"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    for service in ("db:", "redis:", "app1:", "app2:", "proxy:"):
        assert service in out.stdout
    assert "service_healthy" in out.stdout


def test_dockerfile_runs_as_non_root_and_serves():
    text = (ROOT / "Dockerfile").read_text()
    assert "\nUSER kozyr" in text
    assert '"kozyr", "serve"' in text


def test_proxy_upgrades_websockets():
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "proxy_set_header Upgrade $http_upgrade" in conf
    assert "server app1:8000" in conf and "server app2:8000" in conf


def test_proxy_keeps_a_rooms_sockets_on_one_replica():
    # tests/load/test_proxy.py runs this file in nginx; this reads it where nginx is missing
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "hash $room_code consistent;" in conf
    assert "location ~ ^/api/rooms/[^/]+/ws$" in conf
