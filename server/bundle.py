"""The browser's JavaScript: Brython, a trimmed standard library and Chronicle's own Python.

BRYTHON.md measured that a page's load time is decided by what Python it imports and how many
requests that takes, so a page loads exactly three scripts, each with a content hash in its URL
and served gzipped with a one-year cache:

- ``brython.<hash>.js``: Brython's runtime, as shipped;
- ``stdlib.<hash>.js``: only the standard-library modules the pages import (``STDLIB_MODULES``,
  found by loading every page against the full ``brython_stdlib.js``; ``tests/browser`` checks that
  no page asks for a module outside it), cut from ``brython_stdlib.js``;
- ``chronicle.<hash>.js``: the ``client`` and ``events`` packages, made by Brython's own
  ``make_package`` (``brython-cli make_package``), one ``__BRYTHON__.loadBrythonPackage`` call, so an
  ``import`` costs no request.

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
import os
import shutil
import tempfile
import threading
import tokenize
from pathlib import Path

import brython
import brython.make_package

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("client", "events")
BRYTHON_DATA = Path(brython.__file__).parent / "data"
FORMAT = "1"  # bump when the way bundles are made changes
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
    """The three scripts of a build, by URL name (``chronicle.3f9a0c1d2e4b.js``)."""

    def __init__(self, key: str, assets: list) -> None:
        self.key = key
        self.assets = {asset.name: asset for asset in assets}
        self.scripts = [asset.name for asset in assets]  # in load order


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
    digest = hashlib.sha256(f"{FORMAT}:{BRYTHON_VERSION}:{stdlib}".encode())
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_root() -> Path:
    return Path(os.environ.get("CHRONICLE_CACHE") or Path(tempfile.gettempdir()) / "chronicle-bundle")


def _named(stem: str, body: bytes) -> Asset:
    return Asset(f"{stem}.{hashlib.sha256(body).hexdigest()[:12]}.js", body)


def build_package_js(key: str) -> bytes:
    """``client`` and ``events`` as one ``loadBrythonPackage`` script, through ``make_package``."""
    # Python 3.11's tokenize has no FSTRING_START; Brython's minifier only compares against it.
    if not hasattr(tokenize, "FSTRING_START"):
        tokenize.FSTRING_START = -1  # type: ignore[attr-defined]
    timestamp = int(key[:12], 16)  # stable per source version, so indexedDB's compiled cache stays valid
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
    ordered = {"$timestamp": timestamp}
    for name in sorted(vfs):
        ordered[name] = vfs[name]
    return f"__BRYTHON__.loadBrythonPackage({json.dumps(ordered, separators=(',', ':'))})\n".encode()


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
    return f"__BRYTHON__.use_VFS = true;\nvar scripts = {body}\n__BRYTHON__.update_VFS(scripts)\n".encode()


def build(key: str) -> Bundle:
    directory = cache_root() / key[:24]
    manifest = directory / "manifest.json"
    if manifest.is_file():
        names = json.loads(manifest.read_text())
        try:
            return Bundle(key, [Asset(name, (directory / name).read_bytes()) for name in names])
        except OSError:
            pass  # a half-deleted cache: build again
    assets = [
        _named("brython", (BRYTHON_DATA / "brython.js").read_bytes()),
        _named("stdlib", build_stdlib_js(None if full_stdlib() else STDLIB_MODULES)),
        _named("chronicle", build_package_js(key)),
    ]
    directory.mkdir(parents=True, exist_ok=True)
    for asset in assets:
        _write_atomic(directory / asset.name, asset.body)
    _write_atomic(manifest, json.dumps([asset.name for asset in assets]).encode())
    return Bundle(key, assets)


def _write_atomic(path: Path, body: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(body)
    os.replace(tmp, path)


class _Current:
    """The bundle for the sources as they are now; rebuilt when a file changes (development)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.fingerprint = ""
        self.bundle: Bundle | None = None

    def get(self) -> Bundle:
        files = source_files()
        fingerprint = _fingerprint(files)
        with self.lock:
            if self.bundle is None or fingerprint != self.fingerprint:
                self.bundle = build(source_key(files))
                self.fingerprint = fingerprint
            return self.bundle


current = _Current().get


class BundleError(RuntimeError):
    """The bundle cannot be made from the installed Brython."""
