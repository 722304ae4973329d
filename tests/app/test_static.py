"""Static files served like a product (app/static.py) and the security headers on every
answer (app/headers.py): one build prefix for every asset, cache headers per kind, gzip,
and a CSP our pages keep."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import sqlite3
import struct
from contextlib import ExitStack
from html.parser import HTMLParser
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from app.main import STATIC, create_app
from app.static import IMMUTABLE, REVALIDATE, StaticSite, accepts_gzip

from .conftest import make_settings, serve
from .helpers import connect, make_room

PAGES = ["/", "/room/ABCD", "/room/zz99", "/club/join/Ab3_x-9"]  # the last: a club invite link (issue 37)
GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}


class Assets(HTMLParser):
    """What a page loads by itself: scripts, style sheets, icons, images; inline scripts,
    style attributes and inline event handlers it has."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.inline: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script":
            (self.urls.append(a["src"]) if a.get("src") else self.inline.append("<script> without src"))
        elif tag == "link" and a.get("href"):
            self.urls.append(a["href"])
        elif tag in ("img", "source", "iframe", "embed") and a.get("src"):
            self.urls.append(a["src"])
        self.inline += [f"<{tag} {k}>" for k in a if k == "style" or k.startswith("on")]
        self.inline += [f"<{tag} {k}={v}>" for k, v in a.items() if (v or "").strip().lower().startswith("javascript:")]


def page_assets(html: str) -> Assets:
    p = Assets()
    p.feed(html)
    return p


@pytest.fixture(scope="module")
def site(client) -> StaticSite:
    return client.app.state.static


@pytest.mark.parametrize("page", PAGES)
def test_every_asset_of_a_page_comes_from_the_build_prefix(client, site, page):
    r = client.get(page)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    found = page_assets(r.text)
    local = [u for u in found.urls if not u.startswith("data:")]
    assert len(local) >= 4  # three style sheets and the app module
    assert re.fullmatch(r"/v/[0-9a-f]{12}/", site.prefix)
    for url in local:
        asset = client.get(url)
        assert asset.status_code == 200, url
        if url == "/manifest.webmanifest":  # an entry: one address for ever, revalidated
            assert asset.headers["cache-control"] == REVALIDATE
            continue
        assert url.startswith(site.prefix), url
        assert asset.headers["cache-control"] == IMMUTABLE
    assert not found.inline, found.inline


def test_modules_import_each_other_by_relative_paths_so_they_stay_in_the_prefix():
    """An absolute import ('/js/x.js') would leave /v/<build>/ and mix builds."""
    specifier = re.compile(r"""(?:\bimport\s*\(?|\bfrom)\s*['"]([^'"]+)['"]""")
    css_url = re.compile(r"""url\(\s*['"]?([^'")]+)""")
    seen = 0
    for path in (STATIC / "js").rglob("*.js"):
        for spec in specifier.findall(path.read_text()):
            seen += 1
            assert spec.startswith(("./", "../")), f"{path.name}: {spec}"
    for path in (STATIC / "css").rglob("*.css"):
        for url in css_url.findall(path.read_text()):
            assert url.startswith("data:") or not url.startswith("/"), f"{path.name}: {url}"
    assert seen > 20


def test_the_client_sets_no_style_attribute_and_no_inline_handler():
    """The CSP refuses style attributes (style-src 'self'): styles go through the CSSOM
    (dom.js setStyle, which refuses a string); the browser tests catch the rest at run time."""
    # (Intl's `style` option — {style: 'percent'}, ListFormat's 'long' — is no style attribute)
    bad = re.compile(r"""\bstyle\s*[=:]\s*['"`](?!(percent|decimal|currency|unit|long|short|narrow)['"`])|setAttribute\(\s*['"]style|cssText|\bon[a-z]+\s*=\s*['"]|javascript:"""
                     r"""|innerHTML|outerHTML|insertAdjacentHTML|\beval\(|new Function""")
    for path in [*STATIC.rglob("*.js"), *STATIC.rglob("*.html")]:
        if path.is_relative_to(VENDOR):
            continue  # a library's own file, as released (below)
        for n, line in enumerate(path.read_text().splitlines(), start=1):
            assert not bad.search(line), f"{path.relative_to(STATIC)}:{n}: {line.strip()}"


