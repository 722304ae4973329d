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


def _settings_table() -> dict[str, str]:
    """README.md's "### Settings" table: every variable named in a row's first cell ->
    that row's default cell."""
    import re

    text = (ROOT / "README.md").read_text()
    start = text.index("\n### Settings\n")
    end = text.index("\n#", start + 1)
    rows: dict[str, str] = {}
    for line in text[start:end].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 3 or not cells[1] or set(cells[1]) <= {"-"}:
            continue  # not a row, a group's heading row, or the line under the header
        for name in re.findall(r"`([A-Z][A-Z0-9_]*)`", cells[0]):
            assert name not in rows, f"{name} has two rows in the settings table"
            rows[name] = cells[1]
    return rows


def _readme_default(cell: str) -> object:
    """A default as the table writes it: `true` / `false`, a number, `text`, empty
    (the empty string), unset (None)."""
    value = cell.strip()
    if value in ("unset", "empty"):
        return None if value == "unset" else ""
    if value.startswith("`") and value.endswith("`") and value.count("`") == 2:
        value = value[1:-1]
    if value in ("true", "false"):
        return value == "true"
    try:
        return float(value)
    except ValueError:
        return value


def test_every_setting_is_documented():
    """Every field of Settings has a row of README.md's settings table under its
    environment variable (KOZYR_ + the field's name), with the default the code has;
    and the table names no variable that is not a setting."""
    from app.config import Settings

    rows = _settings_table()
    names: set[str] = set()
    for field, info in Settings.model_fields.items():
        var = "KOZYR_" + field.upper()
        aliases = list(getattr(info.validation_alias, "choices", [])) or [var]
        names.update(aliases)
        for name in {var, *aliases}:
            assert name in rows, f"{name} ({field}) is missing from README.md's settings table"
        cell = rows[var]
        if info.default_factory is not None:  # computed at start-up (bot_processes): described
            assert cell and not cell.startswith("`"), f"{var}: {cell!r} should say how the default is found"
            continue
        written, default = _readme_default(cell), info.default
        if isinstance(default, bool):
            assert written is default, f"{var}: README {cell!r}, code {default!r}"
        elif isinstance(default, (int, float)):
            assert isinstance(written, float) and written == float(default), f"{var}: README {cell!r}, code {default!r}"
        else:
            assert written == default, f"{var}: README {cell!r}, code {default!r}"
    assert set(rows) <= names, f"not settings: {sorted(set(rows) - names)}"
