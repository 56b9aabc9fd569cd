"""The browser's JavaScript: Brython, a trimmed standard library and Chronicle's own Python.

BRYTHON.md measured that a page's load time is decided by what Python it imports and how many
requests that takes, so a page loads three scripts (and its game's), each with a content hash in its
URL and served gzipped with a one-year cache:

- ``brython.<hash>.js``: Brython's runtime, as shipped;
- ``stdlib.<hash>.js``: only the standard-library modules the pages import (``STDLIB_MODULES``,
  found by loading every page against the full ``brython_stdlib.js``; ``tests/browser`` checks that
  no page asks for a module outside it), cut from ``brython_stdlib.js``;
- ``chronicle.<hash>.js``: the ``client`` and ``events`` packages, made by Brython's own
  ``make_package`` (``brython-cli make_package``), one ``__BRYTHON__.loadBrythonPackage`` call, so an
  ``import`` costs no request; without the rule systems, each of which has its own
  ``game-<name>.<hash>.js`` that a page loads once it knows its game.

Every Python module also ships precompiled to JavaScript (by Brython's own compiler, run under
Node here), so a cold page compiles nothing but its two-line entry script.

Bundles are built on first use into a cache directory outside git (``$CHRONICLE_CACHE`` or the
system temp dir), keyed by a hash of the sources, and rebuilt when a source file changes. Each
module in the package bundle carries a timestamp derived from that hash: Brython keeps compiled
modules in the browser's indexedDB keyed by it, so a warm page skips compiling until the sources
really change.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import importlib.metadata
import io
import json
import logging
import os
import re
import shutil
import subprocess
import tempfile
import threading
import tokenize
from pathlib import Path

import brython
import brython.make_package

log = logging.getLogger("chronicle.bundle")

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("client", "events")
BRYTHON_DATA = Path(brython.__file__).parent / "data"
FORMAT = "5"  # bump when the way bundles are made changes
BRYTHON_VERSION = importlib.metadata.version("brython")

# Standard-library modules the pages import at run time, measured (docs/client.md): the three pages
# loaded against the full brython_stdlib.js, then ``Object.keys(__BRYTHON__.imported)`` minus what
# brython.js itself defines. ``crypto_js.rollups.sha256`` is not imported by name: ``hashlib`` evals
# it from the VFS on the first ``sha256``.
STDLIB_MODULES = (
    "__future__",
    "_ajax",
    "_json",
    "browser",
    "browser.ajax",
    "browser.timer",
    "browser.websocket",
    "builtins",
    "crypto_js",
    "crypto_js.rollups",
    "crypto_js.rollups.sha256",
    "hashlib",
    "json",
)

# json/__init__.py imports json.encoder at the top, only for JSONEncoder, and json.encoder imports
# re, which imports enum: ~0.5 s of compiling on a cold page for a class the pages never use
# (``dumps`` without ``cls`` goes straight to the JavaScript ``_json``). The trimmed bundle defers it.
_JSON_EAGER = "from.encoder import JSONEncoder\n"
_JSON_LAZY = (
    "def __getattr__(name):\n"
    " if name=='JSONEncoder':\n"
    "  from.encoder import JSONEncoder\n"
    "  return JSONEncoder\n"
    " raise AttributeError(name)\n"
)


class Asset:
    """One built script: its URL name and its bytes, plain and gzipped."""

    __slots__ = ("name", "body", "gzipped")

    def __init__(self, name: str, body: bytes) -> None:
        self.name = name
        self.body = body
        self.gzipped = gzip.compress(body, 9, mtime=0)


class Bundle:
    """A build: the scripts every page loads (in order) and the games' scripts, by URL name."""

    def __init__(self, key: str, scripts: list, games: dict) -> None:
        self.key = key
        self.assets = {asset.name: asset for asset in [*scripts, *games.values()]}
        self.scripts = [asset.name for asset in scripts]  # brython, stdlib, chronicle
        self.games = {game: asset.name for game, asset in games.items()}


def source_files() -> list[Path]:
    """Every Python file the browser may import, in a stable order."""
    files = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                files.append(path)
    return files


def _fingerprint(files: list[Path]) -> str:
    """Cheap: paths, sizes and mtimes; decides whether to hash contents again."""
    parts = [f"{path}:{path.stat().st_size}:{path.stat().st_mtime_ns}" for path in files]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def full_stdlib() -> bool:
    return os.environ.get("CHRONICLE_STDLIB") == "full"


