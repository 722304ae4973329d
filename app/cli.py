"""The ``kozyr`` command: ``kozyr serve [--host H] [--port P] [--reload]``."""

from __future__ import annotations

import argparse

from .config import get_settings


def main(argv: list[str] | None = None) -> None:
    settings = get_settings()
    parser = argparse.ArgumentParser(prog="kozyr", description="Kozyr: Slavic card games with friends")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the web server")
    serve.add_argument("--host", default=settings.host)
    serve.add_argument("--port", type=int, default=settings.port)
    serve.add_argument("--reload", action="store_true", help="restart on code changes (development)")
    sub.add_parser("migrate", help="apply the database migrations and exit")
    args = parser.parse_args(argv)

    if args.command == "migrate":
        from .db.migrate import upgrade
        from .db.session import Database
        upgrade(Database(settings.database_url).engine)
        return
    import uvicorn

    from .logs import setup_logging
    setup_logging(settings.log_level, settings.access_log)
    uvicorn.run("app.main:app", host=args.host, port=args.port, reload=args.reload,
                ws=settings.ws_impl, ws_max_size=settings.max_frame_bytes, log_config=None,
                proxy_headers=True, forwarded_allow_ips=settings.trusted_proxies,
                ws_per_message_deflate=settings.ws_deflate, backlog=settings.backlog,
                loop=settings.event_loop)


if __name__ == "__main__":
    main()
