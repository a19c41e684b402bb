"""The resource ``nowline://corrections``: read it, subscribe to it, hear another process correct.

``nowline mcp --url`` runs as a subprocess on a real ``chroma run`` server; another process
(the library, in a subprocess) corrects and retracts while an MCP Python SDK client is
subscribed. Both subscription mechanisms the SDK negotiates are driven: ``resources/subscribe``
(handshake versions, 2024-11-05 to 2025-11-25) and ``subscriptions/listen`` (2026-07-28).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import warnings
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import chromadb
import mcp.types as types
import pytest
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

import nowline
from nowline.surfaces.mcp_server import CORRECTIONS_URI, build_server
from nowline.surfaces.tools import corrections_json
from tests.cli.conftest import invoke
from tests.conftest import ChromaServer, FakeEmbedding

ROOT = Path(__file__).resolve().parents[2]
PR = "metalcraftai/ufo — PR #1705 passed review."
UFO = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo."
# `nowline mcp`, with the test's fake embedding function registered first.
LAUNCH = "import tests.conftest; from nowline.surfaces.cli import main; main()"
# The other process: the library on the same server, correcting or retracting.
OTHER = """
import sys, time
import chromadb, nowline
from tests.conftest import FakeEmbedding
port, database, action = int(sys.argv[1]), sys.argv[2], sys.argv[3]
client = nowline.wrap(chromadb.HttpClient(host="127.0.0.1", port=port, database=database))
memory = client.get_collection("memory", embedding_function=FakeEmbedding())
if action == "correct":
    memory.correct(sys.argv[4], deprecates=["metalcraftai/ufo"], id="c1")
else:
    memory.retract("c1")
print(time.time())  # the change is in the store from here on
"""
NOTIFIED_WITHIN = 30.0  # seconds; the bound is the refresh interval plus a listing (about 1 s)


def _other_process(server: ChromaServer, database: str, *action: str) -> float:
    """Run the other process to its end; return the (wall clock) time its change landed."""
    done = subprocess.run(
        [sys.executable, "-c", OTHER, str(server.port), database, *action],
        cwd=ROOT,
        check=True,
        timeout=120,
        capture_output=True,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"},
    )
    return float(done.stdout.split()[-1])


def _params(server: ChromaServer, database: str) -> StdioServerParameters:
    """Return how to start ``nowline mcp --url`` on the test's database."""
    url = f"http://{server.host}:{server.port}"
    return StdioServerParameters(
        command=sys.executable,
        args=["-c", LAUNCH, "mcp", "--url", url, "--database", database],
        env={"HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"},
        cwd=str(ROOT),
    )


def _cli_json(server: ChromaServer, database: str) -> str:
    """Return what ``nowline corrections --url ... --json`` prints."""
    url = f"http://{server.host}:{server.port}"
    result = invoke("corrections", "--url", url, "--database", database, "--json")
    assert result.exit_code == 0, result.output
    return result.stdout


def _text(result: types.ReadResourceResult) -> str:
    """Return the only content of the corrections resource, checking its URI and type."""
    [content] = result.contents
    assert isinstance(content, types.TextResourceContents)
    assert (content.uri, content.mime_type) == (CORRECTIONS_URI, "application/json")
    return content.text


def _store(server: ChromaServer) -> str:
    """Create a database with a memory collection holding one memory; return its name."""
    database = server.new_database()
    memory = nowline.wrap(server.client(database)).create_collection(
        "memory", embedding_function=FakeEmbedding()
    )
    memory.remember(PR, id="pr")
    return database


async def _until(seen: Callable[[], bool]) -> float:
    """Wait until ``seen()`` holds (or fail); return the (wall clock) time it did."""
    with anyio.fail_after(NOTIFIED_WITHIN):
        while not seen():
            await anyio.sleep(0.02)
    return time.time()


async def _check_rounds(
    server: ChromaServer,
    database: str,
    read: Callable[[], Awaitable[str]],
    heard: Callable[[], int],
) -> dict[str, Any]:
    """Correct and retract from the other process; return each read and notification delay."""
    out: dict[str, Any] = {"before": await read()}
    for n, action in enumerate([("correct", UFO), ("retract",)], start=1):
        landed = await anyio.to_thread.run_sync(
            lambda a=action: _other_process(server, database, *a)
        )
        out[f"delay {action[0]}"] = await _until(lambda n=n: heard() >= n) - landed
        out[action[0]] = await read()
        out[f"cli {action[0]}"] = await anyio.to_thread.run_sync(_cli_json, server, database)
    return out