def source_key(files: list[Path]) -> str:
    """Hash of everything a build depends on: our sources, Brython's version, this format."""
    stdlib = "full" if full_stdlib() else STDLIB_MODULES
    digest = hashlib.sha256(f"{FORMAT}:{BRYTHON_VERSION}:{stdlib}:{precompile_enabled()}".encode())
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_root() -> Path:
    return Path(os.environ.get("CHRONICLE_CACHE") or Path(tempfile.gettempdir()) / "chronicle-bundle")


def _named(stem: str, body: bytes) -> Asset:
    return Asset(f"{stem}.{hashlib.sha256(body).hexdigest()[:12]}.js", body)


def make_vfs() -> dict:
    """``client`` and ``events`` as one VFS dict (module -> [ext, source, imports(, 1)]), made by
    Brython's ``make_package`` (minified, line numbers kept for tracebacks)."""
    # Python 3.11's tokenize has no FSTRING_START; Brython's minifier only compares against it.
    if not hasattr(tokenize, "FSTRING_START"):
        tokenize.FSTRING_START = -1  # type: ignore[attr-defined]
    vfs: dict = {}
    with tempfile.TemporaryDirectory(prefix="chronicle-make-") as tmp:
        for package in PACKAGES:
            # make_package walks every .py and .js under the folder (its exclude option does not
            # work): copy the Python files alone.
            src = Path(tmp) / package
            shutil.copytree(ROOT / package, src, ignore=_only_python)
            out = Path(tmp) / f"{package}.brython.js"
            with contextlib.redirect_stdout(io.StringIO()):
                brython.make_package.make(package, str(src), output_path=str(out))
            text = out.read_text(encoding="utf-8")
            prefix = "__BRYTHON__.loadBrythonPackage("
            body = json.loads(text[len(prefix) : text.rindex(")")])
            body.pop("$timestamp", None)
            vfs.update(body)
    return vfs


def game_of(module: str, games: tuple) -> str | None:
    """The rule system a module belongs to (``events.games.mecha.rules``, ``client.boards.mecha``), or None."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[0] == "events" and parts[1] == "games":
        return parts[2]
    if len(parts) >= 3 and parts[0] == "client" and parts[1] == "boards":
        name = parts[2] if parts[2] in games else parts[2].split("_")[0]
        return name if name in games else None
    return None


def package_script(vfs: dict, timestamp: int) -> str:
    """One ``loadBrythonPackage`` call, then the modules' precompiled JavaScript (if Node is here)."""
    ordered = {"$timestamp": timestamp}
    for name in sorted(vfs):
        ordered[name] = vfs[name]
    return f"__BRYTHON__.loadBrythonPackage({json.dumps(ordered, separators=(',', ':'))})\n" + precompiled_js(vfs)


# The Python every page runs first (static/boot.js makes it a <script type="text/python">). Compiled
# here by Node as Brython's ``run_script`` would compile it in the page, so the page runs it without
# ``$B.py2js``: Brython's compiler (tokenizer, parser, code generator) never runs, nor is compiled
# by V8, on a page whose modules are all precompiled (~10-17 ms of a warm play page, issue 16).
ENTRY = "from client.main import start\nstart()\n"
ENTRY_NAME = "chronicle-main"  # the script's id and file name, in tracebacks and in Brython's tables


def entry_js() -> str:
    """``__BRYTHON__.chronicle_entry``: the entry script's source and, when Node compiled it, its JavaScript."""
    compiled = None
    if precompile_enabled():
        store = cache_root() / "compiled"
        digest = hashlib.sha256(f"{FORMAT}:{BRYTHON_VERSION}:entry:{ENTRY_NAME}\0{ENTRY}".encode()).hexdigest()
        path = store / f"{digest[:32]}.js"
        if path.is_file():
            compiled = path.read_text(encoding="utf-8")
        else:
            fresh = _node_compile({ENTRY_NAME: [ENTRY, None]}) or {}
            compiled = fresh.get(ENTRY_NAME)
            if compiled is not None:
                store.mkdir(parents=True, exist_ok=True)
                _write_atomic(path, compiled.encode())
    entry = {"name": ENTRY_NAME, "src": ENTRY, "js": compiled}
    return f"__BRYTHON__.chronicle_entry = {json.dumps(entry, separators=(',', ':'))};\n"


