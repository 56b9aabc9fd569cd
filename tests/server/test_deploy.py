"""The welcome's ``build`` (docs/protocol.md): what the served pages name, so a page left open across a
deployment knows its frames may not read by its schema (client/net.py asks for a reload)."""

from __future__ import annotations

import re

import websockets

from server import bundle
from tests.server.client import Client, run
from tests.server_fixture import _request, create_game

BUILD = re.compile(r'<body data-page="(?:play|watch)"[^>]* data-build="([0-9a-f]{12})">')


def _welcome_build(server, game_id: str) -> object:
    async def hello() -> object:
        client = await Client.join(server.ws_url, game_id)
        await client.close()
        return client.welcome.get("build")

    return run(hello())


def test_deploy_welcome_carries_the_build_the_pages_name(chronicle_server):
    """Check a fresh process's first welcome (no page served yet) names the build its pages then name,
    which is the sources' build here, and that a welcome after a page was built names the same."""
    game_id = create_game(chronicle_server.base_url)["game"]
    before = _welcome_build(chronicle_server, game_id)
    assert isinstance(before, str) and re.fullmatch("[0-9a-f]{12}", before), before
    assert before == bundle.source_key(bundle.source_files())[:12]  # this checkout's client, core and Brython
    for kind in ("play", "watch"):
        status, body = _request(f"{chronicle_server.base_url}/{kind}/{game_id}", timeout=60.0)
        assert status == 200
        named = BUILD.search(body.decode("utf-8"))
        assert named is not None and named.group(1) == before, kind
    assert _welcome_build(chronicle_server, game_id) == before


def test_deploy_the_build_is_a_welcome_field_the_tests_clients_ignore(chronicle_server):
    """A raw socket's welcome spells ``build`` last, after ``seats``: readers that take what they know
    (the CLI, bots, bench.load, these tests' Client) read the rest of it as before."""
    game_id = create_game(chronicle_server.base_url)["game"]

    async def hello() -> str:
        async with websockets.connect(f"{chronicle_server.ws_url}/ws/{game_id}") as socket:
            await socket.send('{"type":"hello","since":0,"token":null}')
            return await socket.recv()

    text = run(hello())
    assert text.startswith('{"type":"welcome","game":') and re.search(r',"seats":.*,"build":"[0-9a-f]{12}"}$', text)
