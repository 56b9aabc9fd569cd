"""server/bundle.py and server/pages.py without a browser: what the pages are made of and how it is served."""

from __future__ import annotations

import gzip
import json
import re
import urllib.request

import pytest

from server import bundle, pages


def _vfs(asset: bundle.Asset, prefix: str, suffix: str) -> dict:
    text = asset.body.decode()
    start = text.index(prefix) + len(prefix)
    return json.loads(text[start : text.index(suffix, start)])


_PRECOMPILED = re.compile(r'^__BRYTHON__\.precompiled\[("[^"]+")\]=(\[?)\(function\((locals_[\w$]+)\)\{$', re.M)


def _precompiled(asset: bundle.Asset) -> dict:
    """Module name -> its JavaScript (a list for a package), from the functions the script defines."""
    text = asset.body.decode()
    found = list(_PRECOMPILED.finditer(text))
    out = {}
    for at, match in enumerate(found):
        name, package, local = json.loads(match[1]), match[2] == "[", match[3]
        end = found[at + 1].start() if at + 1 < len(found) else text.index("__BRYTHON__.chronicle_precompiled", match.end())
        closing = f"\nreturn {local}}})]" if package else f"\nreturn {local}}})"
        body = text[match.end() + 1 : end].rstrip()
        assert body.endswith(closing + ";"), (name, body[-80:])
        out[name] = [body[: -len(closing) - 1]] if package else body[: -len(closing) - 1]
    return out


def test_bundle_has_brython_the_trimmed_stdlib_and_every_client_and_events_module():
    built = bundle.current()
    assert [name.split(".")[0] for name in built.scripts] == ["brython", "stdlib", "chronicle"]
    stdlib = _vfs(built.assets[built.scripts[1]], "var scripts = ", "\n__BRYTHON__.update_VFS")
    assert sorted(name for name in stdlib if name != "$timestamp") == sorted(bundle.STDLIB_MODULES)
    core = _package(built.assets[built.scripts[2]])
    modules = set(core)
    for game, name in built.games.items():
        part = _package(built.assets[name])
        assert all(bundle.game_of(module, tuple(built.games)) == game for module in part)
        assert f"events.games.{game}" in part
        modules |= set(part)
    expected = set()
    for path in bundle.source_files():
        parts = path.relative_to(bundle.ROOT).with_suffix("").parts
        expected.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    assert modules == expected
    # The core holds no rule system, and no test, static file or server module reaches the browser.
    assert not any(module.startswith("events.games.") for module in core)
    assert not any(module.startswith(("tests", "server", "client.static")) for module in modules)
    assert "mecha" in built.games


def _package(asset: bundle.Asset) -> dict:
    vfs = _vfs(asset, "__BRYTHON__.loadBrythonPackage(", ")\n")
    vfs.pop("$timestamp")
    return vfs


@pytest.mark.skipif(not bundle.precompile_enabled(), reason="precompiling needs node (CHRONICLE_PRECOMPILE=0 or no node)")
def test_every_python_module_is_precompiled_so_a_cold_page_compiles_nothing():
    built = bundle.current()
    for name in [built.scripts[1], built.scripts[2], *built.games.values()]:
        asset = built.assets[name]
        vfs = (_vfs(asset, "var scripts = ", "\n__BRYTHON__.update_VFS") if name.startswith("stdlib")
               else _vfs(asset, "__BRYTHON__.loadBrythonPackage(", ")\n"))
        python = {module for module, item in vfs.items() if module != "$timestamp" and item[0] == ".py"}
        compiled = _precompiled(asset)
        assert set(compiled) == python
        for module in python:
            # Packages are lists, as Brython keeps them in __BRYTHON__.precompiled.
            assert isinstance(compiled[module], list) == (len(vfs[module]) > 3)
    assert "__BRYTHON__.chronicle_precompiled = true;" in built.assets[built.scripts[2]].body.decode()


@pytest.mark.skipif(not bundle.precompile_enabled(), reason="precompiling needs node (CHRONICLE_PRECOMPILE=0 or no node)")
def test_precompiled_modules_are_functions_brython_calls_and_its_loader_is_patched_once():
    """Issue 16: no ``new Function`` of a module's text on the page's main thread; the same function Brython makes."""
    built = bundle.current()
    runtime = built.assets[built.scripts[0]].body.decode()
    assert bundle._LOADER_EITHER in runtime and bundle._LOADER_EAGER not in runtime
    assert runtime.replace(bundle._LOADER_EITHER, bundle._LOADER_EAGER) == (bundle.BRYTHON_DATA / "brython.js").read_text()
    core = built.assets[built.scripts[2]].body.decode()
    assert "__BRYTHON__.precompiled[\"client.main\"]=(function(locals_client_main){\n" in core
    assert "__BRYTHON__.precompiled[\"events\"]=[(function(locals_events){\n" in core  # a package: a list
    assert bundle.scope_name("events.games.mecha") == "events_games_mecha" and bundle.scope_name("a.é") == "a__"