def build_package_assets(key: str) -> tuple:
    """(the core script, {game: its script}).

    The core holds ``client`` and ``events`` without any rule system; each game's modules
    (``events.games.<name>``, ``client.boards.<name>``) get a script of their own, which the page
    loads once it knows the game (``client/loader.py``): the lobby loads no game at all, a mecha
    page no Gloomhaven. The core names the game scripts in ``__BRYTHON__.chronicle_games``.
    """
    timestamp = int(key[:12], 16)  # stable per source version, so indexedDB's compiled cache stays valid
    vfs = make_vfs()
    games = tuple(sorted(name.split(".")[2] for name, item in vfs.items()
                         if name.count(".") == 2 and name.startswith("events.games.") and len(item) > 3))
    parts: dict = {None: {}}
    for name, item in vfs.items():
        parts.setdefault(game_of(name, games), {})[name] = item
    game_assets = {game: _named(f"game-{game}", package_script(parts.get(game, {}), timestamp).encode())
                   for game in games}
    urls = {game: f"/static/js/{asset.name}" for game, asset in game_assets.items()}
    core = (package_script(parts[None], timestamp) + f"__BRYTHON__.chronicle_games = {json.dumps(urls, sort_keys=True)};\n"
            + entry_js())
    return _named("chronicle", core.encode()), game_assets


def _only_python(directory: str, names: list) -> list:
    return [
        name for name in names
        if name == "__pycache__" or (not name.endswith(".py") and not (Path(directory) / name).is_dir())
        or name == "static"
    ]


def read_stdlib() -> dict:
    """brython_stdlib.js as its VFS dict: module name -> [ext, source, imports(, is_package)]."""
    text = (BRYTHON_DATA / "brython_stdlib.js").read_text(encoding="utf-8")
    start = text.index("var scripts = ") + len("var scripts = ")
    end = text.rindex("\n__BRYTHON__.update_VFS(scripts)")
    return json.loads(text[start:end])


def build_stdlib_js(modules: tuple | None = STDLIB_MODULES) -> bytes:
    """The standard-library modules the pages use, in brython_stdlib.js's own format.

    ``modules=None`` keeps all of them (``CHRONICLE_STDLIB=full``: how STDLIB_MODULES is measured).
    """
    full = read_stdlib()
    if modules is None:
        modules = tuple(name for name in full if name != "$timestamp")
    missing = [name for name in modules if name not in full]
    if missing:
        raise BundleError(f"brython_stdlib.js has no module {missing[0]!r} (listed in STDLIB_MODULES)")
    vfs = {"$timestamp": full["$timestamp"]}  # Brython's own: its indexedDB cache entries stay valid
    for name in modules:
        vfs[name] = list(full[name])
    if "json" in vfs:
        source = vfs["json"][1]
        if _JSON_EAGER not in source:
            raise BundleError("brython_stdlib.js's json no longer imports json.encoder as expected")
        vfs["json"][1] = source.replace(_JSON_EAGER, _JSON_LAZY)
    body = json.dumps(vfs, separators=(",", ":"))
    script = f"__BRYTHON__.use_VFS = true;\nvar scripts = {body}\n__BRYTHON__.update_VFS(scripts)\n"
    return (script + precompiled_js({name: vfs[name] for name in modules})).encode()


# Brython compiles each module from Python to JavaScript in the page, the first time it is
# imported: on a cold page that is most of the load time (docs/client.md). Brython's compiler is
# JavaScript, so Node runs it here, once per source version, and the bundle registers the result
# in ``__BRYTHON__.precompiled``, exactly where Brython puts what it compiled itself (from
# indexedDB on a warm page). The Python source stays in the bundle for tracebacks. Without Node
# (or with CHRONICLE_PRECOMPILE=0) the pages compile in the browser as before: slower, same result.
NODE_COMPILER = r"""
globalThis.self = globalThis;  // brython.js expects a browser or a worker
globalThis.addEventListener = function () {};
const fs = require("fs");
const $B = require(process.argv[2]).__BRYTHON__;
globalThis.$B = $B;  // Brython's AST classes are made by eval and look for a global $B
$B.$options = {debug: 0};  // as boot.js starts the pages
const modules = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const out = {};
for (const [name, [source, isPackage]] of Object.entries(modules)) {
  if (isPackage === null) {  // the page's entry script (ENTRY), compiled as Brython's run_script does
    $B.file_cache[name] = source;
    out[name] = $B.py2js({src: source, filename: name}, name, name).to_js();
    continue;
  }
  const filename = "VFS." + name + (isPackage ? "/__init__.py" : ".py");
  const parts = name.split(".");
  if (!isPackage) parts.pop();
  const module = $B.module.$factory(name, "", parts.join("."));
  $B.url2name[filename] = name;
  $B.file_cache[filename] = source;
  try {
    const js = $B.py2js({src: source, filename, imported: true}, module, name, $B.builtins_scope).to_js();
    const local = "locals_" + $B.scope_name(name);
    new Function(local, js + "\nreturn " + local);  // parses as the function the bundle writes (precompiled_js)
    out[name] = js;
  } catch (error) {  // left to the browser, which will report it where it is imported
    const what = error.msg || error.message || (error.ob_type && error.ob_type.tp_name) || String(error);
    process.stderr.write("cannot precompile " + name + ": " + what + "\n");
  }
}
process.stdout.write(JSON.stringify(out));
"""


