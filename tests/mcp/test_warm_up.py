"""The MCP server's warm-up on a Chroma server: a fresh collection is never queried.

On chromadb 1.5.9 a query that races the first write to a fresh server collection fails with
"Error creating hnsw segment reader: Nothing found on disk" (about one query in 25, measured
with two queries beside one first ``add``). ``nowline mcp --url`` warmed up with a recall, so
a client that remembered something at start-up got "Warming up the memory tools failed" and
chromadb's traceback in the server's log.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import chromadb
import pytest
from chromadb.errors import InternalError

import nowline
from nowline.surfaces.mcp_server import _warm_up, _warm_up_async, async_twin
from tests.conftest import ChromaServer, FakeEmbedding

RACE = "Error executing plan: Internal error: Error creating hnsw segment reader: Nothing found"
FAILED = "Warming up the memory tools failed."


class CountingEmbedding(FakeEmbedding):
    """The fake embedding function, counting the texts it embeds."""

    def __init__(self) -> None:
        """Start at zero."""
        super().__init__()
        self.texts = 0

    def __call__(self, input: Any) -> Any:
        """Embed ``input`` and count it."""
        self.texts += len(input)
        return super().__call__(input)


def _open(server: ChromaServer, function: FakeEmbedding) -> nowline.Collection:
    """Create a fresh collection on a new database of the server; return it wrapped."""
    client = nowline.wrap(server.client(server.new_database()))
    return client.create_collection("memory", embedding_function=function)


def _queries_fail_as_in_the_race(monkeypatch: pytest.MonkeyPatch, api: Any) -> list[int]:
    """Make every query of a chromadb client fail as the race makes it; count the tries."""
    tries: list[int] = []

    async def fail(*args: Any, **kwargs: Any) -> Any:
        tries.append(1)
        raise InternalError(RACE)

    monkeypatch.setattr(api, "_query", fail)
    return tries


@pytest.mark.server
def test_warm_up_never_queries_a_fresh_server_collection(
    chroma_server: ChromaServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """On an empty collection the model and corrections load, and no query is sent."""
    function = CountingEmbedding()
    memory = _open(chroma_server, function)

    async def run() -> list[int]:
        twin = await async_twin(memory)
        assert twin is not None
        tries = _queries_fail_as_in_the_race(monkeypatch, twin.raw._client)
        await _warm_up_async(twin)
        return tries

    with caplog.at_level(logging.INFO, logger="nowline.surfaces.mcp_server"):
        tries = asyncio.run(run())
    assert tries == [] and function.texts == 1
    assert FAILED not in caplog.text and "memory tools ready" in caplog.text


@pytest.mark.server
def test_warm_up_loads_the_index_of_a_collection_with_records(
    chroma_server: ChromaServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A collection that holds records is recalled from once, which loads Chroma's index."""
    memory = _open(chroma_server, FakeEmbedding())
    memory.remember("metalcraftai/ufo — PR #1705 passed review.")
    queries: list[int] = []
    real = memory.raw._client._query

    def spy(*args: Any, **kwargs: Any) -> Any:
        queries.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(memory.raw._client, "_query", spy)
    _warm_up(memory)
    assert queries == [1]


@pytest.mark.server
def test_warm_up_beside_the_first_remember_logs_no_failure(
    chroma_server: ChromaServer, caplog: pytest.LogCaptureFixture
) -> None:
    """Ten fresh collections, each warmed up while a client remembers: no failure is logged."""

    async def run() -> None:
        for _ in range(10):
            twin = await async_twin(_open(chroma_server, FakeEmbedding()))
            assert twin is not None
            await asyncio.gather(
                _warm_up_async(twin), twin.remember("metalcraftai/ufo — PR #1705 passed.")
            )

    with caplog.at_level(logging.WARNING, logger="nowline.surfaces.mcp_server"):
        asyncio.run(run())
    assert FAILED not in caplog.text


def test_warm_up_of_a_local_store_without_records_checks_only(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sync warm-up of an empty local collection embeds once and sends no query."""
    function = CountingEmbedding()
    memory = nowline.wrap(chromadb.PersistentClient(path=str(tmp_path))).create_collection(
        "memory", embedding_function=function
    )
    tries: list[int] = []

    def fail(*args: Any, **kwargs: Any) -> Any:
        tries.append(1)
        raise InternalError(RACE)

    monkeypatch.setattr(memory.raw._client, "_query", fail)
    _warm_up(memory)
    assert tries == [] and function.texts == 1
