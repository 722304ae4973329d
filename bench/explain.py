"""EXPLAIN ANALYZE of the statements one piece of work runs (bench/club_page.py,
bench/player_page.py): the SELECTs are caught from the engine's cursor events while
``work()`` runs, then each is explained on its own connection."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import event
from sqlalchemy.engine import Engine


def explain(engine: Engine, title: str, work: Callable[[], object], width: int = 200) -> None:
    seen: list[tuple[str, object]] = []

    def grab(conn, cursor, statement, params, context, executemany):
        if statement.lstrip().upper().startswith("SELECT"):
            seen.append((statement, params))

    event.listen(engine, "before_cursor_execute", grab)
    try:
        work()
    finally:
        event.remove(engine, "before_cursor_execute", grab)
    print(f"\n-- {title}: {len(seen)} statements")
    for statement, params in seen:
        with engine.connect() as c:
            plan = c.exec_driver_sql("EXPLAIN (ANALYZE, BUFFERS) " + statement, params).scalars().all()
        print("   " + " ".join(statement.split())[:width])
        print("\n".join("     " + line for line in plan))