def precompile_enabled() -> bool:
    return os.environ.get("CHRONICLE_PRECOMPILE", "1") != "0" and shutil.which("node") is not None


def precompile(vfs: dict) -> dict:
    """Python modules of a VFS dict -> the JavaScript Brython makes of them (empty without Node).

    Each module's JavaScript is cached on disk by a hash of its source, so editing one file
    recompiles one module.
    """
    modules = {name: [item[1], len(item) > 3] for name, item in vfs.items()
               if name != "$timestamp" and item[0] == ".py"}
    if not modules or not precompile_enabled():
        return {}
    store = cache_root() / "compiled"
    paths = {}
    for name, (source, is_package) in modules.items():
        digest = hashlib.sha256(f"{FORMAT}:{BRYTHON_VERSION}:{name}:{is_package}\0{source}".encode()).hexdigest()
        paths[name] = store / f"{digest[:32]}.js"
    missing = {name: modules[name] for name in modules if not paths[name].is_file()}
    fresh: dict = {}
    if missing:
        fresh = _node_compile(missing)
        if fresh is None:
            return {}
        store.mkdir(parents=True, exist_ok=True)
        for name, js in fresh.items():
            _write_atomic(paths[name], js.encode())
    out = {}
    for name, (_source, is_package) in modules.items():
        if name in missing and name not in fresh:
            continue  # Brython could not compile it: the browser will say why, at its import
        try:
            js = paths[name].read_text(encoding="utf-8")
        except OSError:
            continue  # the cache was cleared meanwhile: this one compiles in the browser
        out[name] = [js] if is_package else js
    return out


def _node_compile(modules: dict) -> dict | None:
    with tempfile.TemporaryDirectory(prefix="chronicle-compile-") as tmp:
        driver = Path(tmp) / "compile.js"
        driver.write_text(NODE_COMPILER, encoding="utf-8")
        source = Path(tmp) / "modules.json"
        source.write_text(json.dumps(modules), encoding="utf-8")
        try:
            done = subprocess.run([shutil.which("node"), str(driver), str(BRYTHON_DATA / "brython.js"), str(source)],
                                  capture_output=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired) as error:
            log.warning("precompiling with Node failed (%s): the pages will compile in the browser", error)
            return None
        if done.returncode != 0:
            log.warning("precompiling with Node failed (exit %s): %s", done.returncode,
                        done.stderr.decode(errors="replace")[-2000:])
            return None
        if done.stderr:
            log.warning("%s", done.stderr.decode(errors="replace")[-2000:])
        return json.loads(done.stdout)


def scope_name(module: str) -> str:
    """Brython's ``$B.scope_name``: the module's name as a JavaScript identifier (``client.main`` -> ``client_main``)."""
    return re.sub(r"[^\w$]", "_", module, flags=re.ASCII)


def precompiled_js(vfs: dict) -> str:
    """Each precompiled module as a JavaScript function in the script itself (issue 16).

    Brython keeps a module's JavaScript as a string and makes it a function with ``new Function`` on
    the page's main thread at its import (~25–45 ms of a warm play page for 2 MB of text). Written
    here as a function, ``(function(locals_<name>){<its JavaScript> return locals_<name>})``, exactly
    the function Brython would make (the same body and parameter, at the script's global scope), it is
    parsed and compiled while the script streams in, off the main thread (V8 compiles a parenthesized
    function eagerly), and kept in V8's code cache where the browser keeps one. ``brython_js`` teaches
    Brython's loader to call such a function instead of ``new Function`` of a string.
    """
    compiled = precompile(vfs)
    if not compiled:
        return ""
    lines = []
    for name in sorted(compiled):
        js = compiled[name]
        package = isinstance(js, list)
        local = f"locals_{scope_name(name)}"
        function = f"(function({local}){{\n{js[0] if package else js}\nreturn {local}}})"
        lines.append(f"__BRYTHON__.precompiled[{json.dumps(name)}]={f'[{function}]' if package else function};\n")
    # boot.js reads the flag: with every module precompiled, Brython's indexedDB cache of compiled
    # modules has nothing left to do, and opening it costs the page ~50 ms before Python starts.
    return "".join(lines) + "__BRYTHON__.chronicle_precompiled = true;\n"


