"""The async wrappers as chromadb async objects, their guard, and the Async page's example.

The behaviour suite runs on the async collection through ``tests/async_bridge.py`` (``pytest
--backend=http``). The few tests it cannot carry over (they name the sync classes, or patch
them) have their async counterparts here, written with ``await``.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import chromadb
import pytest
import pytest_asyncio
from chromadb.api import AsyncClientAPI
from chromadb.api.models.AsyncCollection import AsyncCollection as ChromaAsyncCollection

import nowline
from tests.conftest import ChromaServer, FakeEmbedding

ON_LOOP = pytest.mark.asyncio(loop_scope="module")
"""The async tests share one event loop (chromadb keeps an HTTP client per loop)."""

ROOT = Path(__file__).resolve().parents[2]
UFO = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo."


@pytest_asyncio.fixture(loop_scope="module")
async def client(chroma_server: ChromaServer) -> AsyncIterator[Any]:
    """Return a wrapped AsyncHttpClient on a fresh database of the session's server."""
    raw = await chromadb.AsyncHttpClient(
        host=chroma_server.host, port=chroma_server.port, database=chroma_server.new_database()
    )
    yield nowline.wrap(raw)


@pytest.mark.server
@ON_LOOP
async def test_wrapped_async_objects_are_chromadb_async_objects(client: Any) -> None:
    """The wrapped client is an AsyncClientAPI and every accessor gives wrapped collections."""
    assert isinstance(client, nowline.AsyncClient) and isinstance(client, AsyncClientAPI)
    col = await client.create_collection("typed", embedding_function=FakeEmbedding())
    await client.get_or_create_collection("other", embedding_function=FakeEmbedding())
    opened = [
        col,
        await client.get_collection("typed", embedding_function=FakeEmbedding()),
        await client.get_collection_by_id(col.id, embedding_function=FakeEmbedding()),
        *await client.list_collections(),
    ]
    for each in opened:
        assert isinstance(each, nowline.AsyncCollection) and isinstance(each, ChromaAsyncCollection)
    assert await client.count_collections() == 2
    assert client.tenant == client.raw.tenant and client.database == client.raw.database
    assert (col.tenant, col.database, col.get_model()) == (
        col.raw.tenant,
        col.raw.database,
        col.raw.get_model(),
    )
    for name in ("search", "fork", "get_model", "get_indexing_status"):
        assert callable(getattr(col, name)), name


@pytest.mark.server
@ON_LOOP
async def test_a_method_nowline_does_not_name_passes_through(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A method a later chromadb adds works through the async wrappers without a release."""

    async def future_method(self: Any, x: int) -> tuple[str, int]:
        return self.name, x

    async def future_client_method(self: Any) -> str:
        return "from chromadb"

    monkeypatch.setattr(ChromaAsyncCollection, "future_method", future_method, raising=False)
    monkeypatch.setattr(
        type(client.raw), "future_client_method", future_client_method, raising=False
    )
    col = await client.create_collection("future", embedding_function=FakeEmbedding())
    assert await col.future_method(3) == ("future", 3)
    assert await client.future_client_method() == "from chromadb"


@pytest.mark.server
@ON_LOOP
async def test_guard_decorates_coroutine_functions(client: Any) -> None:
    """An async guard stops a stale call before it runs; allow_stale runs it anyway."""
    memory = await client.create_collection("guarded", embedding_function=FakeEmbedding())
    await memory.remember("metalcraftai/ufo — PR #1705 passed review.")
    await memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="fix")
    ran: list[str] = []

    @memory.guard
    async def push(repo: str) -> str:
        ran.append(repo)
        return f"pushed {repo}"

    with pytest.raises(nowline.StaleReference) as info:
        await push("metalcraftai/ufo")
    assert [t.correction.id for t in info.value.trips] == ["fix"] and ran == []
    assert await push("ufo-ai/ufo") == "pushed ufo-ai/ufo"
    assert await push("metalcraftai/ufo", allow_stale=True) == "pushed metalcraftai/ufo"
    assert ran == ["ufo-ai/ufo", "metalcraftai/ufo"]
    with pytest.raises(nowline.InvalidInput, match="async function"):
        memory.guard(lambda repo: repo)
    with pytest.raises(nowline.StaleReference):
        await memory.require_current("clone metalcraftai/ufo")
    assert (await memory.annotate("clone metalcraftai/ufo")).endswith(f"    now: {UFO}")


def _readme_async_block() -> str:
    """Return the first python block of the Async page (docs/async.md)."""
    page = (ROOT / "docs" / "async.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", page, re.S)
    assert block is not None, "docs/async.md has no python block"
    return block.group(1)


def test_readme_async_block_is_the_example() -> None:
    """The Async page's example is the executed part of examples/async_memory.py, verbatim."""
    block = _readme_async_block()
    example = (ROOT / "examples" / "async_memory.py").read_text(encoding="utf-8")
    marked = re.search(r"# README: start\n(.*?)# README: end\n", example, re.S)
    assert marked is not None
    assert block == marked.group(1)


@pytest.mark.server
def test_readme_async_example_runs_against_a_server(
    chroma_server: ChromaServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """The Async page's block, run alone in a fresh namespace, works against a real server.

    tests/project/test_docs.py runs it alone too, where it only defines the coroutine; here the
    coroutine runs against the session's ``chroma run`` server (its default database).
    """
    block = _readme_async_block()
    namespace: dict[str, Any] = {"__name__": "__readme__"}
    exec(compile(block, "docs/async.md", "exec"), namespace)
    packets = asyncio.run(namespace["remember_and_recall"](chroma_server.host, chroma_server.port))
    assert len(packets) == 2 and all(isinstance(p, nowline.Recall) for p in packets)
    fix = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo."
    for packet in packets:
        assert (
            f"- [outdated] metalcraftai/ufo — PR #1705 passed review.\n    now: {fix}"
            in packet.render()
        )
    assert "superseded" in capsys.readouterr().out  # the guard refused the old repository
