"""The FastAPI application: static client at / (app/static.py), API under /api, /healthz,
OpenAPI at /openapi.json (/docs unless KOZYR_DOCS=false); security headers on every
answer (app/headers.py)."""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import compile_path

from engine import VARIANTS

from .api import (
    auth,
    bots,
    club_events,
    club_tournaments,
    clubs,
    duplicates,
    friends,
    matches,
    players,
    push,
    rooms,
    variants,
    ws,
)
from .api.schemas import Health
from .config import Settings, get_settings, static_root
from .db.errors import DomainError, RateLimited
from .errors import INVALID_REQUEST, http_code, http_status
from .headers import SecurityHeaders, security_headers
from .logs import setup_logging
from .metrics import scrape_refusal
from .server import Server
from .static import StaticSite

STATIC = Path(__file__).resolve().parent.parent / "static"
log = logging.getLogger("kozyr")


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    server = Server(settings)  # the composition root: every part, wired (app/server.py)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        setup_logging(settings.log_level, settings.access_log)
        await server.startup()
        log.info("kozyr ready", extra={"database": server.db.engine.dialect.name,
                                       "variants": ",".join(VARIANTS)})
        yield
        await server.shutdown()

    app = FastAPI(title="Kozyr", version="0.1.0", lifespan=lifespan,  # /openapi.json always
                  docs_url="/docs" if settings.docs else None, redoc_url="/redoc" if settings.docs else None,
                  description="Private rooms and live play of Тысяча, Кинг and Король / Król. "
                              "The websocket protocol is described in README.md (Server).")
    # The parts the routes, the tests and the benches use, each by its own name.
    state = app.state
    state.settings, state.db, state.hub, state.peers = settings, server.db, server.hub, server.peers
    state.players, state.rooms, state.matches, state.live = server.players, server.rooms, server.matches, server.live
    state.bots, state.play, state.takebacks, state.abandon = server.bots, server.play, server.takebacks, server.abandon
    state.history, state.replays, state.pages = server.history, server.replays, server.pages
    state.clubs = server.clubs
    state.duplicates = server.duplicates
    state.tournaments = server.tournaments  # club tournaments (app/tournaments.py)
    state.club_events = server.club_events  # app/club_events.py
    state.sign_ins, state.hashing = server.sign_ins, server.hashing
    state.ratings, state.metrics = server.ratings, server.metrics
    state.deadlines, state.clock = server.deadlines, server.clock
    state.notifier = server.notifier  # pushes (app/push/)
    state.coach = server.coach  # hints at the table (app/rooms/coach.py)
    state.reviews = server.reviews  # the coach's reviews of finished deals (app/rooms/review.py)

    # Every error answer is a Problem (app/api/schemas.py): {"detail", "code"[, "errors"]}.
    @app.exception_handler(DomainError)
    async def problem(_: Request, exc: DomainError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited) else None
        return JSONResponse({"detail": exc.message, "code": exc.code}, status_code=http_status(exc),
                            headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        errs = exc.errors()
        first = errs[0] if errs else {}
        where = ".".join(str(x) for x in first.get("loc", ()))
        return JSONResponse({"detail": f"{where}: {first.get('msg', 'invalid request')}",
                             "code": INVALID_REQUEST, "errors": _plain(list(errs))}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def framework(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        """The framework's own refusals (unknown path 404, 405, unparsable body 400 ...);
        a 405 lists in ``Allow`` every method the path has."""
        status, detail, headers = exc.status_code, exc.detail, dict(exc.headers or {})
        if status in (404, 405):
            allowed = allowed_methods(app, request.url.path)
            if allowed and request.method in allowed:  # the path's shape, but a parameter no route takes
                status, detail = 422, "path: a parameter does not fit the path (see /openapi.json)"
            elif status == 405 or allowed:  # an API path asked with a method it lacks (not the static 404)
                status, detail = 405, "Method Not Allowed"
                headers["Allow"] = ", ".join(allowed or ["GET", "HEAD"])  # a static file
        code = INVALID_REQUEST if status == 422 else http_code(status)
        return JSONResponse({"detail": detail, "code": code}, status_code=status, headers=headers)

    @app.exception_handler(Exception)
    async def failed(request: Request, exc: Exception) -> JSONResponse:
        # Starlette answers this one from its outermost middleware, around SecurityHeaders
        return JSONResponse({"detail": "internal server error", "code": "internal_error"}, status_code=500,
                            headers=security_headers(request.url.path))

    # The websocket route first: every socket's handshake is matched against the routes in
    # order, and an HTTP route never matches a websocket (bench/RESULTS.md, "2026-12-05, later:
    # the alternating rounds on a faster machine").
    for module in (ws, players, auth, friends, variants, rooms, bots, matches, push):
        app.include_router(module.router)
    app.include_router(friends.others)
    for router in clubs.routers:
        app.include_router(router)
    for router in duplicates.routers:
        app.include_router(router)
    app.include_router(club_tournaments.router)
    app.include_router(club_events.router)

    @app.get("/healthz", response_model=Health, tags=["health"],
             responses={503: {"model": Health, "description": "the database does not answer"}})
    async def healthz() -> JSONResponse:
        try:
            name = await run_in_threadpool(server.db.ping)
        except Exception as e:
            log.error("health check failed: %s", e)
            return JSONResponse({"ok": False, "database": f"error: {type(e).__name__}",
                                 "variants": list(VARIANTS)}, status_code=503)
        return JSONResponse({"ok": True, "database": name, "variants": list(VARIANTS)})

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        """Prometheus text format (app/metrics.py), for KOZYR_METRICS_TOKEN's bearer only."""
        refused = scrape_refusal(settings.metrics_token, request.headers.get("authorization"))
        return refused or Response(server.metrics.render(), media_type=server.metrics.content_type)

    # the client at /, the invite link /room/{code}, its assets under /v/<build>/
    app.state.static = StaticSite(static_root(settings))
    app.mount("/", app.state.static.router(), name="static")
    # FastAPI's docs pages (only those it serves) get their own CSP
    swagger = (app.docs_url, app.swagger_ui_oauth2_redirect_url) if app.docs_url else ()
    app.add_middleware(SecurityHeaders, docs={url for url in (*swagger, app.redoc_url) if url})
    return app


def allowed_methods(app: FastAPI, path: str) -> list[str]:
    """The methods the OpenAPI document gives ``path`` (none: not an API path); of the
    templates it fits, the most literal (``/devices/sign-out-others``, not ``/devices/{id}``)."""
    fits = [(template.count("{"), ops) for template, ops in app.openapi()["paths"].items()
            if compile_path(template)[0].match(path)]
    best = min((n for n, _ in fits), default=0)
    return sorted({method.upper() for n, ops in fits if n == best for method in ops})


def _plain(errs: list) -> list:
    """Each refused field as a FieldError (app/api/schemas.py)."""
    return [{"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
            for e in errs]


app = create_app()