VENDOR = STATIC / "vendor"


def test_vendored_libraries_carry_their_licence_and_are_used_without_html_strings():
    """static/vendor/<name>/ holds a library's released ES-module file and its LICENCE.
    morphdom parses HTML only when handed a string: patch.js hands it elements alone."""
    libs = [d for d in VENDOR.iterdir() if d.is_dir()]
    assert [d.name for d in libs] == ["morphdom"]
    for lib in libs:
        assert (lib / "LICENSE").read_text().strip(), lib
    patch = (STATIC / "js" / "patch.js").read_text()
    calls = re.findall(r"morphdom\(([^,]+),\s*([^,]+),", patch)
    assert calls == [("el", "next")], calls
    assert "const next = el.cloneNode(false);" in patch


def test_cache_headers_per_kind(client, site):
    for page in PAGES:
        assert client.get(page).headers["cache-control"] == REVALIDATE
    assert client.get(site.prefix + "js/app.js").headers["cache-control"] == IMMUTABLE
    assert client.get(site.prefix + "css/app.css").headers["cache-control"] == IMMUTABLE
    # the same file at its plain path (a page cached before the prefix): revalidated
    plain = client.get("/js/app.js")
    assert plain.status_code == 200 and plain.headers["cache-control"] == REVALIDATE
    assert plain.content == client.get(site.prefix + "js/app.js").content
    # another build's prefix, an entry under the prefix, a missing file: 404, never stored
    for url in ["/v/000000000000/js/app.js", "/v/" + site.build[:-1] + "/js/app.js",
                site.prefix + "index.html", site.prefix + "js/nope.js", "/nope.js", "/v/"]:
        r = client.get(url)
        assert r.status_code == 404, url
        assert r.headers["cache-control"] == "no-store", url
        assert r.json()["detail"] == "Not Found"  # the app's error body, not a bare text


def test_etag_revalidation_answers_304(client, site):
    for url in ["/", site.prefix + "js/app.js"]:
        for enc in (GZIP, PLAIN):
            first = client.get(url, headers=enc)
            again = client.get(url, headers={**enc, "If-None-Match": first.headers["etag"]})
            assert again.status_code == 304 and again.content == b""
            assert again.headers["etag"] == first.headers["etag"]
            assert again.headers["cache-control"] == first.headers["cache-control"]
            other = client.get(url, headers={**enc, "If-None-Match": '"something-else"'})
            assert other.status_code == 200 and other.content == first.content
    # the identity and the gzipped bodies are two representations: two tags
    assert client.get("/", headers=GZIP).headers["etag"] != client.get("/", headers=PLAIN).headers["etag"]


@pytest.mark.parametrize("path", ["index.html", "js/app.js", "js/table.js", "css/app.css"])
def test_text_assets_are_gzipped_for_clients_that_accept_it(client, site, path):
    url = "/" if path == "index.html" else site.prefix + path
    with client.stream("GET", url, headers=GZIP) as r:
        packed = b"".join(r.iter_raw())
        assert r.headers["content-encoding"] == "gzip"
        assert r.headers["vary"] == "Accept-Encoding"
        assert int(r.headers["content-length"]) == len(packed)
    with client.stream("GET", url, headers=PLAIN) as r:
        body = b"".join(r.iter_raw())
        assert "content-encoding" not in r.headers and r.headers["vary"] == "Accept-Encoding"
    assert gzip.decompress(packed) == body
    assert len(packed) < len(body) / 2
    with client.stream("GET", url, headers={"Accept-Encoding": "br, gzip;q=0"}) as r:
        assert "content-encoding" not in r.headers and b"".join(r.iter_raw()) == body