def test_a_brython_whose_loader_changed_is_a_clear_error(monkeypatch, tmp_path):
    (tmp_path / "brython.js").write_text("var $module=something_else(mod)\n")
    monkeypatch.setattr(bundle, "BRYTHON_DATA", tmp_path)
    with pytest.raises(bundle.BundleError, match="VFS loader"):
        bundle.brython_js()


@pytest.mark.skipif(not bundle.precompile_enabled(), reason="precompiling needs node (CHRONICLE_PRECOMPILE=0 or no node)")
def test_a_module_brython_cannot_compile_is_left_to_the_browser_and_the_others_are_kept(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("CHRONICLE_CACHE", str(tmp_path))
    vfs = {"good": [".py", "x = 1\n", []], "bad": [".py", "def f(:\n", []], "pkg": [".py", "", [], 1]}
    compiled = bundle.precompile(vfs)
    assert sorted(compiled) == ["good", "pkg"] and isinstance(compiled["pkg"], list)
    assert "cannot precompile bad: '(' was never closed" in caplog.text
    assert bundle.precompile({"good": vfs["good"]}) == {"good": compiled["good"]}  # now from the cache


def test_bundle_names_carry_a_hash_of_their_content_and_gzip_round_trips():
    built = bundle.current()
    for name, asset in built.assets.items():
        assert name == bundle._named(name.split(".")[0], asset.body).name
        assert gzip.decompress(asset.gzipped) == asset.body


def test_bundle_is_stable_while_the_sources_do_not_change():
    """Same sources, same key, same bytes: the browser's caches (HTTP and indexedDB) stay valid."""
    files = bundle.source_files()
    key = bundle.source_key(files)
    (core, games), (core_again, games_again) = bundle.build_package_assets(key), bundle.build_package_assets(key)
    if bundle.source_key(bundle.source_files()) != key:
        pytest.skip("a source file changed during the test (someone is editing the tree)")
    assert core.name == core_again.name and core.body == core_again.body
    assert {g: a.name for g, a in games.items()} == {g: a.name for g, a in games_again.items()}
    assert f'{{"$timestamp":{int(key[:12], 16)},' in core.body.decode()[:80]


def test_trimmed_json_defers_its_encoder_so_re_and_enum_are_never_compiled():
    stdlib = json.loads(bundle.build_stdlib_js().decode().split("var scripts = ", 1)[1].split("\n__BRYTHON__", 1)[0])
    source = stdlib["json"][1]
    assert "from.encoder import JSONEncoder" not in source.splitlines()  # not at module level
    assert "def __getattr__(name):" in source
    assert "re" not in stdlib and "enum" not in stdlib


def test_an_unknown_stdlib_module_is_a_clear_error():
    with pytest.raises(bundle.BundleError, match="no module 'no_such_module'"):
        bundle.build_stdlib_js(("json", "no_such_module"))


def test_pages_are_shells_with_no_inline_script_and_no_request_data():
    for kind in ("lobby", "play", "watch", "replay"):
        html = pages.render_page(kind)
        assert f'<body data-page="{kind}" data-build="{bundle.current().key[:12]}">' in html
        # the play and watch pages also open their socket from socket.js (issue 16)
        assert html.count("<script") == html.count('<script src="/static/') == (6 if kind in ("play", "watch") else 5)
    # A game page names its rule system's script, so it loads alongside the others.
    html = pages.render_page("play", "mecha")
    assert html.count("<script") == 7 and f'/static/js/{bundle.current().games["mecha"]}' in html
    assert pages.render_page("play", "no-such-rules").count("<script") == 6


@pytest.mark.server
def test_served_pages_and_scripts(server):
    with urllib.request.urlopen(f"{server.base_url}/watch/%3Cb%3E", timeout=10) as response:
        assert response.headers["Content-Security-Policy"] == pages.CSP
        assert response.headers["Cache-Control"] == "no-cache"
        assert b"<b>" not in response.read()
    name = bundle.current().scripts[2]
    request = urllib.request.Request(f"{server.base_url}/static/js/{name}", headers={"Accept-Encoding": "identity"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert "Content-Encoding" not in response.headers
        assert response.read().startswith(b"__BRYTHON__.loadBrythonPackage(")
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{server.base_url}/static/js/chronicle.000000000000.js", timeout=10)
    assert missing.value.code == 404
    missing.value.close()


def test_the_entry_script_comes_compiled_or_as_source_for_the_page_to_compile(monkeypatch):
    """boot.js runs ENTRY's JavaScript when Node compiled it, else lets Brython compile the source (issue 16)."""
    def entry() -> dict:
        text = bundle.entry_js()
        return json.loads(re.fullmatch(r"__BRYTHON__\.chronicle_entry = (.*);\n", text, re.S)[1])

    if bundle.precompile_enabled():
        compiled = entry()
        assert compiled["src"] == bundle.ENTRY and compiled["name"] == "chronicle-main"
        assert "$B.$import_from(\"client.main\", 'start'" in compiled["js"]
    monkeypatch.setenv("CHRONICLE_PRECOMPILE", "0")
    assert entry() == {"name": "chronicle-main", "src": bundle.ENTRY, "js": None}