# Brython's VFS loader makes a precompiled module's function from its text; a module the bundle
# wrote as a function (``precompiled_js``) is called as it is. The one change to brython.js, checked.
_LOADER_EAGER = 'mod_js+="return "+prefix+parent_id\nvar $module=new Function(prefix+parent_id,mod_js)('
_LOADER_EITHER = ('var $module=(typeof mod_js=="function"?mod_js:'
                  'new Function(prefix+parent_id,mod_js+"return "+prefix+parent_id))(')


def brython_js() -> bytes:
    """brython.js as shipped, but for its VFS loader calling a precompiled module's function (issue 16)."""
    text = (BRYTHON_DATA / "brython.js").read_text(encoding="utf-8")
    if text.count(_LOADER_EAGER) != 1:
        raise BundleError("brython.js's VFS loader no longer makes precompiled modules with new Function as expected")
    return text.replace(_LOADER_EAGER, _LOADER_EITHER).encode()


def build(key: str) -> Bundle:
    directory = cache_root() / key[:24]
    manifest = directory / "manifest.json"
    if manifest.is_file():
        listed = json.loads(manifest.read_text())
        try:
            scripts = [Asset(name, (directory / name).read_bytes()) for name in listed["scripts"]]
            games = {game: Asset(name, (directory / name).read_bytes()) for game, name in listed["games"].items()}
            return Bundle(key, scripts, games)
        except (OSError, KeyError, TypeError):
            pass  # a half-deleted or older cache: build again
    core, games = build_package_assets(key)
    scripts = [
        _named("brython", brython_js()),
        _named("stdlib", build_stdlib_js(None if full_stdlib() else STDLIB_MODULES)),
        core,
    ]
    directory.mkdir(parents=True, exist_ok=True)
    for asset in [*scripts, *games.values()]:
        _write_atomic(directory / asset.name, asset.body)
    listed = {"scripts": [asset.name for asset in scripts], "games": {g: a.name for g, a in games.items()}}
    _write_atomic(manifest, json.dumps(listed).encode())
    return Bundle(key, scripts, games)


def _write_atomic(path: Path, body: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(body)
    os.replace(tmp, path)


class _Current:
    """The bundle for the sources as they are now; rebuilt when a file changes (development).

    Scripts of the last few builds stay servable: a page fetched just before a rebuild still
    gets the scripts it names (their names hash their content, so an old one is never wrong).
    """

    KEEP = 4

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.fingerprint = ""
        self.bundle: Bundle | None = None
        self.recent: list = []
        self.key = ""  # the sources' key before any bundle was built (build_id)

    def get(self) -> Bundle:
        files = source_files()
        fingerprint = _fingerprint(files)
        with self.lock:
            if self.bundle is None or fingerprint != self.fingerprint:
                self.bundle = build(source_key(files))
                self.fingerprint = fingerprint
                self.recent = [self.bundle, *[b for b in self.recent if b.key != self.bundle.key]][: self.KEEP]
            return self.bundle

    def asset(self, name: str) -> Asset | None:
        """A script by name from the current build or a recent one."""
        self.get()
        for built in self.recent:
            if name in built.assets:
                return built.assets[name]
        return None


    def build_id(self) -> str:
        """The build pages are served with now (docs/protocol.md, the welcome's ``build``): the first 12
        hex digits of the newest bundle's source key, which changes whenever the client, the core or
        Brython does. Cheap after the first call, as it is asked on every hello: before any page was
        served it hashes the sources once (~10 ms), and a page's ``current()`` keeps it up to date.
        No lock: ``get`` holds it through a build (seconds), and the event loop must not wait on it."""
        built = self.bundle
        if built is not None:
            return built.key[:12]
        if not self.key:
            self.key = source_key(source_files())
        return self.key[:12]


_current = _Current()
current = _current.get
asset = _current.asset
build_id = _current.build_id


class BundleError(RuntimeError):
    """The bundle cannot be made from the installed Brython."""
