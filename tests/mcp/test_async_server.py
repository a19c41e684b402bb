"""The MCP server in server mode: its tools run on the async collection (issue 16, item 4).

``nowline mcp --url`` opens a sync collection over ``chromadb.HttpClient`` and serves it
through :func:`nowline.surfaces.mcp_server.async_twin`, so that tool calls await Chroma instead of
running in a worker thread. Here: the twin is the same collection with the same options; the
async dispatcher gives exactly the sync dispatcher's results for a script of tool calls (good
calls and every kind of mistake); and a real ``nowline mcp --url`` subprocess says it serves
asynchronously and answers a recall with its now-line.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import chromadb
import mcp.types as types
import pytest
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

import nowline
from nowline.surfaces.mcp_server import async_twin, build_server, run_tool_async
from nowline.surfaces.tools import ToolResult, message_note, message_note_async, run_tool
from tests.conftest import ChromaServer, FakeEmbedding

pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parents[2]
UFO = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo."
PR = "metalcraftai/ufo — PR #1705 passed review."
LAUNCH = "import tests.conftest; from nowline.surfaces.cli import main; main()"
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

# (tool, arguments); "{fix}" stands for the id of the first correction the script stores.
SCRIPT: list[tuple[str, dict[str, Any]]] = [
    ("remember", {"body": PR}),
    ("remember", {"body": "Subscribed to #ufo-dev, the Slack channel for UFO core."}),
    ("remember", {"body": "metalcraftai/ufo-hosted deploys every Friday."}),
    ("correct", {"body": UFO, "deprecates": ["metalcraftai/ufo"]}),
    ("correct", {"body": "The channel moved.", "deprecates": ["#ufo-devs"]}),
    ("correct", {"body": "Michelle left; ask Dana.", "deprecates": ["Michelle"]}),
    ("correct", {"body": "x", "deprecates": []}),
    ("recall", {"query": "ufo PR review", "k": 3}),
    ("recall", {"query": "ufo", "as_of": "last tuesday"}),
    ("preview", {"deprecates": ["#ufo-dev"]}),
    ("check", {"text": "git push metalcraftai/ufo main"}),
    ("check", {"text": "git push ufo-ai/ufo main"}),
    ("remember", {"body": "Opened issue #12 on metalcraftai/ufo."}),
    ("retract", {"id": "{fix}"}),
    ("retract", {"id": "{fix}"}),
    ("retract", {"id": "no-such-correction"}),
    ("recall", {"query": "ufo PR review", "k": 3}),
    ("forget", {"body": "x"}),
    ("remember", {"body": "x", "extra": 1}),
]


def _normalise(result: ToolResult, ids: dict[str, str]) -> tuple[bool, str, Any]:
    """Return (is_error, text, data) with generated ids numbered and times zeroed."""

    def rename(match: re.Match[str]) -> str:
        return ids.setdefault(match.group(0), f"<id{len(ids)}>")

    def clean(value: Any) -> Any:
        if isinstance(value, dict):
            return {
                k: 0 if k in ("seconds", "time", "as_of") and value[k] is not None else clean(v)
                for k, v in value.items()
            }
        if isinstance(value, list):
            return [clean(v) for v in value]
        if isinstance(value, str):
            return _UUID.sub(rename, value)
        return value

    return result.is_error, _UUID.sub(rename, result.text), clean(result.data)


def _script_args(args: dict[str, Any], fix: str | None) -> dict[str, Any]:
    """Return the arguments with "{fix}" replaced by the first correction's id."""
    return {k: (fix if v == "{fix}" else v) for k, v in args.items()}


def _first_correction(result: ToolResult, fix: str | None) -> str | None:
    """Return the first correction id seen so far."""
    if fix is None and result.name == "correct" and not result.is_error and result.data:
        return str(result.data["id"])
    return fix


def test_async_dispatcher_gives_the_sync_results(chroma_server: ChromaServer) -> None:
    """Every tool call of the script gives the same result through both dispatchers."""
    sync_col = nowline.wrap(chroma_server.client(chroma_server.new_database())).create_collection(
        "memory", embedding_function=FakeEmbedding()
    )
    sync_results: list[ToolResult] = []
    fix: str | None = None
    for name, args in SCRIPT:
        sync_results.append(run_tool(sync_col, name, _script_args(args, fix)))
        fix = _first_correction(sync_results[-1], fix)
    database = chroma_server.new_database()

    async def main() -> list[ToolResult]:
        client = nowline.wrap(
            await chromadb.AsyncHttpClient(
                host=chroma_server.host, port=chroma_server.port, database=database
            )
        )
        col = await client.create_collection("memory", embedding_function=FakeEmbedding())
        out: list[ToolResult] = []
        fix: str | None = None
        for name, args in SCRIPT:
            out.append(await run_tool_async(col, name, _script_args(args, fix)))
            fix = _first_correction(out[-1], fix)
        return out

    async_results = anyio.run(main)
    sync_ids: dict[str, str] = {}
    async_ids: dict[str, str] = {}
    for (name, _), got, want in zip(SCRIPT, async_results, sync_results, strict=True):
        assert _normalise(got, async_ids) == _normalise(want, sync_ids), name
    assert [r.is_error for r in sync_results].count(True) >= 7  # the mistakes were made