def _assert_rounds(out: dict[str, Any]) -> None:
    """The resource shows the correction, then its retraction, as the CLI prints them."""
    assert json.loads(out["before"]) == []
    corrected = json.loads(out["correct"])
    assert [(c["id"], c["status"], c["document"]) for c in corrected] == [("c1", "active", UFO)]
    assert corrected[0]["reach"] == 1 and corrected[0]["time"].endswith("Z")
    retracted = json.loads(out["retract"])
    assert [(c["id"], c["status"]) for c in retracted] == [("c1", "retracted")]
    for action in ("correct", "retract"):
        assert out[f"cli {action}"] == out[action] + "\n"
        assert 0 <= out[f"delay {action}"] < NOTIFIED_WITHIN


@pytest.mark.server
def test_subscriber_hears_another_process_correct_over_resources_subscribe(
    chroma_server: ChromaServer, tmp_path: Path
) -> None:
    """A handshake-era client subscribes, and hears a correction and its retraction."""
    database = _store(chroma_server)
    updates: list[str] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            updates.append(message.params.uri)

    async def run() -> dict[str, Any]:
        with (tmp_path / "server.log").open("w") as log:
            async with (
                stdio_client(_params(chroma_server, database), errlog=log) as (read, write),
                ClientSession(
                    read, write, read_timeout_seconds=120, message_handler=on_message
                ) as session,
            ):
                init = await session.initialize()
                assert init.protocol_version == "2025-11-25"
                assert init.capabilities.resources is not None
                assert init.capabilities.resources.subscribe is True
                listed = await session.list_resources()
                assert [(r.uri, r.mime_type) for r in listed.resources] == [
                    (CORRECTIONS_URI, "application/json")
                ]
                with warnings.catch_warnings():  # deprecated as of 2026-07-28, current before
                    warnings.simplefilter("ignore")
                    await session.subscribe_resource(CORRECTIONS_URI)

                async def reread() -> str:
                    return _text(await session.read_resource(CORRECTIONS_URI))

                return await _check_rounds(chroma_server, database, reread, lambda: len(updates))

    out = anyio.run(run)
    _assert_rounds(out)
    assert set(updates) == {CORRECTIONS_URI}


@pytest.mark.server
def test_listener_hears_another_process_correct_over_subscriptions_listen(
    chroma_server: ChromaServer, tmp_path: Path
) -> None:
    """A 2026-07-28 client listens for the URI, and hears a correction and its retraction."""
    database = _store(chroma_server)
    events: list[Any] = []

    async def run() -> dict[str, Any]:
        async with Client(_params(chroma_server, database), read_timeout_seconds=120) as client:
            assert client.protocol_version == "2026-07-28"  # negotiated by server/discover
            assert client.server_capabilities.resources is not None
            assert client.server_capabilities.resources.subscribe is True
            async with client.listen(resource_subscriptions=[CORRECTIONS_URI]) as listening:
                assert listening.honored.resource_subscriptions == [CORRECTIONS_URI]

                async def collect() -> None:
                    async for event in listening:
                        events.append(event)

                async def reread() -> str:
                    return _text(await client.read_resource(CORRECTIONS_URI))

                async with anyio.create_task_group() as tasks:
                    tasks.start_soon(collect)
                    out = await _check_rounds(chroma_server, database, reread, lambda: len(events))
                    tasks.cancel_scope.cancel()
                return out

    out = anyio.run(run)
    _assert_rounds(out)
    assert {getattr(e, "uri", None) for e in events} == {CORRECTIONS_URI}


def test_local_store_resource_follows_another_wrapper(tmp_path: Path) -> None:
    """Over a local store (in-process), a correction and retraction reach both mechanisms."""
    raw = chromadb.PersistentClient(path=str(tmp_path)).create_collection(
        "memory", embedding_function=FakeEmbedding()
    )
    served = nowline.wrap(raw, refresh_seconds=0.2)
    writer = nowline.wrap(raw)
    writer.remember(PR, id="pr")
    updates: list[str] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            updates.append(message.params.uri)

    async def run() -> list[Any]:
        seen: list[Any] = []
        server = build_server(served)
        async with (
            Client(server, mode="legacy", message_handler=on_message) as old,
            Client(server, mode="2026-07-28") as new,
            new.listen(resource_subscriptions=[CORRECTIONS_URI]) as listening,
        ):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                await old.subscribe_resource(CORRECTIONS_URI)
            for change in (
                lambda: writer.correct(UFO, deprecates=["metalcraftai/ufo"], id="c1"),
                lambda: writer.retract("c1"),
            ):
                await anyio.to_thread.run_sync(change)
                with anyio.fail_after(NOTIFIED_WITHIN):
                    event = await listening.__anext__()
                await _until(lambda: len(updates) == len(seen) + 1)
                text = _text(await old.read_resource(CORRECTIONS_URI))
                assert text == corrections_json(writer)
                seen.append((event, json.loads(text)[0]["status"]))
        return seen

    seen = anyio.run(run)
    assert [status for _, status in seen] == ["active", "retracted"]
    assert all(getattr(e, "uri", None) == CORRECTIONS_URI for e, _ in seen)


