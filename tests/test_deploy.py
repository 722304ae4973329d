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


def test_app_trusts_forwarded_addresses_from_the_proxy_alone():
    """The replicas believe X-Forwarded-For from the proxy's fixed address only (not the
    subnet, whose gateway a published port may come from), and nginx sets the header."""
    import ipaddress

    yaml = pytest.importorskip("yaml")
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    proxy_ip = compose["services"]["proxy"]["networks"]["default"]["ipv4_address"]
    subnet = compose["networks"]["default"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(proxy_ip) in ipaddress.ip_network(subnet)
    for app in ("app1", "app2"):
        assert compose["services"][app]["environment"]["KOZYR_TRUSTED_PROXIES"] == proxy_ip
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in conf


def _pins(path: Path) -> dict[str, str]:
    """name -> version of a lock file, each pin checked to carry its hashes."""
    pins: dict[str, str] = {}
    blocks = path.read_text().split("\n")
    for i, line in enumerate(blocks):
        if line and not line.startswith((" ", "#")):
            name, _, rest = line.partition("==")
            assert rest, line
            assert "--hash=sha256:" in blocks[i + 1], f"{path.name}: {name} without a hash"
            pins[name.lower()] = rest.split()[0]
    return pins


def test_make_and_the_image_install_the_locked_versions_of_what_pyproject_asks():
    import tomllib

    from packaging.requirements import Requirement

    dev, runtime = _pins(ROOT / "requirements.lock"), _pins(ROOT / "requirements-runtime.lock")
    assert runtime.items() <= dev.items()  # the image runs the versions the tests ran
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for lock, reqs in ((runtime, project["dependencies"]),
                       (dev, project["dependencies"] + project["optional-dependencies"]["dev"])):
        for req in map(Requirement, reqs):
            name = req.name.lower().replace("_", "-")
            assert name in lock, f"{name} is not locked: run make lock"
            assert req.specifier.contains(lock[name]), f"{name}=={lock[name]} is outside {req.specifier}"
    docker = (ROOT / "Dockerfile").read_text()
    assert "pip install --require-hashes -r requirements-runtime.lock" in docker
    assert "pip install --no-deps -e ." in docker
    make = (ROOT / "Makefile").read_text()
    assert "pip install -q --require-hashes -r $(LOCK)" in make and "LOCK := requirements.lock" in make