def test_accept_encoding_parsing():
    assert accepts_gzip("gzip") and accepts_gzip("br, gzip, deflate") and accepts_gzip("*")
    assert accepts_gzip("gzip;q=0.5") and accepts_gzip("GZIP ; q=1")
    assert not accepts_gzip("") and not accepts_gzip("identity") and not accepts_gzip("br")
    assert not accepts_gzip("gzip;q=0") and not accepts_gzip("gzip; q=0.000") and not accepts_gzip("x-gzip")


def test_the_build_prefix_changes_with_any_file_and_only_then(tmp_path):
    tree = tmp_path / "static"
    shutil.copytree(STATIC, tree)
    before = StaticSite(tree)
    assert StaticSite(tree).build == before.build == StaticSite(STATIC).build
    deep = tree / "js" / "families" / "king.js"
    deep.write_text(deep.read_text() + "\n")
    changed = StaticSite(tree)
    assert changed.build != before.build
    assert changed.prefix in changed.assets["index.html"].body.decode()
    assert before.prefix not in changed.assets["index.html"].body.decode()
    deep.rename(tree / "js" / "families" / "king2.js")  # the same bytes under another name
    assert StaticSite(tree).build != changed.build


def test_entries_keep_their_plain_address(tmp_path):
    """sw.js and manifest.webmanifest (reserved for the service worker and the manifest)
    and any HTML page are never put under the prefix; their references are."""
    tree = tmp_path / "static"
    shutil.copytree(STATIC, tree)
    site = StaticSite(tree)
    html = site.assets["index.html"].body.decode()
    assert 'href="/manifest.webmanifest"' in html and f'src="{site.prefix}js/app.js"' in html
    assert site.url("sw.js") == "/sw.js" and site.url("js/app.js") == site.prefix + "js/app.js"
    assert site.assets["manifest.webmanifest"].media_type == "application/manifest+json"
    assert site.assets["sw.js"].media_type.startswith("text/javascript")


