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
