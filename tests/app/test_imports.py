"""The server's modules import one another without a cycle, counting the imports made
only for type checking (``if TYPE_CHECKING:``) and those inside functions: each part
gets its collaborators by constructor, typed by narrow Protocols (app/rooms/ports.py)
where a concrete import would close a loop."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "app"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(APP.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """Every module of ``modules`` that ``path`` imports, wherever the import stands."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[:len(up) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            # ``from . import x`` / ``from .db import models``: x may be a module itself
            targets = [f"{base}.{alias.name}" for alias in node.names
                       if f"{base}.{alias.name}" in modules] or [base]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    files = sorted(APP.rglob("*.py"))
    modules = {module_name(f) for f in files}
    return {module_name(f): imports_of(f, modules) for f in files}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (its modules in order, the first repeated), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)) is not None:
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)) is not None:
            return cycle
    return None


def test_the_graph_sees_every_kind_of_import(tmp_path, monkeypatch):
    """The checker itself: a cycle closed only by a TYPE_CHECKING import, or only by an
    import inside a function, is found; the same modules without it are not."""
    pkg = tmp_path / "app"
    (pkg / "rooms").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "rooms" / "__init__.py").write_text("")
    (pkg / "metrics.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .rooms.service import Kozyr\n")
    (pkg / "rooms" / "service.py").write_text("from ..metrics import Metrics\n")
    (pkg / "rooms" / "bots.py").write_text("def f():\n    from . import service\n")
    monkeypatch.setattr(__import__(__name__, fromlist=["APP"]), "APP", pkg)
    graph = import_graph()
    assert graph["app.rooms.bots"] == {"app.rooms.service"}
    assert find_cycle(graph) == ["app.metrics", "app.rooms.service", "app.metrics"]
    (pkg / "metrics.py").write_text("import json\n")
    assert find_cycle(import_graph()) is None
    (pkg / "rooms" / "service.py").write_text("from . import bots\n")
    assert find_cycle(import_graph()) == ["app.rooms.bots", "app.rooms.service", "app.rooms.bots"]


def test_app_has_no_import_cycle():
    graph = import_graph()
    assert len(graph) > 40 and "app.rooms.service" in graph  # the whole package was read
    cycle = find_cycle(graph)
    if cycle is not None:
        pytest.fail("import cycle: " + " -> ".join(cycle))
