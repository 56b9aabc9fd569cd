"""Page assets over HTTP (issue 16): every script and stylesheet a page names has a content-hashed
URL served ``immutable`` for a year, the HTML is ``no-cache``, and any other name under
``/static/`` (unknown, stale, unhashed, hostile) is a plain 404 that no cache keeps, never a 500."""

from __future__ import annotations

import gzip
import hashlib
import http.client
import re
import urllib.parse

import pytest

from server import pages
from tests.server_fixture import create_game

HASHED = re.compile(r"^/static/(js/|i18n/)?[a-z0-9-]+\.([0-9a-f]{12})\.(js|css)$")


def fetch(server, path: str, method: str = "GET", headers: dict | None = None) -> tuple:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def asset_urls(html: bytes) -> list:
    text = html.decode()
    return re.findall(r'<script src="([^"]+)"', text) + re.findall(r'<link rel="stylesheet" href="([^"]+)"', text)


@pytest.fixture(scope="module")
def page_paths(shared_server) -> list:
    game = create_game(shared_server.base_url)
    return ["/", game["seats"]["red"]["link"].split("#")[0], f"/watch/{game['game']}", f"/replay/{game['game']}"]


def test_every_asset_of_every_page_is_content_hashed_and_immutable(shared_server, page_paths):
    seen = set()
    for path in page_paths:
        status, headers, html = fetch(shared_server, path, headers={"Accept-Language": "fr"})
        assert status == 200 and headers["cache-control"] == "no-cache", path  # a new release is picked up
        urls = asset_urls(html)
        # catalogue, brython, stdlib, chronicle, (the game's script,) boot.js, style.css, and on the
        # play and watch pages socket.js (the game's socket opened from the head, issue 16)
        live = path.startswith(("/play/", "/watch/"))
        assert len(urls) == (6 if path == "/" else 8 if live else 7), (path, urls)
        for url in urls:
            found = HASHED.match(url)
            assert found, url
            seen.add(url)
            status, headers, body = fetch(shared_server, url, headers={"Accept-Encoding": "gzip, deflate"})
            assert status == 200, url
            assert headers["cache-control"] == pages.IMMUTABLE, url
            assert headers["content-encoding"] == "gzip" and headers["x-content-type-options"] == "nosniff"
            assert headers["vary"] == "Accept-Encoding"
            plain = gzip.decompress(body)
            assert hashlib.sha256(plain).hexdigest()[:12] == found[2], url  # the name is the content's hash
            assert headers["content-type"].startswith("text/css" if url.endswith(".css") else "text/javascript")
    assert any("/i18n/i18n-fr." in url for url in seen) and any("/static/boot." in url for url in seen)
    assert any("/js/brython." in url for url in seen) and any("/js/game-mecha." in url for url in seen)
    assert any("/static/socket." in url for url in seen)


def test_only_the_live_pages_open_their_socket_from_the_head_before_any_other_script(shared_server, page_paths):
    for path in page_paths:
        status, _headers, html = fetch(shared_server, path)
        assert status == 200, path
        head = html.decode().split("</head>", 1)[0]
        scripts = re.findall(r'<script src="([^"]+)"', html.decode())
        live = path.startswith(("/play/", "/watch/"))
        # in the head, so the socket opens before the body's scripts are even fetched; a src, never inline (CSP)
        assert ('<script src="/static/socket.' in head) == live, path
        assert any("/static/socket." in url for url in scripts) == live, path
        assert "<script>" not in html.decode(), path


