"""The async collection under concurrency, over a real Chroma server (issue 16, item 3).

Many ``recall()``s and writes run as tasks of one event loop on one ``nowline.AsyncCollection``.
Afterwards the store holds exactly the reference's links (``links_match_reference``, read
through a plain sync client of the same database) and recall, async and sync alike, shows the
reference's roles and now-lines. The loop's longest stall is recorded as a test property
(``max_loop_lag_ms``, in the JUnit report), never asserted: timing belongs to
``bench/async_recall.py``, which measures it on a large store and profiles what runs on the loop.

The freshness test is fault 3's promise for the async reader: a correction another client
writes (or retracts) reaches it within ``refresh_seconds``.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from typing import Any

import chromadb
import pytest

import nowline
from tests.conftest import ChromaServer, FakeEmbedding
from tests.reliability.invariants import links_match_reference, recall_matches_reference
from tests.reliability.reference import all_records, expected_states

pytestmark = [pytest.mark.server, pytest.mark.asyncio(loop_scope="module")]

SLUGS = ["acme/app", "acme/api", "acme/db", "beta/svc", "gamma/ui", "delta/ops"]
NEW = {s: s.replace("/", "/new-") for s in SLUGS}
FILLER = ["deploy", "notes", "ticket", "call", "today", "review", "incident", "owner"]
MEMORIES = 300
RECALLS = 50
REFRESH = 0.2
SLACK = 0.4


def _text(rng: random.Random, i: int) -> str:
    """Return memory ``i``: filler words, and a slug for most memories."""
    words = rng.sample(FILLER, 3)
    if i % 5:
        words.insert(rng.randrange(4), rng.choice(SLUGS))
    return f"{' '.join(words)} #{i}"


@pytest.fixture
def database(chroma_server: ChromaServer) -> str:
    """Return a fresh database of the session's server."""
    return chroma_server.new_database()


@pytest.fixture
def seeded(chroma_server: ChromaServer, database: str) -> Iterator[chromadb.api.ClientAPI]:
    """Store MEMORIES plain memories through a sync wrapper; yield the sync client."""
    client = chroma_server.client(database)
    col = nowline.wrap(client).create_collection("mem", embedding_function=FakeEmbedding())
    rng = random.Random(16)
    col.add(
        ids=[f"m{i:04d}" for i in range(MEMORIES)],
        documents=[_text(rng, i) for i in range(MEMORIES)],
    )
    yield client


async def _async_collection(server: ChromaServer, database: str, **options: Any) -> Any:
    """Return the collection ``mem`` through ``nowline.wrap(await AsyncHttpClient(...))``."""
    client = nowline.wrap(
        await chromadb.AsyncHttpClient(host=server.host, port=server.port, database=database),
        **options,
    )
    return await client.get_collection("mem", embedding_function=FakeEmbedding())


class LagMonitor:
    """Measures how late a 1 ms sleep wakes up: the longest time the loop was blocked."""

    def __init__(self) -> None:
        """Start with no samples."""
        self.max_lag = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        """Sleep 1 ms at a time and record the largest overshoot."""
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.001)
            self.max_lag = max(self.max_lag, time.perf_counter() - start - 0.001)

    def __enter__(self) -> LagMonitor:
        """Start sampling on the running loop."""
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        """Stop sampling."""
        assert self._task is not None
        self._task.cancel()