def test_async_dispatcher_refuses_an_unscoped_call_on_a_scoped_store(
    chroma_server: ChromaServer,
) -> None:
    """A scoped collection served without a scope reads and writes nothing, as the sync one."""
    database = chroma_server.new_database()
    scoped = nowline.wrap(
        chroma_server.client(database).create_collection(
            "memory", embedding_function=FakeEmbedding()
        ),
        scope_key="user_id",
    )

    async def main() -> tuple[ToolResult, ToolResult, int]:
        twin = await async_twin(scoped)
        assert twin is not None
        refused = await run_tool_async(twin, "remember", {"body": PR})
        bound = await run_tool_async(twin, "remember", {"body": PR}, metadata={"user_id": "a"})
        return refused, bound, await twin.count()

    refused, bound, count = anyio.run(main)
    assert refused.is_error and "user_id" in refused.text
    assert not bound.is_error and count == 1


def test_server_mode_serves_the_async_twin(chroma_server: ChromaServer, tmp_path: Path) -> None:
    """A collection over HttpClient is served by an AsyncCollection; a local one is not."""
    database = chroma_server.new_database()
    sync_col = nowline.wrap(
        chroma_server.client(database).create_collection(
            "memory", embedding_function=FakeEmbedding()
        ),
        refresh_seconds=0.5,
        max_reach=7,
    )
    sync_col.remember(PR, id="pr")
    local = nowline.wrap(
        chromadb.PersistentClient(path=str(tmp_path / "local")).create_collection(
            "memory", embedding_function=FakeEmbedding()
        )
    )
    seen: dict[str, Any] = {}

    async def main() -> None:
        twin = await async_twin(sync_col)
        seen["twin"] = twin
        seen["local"] = await async_twin(local)
        assert twin is not None
        seen["options"] = twin.options
        seen["records"] = (await twin.get(include=[]))["ids"]
        async with Client(build_server(twin)) as client:
            await client.call_tool("correct", {"body": UFO, "deprecates": ["metalcraftai/ufo"]})
            recall = await client.call_tool("recall", {"query": "ufo PR review", "k": 3})
            seen["recall"] = recall

    anyio.run(main)
    twin = seen["twin"]
    assert isinstance(twin, nowline.AsyncCollection) and seen["local"] is None
    assert (twin.name, twin.raw.database) == ("memory", database)
    same = {k: v for k, v in sync_col.options.items() if k != "embedding_function"}
    assert {k: v for k, v in seen["options"].items() if k != "embedding_function"} == same
    assert twin.embedding_function is sync_col.embedding_function
    assert seen["records"] == ["pr"]
    recall = seen["recall"]
    assert not recall.is_error and f"- [outdated] {PR}\n    now: {UFO}" in recall.content[0].text
    # The twin wrote to the same collection: the sync wrapper sees the correction within its
    # freshness bound (refresh_seconds=0.5 here), not necessarily at once.
    deadline = time.monotonic() + 10
    while not sync_col.check("metalcraftai/ufo"):
        assert time.monotonic() < deadline, "the sync wrapper never saw the twin's correction"
        time.sleep(0.1)


def test_nowline_mcp_url_serves_asynchronously(chroma_server: ChromaServer, tmp_path: Path) -> None:
    """`nowline mcp --url` logs that it serves asynchronously and recalls with the now-line."""
    database = chroma_server.new_database()
    memory = nowline.wrap(chroma_server.client(database)).create_collection(
        "memory", embedding_function=FakeEmbedding()
    )
    memory.remember(PR, id="pr")
    memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="fix")
    url = f"http://{chroma_server.host}:{chroma_server.port}"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", LAUNCH, "mcp", "--url", url, "--database", database],
        env={"HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"},
        cwd=str(ROOT),
    )
    log = tmp_path / "server.log"
    seen: dict[str, types.CallToolResult] = {}

    async def main() -> None:
        with log.open("w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write, read_timeout_seconds=120) as session,
            ):
                await session.initialize()
                seen["recall"] = await session.call_tool(
                    "recall", {"query": "ufo PR review", "k": 3}
                )
                seen["check"] = await session.call_tool("check", {"text": "metalcraftai/ufo"})

    anyio.run(main)
    assert "serving the Chroma server's collection 'memory' asynchronously" in log.read_text()
    recall = seen["recall"]
    assert not recall.is_error
    assert isinstance(recall.content[0], types.TextContent)
    assert f"- [outdated] {PR}\n    now: {UFO}" in recall.content[0].text
    assert not seen["check"].is_error and seen["check"].structured_content["trips"]


def test_the_async_message_note_is_the_sync_one(chroma_server: ChromaServer) -> None:
    """message_note_async on the async twin says what message_note says on the sync store."""
    database = chroma_server.new_database()
    sync_col = nowline.wrap(
        chroma_server.client(database).create_collection(
            "memory", embedding_function=FakeEmbedding()
        )
    )
    sync_col.remember("UFO core lives in metalcraftai/ufo.", id="m1")
    told = "UFO core moved from metalcraftai/ufo to ufo-ai/ufo."
    want = message_note(sync_col, told)

    async def main() -> tuple[str, str]:
        twin = await async_twin(sync_col)
        assert twin is not None
        return await message_note_async(twin, told), await message_note_async(twin, "hello")

    got, nothing = anyio.run(main)
    assert got == want and "deprecates ['metalcraftai/ufo']" in got
    assert nothing == ""