def test_the_worker_is_told_its_build_and_the_shell_it_keeps(client, site):
    """sw.js comes with this build's id and the versioned address of every file of the app
    shell (modules, styles, translations, icons), each of which answers; revalidated."""
    r = client.get("/sw.js")
    assert r.status_code == 200 and r.headers["cache-control"] == REVALIDATE
    body = r.text
    assert "__KOZYR_" not in body
    assert f'const BUILD = "{site.build}";' in body
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", body).group(1))
    on_disk = {p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.is_file()}
    expected = {site.prefix + p for p in on_disk
                if Path(p).suffix in (".js", ".css", ".json", ".svg", ".png") and p != "sw.js"}
    assert set(shell) == expected
    assert {site.prefix + "js/app.js", site.prefix + "css/app.css", site.prefix + "icons/icon-192.png"} <= set(shell)
    for url in shell[:5]:
        assert client.get(url).status_code == 200


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_makes_an_installable_app(client):
    """The fields Chromium's installability check and the stores read, and icons of the sizes
    they claim (PNG header), one of them maskable at 512 px."""
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/manifest+json")
    m = r.json()
    assert m["name"] and m["short_name"] == "Kozyr" and m["start_url"] == "/" and m["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", m["theme_color"]) and m["background_color"]
    sizes = set()
    for icon in m["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200, icon
        if icon["type"] == "image/png":
            w, h = png_size(got.content)
            assert icon["sizes"] == f"{w}x{h}", icon
            sizes.add((w, icon["purpose"]))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes
    page = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page and '<meta name="theme-color"' in page


CSP_MUST = ["default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
            "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'",
            "frame-ancestors 'none'"]


def test_security_headers_on_every_kind_of_answer(client, site):
    player = client.post("/api/players", json={"name": "Csp"}).json()
    answers = [client.get("/"), client.get("/room/ABCD"), client.get(site.prefix + "js/app.js"),
               client.get("/healthz"), client.get("/api/variants"), client.get("/nope"),
               client.get("/api/players/me", headers={"X-Player-Token": player["token"]}),
               client.get("/api/players/me"), client.post("/api/players", json={"name": ""}),
               client.get("/", headers={"If-None-Match": client.get("/").headers["etag"]})]
    for r in answers:
        csp = [d.strip() for d in r.headers["content-security-policy"].split(";")]
        assert set(CSP_MUST) <= set(csp), (r.url, csp)
        assert "unsafe-inline" not in r.headers["content-security-policy"]
        assert "unsafe-eval" not in r.headers["content-security-policy"]
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
        assert r.headers["x-frame-options"] == "DENY"


def test_the_docs_have_their_own_policy(client):
    """FastAPI's Swagger UI is an inline script and files from a CDN: allowed there only."""
    docs = client.get("/docs")
    assert docs.status_code == 200 and "cdn.jsdelivr.net" in docs.text
    policy = docs.headers["content-security-policy"]
    assert "https://cdn.jsdelivr.net" in policy and "frame-ancestors 'none'" in policy
    assert docs.headers["x-content-type-options"] == "nosniff"
    assert "cdn.jsdelivr.net" not in client.get("/openapi.json").headers["content-security-policy"]
    assert "unsafe-inline" in client.get("/redoc").headers["content-security-policy"]


def test_without_the_docs_their_paths_get_the_strict_policy(tmp_path):
    with serve(f"sqlite:///{tmp_path / 'kozyr.db'}", docs=False) as c:
        for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
            r = c.get(path)
            assert r.status_code == 404 and "cdn.jsdelivr.net" not in r.headers["content-security-policy"]


def test_websockets_are_neither_compressed_nor_touched(client):
    """The headers middleware and the compression are for HTTP answers: a websocket
    opened with Accept-Encoding: gzip gets its JSON text frames as ever."""
    room, players = make_room(client, "king-classic", 4)
    with ExitStack() as stack:
        c = connect(client, stack, room["code"], players[0], 0)
        welcome, _ = c.recv_until(lambda m: m["type"] == "welcome")
        assert welcome["seat"] == 0
        c.wait_view(0)
    with client.websocket_connect(f"/api/rooms/{room['code']}/ws?token={players[1]['token']}",
                                  headers={"Accept-Encoding": "gzip"}) as ws:
        first = ws.receive_text()
        assert first.lstrip().startswith("{") and '"type"' in first


def test_static_tree_file_listing_matches_the_served_assets(site):
    on_disk = {p.relative_to(STATIC).as_posix() for p in Path(STATIC).rglob("*") if p.is_file()}
    assert set(site.assets) == on_disk


def test_an_internal_error_keeps_the_security_headers(tmp_path):
    """A 500 is answered by Starlette's outermost middleware, outside ours: the handler sets
    the same headers.  The fault is real: the players table is gone under a running app."""
    db = tmp_path / "kozyr.db"
    app = create_app(make_settings(f"sqlite:///{db}"))
    try:
        with TestClient(app, raise_server_exceptions=False) as c:
            assert c.post("/api/players", json={"name": "Before"}).status_code == 201
            with sqlite3.connect(db) as raw:
                raw.execute("PRAGMA foreign_keys = OFF")
                raw.execute("DROP TABLE players")
            r = c.get("/api/players/me", headers={"Authorization": "Bearer not-a-cached-token"})
            assert r.status_code == 500 and r.json()["code"] == "internal_error"
            assert "Traceback" not in r.text and "players" not in r.text
            csp = [d.strip() for d in r.headers["content-security-policy"].split(";")]
            assert set(CSP_MUST) <= set(csp)
            assert r.headers["x-content-type-options"] == "nosniff"
            assert r.headers["x-frame-options"] == "DENY"
    finally:
        app.state.db.dispose()


# --- the translation catalogs (static/i18n/<lang>.json, loaded by js/i18n.js) -------------

LANGS = ("ru", "pl", "en")
PLURAL_FORMS = {"zero", "one", "two", "few", "many", "other"}


def catalog_texts(node, path=""):
    """(key, text) of a catalog: a string, a list (bot names) or a plural entry (a dict
    with `other` and only CLDR forms)."""
    for key, value in node.items():
        here = f"{path}.{key}" if path else key
        if isinstance(value, dict) and not ("other" in value and set(value) <= PLURAL_FORMS):
            yield from catalog_texts(value, here)
        else:
            yield here, value


def test_the_catalogs_are_served_like_the_modules(client, site):
    """js/i18n.js asks for ../i18n/<lang>.json beside itself: under the build prefix,
    immutable, gzipped."""
    assert "new URL(`../i18n/${l}.json`, import.meta.url)" in (STATIC / "js" / "i18n.js").read_text()
    for lang in LANGS:
        r = client.get(site.prefix + f"i18n/{lang}.json", headers=GZIP)
        assert r.status_code == 200
        assert r.headers["cache-control"] == IMMUTABLE
        assert r.headers["content-type"] == "application/json"
        assert r.headers["content-encoding"] == "gzip"
        assert r.json()["player"]["my_page"]


def test_every_catalog_has_the_same_keys_and_sound_plurals():
    """ru, pl and en have the same keys; a plural entry has `other` and only CLDR forms; a
    translation keeps every {var} of the English text (a plural form may leave out {n})."""
    cats = {lang: dict(catalog_texts(json.loads((STATIC / "i18n" / f"{lang}.json").read_text()))) for lang in LANGS}
    assert set(cats["ru"]) == set(cats["pl"]) == set(cats["en"])
    var = re.compile(r"\{(\w+)\}")

    def texts(entry):
        return list(entry.values()) if isinstance(entry, dict) else [entry] if isinstance(entry, str) else []
    for key, en in cats["en"].items():
        wanted = set(var.findall(" ".join(texts(en))))
        for lang in ("ru", "pl"):
            for text in texts(cats[lang][key]):
                assert set(var.findall(text)) | {"n"} >= wanted, (lang, key, text)
    assert set(cats["ru"]["cards_n"]) == {"one", "few", "many", "other"}
    assert set(cats["en"]["cards_n"]) == {"one", "other"}


def test_no_gendered_past_tense_about_a_player_in_ru_and_pl():
    """What a player did is said without a masculine past tense ("{name} берёт прикуп",
    "{name} bierze musik", "сыграно", "poddane"): the forms the catalogs used to have."""
    gendered = {"ru": r"вернул|взял|сдался|сыграл|расписал|отказался|вернулся|был|слез|упал|сбит|играл|потребовал"
                      r"|закончил|согласен|него",
                "pl": r"poddał|zrezygnował|wziął|cofnął|był|zszedł|spadł|zrzucony|grał|zażądał|odrzucił|zakończył"
                      r"|niego|winien"}
    for lang, words in gendered.items():
        pattern = re.compile(rf"(?<!\w)({words})(?!\w)", re.IGNORECASE)
        for key, value in catalog_texts(json.loads((STATIC / "i18n" / f"{lang}.json").read_text())):
            for text in (value.values() if isinstance(value, dict) else [value] if isinstance(value, str) else []):
                assert not pattern.search(text), (lang, key, text)


def test_client_modules_import_no_cycle():
    """The client's ES modules form no import cycle (lobby.js and history.js once did:
    the names both show are in names.js now)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "static" / "js"
    graph = {}
    for path in root.rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        deps = re.findall(r"""^\s*(?:import|export)\b[^'"]*?from\s+['"](\.{1,2}/[^'"]+)['"]""", text, re.M)
        graph[path] = [(path.parent / d).resolve() for d in deps]
    assert root / "lobby.js" in graph and graph[root / "history.js"]

    def cycle_from(start, seen, trail):
        for nxt in graph.get(start, []):
            if nxt in trail:
                return [*trail[trail.index(nxt):], nxt]
            if nxt not in seen:
                seen.add(nxt)
                found = cycle_from(nxt, seen, [*trail, nxt])
                if found:
                    return found
        return None

    for module in graph:
        found = cycle_from(module, {module}, [module])
        assert found is None, " -> ".join(p.name for p in found)
