"""engine/ is pure: no server, no asyncio, no JSON, no database (STYLE.md rule 1)."""

import ast
from pathlib import Path

import engine

FORBIDDEN = {"app", "asyncio", "json", "sqlite3", "sqlalchemy", "alembic", "fastapi",
             "starlette", "uvicorn", "websockets", "redis", "psycopg", "httpx", "socket",
             "pydantic", "threading", "multiprocessing", "requests"}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_engine_imports_nothing_impure():
    files = sorted(Path(engine.__file__).parent.rglob("*.py"))
    assert len(files) >= 4
    for f in files:
        bad = imported_roots(f) & FORBIDDEN
        assert not bad, f"{f} imports {sorted(bad)}"


def test_checker_sees_a_forbidden_import(tmp_path):
    f = tmp_path / "x.py"
    f.write_text("import json\nfrom app.db import x\nfrom . import cards\n")
    assert imported_roots(f) == {"json", "app"}


def _engine_imports(path: Path, root: Path) -> set[str]:
    """The engine modules ``path`` imports (relative or absolute)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(root.parent).with_suffix("").parts)
    if path.name == "__init__.py":
        package = package.rsplit(".", 1)[0] + "." + "__init__"
    base = package.split(".")[:-1]
    out = set()
    for node in ast.walk(tree):  # imports inside functions count too: no lazy way round a cycle
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = base[:len(base) - node.level + 1]
                mod = ".".join(parts + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.startswith("engine"):
                names = [mod] + [f"{mod}.{a.name}" for a in node.names]
                out.update(n for n in names if n in _MODULES)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in _MODULES)
    return out


_ROOT = Path(engine.__file__).parent
_MODULES = {".".join(p.relative_to(_ROOT.parent).with_suffix("").parts).removesuffix(".__init__")
            for p in _ROOT.rglob("*.py")}


def test_engine_modules_import_no_cycle():
    graph = {}
    for p in _ROOT.rglob("*.py"):
        name = ".".join(p.relative_to(_ROOT.parent).with_suffix("").parts).removesuffix(".__init__")
        graph[name] = _engine_imports(p, _ROOT) - {name}
    assert "engine.bots.heuristic_king" in graph and graph["engine.bots.heuristic"]
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> None:
        if node in path:
            raise AssertionError("import cycle: " + " -> ".join(path[path.index(node):] + [node]))
        if node in done:
            return
        for dep in sorted(graph.get(node, ())):
            # a package's __init__ importing its own submodules is not a cycle back
            if not (dep.startswith(node + ".") and node in ("engine", "engine.bots", "engine.variants")):
                visit(dep, path + [node])
        done.add(node)

    for node in sorted(graph):
        visit(node, [])


def test_fast_shuffle_deals_what_random_shuffle_deals_C3():
    """Rule C-3: a seed deals what it always dealt; the engine's own shuffle is
    ``random.Random.shuffle`` drawn from the same bits, leaving the same state."""
    import random

    from engine.dealing import shuffle

    for seed in range(300):
        for size in (0, 1, 2, 24, 32, 36, 64, 70):
            mine, theirs = [str(i) for i in range(size)], [str(i) for i in range(size)]
            a, b = random.Random(seed), random.Random(seed)
            shuffle(a, mine)
            b.shuffle(theirs)
            assert mine == theirs and a.getstate() == b.getstate()