async def test_concurrent_recalls_and_writes_keep_the_registry_consistent(
    chroma_server: ChromaServer,
    database: str,
    seeded: chromadb.api.ClientAPI,
    request: pytest.FixtureRequest,
) -> None:
    """Fifty recalls and a dozen writes on one loop leave exactly the reference's links."""
    col = await _async_collection(chroma_server, database)
    rng = random.Random(7)
    results: dict[str, Any] = {}

    async def recall(i: int) -> None:
        slug = SLUGS[i % len(SLUGS)]
        results[f"recall{i}"] = await col.recall(f"{slug} deploy notes", n_results=10)

    async def correct(slug: str) -> None:
        results[f"fix {slug}"] = await col.correct(
            f"Moved from {slug} to {NEW[slug]}.", deprecates=[slug], id=f"fix-{slug}"
        )

    async def remember(i: int) -> None:
        results[f"late{i}"] = await col.remember(f"{_text(rng, i)} late", id=f"late{i}")

    async def add_with_correction() -> None:
        await col.add(
            ids=["batch-fix", "batch-a", "batch-b"],
            documents=["gamma/ui is now gamma/web.", "gamma/ui review", "owner call"],
            metadatas=[{"deprecates": ["gamma/ui"]}, {"n": 1}, {"n": 2}],
        )

    async def check(i: int) -> None:
        results[f"check{i}"] = await col.check(f"deploy {SLUGS[i % len(SLUGS)]} now")

    tasks: list[Any] = [recall(i) for i in range(RECALLS)]
    tasks += [correct(s) for s in SLUGS[:3]]
    tasks += [remember(i) for i in range(MEMORIES, MEMORIES + 6)]
    tasks += [add_with_correction()] + [check(i) for i in range(10)]
    rng.shuffle(tasks)
    loop = asyncio.get_running_loop()
    debug, slow = loop.get_debug(), loop.slow_callback_duration
    loop.set_debug(True)
    loop.slow_callback_duration = 0.005
    try:
        with LagMonitor() as lag:
            await asyncio.gather(*tasks)
            await col.retract("fix-acme/api")
    finally:
        loop.set_debug(debug)
        loop.slow_callback_duration = slow
    request.node.user_properties.append(("max_loop_lag_ms", round(lag.max_lag * 1000, 2)))

    assert all(results[f"fix {s}"].reached > 0 for s in SLUGS[:3])
    assert all(len(results[f"recall{i}"].hits) == 10 for i in range(RECALLS))
    sync = nowline.wrap(seeded.get_collection("mem", embedding_function=FakeEmbedding()))
    records = links_match_reference(sync)
    assert {"fix-acme/app", "fix-acme/api", "fix-acme/db", "batch-fix", "late305"} <= {
        r.id for r in records
    }
    recall_matches_reference(sync)
    want = expected_states(all_records(sync))
    for query in ("acme/app deploy", "gamma/ui review owner", "acme/api call"):
        got = await col.recall(query, n_results=40)
        assert [h.id for h in got.hits] == [h.id for h in sync.recall(query, n_results=40).hits]
        for hit in got.hits:
            direct = tuple(sorted(c.id for c in hit.direct))
            assert (hit.role, direct, tuple(c.id for c in hit.now)) == want[hit.id], hit.id
    assert [t.correction.id for t in await col.check("deploy acme/app")] == ["fix-acme/app"]
    assert await col.check("deploy acme/api") == []


async def test_first_calls_at_once_load_the_corrections_once_and_right(
    chroma_server: ChromaServer, database: str, seeded: chromadb.api.ClientAPI
) -> None:
    """Ten concurrent first calls of a new async wrapper all see the stored corrections."""
    sync = nowline.wrap(seeded.get_collection("mem", embedding_function=FakeEmbedding()))
    sync.correct("Moved from acme/app to acme/web.", deprecates=["acme/app"], id="fix")
    col = await _async_collection(chroma_server, database)
    checks = [col.check("deploy acme/app") for _ in range(5)]
    recalls = [col.recall("acme/app deploy", n_results=5) for _ in range(5)]
    got = await asyncio.gather(*checks, *recalls)
    assert all([t.correction.id for t in trips] == ["fix"] for trips in got[:5])
    for packet in got[5:]:
        for hit in packet.hits:
            if "acme/app" in (hit.document or ""):
                assert hit.role == "historical" and [c.id for c in hit.now] == ["fix"]


async def test_a_change_by_another_client_reaches_the_async_reader_within_the_bound(
    chroma_server: ChromaServer, database: str, seeded: chromadb.api.ClientAPI
) -> None:
    """A correction written, then retracted, by a sync client is seen by the async reader."""
    writer = nowline.wrap(seeded.get_collection("mem", embedding_function=FakeEmbedding()))
    reader = await _async_collection(chroma_server, database, refresh_seconds=REFRESH)
    assert await reader.check("deploy acme/db") == []
    writer.correct("Moved from acme/db to acme/store.", deprecates=["acme/db"], id="fix")
    await asyncio.sleep(REFRESH + SLACK)
    assert [t.correction.id for t in await reader.check("deploy acme/db")] == ["fix"]
    writer.retract("fix")
    await asyncio.sleep(REFRESH + SLACK)
    assert await reader.check("deploy acme/db") == []