def test_a_scoped_server_lists_only_its_scope(tmp_path: Path) -> None:
    """A server bound to user_id=alice reads, and announces, only alice's corrections."""
    raw = chromadb.PersistentClient(path=str(tmp_path)).create_collection(
        "memory", embedding_function=FakeEmbedding()
    )
    memory = nowline.wrap(raw, scope_key="user_id", refresh_seconds=0.2)
    memory.correct(UFO, deprecates=["metalcraftai/ufo"], metadata={"user_id": "alice"}, id="a")
    memory.correct(
        "Moved from acme/app to acme/web.",
        deprecates=["acme/app"],
        metadata={"user_id": "bob"},
        id="b",
        allow_unreached=True,
    )

    async def run() -> list[str]:
        async with Client(build_server(memory, metadata={"user_id": "alice"})) as client:
            text = _text(await client.read_resource(CORRECTIONS_URI))
            return [c["id"] for c in json.loads(text)]

    assert anyio.run(run) == ["a"]
    assert corrections_json(memory, metadata={"user_id": True}) == "[]"


def test_an_unknown_resource_is_a_protocol_error(tmp_path: Path) -> None:
    """Reading or subscribing to another URI is refused with invalid params."""
    memory = nowline.wrap(chromadb.PersistentClient(path=str(tmp_path))).create_collection(
        "memory", embedding_function=FakeEmbedding()
    )

    async def run() -> list[int]:
        codes = []
        async with Client(build_server(memory), mode="legacy") as client:
            for call in (
                lambda: client.read_resource("nowline://memories"),
                lambda: client.session.subscribe_resource("nowline://memories"),
            ):
                with pytest.raises(MCPError) as caught, warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # subscribe: deprecated as of 2026-07-28
                    await call()
                codes.append(caught.value.error.code)
        return codes

    assert anyio.run(run) == [types.INVALID_PARAMS, types.INVALID_PARAMS]


EDIT = """
import sys
import chromadb, nowline
from tests.conftest import FakeEmbedding
port, database = int(sys.argv[1]), sys.argv[2]
client = nowline.wrap(chromadb.HttpClient(host="127.0.0.1", port=port, database=database))
memory = client.get_collection("memory", embedding_function=FakeEmbedding())
memory.update(ids=["c1"], documents=[sys.argv[3]])
"""


@pytest.mark.server
def test_the_watcher_survives_a_server_restart_and_hears_an_edit_of_text(
    tmp_path: Path,
) -> None:
    """A server stopped for 3 s and started again: the subscriber hears what changed after.

    The change heard after the restart is another process's edit of a correction's text
    alone, which changes no metadata nowline lists but moves the generation mark.
    """
    server = ChromaServer(path=tmp_path / "data").start()
    try:
        database = _store(server)
        _other_process(server, database, "correct", UFO)
        updates: list[str] = []

        async def on_message(message: Any) -> None:
            if isinstance(message, types.ResourceUpdatedNotification):
                updates.append(message.params.uri)

        async def run() -> str:
            with (tmp_path / "server.log").open("w") as log:
                async with (
                    stdio_client(_params(server, database), errlog=log) as (read, write),
                    ClientSession(
                        read, write, read_timeout_seconds=120, message_handler=on_message
                    ) as session,
                ):
                    await session.initialize()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        await session.subscribe_resource(CORRECTIONS_URI)
                    port = server.port
                    await anyio.to_thread.run_sync(server.stop)
                    await anyio.sleep(3)
                    await anyio.to_thread.run_sync(lambda: server.start(port=port))
                    edited = UFO + " Do GitHub work there."
                    await anyio.to_thread.run_sync(
                        lambda: subprocess.run(
                            [sys.executable, "-c", EDIT, str(port), database, edited],
                            cwd=ROOT,
                            check=True,
                            timeout=120,
                            capture_output=True,
                            env={**os.environ, "HF_HUB_OFFLINE": "1"},
                        )
                    )
                    await _until(lambda: len(updates) >= 1)
                    return _text(await session.read_resource(CORRECTIONS_URI))

        text = anyio.run(run)
        assert [c["document"] for c in json.loads(text)] == [UFO + " Do GitHub work there."]
    finally:
        server.stop()
