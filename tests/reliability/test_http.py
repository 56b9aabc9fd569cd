"""The HTTP surface: every page carries a Content-Security-Policy; static routes refuse path traversal."""

from __future__ import annotations

import http.client

import pytest

from server.pages import CSP
from tests.reliability import report
from tests.server_fixture import create_game

pytestmark = pytest.mark.server

TRAVERSALS = [
    "/static/../server/app.py", "/static/..%2f..%2fpyproject.toml", "/static/%2e%2e/%2e%2e/pyproject.toml",
    "/static/js/../../server/tokens.py", "/static/js/..%2f..%2f..%2fpyproject.toml", "/static/....//....//etc/passwd",
    "/static/%252e%252e%252fpyproject.toml", "/static/..\\..\\pyproject.toml", "/static/js/%2e%2e%5c%2e%2e%5cMakefile",
    "/static//etc/passwd", "/static/%2fetc%2fpasswd", "/static/js/%00../../pyproject.toml", "/../../etc/passwd",
    "/play/..%2f..%2fpyproject.toml", "/api/games/..%2f..%2fpyproject.toml/log", "/static/style.css/../../Makefile",
]
SECRETS = (b"[project]", b"root:", b"def create_app", b"TOKEN_BYTES", b".PHONY")


def _get(port: int, path: str) -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path)  # sent as is: no client-side normalisation of ../
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def test_pages_carry_a_content_security_policy(quiet_server):
    game = create_game(quiet_server.base_url, "mecha/sample")
    pages = ["/", f"/play/{game['game']}", f"/watch/{game['game']}", f"/replay/{game['game']}", "/replay/g-none"]
    for path in pages:
        status, headers, body = _get(quiet_server.port, path)
        assert status == 200 and headers["content-security-policy"] == CSP, (path, status, headers)
        assert "script-src 'self'" in CSP and "object-src 'none'" in CSP and "'unsafe-inline'" not in CSP
        assert headers["x-content-type-options"] == "nosniff"
        assert b"<script>" not in body  # no inline script: the policy forbids it
    report.record("browser", "pages fetched: lobby, play, watch, replay", len(pages), len(pages),
                  "each with the Content-Security-Policy (scripts and styles from this origin only, no inline "
                  "script, no objects, no framing) and nosniff", unit="pages")


def test_static_routes_refuse_path_traversal(quiet_server):
    refused = 0
    for path in TRAVERSALS:
        status, _, body = _get(quiet_server.port, path)
        assert status in (400, 404), (path, status, body[:200])
        assert not any(secret in body for secret in SECRETS), (path, body[:200])
        refused += 1
    report.record("browser", "static and page routes asked for files outside their folder (../, %2e%2e, %2f, "
                  "double encoding, backslashes, NUL, absolute paths)", len(TRAVERSALS), refused,
                  "each 404 or 400, no file content", unit="paths")