def test_an_asset_is_sent_plain_to_a_client_that_refuses_gzip(shared_server, page_paths):
    _, _, html = fetch(shared_server, page_paths[1])
    for url in asset_urls(html):
        for refusal in ("identity", "gzip;q=0, identity", "GZIP; q=0.000", ""):
            status, headers, body = fetch(shared_server, url, headers={"Accept-Encoding": refusal})
            assert status == 200 and "content-encoding" not in headers, (url, refusal)
            assert hashlib.sha256(body).hexdigest()[:12] == HASHED.match(url)[2]
        status, headers, body = fetch(shared_server, url, headers={"Accept-Encoding": "br;q=1, GZip;q=0.5"})
        assert headers["content-encoding"] == "gzip" and gzip.decompress(body)
    # Past its bound (MAX_ACCEPT_ENCODING bytes) the header is not read: gzip named there is not seen.
    status, headers, body = fetch(shared_server, url, headers={"Accept-Encoding": "x, " * 1000 + "gzip"})
    assert status == 200 and "content-encoding" not in headers
    assert pages.accepts_gzip("*") and not pages.accepts_gzip("*, gzip;q=0") and pages.accepts_gzip("x-gzip")


def test_unknown_stale_unhashed_or_hostile_asset_names_are_404_never_500(shared_server, page_paths):
    _, _, html = fetch(shared_server, page_paths[1])
    wrong = []
    for url in asset_urls(html):
        digest = HASHED.match(url)[2]
        wrong.append(url.replace(digest, "0" * 12))  # unknown or stale: an old build's name
        wrong.append(url.replace(f".{digest}", ""))  # unhashed: style.css, boot.js, js/brython.js
        if digest != digest.upper():
            wrong.append(url.replace(digest, digest.upper()))
    wrong += [
        "/static/", "/static/js/", "/static/games/mecha.css", "/static/style.css", "/static/boot.js",
        "/static/" + "a" * 4000 + ".js", "/static/js/%00.js", "/static/i18n/i18n-xx.000000000000.js",
        "/static/..%2F..%2Fserver%2Fapp.py", "/static/js/..%2F..%2F..%2Fetc%2Fpasswd",
        "/static/%2e%2e/server/app.py", "/static/js/%FF%FE.js", "/static/i18n/" + urllib.parse.quote("é" * 300),
    ]
    for path in wrong:
        status, headers, body = fetch(shared_server, path)
        assert status == 404, (path, status, body[:200])
        assert headers["cache-control"] == "no-store", path  # a name unknown now may exist after a rebuild
        assert len(body) < 200 and b"Traceback" not in body


def test_assets_answer_head_and_refuse_other_methods_without_a_500(shared_server, page_paths):
    _, _, html = fetch(shared_server, page_paths[0])
    url = asset_urls(html)[0]
    status, headers, body = fetch(shared_server, url, method="HEAD")
    assert status == 200 and body == b"" and headers["cache-control"] == pages.IMMUTABLE
    for method in ("POST", "PUT", "DELETE"):
        status, headers, _ = fetch(shared_server, url, method=method)
        assert status == 405, method


def test_an_edited_stylesheet_gets_a_new_name_and_the_last_few_stay_servable(tmp_path, monkeypatch):
    (tmp_path / "games").mkdir()
    (tmp_path / "boot.js").write_text("// boot\n")
    (tmp_path / "games" / "mecha.css").write_text(".mecha-board {}\n")
    monkeypatch.setattr(pages, "STATIC_DIR", tmp_path)
    statics = pages._Statics()
    names = []
    for version in range(pages._Statics.KEEP + 1):
        (tmp_path / "style.css").write_text(f"body {{ margin: {version}px; }}\n" + "x" * version)  # a new size
        files = statics.current()
        assert b".mecha-board {}" in files["style.css"].body and f"margin: {version}px".encode() in files["style.css"].body
        names.append(files["style.css"].name)
        assert statics.current() is files  # unchanged files: not rebuilt
    assert len(set(names)) == len(names) and statics.named(names[-1]).name == names[-1]
    assert all(statics.named(name) is not None for name in names[1:])  # a page fetched before the edit
    assert statics.named(names[0]) is None  # older than the last KEEP versions: a 404
    assert statics.named(statics.current()["boot.js"].name).body == b"// boot\n"
