"""The browser client's files (``static/``), read once at start-up and served from memory.

URL scheme (README, "Static files"):

- ``/v/<build>/<path>``: every asset the pages load (CSS, JS modules, the translation
  catalogs ``i18n/*.json``).  ``<build>`` is the first 12 hex digits of a SHA-256 over
  the whole tree (every file's path and bytes), so a deploy that changes any file
  changes the prefix of every asset at once, and a page's ES modules (and the catalogs
  they fetch), which name each other by relative paths, all come from one build.  ``Cache-Control: public, max-age=31536000, immutable``.
- Entries keep one address for ever and are revalidated on every use
  (``Cache-Control: no-cache`` with an ``ETag``): the page at ``/`` and ``/room/{code}``
  and a club's invite link ``/club/join/{token}``
  (``index.html``, whose ``src`` / ``href`` to files of the tree are rewritten here to
  the prefix), any ``*.html``, and the reserved ``/sw.js`` and ``/manifest.webmanifest``
  (the worker gets the build's id and the versioned addresses of the files it keeps
  offline written into it here, ``StaticSite.worker``).
- Any other file also answers at its plain path with ``no-cache`` (a page cached before
  the prefix existed still finds its modules); our pages never ask for those.
- A prefix other than this build's is 404 (``no-store``): serving today's bytes under
  yesterday's (or tomorrow's, from a replica not yet updated) immutable URL would be
  kept by browsers and caches for a year.

Text files (js, css, html, svg, json, manifest) are gzipped once here (level 9) and
sent with ``Content-Encoding: gzip`` and ``Vary: Accept-Encoding`` to clients that
accept it.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, Router

VERSIONED = "/v/"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# never under the prefix: the addresses others keep (bookmarks, the service worker's
# registration, the manifest link)
SERVICE_WORKER = "sw.js"
MANIFEST = "manifest.webmanifest"
TYPES = {".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".html": "text/html; charset=utf-8",
         ".svg": "image/svg+xml", ".json": "application/json",
         ".webmanifest": "application/manifest+json", ".txt": "text/plain; charset=utf-8", ".png": "image/png"}
# what the service worker keeps for offline use (sw.js): the page's own files
SHELL_TYPES = {".js", ".css", ".json", ".svg", ".png"}
COMPRESSIBLE = {".js", ".mjs", ".css", ".html", ".svg", ".json", ".webmanifest", ".txt"}
# a file of the tree named by an attribute of an HTML entry: src="/js/app.js"
REFERENCE = re.compile(r'\b(src|href)="/([^"?#]+)"')


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes | None  # None: not worth it (not text, or no smaller)
    media_type: str
    etag: str  # of the identity body; the gzipped one adds "-gzip"


def is_entry(path: str) -> bool:
    return path.endswith(".html") or path in (SERVICE_WORKER, MANIFEST)


def tree_hash(files: dict[str, bytes]) -> str:
    h = hashlib.sha256()
    for path in sorted(files):
        h.update(path.encode() + b"\0" + hashlib.sha256(files[path]).digest())
    return h.hexdigest()[:12]


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header admits gzip (named or ``*``, q not 0)."""
    for part in accept_encoding.split(","):
        name, _, params = part.partition(";")
        if name.strip().lower() not in ("gzip", "*"):
            continue
        q = params.strip().lower()
        if q.startswith("q="):
            try:
                if float(q[2:]) == 0:
                    continue
            except ValueError:
                continue
        return True
    return False


class StaticSite:
    """The tree under ``root`` as it was at start-up, with its build prefix."""

    def __init__(self, root: Path) -> None:
        files = {p.relative_to(root).as_posix(): p.read_bytes()
                 for p in sorted(root.rglob("*")) if p.is_file()}
        self.build = tree_hash(files)
        self.prefix = f"{VERSIONED}{self.build}/"
        self.assets: dict[str, Asset] = {}
        for path, body in files.items():
            if path.endswith(".html"):
                body = self.rewrite(body.decode(), files).encode()
            elif path == SERVICE_WORKER:
                body = self.worker(body.decode(), files).encode()
            self.assets[path] = self._asset(path, body)

    def rewrite(self, html: str, files: dict[str, bytes]) -> str:
        """An entry's references to files of the tree, moved under the build prefix."""
        def versioned(m: re.Match[str]) -> str:
            attr, path = m.group(1), m.group(2)
            return f'{attr}="{self.url(path)}"' if path in files else m.group(0)
        return REFERENCE.sub(versioned, html)

    def worker(self, source: str, files: dict[str, bytes]) -> str:
        """The service worker with this build's id and the versioned addresses of the app
        shell it keeps (every file of the tree but the entries and the licences)."""
        shell = [self.url(p) for p in files if not is_entry(p) and Path(p).suffix.lower() in SHELL_TYPES]
        return (source.replace("'__KOZYR_BUILD__'", json.dumps(self.build))
                .replace("'__KOZYR_SHELL__'", json.dumps(shell)))

    @staticmethod
    def _asset(path: str, body: bytes) -> Asset:
        suffix = Path(path).suffix.lower()
        media = TYPES.get(suffix) or mimetypes.guess_type(path)[0] or "application/octet-stream"
        packed = gzip.compress(body, compresslevel=9, mtime=0) if suffix in COMPRESSIBLE else None
        if packed is not None and len(packed) >= len(body):
            packed = None
        return Asset(body, packed, media, hashlib.sha256(body).hexdigest()[:20])

    def url(self, path: str) -> str:
        """Where the pages load a file of the tree from."""
        return f"/{path}" if is_entry(path) else self.prefix + path

    def router(self) -> Router:
        return Router(routes=[
            Route("/", self._page, methods=["GET", "HEAD"]),
            Route("/room/{code}", self._page, methods=["GET", "HEAD"]),
            Route("/club/join/{token}", self._page, methods=["GET", "HEAD"]),
            Route(VERSIONED + "{build}/{path:path}", self._versioned, methods=["GET", "HEAD"]),
            Route("/{path:path}", self._plain, methods=["GET", "HEAD"]),
        ])

    async def _page(self, request: Request) -> Response:
        return self.respond(request, "index.html", REVALIDATE)

    async def _versioned(self, request: Request) -> Response:
        path = request.path_params["path"]
        if request.path_params["build"] != self.build or is_entry(path):
            raise missing()
        return self.respond(request, path, IMMUTABLE)

    async def _plain(self, request: Request) -> Response:
        return self.respond(request, request.path_params["path"], REVALIDATE)

    def respond(self, request: Request, path: str, cache: str) -> Response:
        asset = self.assets.get(path)
        if asset is None:
            raise missing()
        packed = asset.gzipped is not None and accepts_gzip(request.headers.get("accept-encoding", ""))
        etag = f'"{asset.etag}-gzip"' if packed else f'"{asset.etag}"'
        headers = {"Cache-Control": cache, "ETag": etag}
        if asset.gzipped is not None:
            headers["Vary"] = "Accept-Encoding"
        if etag in [t.strip().removeprefix("W/") for t in request.headers.get("if-none-match", "").split(",")]:
            return Response(status_code=304, headers=headers)
        if packed:
            headers["Content-Encoding"] = "gzip"
        return Response(asset.gzipped if packed else asset.body, media_type=asset.media_type, headers=headers)


def missing() -> HTTPException:
    """404 through the app's error handler (the API's error body), never cached."""
    return HTTPException(404, headers={"Cache-Control": "no-store"})
