"""``chronicle serve``: the real command line starts the app; a busy port is a one-line error."""

from __future__ import annotations

import socket
import subprocess
import sys

from tests.server_fixture import ROOT, create_game, get_json


def test_serve_runs_the_app_through_the_cli(chronicle_server_factory, tmp_path):
    server = chronicle_server_factory(tmp_path / "cli.db", via_cli=True)
    game = create_game(server.base_url)
    status, games = get_json(f"{server.base_url}/api/games")
    assert status == 200 and [g["game"] for g in games] == [game["game"]]
    assert (tmp_path / "cli.db").exists()


def test_serve_busy_port_is_one_line_and_a_status(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "server.cli.main", "serve", "--port", str(port), "--db", str(tmp_path / "x.db")],
            cwd=ROOT, capture_output=True, text=True, timeout=30,
        )
    from server.cli.status import UNAVAILABLE

    assert done.returncode == UNAVAILABLE
    assert done.stderr.startswith(f"chronicle: error: cannot listen on 127.0.0.1:{port}: ")
    assert len(done.stderr.strip().splitlines()) == 1


def test_serve_runs_uvicorn_with_the_frame_protocol(monkeypatch, tmp_path, capsys):
    """``chronicle serve`` gives uvicorn server/wsprotocol.py's protocol (the broadcast's frame bytes
    built once, a socket's frames bounded by serve's limits), which uvicorn loads as its WebSocket
    protocol class."""
    import argparse

    import uvicorn

    from server import gcpolicy
    from server.cli import serve
    from server.wsprotocol import FrameProtocol

    seen = {}

    def run(self, sockets=None):
        self.config.load()
        seen["class"] = self.config.ws_protocol_class
        seen["http"] = self.config.http_protocol_class
        for listener in sockets or ():
            listener.close()

    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.setenv("CHRONICLE_GC_FREEZE", "0")
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    try:
        assert serve.run(parser.parse_args(["--port", "0", "--db", str(tmp_path / "w.db")])) == 0
    finally:
        gcpolicy.uninstall()
    # FrameProtocol with serve's own Limits (the frame and unread-reply bounds, docs/bounds.md)
    assert issubclass(seen["class"], FrameProtocol) and seen["class"].limits is not None
    assert seen["class"].limits.ws_frames_per_second == 2000
    # and server/httpprotocol.py's, with the same Limits (the request-head timeout, connections per address)
    from server.httpprotocol import HeadBoundProtocol

    assert issubclass(seen["http"], HeadBoundProtocol) and seen["http"].limits is seen["class"].limits
    out = capsys.readouterr().out
    assert "chronicle: serving http://127.0.0.1:" in out
    assert "chronicle: open files: soft limit " in out and "TCP connections at once" in out


def test_serve_raises_the_soft_file_limit_to_the_hard_one():
    """Each open TCP connection holds a file descriptor: ``chronicle serve`` raises its soft RLIMIT_NOFILE
    (often 1,024) to the hard limit and says both. Run in a child whose soft limit was lowered first."""
    script = ("import resource\n"
              "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
              "resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))\n"
              "from server.cli.serve import raise_file_limit\n"
              "print(raise_file_limit())\n"
              "print(resource.getrlimit(resource.RLIMIT_NOFILE) == (hard, hard), hard)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    said, raised = done.stdout.splitlines()
    hard = raised.split()[1]
    assert raised.startswith("True")
    assert said.startswith(f"chronicle: open files: soft limit 256 -> {hard} (hard limit {hard}); at most ")
